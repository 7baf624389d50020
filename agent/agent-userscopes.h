/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The terminal scopes the desktop made under the user's own systemd manager
 * (GNOME Terminal's vte-spawn-*.scope, app-*-*.scope of other terminals):
 * out of the system service's reach, so the agent gives them their
 * CPUWeight through the user manager (SetUnitProperties, runtime only). */
typedef struct _TtgUserScopes TtgUserScopes;

/* session_bus: the user's bus, where the user manager is
 * org.freedesktop.systemd1. Touches nothing until a weight is set. */
TtgUserScopes *ttg_user_scopes_new (GDBusConnection *session_bus);
void ttg_user_scopes_free (TtgUserScopes *s);

/* Which scopes are terminals (shell-style patterns); existing ones get the
 * current weight. */
void ttg_user_scopes_set_patterns (TtgUserScopes *s, const char *const *patterns);

/* The weight every terminal scope gets, now and when one starts;
 * TTG_AGENT_WEIGHT_UNSET resets them to systemd's default. */
void ttg_user_scopes_set_weight (TtgUserScopes *s, guint64 weight);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgUserScopes, ttg_user_scopes_free)

G_END_DECLS
