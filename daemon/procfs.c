/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "procfs.h"

#include <errno.h>
#include <signal.h>

#include "util.h"

gboolean
ttg_procfs_read_stat (pid_t pid, TtgProcStat *st)
{
  char path[64];
  g_autofree char *text = NULL;

  if (pid <= 0)
    return FALSE;
  g_snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  text = ttg_read_file (path, NULL);
  return text && ttg_proc_stat_parse (text, st, NULL);
}

char *
ttg_procfs_read_cgroup (pid_t pid)
{
  char path[64];
  g_autofree char *text = NULL;

  if (pid <= 0)
    return NULL;
  g_snprintf (path, sizeof path, "/proc/%d/cgroup", (int) pid);
  text = ttg_read_file (path, NULL);
  return text ? ttg_cgroup_v2_path_parse (text) : NULL;
}

gboolean
ttg_procfs_pid_exists (pid_t pid)
{
  return pid > 0 && (kill (pid, 0) == 0 || errno != ESRCH);
}

GArray *
ttg_procfs_list_pids (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  GArray *pids;
  const char *name;

  if (!dir)
    return NULL;
  pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  while ((name = g_dir_read_name (dir)))
    {
      guint64 pid;

      if (g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT32, &pid, NULL))
        {
          pid_t p = (pid_t) pid;

          g_array_append_val (pids, p);
        }
    }
  return pids;
}

gboolean
ttg_procfs_cgroup_gone (const char *cgroup)
{
  return ttg_cgroup_is_populated (cgroup) == -ENOENT;
}

GArray *
ttg_procfs_cgroup_pids (const char *cgroup)
{
  return ttg_cgroup_read_procs (cgroup);
}
