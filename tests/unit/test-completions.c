/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The shell completions keep their own lists of policy keys: each must hold
 * every key of common/ttg-policy-keys.c (a new key forgotten there fails
 * here), the user keys, the boolean spellings and the values of --json. */
#include <string.h>

#include "ttg-policy-keys.h"

/* Each file and how its list of all policy keys starts and ends. */
static const struct {
  const char *name;
  const char *keys_start;
  char keys_end;
} files[] = {
  { "ttygroupctl.bash", "local keys='", '\'' },
  { "_ttygroupctl", "\nkeys=(", ')' },
};

/* word stands in text as a whole word (not inside a longer name). */
static gboolean
has_word (const char *text, const char *word)
{
  gsize len = strlen (word);

  for (const char *p = strstr (text, word); p; p = strstr (p + 1, word))
    {
      gboolean start = p == text || !(g_ascii_isalnum (p[-1]) || p[-1] == '-' || p[-1] == '_');
      gboolean end = !(g_ascii_isalnum (p[len]) || p[len] == '-' || p[len] == '_');

      if (start && end)
        return TRUE;
    }
  return FALSE;
}

static char *
read_completion (const char *name)
{
  g_autofree char *path = g_build_filename (COMPLETIONS_DIR, name, NULL);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* The list of all keys, exactly the keys of the table, in its order. */
static void
test_policy_keys (void)
{
  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *text = read_completion (files[f].name);
      const char *start = strstr (text, files[f].keys_start);
      const char *end;
      g_autofree char *list = NULL;
      g_auto(GStrv) words = NULL;
      guint i = 0;

      g_assert_nonnull (start);
      start += strlen (files[f].keys_start);
      end = strchr (start, files[f].keys_end);
      g_assert_nonnull (end);
      list = g_strndup (start, end - start);
      words = g_strsplit (list, " ", -1);
      for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key; info++, i++)
        {
          g_test_message ("%s: %s", files[f].name, info->key);
          g_assert_cmpstr (words[i], ==, info->key);
        }
      g_assert_cmpuint (i, ==, TTG_POLICY_N_KEYS);
      g_assert_null (words[i]);
    }
}

static void
test_values (void)
{
  /* what ttg_parse_boolean() takes, lower case; and ctl_parse_json_mode() */
  static const char *const words[] = {
    "true", "false", "yes", "no", "on", "off", "short", "pretty",
    "status", "list", "explain", "get-policy", "set-policy", "set-user-policy",
    "enable", "disable", "monitor",
    "--json", "--no-legend", "--no-pager", "--no-ask-password", "--version", "--help",
  };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *text = read_completion (files[f].name);

      for (guint i = 0; i < G_N_ELEMENTS (words); i++)
        {
          gboolean b;

          g_test_message ("%s: %s", files[f].name, words[i]);
          g_assert_true (has_word (text, words[i]));
          if (i < 6)
            g_assert_true (ttg_parse_boolean (words[i], &b));
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/completions/policy-keys", test_policy_keys);
  g_test_add_func ("/completions/values", test_values);

  return g_test_run ();
}
