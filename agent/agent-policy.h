/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "ttg-policy-keys.h"

G_BEGIN_DECLS

/* The decisions of the desktop agent, without any I/O: what it sends to the
 * service, what weight it gives the scopes the desktop made under the user's
 * own systemd manager, and which of those scopes are terminals. */

/* "No weight": systemd's CPUWeight value that resets the property
 * (TTG_WEIGHT_UNSET of common/). */
#define TTG_AGENT_WEIGHT_UNSET TTG_WEIGHT_UNSET

/* The user's preferences (the GSettings keys). */
typedef struct {
  gboolean enabled;
  gboolean group_terminals;
  guint64 terminal_weight;
} TtgAgentPrefs;

/* What the service's Policy property says, as far as the agent cares. */
typedef struct {
  gboolean enabled;
  gboolean group_terminals;
  guint64 terminal_weight;
} TtgAgentSystem;

/* The a{sv} for SetUserPolicy (floating). with_weight: include
 * TerminalWeight (FALSE after the service refused the weight, so the
 * switches still apply). */
GVariant *ttg_agent_prefs_to_request (const TtgAgentPrefs *prefs, gboolean with_weight);

/* Reads the service's Policy a{sv}. Missing keys keep the defaults of the
 * service (grouping on, TerminalWeight 100); wrong types are ignored. */
void ttg_agent_system_from_policy (GVariant *policy, TtgAgentSystem *out);

/* The CPUWeight of the user-manager terminal scopes: the terminal weight the
 * service holds for this user (accepted_weight, the last one it accepted from
 * us; 0 if none, then the system's), never above the system's; or
 * TTG_AGENT_WEIGHT_UNSET when the system or the user turned terminal
 * grouping off. */
guint64 ttg_agent_scope_weight (const TtgAgentSystem *system, const TtgAgentPrefs *prefs,
                                guint64 accepted_weight);

/* Whether a unit of the user manager is a terminal scope: a ".scope" whose
 * name matches one of the shell-style patterns. */
gboolean ttg_agent_is_terminal_scope (const char *unit, const char *const *patterns);

/* The cgroup of the user's systemd manager (".../user@UID.service") from the
 * text of /proc/self/cgroup of a process running under it (cgroup v2 "0::"
 * line), or NULL when the process is not under a user manager. */
char *ttg_agent_user_manager_cgroup (const char *proc_self_cgroup);

/* Whether the parameters of a PropertiesChanged signal ("(sa{sv}as)") say
 * that property of iface changed: TRUE with *value (a new reference) when
 * the signal carries the new value, TRUE with *value NULL when it only
 * invalidates it, FALSE otherwise. */
gboolean ttg_agent_property_changed (GVariant *params, const char *iface, const char *property,
                                     GVariant **value);

/* "Enabled=false GroupTerminals=true TerminalWeight=50" style text of a
 * request, for the log. */
char *ttg_agent_request_to_string (GVariant *request);

G_END_DECLS
