/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "policy.h"

G_BEGIN_DECLS

/* Policy keys set over D-Bus, kept in a key file under the state directory
 * so they survive restart and reboot; they win over ttygroup.conf. Only the
 * keys actually set are kept: a key never set over D-Bus follows the file. */
typedef struct TtgState TtgState;

/* Loads path if it exists; a bad file is logged and ignored (the
 * configuration files still apply). */
TtgState *ttg_state_new (const char *path);
void ttg_state_free (TtgState *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgState, ttg_state_free)

/* Applies the saved keys on top of *p (all or nothing). */
gboolean ttg_state_apply (TtgState *s, TtgPolicy *p, GError **error);

/* Records keys (NULL-terminated) with their values from p and writes the
 * file atomically. On error nothing is recorded. */
gboolean ttg_state_save_keys (TtgState *s, const TtgPolicy *p, const char *const *keys,
                              GError **error);

G_END_DECLS
