/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "policy.h"

G_BEGIN_DECLS

/* The centre of the daemon: keeps logind's sessions, the pty groups and the
 * policy, and turns events (logind changes, process events, policy changes)
 * into placements through the placer. */
typedef struct TtgManager TtgManager;

TtgManager *ttg_manager_new (sd_event *event, sd_bus *bus, const TtgPolicy *policy, GError **error);
void ttg_manager_free (TtgManager *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgManager, ttg_manager_free)

/* Adopts the groups a previous instance made, reads the sessions, applies the
 * policy and places every pty that is already there. */
gboolean ttg_manager_start (TtgManager *m, GError **error);

/* Applies a new policy: weights change, groups form or dissolve. */
void ttg_manager_set_policy (TtgManager *m, const TtgPolicy *policy);
const TtgPolicy *ttg_manager_get_policy (TtgManager *m);

/* Whether CPU weights can work on this machine, and why not; static strings. */
gboolean ttg_manager_cpu_usable (TtgManager *m, const char **why);

/* One line for `systemctl status`. */
char *ttg_manager_status_line (TtgManager *m);

G_END_DECLS
