/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "policy.h"

G_BEGIN_DECLS

/* What one user asked for their own sessions (SetUserPolicy), within the
 * system policy: a user may turn grouping off (or back on, as far as the
 * system allows) and lower the weight of their terminals, never raise it
 * above the system's TerminalWeight. Runtime only: the desktop agent pushes
 * it again when the service restarts. */
typedef struct {
  gboolean has_enabled;
  gboolean enabled;
  gboolean has_group_terminals;
  gboolean group_terminals;
  gboolean has_terminal_weight;
  guint64 terminal_weight;
} TtgUserPolicy;

/* The keys a user may set: "Enabled", "GroupTerminals", "TerminalWeight". */
gboolean ttg_user_policy_key_allowed (const char *key);

/* Sets one key, checked against the system policy. Unknown or system-only
 * key, wrong type, out of bounds: FALSE with TTG_ERROR_INVALID_POLICY naming
 * the key and the bound; *u unchanged. */
gboolean ttg_user_policy_set_boolean (TtgUserPolicy *u, const char *key, gboolean value, GError **error);
gboolean ttg_user_policy_set_weight (TtgUserPolicy *u, const TtgPolicy *system, const char *key,
                                     guint64 value, GError **error);

/* The policy for that user's sessions: the system's, narrowed by u. Grouping
 * is on only if both say so; the terminal weight is the user's, but never
 * above the system's (which may have been lowered since). */
void ttg_user_policy_apply (const TtgUserPolicy *u, const TtgPolicy *system, TtgPolicy *out);

G_END_DECLS
