/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the check whether CPU weights can act reads from the kernel: the
 * mount table, the kernel command line, cgroup.controllers and
 * cgroup.subtree_control, the sched_ext state and scheduler name; and the
 * cpu.pressure totals of ListGroupCounters. The input is those texts
 * separated by NUL bytes, in the order of PARTS; a missing part is a file
 * that is not there. */
#include <string.h>

#include "cpucheck.h"
#include "fuzz.h"
#include "groupstats.h"

enum {
  MOUNTINFO, CMDLINE, ROOT_CONTROLLERS, ROOT_SUBTREE, USERS_CONTROLLERS, USERS_SUBTREE,
  USER_CONTROLLERS, USER_SUBTREE, SCHED_STATE, SCHED_OPS, PRESSURE, PARTS
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *part[PARTS] = { NULL };
  gsize part_len[PARTS] = { 0 };
  g_autofree char *copy = fuzz_strndup (data, size);
  g_auto(TtgCpuInput) in;
  g_autoptr(GPtrArray) out = NULL;
  g_autofree char *cpu_v1_at = NULL;
  TtgCgroupMount mount;
  const char *p = copy, *end = copy + size;

  fuzz_setup ();
  for (guint i = 0; i < PARTS && p <= end; i++)
    {
      const char *nul = memchr (p, '\0', (gsize) (end - p));

      part[i] = p;
      part_len[i] = (gsize) ((nul ? nul : end) - p);
      p = (nul ? nul : end) + 1;
    }

  mount = ttg_cgroup_mount_parse (part[MOUNTINFO], &cpu_v1_at);
  FUZZ_CHECK (mount >= TTG_CGROUP_MOUNT_UNKNOWN && mount <= TTG_CGROUP_MOUNT_NONE);
  FUZZ_CHECK (part[MOUNTINFO] || mount == TTG_CGROUP_MOUNT_UNKNOWN);
  (void) ttg_cmdline_disables_cpu (part[CMDLINE]);

  ttg_cpu_input_init (&in);
  in.mountinfo = g_strdup (part[MOUNTINFO]);
  in.cmdline = g_strdup (part[CMDLINE]);
  in.sched_ext_state = g_strdup (part[SCHED_STATE]);
  in.sched_ext_ops = g_strdup (part[SCHED_OPS]);
  in.check_path = size % 2 == 0;
  ttg_cpu_input_add_level (&in, "/", part[ROOT_CONTROLLERS], part[ROOT_SUBTREE]);
  if (part[USERS_CONTROLLERS] || part[USERS_SUBTREE])
    ttg_cpu_input_add_level (&in, "/user.slice", part[USERS_CONTROLLERS], part[USERS_SUBTREE]);
  if (part[USER_CONTROLLERS] || part[USER_SUBTREE])
    ttg_cpu_input_add_level (&in, "/user.slice/user-1000.slice", part[USER_CONTROLLERS], part[USER_SUBTREE]);

  out = ttg_cpu_limitations (&in);
  /* Sentences of one line, valid UTF-8, a few at most; none only where
   * cgroup v2 with the cpu controller is there. */
  FUZZ_CHECK (out->len <= 2 + in.levels->len);
  for (guint i = 0; i < out->len; i++)
    {
      const char *s = out->pdata[i];

      FUZZ_CHECK (s && *s);
      FUZZ_CHECK (g_utf8_validate (s, -1, NULL));
      FUZZ_CHECK (!strchr (s, '\n'));
      FUZZ_CHECK (strlen (s) < 512);
    }
  if (out->len == 0)
    {
      FUZZ_CHECK (mount == TTG_CGROUP_MOUNT_UNIFIED || mount == TTG_CGROUP_MOUNT_UNKNOWN);
      FUZZ_CHECK (ttg_controller_list_has (part[ROOT_CONTROLLERS], "cpu"));
    }

  if (part[PRESSURE])
    {
      g_autoptr(GError) error = NULL;
      guint64 some = 7, full = 7;

      if (ttg_cpu_pressure_parse_totals (part[PRESSURE], part_len[PRESSURE], &some, &full, &error))
        FUZZ_CHECK (error == NULL);
      else
        {
          FUZZ_CHECK (error != NULL && error->domain == TTG_STATS_ERROR);
          FUZZ_CHECK (some == 7 && full == 7);
        }
    }
  return 0;
}
