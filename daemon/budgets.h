/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "limiter.h"

G_BEGIN_DECLS

/* Per-user admission of new terminal groups under the [Limits]: one
 * budget (limiter.h) per user who has a session, and the terminals it held
 * back, to be tried again when it allows. Pure: no I/O, no clock (times
 * are given), no timers (the caller arms them with what it is told). */
typedef struct TtgBudgets TtgBudgets;

/* How many held-back terminals of one user are remembered to be tried
 * again; more than that wait for the next full scan. Keeps a flood of ptys
 * from growing the service. */
#define TTG_BUDGETS_WAITING_MAX 64

TtgBudgets *ttg_budgets_new (void);
void ttg_budgets_free (TtgBudgets *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgBudgets, ttg_budgets_free)

/* FALSE when limits equal the ones in force (nothing changes). */
gboolean ttg_budgets_set_limits (TtgBudgets *b, const TtgLimits *limits);

/* May the terminal led by leader, of uid, who has live_groups terminal
 * groups now, get one more? TTG_ADMIT_YES takes a token and forgets that
 * the leader waited. A refusal remembers the leader (up to
 * TTG_BUDGETS_WAITING_MAX), sets *tell to the reason in words the first
 * time since the user's last all-clear (NULL otherwise: said once), and
 * *retry_usec to when a try may succeed (0: when a place is freed). */
TtgAdmit ttg_budgets_admit (TtgBudgets *b, uid_t uid, pid_t leader, guint live_groups,
                            gint64 now_usec, char **tell, gint64 *retry_usec);

/* Held-back terminals of uid to be tried again: remembered leaders, or some
 * that were not remembered. */
gboolean ttg_budgets_has_waiting (TtgBudgets *b, uid_t uid);

/* The users who have held-back terminals (uid_t). */
GArray *ttg_budgets_users_waiting (TtgBudgets *b);

/* The remembered leaders of uid (pid_t); uid remembers none afterwards. */
GArray *ttg_budgets_take_waiting (TtgBudgets *b, uid_t uid);

/* After the leaders taken were tried (at now_usec): TRUE when a full scan
 * must look for terminals that were held back but not remembered (once).
 * When nothing of uid waits any more, a refusal after TTG_BUDGET_QUIET_USEC
 * of that is news again. */
gboolean ttg_budgets_retried (TtgBudgets *b, uid_t uid, gint64 now_usec);

/* Why the terminal led by leader is held back now ("the cap of ..."), or
 * NULL when it is not. */
char *ttg_budgets_hold_text (TtgBudgets *b, uid_t uid, pid_t leader, guint live_groups);

/* Forgets the budgets of users for whom keep(uid, data) is FALSE (a budget
 * lives as long as its user has a session: bounded by logind). */
void ttg_budgets_prune (TtgBudgets *b, gboolean (*keep) (uid_t uid, gpointer data), gpointer data);

guint ttg_budgets_count (TtgBudgets *b);

G_END_DECLS
