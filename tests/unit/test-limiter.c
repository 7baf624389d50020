/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <glib.h>
#include <string.h>

#include "limiter.h"
#include "ttg-policy-keys.h"

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

/* A flood is told once: not again for each refusal, nor after the rate
 * lets a terminal through during it; again only after all was clear for
 * TTG_BUDGET_QUIET_USEC. */
static void
test_tell_once (void)
{
  TtgLimits l = limits (2, 1, 60);
  TtgBudget b = { 0 };
  guint told = 0;

  for (guint i = 0; i < 10000; i++)
    {
      TtgAdmit v = ttg_budget_admit (&b, &l, 2, T0);
      g_assert_cmpint (v, ==, TTG_ADMIT_OVER_CAP);
      told += ttg_budget_tell_once (&b, v, T0);
    }
  g_assert_cmpuint (told, ==, 1);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 1, T0), ==, TTG_ADMIT_YES);
  g_assert_false (ttg_budget_tell_once (&b, TTG_ADMIT_YES, T0));
  g_assert_false (ttg_budget_tell_once (&b, ttg_budget_admit (&b, &l, 2, T0), T0));

  /* The rate: told at the first refusal, silent while it lets one a second through. */
  told = 0;
  for (gint64 t = T0; t < T0 + 10 * SEC; t += SEC / 10)
    {
      TtgAdmit v = ttg_budget_admit (&b, &l, 1, t);
      told += ttg_budget_tell_once (&b, v, t);
    }
  g_assert_cmpuint (told, ==, 1);

  /* all clear for the quiet time: news again */
  ttg_budget_all_clear (&b, T0 + 10 * SEC);
  g_assert_true (ttg_budget_tell_once (&b, ttg_budget_admit (&b, &l, 2, T0 + 10 * SEC + TTG_BUDGET_QUIET_USEC),
                                       T0 + 10 * SEC + TTG_BUDGET_QUIET_USEC));
}

/* Held back and let through by turns (terminals opened one after the other,
 * a little faster than the rate: each waits, gets its group, and nothing
 * waits until the next one comes): one flood, told once, however long it
 * lasts; told again once it stopped for the quiet time. */
static void
test_tell_once_by_turns (void)
{
  TtgLimits l = limits (1000, 1, 60); /* one a second, no burst */
  TtgBudget b = { 0 };
  guint told = 0, admitted = 0;
  gint64 t;

  for (t = T0; t < T0 + 600 * SEC; t += SEC / 2)
    {
      TtgAdmit v = ttg_budget_admit (&b, &l, 0, t);

      if (v == TTG_ADMIT_YES)
        {
          admitted++;
          ttg_budget_all_clear (&b, t); /* the waiting list drained */
        }
      else
        told += ttg_budget_tell_once (&b, v, t);
    }
  g_assert_cmpuint (admitted, >=, 590);
  g_assert_cmpuint (told, ==, 1);

  /* the same stream after a pause shorter than the quiet time: still the flood */
  t += TTG_BUDGET_QUIET_USEC - SEC;
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, t), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, t), ==, TTG_ADMIT_TOO_FAST);
  g_assert_false (ttg_budget_tell_once (&b, TTG_ADMIT_TOO_FAST, t));
  /* after a pause of the quiet time: news */
  ttg_budget_all_clear (&b, t);
  t += TTG_BUDGET_QUIET_USEC;
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, t), ==, TTG_ADMIT_YES);
  g_assert_cmpint (ttg_budget_admit (&b, &l, 0, t), ==, TTG_ADMIT_TOO_FAST);
  g_assert_true (ttg_budget_tell_once (&b, TTG_ADMIT_TOO_FAST, t));
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

static gboolean
merge_text (TtgLimits *l, const char *text, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();

  g_assert_true (g_key_file_load_from_data (kf, text, -1, G_KEY_FILE_NONE, NULL));
  return ttg_limits_merge_keyfile (l, kf, error);
}

/* [Limits] of the configuration file: set keys change, others keep theirs. */
static void
test_keyfile (void)
{
  TtgLimits l;
  g_autofree char *text = NULL;

  ttg_limits_init_default (&l);
  g_assert_true (merge_text (&l, "[Policy]\nEnabled=true\n", NULL));
  g_assert_cmpuint (l.max_groups, ==, TTG_LIMITS_DEFAULT_MAX_GROUPS);
  g_assert_true (merge_text (&l, "[Limits]\nMaxTerminalGroupsPerUser=8 \nTerminalGroupsPerMinute=30\n", NULL));
  g_assert_cmpuint (l.max_groups, ==, 8);
  g_assert_cmpuint (l.per_minute, ==, 30);
  g_assert_cmpuint (l.burst, ==, TTG_LIMITS_DEFAULT_BURST);
  text = ttg_limits_to_string (&l);
  g_assert_cmpstr (text, ==, "MaxTerminalGroupsPerUser=8 TerminalGroupBurst=32 TerminalGroupsPerMinute=30");
}

/* A bad value or key leaves every limit as it was, and says what was wrong. */
static void
test_keyfile_invalid (void)
{
  static const struct { const char *text; const char *says; } cases[] = {
    { "[Limits]\nMaxTerminalGroupsPerUser=0\n", "MaxTerminalGroupsPerUser must be a whole number from 1 to 100000, not \"0\"" },
    { "[Limits]\nTerminalGroupBurst=-1\n", "not \"-1\"" },
    { "[Limits]\nTerminalGroupsPerMinute=1e3\n", "not \"1e3\"" },
    { "[Limits]\nTerminalGroupsPerMinute=100001\n", "from 1 to 100000" },
    { "[Limits]\nTerminalGroupsPerMinute=99999999999999999999999\n", "from 1 to 100000" },
    { "[Limits]\nTerminalGroupBurst=4\nMaxGroups=3\n", "Unknown key \"MaxGroups\" in [Limits]" },
    { "[Limits]\nTerminalGroupBurst=\n", "not \"\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TtgLimits l;
      g_autoptr(GError) error = NULL;

      ttg_limits_init_default (&l);
      g_test_message ("%s", cases[i].text);
      g_assert_false (merge_text (&l, cases[i].text, &error));
      g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
      g_assert_nonnull (strstr (error->message, cases[i].says));
      g_assert_cmpuint (l.max_groups, ==, TTG_LIMITS_DEFAULT_MAX_GROUPS);
      g_assert_cmpuint (l.burst, ==, TTG_LIMITS_DEFAULT_BURST);
      g_assert_cmpuint (l.per_minute, ==, TTG_LIMITS_DEFAULT_PER_MINUTE);
    }
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
  g_test_add_func ("/limiter/tell-once-by-turns", test_tell_once_by_turns);
  g_test_add_func ("/limiter/defaults-and-words", test_defaults_and_words);
  g_test_add_func ("/limiter/clock-back", test_clock_back);
  g_test_add_func ("/limiter/keyfile", test_keyfile);
  g_test_add_func ("/limiter/keyfile-invalid", test_keyfile_invalid);
  return g_test_run ();
}
