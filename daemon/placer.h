/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>

G_BEGIN_DECLS

/* Realises groups through systemd: unit properties, transient scopes, and
 * (only to move processes back into a session scope, which systemd 252
 * refuses to do) cgroup.procs. Nothing else writes cgroupfs.
 *
 * Errors: the constructor sets a GError, as every constructor here; every
 * call returns 0 (or a count) on success and -errno on failure, the bus
 * error's text going to the debug log. Calls marked "blocks" wait for PID 1's
 * reply (sd_bus_call); the others send and return, and their outcome comes
 * through the handlers or the log. */
typedef struct TtgPlacer TtgPlacer;

/* A scope job finished: result is systemd's ("done", "failed", ...), or
 * "refused" with error set when StartTransientUnit itself failed. */
typedef void (*TtgPlacerStartedFunc) (const char *unit, const char *result,
                                     const sd_bus_error *error, gpointer user_data);
typedef void (*TtgPlacerRemovedFunc) (const char *unit, gpointer user_data);

/* Subscribes to systemd's job and unit signals (blocks, once). */
TtgPlacer *ttg_placer_new (sd_bus *bus, GError **error);
/* Who hears of finished scope jobs and removed ttygroup-* units. */
void ttg_placer_set_handlers (TtgPlacer *p, TtgPlacerStartedFunc on_started,
                              TtgPlacerRemovedFunc on_removed, gpointer user_data);
void ttg_placer_free (TtgPlacer *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgPlacer, ttg_placer_free)

/* SetUnitProperties(unit, runtime=true, CPUWeight=weight); does not block.
 * TTG_WEIGHT_UNSET resets the property. Failures are logged. */
void ttg_placer_set_weight (TtgPlacer *p, const char *unit, guint64 weight);

/* StartTransientUnit of a pty scope in slice, part of and after
 * session_scope, with the pids; does not block. on_started tells the
 * outcome. 0 or -errno (the call could not be sent). */
int ttg_placer_start_scope (TtgPlacer *p, const char *unit, const char *description,
                            const char *slice, const char *session_scope, guint64 weight,
                            const pid_t *pids, guint n_pids);

/* Moves pids into a scope this service started (AttachProcessesToUnit; the
 * scopes are delegated so systemd allows it). Blocks. 0 or -errno. */
int ttg_placer_attach (TtgPlacer *p, const char *unit, const pid_t *pids, guint n_pids);

/* Moves every process of from_cgroup back into session_scope (whose cgroup is
 * session_cgroup), until from_cgroup is empty (blocks): AttachProcessesToUnit first,
 * cgroup.procs where systemd refuses. Returns how many processes were moved,
 * or -errno when some could not be (they stay where they are). */
int ttg_placer_move_back (TtgPlacer *p, const char *session_scope, const char *session_cgroup,
                          const char *from_cgroup);

/* Stops unit, a scope of this service whose cgroup is cgroup, only if no
 * process is in it (cgroup.events says "populated 0"): stopping it then
 * signals nobody. Nothing but systemd and this service moves processes
 * into these scopes, so it stays empty until systemd has stopped it.
 * Returns 1 when the stop was asked (it does not block; when systemd no longer
 * knows the unit, on_removed is called as for UnitRemoved), 0 when
 * processes are in it (nothing done), -errno when its cgroup cannot be read. */
int ttg_placer_stop_if_empty (TtgPlacer *p, const char *unit, const char *cgroup);

/* Names of the loaded, active units matching pattern (e.g.
 * "ttygroup-pty-*.scope") into *units (owned). Blocks. 0 or -errno. */
int ttg_placer_list_units (TtgPlacer *p, const char *pattern, GPtrArray **units);

/* The unit's ControlGroup into *cgroup (owned). Blocks. 0, or -errno
 * (-ENOENT: systemd has no cgroup for it). */
int ttg_placer_get_control_group (TtgPlacer *p, const char *unit, char **cgroup);

G_END_DECLS
