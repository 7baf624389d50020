/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <string.h>

#include "config.h"

static gboolean
merge_file (TtgPolicy *p, const char *path, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) local = NULL;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_TRANSLATIONS, &local))
    {
      /* GKeyFile's message carries the line number of a syntax error. */
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "%s: %s", path, local->message);
      return FALSE;
    }
  return ttg_policy_merge_keyfile (p, kf, path, error);
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
