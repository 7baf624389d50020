/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <string.h>

#include "config.h"

guint
ttg_keyfile_error_line (const char *text, const char *message)
{
  const char *open = message ? strstr (message, "\u201c") : NULL;
  const char *close = open ? strstr (open + strlen ("\u201c"), "\u201d") : NULL;
  g_autofree char *quoted = NULL;
  g_auto(GStrv) lines = NULL;

  if (!text || !open || !close)
    return 0;
  quoted = g_strndup (open + strlen ("\u201c"), close - open - strlen ("\u201c"));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autofree char *stripped = g_strstrip (g_strdup (lines[i]));

      if (g_str_equal (lines[i], quoted) || g_str_equal (stripped, quoted))
        return i + 1;
    }
  return 0;
}

guint
ttg_keyfile_first_content_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];

      while (g_ascii_isspace (*l))
        l++;
      if (*l && *l != '#')
        return i + 1;
    }
  return 0;
}

gboolean
ttg_config_merge_data (TtgPolicy *p, const char *data, gsize length, const char *origin, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) local = NULL;
  const char *nul;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (origin != NULL, FALSE);

  /* GKeyFile would read a line up to its first NUL and drop the rest of
   * that line unseen: such a file is broken, say where. */
  nul = length ? memchr (data, '\0', length) : NULL;
  if (nul)
    {
      guint line = 1;

      for (const char *c = data; c < nul; c++)
        line += *c == '\n';
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s:%u: contains a NUL byte: not a text file",
                   origin, line);
      return FALSE;
    }
  if (!g_key_file_load_from_data (kf, data ? data : "", length, G_KEY_FILE_KEEP_TRANSLATIONS, &local))
    {
      /* GKeyFile quotes the bad line but does not number it. */
      g_autofree char *text = g_strndup (data ? data : "", length);
      guint line = g_error_matches (local, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND)
                     ? ttg_keyfile_first_content_line (text)
                     : ttg_keyfile_error_line (text, local->message);

      if (line > 0)
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s:%u: %s", origin, line, local->message);
      else
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", origin, local->message);
      return FALSE;
    }
  return ttg_policy_merge_keyfile (p, kf, origin, error);
}

static gboolean
merge_file (TtgPolicy *p, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", path, local->message);
      return FALSE;
    }
  return ttg_config_merge_data (p, data, length, path, error);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
ttg_config_load (const char *main_file, const char *dropin_dir, TtgPolicy *out, GError **error)
{
  TtgPolicy p;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  ttg_policy_init_defaults (&p);

  if (main_file && g_file_test (main_file, G_FILE_TEST_EXISTS))
    if (!merge_file (&p, main_file, error))
      return FALSE;

  if (dropin_dir)
    dir = g_dir_open (dropin_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    if (name[0] != '.' && g_str_has_suffix (name, ".conf")) /* editors' hidden files too */
      g_ptr_array_add (names, g_build_filename (dropin_dir, name, NULL));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    if (!merge_file (&p, names->pdata[i], error))
      return FALSE;

  *out = p;
  return TRUE;
}
