/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The configuration errors under a German locale, set up as ttygroupd sets up
 * its own (its text domain, bound here to the catalogues of the build tree):
 * GLib then answers in German, with other quotes and words, and every syntax
 * error must still say FILE:LINE. The locale is process-wide and GLib decides
 * once whether to translate, hence a program of its own. */
#include "build-config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "config.h"

static char *root;

static void
assert_error_at (const char *name, const char *contents, guint line, const char *quoted)
{
  g_autofree char *path = g_build_filename (root, name, NULL);
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);
  g_autoptr(GError) error = NULL;
  TtgPolicy out;

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  g_assert_false (ttg_config_load (path, NULL, &out, NULL, &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_test_message ("error: %s", error->message);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("\"%s\" does not start with \"%s\"", error->message, prefix);
  /* GLib's own message, translated: without it the test proves nothing. */
  if (quoted && !strstr (error->message, quoted))
    g_error ("\"%s\" is not GLib's German message quoting %s", error->message, quoted);
  g_assert_no_errno (g_unlink (path));
}

static void
test_translated (void)
{
  /* Both catalogues answer: ours from the build tree, GLib's installed one
   * (libglib2.0-data). */
  g_assert_cmpstr (_("Check the configuration files, print the resulting policy and exit"), ==,
                   "Konfiguration prüfen, die resultierenden Regeln ausgeben und beenden");
  g_assert_cmpstr (g_dgettext ("glib20", "Usage:"), ==, "Aufruf:");
}

static void
test_not_a_key (void)
{
  assert_error_at ("a.conf", "[Policy]\nEnabled=true\nthis is not a key\n", 3, "»this is not a key«");
  assert_error_at ("b.conf", "[Policy]\n# weights\n\nSessionWeight 70\nEnabled=true\n", 4, "»SessionWeight 70«");
  /* The same text on an earlier line must not be blamed. */
  assert_error_at ("c.conf", "# SessionWeight 70\n[Policy]\nSessionWeight 70\n", 3, "»SessionWeight 70«");
}

static void
test_unclosed_group (void)
{
  assert_error_at ("d.conf", "# policy\n[Policy\nEnabled=true\n", 2, "»[Policy«");
}

static void
test_key_before_group (void)
{
  /* GLib's message quotes nothing here, in any language. */
  assert_error_at ("e.conf", "# policy\n\n  Enabled=true\n[Policy]\n", 3, NULL);
}

static void
test_last_line_unterminated (void)
{
  assert_error_at ("f.conf", "[Policy]\nEnabled=true\nnot a key", 3, "»not a key«");
}

int
main (int argc, char **argv)
{
  int r;

  /* LANGUAGE picks the catalogue; C.UTF-8 is built into glibc, so no German
   * locale has to be generated on the host. As in ttygroupd, all before the
   * first translated message. */
  g_setenv ("LANGUAGE", "de", TRUE);
  g_assert_nonnull (setlocale (LC_ALL, "C.UTF-8"));
  bindtextdomain (GETTEXT_PACKAGE, TTG_BUILD_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_test_init (&argc, &argv, NULL);
  root = g_dir_make_tmp ("ttg-config-de-XXXXXX", NULL);
  g_assert_nonnull (root);

  g_test_add_func ("/config-locale/translated", test_translated);
  g_test_add_func ("/config-locale/not-a-key", test_not_a_key);
  g_test_add_func ("/config-locale/unclosed-group", test_unclosed_group);
  g_test_add_func ("/config-locale/key-before-group", test_key_before_group);
  g_test_add_func ("/config-locale/last-line-unterminated", test_last_line_unterminated);
  r = g_test_run ();
  g_rmdir (root);
  g_free (root);
  return r;
}
