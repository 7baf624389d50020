/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The manager and its rooms on the host, in milliseconds: real manager,
 * groups, budgets and explain code over fakes of its I/O edges
 * (fakes/fake-edges.c): a process table, a systemd that keeps units and
 * moves processes when a job finishes, a logind the test sets. What needs
 * the real systemd (delegation, polkit, cgroup moves) stays in the VM. */
#include "build-config.h"

#include <string.h>

#include "fake-edges.h"
#include "groups.h"
#include "manager.h"
#include "util.h"

#define UID 1000
#define SLICE "/user.slice/user-1000.slice"
#define SCOPE3 SLICE "/session-3.scope"
#define UNIT_A "ttygroup-pty-3-4242.scope"
#define UNIT_B "ttygroup-pty-3-4252.scope"

typedef struct {
  sd_event *event;
  TtgManager *m;
  TtgPolicy policy;
} Fixture;

/* A user's graphical (x11) session 3, its terminal emulator (no tty), and
 * two terminals in it: bash on pts/3 running make, and bash on pts/4. */
static void
add_desktop (void)
{
  fake_session_add ("3", UID, "x11", NULL);
  fake_proc_add (3900, 1, 3900, 0, "gnome-session", SCOPE3);
  fake_proc_add (4000, 3900, 3900, 0, "xterm", SCOPE3);
  fake_proc_add (4242, 4000, 4242, FAKE_TTY_PTS (3), "bash", SCOPE3);
  fake_proc_add (4300, 4242, 4242, FAKE_TTY_PTS (3), "make", SCOPE3);
  fake_proc_add (4252, 4000, 4252, FAKE_TTY_PTS (4), "bash", SCOPE3);
}

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GError) error = NULL;

  fake_reset ();
  g_assert_cmpint (sd_event_new (&fx->event), >=, 0);
  ttg_policy_init_defaults (&fx->policy);
  fx->m = ttg_manager_new (fx->event, NULL, &fx->policy, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *fx, gconstpointer user_data)
{
  g_clear_pointer (&fx->m, ttg_manager_free);
  fx->event = sd_event_unref (fx->event);
  fake_reset ();
}

static void
start (Fixture *fx)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ttg_manager_start (fx->m, &error));
  g_assert_no_error (error);
}

/* Runs what is due now (timers armed with no delay). */
static void
run_due (Fixture *fx)
{
  while (sd_event_run (fx->event, 0) > 0)
    ;
}

/* Runs the loop until cond holds, at most timeout_ms. */
static gboolean
run_until (Fixture *fx, gboolean (*cond) (gpointer), gpointer data, guint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * 1000;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      (void) sd_event_run (fx->event, 50 * 1000);
    }
  return TRUE;
}

static void
set_policy (Fixture *fx, void (*change) (TtgPolicy *p))
{
  TtgPolicy p = *ttg_manager_get_policy (fx->m);

  change (&p);
  ttg_manager_set_policy (fx->m, &p);
  run_due (fx);
}

static char *
explain_rule (Fixture *fx, pid_t pid, const char **kind)
{
  g_auto(TtgPidInfo) info = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (ttg_manager_explain_pid (fx->m, pid, &info, &error));
  g_assert_no_error (error);
  if (kind)
    *kind = info.kind;
  return g_steal_pointer (&info.rule);
}

static void
assert_contains (const char *text, const char *part)
{
  if (!strstr (text, part))
    g_error ("\"%s\" is not in \"%s\"", part, text);
}

/* Both terminals started, the first one in place. */
static void
place_a (Fixture *fx)
{
  add_desktop ();
  start (fx);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_A), ==, 1);
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
}

static void
test_terminals_placed (Fixture *fx, gconstpointer user_data)
{
  const char *kind;
  g_autofree char *rule = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  gboolean listed = FALSE;

  place_a (fx);
  /* The shell and its make, not the emulator nor the session's processes. */
  g_assert_cmpuint (((FakeCall *) fake_placer_calls ()->pdata[fake_placer_calls ()->len - 2])->n_pids, >=, 1);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
  g_assert_cmpstr (fake_proc_cgroup (4300), ==, SLICE "/" UNIT_A);
  g_assert_cmpstr (fake_proc_cgroup (4000), ==, SCOPE3);
  g_assert_cmpstr (fake_proc_cgroup (4252), ==, SCOPE3); /* its job is still pending */
  g_assert_cmpuint (fake_placer_weight (UNIT_A), ==, 100);
  /* The active session of seat0 has its weight. */
  g_assert_cmpuint (fake_placer_weight ("session-3.scope"), ==, 200);

  rule = explain_rule (fx, 4300, &kind);
  g_assert_cmpstr (kind, ==, "terminal");
  assert_contains (rule, "graphical (x11) session 3, which has no login terminal");

  groups = ttg_manager_list_groups (fx->m);
  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];

      if (g_str_equal (g->unit, UNIT_A))
        {
          listed = TRUE;
          g_assert_cmpstr (g->cgroup, ==, SLICE "/" UNIT_A);
          g_assert_cmpstr (g->kind, ==, "terminal");
          g_assert_cmpint (g->leader, ==, 4242);
        }
      if (g_str_equal (g->unit, "session-3.scope"))
        g_assert_cmpstr (g->cgroup, ==, SCOPE3);
    }
  g_assert_true (listed);
}

/* A text login keeps its own terminal; a terminal opened inside it is split. */
static void
test_login_terminal_stays (Fixture *fx, gconstpointer user_data)
{
  fake_session_add ("5", UID, "tty", "pts/0");
  fake_proc_add (5000, 1, 5000, 0, "login", SLICE "/session-5.scope");
  fake_proc_add (5001, 5000, 5001, FAKE_TTY_PTS (0), "bash", SLICE "/session-5.scope");
  fake_proc_add (5002, 5001, 5002, FAKE_TTY_PTS (1), "bash", SLICE "/session-5.scope");
  start (fx);
  g_assert_cmpuint (fake_placer_count ("start", "ttygroup-pty-5-5001.scope"), ==, 0);
  g_assert_cmpuint (fake_placer_count ("start", "ttygroup-pty-5-5002.scope"), ==, 1);
}

static void set_weight_50 (TtgPolicy *p) { p->terminal_weight = 50; }
static void terminals_off (TtgPolicy *p) { p->group_terminals = FALSE; }
static void terminals_on (TtgPolicy *p) { p->group_terminals = TRUE; }
static void grouping_off (TtgPolicy *p) { p->enabled = FALSE; }
static void grouping_on (TtgPolicy *p) { p->enabled = TRUE; }

static void
test_reconcile_policy (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *rule = NULL;

  place_a (fx);
  fake_placer_clear_calls ();
  set_policy (fx, set_weight_50);
  g_assert_cmpuint (fake_placer_count ("weight", UNIT_A), ==, 1);
  g_assert_cmpuint (fake_placer_weight (UNIT_A), ==, 50);
  /* The session's weight did not change: not written again. */
  g_assert_cmpuint (fake_placer_count ("weight", "session-3.scope"), ==, 0);

  set_policy (fx, terminals_off);
  g_assert_cmpuint (fake_placer_count ("move-back", "session-3.scope"), ==, 1);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SCOPE3);
  g_assert_cmpstr (fake_proc_cgroup (4300), ==, SCOPE3);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 0);
  rule = explain_rule (fx, 4300, NULL);
  assert_contains (rule, "does not split its terminals, because terminal grouping is disabled (GroupTerminals=false)");
}

static gboolean
three_starts (gpointer data)
{
  return fake_placer_count ("start", UNIT_A) >= 3;
}

/* Off and on again before systemd collected the old scope: the terminal is
 * grouped again (the defect of an earlier version: it stayed ungrouped),
 * through a refused start (UnitExists) and a retry once the unit is gone. */
static void
test_reenable_before_collected (Fixture *fx, gconstpointer user_data)
{
  place_a (fx);
  set_policy (fx, grouping_off);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SCOPE3);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 0);
  g_assert_true (fake_unit_exists (UNIT_A));

  set_policy (fx, grouping_on);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_A), ==, 2);
  fake_placer_finish (UNIT_A, "refused", "org.freedesktop.systemd1.UnitExists");
  fake_unit_remove (UNIT_A);
  g_assert_true (run_until (fx, three_starts, NULL, 3000));
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
}

/* Off, the old scope collected, on: grouped again at once. */
static void
test_toggle_after_collected (Fixture *fx, gconstpointer user_data)
{
  place_a (fx);
  set_policy (fx, terminals_off);
  fake_unit_remove (UNIT_A);
  set_policy (fx, terminals_on);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_A), ==, 2);
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
}

static void
test_user_policy (Fixture *fx, gconstpointer user_data)
{
  TtgUserPolicy off = { .has_enabled = TRUE, .enabled = FALSE };
  TtgUserPolicy light = { .has_terminal_weight = TRUE, .terminal_weight = 20 };
  g_autofree char *rule = NULL;

  place_a (fx);
  ttg_manager_set_user_policy (fx->m, UID, &light);
  g_assert_cmpuint (fake_placer_weight (UNIT_A), ==, 20);
  ttg_manager_set_user_policy (fx->m, UID, &off);
  g_assert_cmpstr (fake_proc_cgroup (4300), ==, SCOPE3);
  rule = explain_rule (fx, 4300, NULL);
  assert_contains (rule, "because its user turned grouping off (SetUserPolicy)");
  /* The session's weight goes back to logind's default. */
  g_assert_cmpuint (fake_placer_weight ("session-3.scope"), ==, TTG_WEIGHT_UNSET);
}

static gboolean
b_started (gpointer data)
{
  return fake_placer_count ("start", UNIT_B) == 1;
}

/* One group per user at most: the second terminal waits in the session's
 * scope, explain says why, and it gets its group once the first is gone. */
static void
test_limit_waiting_list (Fixture *fx, gconstpointer user_data)
{
  TtgLimits limits;
  g_autofree char *rule = NULL;

  ttg_limits_init_default (&limits);
  limits.max_groups = 1;
  ttg_manager_set_limits (fx->m, &limits);
  place_a (fx);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_B), ==, 0);
  rule = explain_rule (fx, 4252, NULL);
  assert_contains (rule, "stays in the session's scope for now");
  assert_contains (rule, "MaxTerminalGroupsPerUser");

  /* A rescan does not get past the cap either. */
  fake_proc_events_lost ();
  run_due (fx);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_B), ==, 0);

  /* The first terminal closes; systemd collects its scope. */
  fake_proc_exit (4300);
  fake_proc_exit (4242);
  fake_proc_event (TTG_PROC_EVENT_EXIT, 4242);
  fake_unit_remove (UNIT_A);
  g_assert_true (run_until (fx, b_started, NULL, 1000));
  fake_placer_finish (UNIT_B, "done", NULL);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
}

/* A restarted service takes over the scopes of the previous run, gives
 * them their weight, counts them toward the cap, and starts no duplicate. */
static void
test_adopt_after_restart (Fixture *fx, gconstpointer user_data)
{
  TtgLimits limits;

  ttg_limits_init_default (&limits);
  limits.max_groups = 1;
  ttg_manager_set_limits (fx->m, &limits);
  add_desktop ();
  fake_unit_add (UNIT_A, SLICE "/" UNIT_A);
  fake_proc_add (4242, 4000, 4242, FAKE_TTY_PTS (3), "bash", SLICE "/" UNIT_A);
  fake_proc_add (4300, 4242, 4242, FAKE_TTY_PTS (3), "make", SLICE "/" UNIT_A);
  start (fx);
  g_assert_cmpuint (fake_placer_count ("start", NULL), ==, 0);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
  g_assert_cmpuint (fake_placer_weight (UNIT_A), ==, 100);
  g_assert_cmpuint (fake_placer_count ("start", UNIT_B), ==, 0); /* the cap holds */
}

static gboolean
no_groups (gpointer data)
{
  return ttg_manager_count_groups (data) == 0;
}

/* daemon-reexec: systemd says UnitRemoved for every unit and brings them
 * back. A group is forgotten only once systemd no longer lists it, asked
 * again later when it cannot answer. */
static void
test_reexec_confirm_removed (Fixture *fx, gconstpointer user_data)
{
  place_a (fx);
  fake_unit_removed_signal (UNIT_A);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);

  fake_placer_set_list_fails (TRUE);
  fake_unit_removed_signal (UNIT_A);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
  fake_unit_forget (UNIT_A);
  fake_placer_set_list_fails (FALSE);
  g_assert_true (run_until (fx, no_groups, fx->m, 3000));
}

static gboolean
a_started_twice (gpointer data)
{
  return fake_placer_count ("start", UNIT_A) >= 2;
}

/* A refused start leaves the processes where they are and is tried again. */
static void
test_start_refused_retried (Fixture *fx, gconstpointer user_data)
{
  add_desktop ();
  start (fx);
  fake_placer_finish (UNIT_A, "failed", NULL);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SCOPE3);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 0);
  g_assert_true (run_until (fx, a_started_twice, NULL, 2000));
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
}

/* Every switch off and on, cycle after cycle, with systemd collecting the
 * old scopes before the switch comes back or not: after each cycle both
 * terminals are in groups of their own (each in one), with the policy's
 * weight, and a terminal opened then is grouped too. The VM scripts
 * test-switches-* run two such cycles with real systemd and CPU shares;
 * this runs the service's side of many more. */
typedef enum { SWITCH_ENABLED, SWITCH_GROUP_TERMINALS, SWITCH_USER } Switch;

static void
flip (Fixture *fx, Switch sw, gboolean on)
{
  TtgPolicy p = *ttg_manager_get_policy (fx->m);
  TtgUserPolicy u = { .has_enabled = TRUE, .enabled = on };

  switch (sw)
    {
    case SWITCH_ENABLED:
      p.enabled = on;
      ttg_manager_set_policy (fx->m, &p);
      break;
    case SWITCH_GROUP_TERMINALS:
      p.group_terminals = on;
      ttg_manager_set_policy (fx->m, &p);
      break;
    case SWITCH_USER:
      ttg_manager_set_user_policy (fx->m, UID, &u);
      break;
    }
  run_due (fx);
}

/* Finishes the start of unit, through UnitExists first when systemd still
 * has the old scope. */
static void
finish_start (Fixture *fx, const char *unit)
{
  guint starts = fake_placer_count ("start", unit);

  g_assert_cmpuint (starts, >=, 1);
  if (fake_unit_exists (unit))
    {
      fake_placer_finish (unit, "refused", "org.freedesktop.systemd1.UnitExists");
      fake_unit_remove (unit);
      fake_proc_events_lost (); /* a rescan now, not after the backoff */
      run_due (fx);
      g_assert_cmpuint (fake_placer_count ("start", unit), ==, starts + 1);
    }
  fake_placer_finish (unit, "done", NULL);
}

static void
test_switch_cycles (Fixture *fx, gconstpointer user_data)
{
  pid_t next = 6000;
  TtgLimits limits;

  /* More starts than the default burst allows in a moment. */
  ttg_limits_init_default (&limits);
  limits.burst = 1000;
  ttg_manager_set_limits (fx->m, &limits);
  add_desktop ();
  start (fx);
  finish_start (fx, UNIT_A);
  finish_start (fx, UNIT_B);
  for (Switch sw = SWITCH_ENABLED; sw <= SWITCH_USER; sw++)
    for (guint cycle = 0; cycle < 3; cycle++)
      {
        gboolean collected = (cycle + sw) % 2 == 0;
        g_autofree char *unit_new = NULL;

        fake_placer_clear_calls ();
        flip (fx, sw, FALSE);
        g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 0);
        g_assert_cmpstr (fake_proc_cgroup (4300), ==, SCOPE3);
        g_assert_cmpstr (fake_proc_cgroup (4252), ==, SCOPE3);
        if (collected)
          {
            fake_unit_remove (UNIT_A);
            fake_unit_remove (UNIT_B);
          }

        flip (fx, sw, TRUE);
        finish_start (fx, UNIT_A);
        finish_start (fx, UNIT_B);
        g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 2);
        g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
        g_assert_cmpstr (fake_proc_cgroup (4300), ==, SLICE "/" UNIT_A);
        g_assert_cmpstr (fake_proc_cgroup (4252), ==, SLICE "/" UNIT_B);
        g_assert_cmpuint (fake_placer_weight (UNIT_A), ==, 100);

        /* A terminal opened now: grouped at its exec. */
        fake_proc_add (next, 4000, next, FAKE_TTY_PTS (10 + cycle), "bash", SCOPE3);
        fake_proc_event (TTG_PROC_EVENT_EXEC, next);
        unit_new = g_strdup_printf ("ttygroup-pty-3-%d.scope", (int) next);
        finish_start (fx, unit_new);
        g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 3);
        fake_proc_exit (next);
        fake_proc_event (TTG_PROC_EVENT_EXIT, next);
        fake_unit_remove (unit_new);
        g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 2);
        next++;
      }
}

static gboolean
a_started_again (gpointer data)
{
  return fake_placer_count ("start", UNIT_A) >= 2;
}

/* A start that failed half-way (systemd moved the leader, then a process
 * of the terminal exited before it was moved): the next start takes the
 * leader from the failed scope's cgroup and the rest from the session's. */
static void
test_start_failed_half_way (Fixture *fx, gconstpointer user_data)
{
  add_desktop ();
  start (fx);
  fake_placer_fail_after_moving (UNIT_A, 1);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
  g_assert_cmpstr (fake_proc_cgroup (4300), ==, SCOPE3);
  g_assert_true (run_until (fx, a_started_again, NULL, 2000));
  g_assert_cmpuint (((FakeCall *) fake_placer_calls ()->pdata[fake_placer_calls ()->len - 1])->n_pids, ==, 2);
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpstr (fake_proc_cgroup (4242), ==, SLICE "/" UNIT_A);
  g_assert_cmpstr (fake_proc_cgroup (4300), ==, SLICE "/" UNIT_A);
  g_assert_cmpuint (ttg_manager_count_groups (fx->m), ==, 1);
}

/* ---- the groups' table alone ------------------------------------------- */

typedef struct {
  guint placed, removed, freed, adopted;
  guint64 rescan_delay;
  guint rescans;
} Heard;

static void heard_placed (const TtgGroup *g, gpointer d) { ((Heard *) d)->placed++; }
static void heard_failed (const char *unit, gpointer d) { }
static void heard_adopted (TtgGroup *g, gpointer d) { ((Heard *) d)->adopted++; }
static void heard_removed (const char *unit, uid_t uid, gpointer d) { ((Heard *) d)->removed++; }
static void heard_freed (gpointer d) { ((Heard *) d)->freed++; }
static void heard_rescan (guint64 delay, gpointer d) { ((Heard *) d)->rescans++; ((Heard *) d)->rescan_delay = delay; }

static const TtgGroupsListener heard_listener = {
  heard_placed, heard_failed, heard_adopted, heard_removed, heard_freed, heard_rescan,
};

/* A scope whose processes all exited but that systemd keeps running is
 * stopped (only when empty) and frees its place. */
static void
test_groups_collect_empty (void)
{
  g_autoptr(sd_event) event = NULL;
  g_autoptr(TtgPlacer) placer = NULL;
  g_autoptr(TtgGroups) gs = NULL;
  Heard heard = { 0 };

  fake_reset ();
  g_assert_cmpint (sd_event_new (&event), >=, 0);
  placer = ttg_placer_new (NULL, NULL);
  gs = ttg_groups_new (event, placer, &heard_listener, &heard);
  add_desktop ();
  ttg_groups_start (gs, &(TtgGroupStart) { "3", UID, 4242, "bash", 3, SCOPE3, 100, "a rule" });
  fake_placer_finish (UNIT_A, "done", NULL);
  g_assert_cmpuint (heard.placed, ==, 1);

  ttg_groups_collect_empty (gs);
  g_assert_cmpuint (fake_placer_count ("stop", NULL), ==, 0); /* not empty: left alone */
  fake_proc_exit (4300);
  fake_proc_exit (4242);
  ttg_groups_collect_empty (gs);
  g_assert_cmpuint (fake_placer_count ("stop", UNIT_A), ==, 1);
  g_assert_cmpuint (heard.freed, ==, 1);
  g_assert_cmpuint (ttg_groups_count_live (gs, UID), ==, 0);
  /* Not stopped twice. */
  ttg_groups_collect_empty (gs);
  g_assert_cmpuint (fake_placer_count ("stop", UNIT_A), ==, 1);
  fake_unit_remove (UNIT_A);
  g_assert_cmpuint (heard.removed, ==, 1);
  g_assert_null (ttg_groups_lookup (gs, UNIT_A));
  fake_reset ();
}

/* Starts refused again and again are retried ever more rarely, up to 10 s;
 * a scope PID 1 started after a timed-out call is taken over. */
static void
test_groups_backoff_and_orphans (void)
{
  g_autoptr(sd_event) event = NULL;
  g_autoptr(TtgPlacer) placer = NULL;
  g_autoptr(TtgGroups) gs = NULL;
  Heard heard = { 0 };
  guint64 delays[8];

  fake_reset ();
  g_assert_cmpint (sd_event_new (&event), >=, 0);
  placer = ttg_placer_new (NULL, NULL);
  gs = ttg_groups_new (event, placer, &heard_listener, &heard);
  add_desktop ();
  for (guint i = 0; i < G_N_ELEMENTS (delays); i++)
    {
      ttg_groups_start (gs, &(TtgGroupStart) { "3", UID, 4242, "bash", 3, SCOPE3, 100, "a rule" });
      fake_placer_finish (UNIT_A, "failed", NULL);
      delays[i] = heard.rescan_delay;
      g_assert_cmpstr (fake_proc_cgroup (4242), ==, SCOPE3);
    }
  g_assert_cmpuint (delays[0], ==, 500 * 1000);
  g_assert_cmpuint (delays[1], ==, 1000 * 1000);
  g_assert_cmpuint (delays[2], ==, 2000 * 1000);
  g_assert_cmpuint (delays[7], ==, 10 * G_USEC_PER_SEC);
  /* Its leader gone, the backoff is forgotten. */
  fake_proc_exit (4242);
  ttg_groups_tidy (gs);
  fake_proc_add (4242, 4000, 4242, FAKE_TTY_PTS (3), "bash", SCOPE3);
  ttg_groups_start (gs, &(TtgGroupStart) { "3", UID, 4242, "bash", 3, SCOPE3, 100, "a rule" });
  fake_placer_finish (UNIT_A, "failed", NULL);
  g_assert_cmpuint (heard.rescan_delay, ==, 500 * 1000);

  /* A timed-out call that PID 1 carried out after all. */
  ttg_groups_start (gs, &(TtgGroupStart) { "3", UID, 4252, "bash", 4, SCOPE3, 100, "a rule" });
  fake_placer_finish (UNIT_B, "refused", SD_BUS_ERROR_NO_REPLY);
  g_assert_null (ttg_groups_lookup (gs, UNIT_B));
  fake_unit_add (UNIT_B, SLICE "/" UNIT_B);
  ttg_groups_check_orphans (gs);
  g_assert_nonnull (ttg_groups_lookup (gs, UNIT_B));
  g_assert_cmpuint (heard.adopted, ==, 1);
  fake_reset ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  fake_reset ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/manager/terminals/placed", test_terminals_placed);
  ADD ("/manager/terminals/login-terminal-stays", test_login_terminal_stays);
  ADD ("/manager/policy/reconcile", test_reconcile_policy);
  ADD ("/manager/policy/re-enable-before-collected", test_reenable_before_collected);
  ADD ("/manager/policy/toggle-after-collected", test_toggle_after_collected);
  ADD ("/manager/policy/user", test_user_policy);
  ADD ("/manager/policy/switch-cycles", test_switch_cycles);
  ADD ("/manager/limits/waiting-list", test_limit_waiting_list);
  ADD ("/manager/restart/adopt", test_adopt_after_restart);
  ADD ("/manager/reexec/confirm-removed", test_reexec_confirm_removed);
  ADD ("/manager/start/refused-retried", test_start_refused_retried);
  ADD ("/manager/start/failed-half-way", test_start_failed_half_way);
#undef ADD
  g_test_add_func ("/groups/collect-empty", test_groups_collect_empty);
  g_test_add_func ("/groups/backoff-and-orphans", test_groups_backoff_and_orphans);

  return g_test_run ();
}
