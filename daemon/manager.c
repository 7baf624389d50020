/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "manager.h"

#include <string.h>

#include <systemd/sd-daemon.h>

#include "budgets.h"
#include "cpuwatch.h"
#include "explain.h"
#include "groups.h"
#include "logind.h"
#include "model.h"
#include "placer.h"
#include "procfs.h"
#include "procmon.h"
#include "util.h"

struct TtgManager {
  sd_event *event;
  sd_bus *bus;
  TtgPolicy policy;

  GHashTable *sessions;        /* id -> TtgSession */
  GHashTable *verdicts;        /* id -> TtgVerdict: each session judged once per change */
  GHashTable *session_weights; /* id -> guint64* applied CPUWeight */
  GHashTable *users;           /* uid -> UserEntry: SetUserPolicy */

  TtgPlacer *placer;
  TtgGroups *groups;
  TtgBudgets *budgets;
  TtgLogind *logind;
  TtgProcmon *procmon;
  sd_event_source *rescan;
  sd_event_source *retry;

  TtgCpuWatch *cpuwatch;
  guint64 placements;
  guint64 placement_failures; /* starts systemd refused or failed */

  TtgManagerListener listener;
  gpointer listener_data;
};

typedef struct {
  TtgUserPolicy asked;
  TtgPolicy effective; /* the system policy narrowed by it */
} UserEntry;

static void schedule_rescan (TtgManager *m, guint64 delay_usec);
static void schedule_retry (TtgManager *m, guint64 delay_usec);
static void consider_process (TtgManager *m, pid_t pid, gboolean may_refresh);

static void
notify_status (TtgManager *m)
{
  g_autofree char *line = ttg_manager_status_line (m);

  (void) sd_notifyf (0, "STATUS=%s", line);
}

/* ---- policies and verdicts ---------------------------------------------- */

/* The policy that rules a session: the system's, narrowed by its user's. */
static const TtgPolicy *
session_policy (TtgManager *m, const TtgSession *s)
{
  UserEntry *e = s ? g_hash_table_lookup (m->users, GUINT_TO_POINTER (s->uid)) : NULL;

  return e ? &e->effective : &m->policy;
}

/* Judges every session under its policy: after any change of either. */
static void
judge_sessions (TtgManager *m)
{
  GHashTableIter it;
  TtgSession *s;

  g_hash_table_remove_all (m->verdicts);
  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    {
      TtgVerdict *v = g_new0 (TtgVerdict, 1);

      ttg_model_judge_session (&m->policy, session_policy (m, s), s, v);
      g_hash_table_insert (m->verdicts, s->id, v);
    }
}

/* The verdict on session id; for a session that is gone, what the system
 * policy says of it. */
static const TtgVerdict *
verdict_of (TtgManager *m, const char *session_id, TtgVerdict *gone)
{
  const TtgVerdict *v = session_id ? g_hash_table_lookup (m->verdicts, session_id) : NULL;

  if (v)
    return v;
  ttg_model_judge_session (&m->policy, &m->policy, NULL, gone);
  return gone;
}

static void
recompute_user_policies (TtgManager *m)
{
  GHashTableIter it;
  UserEntry *e;

  g_hash_table_iter_init (&it, m->users);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &e))
    ttg_user_policy_apply (&e->asked, &m->policy, &e->effective);
  judge_sessions (m);
}

/* ---- sessions ----------------------------------------------------------- */

static void
apply_session_weights (TtgManager *m)
{
  GHashTableIter it;
  TtgSession *s;
  const char *id;

  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    {
      const TtgVerdict *v = g_hash_table_lookup (m->verdicts, s->id);
      guint64 *have = g_hash_table_lookup (m->session_weights, s->id);
      g_autofree char *scope = NULL;

      if (have && *have == v->session_weight)
        continue;
      /* Never touched and nothing wanted: leave logind's scope as it is. */
      if (!have && v->session_weight == TTG_WEIGHT_UNSET)
        continue;

      scope = ttg_session_scope_name (s->id);
      if (v->session_weight == TTG_WEIGHT_UNSET)
        ttg_log_info ("session", "Session %s (uid %u): CPUWeight of %s back to the default (%s)",
                      s->id, (unsigned) s->uid, scope, v->session_reason);
      else
        ttg_log_info ("session", "Session %s (uid %u): CPUWeight=%" G_GUINT64_FORMAT " on %s (%s)",
                      s->id, (unsigned) s->uid, v->session_weight, scope, v->session_reason);
      ttg_placer_set_weight (m->placer, scope, v->session_weight);
      g_hash_table_insert (m->session_weights, g_strdup (s->id),
                           g_memdup2 (&v->session_weight, sizeof v->session_weight));
      if (m->listener.group_changed)
        m->listener.group_changed (scope, v->session_weight == TTG_WEIGHT_UNSET ? 0 : v->session_weight,
                                   m->listener_data);
    }

  /* Forget sessions that are gone. */
  g_hash_table_iter_init (&it, m->session_weights);
  while (g_hash_table_iter_next (&it, (gpointer *) &id, NULL))
    if (!g_hash_table_contains (m->sessions, id))
      g_hash_table_iter_remove (&it);
}

static gboolean
has_session (uid_t uid, gpointer data)
{
  TtgManager *m = data;
  GHashTableIter it;
  TtgSession *s;

  g_hash_table_iter_init (&it, m->sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    if (s->uid == uid)
      return TRUE;
  return FALSE;
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
  g_hash_table_remove_all (m->verdicts);
  g_clear_pointer (&m->sessions, g_hash_table_unref);
  m->sessions = sessions;
  judge_sessions (m);
  /* A user's budget lives as long as they have a session. */
  ttg_budgets_prune (m->budgets, has_session, m);
  return TRUE;
}

/* ---- admission ---------------------------------------------------------- */

/* May this terminal get a group of its own, by its user's limits? If not,
 * it stays where it is (the session scope), the journal says so once, and
 * it is tried again when the user's budget allows. */
static gboolean
admit_terminal (TtgManager *m, const TtgSession *s, const TtgProcStat *st)
{
  g_autofree char *tell = NULL;
  gint64 retry_usec;
  TtgAdmit verdict = ttg_budgets_admit (m->budgets, s->uid, st->pid,
                                        ttg_groups_count_live (m->groups, s->uid),
                                        g_get_monotonic_time (), &tell, &retry_usec);

  if (verdict == TTG_ADMIT_YES)
    return TRUE;
  if (tell)
    ttg_log_warn ("limit", "Leaving %s (%d, pts) in session-%s.scope, and further new terminals of user %u for now: %s. "
                  "They get their groups when the limit allows; said once until none has waited for a minute",
                  st->comm, (int) st->pid, s->id, (unsigned) s->uid, tell);
  if (retry_usec > 0)
    schedule_retry (m, (guint64) retry_usec);
  return FALSE;
}

static int
on_retry (sd_event_source *source, uint64_t usec, void *user_data)
{
  TtgManager *m = user_data;
  g_autoptr(GArray) uids = ttg_budgets_users_waiting (m->budgets);

  for (guint i = 0; i < uids->len; i++)
    {
      uid_t uid = g_array_index (uids, uid_t, i);
      g_autoptr(GArray) pids = ttg_budgets_take_waiting (m->budgets, uid);

      for (guint j = 0; j < pids->len; j++)
        consider_process (m, g_array_index (pids, pid_t, j), FALSE);
      if (ttg_budgets_retried (m->budgets, uid, g_get_monotonic_time ()))
        schedule_rescan (m, 0);
    }
  return 0;
}

static void
schedule_retry (TtgManager *m, guint64 delay_usec)
{
  ttg_timer_arm (m->event, &m->retry, delay_usec, on_retry, m);
}

/* ---- what the groups' table tells ---------------------------------------- */

static void
on_group_placed (const TtgGroup *g, gpointer user_data)
{
  TtgManager *m = user_data;

  m->placements++;
  notify_status (m);
  if (m->listener.group_added)
    {
      g_autofree char *tty = g_strdup_printf ("pts/%u", g->pts);

      m->listener.group_added (g->unit, g->session_id, tty, m->listener_data);
    }
}

static void
on_group_start_failed (const char *unit, gpointer user_data)
{
  TtgManager *m = user_data;

  m->placement_failures++;
}

static void
on_group_adopted (TtgGroup *g, gpointer user_data)
{
  TtgManager *m = user_data;
  TtgSession *s = g_hash_table_lookup (m->sessions, g->session_id);

  /* adopted after the start-up reconcile: its weight now */
  if (s)
    {
      ttg_groups_set_owner (m->groups, g, s->uid);
      ttg_groups_set_weight (m->groups, g, ((TtgVerdict *) g_hash_table_lookup (m->verdicts, s->id))->terminal_weight);
    }
  notify_status (m);
}

static void
on_group_removed (const char *unit, uid_t uid, gpointer user_data)
{
  TtgManager *m = user_data;

  /* A place under the user's cap is free: a held-back terminal may have it. */
  if (ttg_budgets_has_waiting (m->budgets, uid))
    schedule_retry (m, 0);
  notify_status (m);
  if (m->listener.group_removed)
    m->listener.group_removed (unit, m->listener_data);
}

static void
on_places_freed (gpointer user_data)
{
  TtgManager *m = user_data;

  notify_status (m);
  schedule_retry (m, 0);
}

static void
on_rescan_wanted (guint64 delay_usec, gpointer user_data)
{
  schedule_rescan (user_data, delay_usec);
}

/* ---- processes ---------------------------------------------------------- */

/* Looks at one process: does it lead a pty that needs a group? */
static void
consider_process (TtgManager *m, pid_t pid, gboolean may_refresh)
{
  g_autofree char *cgroup = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *rule = NULL;
  g_autofree char *unit = NULL;
  const TtgVerdict *v;
  TtgProcStat st, parent;
  TtgSession *s;
  TtgPtyRole role;
  guint pts;

  if (!ttg_procfs_read_stat (pid, &st))
    return;
  /* The common case, cheaply: not a session leader on a pty. */
  if (st.session != pid || !ttg_tty_nr_is_pts (st.tty_nr, &pts))
    return;

  cgroup = ttg_procfs_read_cgroup (pid);
  if (!cgroup)
    return;
  session_id = ttg_cgroup_path_session_id (cgroup);
  if (!session_id)
    {
      /* A terminal opened from a grouped terminal (tmux started there, a
       * nested script) belongs to the same logind session. */
      g_autofree char *from_unit = ttg_cgroup_path_unit (cgroup);
      pid_t from_leader;

      if (!from_unit || !ttg_pty_unit_name_parse (from_unit, &session_id, &from_leader))
        return; /* not in a session: a fresh login may still be on its way */
      /* It is that group's own leader: a group of this run, or one an
       * earlier run started just before it ended (adopted now); else its
       * processes are in the cgroup of a scope whose job failed after some
       * of them moved, and starting it again gives that cgroup back to
       * systemd. */
      if (from_leader == pid &&
          (ttg_groups_lookup (m->groups, from_unit) ||
           ttg_groups_adopt (m->groups, from_unit, TRUE, "from an earlier run")))
        return;
    }

  s = g_hash_table_lookup (m->sessions, session_id);
  if (!s && may_refresh)
    {
      /* A login faster than the logind monitor's settle time. */
      refresh_sessions (m);
      apply_session_weights (m);
      s = g_hash_table_lookup (m->sessions, session_id);
    }
  v = s ? g_hash_table_lookup (m->verdicts, s->id) : NULL;
  if (!ttg_model_process_starts_group (v, &st, &pts))
    return;

  role = ttg_model_pty_role (s, &st, pts, ttg_procfs_read_stat (st.ppid, &parent) ? &parent : NULL);
  rule = ttg_pty_role_explain (role, s, pts);
  if (ttg_pty_role_is_login (role))
    {
      /* The login's own terminal is the session itself. Said once per
       * terminal, when it appears, not on every rescan. */
      if (may_refresh)
        ttg_log_info ("group", "Leaving %s (%d) in session-%s.scope: %s", st.comm, (int) pid, s->id, rule);
      return;
    }
  unit = ttg_pty_unit_name (s->id, pid);
  if (!unit || ttg_groups_is_live (m->groups, unit) || !admit_terminal (m, s, &st))
    return;
  ttg_groups_start (m->groups, &(TtgGroupStart) {
    .session_id = s->id, .uid = s->uid, .leader = pid, .comm = st.comm, .pts = pts,
    .source_cgroup = cgroup, .weight = v->terminal_weight, .rule = rule,
  });
}

static void
rescan_all (TtgManager *m)
{
  g_autoptr(GArray) pids = ttg_procfs_list_pids ();

  if (!pids)
    return;
  ttg_groups_tidy (m->groups);
  for (guint i = 0; i < pids->len; i++)
    consider_process (m, g_array_index (pids, pid_t, i), FALSE);
  ttg_groups_sweep_all (m->groups);
}

static int
on_rescan (sd_event_source *s, uint64_t usec, void *user_data)
{
  rescan_all (user_data);
  return 0;
}

static void
schedule_rescan (TtgManager *m, guint64 delay_usec)
{
  ttg_timer_arm (m->event, &m->rescan, delay_usec, on_rescan, m);
}

/* Whether some session scope has a CPUWeight of the service's: then systemd
 * has the cpu controller enabled down to user.slice and the users' slices
 * (their cgroup.controllers all come from user.slice's subtree_control),
 * and a slice without it is a fault, not systemd's laziness. */
static gboolean
any_session_weighted (TtgManager *m)
{
  GHashTableIter it;
  guint64 *weight;

  g_hash_table_iter_init (&it, m->session_weights);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &weight))
    if (*weight != TTG_WEIGHT_UNSET)
      return TRUE;
  return FALSE;
}

/* Brings every group in line with the sessions and the policy. */
static void
reconcile (TtgManager *m)
{
  g_autoptr(GPtrArray) groups = ttg_groups_sorted (m->groups);
  GHashTableIter it;
  TtgVerdict *v;

  apply_session_weights (m);

  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroup *g = groups->pdata[i];
      TtgSession *s = g_hash_table_lookup (m->sessions, g->session_id);
      TtgVerdict gone;
      const TtgVerdict *gv = verdict_of (m, g->session_id, &gone);

      if (s && g->uid == (uid_t) -1)
        ttg_groups_set_owner (m->groups, g, s->uid); /* adopted: counts toward its user's cap */
      if (g->state != TTG_GROUP_ACTIVE)
        continue;
      if (!gv->splits_terminals)
        {
          ttg_groups_dissolve (m->groups, g, gv->split_reason);
          continue;
        }
      if (gv->terminal_weight != g->weight)
        {
          ttg_groups_set_weight (m->groups, g, gv->terminal_weight);
          if (m->listener.group_changed)
            m->listener.group_changed (g->unit, gv->terminal_weight, m->listener_data);
        }
    }

  g_hash_table_iter_init (&it, m->verdicts);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &v))
    if (v->splits_terminals)
      {
        schedule_rescan (m, 0);
        break;
      }
  if (m->cpuwatch)
    ttg_cpu_watch_recheck (m->cpuwatch, any_session_weighted (m));
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
      if (ttg_groups_leads (m->groups, ev->pid))
        ttg_groups_leader_exited (m->groups);
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

static void
on_cpu_changed (gpointer user_data)
{
  TtgManager *m = user_data;

  notify_status (m);
  if (m->listener.cpu_changed)
    m->listener.cpu_changed (m->listener_data);
}

/* ---- the manager's life -------------------------------------------------- */

static const TtgGroupsListener groups_listener = {
  .placed = on_group_placed,
  .start_failed = on_group_start_failed,
  .adopted = on_group_adopted,
  .removed = on_group_removed,
  .places_freed = on_places_freed,
  .rescan = on_rescan_wanted,
};

TtgManager *
ttg_manager_new (sd_event *event, sd_bus *bus, const TtgPolicy *policy, GError **error)
{
  g_autoptr(TtgManager) m = g_new0 (TtgManager, 1);

  m->event = sd_event_ref (event);
  m->bus = bus ? sd_bus_ref (bus) : NULL;
  m->policy = *policy;
  m->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ttg_session_free);
  m->verdicts = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  m->session_weights = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  m->users = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  m->budgets = ttg_budgets_new ();

  m->placer = ttg_placer_new (bus, error);
  if (!m->placer)
    return NULL;
  m->groups = ttg_groups_new (event, m->placer, &groups_listener, m);

  return g_steal_pointer (&m);
}

gboolean
ttg_manager_start (TtgManager *m, GError **error)
{
  g_autofree char *policy_text = ttg_policy_to_string (&m->policy);

  m->cpuwatch = ttg_cpu_watch_new (m->event, "/", on_cpu_changed, m);
  ttg_log_info ("policy", "Policy: %s", policy_text);

  ttg_groups_adopt_all (m->groups);

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
  g_clear_pointer (&m->cpuwatch, ttg_cpu_watch_free);
  g_clear_pointer (&m->procmon, ttg_procmon_free);
  g_clear_pointer (&m->logind, ttg_logind_free);
  g_clear_pointer (&m->groups, ttg_groups_free);
  g_clear_pointer (&m->placer, ttg_placer_free);
  g_clear_pointer (&m->budgets, ttg_budgets_free);
  g_clear_pointer (&m->users, g_hash_table_unref);
  g_clear_pointer (&m->session_weights, g_hash_table_unref);
  g_clear_pointer (&m->verdicts, g_hash_table_unref);
  g_clear_pointer (&m->sessions, g_hash_table_unref);
  if (m->bus)
    sd_bus_unref (m->bus);
  sd_event_unref (m->event);
  g_free (m);
}

/* ---- what the API asks ---------------------------------------------------- */

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

  if (!ttg_budgets_set_limits (m->budgets, limits))
    return;
  ttg_log_info ("limit", "Limits on terminal groups per user: %s", text);
  if (ttg_budgets_count (m->budgets) > 0)
    schedule_retry (m, 0);
}

const TtgPolicy *
ttg_manager_get_policy (TtgManager *m)
{
  return &m->policy;
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
  judge_sessions (m);
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

gboolean
ttg_manager_cpu_effective (TtgManager *m, const char *const **limitations)
{
  static const char *const none[] = { NULL };

  if (limitations)
    *limitations = m->cpuwatch ? ttg_cpu_watch_limitations (m->cpuwatch) : none;
  return !m->cpuwatch || ttg_cpu_watch_effective (m->cpuwatch);
}

void
ttg_manager_get_counters (TtgManager *m, TtgManagerCounters *out)
{
  out->process_events = m->procmon ? ttg_procmon_get_event_count (m->procmon) : 0;
  out->lost_events = m->procmon ? ttg_procmon_get_lost_count (m->procmon) : 0;
  out->placements = m->placements;
  out->placement_failures = m->placement_failures;
}

char *
ttg_manager_status_line (TtgManager *m)
{
  const char *const *limitations;

  if (!ttg_manager_cpu_effective (m, &limitations))
    return g_strdup_printf ("CPU weights cannot act: %s", limitations[0]);
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

GPtrArray *
ttg_manager_list_groups (TtgManager *m)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttg_group_info_free);
  g_autoptr(GList) ids = g_list_sort (g_hash_table_get_keys (m->sessions), (GCompareFunc) g_strcmp0);
  g_autoptr(GPtrArray) groups = ttg_groups_sorted (m->groups);

  for (GList *l = ids; l; l = l->next)
    {
      TtgSession *s = g_hash_table_lookup (m->sessions, l->data);
      const TtgVerdict *v = g_hash_table_lookup (m->verdicts, s->id);
      TtgGroupInfo *info = g_new0 (TtgGroupInfo, 1);

      info->unit = ttg_session_scope_name (s->id);
      info->cgroup = g_strdup (s->cgroup);
      info->session_id = g_strdup (s->id);
      info->uid = s->uid;
      info->kind = "session";
      info->tty = g_strdup (s->tty ? s->tty : "");
      info->weight = v->session_weight == TTG_WEIGHT_UNSET ? 0 : v->session_weight;
      info->description = g_strdup_printf ("Session %s of uid %u: %s", s->id, (unsigned) s->uid, v->session_reason);
      g_ptr_array_add (out, info);
    }

  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroup *g = groups->pdata[i];
      TtgSession *s = g_hash_table_lookup (m->sessions, g->session_id);
      TtgGroupInfo *info;

      if (g->state != TTG_GROUP_ACTIVE)
        continue;
      info = g_new0 (TtgGroupInfo, 1);
      info->unit = g_strdup (g->unit);
      info->cgroup = g_strdup (g->cgroup);
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

gboolean
ttg_manager_explain_pid (TtgManager *m, pid_t pid, TtgPidInfo *out, GError **error)
{
  TtgExplainInput in = { m->sessions, m->verdicts, m->groups, m->budgets };

  return ttg_explain_pid (&in, pid, out, error);
}

guint
ttg_manager_count_sessions (TtgManager *m)
{
  return g_hash_table_size (m->sessions);
}

guint
ttg_manager_count_groups (TtgManager *m)
{
  return ttg_groups_count_active (m->groups);
}
