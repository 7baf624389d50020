/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The desktop agent: sends the user's GSettings preferences to ttygroupd
 * (SetUserPolicy) when it starts, whenever a key changes and whenever the
 * service (re)appears on the system bus, and weighs the terminal scopes of
 * the user manager accordingly. */
typedef struct _TtgAgent TtgAgent;

TtgAgent *ttg_agent_new (GSettings *settings, GDBusConnection *system_bus, GDBusConnection *session_bus);
void ttg_agent_free (TtgAgent *a);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgAgent, ttg_agent_free)

G_END_DECLS
