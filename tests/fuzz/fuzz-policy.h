/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the harnesses of policy parsers check of any policy they produce. */
#pragma once

#include "fuzz.h"
#include "policy.h"

/* Every weight a parser lets through is in range. */
static inline void
fuzz_check_policy_weights (const TtgPolicy *p)
{
  const guint64 w[] = { p->active_session_weight, p->session_weight, p->remote_session_weight,
                        p->terminal_weight };

  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    FUZZ_CHECK (w[i] >= TTG_WEIGHT_MIN && w[i] <= TTG_WEIGHT_MAX);
}
