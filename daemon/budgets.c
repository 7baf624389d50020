/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "budgets.h"

typedef struct {
  TtgBudget budget;
  GArray *waiting;      /* leader pids held back, at most TTG_BUDGETS_WAITING_MAX */
  gboolean overflowed;  /* some held-back terminal was not remembered */
} UserBudget;

struct TtgBudgets {
  TtgLimits limits;
  GHashTable *users; /* uid -> UserBudget */
};

static void
user_budget_free (UserBudget *ub)
{
  g_array_unref (ub->waiting);
  g_free (ub);
}

TtgBudgets *
ttg_budgets_new (void)
{
  TtgBudgets *b = g_new0 (TtgBudgets, 1);

  ttg_limits_init_default (&b->limits);
  b->users = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) user_budget_free);
  return b;
}

void
ttg_budgets_free (TtgBudgets *b)
{
  if (!b)
    return;
  g_hash_table_unref (b->users);
  g_free (b);
}

gboolean
ttg_budgets_set_limits (TtgBudgets *b, const TtgLimits *limits)
{
  if (b->limits.max_groups == limits->max_groups && b->limits.burst == limits->burst &&
      b->limits.per_minute == limits->per_minute)
    return FALSE;
  b->limits = *limits;
  return TRUE;
}

static UserBudget *
lookup (TtgBudgets *b, uid_t uid)
{
  return g_hash_table_lookup (b->users, GUINT_TO_POINTER (uid));
}

static UserBudget *
lookup_or_add (TtgBudgets *b, uid_t uid)
{
  UserBudget *ub = lookup (b, uid);

  if (!ub)
    {
      ub = g_new0 (UserBudget, 1);
      ub->waiting = g_array_new (FALSE, FALSE, sizeof (pid_t));
      g_hash_table_insert (b->users, GUINT_TO_POINTER (uid), ub);
    }
  return ub;
}

static gint
waiting_index (const UserBudget *ub, pid_t pid)
{
  for (guint i = 0; i < ub->waiting->len; i++)
    if (g_array_index (ub->waiting, pid_t, i) == pid)
      return (gint) i;
  return -1;
}

TtgAdmit
ttg_budgets_admit (TtgBudgets *b, uid_t uid, pid_t leader, guint live_groups,
                   gint64 now_usec, char **tell, gint64 *retry_usec)
{
  UserBudget *ub = lookup_or_add (b, uid);
  TtgAdmit verdict = ttg_budget_admit (&ub->budget, &b->limits, live_groups, now_usec);
  gint i = waiting_index (ub, leader);

  *tell = NULL;
  *retry_usec = 0;
  if (verdict == TTG_ADMIT_YES)
    {
      if (i >= 0)
        g_array_remove_index_fast (ub->waiting, (guint) i);
      return verdict;
    }
  if (ttg_budget_tell_once (&ub->budget, verdict, now_usec))
    *tell = ttg_admit_explain (verdict, &b->limits);
  if (i < 0 && ub->waiting->len >= TTG_BUDGETS_WAITING_MAX)
    ub->overflowed = TRUE;
  else if (i < 0)
    g_array_append_val (ub->waiting, leader);
  if (verdict == TTG_ADMIT_TOO_FAST)
    *retry_usec = MAX (ttg_budget_usec_to_next (&ub->budget, &b->limits, now_usec), 1000);
  return verdict;
}

gboolean
ttg_budgets_has_waiting (TtgBudgets *b, uid_t uid)
{
  UserBudget *ub = lookup (b, uid);

  return ub && (ub->waiting->len > 0 || ub->overflowed);
}

GArray *
ttg_budgets_users_waiting (TtgBudgets *b)
{
  GArray *uids = g_array_new (FALSE, FALSE, sizeof (uid_t));
  GHashTableIter it;
  gpointer key;
  UserBudget *ub;

  g_hash_table_iter_init (&it, b->users);
  while (g_hash_table_iter_next (&it, &key, (gpointer *) &ub))
    if (ub->waiting->len > 0 || ub->overflowed)
      {
        uid_t uid = GPOINTER_TO_UINT (key);

        g_array_append_val (uids, uid);
      }
  return uids;
}

GArray *
ttg_budgets_take_waiting (TtgBudgets *b, uid_t uid)
{
  UserBudget *ub = lookup (b, uid);
  GArray *pids;

  if (!ub)
    return g_array_new (FALSE, FALSE, sizeof (pid_t));
  pids = ub->waiting;
  ub->waiting = g_array_new (FALSE, FALSE, sizeof (pid_t));
  return pids;
}

gboolean
ttg_budgets_retried (TtgBudgets *b, uid_t uid, gint64 now_usec)
{
  UserBudget *ub = lookup (b, uid);

  if (!ub || ub->waiting->len > 0)
    return FALSE;
  if (ub->overflowed)
    {
      /* Everything remembered got through: look for the rest once. */
      ub->overflowed = FALSE;
      return TRUE;
    }
  ttg_budget_all_clear (&ub->budget, now_usec);
  return FALSE;
}

char *
ttg_budgets_hold_text (TtgBudgets *b, uid_t uid, pid_t leader, guint live_groups)
{
  UserBudget *ub = lookup (b, uid);

  if (!ub)
    return NULL;
  if (b->limits.max_groups > 0 && live_groups >= b->limits.max_groups)
    return ttg_admit_explain (TTG_ADMIT_OVER_CAP, &b->limits);
  if (waiting_index (ub, leader) >= 0)
    return ttg_admit_explain (TTG_ADMIT_TOO_FAST, &b->limits);
  return NULL;
}

void
ttg_budgets_prune (TtgBudgets *b, gboolean (*keep) (uid_t uid, gpointer data), gpointer data)
{
  GHashTableIter it;
  gpointer key;

  g_hash_table_iter_init (&it, b->users);
  while (g_hash_table_iter_next (&it, &key, NULL))
    if (!keep (GPOINTER_TO_UINT (key), data))
      g_hash_table_iter_remove (&it);
}

guint
ttg_budgets_count (TtgBudgets *b)
{
  return g_hash_table_size (b->users);
}
