/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The fields of /proc/<pid>/stat that ttygroup needs. */
typedef struct {
  pid_t pid;
  char comm[64]; /* without the parentheses; may contain spaces and ')' */
  char state;
  pid_t ppid;
  pid_t pgrp;
  pid_t session; /* kernel session id (setsid) */
  guint32 tty_nr; /* controlling tty, kernel dev_t encoding; 0 = none */
} TtgProcStat;

/* Parses the text of /proc/<pid>/stat. comm is everything between the first
 * '(' and the LAST ')'. Malformed or truncated text: FALSE with an error. */
gboolean ttg_proc_stat_parse (const char *text, TtgProcStat *out, GError **error);

/* TRUE when tty_nr is a Unix98 pty slave (/dev/pts/N: majors 136..143);
 * *pts_index gets N. */
gboolean ttg_tty_nr_is_pts (guint32 tty_nr, guint *pts_index);

/* From the text of /proc/<pid>/cgroup, the cgroup v2 path (the "0::" line),
 * newly allocated, e.g. "/user.slice/user-1000.slice/session-3.scope".
 * NULL when there is no v2 line or the text is malformed. */
char *ttg_cgroup_v2_path_parse (const char *text);

/* The last component of a cgroup path ("session-3.scope"), newly allocated;
 * NULL for "/" or an empty path. */
char *ttg_cgroup_path_unit (const char *cgroup_path);

/* When the last component of cgroup_path is "session-<id>.scope" with a
 * valid session id, returns the id newly allocated, else NULL. */
char *ttg_cgroup_path_session_id (const char *cgroup_path);

/* From the text of a cgroup's cgroup.events ("populated 0\nfrozen 0\n"):
 * 1 when processes live in the cgroup or below it, 0 when none do, -1 when
 * the text has no well-formed "populated" line. */
int ttg_cgroup_events_populated (const char *text);

/* logind session ids are made of [A-Za-z0-9]; anything else (empty, too long
 * (> 64), other characters) is refused so it can go into unit names as is. */
gboolean ttg_session_id_is_valid (const char *id);

G_END_DECLS
