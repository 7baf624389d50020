/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "procstat.h"

G_BEGIN_DECLS

/* What the kernel says about processes, read where the decisions need it:
 * /proc/PID/stat, /proc/PID/cgroup, the pids of /proc and of a cgroup's
 * cgroup.procs, whether a cgroup is there. Every read of those by the manager's rooms goes through
 * here (the host tests link a fake of these functions). Nothing blocks but
 * on procfs and cgroupfs; a process that is gone reads as FALSE or NULL. */

/* /proc/PID/stat parsed. */
gboolean ttg_procfs_read_stat (pid_t pid, TtgProcStat *st);

/* The process's cgroup v2 path ("/user.slice/..."), or NULL. */
char *ttg_procfs_read_cgroup (pid_t pid);

/* Does the process exist (a zombie does)? */
gboolean ttg_procfs_pid_exists (pid_t pid);

/* Every pid in /proc; NULL if /proc cannot be read. */
GArray *ttg_procfs_list_pids (void);

/* Is the cgroup gone from cgroupfs (ENOENT)? FALSE when it is there or
 * cannot be told. */
gboolean ttg_procfs_cgroup_gone (const char *cgroup);

/* The pids of a cgroup (its cgroup.procs); NULL if unreadable. */
GArray *ttg_procfs_cgroup_pids (const char *cgroup);

G_END_DECLS
