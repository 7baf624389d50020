/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "cpucheck.h"

#include <string.h>

#define CGROUP_MOUNT "/sys/fs/cgroup"
/* A scheduler's name is shown in a sentence: this much of it at most. */
#define SCHED_NAME_MAX 64
/* ... and a mount point. */
#define MOUNT_POINT_MAX 256

const char *
ttg_cgroup_mount_to_string (TtgCgroupMount mount)
{
  switch (mount)
    {
    case TTG_CGROUP_MOUNT_UNKNOWN: return "unknown";
    case TTG_CGROUP_MOUNT_UNIFIED: return "unified";
    case TTG_CGROUP_MOUNT_HYBRID: return "hybrid";
    case TTG_CGROUP_MOUNT_LEGACY: return "legacy";
    case TTG_CGROUP_MOUNT_NONE: return "none";
    }
  return "unknown";
}

static gboolean
has_item (const char *list, const char *separators, const char *item)
{
  g_auto(GStrv) items = NULL;

  if (!list)
    return FALSE;
  items = g_strsplit_set (list, separators, -1);
  for (char **i = items; *i; i++)
    if (g_str_equal (*i, item))
      return TRUE;
  return FALSE;
}

gboolean
ttg_controller_list_has (const char *list, const char *controller)
{
  return has_item (list, " \t\n", controller);
}

gboolean
ttg_cmdline_disables_cpu (const char *cmdline)
{
  g_auto(GStrv) words = NULL;

  if (!cmdline)
    return FALSE;
  words = g_strsplit_set (cmdline, " \t\n", -1);
  for (char **w = words; *w; w++)
    if (g_str_has_prefix (*w, "cgroup_disable=") && has_item (*w + strlen ("cgroup_disable="), ",", "cpu"))
      return TRUE;
  return FALSE;
}

/* A path of /proc/self/mountinfo as it is: the kernel writes a blank, tab,
 * newline and backslash of it as \ooo (three octal digits). Any other
 * backslash is kept as it is, and so is an escape of the byte 0, which no
 * path holds. */
static char *
unescape_mount_path (const char *escaped)
{
  GString *out = g_string_sized_new (strlen (escaped));

  for (const char *p = escaped; *p; p++)
    {
      if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
          p[3] >= '0' && p[3] <= '7')
        {
          int byte = (p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0');

          if (byte != 0)
            {
              g_string_append_c (out, (char) byte);
              p += 3;
              continue;
            }
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* One line of mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS". FALSE for a line that is
 * not of that shape. The strings point into fields. */
static gboolean
split_mount_line (char **fields, const char **mount_point, const char **fstype, const char **super_options)
{
  guint n = g_strv_length (fields), dash;

  if (n < 7)
    return FALSE;
  for (dash = 6; dash < n && !g_str_equal (fields[dash], "-"); dash++)
    ;
  if (dash + 1 >= n)
    return FALSE; /* no separator, or nothing after it */
  *mount_point = fields[4];
  *fstype = fields[dash + 1];
  *super_options = dash + 3 < n ? fields[dash + 3] : "";
  return TRUE;
}

TtgCgroupMount
ttg_cgroup_mount_parse (const char *mountinfo, char **cpu_v1_at)
{
  g_auto(GStrv) lines = NULL;
  gboolean v2_at_root = FALSE, any_v2 = FALSE, any_v1 = FALSE;

  if (cpu_v1_at)
    *cpu_v1_at = NULL;
  if (!mountinfo || strlen (mountinfo) > TTG_CPUCHECK_TEXT_MAX)
    return TTG_CGROUP_MOUNT_UNKNOWN;

  lines = g_strsplit (mountinfo, "\n", -1);
  for (char **line = lines; *line; line++)
    {
      g_auto(GStrv) fields = g_strsplit (*line, " ", -1);
      const char *mount_point, *fstype, *super_options;

      if (!split_mount_line (fields, &mount_point, &fstype, &super_options))
        continue;
      if (g_str_equal (fstype, "cgroup2"))
        {
          any_v2 = TRUE;
          if (g_str_equal (mount_point, CGROUP_MOUNT))
            v2_at_root = TRUE;
        }
      else if (g_str_equal (fstype, "cgroup"))
        {
          any_v1 = TRUE;
          if (cpu_v1_at && !*cpu_v1_at && has_item (super_options, ",", "cpu"))
            *cpu_v1_at = unescape_mount_path (mount_point);
        }
    }

  if (v2_at_root)
    return TTG_CGROUP_MOUNT_UNIFIED;
  if (any_v1 && any_v2)
    return TTG_CGROUP_MOUNT_HYBRID;
  if (any_v1)
    return TTG_CGROUP_MOUNT_LEGACY;
  return TTG_CGROUP_MOUNT_NONE;
}

static void
level_clear (gpointer data)
{
  TtgCgroupLevel *l = data;

  g_free (l->path);
  g_free (l->controllers);
  g_free (l->subtree_control);
}

void
ttg_cpu_input_init (TtgCpuInput *in)
{
  memset (in, 0, sizeof *in);
  in->levels = g_array_new (FALSE, TRUE, sizeof (TtgCgroupLevel));
  g_array_set_clear_func (in->levels, level_clear);
  in->check_path = TRUE;
}

void
ttg_cpu_input_clear (TtgCpuInput *in)
{
  g_clear_pointer (&in->mountinfo, g_free);
  g_clear_pointer (&in->cmdline, g_free);
  g_clear_pointer (&in->levels, g_array_unref);
  g_clear_pointer (&in->sched_ext_state, g_free);
  g_clear_pointer (&in->sched_ext_ops, g_free);
}

void
ttg_cpu_input_add_level (TtgCpuInput *in, const char *path, const char *controllers,
                         const char *subtree_control)
{
  TtgCgroupLevel l = { g_strdup (path), g_strdup (controllers), g_strdup (subtree_control) };

  g_array_append_val (in->levels, l);
}

/* A small file, or NULL when it is absent, unreadable or too long to be
 * the file meant. */
static char *
read_text (const char *root, const char *a, const char *b, const char *c)
{
  g_autofree char *path = g_build_filename (root, a, b, c, NULL);
  char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return NULL;
  if (len > TTG_CPUCHECK_TEXT_MAX || memchr (text, '\0', len))
    g_clear_pointer (&text, g_free);
  return text;
}

static void
read_level (TtgCpuInput *in, const char *root, const char *path)
{
  const char *rel = path + 1; /* below sys/fs/cgroup */
  g_autofree char *controllers = read_text (root, "sys/fs/cgroup", rel, "cgroup.controllers");
  g_autofree char *subtree = read_text (root, "sys/fs/cgroup", rel, "cgroup.subtree_control");

  ttg_cpu_input_add_level (in, path, controllers, subtree);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

void
ttg_cpu_input_read (TtgCpuInput *in, const char *root)
{
  g_autofree char *users_dir = g_build_filename (root, "sys/fs/cgroup/user.slice", NULL);
  g_autoptr(GPtrArray) slices = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  in->mountinfo = read_text (root, "proc/self/mountinfo", NULL, NULL);
  in->cmdline = read_text (root, "proc/cmdline", NULL, NULL);
  in->sched_ext_state = read_text (root, "sys/kernel/sched_ext/state", NULL, NULL);
  in->sched_ext_ops = read_text (root, "sys/kernel/sched_ext/root/ops", NULL, NULL);

  read_level (in, root, "/");
  if (!g_file_test (users_dir, G_FILE_TEST_IS_DIR))
    return;
  read_level (in, root, "/user.slice");
  dir = g_dir_open (users_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *full = g_build_filename (users_dir, name, NULL);

      if (g_str_has_prefix (name, "user-") && g_str_has_suffix (name, ".slice")
          && g_file_test (full, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (slices, g_strdup (name));
    }
  g_ptr_array_sort (slices, compare_strings);
  for (guint i = 0; i < slices->len; i++)
    {
      g_autofree char *path = g_strconcat ("/user.slice/", (const char *) slices->pdata[i], NULL);

      read_level (in, root, path);
    }
}

/* Text from a file as it may stand in a sentence (a D-Bus string, a
 * journal line): the first line, printable ASCII but quotes and
 * backslashes (each other byte a '?'), at most max bytes, trimmed. */
static char *
printable (const char *text, gsize max)
{
  GString *name = g_string_new (NULL);

  for (const char *p = text ? text : ""; *p && *p != '\n' && name->len < max; p++)
    g_string_append_c (name, g_ascii_isprint (*p) && *p != '"' && *p != '\\' ? *p : '?');
  g_strstrip (name->str);
  name->len = strlen (name->str);
  return g_string_free (name, FALSE);
}

static char *
sched_name (const char *ops)
{
  return printable (ops, SCHED_NAME_MAX);
}

static const TtgCgroupLevel *
find_level (const TtgCpuInput *in, const char *path)
{
  for (guint i = 0; i < in->levels->len; i++)
    {
      const TtgCgroupLevel *l = &g_array_index (in->levels, TtgCgroupLevel, i);

      if (g_str_equal (l->path, path))
        return l;
    }
  return NULL;
}

/* Whether cpu is enabled for level, from its own cgroup.controllers or,
 * when that could not be read, its parent's cgroup.subtree_control.
 * -1 when neither tells. */
static int
cpu_enabled_for (const TtgCgroupLevel *level, const TtgCgroupLevel *parent)
{
  if (level->controllers)
    return ttg_controller_list_has (level->controllers, "cpu");
  if (parent && parent->subtree_control)
    return ttg_controller_list_has (parent->subtree_control, "cpu");
  return -1;
}

static void
check_path (const TtgCpuInput *in, GPtrArray *out)
{
  const TtgCgroupLevel *root = find_level (in, "/");
  const TtgCgroupLevel *users = find_level (in, "/user.slice");

  if (!users)
    return;
  if (cpu_enabled_for (users, root) == 0)
    {
      g_ptr_array_add (out, g_strdup ("the cpu controller is not enabled for /user.slice "
                                      "(its parent's cgroup.subtree_control lacks cpu)"));
      return; /* nor for anything below it */
    }
  for (guint i = 0; i < in->levels->len; i++)
    {
      const TtgCgroupLevel *l = &g_array_index (in->levels, TtgCgroupLevel, i);

      if (g_str_has_prefix (l->path, "/user.slice/") && cpu_enabled_for (l, users) == 0)
        g_ptr_array_add (out, g_strdup_printf ("the cpu controller is not enabled for %s "
                                               "(its parent's cgroup.subtree_control lacks cpu)",
                                               l->path));
    }
}

static void
check_cgroups (const TtgCpuInput *in, GPtrArray *out)
{
  g_autofree char *cpu_v1_at = NULL;
  TtgCgroupMount mount = ttg_cgroup_mount_parse (in->mountinfo, &cpu_v1_at);
  const TtgCgroupLevel *root = find_level (in, "/");
  const char *root_controllers = root ? root->controllers : NULL;

  switch (mount)
    {
    case TTG_CGROUP_MOUNT_LEGACY:
      g_ptr_array_add (out, g_strdup ("cgroup v1 is mounted at " CGROUP_MOUNT " (the legacy layout): "
                                      "cpu.weight exists only in cgroup v2; boot with "
                                      "systemd.unified_cgroup_hierarchy=1"));
      return;
    case TTG_CGROUP_MOUNT_HYBRID:
      g_ptr_array_add (out, g_strdup ("cgroup v1 and cgroup v2 are mounted side by side (the hybrid "
                                      "layout): the cpu controller is on cgroup v1, where cpu.weight "
                                      "does not exist; boot with systemd.unified_cgroup_hierarchy=1"));
      return;
    case TTG_CGROUP_MOUNT_NONE:
      g_ptr_array_add (out, g_strdup ("no cgroup v2 file system is mounted at " CGROUP_MOUNT));
      return;
    case TTG_CGROUP_MOUNT_UNKNOWN:
    case TTG_CGROUP_MOUNT_UNIFIED:
      break;
    }

  if (!root_controllers)
    {
      g_ptr_array_add (out, g_strdup (mount == TTG_CGROUP_MOUNT_UNKNOWN
                                      ? "cgroup v2 is not mounted at " CGROUP_MOUNT
                                        " (it has no cgroup.controllers): cgroup v1 or the hybrid layout"
                                      : CGROUP_MOUNT "/cgroup.controllers cannot be read: "
                                        "whether the cpu controller is there is not known"));
      return;
    }
  if (!ttg_controller_list_has (root_controllers, "cpu"))
    {
      if (cpu_v1_at)
        {
          g_autofree char *at = printable (cpu_v1_at, MOUNT_POINT_MAX);

          g_ptr_array_add (out, g_strdup_printf ("the cpu controller is bound to a cgroup v1 hierarchy "
                                                 "(mounted at %s): cgroup v2's " CGROUP_MOUNT
                                                 "/cgroup.controllers lacks cpu", at));
        }
      else if (ttg_cmdline_disables_cpu (in->cmdline))
        g_ptr_array_add (out, g_strdup ("the cpu controller is disabled on the kernel command line "
                                        "(cgroup_disable=cpu): " CGROUP_MOUNT
                                        "/cgroup.controllers lacks cpu"));
      else
        g_ptr_array_add (out, g_strdup ("the cpu controller is not available in cgroup v2: "
                                        CGROUP_MOUNT "/cgroup.controllers lacks cpu"));
      return;
    }
  if (in->check_path)
    check_path (in, out);
}

static void
check_sched_ext (const TtgCpuInput *in, GPtrArray *out)
{
  g_autofree char *state = NULL;
  g_autofree char *name = NULL;

  if (!in->sched_ext_state)
    return; /* a kernel without sched_ext */
  state = g_strstrip (g_strdup (in->sched_ext_state));
  if (g_str_equal (state, "disabled") || g_str_equal (state, ""))
    return;
  /* enabled, and also enabling and disabling: a scheduler is there */
  name = sched_name (in->sched_ext_ops);
  if (*name)
    g_ptr_array_add (out, g_strdup_printf ("the sched_ext scheduler \"%s\" is loaded: it ignores cpu.weight",
                                           name));
  else
    {
      g_autofree char *shown = sched_name (state);

      g_ptr_array_add (out, g_strdup_printf ("a sched_ext scheduler is loaded "
                                             "(/sys/kernel/sched_ext/state: %s): it ignores cpu.weight",
                                             shown));
    }
}

GPtrArray *
ttg_cpu_limitations (const TtgCpuInput *in)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  check_cgroups (in, out);
  check_sched_ext (in, out);
  return out;
}

gboolean
ttg_cpu_limitations_equal (GPtrArray *a, GPtrArray *b)
{
  if (!a || !b)
    return a == b;
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!g_str_equal (a->pdata[i], b->pdata[i]))
      return FALSE;
  return TRUE;
}
