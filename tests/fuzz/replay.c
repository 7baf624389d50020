/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Replays files through a harness once each, without libFuzzer: the seed
 * corpus and every input that once crashed a parser, as a unit test.
 * Usage: replay-HARNESS FILE|DIR...; fails when nothing was replayed. */
#include <string.h>

#include "fuzz.h"

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static guint
replay_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize size = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;
      guint n = 0;

      if (!dir)
        g_error ("%s", error->message);
      while ((name = g_dir_read_name (dir)))
        if (name[0] != '.')
          g_ptr_array_add (names, g_build_filename (path, name, NULL));
      g_ptr_array_sort (names, compare_names);
      for (guint i = 0; i < names->len; i++)
        n += replay_path (names->pdata[i]);
      return n;
    }

  if (!g_file_get_contents (path, &data, &size, &error))
    g_error ("%s", error->message);
  /* An exact-size copy, so the address sanitizer sees a read past the end;
   * never NULL, as libFuzzer's (malloc (0) is a valid pointer, g_malloc's
   * is not). */
  {
    uint8_t *copy = malloc (size);

    g_assert (copy != NULL);
    if (size)
      memcpy (copy, data, size);
    printf ("# %s (%zu bytes)\n", path, (size_t) size);
    fflush (stdout);
    (void) LLVMFuzzerTestOneInput (copy, size);
    free (copy);
  }
  return 1;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    n += replay_path (argv[i]);
  if (n == 0)
    {
      fprintf (stderr, "replay: no input given or found\n");
      return 1;
    }
  printf ("replayed %u inputs\n", n);
  return 0;
}
