/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "policy.h"
#include "userpolicy.h"

G_BEGIN_DECLS

/* One entry of a policy dictionary (SetPolicy/SetUserPolicy's a{sv}), as
 * read off the bus: the key, the D-Bus signature of the variant's contents,
 * and its value when that signature is "b" (b) or "t" (t); other types
 * carry no value, they are refused anyway. */
typedef struct {
  const char *key;
  const char *signature;
  gboolean b;
  guint64 t;
} TtgPolicyEntry;

/* More entries than this cannot all be valid (a key is unknown or given
 * twice): a reader may stop after TTG_POLICY_DICT_MAX + 1 entries and get the
 * same answer as with the whole dictionary. */
#define TTG_POLICY_DICT_MAX 7

/* Applies a SetPolicy dictionary to *p. Every key must be known, given once,
 * of its type and in range, and there must be at least one. All or nothing:
 * on error *p is unchanged and the TTG_ERROR_INVALID_POLICY message names the
 * first bad entry and why. On success keys (if not NULL) gets a copy of each
 * key, in order. */
gboolean ttg_policy_dict_apply (TtgPolicy *p, const TtgPolicyEntry *entries, gsize n_entries,
                                GPtrArray *keys, GError **error);

/* The same for SetUserPolicy: only the keys a user may set, weights bounded
 * by the system policy (ttg_user_policy_set_*). All or nothing on *u. */
gboolean ttg_user_policy_dict_apply (TtgUserPolicy *u, const TtgPolicy *system,
                                     const TtgPolicyEntry *entries, gsize n_entries, GError **error);

G_END_DECLS
