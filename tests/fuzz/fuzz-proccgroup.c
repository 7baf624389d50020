/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /proc/PID/cgroup text: the path part names cgroups that unprivileged users
 * create in what systemd delegated to them, with any name. Both readers: the
 * service's (the v2 path, its unit, its session) and the agent's (the user
 * manager's cgroup from /proc/self/cgroup). */
#include <string.h>

#include "agent-policy.h"
#include "fuzz.h"
#include "procstat.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;
  g_autofree char *manager = NULL;

  fuzz_setup ();
  text = fuzz_strndup (data, size);

  path = ttg_cgroup_v2_path_parse (text);
  if (path)
    {
      g_autofree char *unit = ttg_cgroup_path_unit (path);
      g_autofree char *session = ttg_cgroup_path_session_id (path);

      FUZZ_CHECK (path[0] == '/');
      FUZZ_CHECK (strchr (path, '\n') == NULL);
      if (unit)
        {
          FUZZ_CHECK (unit[0] != '\0' && strchr (unit, '/') == NULL);
          FUZZ_CHECK (g_str_has_suffix (path, unit) || strchr (path + strlen (path) - 1, '/'));
        }
      if (session)
        {
          FUZZ_CHECK (ttg_session_id_is_valid (session));
          FUZZ_CHECK (unit != NULL && strstr (unit, session) != NULL);
        }
    }
  /* cgroup.events of a group (kernel text, read before an empty group is stopped). */
  {
    int populated = ttg_cgroup_events_populated (text);
    FUZZ_CHECK (populated >= -1 && populated <= 1);
    if (populated >= 0)
      FUZZ_CHECK (strstr (text, populated ? "populated 1" : "populated 0") != NULL);
  }
  /* The last component of any text, also one that is no cgroup line. */
  g_free (ttg_cgroup_path_session_id (text));

  manager = ttg_agent_user_manager_cgroup (text);
  if (manager)
    {
      FUZZ_CHECK (manager[0] == '/');
      FUZZ_CHECK (strstr (text, manager) != NULL);
    }
  return 0;
}
