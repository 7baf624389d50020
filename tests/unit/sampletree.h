/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Sample trees of /proc and /sys files in a temporary directory, for the
 * tests of what reads them (cpucheck, cpuwatch). */

#include <glib.h>
#include <glib/gstdio.h>

/* Writes text to root/rel, making the directories on the way. */
static inline void
sample_tree_put (const char *root, const char *rel, const char *text)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  if (!g_file_set_contents (path, text, -1, &error))
    g_error ("%s", error->message);
}

/* Removes path and everything below it. */
static inline void
sample_tree_remove (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        sample_tree_remove (child);
      else
        g_assert_cmpint (g_unlink (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}
