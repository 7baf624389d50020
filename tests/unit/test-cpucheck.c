/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Can cpu.weight act: the decision over sample trees of /proc, /sys/fs/cgroup
 * and /sys/kernel/sched_ext, written to a temporary directory and read back
 * the way the service reads the machine. */
#include "cpucheck.h"

#include <string.h>

#include "sampletree.h"

/* The cgroup lines of /proc/self/mountinfo of a Debian 12 machine (unified). */
#define MOUNTS_UNIFIED \
  "22 27 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n" \
  "26 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
/* systemd's hybrid layout: a tmpfs of v1 hierarchies, v2 under unified/. */
#define MOUNTS_HYBRID \
  "25 22 0:23 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n" \
  "26 25 0:24 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate\n" \
  "27 25 0:25 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd\n" \
  "31 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpu,cpuacct\n"
/* The legacy layout: v1 hierarchies only. */
#define MOUNTS_LEGACY \
  "25 22 0:23 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n" \
  "27 25 0:25 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd\n" \
  "31 25 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpu,cpuacct\n"

#define CONTROLLERS_DEBIAN "cpuset cpu io memory hugetlb pids rdma misc\n"
#define CONTROLLERS_NO_CPU "cpuset io memory hugetlb pids rdma misc\n"
#define CMDLINE "BOOT_IMAGE=/vmlinuz root=/dev/vda rw console=ttyS0 quiet\n"

typedef struct {
  char *root;
} Tree;

static void
put (Tree *t, const char *rel, const char *text)
{
  sample_tree_put (t->root, rel, text);
}

/* A machine whose weights can act: unified, cpu enabled down to the users'
 * slices, sched_ext there but off. */
static void
tree_setup (Tree *t, gconstpointer data)
{
  t->root = g_dir_make_tmp ("ttg-cpucheck-XXXXXX", NULL);
  g_assert_nonnull (t->root);
  put (t, "proc/self/mountinfo", MOUNTS_UNIFIED);
  put (t, "proc/cmdline", CMDLINE);
  put (t, "sys/fs/cgroup/cgroup.controllers", CONTROLLERS_DEBIAN);
  put (t, "sys/fs/cgroup/cgroup.subtree_control", "cpuset cpu io memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/cgroup.controllers", "cpuset cpu io memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/cgroup.subtree_control", "cpu memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "cpu memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.subtree_control", "cpu memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1001.slice/cgroup.controllers", "cpu memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1001.slice/cgroup.subtree_control", "cpu pids\n");
  /* not a user's slice: not looked at */
  put (t, "sys/fs/cgroup/user.slice/other.scope/cgroup.controllers", "pids\n");
  put (t, "sys/kernel/sched_ext/state", "disabled\n");
}

static void
tree_teardown (Tree *t, gconstpointer data)
{
  sample_tree_remove (t->root);
  g_free (t->root);
}

static GPtrArray *
decide (Tree *t, gboolean check_path)
{
  g_auto(TtgCpuInput) in;
  GPtrArray *out;

  ttg_cpu_input_init (&in);
  ttg_cpu_input_read (&in, t->root);
  in.check_path = check_path;
  out = ttg_cpu_limitations (&in);
  for (guint i = 0; i < out->len; i++)
    g_test_message ("limitation: %s", (const char *) out->pdata[i]);
  return out;
}

static void
assert_effective (Tree *t)
{
  g_autoptr(GPtrArray) out = decide (t, TRUE);

  g_assert_cmpuint (out->len, ==, 0);
}

/* Exactly the sentences given, in order. */
static void
assert_limitations (Tree *t, gboolean check_path, const char *const *expected)
{
  g_autoptr(GPtrArray) out = decide (t, check_path);

  g_assert_cmpuint (out->len, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i < out->len; i++)
    g_assert_cmpstr (out->pdata[i], ==, expected[i]);
}

static void
test_effective (Tree *t, gconstpointer data)
{
  assert_effective (t);
}

static void
test_no_sched_ext_in_kernel (Tree *t, gconstpointer data)
{
  g_autofree char *dir = g_build_filename (t->root, "sys/kernel/sched_ext/state", NULL);

  g_assert_cmpint (g_unlink (dir), ==, 0);
  assert_effective (t);
}

static void
test_sched_ext_enabled (Tree *t, gconstpointer data)
{
  put (t, "sys/kernel/sched_ext/state", "enabled\n");
  put (t, "sys/kernel/sched_ext/root/ops", "lavd\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the sched_ext scheduler \"lavd\" is loaded: it ignores cpu.weight", NULL });
}

static void
test_sched_ext_nameless (Tree *t, gconstpointer data)
{
  /* enabling: on its way in, no ops file yet */
  put (t, "sys/kernel/sched_ext/state", "enabling\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "a sched_ext scheduler is loaded (/sys/kernel/sched_ext/state: enabling): it ignores cpu.weight", NULL });
}

static void
test_sched_ext_odd_name (Tree *t, gconstpointer data)
{
  /* Quotes, control bytes and a second line do not reach the sentence. */
  put (t, "sys/kernel/sched_ext/state", "enabled");
  put (t, "sys/kernel/sched_ext/root/ops", "  a\"b\\c\td\nsecond line\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the sched_ext scheduler \"a?b?c?d\" is loaded: it ignores cpu.weight", NULL });
}

static void
test_sched_ext_disabled_again (Tree *t, gconstpointer data)
{
  /* the ops file of the last scheduler may stay readable */
  put (t, "sys/kernel/sched_ext/root/ops", "rusty\n");
  put (t, "sys/kernel/sched_ext/state", "disabled");
  assert_effective (t);
}

static void
test_legacy (Tree *t, gconstpointer data)
{
  g_autofree char *controllers = g_build_filename (t->root, "sys/fs/cgroup/cgroup.controllers", NULL);

  put (t, "proc/self/mountinfo", MOUNTS_LEGACY);
  g_assert_cmpint (g_unlink (controllers), ==, 0);
  /* the first thing to fix comes first */
  put (t, "sys/kernel/sched_ext/state", "enabled\n");
  put (t, "sys/kernel/sched_ext/root/ops", "lavd\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "cgroup v1 is mounted at /sys/fs/cgroup (the legacy layout): cpu.weight exists only in cgroup v2; "
    "boot with systemd.unified_cgroup_hierarchy=1",
    "the sched_ext scheduler \"lavd\" is loaded: it ignores cpu.weight", NULL });
}

static void
test_hybrid (Tree *t, gconstpointer data)
{
  put (t, "proc/self/mountinfo", MOUNTS_HYBRID);
  assert_limitations (t, TRUE, (const char *const[]) {
    "cgroup v1 and cgroup v2 are mounted side by side (the hybrid layout): the cpu controller is on "
    "cgroup v1, where cpu.weight does not exist; boot with systemd.unified_cgroup_hierarchy=1", NULL });
}

static void
test_no_mount_table (Tree *t, gconstpointer data)
{
  g_autofree char *mountinfo = g_build_filename (t->root, "proc/self/mountinfo", NULL);
  g_autofree char *controllers = g_build_filename (t->root, "sys/fs/cgroup/cgroup.controllers", NULL);

  g_assert_cmpint (g_unlink (mountinfo), ==, 0);
  /* the root's controllers decide alone */
  assert_effective (t);
  g_assert_cmpint (g_unlink (controllers), ==, 0);
  assert_limitations (t, TRUE, (const char *const[]) {
    "cgroup v2 is not mounted at /sys/fs/cgroup (it has no cgroup.controllers): cgroup v1 or the hybrid layout",
    NULL });
}

static void
test_no_cgroups_at_all (Tree *t, gconstpointer data)
{
  put (t, "proc/self/mountinfo", "22 27 0:21 / /sys rw shared:7 - sysfs sysfs rw\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "no cgroup v2 file system is mounted at /sys/fs/cgroup", NULL });
}

static void
test_cgroup_disable_cpu (Tree *t, gconstpointer data)
{
  /* What the test VM shows when booted with cgroup_disable=cpu: the root
   * lacks it, so do the slices, and only the root is named. */
  put (t, "proc/cmdline", "root=/dev/vda rw console=ttyS0 quiet cgroup_disable=cpu\n");
  put (t, "sys/fs/cgroup/cgroup.controllers", CONTROLLERS_NO_CPU);
  put (t, "sys/fs/cgroup/user.slice/cgroup.controllers", "memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "memory pids\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is disabled on the kernel command line (cgroup_disable=cpu): "
    "/sys/fs/cgroup/cgroup.controllers lacks cpu", NULL });
  /* also when the path is not looked at */
  assert_limitations (t, FALSE, (const char *const[]) {
    "the cpu controller is disabled on the kernel command line (cgroup_disable=cpu): "
    "/sys/fs/cgroup/cgroup.controllers lacks cpu", NULL });
}

static void
test_root_without_cpu (Tree *t, gconstpointer data)
{
  put (t, "sys/fs/cgroup/cgroup.controllers", CONTROLLERS_NO_CPU);
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is not available in cgroup v2: /sys/fs/cgroup/cgroup.controllers lacks cpu", NULL });
}

static void
test_cpu_bound_to_v1 (Tree *t, gconstpointer data)
{
  /* v2 at /sys/fs/cgroup, and a v1 hierarchy holding cpu mounted elsewhere */
  put (t, "proc/self/mountinfo", MOUNTS_UNIFIED
       "40 22 0:40 / /mnt/old\\040cpu rw,relatime shared:20 - cgroup cgroup rw,cpu\n");
  put (t, "sys/fs/cgroup/cgroup.controllers", CONTROLLERS_NO_CPU);
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is bound to a cgroup v1 hierarchy (mounted at /mnt/old cpu): "
    "cgroup v2's /sys/fs/cgroup/cgroup.controllers lacks cpu", NULL });
}

static void
test_odd_mount_point (Tree *t, gconstpointer data)
{
  /* mountinfo's octal escapes may make a newline or bytes that are not
   * UTF-8: the sentence (a D-Bus string) keeps one line of ASCII */
  put (t, "proc/self/mountinfo", MOUNTS_UNIFIED
       "40 22 0:40 / /mnt/a\\012b\\377\"c rw,relatime shared:20 - cgroup cgroup rw,cpu\n");
  put (t, "sys/fs/cgroup/cgroup.controllers", CONTROLLERS_NO_CPU);
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is bound to a cgroup v1 hierarchy (mounted at /mnt/a): "
    "cgroup v2's /sys/fs/cgroup/cgroup.controllers lacks cpu", NULL });
}

static void
test_user_slice_without_cpu (Tree *t, gconstpointer data)
{
  /* DisableControllers=cpu on user.slice, applied: the root does not enable
   * it for user.slice; neither slice below is named again. */
  put (t, "sys/fs/cgroup/user.slice/cgroup.controllers", "memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/cgroup.subtree_control", "memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "memory pids\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is not enabled for /user.slice (its parent's cgroup.subtree_control lacks cpu)",
    NULL });
  /* Until the service asked for a weight, a missing controller below the
   * root is systemd's laziness, not a fault. */
  assert_limitations (t, FALSE, (const char *const[]) { NULL });
}

static void
test_one_user_slice_without_cpu (Tree *t, gconstpointer data)
{
  put (t, "sys/fs/cgroup/user.slice/user-1001.slice/cgroup.controllers", "memory pids\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is not enabled for /user.slice/user-1001.slice "
    "(its parent's cgroup.subtree_control lacks cpu)", NULL });
}

static void
test_slices_without_cpu_in_order (Tree *t, gconstpointer data)
{
  put (t, "sys/fs/cgroup/user.slice/user-1001.slice/cgroup.controllers", "memory pids\n");
  put (t, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers", "pids\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is not enabled for /user.slice/user-1000.slice "
    "(its parent's cgroup.subtree_control lacks cpu)",
    "the cpu controller is not enabled for /user.slice/user-1001.slice "
    "(its parent's cgroup.subtree_control lacks cpu)", NULL });
}

static void
test_unreadable_controllers_use_parent (Tree *t, gconstpointer data)
{
  g_autofree char *c = g_build_filename (t->root, "sys/fs/cgroup/user.slice/user-1000.slice/cgroup.controllers",
                                         NULL);

  /* The slice's own file is gone: its parent's subtree_control tells. */
  g_assert_cmpint (g_unlink (c), ==, 0);
  assert_effective (t);
  put (t, "sys/fs/cgroup/user.slice/cgroup.subtree_control", "memory\n");
  assert_limitations (t, TRUE, (const char *const[]) {
    "the cpu controller is not enabled for /user.slice/user-1000.slice "
    "(its parent's cgroup.subtree_control lacks cpu)", NULL });
}

static void
test_no_user_slice (Tree *t, gconstpointer data)
{
  g_autofree char *users = g_build_filename (t->root, "sys/fs/cgroup/user.slice", NULL);

  sample_tree_remove (users);
  assert_effective (t);
}

static void
test_mount_parse (void)
{
  char *at = (char *) "untouched";

  g_assert_cmpint (ttg_cgroup_mount_parse (NULL, &at), ==, TTG_CGROUP_MOUNT_UNKNOWN);
  g_assert_null (at);
  g_assert_cmpint (ttg_cgroup_mount_parse (MOUNTS_UNIFIED, &at), ==, TTG_CGROUP_MOUNT_UNIFIED);
  g_assert_null (at);
  g_assert_cmpint (ttg_cgroup_mount_parse (MOUNTS_HYBRID, &at), ==, TTG_CGROUP_MOUNT_HYBRID);
  g_assert_cmpstr (at, ==, "/sys/fs/cgroup/cpu,cpuacct");
  g_clear_pointer (&at, g_free);
  g_assert_cmpint (ttg_cgroup_mount_parse (MOUNTS_LEGACY, NULL), ==, TTG_CGROUP_MOUNT_LEGACY);
  g_assert_cmpint (ttg_cgroup_mount_parse ("", NULL), ==, TTG_CGROUP_MOUNT_NONE);
  /* lines cut short or without the separator are skipped */
  g_assert_cmpint (ttg_cgroup_mount_parse ("26 22 0:24 / /sys/fs/cgroup rw shared:4 - cgroup2\n", NULL), ==,
                   TTG_CGROUP_MOUNT_UNIFIED);
  g_assert_cmpint (ttg_cgroup_mount_parse ("26 22 0:24 / /sys/fs/cgroup rw shared:4 cgroup2 cgroup2 rw\n", NULL),
                   ==, TTG_CGROUP_MOUNT_NONE);
  g_assert_cmpint (ttg_cgroup_mount_parse ("26 22 0:24 / /sys/fs/cgroup rw -\n", NULL), ==, TTG_CGROUP_MOUNT_NONE);
  /* cgroup2 elsewhere only (a container's own mount) */
  g_assert_cmpint (ttg_cgroup_mount_parse ("26 22 0:24 / /mnt rw - cgroup2 cgroup2 rw\n", NULL), ==,
                   TTG_CGROUP_MOUNT_NONE);
  /* cpuacct, cpuset are not cpu */
  g_assert_cmpint (ttg_cgroup_mount_parse (MOUNTS_UNIFIED "3 2 0:9 / /x rw - cgroup cgroup rw,cpuacct,cpuset\n", &at),
                   ==, TTG_CGROUP_MOUNT_UNIFIED);
  g_assert_null (at);
  /* the mount point's escapes: \ooo is a byte; any other backslash, one
   * at the end, and an escape of the byte 0 are kept as they are (GLib's
   * g_strcompress warned on a trailing one: the fuzzer's find) */
  {
    static const struct { const char *escaped, *path; } cases[] = {
      { "/a\\040b", "/a b" },
      { "/a\\011b\\012c\\134d", "/a\tb\nc\\d" },
      { "/a\\", "/a\\" },
      { "/a\\04", "/a\\04" },
      { "/a\\400", "/a\\400" },
      { "/a\\08x", "/a\\08x" },
      { "/a\\000", "/a\\000" },
      { "/a\\n", "/a\\n" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *line = g_strdup_printf (MOUNTS_UNIFIED "3 2 0:9 / %s rw - cgroup cgroup rw,cpu\n",
                                                 cases[i].escaped);

        g_assert_cmpint (ttg_cgroup_mount_parse (line, &at), ==, TTG_CGROUP_MOUNT_UNIFIED);
        g_assert_cmpstr (at, ==, cases[i].path);
        g_clear_pointer (&at, g_free);
      }
  }
  g_assert_cmpstr (ttg_cgroup_mount_to_string (TTG_CGROUP_MOUNT_HYBRID), ==, "hybrid");
}

static void
test_controller_list (void)
{
  static const char *const with_cpu[] = { CONTROLLERS_DEBIAN, "cpu", "cpu\n", "io memory pids cpu\n",
                                          "cpuset\tcpu\tio", "cpuacct cpu" };
  static const char *const without[] = { CONTROLLERS_NO_CPU, "", "\n", "cpuacct", "cpus io", "CPU io",
                                         "cpu,cpuacct io" };

  for (guint i = 0; i < G_N_ELEMENTS (with_cpu); i++)
    g_assert_true (ttg_controller_list_has (with_cpu[i], "cpu"));
  for (guint i = 0; i < G_N_ELEMENTS (without); i++)
    g_assert_false (ttg_controller_list_has (without[i], "cpu"));
  g_assert_false (ttg_controller_list_has (NULL, "cpu"));
}

static void
test_cmdline (void)
{
  g_assert_true (ttg_cmdline_disables_cpu ("root=/dev/vda cgroup_disable=cpu quiet\n"));
  g_assert_true (ttg_cmdline_disables_cpu ("cgroup_disable=memory,cpu"));
  g_assert_true (ttg_cmdline_disables_cpu ("cgroup_disable=memory cgroup_disable=cpu"));
  g_assert_false (ttg_cmdline_disables_cpu ("cgroup_disable=cpuset"));
  g_assert_false (ttg_cmdline_disables_cpu ("cgroup_disable=memory"));
  g_assert_false (ttg_cmdline_disables_cpu ("xcgroup_disable=cpu"));
  g_assert_false (ttg_cmdline_disables_cpu (CMDLINE));
  g_assert_false (ttg_cmdline_disables_cpu (NULL));
}

static void
test_limitations_equal (void)
{
  g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) b = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (ttg_cpu_limitations_equal (a, b));
  g_ptr_array_add (a, g_strdup ("x"));
  g_assert_false (ttg_cpu_limitations_equal (a, b));
  g_ptr_array_add (b, g_strdup ("y"));
  g_assert_false (ttg_cpu_limitations_equal (a, b));
  g_free (b->pdata[0]);
  b->pdata[0] = g_strdup ("x");
  g_assert_true (ttg_cpu_limitations_equal (a, b));
  g_assert_false (ttg_cpu_limitations_equal (a, NULL));
  g_assert_true (ttg_cpu_limitations_equal (NULL, NULL));
}

#define ADD_TREE(name, func) g_test_add ("/cpucheck/tree/" name, Tree, NULL, tree_setup, func, tree_teardown)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  ADD_TREE ("effective", test_effective);
  ADD_TREE ("no-sched-ext-in-kernel", test_no_sched_ext_in_kernel);
  ADD_TREE ("sched-ext/enabled", test_sched_ext_enabled);
  ADD_TREE ("sched-ext/nameless", test_sched_ext_nameless);
  ADD_TREE ("sched-ext/odd-name", test_sched_ext_odd_name);
  ADD_TREE ("sched-ext/disabled-again", test_sched_ext_disabled_again);
  ADD_TREE ("legacy", test_legacy);
  ADD_TREE ("hybrid", test_hybrid);
  ADD_TREE ("no-mount-table", test_no_mount_table);
  ADD_TREE ("no-cgroups", test_no_cgroups_at_all);
  ADD_TREE ("cgroup-disable-cpu", test_cgroup_disable_cpu);
  ADD_TREE ("root-without-cpu", test_root_without_cpu);
  ADD_TREE ("cpu-bound-to-v1", test_cpu_bound_to_v1);
  ADD_TREE ("odd-mount-point", test_odd_mount_point);
  ADD_TREE ("user-slice-without-cpu", test_user_slice_without_cpu);
  ADD_TREE ("one-user-slice-without-cpu", test_one_user_slice_without_cpu);
  ADD_TREE ("slices-in-order", test_slices_without_cpu_in_order);
  ADD_TREE ("unreadable-controllers", test_unreadable_controllers_use_parent);
  ADD_TREE ("no-user-slice", test_no_user_slice);
  g_test_add_func ("/cpucheck/mount-parse", test_mount_parse);
  g_test_add_func ("/cpucheck/controller-list", test_controller_list);
  g_test_add_func ("/cpucheck/cmdline", test_cmdline);
  g_test_add_func ("/cpucheck/limitations-equal", test_limitations_equal);

  return g_test_run ();
}
