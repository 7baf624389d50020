/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
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

/* The verdict's parts, asked one at a time. */
static TtgVerdict
judge (const TtgPolicy *p, const TtgSession *s)
{
  TtgVerdict v;

  ttg_model_judge_session (p, p, s, &v);
  return v;
}

static guint64 session_weight (const TtgPolicy *p, const TtgSession *s) { return judge (p, s).session_weight; }
static const char *session_weight_reason (const TtgPolicy *p, const TtgSession *s) { return judge (p, s).session_reason; }
static gboolean splits_terminals (const TtgPolicy *p, const TtgSession *s) { return judge (p, s).splits_terminals; }
static guint64 terminal_weight (const TtgPolicy *p, const TtgSession *s) { return judge (p, s).terminal_weight; }

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
  g_assert_cmpuint (session_weight (p, s), ==, weight);
  g_assert_cmpstr (session_weight_reason (p, s), ==, reason);
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
      g_assert_false (splits_terminals (&fx->policy, fx->session));
    }

  set_str (&fx->session->klass, NULL);
  assert_weight (&fx->policy, fx->session, TTG_WEIGHT_UNSET, "not a user session");

  for (guint i = 0; i < G_N_ELEMENTS (users); i++)
    {
      set_str (&fx->session->klass, users[i]);
      assert_weight (&fx->policy, fx->session, 200, "active session of its seat");
      g_assert_true (splits_terminals (&fx->policy, fx->session));
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
  g_assert_true (splits_terminals (&fx->policy, fx->session));

  /* An inactive or remote session still splits while it is the display
   * session: for an ssh-only user the ssh session is. */
  fx->session->active = FALSE;
  g_assert_true (splits_terminals (&fx->policy, fx->session));
  make_remote (fx->session);
  g_assert_true (splits_terminals (&fx->policy, fx->session));

  g_assert_false (splits_terminals (&fx->policy, NULL));
}

static void
test_splits_not_display (Fixture *fx, gconstpointer user_data)
{
  /* A second session of the user (ssh while logged in locally): splitting
   * it would make polkit judge its ptys as the local session. */
  fx->session->is_display = FALSE;
  g_assert_false (splits_terminals (&fx->policy, fx->session));

  make_remote (fx->session);
  g_assert_false (splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_greeter (Fixture *fx, gconstpointer user_data)
{
  make_greeter (fx->session);
  g_assert_false (splits_terminals (&fx->policy, fx->session));

  /* Managing greeters weighs them; it never splits them. */
  fx->policy.manage_greeter = TRUE;
  g_assert_false (splits_terminals (&fx->policy, fx->session));

  set_str (&fx->session->klass, "lock-screen");
  g_assert_false (splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_policy_off (Fixture *fx, gconstpointer user_data)
{
  fx->policy.group_terminals = FALSE;
  g_assert_false (splits_terminals (&fx->policy, fx->session));

  fx->policy.group_terminals = TRUE;
  fx->policy.enabled = FALSE;
  g_assert_false (splits_terminals (&fx->policy, fx->session));
}

static void
test_splits_closing (Fixture *fx, gconstpointer user_data)
{
  set_str (&fx->session->state, "closing");
  g_assert_false (splits_terminals (&fx->policy, fx->session));
}

static void
test_terminal_weight (Fixture *fx, gconstpointer user_data)
{
  g_assert_cmpuint (terminal_weight (&fx->policy, fx->session), ==, 100);

  fx->policy.terminal_weight = 25;
  g_assert_cmpuint (terminal_weight (&fx->policy, fx->session), ==, 25);

  fx->policy.enabled = FALSE;
  g_assert_cmpuint (terminal_weight (&fx->policy, fx->session), ==,
                    TTG_WEIGHT_UNSET);
}

/* One verdict per session, each reason from the branch that decided: the
 * admin's switch is told from the user's, and every "not split" names why. */
static void
test_verdict (Fixture *fx, gconstpointer user_data)
{
  struct {
    const char *what;
    gboolean sys_enabled, sys_terminals, user_enabled, user_terminals;
    const char *klass, *state;
    gboolean is_display, gone;
    gboolean splits;
    const char *reason;
  } cases[] = {
    { "display session", TRUE, TRUE, TRUE, TRUE, "user", "active", TRUE, FALSE, TRUE, "display session" },
    { "admin off", FALSE, TRUE, FALSE, TRUE, "user", "active", TRUE, FALSE, FALSE, "(Enabled=false)" },
    { "user off", TRUE, TRUE, FALSE, TRUE, "user", "active", TRUE, FALSE, FALSE, "its user turned grouping off (SetUserPolicy)" },
    { "admin terminals off", TRUE, FALSE, TRUE, FALSE, "user", "active", TRUE, FALSE, FALSE, "(GroupTerminals=false)" },
    { "user terminals off", TRUE, TRUE, TRUE, FALSE, "user", "active", TRUE, FALSE, FALSE, "its user turned terminal grouping off" },
    { "gone", TRUE, TRUE, TRUE, TRUE, "user", "active", TRUE, TRUE, FALSE, "its session is gone" },
    { "greeter", TRUE, TRUE, TRUE, TRUE, "greeter", "active", TRUE, FALSE, FALSE, "not a user session" },
    { "closing", TRUE, TRUE, TRUE, TRUE, "user", "closing", TRUE, FALSE, FALSE, "closing" },
    { "second login", TRUE, TRUE, TRUE, TRUE, "user", "online", FALSE, FALSE, FALSE, "not the user's display session" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TtgPolicy system = fx->policy, user;
      TtgVerdict v;

      system.enabled = cases[i].sys_enabled;
      system.group_terminals = cases[i].sys_terminals;
      user = system;
      user.enabled = cases[i].user_enabled;
      user.group_terminals = cases[i].user_terminals;
      user.terminal_weight = 40;
      set_str (&fx->session->klass, cases[i].klass);
      set_str (&fx->session->state, cases[i].state);
      fx->session->is_display = cases[i].is_display;

      ttg_model_judge_session (&system, &user, cases[i].gone ? NULL : fx->session, &v);
      g_test_message ("%s: splits=%d because %s", cases[i].what, v.splits_terminals, v.split_reason);
      g_assert_cmpint (v.splits_terminals, ==, cases[i].splits);
      g_assert_nonnull (strstr (v.split_reason, cases[i].reason));
      /* The split agrees with the single-question form of the same rule. */
      if (!cases[i].gone)
        g_assert_cmpint (v.splits_terminals, ==, splits_terminals (&user, fx->session));
      /* The weight and its reason come from one branch. */
      if (!cases[i].gone)
        {
          g_assert_cmpuint (v.session_weight, ==, session_weight (&user, fx->session));
          g_assert_cmpstr (v.session_reason, ==, session_weight_reason (&user, fx->session));
        }
      else
        g_assert_cmpuint (v.session_weight, ==, TTG_WEIGHT_UNSET);
      g_assert_cmpuint (v.terminal_weight, ==, user.enabled ? 40 : TTG_WEIGHT_UNSET);
      g_assert_cmpint (v.grouped, ==, user.enabled);
    }
}

/* The question as the manager asks it: the session judged, then the process. */
static gboolean
starts_group (Fixture *fx, const TtgProcStat *st, const TtgSession *s, guint *index)
{
  TtgVerdict v;

  if (s)
    ttg_model_judge_session (&fx->policy, &fx->policy, s, &v);
  return ttg_model_process_starts_group (s ? &v : NULL, st, index);
}

static void
test_starts_group (Fixture *fx, gconstpointer user_data)
{
  guint index = 999;

  g_assert_true (starts_group (fx, &fx->shell,
                                                 fx->session, &index));
  g_assert_cmpuint (index, ==, 3);

  fx->shell.tty_nr = TTY_PTS0;
  g_assert_true (starts_group (fx, &fx->shell,
                                                 fx->session, &index));
  g_assert_cmpuint (index, ==, 0);

  /* The index is optional. */
  g_assert_true (starts_group (fx, &fx->shell,
                                                 fx->session, NULL));
}

/* Every way a process fails to start a group; none may touch *pts_index. */
static void
assert_no_group (Fixture *fx, const TtgProcStat *st, const TtgSession *s)
{
  guint index = 999;

  g_assert_false (starts_group (fx, st, s, &index));
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
  assert_no_group (fx, &child, fx->session);
}

static void
test_starts_group_no_pts (Fixture *fx, gconstpointer user_data)
{
  TtgProcStat st = fx->shell;

  /* A daemonised process: leader, no controlling tty. */
  st.tty_nr = 0;
  assert_no_group (fx, &st, fx->session);

  /* A login shell on a virtual console. */
  st.tty_nr = TTY_TTY1;
  assert_no_group (fx, &st, fx->session);
}

static void
test_starts_group_no_session (Fixture *fx, gconstpointer user_data)
{
  assert_no_group (fx, &fx->shell, NULL);
}

static void
test_starts_group_not_splitting (Fixture *fx, gconstpointer user_data)
{
  fx->session->is_display = FALSE;
  assert_no_group (fx, &fx->shell, fx->session);

  fx->session->is_display = TRUE;
  fx->policy.group_terminals = FALSE;
  assert_no_group (fx, &fx->shell, fx->session);

  fx->policy.group_terminals = TRUE;
  fx->policy.enabled = FALSE;
  assert_no_group (fx, &fx->shell, fx->session);

  fx->policy.enabled = TRUE;
  fx->policy.manage_greeter = TRUE;
  make_greeter (fx->session);
  assert_no_group (fx, &fx->shell, fx->session);
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

/* ---- the role of a pty, over real process trees -------------------------
 *
 * Each tree is what `ps -e -o pid,ppid,sid,tty,comm` shows of one login
 * (plus the few processes around it the rule may look at). For every
 * kernel session leader on a pty the table says which role it has. */

typedef struct {
  const char *name;
  const char *type, *tty, *service; /* logind: Type, TTY, Service */
  pid_t leader;                     /* logind: Leader */
  const char *tree;                 /* "pid ppid sid tty comm" lines */
  const char *expect;               /* "pid:role" for each pty leader */
} TreeCase;

static guint32
tty_nr_of (const char *tty)
{
  guint64 n;

  if (g_str_has_prefix (tty, "pts/") && g_ascii_string_to_unsigned (tty + 4, 10, 0, 1048575, &n, NULL))
    return (guint32) ((136 + n / 256) << 8 | (n % 256));
  if (g_str_has_prefix (tty, "tty") && g_ascii_string_to_unsigned (tty + 3, 10, 1, 63, &n, NULL))
    return (guint32) (4 << 8 | n);
  g_assert_cmpstr (tty, ==, "-");
  return 0;
}

static GArray *
parse_tree (const char *text)
{
  GArray *procs = g_array_new (FALSE, TRUE, sizeof (TtgProcStat));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (char **l = lines; *l; l++)
    {
      TtgProcStat st = { 0 };
      char tty[16];
      int pid, ppid, sid;

      if (!*g_strstrip (*l))
        continue;
      g_assert_cmpint (sscanf (*l, "%d %d %d %15s %63[^\n]", &pid, &ppid, &sid, tty, st.comm), ==, 5);
      st.pid = pid;
      st.ppid = ppid;
      st.session = sid;
      st.pgrp = sid;
      st.tty_nr = tty_nr_of (tty);
      g_array_append_val (procs, st);
    }
  return procs;
}

static const TtgProcStat *
find_proc (GArray *procs, pid_t pid)
{
  for (guint i = 0; i < procs->len; i++)
    if (g_array_index (procs, TtgProcStat, i).pid == pid)
      return &g_array_index (procs, TtgProcStat, i);
  return NULL;
}

static const char *
role_name (TtgPtyRole role)
{
  switch (role)
    {
    case TTG_PTY_LOGIN_TTY: return "login-tty";
    case TTG_PTY_LOGIN_GIVEN_BY_LEADER: return "login-ssh";
    case TTG_PTY_IN_GRAPHICAL_SESSION: return "graphical";
    case TTG_PTY_IN_TEXT_SESSION: return "inside";
    case TTG_PTY_IN_SESSION_WITHOUT_TERMINAL: return "no-terminal";
    }
  return "?";
}

static const TreeCase tree_cases[] = {
  /* Recorded in the test VM (Debian 12, systemd 252, OpenSSH 9.2). */
  { "recorded: ssh -tt login of bob, with tmux, screen and script in it (logind: TTY=pts/4)",
    "tty", "pts/4", "sshd", 468,
    " 468  335  468 -     sshd\n"
    " 502  468  468 -     sshd\n"
    " 504  502  504 pts/4 bash\n"
    " 531    1  531 -     tmux: server\n"
    " 533  531  533 pts/5 sleep\n"
    " 538    1  538 -     screen\n"
    " 539    1  504 pts/4 script\n"
    " 541  539  541 pts/6 sleep\n"
    " 543  538  543 pts/7 sleep\n",
    "504:login-tty 533:inside 541:inside 543:inside" },
  { "recorded: Type=x11 session (PAMName=login, no tty), script at depth 1 and under a shell",
    "x11", NULL, "login", 421,
    " 421    1  421 -     deep.sh\n"
    " 434  421  421 -     (sd-pam)\n"
    " 436  421  421 -     script\n"
    " 437  421  421 -     bash\n"
    " 440  436  440 pts/0 sleep\n"
    " 442  437  421 -     script\n"
    " 443  442  443 pts/2 sleep\n",
    "440:graphical 443:graphical" },
  { "recorded: the same as Type=wayland",
    "wayland", NULL, "login", 423,
    " 423    1  423 -     deep.sh\n"
    " 438  423  423 -     script\n"
    " 439  423  423 -     bash\n"
    " 441  438  441 pts/1 sleep\n"
    " 444  439  423 -     script\n"
    " 445  444  445 pts/3 sleep\n",
    "441:graphical 445:graphical" },
  /* Shapes of other logins, as their programs start them. */
  { "ssh login where logind has no TTY (sshd's PAM_TTY \"ssh\"), script, tmux and screen in it",
    "tty", NULL, "sshd", 900,
    " 350    1  350 -     sshd\n"
    " 900  350  900 -     sshd\n"            /* alice [priv]: logind's leader */
    " 910  900  900 -     sshd\n"            /* alice@pts/0, unprivileged */
    " 911  910  911 pts/0 bash\n"
    " 920  911  911 pts/0 script\n"
    " 921  920  921 pts/1 bash\n"
    " 930  911  911 pts/0 tmux: client\n"
    " 931    1  931 -     tmux: server\n"    /* the server daemonizes */
    " 932  931  932 pts/2 bash\n"
    " 933  931  933 pts/3 bash\n"
    " 940    1  940 -     screen\n"
    " 941  940  941 pts/4 bash\n",
    "911:login-ssh 921:inside 932:inside 933:inside 941:inside" },
  { "ssh login where logind has the pty as TTY",
    "tty", "pts/0", "sshd", 900,
    " 900  350  900 -     sshd\n"
    " 910  900  900 -     sshd\n"
    " 911  910  911 pts/0 bash\n"
    " 920  911  911 pts/0 script\n"
    " 921  920  921 pts/1 bash\n",
    "911:login-tty 921:inside" },
  { "ssh without a pty (ssh host 'script ...'): the only pty is opened inside",
    "tty", NULL, "sshd", 900,
    " 900  350  900 -     sshd\n"
    " 910  900  900 -     sshd\n"
    " 911  910  911 -     script\n"
    " 912  911  912 pts/0 bash\n",
    "912:inside" },
  { "VT login through getty: login(1) on tty1, a terminal opened from the shell",
    "tty", "tty1", "login", 700,
    " 700    1  700 tty1  login\n"
    " 710  700  710 tty1  bash\n"
    " 720  710  710 tty1  script\n"
    " 721  720  721 pts/0 bash\n",
    "721:inside" },
  { "pty login (login -f under script): its pty is the TTY",
    "tty", "pts/0", "login", 600,
    " 590    1  590 -     script\n"
    " 600  590  600 pts/0 login\n"
    " 610  600  610 pts/0 bash\n"
    " 620  610  610 pts/0 script\n"
    " 621  620  621 pts/1 bash\n",
    "600:login-tty 610:login-tty 621:inside" },
  { "su -l carol -c CMD from root's pts/5: su setsid()s the command away from the pty",
    "tty", "pts/5", "su-l", 800,
    " 790  780  790 pts/5 bash\n"
    " 800  790  790 pts/5 su\n"              /* logind's leader */
    " 801  800  801 -     bash\n"            /* setsid(): no terminal */
    " 802  801  801 -     script\n"
    " 803  802  803 pts/6 bash\n"
    " 810  801  801 -     script\n"
    " 811  810  811 pts/7 bash\n",
    "790:login-tty 803:inside 811:inside" },
  { "su -l -c started without a terminal (a service): Type=unspecified",
    "unspecified", NULL, "su-l", 800,
    " 800    1  800 -     su\n"
    " 801  800  801 -     bash\n"
    " 802  801  801 -     script\n"
    " 803  802  803 pts/0 bash\n",
    "803:no-terminal" },
  { "lightdm x11 session: terminals from the panel, depth 1 and 6 below the leader",
    "x11", NULL, "lightdm-autologin", 1200,
    "1100    1 1100 -     lightdm\n"
    "1200 1100 1100 -     lightdm\n"         /* --session-child: logind's leader */
    "1201 1200 1201 -     xterm\n"           /* depth 1: the leader's own child */
    "1202 1201 1202 pts/0 bash\n"
    "1210 1200 1210 -     xfce4-session\n"
    "1220 1210 1210 -     xfce4-panel\n"
    "1230 1220 1210 -     xfce4-terminal\n"
    "1231 1230 1231 pts/1 bash\n"
    "1232 1230 1232 pts/2 bash\n"
    "1240 1210 1210 -     sh\n"
    "1241 1240 1210 -     sh\n"
    "1242 1241 1210 -     sh\n"
    "1243 1242 1210 -     sh\n"
    "1244 1243 1210 -     xterm\n"          /* depth 6 */
    "1245 1244 1245 pts/3 bash\n",
    "1202:graphical 1231:graphical 1232:graphical 1245:graphical" },
  { "gdm wayland session: gdm-session-worker leads, a terminal under gnome-shell",
    "wayland", NULL, "gdm-password", 1500,
    "1500 1400 1400 -     gdm-session-wor\n"
    "1510 1500 1510 -     gdm-wayland-ses\n"
    "1520 1510 1510 -     gnome-session-b\n"
    "1530 1520 1510 -     gnome-shell\n"
    "1540 1530 1510 -     kitty\n"
    "1541 1540 1541 pts/0 zsh\n"
    "1542 1541 1541 pts/0 script\n"
    "1543 1542 1543 pts/1 bash\n",
    "1541:graphical 1543:graphical" },
  { "gdm x11 session (gdm-x-session runs Xorg): MATE's terminal with two tabs, an xterm from it",
    "x11", NULL, "gdm-password", 1600,
    "1600 1400 1400 -     gdm-session-wor\n"   /* logind's leader */
    "1610 1600 1610 -     gdm-x-session\n"
    "1611 1610 1610 -     Xorg\n"
    "1620 1610 1610 -     mate-session\n"
    "1630 1620 1610 -     mate-panel\n"
    "1640 1630 1610 -     mate-terminal\n"
    "1641 1640 1641 pts/0 bash\n"
    "1642 1640 1642 pts/1 bash\n"
    "1650 1642 1642 pts/1 xterm\n"           /* started from the second tab */
    "1651 1650 1651 pts/2 bash\n",
    "1641:graphical 1642:graphical 1651:graphical" },
  { "a display manager that hands the session a VT (TTY=tty7): still graphical",
    "x11", "tty7", "lightdm", 1200,
    "1200 1100 1100 -     lightdm\n"
    "1201 1200 1201 -     xterm\n"
    "1202 1201 1202 pts/0 bash\n",
    "1202:graphical" },
  { "graphical-type session started with PAMName=login, no tty: script at depth 1 and 4",
    "x11", NULL, "login", 438,
    " 438    1  438 -     bash\n"            /* the service's main process: logind's leader */
    " 439  438  438 -     script\n"
    " 440  439  440 pts/0 sleep\n"
    " 441  438  438 -     bash\n"
    " 442  441  438 -     bash\n"
    " 443  442  438 -     bash\n"
    " 444  443  438 -     script\n"
    " 445  444  445 pts/1 sleep\n",
    "440:graphical 445:graphical" },
  { "sway started from a VT login: the session keeps Type=tty and TTY=tty1",
    "tty", "tty1", "login", 700,
    " 700    1  700 tty1  login\n"
    " 710  700  710 tty1  bash\n"
    " 720  710  710 tty1  sway\n"
    " 730  720  710 tty1  foot\n"
    " 731  730  731 pts/0 bash\n"
    " 740  720  710 tty1  foot\n"
    " 741  740  741 pts/1 bash\n",
    "731:inside 741:inside" },
  { "screen started from a VT login",
    "tty", "tty2", "login", 700,
    " 700    1  700 tty2  login\n"
    " 710  700  710 tty2  bash\n"
    " 720  710  710 tty2  screen\n"
    " 721  720  721 -     screen\n"
    " 722  721  722 pts/0 bash\n"
    " 723  721  723 pts/1 bash\n",
    "722:inside 723:inside" },
};

static void
test_pty_role_tree (gconstpointer data)
{
  const TreeCase *c = data;
  g_autoptr(TtgSession) s = ttg_session_new ("4");
  g_autoptr(GArray) procs = parse_tree (c->tree);
  g_auto(GStrv) expect = g_strsplit (c->expect, " ", -1);
  guint checked = 0;

  s->uid = 1001;
  s->klass = g_strdup ("user");
  s->type = g_strdup (c->type);
  s->tty = g_strdup (c->tty);
  s->service = g_strdup (c->service);
  s->leader = c->leader;

  /* every pty leader of the tree has an expectation, and only those */
  for (guint i = 0; i < procs->len; i++)
    {
      const TtgProcStat *st = &g_array_index (procs, TtgProcStat, i);
      guint pts;
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;
      g_autofree char *text = NULL;
      TtgPtyRole role;

      if (st->session != st->pid || !ttg_tty_nr_is_pts (st->tty_nr, &pts))
        continue;
      role = ttg_model_pty_role (s, st, pts, find_proc (procs, st->ppid));
      got = g_strdup_printf ("%d:%s", (int) st->pid, role_name (role));
      for (char **e = expect; *e; e++)
        if (atoi (*e) == st->pid)
          want = g_strdup (*e);
      if (g_strcmp0 (got, want) != 0)
        g_error ("%s: pid %d on pts/%u: got %s, want %s", c->name, (int) st->pid, pts, got,
                 want ? want : "(no expectation)");
      text = ttg_pty_role_explain (role, s, pts);
      g_assert_nonnull (strstr (text, "pts/"));
      checked++;
    }
  g_assert_cmpuint (checked, ==, g_strv_length (expect));
}

/* The ssh rule holds only for what logind calls an sshd login. */
static void
test_pty_role_ssh_needs_sshd (void)
{
  g_autoptr(TtgSession) s = ttg_session_new ("4");
  TtgProcStat parent = { .pid = 910, .ppid = 900, .session = 900 };
  TtgProcStat shell = { .pid = 911, .ppid = 910, .session = 911, .tty_nr = (136 << 8) };

  s->type = g_strdup ("tty");
  s->service = g_strdup ("sshd");
  s->leader = 900;
  g_assert_cmpint (ttg_model_pty_role (s, &shell, 0, &parent), ==, TTG_PTY_LOGIN_GIVEN_BY_LEADER);
  g_assert_true (ttg_pty_role_is_login (TTG_PTY_LOGIN_GIVEN_BY_LEADER));
  /* parent gone: nothing shows it is the login's */
  g_assert_cmpint (ttg_model_pty_role (s, &shell, 0, NULL), ==, TTG_PTY_IN_TEXT_SESSION);
  /* a parent on a terminal opened it from there */
  parent.tty_nr = (136 << 8) | 9;
  g_assert_cmpint (ttg_model_pty_role (s, &shell, 0, &parent), ==, TTG_PTY_IN_TEXT_SESSION);
  parent.tty_nr = 0;
  /* another PAM service with the same shape: no login terminal known */
  g_free (s->service);
  s->service = g_strdup ("login");
  g_assert_cmpint (ttg_model_pty_role (s, &shell, 0, &parent), ==, TTG_PTY_IN_SESSION_WITHOUT_TERMINAL);
  /* leader unknown */
  g_free (s->service);
  s->service = g_strdup ("sshd");
  s->leader = 0;
  g_assert_cmpint (ttg_model_pty_role (s, &shell, 0, &parent), ==, TTG_PTY_IN_SESSION_WITHOUT_TERMINAL);
  g_assert_false (ttg_pty_role_is_login (TTG_PTY_IN_SESSION_WITHOUT_TERMINAL));
}

static void
test_pty_role_explain_words (void)
{
  g_autoptr(TtgSession) s = ttg_session_new ("4");
  g_autofree char *graphical = NULL, *login = NULL, *inside = NULL;

  s->type = g_strdup ("x11");
  graphical = ttg_pty_role_explain (TTG_PTY_IN_GRAPHICAL_SESSION, s, 0);
  g_assert_cmpstr (graphical, ==, "pts/0 is a terminal opened in the graphical (x11) session 4, which has no "
                                  "login terminal: every terminal there gets a group of its own (TerminalWeight)");
  g_free (s->type);
  s->type = g_strdup ("tty");
  s->tty = g_strdup ("pts/2");
  login = ttg_pty_role_explain (TTG_PTY_LOGIN_TTY, s, 2);
  g_assert_cmpstr (login, ==, "pts/2 is the terminal session 4 logged in on (logind: TTY=pts/2): "
                              "it is the session itself and stays in its scope");
  inside = ttg_pty_role_explain (TTG_PTY_IN_TEXT_SESSION, s, 3);
  g_assert_cmpstr (inside, ==, "pts/3 is a terminal opened inside session 4, whose login terminal is pts/2: "
                               "it gets a group of its own (TerminalWeight)");
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
  for (guint i = 0; i < G_N_ELEMENTS (tree_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/model/pty-role/tree/%u", i);
      g_test_add_data_func (path, &tree_cases[i], test_pty_role_tree);
    }
  g_test_add_func ("/model/pty-role/ssh-needs-sshd", test_pty_role_ssh_needs_sshd);
  g_test_add_func ("/model/pty-role/explain", test_pty_role_explain_words);

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
  ADD ("/model/verdict", test_verdict);
  ADD ("/model/starts-group/leader-on-pts", test_starts_group);
  ADD ("/model/starts-group/not-leader", test_starts_group_not_leader);
  ADD ("/model/starts-group/no-pts", test_starts_group_no_pts);
  ADD ("/model/starts-group/no-session", test_starts_group_no_session);
  ADD ("/model/starts-group/not-splitting", test_starts_group_not_splitting);
  ADD ("/model/pty-is-session-tty/match", test_pty_is_session_tty);
  ADD ("/model/pty-is-session-tty/no-match", test_pty_is_not_session_tty);

#undef ADD

  return g_test_run ();
}
