/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model.h"

#include <string.h>

#define TTY_PTS0 34816u /* major 136, minor 0 */
#define TTY_PTS3 34819u
#define TTY_TTY1 1025u  /* major 4, minor 1 */

/* The common case the daemon acts on: the default policy, and a desktop
 * user's graphical session, active on seat0 and their display session. */
typedef struct {
  TtgPolicy policy;
  TtgSession *session;
  TtgProcStat shell; /* a shell on pts/3, leader of its kernel session */
} Fixture;

static void
set_str (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  ttg_policy_init_defaults (&fx->policy);

  fx->session = ttg_session_new ("3");
  fx->session->uid = 1000;
  set_str (&fx->session->klass, "user");
  set_str (&fx->session->type, "wayland");
  set_str (&fx->session->state, "active");
  set_str (&fx->session->seat, "seat0");
  set_str (&fx->session->tty, "tty2");
  fx->session->remote = FALSE;
  fx->session->active = TRUE;
  fx->session->is_display = TRUE;

  fx->shell = (TtgProcStat) {
    .pid = 4242,
    .comm = "bash",
    .state = 'S',
    .ppid = 4200,
    .pgrp = 4242,
    .session = 4242,
    .tty_nr = TTY_PTS3,
  };
}

static void
fixture_teardown (Fixture *fx, gconstpointer user_data)
{
  g_clear_pointer (&fx->session, ttg_session_free);
}

static void
make_remote (TtgSession *s)
{
  set_str (&s->type, "tty");
  set_str (&s->seat, NULL);
  set_str (&s->tty, "pts/0");
  s->remote = TRUE;
  s->active = FALSE;
}

static void
make_greeter (TtgSession *s)
{
  set_str (&s->klass, "greeter");
  s->uid = 120;
}

static void
test_session_new_free (void)
{
  g_autoptr(TtgSession) s = ttg_session_new ("c12");

  g_assert_cmpstr (s->id, ==, "c12");
  g_assert_null (s->klass);
  g_assert_null (s->type);
  g_assert_null (s->state);
  g_assert_null (s->seat);
  g_assert_null (s->tty);
  g_assert_false (s->remote);
  g_assert_false (s->active);
  g_assert_false (s->is_display);

  ttg_session_free (NULL);
}

static void
test_scope_name (void)
{
  g_autofree char *a = ttg_session_scope_name ("3");
  g_autofree char *b = ttg_session_scope_name ("c12");

  g_assert_cmpstr (a, ==, "session-3.scope");
  g_assert_cmpstr (b, ==, "session-c12.scope");
}

static void
assert_weight (const TtgPolicy *p, const TtgSession *s, guint64 weight, const char *reason)
{
  g_assert_cmpuint (ttg_model_session_weight (p, s), ==, weight);
  g_assert_cmpstr (ttg_model_session_weight_reason (p, s), ==, reason);
}

static void
test_weight_active (Fixture *fx, gconstpointer user_data)
{
  assert_weight (&fx->policy, fx->session, 200, "active session of its seat");

  fx->policy.active_session_weight = 500;
  assert_weight (&fx->policy, fx->session, 500, "active session of its seat");

  /* The display session matters for terminals, not for the weight. */
  fx->session->is_display = FALSE;
  assert_weight (&fx->policy, fx->session, 500, "active session of its seat");
}

static void
test_weight_inactive (Fixture *fx, gconstpointer user_data)
{
  fx->policy.session_weight = 50;

  /* Another user's session on the same seat, after a user switch. */
  fx->session->active = FALSE;
  set_str (&fx->session->state, "online");
  assert_weight (&fx->policy, fx->session, 50, "inactive session of its seat");

  /* "Active" without a seat is not the seat's foreground. */
  fx->session->active = TRUE;
  set_str (&fx->session->seat, NULL);
  assert_weight (&fx->policy, fx->session, 50, "local session without a seat");
}

static void
test_weight_remote (Fixture *fx, gconstpointer user_data)
{
  fx->policy.remote_session_weight = 30;
  make_remote (fx->session);
  assert_weight (&fx->policy, fx->session, 30, "remote session");

  /* Remote wins even if logind calls it active on a seat. */
  fx->session->active = TRUE;
  set_str (&fx->session->seat, "seat0");
  assert_weight (&fx->policy, fx->session, 30, "remote session");
}

static void
test_weight_greeter (Fixture *fx, gconstpointer user_data)
{
  fx->policy.session_weight = 70;

  make_greeter (fx->session);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET,
                 "greeter or lock-screen session, ManageGreeter is off");

  set_str (&fx->session->klass, "lock-screen");
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET,
                 "greeter or lock-screen session, ManageGreeter is off");

  /* Managed, a greeter is weighed like any local session, even when it
   * is the active one. */
  fx->policy.manage_greeter = TRUE;
  assert_weight (&fx->policy, fx->session, 70, "greeter or lock-screen session");
  make_greeter (fx->session);
  assert_weight (&fx->policy, fx->session, 70, "greeter or lock-screen session");
}

static void
test_weight_other_classes (Fixture *fx, gconstpointer user_data)
{
  static const char *const others[] = {
    "background", "background-light", "manager", "manager-early", "none",
    "user-incomplete", "User", "",
  };
  static const char *const users[] = {
    "user", "user-early", "user-light", "user-early-light",
  };

  fx->policy.manage_greeter = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      set_str (&fx->session->klass, others[i]);
      assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "not a user session");
      g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));
    }

  set_str (&fx->session->klass, NULL);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "not a user session");

  for (guint i = 0; i < G_N_ELEMENTS (users); i++)
    {
      set_str (&fx->session->klass, users[i]);
      assert_weight (&fx->policy, fx->session, 200, "active session of its seat");
      g_assert_true (ttg_model_session_splits_terminals (&fx->policy, fx->session));
    }
}

static void
test_weight_closing (Fixture *fx, gconstpointer user_data)
{
  set_str (&fx->session->state, "closing");
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "closing session");

  make_remote (fx->session);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "closing session");

  fx->policy.manage_greeter = TRUE;
  make_greeter (fx->session);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "closing session");
}

static void
test_weight_disabled (Fixture *fx, gconstpointer user_data)
{
  fx->policy.enabled = FALSE;
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "disabled");

  make_remote (fx->session);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "disabled");

  fx->policy.manage_greeter = TRUE;
  make_greeter (fx->session);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "disabled");
}

static void
test_weight_unset_is_reset (void)
{
  /* systemd resets CPUWeight when it receives UINT64_MAX. */
  g_assert_cmpuint (TTG_WEIGHT_UNSET, ==, G_MAXUINT64);
}

static void
test_splits (Fixture *fx, gconstpointer user_data)
{
  g_assert_true (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  /* An inactive or remote session still splits while it is the display
   * session: for an ssh-only user the ssh session is. */
  fx->session->active = FALSE;
  g_assert_true (ttg_model_session_splits_terminals (&fx->policy, fx->session));
  make_remote (fx->session);
  g_assert_true (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, NULL));
}

static void
test_splits_not_display (Fixture *fx, gconstpointer user_data)
{
  /* A second session of the user (ssh while logged in locally): splitting
   * it would make polkit judge its ptys as the local session. */
  fx->session->is_display = FALSE;
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  make_remote (fx->session);
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_greeter (Fixture *fx, gconstpointer user_data)
{
  make_greeter (fx->session);
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  /* Managing greeters weighs them; it never splits them. */
  fx->policy.manage_greeter = TRUE;
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  set_str (&fx->session->klass, "lock-screen");
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_policy_off (Fixture *fx, gconstpointer user_data)
{
  fx->policy.group_terminals = FALSE;
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));

  fx->policy.group_terminals = TRUE;
  fx->policy.enabled = FALSE;
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_closing (Fixture *fx, gconstpointer user_data)
{
  set_str (&fx->session->state, "closing");
  g_assert_false (ttg_model_session_splits_terminals (&fx->policy, fx->session));
}

static void
test_terminal_weight (Fixture *fx, gconstpointer user_data)
{
  g_assert_cmpuint (ttg_model_terminal_weight (&fx->policy, fx->session), ==, 100);

  fx->policy.terminal_weight = 25;
  g_assert_cmpuint (ttg_model_terminal_weight (&fx->policy, fx->session), ==, 25);

  fx->policy.enabled = FALSE;
  g_assert_cmpuint (ttg_model_terminal_weight (&fx->policy, fx->session), ==,
                    TTG_WEIGHT_UNSET);
}

static void
test_starts_group (Fixture *fx, gconstpointer user_data)
{
  guint index = 999;

  g_assert_true (ttg_model_process_starts_group (&fx->policy, &fx->shell, TRUE,
                                                 fx->session, &index));
  g_assert_cmpuint (index, ==, 3);

  fx->shell.tty_nr = TTY_PTS0;
  g_assert_true (ttg_model_process_starts_group (&fx->policy, &fx->shell, TRUE,
                                                 fx->session, &index));
  g_assert_cmpuint (index, ==, 0);

  /* The index is optional. */
  g_assert_true (ttg_model_process_starts_group (&fx->policy, &fx->shell, TRUE,
                                                 fx->session, NULL));
}

/* Every way a process fails to start a group; none may touch *pts_index. */
static void
assert_no_group (Fixture *fx, const TtgProcStat *st, gboolean in_scope, const TtgSession *s)
{
  guint index = 999;

  g_assert_false (ttg_model_process_starts_group (&fx->policy, st, in_scope, s, &index));
  g_assert_cmpuint (index, ==, 999);
}

static void
test_starts_group_not_leader (Fixture *fx, gconstpointer user_data)
{
  TtgProcStat child = fx->shell;

  /* make, forked by the shell: in the shell's session, not its leader. */
  child.pid = 4300;
  child.ppid = fx->shell.pid;
  child.pgrp = 4300;
  g_strlcpy (child.comm, "make", sizeof child.comm);
  assert_no_group (fx, &child, TRUE, fx->session);
}

static void
test_starts_group_no_pts (Fixture *fx, gconstpointer user_data)
{
  TtgProcStat st = fx->shell;

  /* A daemonised process: leader, no controlling tty. */
  st.tty_nr = 0;
  assert_no_group (fx, &st, TRUE, fx->session);

  /* A login shell on a virtual console. */
  st.tty_nr = TTY_TTY1;
  assert_no_group (fx, &st, TRUE, fx->session);
}

static void
test_starts_group_not_in_scope (Fixture *fx, gconstpointer user_data)
{
  assert_no_group (fx, &fx->shell, FALSE, fx->session);
}

static void
test_starts_group_no_session (Fixture *fx, gconstpointer user_data)
{
  assert_no_group (fx, &fx->shell, TRUE, NULL);
}

static void
test_starts_group_not_splitting (Fixture *fx, gconstpointer user_data)
{
  fx->session->is_display = FALSE;
  assert_no_group (fx, &fx->shell, TRUE, fx->session);

  fx->session->is_display = TRUE;
  fx->policy.group_terminals = FALSE;
  assert_no_group (fx, &fx->shell, TRUE, fx->session);

  fx->policy.group_terminals = TRUE;
  fx->policy.enabled = FALSE;
  assert_no_group (fx, &fx->shell, TRUE, fx->session);

  fx->policy.enabled = TRUE;
  fx->policy.manage_greeter = TRUE;
  make_greeter (fx->session);
  assert_no_group (fx, &fx->shell, TRUE, fx->session);
}

static void
test_pty_is_session_tty (Fixture *fx, gconstpointer user_data)
{
  /* An ssh session: logind's TTY is the pty the session itself runs on. */
  make_remote (fx->session);
  set_str (&fx->session->tty, "pts/3");
  g_assert_true (ttg_model_pty_is_session_tty (fx->session, 3));
  g_assert_false (ttg_model_pty_is_session_tty (fx->session, 4));
  g_assert_false (ttg_model_pty_is_session_tty (fx->session, 0));
  g_assert_false (ttg_model_pty_is_session_tty (fx->session, 33));

  set_str (&fx->session->tty, "pts/0");
  g_assert_true (ttg_model_pty_is_session_tty (fx->session, 0));

  set_str (&fx->session->tty, "pts/4294967295");
  g_assert_true (ttg_model_pty_is_session_tty (fx->session, G_MAXUINT));
}

static void
test_pty_is_not_session_tty (Fixture *fx, gconstpointer user_data)
{
  static const struct {
    const char *tty;
    guint index;
  } cases[] = {
    { "tty5", 5 },
    { "tty2", 2 },
    { "pts/", 0 },
    { "pts/3x", 3 },
    { "pts/-1", G_MAXUINT },
    { "pts/-1", 1 },
    { "pts/+3", 3 },
    { "pts/ 3", 3 },
    { "pts/3 ", 3 },
    { "pts/0x3", 3 },
    { "pts/4294967296", 0 },
    { "pts/99999999999999999999", 0 },
    { "pts3", 3 },
    { "PTS/3", 3 },
    { "/dev/pts/3", 3 },
    { "", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("tty: \"%s\", index %u", cases[i].tty, cases[i].index);
      set_str (&fx->session->tty, cases[i].tty);
      g_assert_false (ttg_model_pty_is_session_tty (fx->session, cases[i].index));
    }

  /* A graphical session without a terminal, and an unknown session. */
  set_str (&fx->session->tty, NULL);
  g_assert_false (ttg_model_pty_is_session_tty (fx->session, 0));
  g_assert_false (ttg_model_pty_is_session_tty (fx->session, 3));
  g_assert_false (ttg_model_pty_is_session_tty (NULL, 0));
  g_assert_false (ttg_model_pty_is_session_tty (NULL, 3));
}

static void
test_unit_name (void)
{
  static const struct {
    const char *session;
    pid_t pid;
    const char *unit;
  } cases[] = {
    { "3", 1234, "ttygroup-pty-3-1234.scope" },
    { "c12", 1, "ttygroup-pty-c12-1.scope" },
    { "a1B2", 4194304, "ttygroup-pty-a1B2-4194304.scope" },
    { "9", G_MAXINT32, "ttygroup-pty-9-2147483647.scope" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *unit = ttg_pty_unit_name (cases[i].session, cases[i].pid);
      g_autofree char *session = NULL;
      pid_t pid = 0;

      g_assert_cmpstr (unit, ==, cases[i].unit);
      g_assert_true (ttg_pty_unit_name_parse (unit, &session, &pid));
      g_assert_cmpstr (session, ==, cases[i].session);
      g_assert_cmpint (pid, ==, cases[i].pid);
    }

  /* Both outputs are optional. */
  g_assert_true (ttg_pty_unit_name_parse ("ttygroup-pty-3-1234.scope", NULL, NULL));

  g_assert_null (ttg_pty_unit_name ("", 1234));
  g_assert_null (ttg_pty_unit_name ("../x", 1234));
  g_assert_null (ttg_pty_unit_name ("3-4", 1234));
  g_assert_null (ttg_pty_unit_name (NULL, 1234));
  g_assert_null (ttg_pty_unit_name ("3", 0));
  g_assert_null (ttg_pty_unit_name ("3", -1));
}

static void
test_unit_name_near_misses (void)
{
  g_autofree char *id65 = g_strnfill (65, 'a');
  g_autofree char *long_id = g_strdup_printf ("ttygroup-pty-%s-1.scope", id65);
  const char *const bad[] = {
    "",
    "ttygroup-pty-.scope",
    "ttygroup-pty--.scope",
    "ttygroup-pty-3.scope",
    "ttygroup-pty-3-.scope",
    "ttygroup-pty--1234.scope",
    "ttygroup-pty-3-0.scope",
    "ttygroup-pty-3-01234.scope",
    "ttygroup-pty-3--1234.scope",
    "ttygroup-pty-3-+1234.scope",
    "ttygroup-pty-3- 1234.scope",
    "ttygroup-pty-3-1234 .scope",
    "ttygroup-pty-3-12a4.scope",
    "ttygroup-pty-3-0x10.scope",
    "ttygroup-pty-3-2147483648.scope",
    "ttygroup-pty-3-99999999999999999999999.scope",
    "ttygroup-pty-3-4-1234.scope",
    "ttygroup-pty-c.1-1234.scope",
    "ttygroup-pty-3/x-1234.scope",
    "ttygroup-pty-3-1234.scope.d",
    "ttygroup-pty-3-1234.scop",
    "ttygroup-pty-3-1234.slice",
    "ttygroup-pty-3-1234.service",
    "ttygroup-pty-3-1234",
    "ttygroup-pty-3-1234.scope ",
    "Ttygroup-pty-3-1234.scope",
    "ttygroup-tty-3-1234.scope",
    "xttygroup-pty-3-1234.scope",
    "session-3.scope",
    "ttygroup-pty-.scope.scope",
    long_id,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      char *session = (char *) "untouched";
      pid_t pid = 77;

      g_test_message ("unit: \"%s\"", bad[i]);
      g_assert_false (ttg_pty_unit_name_parse (bad[i], &session, &pid));
      g_assert_cmpstr (session, ==, "untouched");
      g_assert_cmpint (pid, ==, 77);
    }

  g_assert_false (ttg_pty_unit_name_parse (NULL, NULL, NULL));
}

static void
test_description (void)
{
  static const struct {
    guint index;
    const char *session;
    const char *comm;
    const char *description;
  } cases[] = {
    { 3, "4", "make", "Terminal pts/3 of session 4 (make)" },
    { 0, "c12", "tmux: server", "Terminal pts/0 of session c12 (tmux: server)" },
    { 300, "4", NULL, "Terminal pts/300 of session 4" },
    { 3, "4", "", "Terminal pts/3 of session 4" },
    { 3, "4", "a\nb\tc\x1b[31m", "Terminal pts/3 of session 4 (a?b?c?[31m)" },
    { 3, "4", "\x7f", "Terminal pts/3 of session 4 (?)" },
    { 3, "4", "a) (b", "Terminal pts/3 of session 4 (a) (b)" },
    /* UTF-8 is kept; C1 controls and broken bytes are not (D-Bus refuses
     * strings that are not UTF-8). */
    { 3, "4", "caf\xc3\xa9", "Terminal pts/3 of session 4 (caf\xc3\xa9)" },
    { 3, "4", "x\xc2\x9by", "Terminal pts/3 of session 4 (x?y)" },
    { 3, "4", "x\xffy\xc3", "Terminal pts/3 of session 4 (x?y?)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *description = ttg_pty_unit_description (cases[i].index,
                                                               cases[i].session,
                                                               cases[i].comm);

      g_assert_cmpstr (description, ==, cases[i].description);
      g_assert_true (g_utf8_validate (description, -1, NULL));
    }
}

static void
test_login_terminal (Fixture *fx, gconstpointer user_data)
{
  TtgProcStat st = { .pid = 900, .ppid = 899, .session = 900, .tty_nr = (136 << 8) | 5 };
  /* sshd: shell <- "sshd: alice@pts/5" (no tty) <- "sshd: alice [priv]" (the leader) */
  TtgProcStat sshd[] = { { .pid = 899, .ppid = 880, .tty_nr = 0 }, { .pid = 880, .ppid = 1, .tty_nr = 0 } };
  /* script inside the session: leader <- script (on the login pty) <- shell <- login (the leader) */
  TtgProcStat script[] = { { .pid = 899, .ppid = 850, .tty_nr = (136 << 8) | 0 },
                           { .pid = 850, .ppid = 840, .tty_nr = (136 << 8) | 0 },
                           { .pid = 840, .ppid = 1, .tty_nr = (136 << 8) | 0 } };
  /* a tmux pane: leader <- tmux server (no tty, parent init) */
  TtgProcStat tmux[] = { { .pid = 899, .ppid = 1, .tty_nr = 0 } };

  set_str (&fx->session->tty, NULL);
  fx->session->leader = 880;
  g_assert_true (ttg_model_is_login_terminal (fx->session, &st, 5, sshd, G_N_ELEMENTS (sshd)));
  g_assert_false (ttg_model_is_login_terminal (fx->session, &st, 5, sshd, 1)); /* leader not reached */
  fx->session->leader = 840;
  g_assert_false (ttg_model_is_login_terminal (fx->session, &st, 5, script, G_N_ELEMENTS (script)));
  g_assert_false (ttg_model_is_login_terminal (fx->session, &st, 5, tmux, G_N_ELEMENTS (tmux)));
  /* login(1) on the pty is the leader itself */
  fx->session->leader = 900;
  g_assert_true (ttg_model_is_login_terminal (fx->session, &st, 5, NULL, 0));
  /* leader unknown: only the TTY decides */
  fx->session->leader = 0;
  g_assert_false (ttg_model_is_login_terminal (fx->session, &st, 5, sshd, G_N_ELEMENTS (sshd)));
  set_str (&fx->session->tty, "pts/5");
  g_assert_true (ttg_model_is_login_terminal (fx->session, &st, 5, NULL, 0));
  g_assert_false (ttg_model_is_login_terminal (fx->session, &st, 6, NULL, 0));
  g_assert_false (ttg_model_is_login_terminal (NULL, &st, 5, NULL, 0));
}

static void
test_env_text_get (void)
{
  const char *text = "# This is private data. Do not parse.\nUID=1001\nUSER=alice\nLEADER=4242\nLEADERX=1\nTTY=pts/0\n";
  g_autofree char *leader = ttg_env_text_get (text, "LEADER");
  g_autofree char *tty = ttg_env_text_get (text, "TTY");
  g_autofree char *none = ttg_env_text_get (text, "SEAT");
  g_autofree char *prefix = ttg_env_text_get (text, "LEAD");

  g_assert_cmpstr (leader, ==, "4242");
  g_assert_cmpstr (tty, ==, "pts/0");
  g_assert_null (none);
  g_assert_null (prefix);
  g_assert_null (ttg_env_text_get (NULL, "LEADER"));
  g_assert_null (ttg_env_text_get (text, ""));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model/session/new-free", test_session_new_free);
  g_test_add_func ("/model/session/scope-name", test_scope_name);
  g_test_add_func ("/model/weight/unset", test_weight_unset_is_reset);
  g_test_add_func ("/model/unit-name/round-trip", test_unit_name);
  g_test_add_func ("/model/unit-name/near-misses", test_unit_name_near_misses);
  g_test_add_func ("/model/description", test_description);
  g_test_add_func ("/model/env-text-get", test_env_text_get);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/model/weight/active", test_weight_active);
  ADD ("/model/weight/inactive", test_weight_inactive);
  ADD ("/model/weight/remote", test_weight_remote);
  ADD ("/model/weight/greeter", test_weight_greeter);
  ADD ("/model/weight/other-classes", test_weight_other_classes);
  ADD ("/model/weight/closing", test_weight_closing);
  ADD ("/model/weight/disabled", test_weight_disabled);
  ADD ("/model/splits/display", test_splits);
  ADD ("/model/splits/not-display", test_splits_not_display);
  ADD ("/model/splits/greeter", test_splits_greeter);
  ADD ("/model/splits/policy-off", test_splits_policy_off);
  ADD ("/model/splits/closing", test_splits_closing);
  ADD ("/model/terminal-weight", test_terminal_weight);
  ADD ("/model/starts-group/leader-on-pts", test_starts_group);
  ADD ("/model/starts-group/not-leader", test_starts_group_not_leader);
  ADD ("/model/starts-group/no-pts", test_starts_group_no_pts);
  ADD ("/model/starts-group/not-in-scope", test_starts_group_not_in_scope);
  ADD ("/model/starts-group/no-session", test_starts_group_no_session);
  ADD ("/model/starts-group/not-splitting", test_starts_group_not_splitting);
  ADD ("/model/pty-is-session-tty/match", test_pty_is_session_tty);
  ADD ("/model/pty-is-session-tty/no-match", test_pty_is_not_session_tty);
  ADD ("/model/login-terminal", test_login_terminal);

#undef ADD

  return g_test_run ();
}
