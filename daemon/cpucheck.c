/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cpucheck.h"

#include <string.h>

static gboolean
has_word (const char *text, const char *word)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n", -1);

  for (char **w = words; *w; w++)
    if (g_str_equal (*w, word))
      return TRUE;
  return FALSE;
}

gboolean
ttg_cpu_weights_usable (const char *root_controllers, const char *sched_ext_state,
                        const char **why)
{
  const char *reason = NULL;

  if (!root_controllers)
    reason = "cgroup v2 is not mounted at /sys/fs/cgroup (legacy or hybrid hierarchy): "
             "CPU weights cannot work; boot with systemd.unified_cgroup_hierarchy=1";
  else if (!has_word (root_controllers, "cpu"))
    reason = "the cpu controller is not available in cgroup v2 (it is bound to a "
             "cgroup v1 hierarchy or disabled): CPU weights have no effect";
  else if (sched_ext_state && g_str_has_prefix (sched_ext_state, "enabled"))
    reason = "a sched_ext scheduler is running and does not honour cpu.weight";

  if (why)
    *why = reason;
  return reason == NULL;
}
