/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Can cpu.weight act on this machine? Pure: the text of a few files of
 * /proc, /sys/fs/cgroup and /sys/kernel/sched_ext in, a verdict out. The
 * files are read by ttg_cpu_input_read() (below; cpuwatch.c re-reads them). */

/* Texts longer than this are not the files meant, and are not parsed. */
#define TTG_CPUCHECK_TEXT_MAX (256 * 1024)

typedef enum {
  TTG_CGROUP_MOUNT_UNKNOWN, /* no mount table to read */
  TTG_CGROUP_MOUNT_UNIFIED, /* cgroup2 at /sys/fs/cgroup */
  TTG_CGROUP_MOUNT_HYBRID,  /* cgroup v1 at /sys/fs/cgroup/<controller>, cgroup2 beside it */
  TTG_CGROUP_MOUNT_LEGACY,  /* cgroup v1 only */
  TTG_CGROUP_MOUNT_NONE,    /* no cgroup file system at all */
} TtgCgroupMount;

/* "unified", "hybrid", ... for the journal and the tests. */
const char *ttg_cgroup_mount_to_string (TtgCgroupMount mount);

/* What the mount table (/proc/self/mountinfo) says of cgroups: the layout,
 * and where a cgroup v1 hierarchy holds the cpu controller (*cpu_v1_at,
 * the mount point, owned; NULL when none does). */
TtgCgroupMount ttg_cgroup_mount_parse (const char *mountinfo, char **cpu_v1_at);

/* Whether the whitespace-separated list (cgroup.controllers,
 * cgroup.subtree_control) holds controller. NULL holds nothing. */
gboolean ttg_controller_list_has (const char *list, const char *controller);

/* Whether the kernel command line turns the cpu controller off:
 * cgroup_disable=cpu (a comma-separated list), or cgroup_no_v1 does not
 * matter here. */
gboolean ttg_cmdline_disables_cpu (const char *cmdline);

/* One cgroup on the path from the root to a user's slice. */
typedef struct {
  char *path;             /* "/", "/user.slice", "/user.slice/user-1000.slice" */
  char *controllers;      /* its cgroup.controllers; NULL when it could not be read */
  char *subtree_control;  /* its cgroup.subtree_control; NULL when it could not be read */
} TtgCgroupLevel;

/* What the decision looks at. Every text may be NULL (file absent). */
typedef struct {
  char *mountinfo;        /* /proc/self/mountinfo */
  char *cmdline;          /* /proc/cmdline */
  GArray *levels;         /* TtgCgroupLevel: the root first, then /user.slice, then
                           * each /user.slice/user-UID.slice there is; a level's
                           * parent is the root for /user.slice, /user.slice for
                           * the users' slices */
  char *sched_ext_state;  /* /sys/kernel/sched_ext/state */
  char *sched_ext_ops;    /* /sys/kernel/sched_ext/root/ops: the scheduler's name */
  gboolean check_path;    /* look at the levels below the root: FALSE while
                           * nothing asked systemd for a weight (systemd enables
                           * the controller along a path only for a unit with one) */
} TtgCpuInput;

void ttg_cpu_input_init (TtgCpuInput *in);
void ttg_cpu_input_clear (TtgCpuInput *in);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TtgCpuInput, ttg_cpu_input_clear)

/* Adds a level (the strings are copied). */
void ttg_cpu_input_add_level (TtgCpuInput *in, const char *path, const char *controllers,
                              const char *subtree_control);

/* Reads the files under root ("/" on the machine, a directory of sample
 * files in the tests): proc/self/mountinfo, proc/cmdline,
 * sys/fs/cgroup/{,user.slice/,user.slice/user-*.slice/}cgroup.controllers and
 * cgroup.subtree_control, sys/kernel/sched_ext/state and root/ops. A file
 * that is missing stays NULL. */
void ttg_cpu_input_read (TtgCpuInput *in, const char *root);

/* The decision: the limitations, one sentence each (owned strings), most
 * basic first; none when the weights can act. A cause named once is not
 * repeated for what follows from it (no cpu controller at the root: the
 * slices below are not named). */
GPtrArray *ttg_cpu_limitations (const TtgCpuInput *in);

/* Whether two lists of sentences are the same, in order. */
gboolean ttg_cpu_limitations_equal (GPtrArray *a, GPtrArray *b);

G_END_DECLS
