/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "groups.h"

#include <errno.h>

#include "model.h"
#include "procfs.h"
#include "util.h"

struct TtgGroups {
  sd_event *event;
  TtgPlacer *placer;
  TtgGroupsListener listener;
  gpointer listener_data;

  GHashTable *groups;         /* unit -> TtgGroup */
  GHashTable *start_failures; /* unit -> guint: starts refused or failed in a row */
  GHashTable *maybe_removed;  /* units systemd said were removed, unconfirmed */
  sd_event_source *collect;   /* looks for groups that ran empty unnoticed */
  sd_event_source *orphans;   /* looks for scopes started after their call timed out */
};

static const char *
state_to_string (TtgGroupState s)
{
  switch (s)
    {
    case TTG_GROUP_STARTING: return "starting";
    case TTG_GROUP_ACTIVE: return "active";
    case TTG_GROUP_DISSOLVED: return "dissolved";
    }
  return "unknown";
}

static void
group_free (TtgGroup *g)
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

static char *
sibling_cgroup (const char *cgroup, const char *unit)
{
  g_autofree char *dir = g_path_get_dirname (cgroup);

  return g_build_path ("/", dir, unit, NULL);
}

static void on_scope_started (const char *unit, const char *result, const sd_bus_error *error, gpointer user_data);
static void on_unit_removed (const char *unit, gpointer user_data);

TtgGroups *
ttg_groups_new (sd_event *event, TtgPlacer *placer, const TtgGroupsListener *listener, gpointer user_data)
{
  TtgGroups *gs = g_new0 (TtgGroups, 1);

  gs->event = sd_event_ref (event);
  gs->placer = placer;
  gs->listener = *listener;
  gs->listener_data = user_data;
  gs->groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) group_free);
  gs->start_failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gs->maybe_removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ttg_placer_set_handlers (placer, on_scope_started, on_unit_removed, gs);
  return gs;
}

void
ttg_groups_free (TtgGroups *gs)
{
  if (!gs)
    return;
  ttg_placer_set_handlers (gs->placer, NULL, NULL, NULL);
  sd_event_source_disable_unref (gs->collect);
  sd_event_source_disable_unref (gs->orphans);
  g_hash_table_unref (gs->groups);
  g_hash_table_unref (gs->start_failures);
  g_hash_table_unref (gs->maybe_removed);
  sd_event_unref (gs->event);
  g_free (gs);
}

TtgGroup *
ttg_groups_lookup (TtgGroups *gs, const char *unit)
{
  return g_hash_table_lookup (gs->groups, unit);
}

gboolean
ttg_groups_is_live (TtgGroups *gs, const char *unit)
{
  TtgGroup *g = ttg_groups_lookup (gs, unit);

  return g && g->state != TTG_GROUP_DISSOLVED;
}

gboolean
ttg_groups_leads (TtgGroups *gs, pid_t pid)
{
  GHashTableIter it;
  TtgGroup *g;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->leader == pid && g->state != TTG_GROUP_DISSOLVED)
      return TRUE;
  return FALSE;
}

guint
ttg_groups_count_live (TtgGroups *gs, uid_t uid)
{
  GHashTableIter it;
  TtgGroup *g;
  guint n = 0;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state != TTG_GROUP_DISSOLVED && g->uid == uid)
      n++;
  return n;
}

guint
ttg_groups_count_active (TtgGroups *gs)
{
  GHashTableIter it;
  TtgGroup *g;
  guint n = 0;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state == TTG_GROUP_ACTIVE)
      n++;
  return n;
}

static gint
compare_units (gconstpointer a, gconstpointer b)
{
  const TtgGroup *ga = *(TtgGroup *const *) a, *gb = *(TtgGroup *const *) b;

  return g_strcmp0 (ga->unit, gb->unit);
}

GPtrArray *
ttg_groups_sorted (TtgGroups *gs)
{
  GPtrArray *out = g_ptr_array_new ();
  GHashTableIter it;
  TtgGroup *g;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    g_ptr_array_add (out, g);
  g_ptr_array_sort (out, compare_units);
  return out;
}

/* ---- the processes of a group ------------------------------------------ */

static void
add_session_members (GArray *out, const char *cgroup, pid_t leader)
{
  g_autoptr(GArray) procs = ttg_procfs_cgroup_pids (cgroup);

  for (guint i = 0; procs && i < procs->len; i++)
    {
      pid_t pid = g_array_index (procs, pid_t, i);
      TtgProcStat st;

      if (ttg_procfs_read_stat (pid, &st) && st.session == leader)
        g_array_append_val (out, pid);
    }
}

/* Processes of the kernel session led by g->leader still where it was
 * found. When that was the cgroup of its own scope from a start that
 * failed after systemd had moved some of them (a process of the terminal
 * exited in between: "Couldn't move process"), the rest are still in the
 * session scope: they are looked for there too. */
static GArray *
find_stragglers (const TtgGroup *g)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (pid_t));

  add_session_members (out, g->source_cgroup, g->leader);
  if (g->cgroup && g->session_cgroup && g_str_equal (g->source_cgroup, g->cgroup))
    add_session_members (out, g->session_cgroup, g->leader);
  return out;
}

/* Stragglers are found by their kernel session id, which is the leader's
 * pid. Once that leader is gone, its pid may belong to another process,
 * even the leader of a new terminal (setsid() gives it a session id of the
 * same value): only a group whose leader is still inside it is swept. */
static gboolean
leader_is_in_group (const TtgGroup *g)
{
  g_autofree char *cgroup = ttg_procfs_read_cgroup (g->leader);

  return cgroup && g->cgroup && g_str_equal (cgroup, g->cgroup);
}

static void
sweep_group (TtgGroups *gs, TtgGroup *g)
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
      if (ttg_placer_attach (gs->placer, g->unit, (pid_t *) late->data, late->len) < 0)
        return;
    }
}

void
ttg_groups_sweep_all (TtgGroups *gs)
{
  GHashTableIter it;
  TtgGroup *g;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    if (g->state == TTG_GROUP_ACTIVE && leader_is_in_group (g))
      sweep_group (gs, g);
  /* exits may have been lost with the events */
  ttg_groups_leader_exited (gs);
}

/* ---- start, dissolve, weight ------------------------------------------- */

void
ttg_groups_start (TtgGroups *gs, const TtgGroupStart *start)
{
  g_autofree char *unit = ttg_pty_unit_name (start->session_id, start->leader);
  g_autofree char *description = NULL;
  g_autofree char *slice = NULL;
  g_autofree char *scope = NULL;
  g_autoptr(GArray) pids = NULL;
  TtgGroup *g;
  int r;

  if (!unit || ttg_groups_is_live (gs, unit))
    return;
  if (g_hash_table_remove (gs->groups, unit))
    /* Dissolved earlier and grouped again before systemd collected the old
     * scope: forgotten now (its processes are back in the session scope);
     * if the unit still exists, the start below is refused with UnitExists
     * and retried once it is gone. */
    ttg_log_debug ("group", "%s was dissolved and is wanted again", unit);

  scope = ttg_session_scope_name (start->session_id);
  g = g_new0 (TtgGroup, 1);
  g->unit = g_strdup (unit);
  g->session_id = g_strdup (start->session_id);
  g->uid = start->uid;
  g->leader = start->leader;
  g->pts = start->pts;
  g->comm = g_strdup (start->comm);
  g->rule = g_strdup (start->rule);
  g->source_cgroup = g_strdup (start->source_cgroup);
  g->session_cgroup = sibling_cgroup (start->source_cgroup, scope);
  g->cgroup = sibling_cgroup (start->source_cgroup, unit);
  g->weight = start->weight;
  g->state = TTG_GROUP_STARTING;
  g->started_usec = g_get_monotonic_time ();
  g_hash_table_insert (gs->groups, g->unit, g);

  pids = find_stragglers (g);
  if (pids->len == 0)
    {
      g_hash_table_remove (gs->groups, unit);
      return; /* gone already */
    }

  description = ttg_pty_unit_description (g->pts, g->session_id, g->comm);
  slice = g_strdup_printf ("user-%u.slice", (unsigned) g->uid);
  r = ttg_placer_start_scope (gs->placer, unit, description, slice, scope, g->weight,
                              (pid_t *) pids->data, pids->len);
  if (r < 0)
    {
      ttg_log_err ("group", "Failed to ask systemd for %s: %s", unit, g_strerror (-r));
      g_hash_table_remove (gs->groups, unit);
    }
}

void
ttg_groups_dissolve (TtgGroups *gs, TtgGroup *g, const char *why)
{
  g_autofree char *scope = ttg_session_scope_name (g->session_id);
  int r;

  if (g->state != TTG_GROUP_ACTIVE || !g->cgroup || !g->session_cgroup)
    return;

  r = ttg_placer_move_back (gs->placer, scope, g->session_cgroup, g->cgroup);
  if (r < 0)
    {
      ttg_log_warn ("group", "Could not move all processes of %s back into %s (%s); they stay in %s, alive",
                    g->unit, scope, g_strerror (-r), g->unit);
      return;
    }
  ttg_log_info ("group", "Dissolved %s (pts/%u of session %s): %d process(es) back in %s, because %s",
                g->unit, g->pts, g->session_id, r, scope, why);
  g->state = TTG_GROUP_DISSOLVED;
}

void
ttg_groups_set_weight (TtgGroups *gs, TtgGroup *g, guint64 weight)
{
  if (weight == g->weight)
    return;
  ttg_log_info ("group", "%s: CPUWeight=%" G_GUINT64_FORMAT, g->unit, weight);
  ttg_placer_set_weight (gs->placer, g->unit, weight);
  g->weight = weight;
}

/* ---- what systemd says of the scopes ----------------------------------- */

static void schedule_orphan_check (TtgGroups *gs);

/* A start that did not happen leaves the terminal's processes where they
 * are, alive. A rescan tries again, later each time (0.5 s, 1 s, ... 10 s),
 * so that a lasting refusal costs systemd one call every 10 s at most. */
static void
retry_start_later (TtgGroups *gs, const char *unit)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (gs->start_failures, unit)) + 1;
  guint64 delay = MIN ((guint64) 500 * 1000 << MIN (n - 1, 5), 10 * G_USEC_PER_SEC);

  g_hash_table_insert (gs->start_failures, g_strdup (unit), GUINT_TO_POINTER (n));
  gs->listener.rescan (delay, gs->listener_data);
}

static void
on_scope_started (const char *unit, const char *result, const sd_bus_error *error, gpointer user_data)
{
  TtgGroups *gs = user_data;
  TtgGroup *g = ttg_groups_lookup (gs, unit);

  if (!g)
    return;

  if (g_str_equal (result, "done"))
    {
      g->state = TTG_GROUP_ACTIVE;
      g_hash_table_remove (gs->start_failures, unit);
      sweep_group (gs, g);
      /* The terminal may have closed while its scope started: its exit was
       * then handled while the group was not active yet, and the leader can
       * still be a zombie. Looked at once it had time to run empty (seen
       * under a flood, with a slow ttygroupd: scopes left running empty for
       * good). */
      ttg_groups_leader_exited (gs);
      ttg_log_info ("group", "Terminal pts/%u of session %s (%s, leader %d) placed in %s, CPUWeight=%" G_GUINT64_FORMAT ", %.1f ms after it was seen, because %s",
                    g->pts, g->session_id, g->comm, (int) g->leader, g->unit, g->weight,
                    (g_get_monotonic_time () - g->started_usec) / 1000.0, g->rule ? g->rule : "it was grouped before");
      gs->listener.placed (g, gs->listener_data);
      return;
    }

  if (error && sd_bus_error_has_name (error, "org.freedesktop.systemd1.UnitExists"))
    {
      /* A dissolved group of the same leader is still being collected; the
       * processes are back in the session scope, so try again shortly. Or
       * systemd started it after an earlier call timed out: looked for. */
      ttg_log_debug ("group", "%s still exists, retrying later", unit);
      g_hash_table_remove (gs->groups, unit);
      schedule_orphan_check (gs);
      retry_start_later (gs, unit);
      return;
    }

  if (error && (sd_bus_error_has_name (error, SD_BUS_ERROR_NO_REPLY) ||
                sd_bus_error_has_name (error, SD_BUS_ERROR_TIMEOUT)))
    /* PID 1 is slow, not refusing: it may start the scope after all, and
     * would then keep it running (empty, once the terminal is gone) with
     * nobody here to know it. */
    schedule_orphan_check (gs);

  if (error && sd_bus_error_has_name (error, "org.freedesktop.DBus.Error.UnixProcessIdUnknown"))
    {
      g_hash_table_remove (gs->groups, unit);
      gs->listener.rescan (0, gs->listener_data);
      return;
    }

  /* Refused, or the job failed (a dependency, an assertion, a process that
   * could not be moved): said once, then retried ever more rarely. */
  gs->listener.start_failed (unit, gs->listener_data);
  if (!g_hash_table_contains (gs->start_failures, unit))
    ttg_log_warn ("group", "systemd did not start %s (%s%s%s); its processes stay in session %s, "
                  "trying again later", unit, result, error ? ": " : "",
                  error ? (error->message ?: error->name) : "", g->session_id);
  else
    ttg_log_debug ("group", "systemd did not start %s again (%s)", unit, result);
  g_hash_table_remove (gs->groups, unit);
  retry_start_later (gs, unit);
}

static void
forget_group (TtgGroups *gs, const char *unit)
{
  g_autofree char *name = g_strdup (unit);
  TtgGroup *g = ttg_groups_lookup (gs, name);
  uid_t uid;

  if (!g)
    return;
  ttg_log_debug ("group", "%s is gone (%s)", name, state_to_string (g->state));
  uid = g->uid;
  g_hash_table_remove (gs->groups, name);
  gs->listener.removed (name, uid, gs->listener_data);
}

/* Is unit still there? 1 yes, 0 no, -1 systemd cannot tell now. */
static int
unit_still_active (TtgGroups *gs, const char *unit)
{
  TtgGroup *g = ttg_groups_lookup (gs, unit);
  g_autoptr(GPtrArray) units = NULL;

  /* An active scope has its cgroup, and systemd removes it when the scope
   * stops, before it forgets the unit: without it, the answer needs no
   * call to PID 1, which the loop would wait for (and with it the exec of
   * the next terminal, seen right after the last one closed). With the
   * cgroup still there PID 1 is asked: daemon-reexec sends UnitRemoved for
   * the units it brings back. */
  if (g && g->cgroup && ttg_procfs_cgroup_gone (g->cgroup))
    return 0;
  if (ttg_placer_list_units (gs->placer, unit, &units) < 0)
    return -1;
  return units->len > 0;
}

static void
on_unit_removed (const char *unit, gpointer user_data)
{
  TtgGroups *gs = user_data;
  TtgGroup *g = ttg_groups_lookup (gs, unit);

  if (!g || g->state == TTG_GROUP_STARTING)
    return;
  if (g->state == TTG_GROUP_ACTIVE)
    {
      /* systemd re-executing (daemon-reexec) sends UnitRemoved for every
       * unit, and brings them all back: forget a group only once systemd
       * no longer lists it, asking again later if it cannot answer now. */
      int r = unit_still_active (gs, unit);

      if (r > 0)
        return;
      if (r < 0)
        {
          g_hash_table_add (gs->maybe_removed, g_strdup (unit));
          gs->listener.rescan (G_USEC_PER_SEC, gs->listener_data);
          return;
        }
    }
  forget_group (gs, unit);
}

void
ttg_groups_tidy (TtgGroups *gs)
{
  GHashTableIter it;
  const char *unit;

  g_hash_table_iter_init (&it, gs->start_failures);
  while (g_hash_table_iter_next (&it, (gpointer *) &unit, NULL))
    {
      pid_t leader;

      if (!ttg_pty_unit_name_parse (unit, NULL, &leader) || !ttg_procfs_pid_exists (leader))
        g_hash_table_iter_remove (&it);
    }

  g_hash_table_iter_init (&it, gs->maybe_removed);
  while (g_hash_table_iter_next (&it, (gpointer *) &unit, NULL))
    {
      int r = unit_still_active (gs, unit);

      if (r < 0)
        {
          gs->listener.rescan (G_USEC_PER_SEC, gs->listener_data);
          continue;
        }
      if (r == 0)
        forget_group (gs, unit);
      g_hash_table_iter_remove (&it);
    }
}

/* ---- adoption ------------------------------------------------------------ */

TtgGroup *
ttg_groups_adopt (TtgGroups *gs, const char *unit, gboolean check_active, const char *why)
{
  g_autofree char *session_id = NULL;
  g_autofree char *cgroup = NULL;
  g_autofree char *scope = NULL;
  pid_t leader;
  TtgGroup *g;
  TtgProcStat st;

  if (!ttg_pty_unit_name_parse (unit, &session_id, &leader))
    return NULL;
  if (check_active && unit_still_active (gs, unit) <= 0)
    return NULL;
  if (ttg_placer_get_control_group (gs->placer, unit, &cgroup) < 0)
    return NULL;

  scope = ttg_session_scope_name (session_id);
  g = g_new0 (TtgGroup, 1);
  g->unit = g_strdup (unit);
  g->session_id = g_steal_pointer (&session_id);
  g->uid = (uid_t) -1; /* the owner (ttg_groups_set_owner) once its session is known */
  g->leader = leader;
  g->session_cgroup = sibling_cgroup (cgroup, scope);
  g->cgroup = g_steal_pointer (&cgroup);
  g->source_cgroup = g_strdup (g->session_cgroup);
  if (ttg_procfs_read_stat (leader, &st))
    {
      g->comm = g_strdup (st.comm);
      (void) ttg_tty_nr_is_pts (st.tty_nr, &g->pts);
    }
  g->weight = 0; /* not known: the owner sets it */
  g->state = TTG_GROUP_ACTIVE;
  g_hash_table_insert (gs->groups, g->unit, g);
  ttg_log_info ("group", "Adopted %s (%s)", unit, why);
  if (check_active)
    gs->listener.adopted (g, gs->listener_data);
  return g;
}

void
ttg_groups_set_owner (TtgGroups *gs, TtgGroup *g, uid_t uid)
{
  g->uid = uid;
}

void
ttg_groups_adopt_all (TtgGroups *gs)
{
  g_autoptr(GPtrArray) units = NULL;
  int r = ttg_placer_list_units (gs->placer, "ttygroup-pty-*.scope", &units);

  if (r < 0)
    {
      ttg_log_warn ("group", "Cannot look for groups of an earlier run: %s", g_strerror (-r));
      return;
    }
  for (guint i = 0; i < units->len; i++)
    (void) ttg_groups_adopt (gs, units->pdata[i], FALSE, "from an earlier run");
}

/* ---- groups that ran empty unnoticed ------------------------------------ */

/* systemd 252 can miss that a scope ran empty when its processes exit while
 * it is being started (a terminal closed at once, seen under a flood of
 * short-lived terminals): the scope then stays "active (running)" with an
 * empty cgroup for good, and would hold a place under its user's cap. A
 * group whose leader is gone is looked at TTG_GROUPS_COLLECT_DELAY_USEC
 * afterwards (systemd collects an empty scope well within it) and stopped
 * if still empty. */
void
ttg_groups_collect_empty (TtgGroups *gs)
{
  GHashTableIter it;
  TtgGroup *g;
  gboolean freed = FALSE;

  g_hash_table_iter_init (&it, gs->groups);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &g))
    {
      int r;

      if (g->state != TTG_GROUP_ACTIVE || !g->cgroup)
        continue;
      r = ttg_placer_stop_if_empty (gs->placer, g->unit, g->cgroup);
      if (r == 0)
        continue;
      if (r < 0)
        {
          ttg_log_debug ("group", "Cannot tell whether %s is empty: %s", g->unit, g_strerror (-r));
          continue;
        }
      ttg_log_info ("group", "%s (pts/%u of session %s) has had no process for %d s but systemd "
                    "still has it running: stopping it (nothing in it to stop)",
                    g->unit, g->pts, g->session_id, (int) (TTG_GROUPS_COLLECT_DELAY_USEC / G_USEC_PER_SEC));
      g->state = TTG_GROUP_DISSOLVED;
      freed = TRUE;
    }
  if (freed)
    gs->listener.places_freed (gs->listener_data);
}

static int
on_collect (sd_event_source *s, uint64_t usec, void *user_data)
{
  ttg_groups_collect_empty (user_data);
  return 0;
}

void
ttg_groups_leader_exited (TtgGroups *gs)
{
  ttg_timer_arm (gs->event, &gs->collect, TTG_GROUPS_COLLECT_DELAY_USEC, on_collect, gs);
}

/* ---- scopes started after their call timed out --------------------------- */

/* A StartTransientUnit that timed out (PID 1 under load) may still be
 * carried out. TTG_GROUPS_ORPHAN_CHECK_DELAY_USEC after, the pty scopes
 * systemd has running that this service does not know are taken over as
 * groups (and stopped by the collection when they are empty). */
void
ttg_groups_check_orphans (TtgGroups *gs)
{
  g_autoptr(GPtrArray) units = NULL;
  gboolean adopted = FALSE;
  int r = ttg_placer_list_units (gs->placer, "ttygroup-pty-*.scope", &units);

  if (r < 0)
    {
      ttg_log_debug ("group", "Cannot look for scopes started after a timeout: %s", g_strerror (-r));
      return;
    }
  for (guint i = 0; i < units->len; i++)
    if (!g_hash_table_contains (gs->groups, units->pdata[i]) &&
        ttg_groups_adopt (gs, units->pdata[i], TRUE, "systemd started it after the call had timed out"))
      adopted = TRUE;
  if (adopted)
    ttg_groups_leader_exited (gs);
}

static int
on_orphan_check (sd_event_source *s, uint64_t usec, void *user_data)
{
  ttg_groups_check_orphans (user_data);
  return 0;
}

static void
schedule_orphan_check (TtgGroups *gs)
{
  ttg_timer_arm (gs->event, &gs->orphans, TTG_GROUPS_ORPHAN_CHECK_DELAY_USEC, on_orphan_check, gs);
}
