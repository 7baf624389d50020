/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "state.h"
#include "util.h"

#include <errno.h>
#include <glib/gstdio.h>

struct TtgState {
  char *path;
  GKeyFile *saved; /* [Policy] with the keys set over D-Bus */
};

TtgState *
ttg_state_new (const char *path)
{
  TtgState *s = g_new0 (TtgState, 1);
  g_autoptr(GError) error = NULL;

  s->path = g_strdup (path);
  s->saved = g_key_file_new ();
  if (g_file_test (path, G_FILE_TEST_EXISTS) &&
      !g_key_file_load_from_file (s->saved, path, G_KEY_FILE_NONE, &error))
    {
      ttg_log_warn ("state", "Ignoring the saved policy %s: %s", path, error->message);
      g_key_file_unref (s->saved);
      s->saved = g_key_file_new ();
    }
  return s;
}

void
ttg_state_free (TtgState *s)
{
  if (!s)
    return;
  g_key_file_unref (s->saved);
  g_free (s->path);
  g_free (s);
}

gboolean
ttg_state_apply (TtgState *s, TtgPolicy *p, GError **error)
{
  return ttg_policy_merge_keyfile (p, s->saved, s->path, error);
}

gboolean
ttg_state_save_keys (TtgState *s, const TtgPolicy *p, const char *const *keys, GError **error)
{
  g_autofree char *all = ttg_policy_to_keyfile_data (p);
  g_autoptr(GKeyFile) values = g_key_file_new ();
  g_autoptr(GKeyFile) next = g_key_file_new ();
  g_autofree char *old = g_key_file_to_data (s->saved, NULL, NULL);
  g_autofree char *data = NULL;
  g_autofree char *dir = NULL;

  if (!g_key_file_load_from_data (values, all, -1, G_KEY_FILE_NONE, error))
    return FALSE;
  if (!g_key_file_load_from_data (next, old, -1, G_KEY_FILE_NONE, error))
    return FALSE;

  for (const char *const *k = keys; *k; k++)
    {
      g_autofree char *v = g_key_file_get_value (values, "Policy", *k, error);
      if (!v)
        return FALSE;
      g_key_file_set_value (next, "Policy", *k, v);
    }
  g_key_file_set_comment (next, NULL, NULL,
                          " Policy set over D-Bus (org.ttygroup1 SetPolicy); written by ttygroupd.\n"
                          " These keys win over /etc/ttygroup/ttygroup.conf.", NULL);

  data = g_key_file_to_data (next, NULL, NULL);
  dir = g_path_get_dirname (s->path);
  if (g_mkdir_with_parents (dir, 0755) < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "Cannot create %s: %s", dir, g_strerror (errno));
      return FALSE;
    }
  /* g_file_set_contents writes a temporary file and renames it over. */
  if (!g_file_set_contents_full (s->path, data, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                 0644, error))
    return FALSE;

  g_key_file_unref (s->saved);
  s->saved = g_steal_pointer (&next);
  return TRUE;
}
