/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "manager.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include <systemd/sd-daemon.h>

#include "cpucheck.h"
#include "logind.h"
#include "model.h"
#include "placer.h"
#include "procmon.h"
#include "procstat.h"
#include "userpolicy.h"
#include "util.h"

typedef enum {
  GROUP_STARTING,   /* StartTransientUnit sent, job not finished */
  GROUP_ACTIVE,
  GROUP_DISSOLVED,  /* processes moved back; waiting for systemd to collect it */
} GroupState;

static const char *
group_state_to_string (GroupState s)
{
  switch (s)
    {
    case GROUP_STARTING: return "starting";
    case GROUP_ACTIVE: return "active";
    case GROUP_DISSOLVED: return "dissolved";
    }
  return "unknown";
}

typedef struct {
  char *unit;
  char *session_id;
  uid_t uid;            /* the session's user; (uid_t) -1 when not known (adopted, session gone) */
  pid_t leader;
  guint pts;
  char *comm;
  char *cgroup;         /* the scope's cgroup path */
  char *session_cgroup; /* the session scope's cgroup path: where processes go back */
  char *source_cgroup;  /* where the leader was found: the session scope, or the
                         * group of the terminal it was opened from */
  guint64 weight;       /* applied; 0 when not known (adopted) */
  char *rule;           /* why the terminal has a group, in words (NULL if adopted) */
  GroupState state;
  gint64 started_usec;  /* CLOCK_MONOTONIC when the leader was seen */
} Group;

static void
group_free (Group *g)
{
  g_free (g->unit);
  g_free (g->session_id);
  g_free (g->comm);
  g_free (g->cgroup);
  g_free (g->session_cgroup);
  g_free (g->source_cgroup);
  g_free (g->rule);
  g_free (g);
}

struct TtgManager {
  sd_event *event;
  sd_bus *bus;
  TtgPolicy policy;

  GHashTable *sessions;        /* id -> TtgSession */
  GHashTable *session_weights; /* id -> guint64* applied CPUWeight */
  GHashTable *groups;          /* unit -> Group */
  GHashTable *start_failures;  /* unit -> guint: starts refused or failed in a row */
  GHashTable *maybe_removed;   /* units systemd said were removed, unconfirmed */

  TtgPlacer *placer;
  TtgLogind *logind;
  TtgProcmon *procmon;
  sd_event_source *rescan;

  gboolean cpu_usable;
  const char *cpu_why;
  guint64 placements;

  TtgManagerListener listener;
  gpointer listener_data;

  GHashTable *users; /* uid -> UserEntry: SetUserPolicy */

  TtgLimits limits;
  GHashTable *budgets;   /* uid -> UserBudget, for users with a session */
  sd_event_source *retry;
  sd_event_source *collect; /* looks for groups that ran empty unnoticed */
  sd_event_source *orphans; /* looks for scopes started after their call timed out */
};

/* How many held-back terminals of one user are remembered to be tried
 * again; more than that wait for the next full scan. Keeps a flood of ptys
 * from growing the service. */
#define WAITING_MAX 64

typedef struct {
  TtgBudget budget;
  GArray *waiting;      /* leader pids held back by a limit, at most WAITING_MAX */
  gboolean overflowed;  /* some held-back terminal was not remembered */
} UserBudget;

static void
user_budget_free (UserBudget *ub)
{
  g_array_unref (ub->waiting);
  g_free (ub);
}

typedef struct {
  TtgUserPolicy asked;
  TtgPolicy effective; /* the system policy narrowed by it */
} UserEntry;

/* The policy that rules a session: the system's, narrowed by its user's. */
static const TtgPolicy *
session_policy (TtgManager *m, const TtgSession *s)
{
  UserEntry *e = s ? g_hash_table_lookup (m->users, GUINT_TO_POINTER (s->uid)) : NULL;

  return e ? &e->effective : &m->policy;
}

static void
recompute_user_policies (TtgManager *m)
{
  GHashTableIter it;
  UserEntry *e;

  g_hash_table_iter_init (&it, m->users);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &e))
    ttg_user_policy_apply (&e->asked, &m->policy, &e->effective);
}

static void schedule_rescan (TtgManager *m, guint64 delay_usec);
static void schedule_collect (TtgManager *m);
static gboolean adopt_group (TtgManager *m, const char *unit, gboolean check_active, const char *why);
static void schedule_orphan_check (TtgManager *m);

static void
notify_status (TtgManager *m)
{
  g_autofree char *line = ttg_manager_status_line (m);

  (void) sd_notifyf (0, "STATUS=%s", line);
}

static gint64
now_usec (void)
{
  return g_get_monotonic_time ();
}

static gboolean
read_stat (pid_t pid, TtgProcStat *st)
{
  char path[64];
  g_autofree char *text = NULL;

  g_snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  text = ttg_read_file (path, NULL);
  return text && ttg_proc_stat_parse (text, st, NULL);
}

static char *
session_scope_cgroup_sibling (const char *session_cgroup, const char *unit)
{
  g_autofree char *dir = g_path_get_dirname (session_cgroup);

  return g_build_path ("/", dir, unit, NULL);
}

/* ---- sessions -------------------------------------------------------- */

static void
apply_session_weights (TtgManager *m)
{
  GHashTableIter it;
  TtgSession *s;

  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    {
      guint64 want = ttg_model_session_weight (session_policy (m, s), s);
      guint64 *have = g_hash_table_lookup (m->session_weights, s->id);
      g_autofree char *scope = NULL;

      if (have && *have == want)
        continue;
      /* Never touched and nothing wanted: leave logind's scope as it is. */
      if (!have && want == TTG_WEIGHT_UNSET)
        continue;

      scope = ttg_session_scope_name (s->id);
      if (want == TTG_WEIGHT_UNSET)
        ttg_log_info ("session", "Session %s (uid %u): CPUWeight of %s back to the default (%s)",
                      s->id, (unsigned) s->uid, scope, ttg_model_session_weight_reason (session_policy (m, s), s));
      else
        ttg_log_info ("session", "Session %s (uid %u): CPUWeight=%" G_GUINT64_FORMAT " on %s (%s)",
                      s->id, (unsigned) s->uid, want, scope,
                      ttg_model_session_weight_reason (session_policy (m, s), s));
      ttg_placer_set_weight (m->placer, scope, want);
      g_hash_table_insert (m->session_weights, g_strdup (s->id), g_memdup2 (&want, sizeof want));
      if (m->listener.group_changed)
        m->listener.group_changed (scope, want == TTG_WEIGHT_UNSET ? 0 : want, m->listener_data);
    }

  /* Forget sessions that are gone. */
  GHashTableIter wit;
  const char *id;
  g_hash_table_iter_init (&wit, m->session_weights);
  while (g_hash_table_iter_next (&wit, (gpointer *) &id, NULL))
    if (!g_hash_table_contains (m->sessions, id))
      g_hash_table_iter_remove (&wit);
}

/* A user's budget lives as long as they have a session: bounded by logind. */
static void
prune_budgets (TtgManager *m)
{
  GHashTableIter it;
  gpointer key;
  TtgSession *s;
  g_autoptr(GHashTable) uids = g_hash_table_new (g_direct_hash, g_direct_equal);

  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    g_hash_table_add (uids, GUINT_TO_POINTER (s->uid));
  g_hash_table_iter_init (&it, m->budgets);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (!g_hash_table_contains (uids, key))
      g_hash_table_iter_remove (&it);
}

static gboolean
refresh_sessions (TtgManager *m)
{
  g_autoptr(GError) error = NULL;
  GHashTable *sessions = ttg_logind_read_sessions (m->logind, &error);

  if (!sessions)
    {
      ttg_log_err ("logind", "%s", error->message);
      return FALSE;
    }
  g_clear_pointer (&m->sessions, g_hash_table_unref);
  m->sessions = sessions;
  prune_budgets (m);
  return TRUE;
}

/* ---- groups ----------------------------------------------------------- */

static void
dissolve_group (TtgManager *m, Group *g, const char *why)
{
  g_autofree char *scope = ttg_session_scope_name (g->session_id);
  int r;

  if (!g->cgroup || !g->session_cgroup)
    return;

  r = ttg_placer_move_back (m->placer, scope, g->session_cgroup, g->cgroup);
  if (r < 0)
    {
      ttg_log_warn ("group", "Could not move all processes of %s back into %s (%s); they stay in %s, alive",
                    g->unit, scope, g_strerror (-r), g->unit);
      return;
    }
  ttg_log_info ("group", "Dissolved %s (pts/%u of session %s): %d process(es) back in %s, because %s",
                g->unit, g->pts, g->session_id, r, scope, why);
  g->state = GROUP_DISSOLVED;
}

/* Processes of the kernel session led by g->leader still where it was found. */
static GArray *
find_stragglers (const Group *g)
{
  g_autoptr(GArray) procs = ttg_cgroup_read_procs (g->source_cgroup);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (pid_t));

  for (guint i = 0; procs && i < procs->len; i++)
    {
      pid_t pid = g_array_index (procs, pid_t, i);
      TtgProcStat st;

      if (read_stat (pid, &st) && st.session == g->leader)
        g_array_append_val (out, pid);
    }
  return out;
}

/* Stragglers are found by their kernel session id, which is the leader's
 * pid. Once that leader is gone, its pid may belong to another process,
 * even the leader of a new terminal (setsid() gives it a session id of the
 * same value): only a group whose leader is still inside it is swept. */
static gboolean
leader_is_in_group (const Group *g)
{
  char path[64];
  g_autofree char *text = NULL;
  g_autofree char *cgroup = NULL;

  g_snprintf (path, sizeof path, "/proc/%d/cgroup", (int) g->leader);
  text = ttg_read_file (path, NULL);
  cgroup = text ? ttg_cgroup_v2_path_parse (text) : NULL;
  return cgroup && g->cgroup && g_str_equal (cgroup, g->cgroup);
}

static void
sweep_group (TtgManager *m, Group *g)
{
  /* Children forked between reading the pid list and systemd moving it. */
  for (int round = 0; round < 5; round++)
    {
      g_autoptr(GArray) late = find_stragglers (g);

      if (late->len == 0)
        return;
      ttg_log_debug ("group", "Moving %u late process(es) of pts/%u into %s", late->len, g->pts, g->unit);
      /* Only systemd moves processes into a scope it manages: the group is
       * delegated, so AttachProcessesToUnit is allowed. Where even that
       * fails (the process exited, the unit is stopping), a write of
       * cgroup.procs would fail or go behind systemd's back: the process
       * stays alive in its session scope, and the next rescan retries. */
      if (ttg_placer_attach (m->placer, g->unit, (pid_t *) late->data, late->len) < 0)
        return;
    }
}

/* ---- per-user limits -------------------------------------------------- */

static UserBudget *
user_budget (TtgManager *m, uid_t uid)
{
  UserBudget *ub = g_hash_table_lookup (m->budgets, GUINT_TO_POINTER (uid));

  if (!ub)
    {
      ub = g_new0 (UserBudget, 1);
      ub->waiting = g_array_new (FALSE, FALSE, sizeof (pid_t));
      g_hash_table_insert (m->budgets, GUINT_TO_POINTER (uid), ub);
    }
  return ub;
}

/* Terminal groups of a user that exist in PID 1 or are on their way. */
static guint
count_live_groups (TtgManager *m, uid_t uid)
{
  GHashTableIter it;
  Group *g;
  guint n = 0;

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state != GROUP_DISSOLVED && g->uid == uid)
      n++;
  return n;
}

static gboolean
waiting_remove (UserBudget *ub, pid_t pid)
{
  for (guint i = 0; i < ub->waiting->len; i++)
    if (g_array_index (ub->waiting, pid_t, i) == pid)
      {
        g_array_remove_index_fast (ub->waiting, i);
        return TRUE;
      }
  return FALSE;
}

static void
waiting_add (UserBudget *ub, pid_t pid)
{
  for (guint i = 0; i < ub->waiting->len; i++)
    if (g_array_index (ub->waiting, pid_t, i) == pid)
      return;
  if (ub->waiting->len >= WAITING_MAX)
    {
      ub->overflowed = TRUE;
      return;
    }
  g_array_append_val (ub->waiting, pid);
}

static int on_retry (sd_event_source *s, uint64_t usec, void *user_data);

/* Arms the one-shot timer *source to fire in delay_usec, unless it is
 * already due sooner. */
static void
schedule_timer (TtgManager *m, sd_event_source **source, guint64 delay_usec,
                sd_event_time_handler_t handler)
{
  uint64_t now, when = 0;
  int enabled = SD_EVENT_OFF;

  if (sd_event_now (m->event, CLOCK_MONOTONIC, &now) < 0)
    return;
  if (!*source)
    {
      (void) sd_event_add_time (m->event, source, CLOCK_MONOTONIC, now + delay_usec, 0, handler, m);
      return;
    }
  (void) sd_event_source_get_enabled (*source, &enabled);
  (void) sd_event_source_get_time (*source, &when);
  if (enabled != SD_EVENT_OFF && when <= now + delay_usec)
    return;
  (void) sd_event_source_set_time (*source, now + delay_usec);
  (void) sd_event_source_set_enabled (*source, SD_EVENT_ONESHOT);
}

static void
schedule_retry (TtgManager *m, guint64 delay_usec)
{
  schedule_timer (m, &m->retry, delay_usec, on_retry);
}

/* May this terminal get a group of its own, by its user's limits? If not,
 * it stays where it is (the session scope), the journal says so once, and
 * it is tried again when the user's budget allows. */
static gboolean
admit_terminal (TtgManager *m, const TtgSession *s, const TtgProcStat *st)
{
  UserBudget *ub = user_budget (m, s->uid);
  gint64 now = now_usec ();
  TtgAdmit verdict = ttg_budget_admit (&ub->budget, &m->limits, count_live_groups (m, s->uid), now);

  if (verdict == TTG_ADMIT_YES)
    {
      (void) waiting_remove (ub, st->pid);
      return TRUE;
    }
  if (ttg_budget_tell_once (&ub->budget, verdict))
    {
      g_autofree char *why = ttg_admit_explain (verdict, &m->limits);

      ttg_log_warn ("limit", "Leaving %s (%d, pts) in session-%s.scope, and further new terminals of user %u for now: %s. "
                    "They get their groups when the limit allows; said once until then",
                    st->comm, (int) st->pid, s->id, (unsigned) s->uid, why);
    }
  waiting_add (ub, st->pid);
  if (verdict == TTG_ADMIT_TOO_FAST)
    schedule_retry (m, (guint64) MAX (ttg_budget_usec_to_next (&ub->budget, &m->limits, now), 1000));
  return FALSE;
}

static void consider_process (TtgManager *m, pid_t pid, gboolean may_refresh);

static void
retry_waiting (TtgManager *m, UserBudget *ub)
{
  g_autoptr(GArray) pids = ub->waiting;

  ub->waiting = g_array_new (FALSE, FALSE, sizeof (pid_t));
  for (guint i = 0; i < pids->len; i++)
    consider_process (m, g_array_index (pids, pid_t, i), FALSE);
  if (ub->waiting->len > 0)
    return;
  if (ub->overflowed)
    {
      /* Everything remembered got through: look for the rest once. */
      ub->overflowed = FALSE;
      schedule_rescan (m, 0);
      return;
    }
  ttg_budget_all_clear (&ub->budget);
}

static int
on_retry (sd_event_source *source, uint64_t usec, void *user_data)
{
  TtgManager *m = user_data;
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();
  GHashTableIter it;
  UserBudget *ub;

  /* consider_process() may add budgets (never remove them): iterate a copy. */
  g_hash_table_iter_init (&it, m->budgets);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &ub))
    if (ub->waiting->len > 0 || ub->overflowed)
      g_ptr_array_add (todo, ub);
  for (guint i = 0; i < todo->len; i++)
    retry_waiting (m, todo->pdata[i]);
  return 0;
}

/* "" when the terminal led by leader is not held back by a limit. */
static char *
limit_hold_text (TtgManager *m, const TtgSession *s, pid_t leader)
{
  UserBudget *ub = s ? g_hash_table_lookup (m->budgets, GUINT_TO_POINTER (s->uid)) : NULL;
  gboolean waiting = FALSE;

  if (!ub)
    return NULL;
  for (guint i = 0; i < ub->waiting->len; i++)
    if (g_array_index (ub->waiting, pid_t, i) == leader)
      waiting = TRUE;
  if (count_live_groups (m, s->uid) >= m->limits.max_groups)
    return ttg_admit_explain (TTG_ADMIT_OVER_CAP, &m->limits);
  if (waiting)
    return ttg_admit_explain (TTG_ADMIT_TOO_FAST, &m->limits);
  return NULL;
}

static void
start_group (TtgManager *m, const TtgSession *s, const TtgProcStat *st, guint pts,
             const char *source_cgroup, const char *rule)
{
  g_autofree char *unit = ttg_pty_unit_name (s->id, st->pid);
  g_autofree char *description = NULL;
  g_autofree char *slice = NULL;
  g_autofree char *scope = NULL;
  g_autoptr(GArray) pids = NULL;
  Group *g;
  int r;

  if (!unit)
    return;
  g = g_hash_table_lookup (m->groups, unit);
  if (g && g->state != GROUP_DISSOLVED)
    return; /* starting or placed already */
  if (g)
    {
      /* Dissolved earlier and grouped again before systemd collected the
       * old scope: forget it now (its processes are back in the session
       * scope); if the unit still exists, the start below is refused with
       * UnitExists and retried once it is gone. */
      ttg_log_debug ("group", "%s was dissolved and is wanted again", unit);
      g_hash_table_remove (m->groups, unit);
    }
  if (!admit_terminal (m, s, st))
    return;

  g = g_new0 (Group, 1);
  g->unit = g_strdup (unit);
  g->session_id = g_strdup (s->id);
  g->uid = s->uid;
  g->leader = st->pid;
  g->pts = pts;
  g->comm = g_strdup (st->comm);
  g->rule = g_strdup (rule);
  g->source_cgroup = g_strdup (source_cgroup);
  {
    g_autofree char *scope_name = ttg_session_scope_name (s->id);
    g->session_cgroup = session_scope_cgroup_sibling (source_cgroup, scope_name);
  }
  g->cgroup = session_scope_cgroup_sibling (source_cgroup, unit);
  g->weight = ttg_model_terminal_weight (session_policy (m, s), s);
  g->state = GROUP_STARTING;
  g->started_usec = now_usec ();
  g_hash_table_insert (m->groups, g->unit, g);

  pids = find_stragglers (g);
  if (pids->len == 0)
    {
      g_hash_table_remove (m->groups, unit);
      return; /* gone already */
    }

  description = ttg_pty_unit_description (pts, s->id, st->comm);
  slice = g_strdup_printf ("user-%u.slice", (unsigned) s->uid);
  scope = ttg_session_scope_name (s->id);
  r = ttg_placer_start_scope (m->placer, unit, description, slice, scope, g->weight,
                              (pid_t *) pids->data, pids->len);
  if (r < 0)
    {
      ttg_log_err ("group", "Failed to ask systemd for %s: %s", unit, g_strerror (-r));
      g_hash_table_remove (m->groups, unit);
    }
}

/* A start that did not happen leaves the terminal's processes where they
 * are, alive. A rescan tries again, later each time (0.5 s, 1 s, ... 10 s),
 * so that a lasting refusal costs systemd one call every 10 s at most. */
static void
retry_start_later (TtgManager *m, const char *unit)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (m->start_failures, unit)) + 1;
  guint64 delay = MIN ((guint64) 500 * 1000 << MIN (n - 1, 5), 10 * G_USEC_PER_SEC);

  g_hash_table_insert (m->start_failures, g_strdup (unit), GUINT_TO_POINTER (n));
  schedule_rescan (m, delay);
}

static void
forget_failures_of_gone_leaders (TtgManager *m)
{
  GHashTableIter it;
  const char *unit;

  g_hash_table_iter_init (&it, m->start_failures);
  while (g_hash_table_iter_next (&it, (gpointer *) &unit, NULL))
    {
      g_autofree char *session_id = NULL;
      pid_t leader;

      if (!ttg_pty_unit_name_parse (unit, &session_id, &leader) ||
          (kill (leader, 0) < 0 && errno == ESRCH))
        g_hash_table_iter_remove (&it);
    }
}

static void
on_scope_started (const char *unit, const char *result, const sd_bus_error *error, gpointer user_data)
{
  TtgManager *m = user_data;
  Group *g = g_hash_table_lookup (m->groups, unit);

  if (!g)
    return;

  if (g_str_equal (result, "done"))
    {
      g->state = GROUP_ACTIVE;
      m->placements++;
      g_hash_table_remove (m->start_failures, unit);
      sweep_group (m, g);
      /* The terminal may have closed while its scope started: its exit was
       * then handled while the group was not active yet, and the leader can
       * still be a zombie that kill() finds. Looked at once it had time to
       * run empty (seen under a flood, with a slow ttygroupd: scopes left
       * running empty for good). */
      schedule_collect (m);
      ttg_log_info ("group", "Terminal pts/%u of session %s (%s, leader %d) placed in %s, CPUWeight=%" G_GUINT64_FORMAT ", %.1f ms after it was seen, because %s",
                    g->pts, g->session_id, g->comm, (int) g->leader, g->unit, g->weight,
                    (now_usec () - g->started_usec) / 1000.0, g->rule ? g->rule : "it was grouped before");
      notify_status (m);
      if (m->listener.group_added)
        {
          g_autofree char *tty = g_strdup_printf ("pts/%u", g->pts);
          m->listener.group_added (g->unit, g->session_id, tty, m->listener_data);
        }
      return;
    }

  if (error && sd_bus_error_has_name (error, "org.freedesktop.systemd1.UnitExists"))
    {
      /* A dissolved group of the same leader is still being collected; the
       * processes are back in the session scope, so try again shortly. Or
       * systemd started it after an earlier call timed out: looked for. */
      ttg_log_debug ("group", "%s still exists, retrying later", unit);
      g_hash_table_remove (m->groups, unit);
      schedule_orphan_check (m);
      retry_start_later (m, unit);
      return;
    }

  if (error && (sd_bus_error_has_name (error, SD_BUS_ERROR_NO_REPLY) ||
                sd_bus_error_has_name (error, SD_BUS_ERROR_TIMEOUT)))
    /* PID 1 is slow, not refusing: it may start the scope after all, and
     * would then keep it running (empty, once the terminal is gone) with
     * nobody here to know it. */
    schedule_orphan_check (m);

  if (error && sd_bus_error_has_name (error, "org.freedesktop.DBus.Error.UnixProcessIdUnknown"))
    {
      g_hash_table_remove (m->groups, unit);
      schedule_rescan (m, 0);
      return;
    }

  /* Refused, or the job failed (a dependency, an assertion, a process that
   * could not be moved): said once, then retried ever more rarely. */
  if (!g_hash_table_contains (m->start_failures, unit))
    ttg_log_warn ("group", "systemd did not start %s (%s%s%s); its processes stay in session %s, "
                  "trying again later", unit, result, error ? ": " : "",
                  error ? (error->message ?: error->name) : "", g->session_id);
  else
    ttg_log_debug ("group", "systemd did not start %s again (%s)", unit, result);
  g_hash_table_remove (m->groups, unit);
  retry_start_later (m, unit);
}

static void
forget_group (TtgManager *m, const char *unit)
{
  g_autofree char *name = g_strdup (unit);
  Group *g = g_hash_table_lookup (m->groups, name);

  if (!g)
    return;
  ttg_log_debug ("group", "%s is gone (%s)", name, group_state_to_string (g->state));
  {
    UserBudget *ub = g_hash_table_lookup (m->budgets, GUINT_TO_POINTER (g->uid));

    /* A place under the user's cap is free: a held-back terminal may have it. */
    if (ub && (ub->waiting->len > 0 || ub->overflowed))
      schedule_retry (m, 0);
  }
  g_hash_table_remove (m->groups, name);
  notify_status (m);
  if (m->listener.group_removed)
    m->listener.group_removed (name, m->listener_data);
}

/* Is unit still there? 1 yes, 0 no, -1 systemd cannot tell now. */
static int
unit_still_active (TtgManager *m, const char *unit)
{
  Group *g = g_hash_table_lookup (m->groups, unit);
  g_autoptr(GPtrArray) units = NULL;

  /* An active scope has its cgroup, and systemd removes it when the scope
   * stops, before it forgets the unit: without it, the answer needs no
   * call to PID 1, which the loop would wait for (and with it the exec of
   * the next terminal, seen right after the last one closed). */
  if (g && g->cgroup && ttg_cgroup_is_populated (g->cgroup) == -ENOENT)
    return 0;
  units = ttg_placer_list_units (m->placer, unit, NULL);
  return !units ? -1 : units->len > 0;
}

static void
on_unit_removed (const char *unit, gpointer user_data)
{
  TtgManager *m = user_data;
  Group *g = g_hash_table_lookup (m->groups, unit);

  if (!g || g->state == GROUP_STARTING)
    return;
  if (g->state == GROUP_ACTIVE)
    {
      /* systemd re-executing (daemon-reexec) sends UnitRemoved for every
       * unit, and brings them all back: forget a group only once systemd
       * no longer lists it, asking again later if it cannot answer now. */
      int r = unit_still_active (m, unit);

      if (r > 0)
        return;
      if (r < 0)
        {
          g_hash_table_add (m->maybe_removed, g_strdup (unit));
          schedule_rescan (m, G_USEC_PER_SEC);
          return;
        }
    }
  forget_group (m, unit);
}

static void
confirm_removed_units (TtgManager *m)
{
  GHashTableIter it;
  const char *unit;

  g_hash_table_iter_init (&it, m->maybe_removed);
  while (g_hash_table_iter_next (&it, (gpointer *) &unit, NULL))
    {
      int r = unit_still_active (m, unit);

      if (r < 0)
        {
          schedule_rescan (m, G_USEC_PER_SEC);
          continue;
        }
      if (r == 0)
        forget_group (m, unit);
      g_hash_table_iter_remove (&it);
    }
}

/* ---- groups that ran empty unnoticed ---------------------------------- */

/* systemd 252 can miss that a scope ran empty when its processes exit while
 * it is being started (a terminal closed at once, seen under a flood of
 * short-lived terminals): the scope then stays "active (running)" with an
 * empty cgroup for good, and would hold a place under its user's cap. A
 * group whose leader is gone is looked at this long afterwards (systemd
 * collects an empty scope well within it) and stopped if still empty. */
#define COLLECT_DELAY_USEC (5 * G_USEC_PER_SEC)

static int on_collect (sd_event_source *s, uint64_t usec, void *user_data);

static void
schedule_collect (TtgManager *m)
{
  schedule_timer (m, &m->collect, COLLECT_DELAY_USEC, on_collect);
}

static void
collect_empty_groups (TtgManager *m)
{
  GHashTableIter it;
  Group *g;
  gboolean freed = FALSE;

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    {
      int r;

      if (g->state != GROUP_ACTIVE || !g->cgroup)
        continue;
      r = ttg_placer_stop_if_empty (m->placer, g->unit, g->cgroup);
      if (r == 0)
        continue;
      if (r < 0)
        {
          ttg_log_debug ("group", "Cannot tell whether %s is empty: %s", g->unit, g_strerror (-r));
          continue;
        }
      ttg_log_info ("group", "%s (pts/%u of session %s) has had no process for %d s but systemd "
                    "still has it running: stopping it (nothing in it to stop)",
                    g->unit, g->pts, g->session_id, (int) (COLLECT_DELAY_USEC / G_USEC_PER_SEC));
      g->state = GROUP_DISSOLVED;
      freed = TRUE;
    }
  if (freed)
    {
      notify_status (m);
      schedule_retry (m, 0); /* places under a cap are free */
    }
}

static int
on_collect (sd_event_source *s, uint64_t usec, void *user_data)
{
  collect_empty_groups (user_data);
  return 0;
}

/* ---- scopes started after their call timed out ------------------------ */

/* A StartTransientUnit that timed out (PID 1 under load) may still be
 * carried out. This long after, the pty scopes systemd has running that
 * this service does not know are taken over as groups (and stopped by the
 * collection when they are empty). */
#define ORPHAN_CHECK_DELAY_USEC (10 * G_USEC_PER_SEC)

static int
on_orphan_check (sd_event_source *s, uint64_t usec, void *user_data)
{
  TtgManager *m = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) units = ttg_placer_list_units (m->placer, "ttygroup-pty-*.scope", &error);
  gboolean adopted = FALSE;

  if (!units)
    {
      ttg_log_debug ("group", "Cannot look for scopes started after a timeout: %s", error->message);
      return 0;
    }
  for (guint i = 0; i < units->len; i++)
    if (!g_hash_table_contains (m->groups, units->pdata[i]) &&
        adopt_group (m, units->pdata[i], TRUE, "systemd started it after the call had timed out"))
      adopted = TRUE;
  if (adopted)
    {
      notify_status (m);
      schedule_collect (m);
    }
  return 0;
}

static void
schedule_orphan_check (TtgManager *m)
{
  schedule_timer (m, &m->orphans, ORPHAN_CHECK_DELAY_USEC, on_orphan_check);
}

/* Is pid the leader of a group this service has or is starting? */
static gboolean
leads_a_group (TtgManager *m, pid_t pid)
{
  GHashTableIter it;
  Group *g;

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->leader == pid && g->state != GROUP_DISSOLVED)
      return TRUE;
  return FALSE;
}

/* Looks at one process: does it lead a pty that needs a group? */
static void
consider_process (TtgManager *m, pid_t pid, gboolean may_refresh)
{
  char path[64];
  g_autofree char *cg_text = NULL;
  g_autofree char *cgroup = NULL;
  g_autofree char *session_id = NULL;
  TtgProcStat st;
  TtgSession *s;
  guint pts;

  if (!read_stat (pid, &st))
    return;
  /* The common case, cheaply: not a session leader on a pty. */
  if (st.session != pid || !ttg_tty_nr_is_pts (st.tty_nr, &pts))
    return;

  g_snprintf (path, sizeof path, "/proc/%d/cgroup", (int) pid);
  cg_text = ttg_read_file (path, NULL);
  cgroup = cg_text ? ttg_cgroup_v2_path_parse (cg_text) : NULL;
  if (!cgroup)
    return;
  session_id = ttg_cgroup_path_session_id (cgroup);
  if (!session_id)
    {
      /* A terminal opened from a grouped terminal (tmux started there, a
       * nested script) belongs to the same logind session. */
      g_autofree char *unit = ttg_cgroup_path_unit (cgroup);
      pid_t from_leader;

      if (!unit || !ttg_pty_unit_name_parse (unit, &session_id, &from_leader))
        return; /* not in a session: a fresh login may still be on its way */
      if (from_leader == pid)
        {
          /* It is that group's own leader: a group of this run, or one an
           * earlier run started just before it ended (adopted now); else
           * its processes are in the cgroup of a scope whose job failed
           * after some of them moved, and starting it again gives that
           * cgroup back to systemd. */
          if (g_hash_table_contains (m->groups, unit) || adopt_group (m, unit, TRUE, "from an earlier run"))
            return;
        }
    }

  s = g_hash_table_lookup (m->sessions, session_id);
  if (!s && may_refresh)
    {
      /* A login faster than the logind monitor's settle time. */
      refresh_sessions (m);
      apply_session_weights (m);
      s = g_hash_table_lookup (m->sessions, session_id);
    }

  if (!ttg_model_process_starts_group (session_policy (m, s), &st, TRUE, s, &pts))
    return;
  {
    TtgProcStat parent;
    gboolean have_parent = read_stat (st.ppid, &parent);
    TtgPtyRole role = ttg_model_pty_role (s, &st, pts, have_parent ? &parent : NULL);
    g_autofree char *rule = ttg_pty_role_explain (role, s, pts);

    if (ttg_pty_role_is_login (role))
      {
        /* The login's own terminal is the session itself. Said once per
         * terminal, when it appears, not on every rescan. */
        if (may_refresh)
          ttg_log_info ("group", "Leaving %s (%d) in session-%s.scope: %s", st.comm, (int) pid, s->id, rule);
        return;
      }
    start_group (m, s, &st, pts, cgroup, rule);
  }
}

static void
rescan_all (TtgManager *m)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  GHashTableIter it;
  Group *g;

  if (!dir)
    return;
  forget_failures_of_gone_leaders (m);
  confirm_removed_units (m);
  while ((name = g_dir_read_name (dir)))
    {
      guint64 pid;

      if (!g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT32, &pid, NULL))
        continue;
      consider_process (m, (pid_t) pid, FALSE);
    }

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state == GROUP_ACTIVE && leader_is_in_group (g))
      sweep_group (m, g);
  /* exits may have been lost with the events */
  schedule_collect (m);
}

static int
on_rescan (sd_event_source *s, uint64_t usec, void *user_data)
{
  TtgManager *m = user_data;

  rescan_all (m);
  return 0;
}

static void
schedule_rescan (TtgManager *m, guint64 delay_usec)
{
  schedule_timer (m, &m->rescan, delay_usec, on_rescan);
}

/* Brings every group in line with the sessions and the policy. */
static void
reconcile (TtgManager *m)
{
  GHashTableIter it;
  Group *g;
  gboolean any_split = FALSE;
  TtgSession *s;

  apply_session_weights (m);

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    {
      s = g_hash_table_lookup (m->sessions, g->session_id);

      if (s && g->uid == (uid_t) -1)
        g->uid = s->uid; /* adopted from an earlier run: counts toward its user's cap */
      if (g->state == GROUP_DISSOLVED)
        continue;
      if (!s || !ttg_model_session_splits_terminals (session_policy (m, s), s))
        {
          const TtgPolicy *p = session_policy (m, s);
          const char *why = !m->policy.enabled ? "grouping is disabled"
                            : !p->enabled ? "its user turned grouping off (SetUserPolicy)"
                            : !m->policy.group_terminals ? "terminal grouping is disabled"
                            : !p->group_terminals ? "its user turned terminal grouping off (SetUserPolicy)"
                            : !s ? "its session is gone"
                            : !s->is_display ? "its session is no longer the user's display session"
                            : "its session no longer splits terminals";
          if (g->state == GROUP_ACTIVE)
            dissolve_group (m, g, why);
          continue;
        }
      if (g->state == GROUP_ACTIVE)
        {
          guint64 want = ttg_model_terminal_weight (session_policy (m, s), s);
          if (want != g->weight)
            {
              ttg_log_info ("group", "%s: CPUWeight=%" G_GUINT64_FORMAT, g->unit, want);
              ttg_placer_set_weight (m->placer, g->unit, want);
              g->weight = want;
              if (m->listener.group_changed)
                m->listener.group_changed (g->unit, want, m->listener_data);
            }
        }
    }

  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    if (ttg_model_session_splits_terminals (session_policy (m, s), s))
      any_split = TRUE;
  if (any_split)
    schedule_rescan (m, 0);
  notify_status (m);
}

static void
on_logind_changed (gpointer user_data)
{
  TtgManager *m = user_data;

  if (refresh_sessions (m))
    reconcile (m);
}

static void
on_proc_event (const TtgProcEvent *ev, gpointer user_data)
{
  TtgManager *m = user_data;

  switch (ev->kind)
    {
    case TTG_PROC_EVENT_EXEC:
    case TTG_PROC_EVENT_SID:
      /* setsid() comes before the pty becomes the controlling terminal;
       * the exec that follows is when a terminal's shell is complete. */
      if (m->policy.enabled && m->policy.group_terminals)
        consider_process (m, ev->pid, TRUE);
      break;
    case TTG_PROC_EVENT_EXIT:
      /* Empty scopes are collected by systemd, nearly always. */
      if (leads_a_group (m, ev->pid))
        schedule_collect (m);
      break;
    case TTG_PROC_EVENT_FORK:
      /* Children inherit their parent's cgroup; late ones are swept when
       * the scope job finishes. */
      break;
    }
}

static void
on_proc_lost (gpointer user_data)
{
  schedule_rescan (user_data, 0);
}

/* Takes over unit, an active pty scope this service started (in this run
 * or an earlier one). FALSE if it is not active or not such a scope. */
static gboolean
adopt_group (TtgManager *m, const char *unit, gboolean check_active, const char *why)
{
  g_autofree char *session_id = NULL;
  g_autofree char *cgroup = NULL;
  pid_t leader;
  Group *g;

  if (!ttg_pty_unit_name_parse (unit, &session_id, &leader))
    return FALSE;
  if (check_active)
    {
      g_autoptr(GPtrArray) units = ttg_placer_list_units (m->placer, unit, NULL);

      if (!units || units->len == 0)
        return FALSE;
    }
  cgroup = ttg_placer_get_control_group (m->placer, unit);
  if (!cgroup)
    return FALSE;

  g = g_new0 (Group, 1);
  g->unit = g_strdup (unit);
  g->session_id = g_steal_pointer (&session_id);
  g->uid = (uid_t) -1; /* at start-up, sessions are read after this: see refresh_group_uids() */
  g->leader = leader;
  g->cgroup = g_steal_pointer (&cgroup);
  {
    g_autofree char *scope = ttg_session_scope_name (g->session_id);
    g->session_cgroup = session_scope_cgroup_sibling (g->cgroup, scope);
  }
  g->source_cgroup = g_strdup (g->session_cgroup);
  {
    TtgProcStat st;

    if (read_stat (leader, &st))
      {
        g->comm = g_strdup (st.comm);
        (void) ttg_tty_nr_is_pts (st.tty_nr, &g->pts);
      }
  }
  g->weight = 0; /* unknown: reconcile sets it */
  g->state = GROUP_ACTIVE;
  g_hash_table_insert (m->groups, g->unit, g);
  ttg_log_info ("group", "Adopted %s (%s)", unit, why);
  if (check_active)
    {
      /* adopted after the start-up reconcile: its weight now */
      TtgSession *s = g_hash_table_lookup (m->sessions, g->session_id);

      if (s)
        {
          g->uid = s->uid;
          g->weight = ttg_model_terminal_weight (session_policy (m, s), s);
          ttg_placer_set_weight (m->placer, g->unit, g->weight);
        }
    }
  return TRUE;
}

static void
adopt_groups (TtgManager *m)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) units = ttg_placer_list_units (m->placer, "ttygroup-pty-*.scope", &error);

  if (!units)
    {
      ttg_log_warn ("group", "Cannot look for groups of an earlier run: %s", error->message);
      return;
    }

  for (guint i = 0; i < units->len; i++)
    (void) adopt_group (m, units->pdata[i], FALSE, "from an earlier run");
}

static void
check_cpu (TtgManager *m)
{
  g_autofree char *controllers = ttg_read_file (TTG_CGROUP_ROOT "/cgroup.controllers", NULL);
  g_autofree char *scx = ttg_read_file ("/sys/kernel/sched_ext/state", NULL);

  m->cpu_usable = ttg_cpu_weights_usable (controllers, scx, &m->cpu_why);
  if (!m->cpu_usable)
    ttg_log_warn ("cpu", "CPU weights will have no effect: %s. Grouping goes on, so the groups are ready when this is fixed.",
                  m->cpu_why);
}

TtgManager *
ttg_manager_new (sd_event *event, sd_bus *bus, const TtgPolicy *policy, GError **error)
{
  g_autoptr(TtgManager) m = g_new0 (TtgManager, 1);

  m->event = sd_event_ref (event);
  m->bus = sd_bus_ref (bus);
  m->policy = *policy;
  m->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ttg_session_free);
  m->session_weights = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  m->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) group_free);
  m->start_failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m->maybe_removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  m->users = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  m->budgets = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) user_budget_free);
  ttg_limits_init_default (&m->limits);

  m->placer = ttg_placer_new (bus, on_scope_started, on_unit_removed, m, error);
  if (!m->placer)
    return NULL;

  return g_steal_pointer (&m);
}

gboolean
ttg_manager_start (TtgManager *m, GError **error)
{
  g_autofree char *policy_text = ttg_policy_to_string (&m->policy);

  check_cpu (m);
  ttg_log_info ("policy", "Policy: %s", policy_text);

  adopt_groups (m);

  m->logind = ttg_logind_new (m->event, m->bus, on_logind_changed, m, error);
  if (!m->logind)
    return FALSE;

  /* Subscribe before the first scan so no process slips between the two. */
  m->procmon = ttg_procmon_new (m->event, on_proc_event, on_proc_lost, m, error);
  if (!m->procmon)
    return FALSE;

  if (!refresh_sessions (m))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "Cannot read logind's sessions");
      return FALSE;
    }
  reconcile (m);
  rescan_all (m);
  return TRUE;
}

void
ttg_manager_free (TtgManager *m)
{
  if (!m)
    return;
  sd_event_source_disable_unref (m->rescan);
  sd_event_source_disable_unref (m->retry);
  sd_event_source_disable_unref (m->collect);
  sd_event_source_disable_unref (m->orphans);
  g_clear_pointer (&m->procmon, ttg_procmon_free);
  g_clear_pointer (&m->logind, ttg_logind_free);
  g_clear_pointer (&m->placer, ttg_placer_free);
  g_clear_pointer (&m->groups, g_hash_table_unref);
  g_clear_pointer (&m->start_failures, g_hash_table_unref);
  g_clear_pointer (&m->maybe_removed, g_hash_table_unref);
  g_clear_pointer (&m->users, g_hash_table_unref);
  g_clear_pointer (&m->budgets, g_hash_table_unref);
  g_clear_pointer (&m->session_weights, g_hash_table_unref);
  g_clear_pointer (&m->sessions, g_hash_table_unref);
  sd_bus_unref (m->bus);
  sd_event_unref (m->event);
  g_free (m);
}

void
ttg_manager_set_policy (TtgManager *m, const TtgPolicy *policy)
{
  g_autofree char *text = ttg_policy_to_string (policy);

  if (ttg_policy_equal (&m->policy, policy))
    {
      ttg_log_info ("policy", "Policy unchanged: %s", text);
      return;
    }
  m->policy = *policy;
  recompute_user_policies (m);
  ttg_log_info ("policy", "New policy: %s", text);
  reconcile (m);
}

void
ttg_manager_set_limits (TtgManager *m, const TtgLimits *limits)
{
  g_autofree char *text = ttg_limits_to_string (limits);

  if (m->limits.max_groups == limits->max_groups && m->limits.burst == limits->burst
      && m->limits.per_minute == limits->per_minute)
    return;
  m->limits = *limits;
  ttg_log_info ("limit", "Limits on terminal groups per user: %s", text);
  if (m->event && g_hash_table_size (m->budgets) > 0)
    schedule_retry (m, 0);
}

const TtgPolicy *
ttg_manager_get_policy (TtgManager *m)
{
  return &m->policy;
}

gboolean
ttg_manager_cpu_usable (TtgManager *m, const char **why)
{
  if (why)
    *why = m->cpu_why;
  return m->cpu_usable;
}

char *
ttg_manager_status_line (TtgManager *m)
{
  if (!m->cpu_usable)
    return g_strdup_printf ("CPU weights unusable: %s", m->cpu_why);
  if (!m->policy.enabled)
    return g_strdup ("Grouping disabled by policy");
  return g_strdup_printf ("%u session(s), %u terminal group(s), %" G_GUINT64_FORMAT " placement(s), %" G_GUINT64_FORMAT " process event(s)",
                          ttg_manager_count_sessions (m), ttg_manager_count_groups (m), m->placements,
                          m->procmon ? ttg_procmon_get_event_count (m->procmon) : 0);
}

void
ttg_manager_set_listener (TtgManager *m, const TtgManagerListener *listener, gpointer user_data)
{
  m->listener = *listener;
  m->listener_data = user_data;
}

void
ttg_group_info_free (TtgGroupInfo *info)
{
  if (!info)
    return;
  g_free (info->unit);
  g_free (info->session_id);
  g_free (info->tty);
  g_free (info->description);
  g_free (info);
}

GPtrArray *
ttg_manager_list_groups (TtgManager *m)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttg_group_info_free);
  g_autoptr(GList) ids = g_hash_table_get_keys (m->sessions);
  g_autoptr(GList) units = g_hash_table_get_keys (m->groups);

  ids = g_list_sort (ids, (GCompareFunc) g_strcmp0);
  for (GList *l = ids; l; l = l->next)
    {
      TtgSession *s = g_hash_table_lookup (m->sessions, l->data);
      TtgGroupInfo *info = g_new0 (TtgGroupInfo, 1);
      guint64 w = ttg_model_session_weight (session_policy (m, s), s);

      info->unit = ttg_session_scope_name (s->id);
      info->session_id = g_strdup (s->id);
      info->uid = s->uid;
      info->kind = "session";
      info->tty = g_strdup (s->tty ? s->tty : "");
      info->weight = w == TTG_WEIGHT_UNSET ? 0 : w;
      info->description = g_strdup_printf ("Session %s of uid %u: %s", s->id, (unsigned) s->uid,
                                           ttg_model_session_weight_reason (session_policy (m, s), s));
      g_ptr_array_add (out, info);
    }

  units = g_list_sort (units, (GCompareFunc) g_strcmp0);
  for (GList *l = units; l; l = l->next)
    {
      Group *g = g_hash_table_lookup (m->groups, l->data);
      TtgSession *s = g_hash_table_lookup (m->sessions, g->session_id);
      TtgGroupInfo *info;

      if (g->state != GROUP_ACTIVE)
        continue;
      info = g_new0 (TtgGroupInfo, 1);
      info->unit = g_strdup (g->unit);
      info->session_id = g_strdup (g->session_id);
      info->uid = s ? s->uid : (uid_t) -1;
      info->kind = "terminal";
      info->tty = g_strdup_printf ("pts/%u", g->pts);
      info->leader = g->leader;
      info->weight = g->weight == TTG_WEIGHT_UNSET ? 0 : g->weight;
      info->description = ttg_pty_unit_description (g->pts, g->session_id, g->comm);
      g_ptr_array_add (out, info);
    }
  return out;
}

void
ttg_pid_info_clear (TtgPidInfo *info)
{
  g_clear_pointer (&info->unit, g_free);
  g_clear_pointer (&info->cgroup, g_free);
  g_clear_pointer (&info->session_id, g_free);
  g_clear_pointer (&info->tty, g_free);
  g_clear_pointer (&info->rule, g_free);
}

/* The pty role of the kernel session led by leader, in words; NULL when the
 * leader is gone or not on a pty. */
static char *
explain_pty_role (TtgManager *m, const TtgSession *s, pid_t leader)
{
  TtgProcStat st, parent;
  guint pts;

  if (!s || leader <= 0 || !read_stat (leader, &st) || !ttg_tty_nr_is_pts (st.tty_nr, &pts))
    return NULL;
  return ttg_pty_role_explain (ttg_model_pty_role (s, &st, pts, read_stat (st.ppid, &parent) ? &parent : NULL),
                               s, pts);
}

gboolean
ttg_manager_explain_pid (TtgManager *m, pid_t pid, TtgPidInfo *out, GError **error)
{
  char path[64];
  g_autofree char *stat_text = NULL;
  g_autofree char *cg_text = NULL;
  g_autofree char *session_id = NULL;
  TtgProcStat st;
  TtgSession *s = NULL;
  guint pts = 0;
  gboolean has_pts;
  pid_t leader;

  memset (out, 0, sizeof *out);
  g_snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  stat_text = pid > 0 ? ttg_read_file (path, NULL) : NULL;
  g_snprintf (path, sizeof path, "/proc/%d/cgroup", (int) pid);
  cg_text = pid > 0 ? ttg_read_file (path, NULL) : NULL;
  if (!stat_text || !cg_text || !ttg_proc_stat_parse (stat_text, &st, NULL))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_NO_SUCH_PROCESS, "No process with pid %d", (int) pid);
      return FALSE;
    }

  has_pts = ttg_tty_nr_is_pts (st.tty_nr, &pts);
  out->cgroup = ttg_cgroup_v2_path_parse (cg_text);
  if (!out->cgroup)
    out->cgroup = g_strdup ("");
  out->unit = ttg_cgroup_path_unit (out->cgroup);
  if (!out->unit)
    out->unit = g_strdup ("");
  out->tty = has_pts ? g_strdup_printf ("pts/%u", pts) : g_strdup ("");

  if (ttg_pty_unit_name_parse (out->unit, &session_id, &leader))
    {
      Group *g = g_hash_table_lookup (m->groups, out->unit);

      g_autofree char *role_text = NULL;

      out->kind = "terminal";
      out->weight = g && g->weight != TTG_WEIGHT_UNSET ? g->weight : 0;
      if (g && g->rule)
        role_text = g_strdup (g->rule);
      else
        role_text = explain_pty_role (m, g_hash_table_lookup (m->sessions, session_id), leader);
      if (!role_text)
        role_text = g_strdup ("it is a terminal opened inside that session");
      out->rule = g_strdup_printf ("Its terminal (kernel session %d) has a group of its own in session %s, "
                                   "the user's display session, because %s", (int) leader, session_id, role_text);
      out->session_id = g_steal_pointer (&session_id);
      return TRUE;
    }

  session_id = ttg_cgroup_path_session_id (out->cgroup);
  if (!session_id)
    {
      out->kind = "none";
      out->session_id = g_strdup ("");
      out->rule = g_strdup ("It is not in a logind session (a system service or a user manager): "
                            "ttygroup does not place it");
      return TRUE;
    }

  s = g_hash_table_lookup (m->sessions, session_id);
  out->kind = "session";
  {
    guint64 w = s ? ttg_model_session_weight (session_policy (m, s), s) : TTG_WEIGHT_UNSET;
    out->weight = w == TTG_WEIGHT_UNSET ? 0 : w;
  }
  if (!session_policy (m, s)->enabled)
    out->rule = g_strdup (m->policy.enabled ? "Its user turned grouping off for their sessions (SetUserPolicy)"
                                            : "Grouping is disabled by the policy (Enabled=false)");
  else if (!s)
    out->rule = g_strdup_printf ("Session %s is not known to logind any more", session_id);
  else if (!has_pts)
    out->rule = g_strdup_printf ("It has no pty: it belongs to session %s as a whole (%s)", session_id,
                                 ttg_model_session_weight_reason (session_policy (m, s), s));
  else if (!ttg_model_session_splits_terminals (session_policy (m, s), s))
    out->rule = g_strdup_printf ("Session %s does not split its terminals (%s): it is grouped as a whole",
                                 session_id,
                                 !session_policy (m, s)->group_terminals ? "GroupTerminals=false"
                                 : !s->is_display ? "it is not the user's display session, and moving its processes out would change what polkit lets them do"
                                 : "not a user session");
  else
    {
      g_autofree char *role_text = explain_pty_role (m, s, st.session);
      g_autofree char *held = limit_hold_text (m, s, st.session);

      if (role_text && held)
        out->rule = g_strdup_printf ("pts/%u of session %s would have a group of its own, but stays in the session's scope for now: %s",
                                     pts, session_id, held);
      else if (role_text)
        out->rule = g_strdup_printf ("%c%s", g_ascii_toupper (role_text[0]), role_text + 1);
      else
        out->rule = g_strdup_printf ("pts/%u of session %s: its terminal's leader (%d) is gone",
                                     pts, session_id, (int) st.session);
    }
  out->session_id = g_steal_pointer (&session_id);
  return TRUE;
}

guint
ttg_manager_count_sessions (TtgManager *m)
{
  return g_hash_table_size (m->sessions);
}

guint
ttg_manager_count_groups (TtgManager *m)
{
  GHashTableIter it;
  Group *g;
  guint n = 0;

  g_hash_table_iter_init (&it, m->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state == GROUP_ACTIVE)
      n++;
  return n;
}

void
ttg_manager_set_user_policy (TtgManager *m, uid_t uid, const TtgUserPolicy *asked)
{
  UserEntry *e = g_hash_table_lookup (m->users, GUINT_TO_POINTER (uid));
  g_autofree char *text = NULL;

  if (!e)
    {
      e = g_new0 (UserEntry, 1);
      g_hash_table_insert (m->users, GUINT_TO_POINTER (uid), e);
    }
  e->asked = *asked;
  ttg_user_policy_apply (&e->asked, &m->policy, &e->effective);
  text = ttg_policy_to_string (&e->effective);
  ttg_log_info ("policy", "Policy for the sessions of uid %u: %s", (unsigned) uid, text);
  reconcile (m);
}

const TtgUserPolicy *
ttg_manager_get_user_policy (TtgManager *m, uid_t uid)
{
  UserEntry *e = g_hash_table_lookup (m->users, GUINT_TO_POINTER (uid));

  return e ? &e->asked : NULL;
}
