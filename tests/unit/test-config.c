/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

/* A scratch /etc/ttygroup: the main file and the drop-in directory are only
 * paths here; each test creates what it needs. */
typedef struct {
  char *root;
  char *main_file;
  char *dropin_dir;
  TtgPolicy defaults;
  TtgPolicy sentinel; /* what the output holds before a load; no default */
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GError) error = NULL;

  fx->root = g_dir_make_tmp ("ttg-config-XXXXXX", &error);
  g_assert_no_error (error);
  fx->main_file = g_build_filename (fx->root, "ttygroup.conf", NULL);
  fx->dropin_dir = g_build_filename (fx->root, "ttygroup.conf.d", NULL);

  ttg_policy_init_defaults (&fx->defaults);
  fx->sentinel = (TtgPolicy) {
    .enabled = !fx->defaults.enabled,
    .group_terminals = !fx->defaults.group_terminals,
    .manage_greeter = !fx->defaults.manage_greeter,
    .active_session_weight = 4001,
    .session_weight = 4002,
    .remote_session_weight = 4003,
    .terminal_weight = 4004,
  };
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_assert_no_errno (g_rmdir (path));
    }
  else
    g_assert_no_errno (g_unlink (path));
}

static void
fixture_teardown (Fixture *fx, gconstpointer user_data)
{
  remove_tree (fx->root);
  g_free (fx->root);
  g_free (fx->main_file);
  g_free (fx->dropin_dir);
}

static void
write_file (const char *path, const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* Creates the drop-in directory on first use; returns the file's path. */
static char *
write_dropin (Fixture *fx, const char *name, const char *contents)
{
  char *path = g_build_filename (fx->dropin_dir, name, NULL);

  g_assert_no_errno (g_mkdir_with_parents (fx->dropin_dir, 0755));
  write_file (path, contents);
  return path;
}

static void
assert_loads (Fixture *fx, const TtgPolicy *expected)
{
  g_autoptr(GError) error = NULL;
  TtgPolicy out = fx->sentinel;

  g_assert_true (ttg_config_load (fx->main_file, fx->dropin_dir, &out, NULL, &error));
  g_assert_no_error (error);
  if (!ttg_policy_equal (&out, expected))
    {
      g_autofree char *got = ttg_policy_to_string (&out);
      g_autofree char *want = ttg_policy_to_string (expected);

      g_error ("loaded \"%s\", expected \"%s\"", got, want);
    }
}

/* The load fails, blames bad_file and mentions each of the NULL-terminated
 * words, and leaves the output exactly as it was. */
static void
assert_load_fails (Fixture *fx, const char *bad_file, ...)
{
  g_autoptr(GError) error = NULL;
  TtgPolicy out = fx->sentinel;
  const char *word;
  va_list args;

  g_assert_false (ttg_config_load (fx->main_file, fx->dropin_dir, &out, NULL, &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_test_message ("error: %s", error->message);
  g_assert_true (g_str_has_prefix (error->message, bad_file));
  g_assert_nonnull (strstr (error->message, bad_file));

  va_start (args, bad_file);
  while ((word = va_arg (args, const char *)))
    if (!strstr (error->message, word))
      g_error ("\"%s\" does not mention \"%s\"", error->message, word);
  va_end (args);

  g_assert_true (ttg_policy_equal (&out, &fx->sentinel));
  g_assert_cmpmem (&out, sizeof out, &fx->sentinel, sizeof fx->sentinel);
}

static void
test_no_files (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GError) error = NULL;
  TtgPolicy out = fx->sentinel;

  assert_loads (fx, &fx->defaults);

  /* No paths at all means the same. */
  g_assert_true (ttg_config_load (NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ttg_policy_equal (&out, &fx->defaults));
}

static void
test_empty_files (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  write_file (fx->main_file, "");
  a = write_dropin (fx, "10-a.conf", "# only a comment\n\n");
  b = write_dropin (fx, "20-b.conf", "[Policy]\n");
  assert_loads (fx, &fx->defaults);
}

static void
test_main_only (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy expected = fx->defaults;

  write_file (fx->main_file,
              "# Shipped defaults, changed by the admin\n"
              "[Policy]\n"
              "Enabled=false\n"
              "\n"
              "# trailing blanks are forgiven\n"
              "SessionWeight=50 \n"
              "ManageGreeter=yes\n");
  expected.enabled = FALSE;
  expected.session_weight = 50;
  expected.manage_greeter = TRUE;
  assert_loads (fx, &expected);

  /* An empty drop-in directory changes nothing. */
  g_assert_no_errno (g_mkdir (fx->dropin_dir, 0755));
  assert_loads (fx, &expected);
}

static void
test_dropins_override (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy expected = fx->defaults;
  g_autofree char *b = NULL;
  g_autofree char *a = NULL;
  g_autofree char *bak = NULL;
  g_autofree char *readme = NULL;
  g_autofree char *disabled = NULL;
  g_autofree char *conf_file = NULL;

  write_file (fx->main_file,
              "[Policy]\n"
              "SessionWeight=50\n"
              "TerminalWeight=60\n"
              "ManageGreeter=true\n");
  /* Written in the wrong order, so directory order cannot pass for lexical. */
  b = write_dropin (fx, "20-b.conf",
                    "[Policy]\n"
                    "SessionWeight=300\n"
                    "ManageGreeter=false\n");
  a = write_dropin (fx, "10-a.conf",
                    "[Policy]\n"
                    "SessionWeight=200\n"
                    "ActiveSessionWeight=400\n");
  /* Not "*.conf": never read, or their garbage would fail the load. */
  bak = write_dropin (fx, "30-c.conf.bak", "[Policy]\nSessionWeight=1\n");
  readme = write_dropin (fx, "README", "Put *.conf files here.\n");
  disabled = write_dropin (fx, "40-d.conf.disabled", "not a key file\n");
  conf_file = g_build_filename (fx->dropin_dir, "conf", NULL);
  write_file (conf_file, "SessionWeight=oops\n");

  expected.session_weight = 300;        /* main, 10-a, then 20-b */
  expected.active_session_weight = 400; /* 10-a only */
  expected.terminal_weight = 60;        /* main only */
  expected.manage_greeter = FALSE;      /* 20-b over main */
  assert_loads (fx, &expected);
}

static void
test_dropins_lexical (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy expected = fx->defaults;
  g_autofree char *nine = NULL;
  g_autofree char *ten = NULL;
  g_autofree char *upper = NULL;

  /* Lexical, not numeric: "9-" sorts after "10-", and (byte order)
   * "B" before "a". */
  nine = write_dropin (fx, "9-late.conf", "[Policy]\nTerminalWeight=900\n");
  ten = write_dropin (fx, "10-early.conf",
                      "[Policy]\nTerminalWeight=100\nRemoteSessionWeight=10\n");
  upper = write_dropin (fx, "B.conf", "[Policy]\nRemoteSessionWeight=20\nTerminalWeight=1\n");

  /* No main file: drop-ins go straight onto the defaults. */
  expected.terminal_weight = 1;          /* 10-early, 9-late, B */
  expected.remote_session_weight = 20;   /* 10-early, B */
  assert_loads (fx, &expected);
}

static void
test_missing_dropin_dir (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy expected = fx->defaults;

  write_file (fx->main_file, "[Policy]\nGroupTerminals=false\n");
  expected.group_terminals = FALSE;
  g_assert_false (g_file_test (fx->dropin_dir, G_FILE_TEST_EXISTS));
  assert_loads (fx, &expected);
}

static void
test_syntax_error_main (Fixture *fx, gconstpointer user_data)
{
  write_file (fx->main_file, "[Policy]\nEnabled=true\nthis is not a key\n");
  assert_load_fails (fx, fx->main_file, "line", "this is not a key", ".conf:3:", NULL);

  /* A group header that is never closed. */
  write_file (fx->main_file, "[Policy\nEnabled=true\n");
  assert_load_fails (fx, fx->main_file, "line", ".conf:1:", NULL);

  /* Keys before any group: GKeyFile names neither line nor key here; the
   * first line that is not blank or a comment is where it goes wrong. */
  write_file (fx->main_file, "# policy\n\n  Enabled=true\n[Policy]\n");
  assert_load_fails (fx, fx->main_file, ".conf:3:", NULL);
}

static void
test_syntax_error_dropin (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  write_file (fx->main_file, "[Policy]\nSessionWeight=50\n");
  a = write_dropin (fx, "10-a.conf", "[Policy]\nSessionWeight=60\n");
  b = write_dropin (fx, "20-b.conf", "[Policy]\nSessionWeight 70\n");
  assert_load_fails (fx, b, "line", "SessionWeight 70", "20-b.conf:2:", NULL);
}

static const struct {
  const char *contents;
  const char *word; /* the key, or the group, the message must name */
} bad_files[] = {
  { "[Policy]\nSessionWeight=abc\n", "SessionWeight" },
  { "[Policy]\nSessionWeight=0\n", "SessionWeight" },
  { "[Policy]\nTerminalWeight=10001\n", "TerminalWeight" },
  { "[Policy]\nActiveSessionWeight=-5\n", "ActiveSessionWeight" },
  { "[Policy]\nRemoteSessionWeight=\n", "RemoteSessionWeight" },
  { "[Policy]\nEnabled=maybe\n", "Enabled" },
  { "[Policy]\nGroupTerminals=100\n", "GroupTerminals" },
  { "[Policy]\nEnabled=false\nBogus=1\n", "Bogus" },
  { "[Policy]\nsessionweight=100\n", "sessionweight" },
  { "[Policy]\nEnabled[de]=false\n", "Enabled[de]" },
  { "[Policy]\nEnabled=true\nEnabled[de]=false\n", "Enabled[de]" },
  { "[Policy]\nEnabled=true\n[Terminals]\nWeight=5\n", "Terminals" },
  { "[Other]\nEnabled=true\n", "Other" },
  { "[policy]\nEnabled=true\n", "policy" },
};

static void
test_bad_main (Fixture *fx, gconstpointer user_data)
{
  /* A valid drop-in after the bad main file does not make it load. */
  g_free (write_dropin (fx, "10-a.conf", "[Policy]\nSessionWeight=60\n"));

  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    {
      write_file (fx->main_file, bad_files[i].contents);
      assert_load_fails (fx, fx->main_file, bad_files[i].word, NULL);
    }
}

static void
test_bad_dropin (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;

  /* Valid files on both sides of the bad one: their values must not leak
   * into the output either. */
  write_file (fx->main_file, "[Policy]\nEnabled=false\nSessionWeight=50\n");
  a = write_dropin (fx, "10-a.conf", "[Policy]\nTerminalWeight=70\n");
  c = write_dropin (fx, "30-c.conf", "[Policy]\nRemoteSessionWeight=80\n");

  for (guint i = 0; i < G_N_ELEMENTS (bad_files); i++)
    {
      g_free (b);
      b = write_dropin (fx, "20-b.conf", bad_files[i].contents);
      assert_load_fails (fx, b, bad_files[i].word, NULL);
    }
}

static void
test_first_error_wins (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr(GError) error = NULL;
  TtgPolicy out = fx->sentinel;

  /* Two bad drop-ins: the message is about the first one read, and only
   * about it. */
  a = write_dropin (fx, "10-a.conf", "[Policy]\nSessionWeight=zero\n");
  b = write_dropin (fx, "20-b.conf", "[Policy]\nTerminalWeight=zero\n");
  g_assert_false (ttg_config_load (fx->main_file, fx->dropin_dir, &out, NULL, &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_true (g_str_has_prefix (error->message, a));
  g_assert_nonnull (strstr (error->message, "SessionWeight"));
  g_assert_null (strstr (error->message, b));
  g_assert_null (strstr (error->message, "TerminalWeight"));
  g_assert_true (ttg_policy_equal (&out, &fx->sentinel));

  /* A bad main file is reported before any drop-in. */
  g_clear_error (&error);
  write_file (fx->main_file, "[Policy]\nManageGreeter=2\n");
  assert_load_fails (fx, fx->main_file, "ManageGreeter", NULL);
}

static void
test_error_optional (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy out = fx->sentinel;

  write_file (fx->main_file, "[Policy]\nSessionWeight=0\n");
  g_assert_false (ttg_config_load (fx->main_file, fx->dropin_dir, &out, NULL, NULL));
  g_assert_true (ttg_policy_equal (&out, &fx->sentinel));

  write_file (fx->main_file, "[Policy\n");
  g_assert_false (ttg_config_load (fx->main_file, fx->dropin_dir, &out, NULL, NULL));
  g_assert_true (ttg_policy_equal (&out, &fx->sentinel));
}

/* [Limits] in the main file and drop-ins, later files win key by key; a
 * bad limit fails the whole load, policy and limits both untouched. */
static void
test_limits (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  TtgPolicy out = fx->sentinel;
  TtgLimits limits = { 7, 7, 7 };

  write_file (fx->main_file, "[Policy]\nSessionWeight=50\n[Limits]\nMaxTerminalGroupsPerUser=10\nTerminalGroupBurst=5\n");
  a = write_dropin (fx, "10-a.conf", "[Limits]\nTerminalGroupBurst=3\n");
  g_assert_true (ttg_config_load (fx->main_file, fx->dropin_dir, &out, &limits, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.session_weight, ==, 50);
  g_assert_cmpuint (limits.max_groups, ==, 10);
  g_assert_cmpuint (limits.burst, ==, 3);
  g_assert_cmpuint (limits.per_minute, ==, TTG_LIMITS_DEFAULT_PER_MINUTE);

  out = fx->sentinel;
  limits = (TtgLimits) { 7, 7, 7 };
  b = write_dropin (fx, "20-b.conf", "[Limits]\nTerminalGroupsPerMinute=lots\n");
  g_assert_false (ttg_config_load (fx->main_file, fx->dropin_dir, &out, &limits, &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_true (g_str_has_prefix (error->message, b));
  g_assert_nonnull (strstr (error->message, "TerminalGroupsPerMinute"));
  g_assert_true (ttg_policy_equal (&out, &fx->sentinel));
  g_assert_cmpuint (limits.max_groups, ==, 7);
  g_assert_cmpuint (limits.burst, ==, 7);
  g_assert_cmpuint (limits.per_minute, ==, 7);
}

/* The text of a file without the file: only length bytes count (what
 * follows is not read), a NUL inside is an error, not the end. */
static void
test_merge_data (void)
{
  const char text[] = "[Policy]\nSessionWeight=70\nSessionWeight=bogus";
  const char with_nul[] = "[Policy]\nSessionWeight=70\n\0[Policy]\n";
  g_autoptr(GError) error = NULL;
  TtgPolicy p, before;

  ttg_policy_init_defaults (&p);
  g_assert_true (ttg_config_merge_data (&p, NULL, text, strlen ("[Policy]\nSessionWeight=70\n"), "x.conf", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.session_weight, ==, 70);

  before = p;
  g_assert_false (ttg_config_merge_data (&p, NULL, text, strlen (text), "x.conf", &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_true (g_str_has_prefix (error->message, "x.conf"));
  g_assert_nonnull (strstr (error->message, "SessionWeight"));
  g_assert_true (ttg_policy_equal (&p, &before));
  g_clear_error (&error);

  g_assert_false (ttg_config_merge_data (&p, NULL, with_nul, sizeof with_nul - 1, "nul.conf", &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_true (g_str_has_prefix (error->message, "nul.conf:3: "));
  g_assert_true (ttg_policy_equal (&p, &before));
  g_clear_error (&error);

  g_assert_true (ttg_config_merge_data (&p, NULL, NULL, 0, "empty.conf", &error));
  g_assert_no_error (error);
  g_assert_true (ttg_policy_equal (&p, &before));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/config/defaults/no-files", test_no_files);
  ADD ("/config/defaults/empty-files", test_empty_files);
  ADD ("/config/main-only", test_main_only);
  ADD ("/config/dropins/override", test_dropins_override);
  ADD ("/config/dropins/lexical", test_dropins_lexical);
  ADD ("/config/dropins/missing-dir", test_missing_dropin_dir);
  ADD ("/config/bad/syntax-main", test_syntax_error_main);
  ADD ("/config/bad/syntax-dropin", test_syntax_error_dropin);
  ADD ("/config/bad/value-main", test_bad_main);
  ADD ("/config/bad/value-dropin", test_bad_dropin);
  ADD ("/config/bad/first-error-wins", test_first_error_wins);
  ADD ("/config/bad/error-optional", test_error_optional);
  ADD ("/config/limits", test_limits);
  g_test_add_func ("/config/merge-data", test_merge_data);

#undef ADD

  return g_test_run ();
}
