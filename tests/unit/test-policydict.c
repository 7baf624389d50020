/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The SetPolicy/SetUserPolicy dictionary: what a caller of the bus gets back
 * for each kind of bad dictionary, and that nothing is half-applied. */
#include <string.h>

#include "policydict.h"

#define B(k, v) { (k), "b", (v), 0 }
#define T(k, v) { (k), "t", FALSE, (v) }

static void
assert_invalid (const GError *error, const char *part1, const char *part2)
{
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  if (part1 && !strstr (error->message, part1))
    g_error ("\"%s\" not in \"%s\"", part1, error->message);
  if (part2 && !strstr (error->message, part2))
    g_error ("\"%s\" not in \"%s\"", part2, error->message);
}

static void
test_system_applies (void)
{
  TtgPolicy p, want;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  const TtgPolicyEntry e[] = {
    B ("Enabled", FALSE),
    T ("TerminalWeight", 10000),
    T ("SessionWeight", 1),
    B ("ManageGreeter", TRUE),
  };
  g_autoptr(GError) error = NULL;

  ttg_policy_init_defaults (&p);
  want = p;
  want.enabled = FALSE;
  want.terminal_weight = 10000;
  want.session_weight = 1;
  want.manage_greeter = TRUE;

  g_assert_true (ttg_policy_dict_apply (&p, e, G_N_ELEMENTS (e), keys, &error));
  g_assert_no_error (error);
  g_assert_true (ttg_policy_equal (&p, &want));
  g_assert_cmpuint (keys->len, ==, 4);
  g_assert_cmpstr (keys->pdata[0], ==, "Enabled");
  g_assert_cmpstr (keys->pdata[1], ==, "TerminalWeight");
  g_assert_cmpstr (keys->pdata[3], ==, "ManageGreeter");
}

typedef struct {
  const char *name;
  TtgPolicyEntry entries[3];
  gsize n;
  const char *part1, *part2; /* what the message must say */
} BadCase;

/* Each has a valid entry before the bad one: it must not be applied. */
static const BadCase bad_system[] = {
  { "unknown", { B ("Enabled", FALSE), B ("Bogus", TRUE) }, 2, "Unknown key", "\"Bogus\"" },
  { "case", { B ("Enabled", FALSE), B ("enabled", TRUE) }, 2, "Unknown key", "\"enabled\"" },
  { "twice", { B ("Enabled", FALSE), B ("Enabled", TRUE) }, 2, "\"Enabled\"", "given twice" },
  { "bool-as-weight", { B ("Enabled", FALSE), { "SessionWeight", "b", TRUE, 0 } }, 2, "SessionWeight", "expected a weight (t), got \"b\"" },
  { "weight-as-bool", { B ("Enabled", FALSE), { "GroupTerminals", "t", FALSE, 1 } }, 2, "GroupTerminals", "expected a boolean (b), got \"t\"" },
  { "uint32", { B ("Enabled", FALSE), { "SessionWeight", "u", FALSE, 0 } }, 2, "SessionWeight", "got \"u\"" },
  { "struct", { B ("Enabled", FALSE), { "SessionWeight", "(t)", FALSE, 0 } }, 2, "SessionWeight", "got \"(t)\"" },
  { "no-signature", { B ("Enabled", FALSE), { "SessionWeight", NULL, FALSE, 0 } }, 2, "SessionWeight", "got \"\"" },
  { "zero", { B ("Enabled", FALSE), T ("SessionWeight", 0) }, 2, "SessionWeight", "1..10000" },
  { "too-big", { B ("Enabled", FALSE), T ("TerminalWeight", 10001) }, 2, "TerminalWeight", "1..10000" },
  { "unset", { B ("Enabled", FALSE), T ("TerminalWeight", G_MAXUINT64) }, 2, "TerminalWeight", "1..10000" },
  { "null-key", { B ("Enabled", FALSE), { NULL, "b", TRUE, 0 } }, 2, "Unknown key", NULL },
  { "empty", { { 0 } }, 0, "empty", NULL },
};

static void
test_system_rejects (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_system); i++)
    {
      const BadCase *c = &bad_system[i];
      g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      TtgPolicy p, before;

      g_test_message ("case %s", c->name);
      ttg_policy_init_defaults (&p);
      before = p;
      g_assert_false (ttg_policy_dict_apply (&p, c->entries, c->n, keys, &error));
      assert_invalid (error, c->part1, c->part2);
      g_assert_true (ttg_policy_equal (&p, &before));
      g_assert_cmpuint (keys->len, ==, 0);
    }
}

/* The first bad entry is the one named, so a caller fixes them in order. */
static void
test_first_problem_named (void)
{
  TtgPolicy p;
  const TtgPolicyEntry e[] = { T ("SessionWeight", 0), B ("Bogus", TRUE) };
  g_autoptr(GError) error = NULL;

  ttg_policy_init_defaults (&p);
  g_assert_false (ttg_policy_dict_apply (&p, e, G_N_ELEMENTS (e), NULL, &error));
  assert_invalid (error, "SessionWeight", NULL);
  g_assert_null (strstr (error->message, "Bogus"));
}

/* A key of megabytes, or of bytes that are not UTF-8, comes back short and
 * printable: the reply is text a terminal shows. */
static void
test_hostile_key_echo (void)
{
  TtgPolicy p;
  g_autofree char *huge = g_strnfill (1 << 20, 'K');
  TtgPolicyEntry e[] = { B (huge, TRUE) };
  g_autoptr(GError) error = NULL;

  ttg_policy_init_defaults (&p);
  g_assert_false (ttg_policy_dict_apply (&p, e, 1, NULL, &error));
  assert_invalid (error, "Unknown key", "KKK...");
  g_assert_cmpuint (strlen (error->message), <, 200);
  g_clear_error (&error);

  e[0].key = "Enab\xff\xfeled";
  g_assert_false (ttg_policy_dict_apply (&p, e, 1, NULL, &error));
  assert_invalid (error, "Unknown key", NULL);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_clear_error (&error);

  e[0].key = "Enabled";
  e[0].signature = "a{sv}\xff";
  g_assert_false (ttg_policy_dict_apply (&p, e, 1, NULL, &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* A dictionary longer than TTG_POLICY_DICT_MAX always holds a bad entry: the
 * bus reader relies on it to stop early. */
static void
test_longer_than_max_is_bad (void)
{
  TtgPolicyEntry e[TTG_POLICY_DICT_MAX + 1];
  const TtgPolicyKeyInfo *keys = ttg_policy_keys ();
  g_autoptr(GError) error = NULL;
  TtgPolicy p;

  g_assert_cmpuint (TTG_POLICY_DICT_MAX, ==, TTG_POLICY_N_KEYS);
  for (guint i = 0; i < TTG_POLICY_N_KEYS; i++)
    {
      e[i].key = keys[i].key;
      e[i].signature = keys[i].type == TTG_POLICY_TYPE_BOOLEAN ? "b" : "t";
      e[i].b = TRUE;
      e[i].t = 42;
    }
  ttg_policy_init_defaults (&p);
  g_assert_true (ttg_policy_dict_apply (&p, e, TTG_POLICY_N_KEYS, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.remote_session_weight, ==, 42);

  e[TTG_POLICY_N_KEYS] = e[3];
  g_assert_false (ttg_policy_dict_apply (&p, e, TTG_POLICY_N_KEYS + 1, NULL, &error));
  assert_invalid (error, "given twice", NULL);
}

static void
test_user_applies (void)
{
  TtgPolicy sys;
  TtgUserPolicy u = { 0 };
  const TtgPolicyEntry e[] = { B ("GroupTerminals", FALSE), T ("TerminalWeight", 30) };
  g_autoptr(GError) error = NULL;

  ttg_policy_init_defaults (&sys);
  sys.terminal_weight = 50;
  g_assert_true (ttg_user_policy_dict_apply (&u, &sys, e, G_N_ELEMENTS (e), &error));
  g_assert_no_error (error);
  g_assert_true (u.has_group_terminals);
  g_assert_false (u.group_terminals);
  g_assert_true (u.has_terminal_weight);
  g_assert_cmpuint (u.terminal_weight, ==, 30);
  g_assert_false (u.has_enabled);
}

static void
test_user_rejects (void)
{
  TtgPolicy sys;
  TtgUserPolicy u = { 0 }, before;
  const struct {
    TtgPolicyEntry e[2];
    const char *part1, *part2;
  } cases[] = {
    { { B ("Enabled", FALSE), T ("TerminalWeight", 51) }, "TerminalWeight", "1..50" },
    { { B ("Enabled", FALSE), T ("SessionWeight", 10) }, "SessionWeight", "system policy only" },
    { { B ("Enabled", FALSE), B ("ManageGreeter", TRUE) }, "ManageGreeter", NULL },
    { { B ("Enabled", FALSE), B ("Enabled", TRUE) }, "given twice", NULL },
    { { B ("Enabled", FALSE), { "TerminalWeight", "s", FALSE, 0 } }, "TerminalWeight", "got \"s\"" },
  };

  ttg_policy_init_defaults (&sys);
  sys.terminal_weight = 50;
  u.has_terminal_weight = TRUE;
  u.terminal_weight = 20;
  before = u;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (ttg_user_policy_dict_apply (&u, &sys, cases[i].e, 2, &error));
      assert_invalid (error, cases[i].part1, cases[i].part2);
      g_assert_cmpmem (&u, sizeof u, &before, sizeof before);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/policydict/system/applies", test_system_applies);
  g_test_add_func ("/policydict/system/rejects", test_system_rejects);
  g_test_add_func ("/policydict/system/first-problem-named", test_first_problem_named);
  g_test_add_func ("/policydict/system/hostile-key-echo", test_hostile_key_echo);
  g_test_add_func ("/policydict/system/longer-than-max-is-bad", test_longer_than_max_is_bad);
  g_test_add_func ("/policydict/user/applies", test_user_applies);
  g_test_add_func ("/policydict/user/rejects", test_user_rejects);
  return g_test_run ();
}
