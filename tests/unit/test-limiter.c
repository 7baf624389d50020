/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <glib.h>
#include <string.h>

#include "limiter.h"

#define SEC ((gint64) G_USEC_PER_SEC)
#define T0 (1000 * SEC) /* any monotonic time */

static TtgLimits
limits (guint max_groups, guint burst, guint per_minute)
{
  TtgLimits l = { max_groups, burst, per_minute };
  return l;
}

/* A flood at one instant: the burst is admitted, the rest is too fast. */
static void
test_burst_then_too_fast (void)
{
  TtgLimits l = limits (0, 5, 60);
  TtgBudget b = { 0 };
  guint yes = 0;

  for (guint i = 0; i < 1000; i++)
    if (ttg_budget_admit (&b, &l, 0, T0) == TTG_ADMIT_YES)
      yes++;
  g_assert_cmpuint (yes, ==, 5);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0), ==, TTG_ADMIT_TOO_FAST);
}

/* After the burst, 60 a minute is one a second: the next comes back after
 * exactly the time ttg_budget_usec_to_next says, not before. */
static void
test_rate_refills (void)
{
  TtgLimits l = limits (0, 2, 60);
  TtgBudget b = { 0 };
  gint64 wait;

  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0), ==, TTG_ADMIT_TOO_FAST);
  wait = ttg_budget_usec_to_next (&b, &l, T0);
  g_assert_cmpint (wait, ==, SEC);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + wait - 1), ==, TTG_ADMIT_TOO_FAST);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + wait), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + wait), ==, TTG_ADMIT_TOO_FAST);

  /* A long pause fills the bucket to the burst, not beyond. */
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + 3600 * SEC), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + 3600 * SEC), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 + 3600 * SEC), ==, TTG_ADMIT_TOO_FAST);
}

/* Asked every millisecond for a minute: the rate holds on average, the
 * fractions of a token are not lost between small steps. */
static void
test_rate_over_small_steps (void)
{
  TtgLimits l = limits (0, 1, 600);
  TtgBudget b = { 0 };
  guint yes = 0;

  for (gint64 t = 0; t < 60 * SEC; t += 1000)
    if (ttg_budget_admit (&b, &l, 0, T0 + t) == TTG_ADMIT_YES)
      yes++;
  /* the burst of one, then 600 a minute */
  g_assert_cmpuint (yes, >=, 600);
  g_assert_cmpuint (yes, <=, 601);
}

/* The cap counts live groups; refusals by the cap spend no rate. */
static void
test_cap (void)
{
  TtgLimits l = limits (3, 2, 60);
  TtgBudget b = { 0 };

  g_assert_cmpint (ttg_budget_admit (&b, &l, 3, T0), ==, TTG_ADMIT_OVER_CAP);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 7, T0), ==, TTG_ADMIT_OVER_CAP);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 2, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 2, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 2, T0), ==, TTG_ADMIT_TOO_FAST);
}

/* 0 means no limit of that kind. */
static void
test_unlimited (void)
{
  TtgLimits l = limits (0, 0, 0);
  TtgBudget b = { 0 };

  for (guint i = 0; i < 100000; i++)
    g_assert_cmpint (ttg_budget_admit (&b, &l, i, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_usec_to_next (&b, &l, T0), ==, 0);
}

/* A flood is told once, again only after an admission and a new refusal. */
static void
test_tell_once (void)
{
  TtgLimits l = limits (2, 10, 60);
  TtgBudget b = { 0 };
  guint told = 0;

  for (guint i = 0; i < 10000; i++)
    {
      TtgAdmit v = ttg_budget_admit (&b, &l, 2, T0);
      g_assert_cmpint (v, ==, TTG_ADMIT_OVER_CAP);
      told += ttg_budget_tell_once (&b, v);
    }
  g_assert_cmpuint (told, ==, 1);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 1, T0), ==, TTG_ADMIT_YES);
  g_assert_false (ttg_budget_tell_once (&b, TTG_ADMIT_YES));
  g_assert_true (ttg_budget_tell_once (&b, ttg_budget_admit (&b, &l, 2, T0)));
}

/* The defaults are limits, not "no limit", and the words name the keys. */
static void
test_defaults_and_words (void)
{
  TtgLimits l;
  g_autofree char *cap = NULL;
  g_autofree char *rate = NULL;

  ttg_limits_init_default (&l);
  g_assert_cmpuint (l.max_groups, ==, 64);
  g_assert_cmpuint (l.burst, >, 0);
  g_assert_cmpuint (l.per_minute, >, 0);
  cap = ttg_admit_explain (TTG_ADMIT_OVER_CAP, &l);
  rate = ttg_admit_explain (TTG_ADMIT_TOO_FAST, &l);
  g_assert_nonnull (strstr (cap, "64"));
  g_assert_nonnull (strstr (cap, "MaxTerminalGroupsPerUser"));
  g_assert_nonnull (strstr (rate, "TerminalGroupsPerMinute"));
}

/* A clock that steps back never makes the budget negative or stuck. */
static void
test_clock_back (void)
{
  TtgLimits l = limits (0, 1, 60);
  TtgBudget b = { 0 };

  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 - 10 * SEC), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, T0 - 10 * SEC), ==, TTG_ADMIT_TOO_FAST);
  g_assert_cmpint (ttg_budget_usec_to_next (&b, &l, T0 - 10 * SEC), >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/limiter/burst-then-too-fast", test_burst_then_too_fast);
  g_test_add_func ("/limiter/rate-refills", test_rate_refills);
  g_test_add_func ("/limiter/rate-over-small-steps", test_rate_over_small_steps);
  g_test_add_func ("/limiter/cap", test_cap);
  g_test_add_func ("/limiter/unlimited", test_unlimited);
  g_test_add_func ("/limiter/tell-once", test_tell_once);
  g_test_add_func ("/limiter/defaults-and-words", test_defaults_and_words);
  g_test_add_func ("/limiter/clock-back", test_clock_back);
  return g_test_run ();
}
