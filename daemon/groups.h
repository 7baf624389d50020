/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <systemd/sd-event.h>

#include "placer.h"

G_BEGIN_DECLS

/* The pty groups this service has, and their life in systemd: started
 * (StartTransientUnit), swept (late children moved in), dissolved
 * (processes back in the session scope), adopted (a scope of an earlier
 * run, or one PID 1 started after the call timed out), forgotten once
 * systemd confirms the unit is gone (not on the UnitRemoved burst of a
 * daemon-reexec), and collected when a scope ran empty unnoticed. What
 * a group is wanted for and its weight are decided by the caller. */
typedef struct TtgGroups TtgGroups;

typedef enum {
  TTG_GROUP_STARTING,  /* StartTransientUnit sent, job not finished */
  TTG_GROUP_ACTIVE,
  TTG_GROUP_DISSOLVED, /* processes moved back; waiting for systemd to collect it */
} TtgGroupState;

/* One group; read-only outside groups.c. */
typedef struct {
  char *unit;
  char *session_id;
  uid_t uid;            /* the session's user; (uid_t) -1 when not known yet (adopted) */
  pid_t leader;
  guint pts;
  char *comm;
  char *cgroup;         /* the scope's cgroup path */
  char *session_cgroup; /* the session scope's cgroup path: where processes go back */
  char *source_cgroup;  /* where the leader was found: the session scope, or the
                         * group of the terminal it was opened from */
  guint64 weight;       /* applied; 0 when not known (adopted, not judged yet) */
  char *rule;           /* why the terminal has a group, in words (NULL if adopted) */
  TtgGroupState state;
  gint64 started_usec;  /* CLOCK_MONOTONIC when the leader was seen */
} TtgGroup;

/* What the table tells its owner. Every member must be set. */
typedef struct {
  /* A scope job finished: g is in place. */
  void (*placed) (const TtgGroup *g, gpointer user_data);
  /* systemd refused a start or its job failed (not: the unit still
   * existed, or the process was gone: those are retried as they are). */
  void (*start_failed) (const char *unit, gpointer user_data);
  /* g was taken over after the start-up (an orphan, or a leader found in
   * its scope): it wants its weight (ttg_groups_set_weight). */
  void (*adopted) (TtgGroup *g, gpointer user_data);
  /* unit of uid is gone from the table: a place under uid's cap is free. */
  void (*removed) (const char *unit, uid_t uid, gpointer user_data);
  /* Places under caps were freed by stopping empty scopes. */
  void (*places_freed) (gpointer user_data);
  /* Every process should be looked at again, in delay_usec. */
  void (*rescan) (guint64 delay_usec, gpointer user_data);
} TtgGroupsListener;

/* The placer's job handlers become the table's. */
TtgGroups *ttg_groups_new (sd_event *event, TtgPlacer *placer, const TtgGroupsListener *listener,
                           gpointer user_data);
void ttg_groups_free (TtgGroups *gs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgGroups, ttg_groups_free)

TtgGroup *ttg_groups_lookup (TtgGroups *gs, const char *unit);
/* Starting or active: a start would be a duplicate. */
gboolean ttg_groups_is_live (TtgGroups *gs, const char *unit);
/* Is pid the leader of a starting or active group? */
gboolean ttg_groups_leads (TtgGroups *gs, pid_t pid);
/* Starting or active groups of uid: what counts under its cap. */
guint ttg_groups_count_live (TtgGroups *gs, uid_t uid);
guint ttg_groups_count_active (TtgGroups *gs);
/* Every group, by unit name (TtgGroup, not owned; valid until the table changes). */
GPtrArray *ttg_groups_sorted (TtgGroups *gs);

/* What a new group is: the terminal led by leader on pts/<pts>, found in
 * source_cgroup, of session_id and uid, with its weight and the rule that
 * wanted it, both decided by the caller. */
typedef struct {
  const char *session_id;
  uid_t uid;
  pid_t leader;
  const char *comm;
  guint pts;
  const char *source_cgroup;
  guint64 weight;
  const char *rule;
} TtgGroupStart;

/* Asks systemd for the group's scope with the processes of the leader's
 * kernel session found in source_cgroup (none: nothing is done). A
 * dissolved group of the same unit is forgotten first. */
void ttg_groups_start (TtgGroups *gs, const TtgGroupStart *start);

/* Moves g's processes back into its session scope (g dissolved), or says
 * why they stay. why follows "because". */
void ttg_groups_dissolve (TtgGroups *gs, TtgGroup *g, const char *why);

/* A new weight on g's scope (logged, SetUnitProperties). */
void ttg_groups_set_weight (TtgGroups *gs, TtgGroup *g, guint64 weight);

/* Takes over unit, an active pty scope of this service: check_active asks
 * systemd first whether it is active. NULL if not active or not such a
 * scope. why is logged. */
TtgGroup *ttg_groups_adopt (TtgGroups *gs, const char *unit, gboolean check_active, const char *why);
/* g's session is known now: it counts toward uid's cap. */
void ttg_groups_set_owner (TtgGroups *gs, TtgGroup *g, uid_t uid);
/* Takes over every pty scope systemd has (at start-up). */
void ttg_groups_adopt_all (TtgGroups *gs);

/* Before a full scan: drops the start backoff of leaders that are gone,
 * and asks systemd again about units whose removal it could not confirm. */
void ttg_groups_tidy (TtgGroups *gs);
/* After a full scan: moves late children into every active group whose
 * leader is still inside it, and looks for empty scopes soon. */
void ttg_groups_sweep_all (TtgGroups *gs);

/* The leader of a group exited: its scope is looked at later. */
void ttg_groups_leader_exited (TtgGroups *gs);

/* The timers' work, callable directly (the host tests do). */
void ttg_groups_collect_empty (TtgGroups *gs);
void ttg_groups_check_orphans (TtgGroups *gs);

/* How long after a leader's exit an empty scope is looked for, and after a
 * timed-out start the scopes PID 1 may have started anyway. */
#define TTG_GROUPS_COLLECT_DELAY_USEC (5 * G_USEC_PER_SEC)
#define TTG_GROUPS_ORPHAN_CHECK_DELAY_USEC (10 * G_USEC_PER_SEC)

G_END_DECLS
