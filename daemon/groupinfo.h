/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The views of the groups that the D-Bus API shows (ListGroups,
 * ListGroupStats, GetGroupForPid) and that the sampler reads figures for. */

/* One group. */
typedef struct {
  char *unit;
  char *cgroup;     /* its cgroup path, NULL when not known (figures are then -1) */
  char *session_id;
  uid_t uid;
  const char *kind; /* "session" or "terminal" */
  char *tty;        /* "pts/3", "tty5" or "" */
  pid_t leader;     /* terminal groups; 0 for sessions */
  guint64 weight;   /* 0: none set by the service */
  char *description;
} TtgGroupInfo;

void ttg_group_info_free (TtgGroupInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgGroupInfo, ttg_group_info_free)

/* Where a process is and why. Strings owned. */
typedef struct {
  char *unit;
  char *cgroup;
  char *session_id; /* "" if none */
  const char *kind; /* "terminal", "session" or "none" */
  char *tty;
  guint64 weight;
  char *rule;       /* a sentence */
} TtgPidInfo;

void ttg_pid_info_clear (TtgPidInfo *info);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TtgPidInfo, ttg_pid_info_clear)

G_END_DECLS
