/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "placer.h"
#include "policy.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER "org.freedesktop.systemd1.Manager"

struct TtgPlacer {
  sd_bus *bus;
  sd_bus_slot *job_removed;
  sd_bus_slot *unit_removed;
  TtgPlacerStartedFunc on_started;
  TtgPlacerRemovedFunc on_removed;
  gpointer user_data;
  /* units whose StartTransientUnit job is pending */
  GHashTable *pending;
};

static int
on_job_removed (sd_bus_message *m, void *user_data, sd_bus_error *ret_error)
{
  TtgPlacer *p = user_data;
  const char *job, *unit, *result;
  uint32_t id;
  int r;

  r = sd_bus_message_read (m, "uoss", &id, &job, &unit, &result);
  if (r < 0)
    return 0;
  if (!g_hash_table_remove (p->pending, unit))
    return 0;
  if (p->on_started)
    p->on_started (unit, result, NULL, p->user_data);
  return 0;
}

static int
on_unit_removed (sd_bus_message *m, void *user_data, sd_bus_error *ret_error)
{
  TtgPlacer *p = user_data;
  const char *unit, *path;

  if (sd_bus_message_read (m, "so", &unit, &path) < 0)
    return 0;
  if (g_str_has_prefix (unit, "ttygroup-") && p->on_removed)
    p->on_removed (unit, p->user_data);
  return 0;
}

TtgPlacer *
ttg_placer_new (sd_bus *bus, GError **error)
{
  g_autoptr(TtgPlacer) p = g_new0 (TtgPlacer, 1);
  g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
  int r;

  p->bus = sd_bus_ref (bus);
  p->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  r = sd_bus_match_signal (bus, &p->job_removed, SD_DEST, SD_PATH, SD_MANAGER,
                           "JobRemoved", on_job_removed, p);
  if (r >= 0)
    r = sd_bus_match_signal (bus, &p->unit_removed, SD_DEST, SD_PATH, SD_MANAGER,
                             "UnitRemoved", on_unit_removed, p);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to watch systemd's job signals: %s", g_strerror (-r));
      return NULL;
    }

  /* systemd sends JobRemoved/UnitRemoved only while someone is subscribed. */
  r = sd_bus_call_method (bus, SD_DEST, SD_PATH, SD_MANAGER, "Subscribe", &err, NULL, NULL);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to subscribe to systemd: %s", err.message ?: g_strerror (-r));
      return NULL;
    }

  return g_steal_pointer (&p);
}

void
ttg_placer_set_handlers (TtgPlacer *p, TtgPlacerStartedFunc on_started,
                         TtgPlacerRemovedFunc on_removed, gpointer user_data)
{
  p->on_started = on_started;
  p->on_removed = on_removed;
  p->user_data = user_data;
}

void
ttg_placer_free (TtgPlacer *p)
{
  if (!p)
    return;
  sd_bus_slot_unref (p->job_removed);
  sd_bus_slot_unref (p->unit_removed);
  g_hash_table_unref (p->pending);
  sd_bus_unref (p->bus);
  g_free (p);
}

/* An asynchronous call whose user_data the bus frees (with free_data)
 * once the reply was handled, or when the bus goes away with the call
 * still open (a stop in the middle of a burst): nothing of it is leaked.
 * On failure user_data is still the caller's. */
static int
call_async_owning (TtgPlacer *p, sd_bus_message *m, sd_bus_message_handler_t callback,
                   void *user_data, sd_bus_destroy_t free_data)
{
  sd_bus_slot *slot = NULL;
  int r;

  r = sd_bus_call_async (p->bus, &slot, m, callback, user_data, 0);
  if (r < 0)
    return r;
  (void) sd_bus_slot_set_destroy_callback (slot, free_data);
  (void) sd_bus_slot_set_floating (slot, 1);
  sd_bus_slot_unref (slot);
  return 0;
}

static int
on_set_weight_reply (sd_bus_message *m, void *user_data, sd_bus_error *ret_error)
{
  const char *unit = user_data;
  const sd_bus_error *e = sd_bus_message_get_error (m);

  if (e)
    ttg_log_warn ("placer", "Failed to set CPUWeight of %s: %s", unit, e->message ?: e->name);
  return 0;
}

void
ttg_placer_set_weight (TtgPlacer *p, const char *unit, guint64 weight)
{
  g_autoptr(sd_bus_message) m = NULL;
  int r;

  r = sd_bus_message_new_method_call (p->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "SetUnitProperties");
  if (r >= 0)
    r = sd_bus_message_append (m, "sb", unit, 1);
  if (r >= 0)
    r = sd_bus_message_append (m, "a(sv)", 1, "CPUWeight", "t", (uint64_t) weight);
  if (r >= 0)
    {
      char *data = g_strdup (unit);

      r = call_async_owning (p, m, on_set_weight_reply, data, g_free);
      if (r < 0)
        g_free (data);
    }
  if (r < 0)
    ttg_log_err ("placer", "Failed to send the CPUWeight of %s: %s", unit, g_strerror (-r));
}

/* The user_data of a StartUnit or StopUnit call */
typedef struct {
  TtgPlacer *p;
  char *unit;
} UnitCall;

static UnitCall *
unit_call_new (TtgPlacer *p, const char *unit)
{
  UnitCall *c = g_new0 (UnitCall, 1);

  c->p = p;
  c->unit = g_strdup (unit);
  return c;
}

static void
unit_call_free (void *data)
{
  UnitCall *c = data;

  g_free (c->unit);
  g_free (c);
}

static int
on_start_reply (sd_bus_message *m, void *user_data, sd_bus_error *ret_error)
{
  UnitCall *c = user_data;
  const sd_bus_error *e = sd_bus_message_get_error (m);

  if (e)
    {
      g_hash_table_remove (c->p->pending, c->unit);
      if (c->p->on_started)
        c->p->on_started (c->unit, "refused", e, c->p->user_data);
    }
  /* else: the outcome comes with JobRemoved */
  return 0;
}

int
ttg_placer_start_scope (TtgPlacer *p, const char *unit, const char *description,
                        const char *slice, const char *session_scope, guint64 weight,
                        const pid_t *pids, guint n_pids)
{
  g_autoptr(sd_bus_message) m = NULL;
  UnitCall *c;
  int r;

  r = sd_bus_message_new_method_call (p->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "StartTransientUnit");
  if (r < 0)
    return r;
  r = sd_bus_message_append (m, "ss", unit, "fail");
  if (r < 0)
    return r;
  r = sd_bus_message_open_container (m, 'a', "(sv)");
  if (r < 0)
    return r;
  r = sd_bus_message_append (m, "(sv)(sv)(sv)(sv)",
                             "Description", "s", description,
                             "Slice", "s", slice,
                             "CollectMode", "s", "inactive-or-failed",
                             /* Delegated, so that AttachProcessesToUnit may move
                              * late children in after the start; only the cpu
                              * controller: with cpuset enabled on the path, every
                              * move would reset the processes' CPU affinity
                              * (taskset) on kernels before 6.2. "Delegate"=true
                              * would mean all controllers, and systemd adds to
                              * that list rather than replacing it. */
                             "DelegateControllers", "as", 1, "cpu");
  if (r < 0)
    return r;
  /* PartOf, not BindsTo: an explicit stop of the session (logind's
   * terminate, KillUserProcesses=yes) reaches the pty groups, but a session
   * scope that merely becomes empty never takes living processes along. */
  r = sd_bus_message_append (m, "(sv)(sv)",
                             "PartOf", "as", 1, session_scope,
                             "After", "as", 1, session_scope);
  if (r < 0)
    return r;
  if (weight != TTG_WEIGHT_UNSET)
    {
      r = sd_bus_message_append (m, "(sv)", "CPUWeight", "t", (uint64_t) weight);
      if (r < 0)
        return r;
    }
  r = sd_bus_message_open_container (m, 'r', "sv");
  if (r >= 0)
    r = sd_bus_message_append (m, "s", "PIDs");
  if (r >= 0)
    r = sd_bus_message_open_container (m, 'v', "au");
  if (r >= 0)
    r = sd_bus_message_append_array (m, 'u', pids, n_pids * sizeof (pid_t));
  if (r >= 0)
    r = sd_bus_message_close_container (m);
  if (r >= 0)
    r = sd_bus_message_close_container (m);
  if (r >= 0)
    r = sd_bus_message_close_container (m);
  if (r >= 0)
    r = sd_bus_message_append (m, "a(sa(sv))", 0);
  if (r < 0)
    return r;

  c = unit_call_new (p, unit);
  r = call_async_owning (p, m, on_start_reply, c, unit_call_free);
  if (r < 0)
    {
      unit_call_free (c);
      return r;
    }
  g_hash_table_add (p->pending, g_strdup (unit));
  return 0;
}

static int
call_attach (TtgPlacer *p, const char *unit, const pid_t *pids, guint n_pids, sd_bus_error *err)
{
  g_autoptr(sd_bus_message) m = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  r = sd_bus_message_new_method_call (p->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "AttachProcessesToUnit");
  if (r >= 0)
    r = sd_bus_message_append (m, "ss", unit, "");
  if (r >= 0)
    r = sd_bus_message_append_array (m, 'u', pids, n_pids * sizeof (pid_t));
  if (r < 0)
    return r;
  return sd_bus_call (p->bus, m, 0, err, &reply);
}

int
ttg_placer_attach (TtgPlacer *p, const char *unit, const pid_t *pids, guint n_pids)
{
  g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
  int r;

  if (n_pids == 0)
    return 0;
  r = call_attach (p, unit, pids, n_pids, &err);
  if (r < 0)
    ttg_log_warn ("placer", "Failed to move %u late process(es) into %s: %s",
                  n_pids, unit, err.message ?: g_strerror (-r));
  return r;
}

/* The only place the service writes systemd's cgroups. Every other move
 * goes through systemd (StartTransientUnit's PIDs, AttachProcessesToUnit
 * into the delegated pty scopes). Moving processes back into their session
 * scope cannot: that scope belongs to logind and is not delegated, and
 * systemd 252 refuses AttachProcessesToUnit into it ("Process migration not
 * available on non-delegated units"), while sd-login and polkit find a
 * process's session only from that scope. So systemd is asked first (a
 * newer one may allow it) and cgroup.procs is written only where it
 * refuses. tests/integration/test-faults.sh (move_back_needs_cgroup_procs)
 * shows the refusal and the move; cgroupfs_write_fails shows that a failed
 * write leaves the processes alive in their group. */
int
ttg_placer_move_back (TtgPlacer *p, const char *session_scope, const char *session_cgroup,
                      const char *from_cgroup)
{
  gboolean systemd_refuses = FALSE;
  int moved = 0, failed = 0, last_error = 0;

  /* A process may fork while it moves; its child then stays behind in the
   * old cgroup. Repeat until nothing is left (or nothing more can move). */
  for (int round = 0; round < 8; round++)
    {
      g_autoptr(GArray) pids = ttg_cgroup_read_procs (from_cgroup);
      g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
      int r;

      if (!pids || pids->len == 0)
        break;

      if (!systemd_refuses)
        {
          r = call_attach (p, session_scope, (const pid_t *) pids->data, pids->len, &err);
          if (r >= 0)
            {
              moved += pids->len;
              continue;
            }
          /* systemd 252: "Process migration not available on non-delegated units." */
          ttg_log_debug ("placer", "systemd will not move processes into %s (%s), writing cgroup.procs",
                         session_scope, err.message ?: g_strerror (-r));
          systemd_refuses = TRUE;
        }

      failed = 0;
      for (guint i = 0; i < pids->len; i++)
        {
          pid_t pid = g_array_index (pids, pid_t, i);

          r = ttg_cgroup_write_proc (session_cgroup, pid);
          if (r == -ESRCH)
            continue; /* exited meanwhile */
          if (r < 0)
            {
              failed++;
              last_error = r;
              ttg_log_warn ("placer", "Failed to move process %d back into %s: %s",
                            (int) pid, session_scope, g_strerror (-r));
              continue;
            }
          moved++;
        }
      if (failed > 0 && (guint) failed == pids->len)
        return last_error;
    }

  return failed > 0 ? last_error : moved;
}

static int
on_stop_reply (sd_bus_message *m, void *user_data, sd_bus_error *ret_error)
{
  UnitCall *c = user_data;
  const sd_bus_error *e = sd_bus_message_get_error (m);

  if (e && sd_bus_error_has_name (e, "org.freedesktop.systemd1.NoSuchUnit") && c->p->on_removed)
    c->p->on_removed (c->unit, c->p->user_data);
  else if (e)
    ttg_log_warn ("placer", "Failed to stop the empty %s: %s", c->unit, e->message ?: e->name);
  return 0;
}

int
ttg_placer_stop_if_empty (TtgPlacer *p, const char *unit, const char *cgroup)
{
  g_autoptr(sd_bus_message) m = NULL;
  UnitCall *c;
  int r;

  r = ttg_cgroup_is_populated (cgroup);
  if (r != 0)
    return r > 0 ? 0 : r;

  r = sd_bus_message_new_method_call (p->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "StopUnit");
  if (r >= 0)
    r = sd_bus_message_append (m, "ss", unit, "replace");
  if (r < 0)
    return r;
  c = unit_call_new (p, unit);
  r = call_async_owning (p, m, on_stop_reply, c, unit_call_free);
  if (r < 0)
    {
      unit_call_free (c);
      return r;
    }
  return 1;
}

int
ttg_placer_list_units (TtgPlacer *p, const char *pattern, GPtrArray **out)
{
  g_autoptr(sd_bus_message) m = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
  g_autoptr(GPtrArray) units = g_ptr_array_new_with_free_func (g_free);
  const char *name, *active;
  int r;

  r = sd_bus_message_new_method_call (p->bus, &m, SD_DEST, SD_PATH, SD_MANAGER, "ListUnitsByPatterns");
  if (r >= 0)
    r = sd_bus_message_append (m, "as", 0);
  if (r >= 0)
    r = sd_bus_message_append (m, "as", 1, pattern);
  if (r >= 0)
    r = sd_bus_call (p->bus, m, 0, &err, &reply);
  if (r < 0)
    {
      ttg_log_debug ("systemd", "ListUnitsByPatterns %s: %s", pattern, err.message ?: g_strerror (-r));
      return r;
    }

  r = sd_bus_message_enter_container (reply, 'a', "(ssssssouso)");
  while (r >= 0 && (r = sd_bus_message_read (reply, "(ssssssouso)", &name, NULL, NULL, &active,
                                             NULL, NULL, NULL, NULL, NULL, NULL)) > 0)
    {
      if (g_str_equal (active, "active") || g_str_equal (active, "activating") ||
          g_str_equal (active, "deactivating"))
        g_ptr_array_add (units, g_strdup (name));
    }
  if (r < 0)
    {
      ttg_log_debug ("systemd", "Cannot parse systemd's unit list: %s", g_strerror (-r));
      return r;
    }
  *out = g_steal_pointer (&units);
  return 0;
}

int
ttg_placer_get_control_group (TtgPlacer *p, const char *unit, char **out)
{
  g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  const char *path;
  char *cg = NULL;
  int r;

  r = sd_bus_call_method (p->bus, SD_DEST, SD_PATH, SD_MANAGER, "GetUnit", &err, &reply, "s", unit);
  if (r >= 0)
    r = sd_bus_message_read (reply, "o", &path);
  if (r >= 0)
    r = sd_bus_get_property_string (p->bus, SD_DEST, path, "org.freedesktop.systemd1.Scope",
                                    "ControlGroup", &err, &cg);
  if (r < 0)
    {
      ttg_log_debug ("systemd", "No control group for %s: %s", unit, err.message ?: g_strerror (-r));
      return r;
    }
  if (!*cg)
    {
      free (cg);
      return -ENOENT;
    }
  *out = g_strdup (cg);
  free (cg);
  return 0;
}
