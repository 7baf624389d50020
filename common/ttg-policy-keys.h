/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The policy keys, their types and how their values are written as text:
 * one table and one parser for the configuration file (ttygroupd), the
 * command line (ttygroupctl set-policy) and the desktop agent. */

/* Weight that means "no explicit CPUWeight": systemd's default (100) applies.
 * Sent to systemd as UINT64_MAX, which resets the property. */
#define TTG_WEIGHT_UNSET G_MAXUINT64
#define TTG_WEIGHT_MIN 1
#define TTG_WEIGHT_MAX 10000

#define TTG_KEY_ENABLED "Enabled"
#define TTG_KEY_GROUP_TERMINALS "GroupTerminals"
#define TTG_KEY_MANAGE_GREETER "ManageGreeter"
#define TTG_KEY_ACTIVE_SESSION_WEIGHT "ActiveSessionWeight"
#define TTG_KEY_SESSION_WEIGHT "SessionWeight"
#define TTG_KEY_REMOTE_SESSION_WEIGHT "RemoteSessionWeight"
#define TTG_KEY_TERMINAL_WEIGHT "TerminalWeight"

#define TTG_ERROR (ttg_error_quark ())
GQuark ttg_error_quark (void);

typedef enum {
  TTG_ERROR_INVALID_POLICY, /* a key is unknown, of the wrong type, or out of range */
  TTG_ERROR_FAILED,
  TTG_ERROR_NO_SUCH_PROCESS,
} TtgError;

typedef enum {
  TTG_POLICY_TYPE_BOOLEAN, /* D-Bus signature "b" */
  TTG_POLICY_TYPE_WEIGHT,  /* D-Bus signature "t", TTG_WEIGHT_MIN..TTG_WEIGHT_MAX */
} TtgPolicyType;

typedef struct {
  const char *key;
  TtgPolicyType type;
  const char *summary;   /* one line, for docs and --help */
  guint64 default_value; /* TRUE/FALSE for booleans */
} TtgPolicyKeyInfo;

/* How many keys ttg_policy_keys() holds (without its terminator). */
#define TTG_POLICY_N_KEYS 7

/* All known keys, NULL-key terminated, in the order of the documentation. */
const TtgPolicyKeyInfo *ttg_policy_keys (void);
/* NULL when key is unknown (exact, case-sensitive: D-Bus and GKeyFile keys are). */
const TtgPolicyKeyInfo *ttg_policy_key_lookup (const char *key);
/* "a boolean (b)", "a weight (t)". */
const char *ttg_policy_type_name (TtgPolicyType type);
/* The D-Bus type character: 'b' or 't'. */
char ttg_policy_type_signature (TtgPolicyType type);

/* The one rule for a boolean written as text, systemd's (parse_boolean() of
 * systemd, what unit files and systemctl take): "1", "yes", "y", "true", "t",
 * "on" and "0", "no", "n", "false", "f", "off", in any case. Nothing else: no
 * blanks around it (a file's syntax strips those before). */
gboolean ttg_parse_boolean (const char *text, gboolean *out);

/* A weight written as text: decimal digits only (no sign, no blanks, no
 * suffix, no base prefix). Returns FALSE for anything else; *overflow is set
 * when the digits do not fit 64 bits (range is not checked here). */
gboolean ttg_parse_decimal (const char *text, guint64 *out, gboolean *overflow);

/* TTG_WEIGHT_MIN..TTG_WEIGHT_MAX, else FALSE with TTG_ERROR_INVALID_POLICY
 * naming the key and the range. */
gboolean ttg_policy_check_weight (const TtgPolicyKeyInfo *info, guint64 value, GError **error);

/* The value of one key as it may be written (config file, command line).
 * Exactly one of the outputs is set, by the key's type. Unknown key or
 * value that is not of the key's type or out of range: FALSE with
 * TTG_ERROR_INVALID_POLICY and a message naming the key and the reason. */
typedef struct {
  const TtgPolicyKeyInfo *info;
  gboolean boolean;
  guint64 weight;
} TtgPolicyValue;

gboolean ttg_policy_parse_value (const char *key, const char *text, TtgPolicyValue *out, GError **error);

/* The same without the range of weights (a weight is only checked to be
 * decimal and to fit 64 bits): what ttygroupctl sends, leaving the range to
 * the service, which alone knows it for SetUserPolicy.
 * ttg_policy_parse_value() is this and ttg_policy_check_weight(). */
gboolean ttg_policy_parse_text (const char *key, const char *text, TtgPolicyValue *out, GError **error);

G_END_DECLS
