/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Fakes of the daemon's I/O edges (procfs.h, placer.h, logind.h,
 * procmon.h), linked instead of them by the host tests of the manager and
 * its rooms: a process table, a systemd that keeps units and moves
 * processes as told, and a logind whose sessions the test sets. */

#include <glib.h>
#include <sys/types.h>

#include "model.h"
#include "procevent.h"

G_BEGIN_DECLS

#define FAKE_TTY_PTS(n) (34816u + (n)) /* major 136 */

/* Forgets every process, unit, session and call. */
void fake_reset (void);

/* ---- processes ---- */
void fake_proc_add (pid_t pid, pid_t ppid, pid_t session, guint tty_nr, const char *comm, const char *cgroup);
void fake_proc_exit (pid_t pid);
const char *fake_proc_cgroup (pid_t pid);
/* Pids in cgroup. */
guint fake_cgroup_count (const char *cgroup);

/* ---- systemd ---- */
typedef struct {
  char *op;     /* "start", "weight", "attach", "move-back", "stop" */
  char *unit;
  guint64 weight;
  guint n_pids;
} FakeCall;

/* Every call the placer got, in order (FakeCall). */
GPtrArray *fake_placer_calls (void);
void fake_placer_clear_calls (void);
/* How many calls of op on unit (NULL: any unit). */
guint fake_placer_count (const char *op, const char *unit);
/* The last weight set on unit (SetUnitProperties or the start); 0 if none. */
guint64 fake_placer_weight (const char *unit);
/* Finishes the pending start of unit: result "done" moves its processes
 * into the unit's cgroup and makes it an active unit; error_name (with
 * result "refused") fails the call itself. */
void fake_placer_finish (const char *unit, const char *result, const char *error_name);
/* The job of unit fails after systemd moved the first n_moved of its
 * processes into the unit's cgroup (which stays, the unit does not). */
void fake_placer_fail_after_moving (const char *unit, guint n_moved);
/* A unit systemd has, with its cgroup (as after an earlier run). */
void fake_unit_add (const char *unit, const char *cgroup);
/* systemd drops unit and says so (UnitRemoved). */
void fake_unit_remove (const char *unit);
/* systemd drops unit without a word (the signal was missed). */
void fake_unit_forget (const char *unit);
/* UnitRemoved for unit while systemd still has it (daemon-reexec). */
void fake_unit_removed_signal (const char *unit);
gboolean fake_unit_exists (const char *unit);
/* While TRUE, ListUnitsByPatterns fails (PID 1 cannot answer). */
void fake_placer_set_list_fails (gboolean fails);

/* ---- logind ---- */
/* A session of uid: type ("tty", "x11", ...), tty ("pts/0" or NULL);
 * class user, active, the user's display session unless changed. The
 * returned session may be changed until the next logind read. */
TtgSession *fake_session_add (const char *id, uid_t uid, const char *type, const char *tty);
void fake_session_remove (const char *id);
/* logind says something changed (the manager re-reads at once). */
void fake_logind_changed (void);

/* ---- proc connector ---- */
void fake_proc_event (TtgProcEventKind kind, pid_t pid);
void fake_proc_events_lost (void);

G_END_DECLS
