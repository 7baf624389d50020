/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "limiter.h"

#include "ttg-policy-keys.h"

void
ttg_limits_init_default (TtgLimits *l)
{
  l->max_groups = TTG_LIMITS_DEFAULT_MAX_GROUPS;
  l->burst = TTG_LIMITS_DEFAULT_BURST;
  l->per_minute = TTG_LIMITS_DEFAULT_PER_MINUTE;
}

#define MILLI 1000u
#define USEC_PER_MINUTE (60 * G_USEC_PER_SEC)

static guint64
burst_milli (const TtgLimits *l)
{
  return (guint64) MAX (l->burst, 1u) * MILLI;
}

/* Brings the bucket up to now: per_minute tokens a minute, at most burst. */
static void
refill (TtgBudget *b, const TtgLimits *l, gint64 now_usec)
{
  guint64 full = burst_milli (l);

  if (b->last_usec == 0 || now_usec < b->last_usec)
    {
      /* First use, or a clock that went back (it does not, but a budget
       * must never go negative): a full bucket. */
      b->milli_tokens = full;
      b->last_usec = now_usec;
      return;
    }
  {
    guint64 elapsed = (guint64) (now_usec - b->last_usec);
    /* elapsed * per_minute * 1000 / 60e6, without overflow for any elapsed
     * that matters: a bucket is full after burst/per_minute minutes. */
    guint64 cap_elapsed = (guint64) 365 * 24 * 3600 * G_USEC_PER_SEC;
    guint64 gained = MIN (elapsed, cap_elapsed) * l->per_minute / (USEC_PER_MINUTE / MILLI);

    if (gained == 0)
      return; /* keep last_usec, so small steps add up */
    b->milli_tokens = MIN (full, b->milli_tokens + gained);
    /* Advance by the time the gained tokens stand for, not to now: the
     * remainder is not lost. */
    if (b->milli_tokens == full)
      b->last_usec = now_usec;
    else
      b->last_usec += (gint64) (gained * (USEC_PER_MINUTE / MILLI) / l->per_minute);
  }
}

TtgAdmit
ttg_budget_admit (TtgBudget *b, const TtgLimits *l, guint live_groups, gint64 now_usec)
{
  if (l->max_groups > 0 && live_groups >= l->max_groups)
    return TTG_ADMIT_OVER_CAP;
  if (l->per_minute > 0)
    {
      refill (b, l, now_usec);
      if (b->milli_tokens < MILLI)
        return TTG_ADMIT_TOO_FAST;
      b->milli_tokens -= MILLI;
    }
  return TTG_ADMIT_YES;
}

void
ttg_budget_all_clear (TtgBudget *b, gint64 now_usec)
{
  if (b->clear_usec == 0)
    b->clear_usec = MAX (now_usec, 1);
}

gint64
ttg_budget_usec_to_next (const TtgBudget *b, const TtgLimits *l, gint64 now_usec)
{
  TtgBudget copy = *b;
  guint64 missing;
  gint64 wait;

  if (l->per_minute == 0)
    return 0;
  refill (&copy, l, now_usec);
  if (copy.milli_tokens >= MILLI)
    return 0;
  missing = MILLI - copy.milli_tokens;
  /* Round up: the caller must not come back a microsecond too early. */
  wait = (gint64) ((missing * (USEC_PER_MINUTE / MILLI) + l->per_minute - 1) / l->per_minute)
         - (now_usec - copy.last_usec);
  return MAX (wait, 1);
}

gboolean
ttg_budget_tell_once (TtgBudget *b, TtgAdmit verdict, gint64 now_usec)
{
  gboolean *told;

  switch (verdict)
    {
    case TTG_ADMIT_OVER_CAP: told = &b->told_cap; break;
    case TTG_ADMIT_TOO_FAST: told = &b->told_rate; break;
    case TTG_ADMIT_YES:
    default: return FALSE;
    }
  if (b->clear_usec != 0)
    {
      if (now_usec - b->clear_usec >= TTG_BUDGET_QUIET_USEC)
        b->told_cap = b->told_rate = FALSE;
      b->clear_usec = 0;
    }
  if (*told)
    return FALSE;
  *told = TRUE;
  return TRUE;
}

char *
ttg_admit_explain (TtgAdmit verdict, const TtgLimits *l)
{
  switch (verdict)
    {
    case TTG_ADMIT_OVER_CAP:
      return g_strdup_printf ("its user has %u terminal groups already, the most one user may have (MaxTerminalGroupsPerUser)",
                              l->max_groups);
    case TTG_ADMIT_TOO_FAST:
      return g_strdup_printf ("its user opened terminals faster than %u new groups a minute after a burst of %u (TerminalGroupsPerMinute, TerminalGroupBurst)",
                              l->per_minute, MAX (l->burst, 1u));
    case TTG_ADMIT_YES:
    default:
      return g_strdup ("it is within its user's limits");
    }
}

static guint *
limit_field (TtgLimits *l, const char *key)
{
  if (g_str_equal (key, TTG_KEY_MAX_TERMINAL_GROUPS_PER_USER))
    return &l->max_groups;
  if (g_str_equal (key, TTG_KEY_TERMINAL_GROUP_BURST))
    return &l->burst;
  if (g_str_equal (key, TTG_KEY_TERMINAL_GROUPS_PER_MINUTE))
    return &l->per_minute;
  return NULL;
}

gboolean
ttg_limits_merge_keyfile (TtgLimits *l, GKeyFile *kf, GError **error)
{
  g_auto(GStrv) keys = NULL;
  TtgLimits merged = *l;

  if (!g_key_file_has_group (kf, TTG_LIMITS_GROUP))
    return TRUE;
  keys = g_key_file_get_keys (kf, TTG_LIMITS_GROUP, NULL, error);
  if (!keys)
    return FALSE;

  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = g_key_file_get_value (kf, TTG_LIMITS_GROUP, keys[i], error);
      guint *field = limit_field (&merged, keys[i]);
      guint64 n = 0;
      gboolean overflow = FALSE;

      if (!value)
        return FALSE;
      g_strchomp (value); /* as in [Policy]: trailing blanks are not part of a value */
      if (!field)
        {
          g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                       "Unknown key \"%s\" in [" TTG_LIMITS_GROUP "] (known: "
                       TTG_KEY_MAX_TERMINAL_GROUPS_PER_USER ", " TTG_KEY_TERMINAL_GROUP_BURST ", "
                       TTG_KEY_TERMINAL_GROUPS_PER_MINUTE ")", keys[i]);
          return FALSE;
        }
      if (!ttg_parse_decimal (value, &n, &overflow) || overflow || n < 1 || n > TTG_LIMITS_MAX_VALUE)
        {
          g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                       "%s must be a whole number from 1 to %u, not \"%s\"",
                       keys[i], (unsigned) TTG_LIMITS_MAX_VALUE, value);
          return FALSE;
        }
      *field = (guint) n;
    }
  *l = merged;
  return TRUE;
}

char *
ttg_limits_to_string (const TtgLimits *l)
{
  return g_strdup_printf (TTG_KEY_MAX_TERMINAL_GROUPS_PER_USER "=%u " TTG_KEY_TERMINAL_GROUP_BURST "=%u "
                          TTG_KEY_TERMINAL_GROUPS_PER_MINUTE "=%u",
                          l->max_groups, l->burst, l->per_minute);
}
