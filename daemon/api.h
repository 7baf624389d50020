/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <systemd/sd-bus.h>

#include "manager.h"
#include "state.h"

G_BEGIN_DECLS

/* The org.ttygroup1.Manager object on the system bus (see
 * dbus/org.ttygroup1.xml). Publishes the object, then owns the name. */
typedef struct TtgApi TtgApi;

TtgApi *ttg_api_new (sd_bus *bus, TtgManager *manager, TtgState *state, GError **error);
void ttg_api_free (TtgApi *api);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgApi, ttg_api_free)

/* The policy changed from elsewhere (configuration reload): tell clients. */
void ttg_api_policy_changed (TtgApi *api);

G_END_DECLS
