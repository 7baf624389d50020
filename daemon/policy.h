/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

/* The keys, their types and the parsing of their values are shared with
 * ttygroupctl and the agent (common/). */
#include "ttg-policy-keys.h"

G_BEGIN_DECLS

/* The system policy. Every field has a key of the same meaning in the
 * configuration file ([Policy] group) and, later, on D-Bus (a{sv}). */
typedef struct {
  gboolean enabled;              /* "Enabled" b, default true: grouping on at all */
  gboolean group_terminals;      /* "GroupTerminals" b, default true: split ptys of the display session */
  gboolean manage_greeter;       /* "ManageGreeter" b, default false: also weigh greeter/lock-screen sessions */
  guint64 active_session_weight; /* "ActiveSessionWeight" t, default 200: the active session of a seat */
  guint64 session_weight;        /* "SessionWeight" t, default 100: other local sessions */
  guint64 remote_session_weight; /* "RemoteSessionWeight" t, default 100: remote (ssh, ...) sessions */
  guint64 terminal_weight;       /* "TerminalWeight" t, default 100: each pty group */
} TtgPolicy;

void ttg_policy_init_defaults (TtgPolicy *p);
gboolean ttg_policy_equal (const TtgPolicy *a, const TtgPolicy *b);

/* Set one key. Unknown key, wrong type or out-of-range value: returns FALSE
 * with TTG_ERROR_INVALID_POLICY and a message naming the key and the reason;
 * *p is then unchanged. */
/* The value of a key of the table (ttg_policy_keys()) of the key's type. */
gboolean ttg_policy_get_boolean (const TtgPolicy *p, const TtgPolicyKeyInfo *info);
guint64 ttg_policy_get_weight (const TtgPolicy *p, const TtgPolicyKeyInfo *info);

gboolean ttg_policy_set_boolean (TtgPolicy *p, const char *key, gboolean value, GError **error);
gboolean ttg_policy_set_weight (TtgPolicy *p, const char *key, guint64 value, GError **error);
/* Parses text as the key's type with ttg_policy_parse_value() (common/):
 * booleans as systemd writes them, weights decimal digits only. */
gboolean ttg_policy_set_from_string (TtgPolicy *p, const char *key, const char *value, GError **error);

/* Reads the [Policy] group of a key file on top of *p. All or nothing: on
 * error *p is unchanged and the message starts with "origin:" and names the
 * key (and line, where GKeyFile tells). Other groups are an error too. */
gboolean ttg_policy_merge_keyfile (TtgPolicy *p, GKeyFile *kf, const char *origin, GError **error);

/* A key file text with a [Policy] group holding every key; round-trips
 * through ttg_policy_merge_keyfile. */
char *ttg_policy_to_keyfile_data (const TtgPolicy *p);

/* "Enabled=true SessionWeight=100 ..." for logs. */
char *ttg_policy_to_string (const TtgPolicy *p);

G_END_DECLS
