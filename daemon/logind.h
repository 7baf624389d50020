/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "model.h"

G_BEGIN_DECLS

typedef struct TtgLogind TtgLogind;
typedef void (*TtgLogindChangedFunc) (gpointer user_data);

/* Watches logind's sessions, seats and users (sd-login monitor). Changes are
 * coalesced: on_changed runs once, shortly after a burst of changes. */
TtgLogind *ttg_logind_new (sd_event *event, sd_bus *bus, TtgLogindChangedFunc on_changed,
                           gpointer user_data, GError **error);
void ttg_logind_free (TtgLogind *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgLogind, ttg_logind_free)

/* A snapshot of all sessions now: session id -> TtgSession (owned). The
 * leader of each comes from logind's D-Bus API, once per session. */
GHashTable *ttg_logind_read_sessions (TtgLogind *l, GError **error);

G_END_DECLS
