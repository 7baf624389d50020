/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "budgets.h"
#include "groupinfo.h"
#include "groups.h"

G_BEGIN_DECLS

/* What `GetGroupForPid` (ttygroupctl explain) says of a process: where it
 * is, what weight that group has and why, from what the manager holds. */
typedef struct {
  GHashTable *sessions; /* id -> TtgSession */
  GHashTable *verdicts; /* id -> TtgVerdict of that session */
  TtgGroups *groups;
  TtgBudgets *budgets;
} TtgExplainInput;

/* FALSE when the process does not exist (TTG_ERROR_NO_SUCH_PROCESS). */
gboolean ttg_explain_pid (const TtgExplainInput *in, pid_t pid, TtgPidInfo *out, GError **error);

G_END_DECLS
