/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <string.h>

#include "config.h"

guint
ttg_keyfile_bad_line (const char *text)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  const char *rest = text;
  guint line = 0;

  /* GKeyFile parses line by line and stops at the first bad one, so the
   * shortest prefix of whole lines that fails to load ends with it. Its
   * message cannot tell: it is translated, quotes differ by language, and
   * some messages quote nothing. Quadratic, for files of a few lines. */
  while (rest && *rest)
    {
      const char *nl = strchr (rest, '\n');
      gsize prefix = nl ? (gsize) (nl + 1 - text) : strlen (text);

      line++;
      if (!g_key_file_load_from_data (kf, text, prefix, G_KEY_FILE_KEEP_TRANSLATIONS, NULL))
        return line;
      rest = nl ? nl + 1 : NULL;
    }
  return 0;
}

gboolean
ttg_config_merge_data (TtgPolicy *p, TtgLimits *limits, const char *data, gsize length,
                       const char *origin, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) local = NULL;
  TtgPolicy merged;
  TtgLimits merged_limits;
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
      /* GKeyFile does not number the bad line. The prefix stays outside
       * its (translated) message, so every locale gets FILE:LINE. */
      g_autofree char *text = g_strndup (data ? data : "", length);
      guint line = ttg_keyfile_bad_line (text);

      if (line > 0)
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s:%u: %s", origin, line, local->message);
      else
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", origin, local->message);
      return FALSE;
    }
  /* All or nothing over both groups. */
  merged = *p;
  if (limits)
    merged_limits = *limits;
  else
    ttg_limits_init_default (&merged_limits);
  if (!ttg_policy_merge_keyfile (&merged, kf, origin, error))
    return FALSE;
  if (!ttg_limits_merge_keyfile (&merged_limits, kf, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", origin);
      return FALSE;
    }
  *p = merged;
  if (limits)
    *limits = merged_limits;
  return TRUE;
}

static gboolean
merge_file (TtgPolicy *p, TtgLimits *limits, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", path, local->message);
      return FALSE;
    }
  return ttg_config_merge_data (p, limits, data, length, path, error);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
ttg_config_load (const char *main_file, const char *dropin_dir,
                 TtgPolicy *out, TtgLimits *limits_out, GError **error)
{
  TtgPolicy p;
  TtgLimits limits;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  ttg_policy_init_defaults (&p);
  ttg_limits_init_default (&limits);

  if (main_file && g_file_test (main_file, G_FILE_TEST_EXISTS))
    if (!merge_file (&p, &limits, main_file, error))
      return FALSE;

  if (dropin_dir)
    dir = g_dir_open (dropin_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    if (name[0] != '.' && g_str_has_suffix (name, ".conf")) /* editors' hidden files too */
      g_ptr_array_add (names, g_build_filename (dropin_dir, name, NULL));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    if (!merge_file (&p, &limits, names->pdata[i], error))
      return FALSE;

  *out = p;
  if (limits_out)
    *limits_out = limits;
  return TRUE;
}
