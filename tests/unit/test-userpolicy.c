/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>
#include "userpolicy.h"

static void
test_keys (void)
{
  g_assert_true (ttg_user_policy_key_allowed ("Enabled"));
  g_assert_true (ttg_user_policy_key_allowed ("GroupTerminals"));
  g_assert_true (ttg_user_policy_key_allowed ("TerminalWeight"));
  g_assert_false (ttg_user_policy_key_allowed ("SessionWeight"));
  g_assert_false (ttg_user_policy_key_allowed ("ManageGreeter"));
  g_assert_false (ttg_user_policy_key_allowed (NULL));
}

static void
test_rejects (void)
{
  TtgPolicy sys;
  TtgUserPolicy u = { 0 };
  g_autoptr(GError) error = NULL;

  ttg_policy_init_defaults (&sys);
  sys.terminal_weight = 100;

  g_assert_false (ttg_user_policy_set_weight (&u, &sys, "TerminalWeight", 101, &error));
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_nonnull (strstr (error->message, "TerminalWeight"));
  g_assert_nonnull (strstr (error->message, "1..100"));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_weight (&u, &sys, "TerminalWeight", 0, &error));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_weight (&u, &sys, "SessionWeight", 50, &error));
  g_assert_nonnull (strstr (error->message, "system policy only"));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_boolean (&u, "ManageGreeter", TRUE, &error));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_boolean (&u, "TerminalWeight", TRUE, &error));
  g_assert_nonnull (strstr (error->message, "expected a weight"));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_weight (&u, &sys, "Enabled", 1, &error));
  g_clear_error (&error);
  g_assert_false (ttg_user_policy_set_boolean (&u, "Nope", TRUE, &error));
  g_assert_nonnull (strstr (error->message, "Unknown key"));

  /* nothing was recorded by the failures */
  g_assert_false (u.has_enabled || u.has_group_terminals || u.has_terminal_weight);
}

static void
test_apply (void)
{
  TtgPolicy sys, out;
  TtgUserPolicy u = { 0 };

  ttg_policy_init_defaults (&sys);
  sys.terminal_weight = 100;

  ttg_user_policy_apply (NULL, &sys, &out);
  g_assert_true (ttg_policy_equal (&out, &sys));
  ttg_user_policy_apply (&u, &sys, &out);
  g_assert_true (ttg_policy_equal (&out, &sys));

  g_assert_true (ttg_user_policy_set_boolean (&u, "GroupTerminals", FALSE, NULL));
  g_assert_true (ttg_user_policy_set_weight (&u, &sys, "TerminalWeight", 40, NULL));
  ttg_user_policy_apply (&u, &sys, &out);
  g_assert_false (out.group_terminals);
  g_assert_true (out.enabled);
  g_assert_cmpuint (out.terminal_weight, ==, 40);
  g_assert_cmpuint (out.session_weight, ==, sys.session_weight);

  /* the user cannot turn on what the system turned off */
  g_assert_true (ttg_user_policy_set_boolean (&u, "Enabled", TRUE, NULL));
  g_assert_true (ttg_user_policy_set_boolean (&u, "GroupTerminals", TRUE, NULL));
  sys.enabled = FALSE;
  sys.group_terminals = FALSE;
  ttg_user_policy_apply (&u, &sys, &out);
  g_assert_false (out.enabled);
  g_assert_false (out.group_terminals);

  /* the admin lowers TerminalWeight below the user's: the admin's bound wins */
  sys.terminal_weight = 20;
  ttg_user_policy_apply (&u, &sys, &out);
  g_assert_cmpuint (out.terminal_weight, ==, 20);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/userpolicy/keys", test_keys);
  g_test_add_func ("/userpolicy/rejects", test_rejects);
  g_test_add_func ("/userpolicy/apply", test_apply);
  return g_test_run ();
}
