/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpuwatch: the verdict of cpucheck kept up to date over a sample tree;
 * the callback (PropertiesChanged of Effective and Limitations) comes once
 * per change, never for a check that finds the same. */
#include "cpuwatch.h"

#include "sampletree.h"
#include "util.h"

#define MOUNTS_UNIFIED \
  "26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"

typedef struct {
  char *root;
  guint changes;
} Fixture;

static void
put (Fixture *f, const char *rel, const char *text)
{
  sample_tree_put (f->root, rel, text);
}

static void
gone (Fixture *f, const char *rel)
{
  g_autofree char *path = g_build_filename (f->root, rel, NULL);

  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
setup (Fixture *f, gconstpointer data)
{
  f->root = g_dir_make_tmp ("ttg-cpuwatch-XXXXXX", NULL);
  f->changes = 0;
  put (f, "proc/self/mountinfo", MOUNTS_UNIFIED);
  put (f, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  put (f, "sys/fs/cgroup/user.slice/cgroup.controllers", "cpu memory pids\n");
  put (f, "sys/fs/cgroup/user.slice/cgroup.subtree_control", "memory pids\n");
  put (f, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "memory pids\n");
  put (f, "sys/kernel/sched_ext/state", "disabled\n");
}

static void
teardown (Fixture *f, gconstpointer data)
{
  sample_tree_remove (f->root);
  g_free (f->root);
}

static void
on_changed (gpointer user_data)
{
  Fixture *f = user_data;

  f->changes++;
}

static void
test_changes_told_once (Fixture *f, gconstpointer data)
{
  g_autoptr(TtgCpuWatch) w = ttg_cpu_watch_new (NULL, f->root, on_changed, f);

  /* The first verdict is not a change. The users' slices lack cpu, but
   * nothing asked for a weight yet: not looked at. */
  g_assert_true (ttg_cpu_watch_effective (w));
  g_assert_cmpstr (ttg_cpu_watch_limitations (w)[0], ==, NULL);
  g_assert_cmpuint (f->changes, ==, 0);
  g_assert_false (ttg_cpu_watch_check_now (w));
  g_assert_cmpuint (f->changes, ==, 0);

  /* Weights asked (without a loop the recheck is at once): now the slice counts. */
  ttg_cpu_watch_recheck (w, TRUE);
  g_assert_false (ttg_cpu_watch_effective (w));
  g_assert_cmpuint (f->changes, ==, 1);
  g_assert_cmpstr (ttg_cpu_watch_limitations (w)[0], ==,
                   "the cpu controller is not enabled for /user.slice/user-1000.slice "
                   "(its parent's cgroup.subtree_control lacks cpu)");
  g_assert_null (ttg_cpu_watch_limitations (w)[1]);
  ttg_cpu_watch_recheck (w, TRUE);
  g_assert_cmpuint (f->changes, ==, 1); /* the same verdict: no call */

  /* systemd enabled it: effective again, told once */
  put (f, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "cpu memory pids\n");
  g_assert_true (ttg_cpu_watch_check_now (w));
  g_assert_true (ttg_cpu_watch_effective (w));
  g_assert_cmpuint (f->changes, ==, 2);
  g_assert_false (ttg_cpu_watch_check_now (w));

  /* a sched_ext scheduler comes, and goes */
  put (f, "sys/kernel/sched_ext/state", "enabled\n");
  put (f, "sys/kernel/sched_ext/root/ops", "rusty\n");
  g_assert_true (ttg_cpu_watch_check_now (w));
  g_assert_cmpstr (ttg_cpu_watch_limitations (w)[0], ==, "the sched_ext scheduler \"rusty\" is loaded: it ignores cpu.weight");
  /* another scheduler is another verdict */
  put (f, "sys/kernel/sched_ext/root/ops", "lavd\n");
  g_assert_true (ttg_cpu_watch_check_now (w));
  g_assert_cmpuint (f->changes, ==, 4);
  put (f, "sys/kernel/sched_ext/state", "disabled\n");
  gone (f, "sys/kernel/sched_ext/root/ops");
  g_assert_true (ttg_cpu_watch_check_now (w));
  g_assert_true (ttg_cpu_watch_effective (w));
  g_assert_cmpuint (f->changes, ==, 5);
}

static int
on_quit (sd_event_source *s, uint64_t usec, void *user_data)
{
  return sd_event_exit (sd_event_source_get_event (s), 0);
}

static void
test_recheck_on_the_loop (Fixture *f, gconstpointer data)
{
  g_autoptr(sd_event) event = NULL;
  g_autoptr(TtgCpuWatch) w = NULL;
  sd_event_source *quit = NULL;

  g_assert_cmpint (sd_event_new (&event), >=, 0);
  w = ttg_cpu_watch_new (event, f->root, on_changed, f);
  g_assert_true (ttg_cpu_watch_effective (w));

  /* A request checks again a moment later, on the loop, not at once. */
  put (f, "sys/fs/cgroup/cgroup.controllers", "cpuset io memory pids\n");
  ttg_cpu_watch_recheck (w, FALSE);
  ttg_cpu_watch_recheck (w, FALSE); /* one check for both */
  g_assert_cmpuint (f->changes, ==, 0);
  g_assert_cmpint (sd_event_add_time_relative (event, &quit, CLOCK_MONOTONIC,
                                               TTG_CPU_WATCH_SETTLE_USEC + G_USEC_PER_SEC, 0, on_quit, NULL), >=, 0);
  g_assert_cmpint (sd_event_loop (event), ==, 0);
  g_assert_cmpuint (f->changes, ==, 1);
  g_assert_false (ttg_cpu_watch_effective (w));
  g_assert_cmpstr (ttg_cpu_watch_limitations (w)[0], ==,
                   "the cpu controller is not available in cgroup v2: /sys/fs/cgroup/cgroup.controllers lacks cpu");
  sd_event_source_unref (quit);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/cpuwatch/changes-told-once", Fixture, NULL, setup, test_changes_told_once, teardown);
  g_test_add ("/cpuwatch/recheck-on-the-loop", Fixture, NULL, setup, test_recheck_on_the_loop, teardown);

  return g_test_run ();
}
