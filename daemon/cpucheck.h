/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Can cpu.weight work here? Decided from what the machine shows:
 * root_controllers: the text of /sys/fs/cgroup/cgroup.controllers, NULL when
 *   that file does not exist (cgroup v1 or the hybrid layout);
 * sched_ext_state: the text of /sys/kernel/sched_ext/state, NULL if absent.
 * Returns TRUE when weights take effect; otherwise *why (static string) says
 * why not, in words an admin can act on. */
gboolean ttg_cpu_weights_usable (const char *root_controllers, const char *sched_ext_state,
                                 const char **why);

G_END_DECLS
