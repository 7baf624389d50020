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

static gboolean
merge_file (TtgPolicy *p, TtgLimits *limits, const char *path, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) local = NULL;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_TRANSLATIONS, &local))
    {
      g_autofree char *text = NULL;
      guint line = 0;

      /* GKeyFile does not number the bad line. The prefix stays outside
       * its (translated) message, so every locale gets FILE:LINE. */
      if (g_file_get_contents (path, &text, NULL, NULL))
        line = ttg_keyfile_bad_line (text);
      if (line > 0)
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s:%u: %s", path, line, local->message);
      else
        g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", path, local->message);
      return FALSE;
    }
  if (!ttg_policy_merge_keyfile (p, kf, path, error))
    return FALSE;
  if (!ttg_limits_merge_keyfile (limits, kf, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", path);
      return FALSE;
    }
  return TRUE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

gboolean
ttg_config_load_with_limits (const char *main_file, const char *dropin_dir,
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

gboolean
ttg_config_load (const char *main_file, const char *dropin_dir, TtgPolicy *out, GError **error)
{
  return ttg_config_load_with_limits (main_file, dropin_dir, out, NULL, error);
}
