/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <systemd/sd-bus.h>

G_BEGIN_DECLS

/* The outcome of a polkit check. On refusal, error is set to
 * org.freedesktop.DBus.Error.AccessDenied or ...InteractiveAuthorizationRequired. */
typedef void (*TtgAuthDone) (sd_bus_message *call, gboolean authorized,
                             const sd_bus_error *error, gpointer user_data);

/* Asks polkit (CheckAuthorization, asynchronously) whether the sender of call
 * may do action_id; honours the call's allow-interactive-authorization flag.
 * done runs later from the event loop, never from within this function.
 * Returns 0 or -errno if the question could not be sent. */
int ttg_auth_check (sd_bus *bus, sd_bus_message *call, const char *action_id,
                    TtgAuthDone done, gpointer user_data);

G_END_DECLS
