/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cpucheck.h"

#include <string.h>

/* /sys/fs/cgroup/cgroup.controllers of a Debian 12 host, as read. */
#define CONTROLLERS_DEBIAN "cpuset cpu io memory hugetlb pids rdma misc\n"

typedef struct {
  const char *controllers;
  const char *sched_ext;
} Machine;

static void
assert_usable (const Machine *m)
{
  const char *why = "untouched";

  g_test_message ("controllers \"%s\", sched_ext \"%s\"",
                  m->controllers ? m->controllers : "(none)",
                  m->sched_ext ? m->sched_ext : "(none)");
  g_assert_true (ttg_cpu_weights_usable (m->controllers, m->sched_ext, &why));
  g_assert_null (why);
  g_assert_true (ttg_cpu_weights_usable (m->controllers, m->sched_ext, NULL));
}

/* Not usable, and the reason contains needle. */
static void
assert_unusable (const Machine *m, const char *needle)
{
  const char *why = NULL;

  g_test_message ("controllers \"%s\", sched_ext \"%s\"",
                  m->controllers ? m->controllers : "(none)",
                  m->sched_ext ? m->sched_ext : "(none)");
  g_assert_false (ttg_cpu_weights_usable (m->controllers, m->sched_ext, &why));
  g_assert_nonnull (why);
  if (!strstr (why, needle))
    g_error ("reason \"%s\" does not mention \"%s\"", why, needle);
  g_assert_false (ttg_cpu_weights_usable (m->controllers, m->sched_ext, NULL));
}

static void
test_v2_with_cpu (void)
{
  static const Machine machines[] = {
    { CONTROLLERS_DEBIAN, NULL },
    { "cpu", NULL },
    { "cpu\n", NULL },
    { "cpuset cpu io", NULL },        /* cpu not first */
    { "io memory pids cpu\n", NULL }, /* last, before the newline */
    { "cpuset\tcpu\tio", NULL },
    { "cpuacct cpu", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (machines); i++)
    assert_usable (&machines[i]);
}

static void
test_no_v2 (void)
{
  /* No cgroup.controllers at the root: cgroup v1 or the hybrid layout. */
  assert_unusable (&(Machine) { NULL, NULL }, "cgroup v2");
  assert_unusable (&(Machine) { NULL, "disabled\n" }, "cgroup v2");
  /* The first thing to fix is named first. */
  assert_unusable (&(Machine) { NULL, "enabled\n" }, "cgroup v2");
}

static void
test_no_cpu_controller (void)
{
  static const Machine machines[] = {
    { "cpuset io memory pids", NULL },
    { "cpuset io memory pids\n", NULL },
    { "", NULL },
    { "\n", NULL },
    { "cpuacct", NULL }, /* the v1 accounting controller is not cpu */
    { "cpuset cpuacct io", NULL },
    { "cpus io", NULL },
    { "CPU io", NULL },
    { "cpu,cpuacct io", NULL }, /* v1 mount option syntax, not a controller list */
    { "cpuset io memory pids", "enabled" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (machines); i++)
    assert_unusable (&machines[i], "cpu controller");
}

static void
test_sched_ext (void)
{
  assert_unusable (&(Machine) { CONTROLLERS_DEBIAN, "enabled\n" }, "sched_ext");
  assert_unusable (&(Machine) { CONTROLLERS_DEBIAN, "enabled" }, "sched_ext");
  assert_unusable (&(Machine) { "cpu", "enabled\n" }, "sched_ext");

  assert_usable (&(Machine) { CONTROLLERS_DEBIAN, "disabled\n" });
  assert_usable (&(Machine) { CONTROLLERS_DEBIAN, "disabled" });
}

static void
test_why_optional (void)
{
  g_assert_true (ttg_cpu_weights_usable (CONTROLLERS_DEBIAN, NULL, NULL));
  g_assert_false (ttg_cpu_weights_usable (NULL, NULL, NULL));
  g_assert_false (ttg_cpu_weights_usable ("io", NULL, NULL));
  g_assert_false (ttg_cpu_weights_usable (CONTROLLERS_DEBIAN, "enabled\n", NULL));
}

static void
test_why_is_reset (void)
{
  const char *why = NULL;

  /* A reason from an earlier call does not survive a usable answer. */
  g_assert_false (ttg_cpu_weights_usable (NULL, NULL, &why));
  g_assert_nonnull (why);
  g_assert_true (ttg_cpu_weights_usable (CONTROLLERS_DEBIAN, "disabled\n", &why));
  g_assert_null (why);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cpucheck/v2-with-cpu", test_v2_with_cpu);
  g_test_add_func ("/cpucheck/no-v2", test_no_v2);
  g_test_add_func ("/cpucheck/no-cpu-controller", test_no_cpu_controller);
  g_test_add_func ("/cpucheck/sched-ext", test_sched_ext);
  g_test_add_func ("/cpucheck/why/optional", test_why_optional);
  g_test_add_func ("/cpucheck/why/reset", test_why_is_reset);

  return g_test_run ();
}
