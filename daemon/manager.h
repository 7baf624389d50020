/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "groupinfo.h"
#include "limiter.h"
#include "policy.h"
#include "userpolicy.h"

G_BEGIN_DECLS

/* The centre of the daemon: keeps logind's sessions, the policies and the
 * verdict on each session, and turns events (logind changes, process
 * events, policy changes) into work for its rooms: the pty groups
 * (groups.h), the users' budgets (budgets.h), and explain.h. */
typedef struct TtgManager TtgManager;

TtgManager *ttg_manager_new (sd_event *event, sd_bus *bus, const TtgPolicy *policy, GError **error);
void ttg_manager_free (TtgManager *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgManager, ttg_manager_free)

/* Adopts the groups a previous instance made, reads the sessions, applies the
 * policy and places every pty that is already there. */
gboolean ttg_manager_start (TtgManager *m, GError **error);

/* Applies a new policy: weights change, groups form or dissolve. */
void ttg_manager_set_policy (TtgManager *m, const TtgPolicy *policy);

/* The per-user limits on terminal groups (ttygroup.conf [Limits]): for the
 * next terminal; terminals held back by the old ones are tried again. */
void ttg_manager_set_limits (TtgManager *m, const TtgLimits *limits);
const TtgPolicy *ttg_manager_get_policy (TtgManager *m);

/* Replaces what uid asked for its own sessions (SetUserPolicy; already
 * validated against the system policy) and applies it. */
void ttg_manager_set_user_policy (TtgManager *m, uid_t uid, const TtgUserPolicy *asked);
/* NULL when the user asked for nothing. */
const TtgUserPolicy *ttg_manager_get_user_policy (TtgManager *m, uid_t uid);

/* Whether CPU weights can act on this machine, and if not, why
 * (*limitations: sentences, NULL-terminated, empty when they can; valid
 * until the next check, cpuwatch.h). */
gboolean ttg_manager_cpu_effective (TtgManager *m, const char *const **limitations);

/* What the service counted since it started. */
typedef struct {
  guint64 process_events;     /* from the proc connector */
  guint64 lost_events;        /* times events were lost (socket overflow) */
  guint64 placements;         /* terminal groups placed */
  guint64 placement_failures; /* starts systemd refused or failed */
} TtgManagerCounters;

void ttg_manager_get_counters (TtgManager *m, TtgManagerCounters *out);

/* Who wants to hear about changes (the D-Bus API). Any member may be NULL. */
typedef struct {
  void (*group_added) (const char *unit, const char *session_id, const char *tty, gpointer user_data);
  void (*group_removed) (const char *unit, gpointer user_data);
  void (*group_changed) (const char *unit, guint64 weight, gpointer user_data);
  /* ttg_manager_cpu_effective() changed */
  void (*cpu_changed) (gpointer user_data);
} TtgManagerListener;

void ttg_manager_set_listener (TtgManager *m, const TtgManagerListener *listener, gpointer user_data);

/* Every session and every active terminal group (TtgGroupInfo, owned). */
GPtrArray *ttg_manager_list_groups (TtgManager *m);

/* Where a process is and why (explain.h). */
/* FALSE when the process does not exist (TTG_ERROR_NO_SUCH_PROCESS). */
gboolean ttg_manager_explain_pid (TtgManager *m, pid_t pid, TtgPidInfo *out, GError **error);

guint ttg_manager_count_sessions (TtgManager *m);
guint ttg_manager_count_groups (TtgManager *m);

/* One line for `systemctl status`. */
char *ttg_manager_status_line (TtgManager *m);

G_END_DECLS
