/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "groupinfo.h"

void
ttg_group_info_free (TtgGroupInfo *info)
{
  if (!info)
    return;
  g_free (info->unit);
  g_free (info->cgroup);
  g_free (info->session_id);
  g_free (info->tty);
  g_free (info->description);
  g_free (info);
}

void
ttg_pid_info_clear (TtgPidInfo *info)
{
  g_clear_pointer (&info->unit, g_free);
  g_clear_pointer (&info->cgroup, g_free);
  g_clear_pointer (&info->session_id, g_free);
  g_clear_pointer (&info->tty, g_free);
  g_clear_pointer (&info->rule, g_free);
}
