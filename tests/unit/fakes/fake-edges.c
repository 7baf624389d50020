/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "fake-edges.h"

#include <errno.h>
#include <fnmatch.h>
#include <string.h>

#include "logind.h"
#include "placer.h"
#include "procfs.h"
#include "procmon.h"
#include "util.h"

typedef struct {
  TtgProcStat st;
  char *cgroup;
} FakeProc;

typedef struct {
  char *cgroup;
  gboolean active;
} FakeUnit;

typedef struct {
  char *unit;
  char *cgroup;
  GArray *pids;
} FakeStart;

static struct {
  GHashTable *procs;    /* pid -> FakeProc */
  GHashTable *units;    /* name -> FakeUnit */
  GHashTable *pending;  /* name -> FakeStart */
  GHashTable *sessions; /* id -> TtgSession */
  GPtrArray *calls;
  gboolean list_fails;
  TtgPlacer *placer;
  TtgPlacerStartedFunc on_started;
  TtgPlacerRemovedFunc on_removed;
  gpointer placer_data;
  TtgLogindChangedFunc on_changed;
  gpointer logind_data;
  TtgProcmonEventFunc on_event;
  TtgProcmonLostFunc on_lost;
  gpointer procmon_data;
  guint64 events;
} fake;

static void
proc_free (FakeProc *p)
{
  g_free (p->cgroup);
  g_free (p);
}

static void
unit_free (FakeUnit *u)
{
  g_free (u->cgroup);
  g_free (u);
}

static void
start_free (FakeStart *s)
{
  g_free (s->unit);
  g_free (s->cgroup);
  g_array_unref (s->pids);
  g_free (s);
}

static void
call_free (FakeCall *c)
{
  g_free (c->op);
  g_free (c->unit);
  g_free (c);
}

void
fake_reset (void)
{
  g_clear_pointer (&fake.procs, g_hash_table_unref);
  g_clear_pointer (&fake.units, g_hash_table_unref);
  g_clear_pointer (&fake.pending, g_hash_table_unref);
  g_clear_pointer (&fake.sessions, g_hash_table_unref);
  g_clear_pointer (&fake.calls, g_ptr_array_unref);
  memset (&fake, 0, sizeof fake);
  fake.procs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) proc_free);
  fake.units = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) unit_free);
  fake.pending = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) start_free);
  fake.sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ttg_session_free);
  fake.calls = g_ptr_array_new_with_free_func ((GDestroyNotify) call_free);
}

static void
record (const char *op, const char *unit, guint64 weight, guint n_pids)
{
  FakeCall *c = g_new0 (FakeCall, 1);

  c->op = g_strdup (op);
  c->unit = g_strdup (unit);
  c->weight = weight;
  c->n_pids = n_pids;
  g_ptr_array_add (fake.calls, c);
}

/* ---- processes ---------------------------------------------------------- */

void
fake_proc_add (pid_t pid, pid_t ppid, pid_t session, guint tty_nr, const char *comm, const char *cgroup)
{
  FakeProc *p = g_new0 (FakeProc, 1);

  p->st.pid = pid;
  p->st.ppid = ppid;
  p->st.pgrp = session;
  p->st.session = session;
  p->st.tty_nr = tty_nr;
  p->st.state = 'S';
  g_strlcpy (p->st.comm, comm, sizeof p->st.comm);
  p->cgroup = g_strdup (cgroup);
  g_hash_table_insert (fake.procs, GINT_TO_POINTER (pid), p);
}

void
fake_proc_exit (pid_t pid)
{
  g_hash_table_remove (fake.procs, GINT_TO_POINTER (pid));
}

static void
proc_move (pid_t pid, const char *cgroup)
{
  FakeProc *p = g_hash_table_lookup (fake.procs, GINT_TO_POINTER (pid));

  if (p)
    {
      g_free (p->cgroup);
      p->cgroup = g_strdup (cgroup);
    }
}

const char *
fake_proc_cgroup (pid_t pid)
{
  FakeProc *p = g_hash_table_lookup (fake.procs, GINT_TO_POINTER (pid));

  return p ? p->cgroup : NULL;
}

gboolean
ttg_procfs_read_stat (pid_t pid, TtgProcStat *st)
{
  FakeProc *p = g_hash_table_lookup (fake.procs, GINT_TO_POINTER (pid));

  if (!p)
    return FALSE;
  *st = p->st;
  return TRUE;
}

char *
ttg_procfs_read_cgroup (pid_t pid)
{
  return g_strdup (fake_proc_cgroup (pid));
}

gboolean
ttg_procfs_pid_exists (pid_t pid)
{
  return g_hash_table_contains (fake.procs, GINT_TO_POINTER (pid));
}

static gint
compare_pids (gconstpointer a, gconstpointer b)
{
  return *(const pid_t *) a - *(const pid_t *) b;
}

GArray *
ttg_procfs_list_pids (void)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, fake.procs);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      pid_t pid = GPOINTER_TO_INT (key);

      g_array_append_val (pids, pid);
    }
  g_array_sort (pids, compare_pids);
  return pids;
}

/* A unit's cgroup is there while systemd has the unit (or a process is in it). */
gboolean
ttg_procfs_cgroup_gone (const char *cgroup)
{
  GHashTableIter it;
  FakeUnit *u;

  g_hash_table_iter_init (&it, fake.units);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &u))
    if (g_strcmp0 (u->cgroup, cgroup) == 0)
      return FALSE;
  return fake_cgroup_count (cgroup) == 0;
}

GArray *
ttg_procfs_cgroup_pids (const char *cgroup)
{
  g_autoptr(GArray) all = ttg_procfs_list_pids ();
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));

  for (guint i = 0; i < all->len; i++)
    {
      pid_t pid = g_array_index (all, pid_t, i);

      if (g_strcmp0 (fake_proc_cgroup (pid), cgroup) == 0)
        g_array_append_val (pids, pid);
    }
  return pids;
}

guint
fake_cgroup_count (const char *cgroup)
{
  g_autoptr(GArray) pids = ttg_procfs_cgroup_pids (cgroup);

  return pids->len;
}

/* ---- systemd ------------------------------------------------------------ */

struct TtgPlacer {
  int unused;
};

TtgPlacer *
ttg_placer_new (sd_bus *bus, GError **error)
{
  fake.placer = g_new0 (TtgPlacer, 1);
  return fake.placer;
}

void
ttg_placer_set_handlers (TtgPlacer *p, TtgPlacerStartedFunc on_started,
                         TtgPlacerRemovedFunc on_removed, gpointer user_data)
{
  fake.on_started = on_started;
  fake.on_removed = on_removed;
  fake.placer_data = user_data;
}

void
ttg_placer_free (TtgPlacer *p)
{
  if (p == fake.placer)
    fake.placer = NULL;
  g_free (p);
}

void
ttg_placer_set_weight (TtgPlacer *p, const char *unit, guint64 weight)
{
  record ("weight", unit, weight, 0);
}

int
ttg_placer_start_scope (TtgPlacer *p, const char *unit, const char *description,
                        const char *slice, const char *session_scope, guint64 weight,
                        const pid_t *pids, guint n_pids)
{
  FakeStart *s = g_new0 (FakeStart, 1);
  const char *session_cgroup = fake_proc_cgroup (pids[0]);
  g_autofree char *dir = g_path_get_dirname (session_cgroup);

  record ("start", unit, weight, n_pids);
  s->unit = g_strdup (unit);
  s->cgroup = g_build_path ("/", dir, unit, NULL);
  s->pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_array_append_vals (s->pids, pids, n_pids);
  g_hash_table_replace (fake.pending, s->unit, s);
  return 0;
}

void
fake_placer_fail_after_moving (const char *unit, guint n_moved)
{
  FakeStart *s = g_hash_table_lookup (fake.pending, unit);
  g_autofree char *name = g_strdup (unit);

  g_assert_nonnull (s);
  for (guint i = 0; i < n_moved && i < s->pids->len; i++)
    proc_move (g_array_index (s->pids, pid_t, i), s->cgroup);
  g_hash_table_remove (fake.pending, unit);
  fake.on_started (name, "failed", NULL, fake.placer_data);
}

void
fake_placer_finish (const char *unit, const char *result, const char *error_name)
{
  FakeStart *s = g_hash_table_lookup (fake.pending, unit);
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autofree char *name = g_strdup (unit);

  g_assert_nonnull (s);
  if (g_str_equal (result, "done"))
    {
      for (guint i = 0; i < s->pids->len; i++)
        proc_move (g_array_index (s->pids, pid_t, i), s->cgroup);
      fake_unit_add (unit, s->cgroup);
    }
  if (error_name)
    sd_bus_error_set_const (&error, error_name, "refused by the fake systemd");
  g_hash_table_remove (fake.pending, unit);
  fake.on_started (name, result, error_name ? &error : NULL, fake.placer_data);
}

int
ttg_placer_attach (TtgPlacer *p, const char *unit, const pid_t *pids, guint n_pids)
{
  FakeUnit *u = g_hash_table_lookup (fake.units, unit);

  record ("attach", unit, 0, n_pids);
  if (!u)
    return -ENOENT;
  for (guint i = 0; i < n_pids; i++)
    proc_move (pids[i], u->cgroup);
  return 0;
}

int
ttg_placer_move_back (TtgPlacer *p, const char *session_scope, const char *session_cgroup,
                      const char *from_cgroup)
{
  g_autoptr(GArray) pids = ttg_procfs_cgroup_pids (from_cgroup);

  record ("move-back", session_scope, 0, pids->len);
  for (guint i = 0; i < pids->len; i++)
    proc_move (g_array_index (pids, pid_t, i), session_cgroup);
  return (int) pids->len;
}

int
ttg_placer_stop_if_empty (TtgPlacer *p, const char *unit, const char *cgroup)
{
  if (fake_cgroup_count (cgroup) > 0)
    return 0;
  record ("stop", unit, 0, 0);
  return 1;
}

int
ttg_placer_list_units (TtgPlacer *p, const char *pattern, GPtrArray **units)
{
  GHashTableIter it;
  const char *name;

  if (fake.list_fails)
    return -ETIMEDOUT;
  *units = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&it, fake.units);
  while (g_hash_table_iter_next (&it, (gpointer *) &name, NULL))
    if (fnmatch (pattern, name, 0) == 0)
      g_ptr_array_add (*units, g_strdup (name));
  return 0;
}

int
ttg_placer_get_control_group (TtgPlacer *p, const char *unit, char **cgroup)
{
  FakeUnit *u = g_hash_table_lookup (fake.units, unit);

  if (!u)
    return -ENOENT;
  *cgroup = g_strdup (u->cgroup);
  return 0;
}

GPtrArray *
fake_placer_calls (void)
{
  return fake.calls;
}

void
fake_placer_clear_calls (void)
{
  g_ptr_array_set_size (fake.calls, 0);
}

guint
fake_placer_count (const char *op, const char *unit)
{
  guint n = 0;

  for (guint i = 0; i < fake.calls->len; i++)
    {
      FakeCall *c = fake.calls->pdata[i];

      if (g_str_equal (c->op, op) && (!unit || g_str_equal (c->unit, unit)))
        n++;
    }
  return n;
}

guint64
fake_placer_weight (const char *unit)
{
  for (guint i = fake.calls->len; i > 0; i--)
    {
      FakeCall *c = fake.calls->pdata[i - 1];

      if (g_str_equal (c->unit, unit) && (g_str_equal (c->op, "weight") || g_str_equal (c->op, "start")))
        return c->weight;
    }
  return 0;
}

void
fake_unit_add (const char *unit, const char *cgroup)
{
  FakeUnit *u = g_new0 (FakeUnit, 1);

  u->cgroup = g_strdup (cgroup);
  u->active = TRUE;
  g_hash_table_replace (fake.units, g_strdup (unit), u);
}

void
fake_unit_remove (const char *unit)
{
  g_autofree char *name = g_strdup (unit);

  g_hash_table_remove (fake.units, name);
  if (fake.on_removed)
    fake.on_removed (name, fake.placer_data);
}

void
fake_unit_forget (const char *unit)
{
  g_hash_table_remove (fake.units, unit);
}

void
fake_unit_removed_signal (const char *unit)
{
  if (fake.on_removed)
    fake.on_removed (unit, fake.placer_data);
}

gboolean
fake_unit_exists (const char *unit)
{
  return g_hash_table_contains (fake.units, unit);
}

void
fake_placer_set_list_fails (gboolean fails)
{
  fake.list_fails = fails;
}

/* ---- logind ------------------------------------------------------------- */

struct TtgLogind {
  int unused;
};

TtgSession *
fake_session_add (const char *id, uid_t uid, const char *type, const char *tty)
{
  TtgSession *s = ttg_session_new (id);

  s->uid = uid;
  s->klass = g_strdup ("user");
  s->type = g_strdup (type);
  s->state = g_strdup ("active");
  s->seat = g_strdup ("seat0");
  s->tty = g_strdup (tty);
  s->service = g_strdup ("login");
  s->active = TRUE;
  s->is_display = TRUE;
  s->cgroup = g_strdup_printf ("/user.slice/user-%u.slice/session-%s.scope", (unsigned) uid, id);
  g_hash_table_replace (fake.sessions, s->id, s);
  return s;
}

void
fake_session_remove (const char *id)
{
  g_hash_table_remove (fake.sessions, id);
}

void
fake_logind_changed (void)
{
  fake.on_changed (fake.logind_data);
}

TtgLogind *
ttg_logind_new (sd_event *event, sd_bus *bus, TtgLogindChangedFunc on_changed,
                gpointer user_data, GError **error)
{
  fake.on_changed = on_changed;
  fake.logind_data = user_data;
  return g_new0 (TtgLogind, 1);
}

void
ttg_logind_free (TtgLogind *l)
{
  g_free (l);
}

static TtgSession *
session_copy (const TtgSession *s)
{
  TtgSession *c = g_new0 (TtgSession, 1);

  *c = *s;
  c->id = g_strdup (s->id);
  c->klass = g_strdup (s->klass);
  c->type = g_strdup (s->type);
  c->state = g_strdup (s->state);
  c->seat = g_strdup (s->seat);
  c->tty = g_strdup (s->tty);
  c->service = g_strdup (s->service);
  c->cgroup = g_strdup (s->cgroup);
  return c;
}

GHashTable *
ttg_logind_read_sessions (TtgLogind *l, GError **error)
{
  GHashTable *out = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ttg_session_free);
  GHashTableIter it;
  TtgSession *s;

  g_hash_table_iter_init (&it, fake.sessions);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &s))
    {
      TtgSession *c = session_copy (s);

      g_hash_table_insert (out, c->id, c);
    }
  return out;
}

/* ---- proc connector ------------------------------------------------------ */

struct TtgProcmon {
  int unused;
};

TtgProcmon *
ttg_procmon_new (sd_event *event, TtgProcmonEventFunc on_event, TtgProcmonLostFunc on_lost,
                 gpointer user_data, GError **error)
{
  fake.on_event = on_event;
  fake.on_lost = on_lost;
  fake.procmon_data = user_data;
  return g_new0 (TtgProcmon, 1);
}

void
ttg_procmon_free (TtgProcmon *pm)
{
  g_free (pm);
}

guint64
ttg_procmon_get_event_count (TtgProcmon *pm)
{
  return fake.events;
}

guint64
ttg_procmon_get_lost_count (TtgProcmon *pm)
{
  return 0;
}

void
fake_proc_event (TtgProcEventKind kind, pid_t pid)
{
  TtgProcEvent ev = { .kind = kind, .pid = pid };

  fake.events++;
  fake.on_event (&ev, fake.procmon_data);
}

void
fake_proc_events_lost (void)
{
  fake.on_lost (fake.procmon_data);
}
