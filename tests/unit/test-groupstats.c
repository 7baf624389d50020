/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The per-group CPU figures: cpu.stat and cpu.pressure as the kernel writes
 * them, rates between samples, and the cache behind the D-Bus calls. */
#include "build-config.h"

#include <string.h>

#include "groupstats.h"

/* A session scope with the cpu controller on (kernel 6.1, cgroup v2). */
static const char cpu_stat_controller[] =
  "usage_usec 48213377\n"
  "user_usec 40011233\n"
  "system_usec 8202144\n"
  "core_sched.force_idle_usec 0\n"
  "nr_periods 0\n"
  "nr_throttled 0\n"
  "throttled_usec 0\n"
  "nr_bursts 0\n"
  "burst_usec 0\n";

/* A cgroup without the cpu controller: only the core fields (kernel 6.x). */
static const char cpu_stat_core[] =
  "usage_usec 8241728000\n"
  "user_usec 7531536000\n"
  "system_usec 710192000\n"
  "nice_usec 24096000\n";

static const char cpu_pressure[] =
  "some avg10=20.45 avg60=48.93 avg300=24.73 total=573817728\n"
  "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";

static guint64
parse_usage_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  guint64 usage = 0;

  g_assert_true (ttg_cpu_stat_parse_usage (text, strlen (text), &usage, &error));
  g_assert_no_error (error);
  return usage;
}

static void
assert_usage_error (const char *text, gssize len, TtgStatsError code)
{
  g_autoptr(GError) error = NULL;
  guint64 usage = 7;

  g_assert_false (ttg_cpu_stat_parse_usage (text, len < 0 ? strlen (text) : (gsize) len, &usage, &error));
  g_assert_error (error, TTG_STATS_ERROR, (gint) code);
  g_assert_cmpuint (usage, ==, 7);
}

static void
test_cpu_stat_real (void)
{
  g_assert_cmpuint (parse_usage_ok (cpu_stat_controller), ==, 48213377);
  g_assert_cmpuint (parse_usage_ok (cpu_stat_core), ==, 8241728000);
  /* The last line without its newline (a short read) still counts. */
  g_assert_cmpuint (parse_usage_ok ("user_usec 5\nusage_usec 12"), ==, 12);
  g_assert_cmpuint (parse_usage_ok ("usage_usec 18446744073709551615\n"), ==, G_MAXUINT64);
}

static void
test_cpu_stat_malformed (void)
{
  static const char nul[] = "usage_usec 1\0usage_usec 2\n";
  g_autofree char *huge = g_strnfill (TTG_STATS_TEXT_MAX + 1, 'x');

  assert_usage_error ("", -1, TTG_STATS_ERROR_MISSING);
  assert_usage_error ("user_usec 40011233\nsystem_usec 8202144\n", -1, TTG_STATS_ERROR_MISSING);
  /* The name must start the line: a longer name that ends in it is not it. */
  assert_usage_error ("xusage_usec 12\n", -1, TTG_STATS_ERROR_MISSING);
  assert_usage_error ("usage_usec\n", -1, TTG_STATS_ERROR_MISSING);
  assert_usage_error ("usage_usec \n", -1, TTG_STATS_ERROR_MALFORMED);
  assert_usage_error ("usage_usec -3\n", -1, TTG_STATS_ERROR_MALFORMED);
  assert_usage_error ("usage_usec 12abc\n", -1, TTG_STATS_ERROR_MALFORMED);
  assert_usage_error ("usage_usec 1.5\n", -1, TTG_STATS_ERROR_MALFORMED);
  assert_usage_error ("usage_usec 18446744073709551616\n", -1, TTG_STATS_ERROR_OUT_OF_RANGE);
  assert_usage_error (nul, (gssize) sizeof nul - 1, TTG_STATS_ERROR_MALFORMED);
  assert_usage_error (huge, -1, TTG_STATS_ERROR_TOO_LONG);
  /* Only len bytes are read: the number is cut where the read ended. */
  assert_usage_error ("usage_usec 48213377\n", 11, TTG_STATS_ERROR_MALFORMED);
}

static double
parse_pressure_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  double avg10 = -1;

  g_assert_true (ttg_cpu_pressure_parse_some_avg10 (text, strlen (text), &avg10, &error));
  g_assert_no_error (error);
  return avg10;
}

static void
assert_pressure_error (const char *text, TtgStatsError code)
{
  g_autoptr(GError) error = NULL;
  double avg10 = -1;

  g_assert_false (ttg_cpu_pressure_parse_some_avg10 (text, strlen (text), &avg10, &error));
  g_assert_error (error, TTG_STATS_ERROR, (gint) code);
  g_assert_cmpfloat (avg10, ==, -1);
}

static void
test_pressure_real (void)
{
  g_assert_cmpfloat_with_epsilon (parse_pressure_ok (cpu_pressure), 20.45, 1e-9);
  g_assert_cmpfloat (parse_pressure_ok ("some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"), ==, 0);
  g_assert_cmpfloat (parse_pressure_ok ("some avg10=100.00 avg60=99.20 avg300=50.01 total=9\n"), ==, 100);
  /* Before kernel 5.13 the root's cpu.pressure had no "full" line. */
  g_assert_cmpfloat_with_epsilon (parse_pressure_ok ("some avg10=3.07 avg60=1.00 avg300=0.20 total=77"), 3.07, 1e-9);
}

static void
test_pressure_malformed (void)
{
  g_autofree char *huge = g_strnfill (TTG_STATS_TEXT_MAX + 1, 's');

  assert_pressure_error ("", TTG_STATS_ERROR_MISSING);
  /* full's avg10 is not some's */
  assert_pressure_error ("some total=5\nfull avg10=1.00 avg60=0.00 avg300=0.00 total=0\n", TTG_STATS_ERROR_MISSING);
  assert_pressure_error ("full avg10=1.00 avg60=0.00 avg300=0.00 total=0\n", TTG_STATS_ERROR_MISSING);
  assert_pressure_error ("some avg10= avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=abc avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=-1.00 avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=1,50 avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=12.345 avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=100000.00 avg60=0.00\n", TTG_STATS_ERROR_MALFORMED);
  assert_pressure_error ("some avg10=100.01 avg60=0.00\n", TTG_STATS_ERROR_OUT_OF_RANGE);
  assert_pressure_error ("some avg10=250.00 avg60=0.00\n", TTG_STATS_ERROR_OUT_OF_RANGE);
  assert_pressure_error (huge, TTG_STATS_ERROR_TOO_LONG);
}

static void
test_rate (void)
{
  TtgCpuSample a = { 1000000, 10 * G_USEC_PER_SEC };
  TtgCpuSample busy = { 1000000 + 2 * G_USEC_PER_SEC, 12 * G_USEC_PER_SEC };
  TtgCpuSample half = { 1000000 + 250000, 10 * G_USEC_PER_SEC + 500000 };
  TtgCpuSample two = { 1000000 + 4 * G_USEC_PER_SEC, 12 * G_USEC_PER_SEC };
  TtgCpuSample idle = { 1000000, 13 * G_USEC_PER_SEC };
  double pct = -1;

  g_assert_true (ttg_cpu_rate (&a, &busy, &pct, NULL));
  g_assert_cmpfloat_with_epsilon (pct, 100, 1e-9);
  g_assert_true (ttg_cpu_rate (&a, &half, &pct, NULL));
  g_assert_cmpfloat_with_epsilon (pct, 50, 1e-9);
  g_assert_true (ttg_cpu_rate (&a, &two, &pct, NULL));
  g_assert_cmpfloat_with_epsilon (pct, 200, 1e-9);
  g_assert_true (ttg_cpu_rate (&a, &idle, &pct, NULL));
  g_assert_cmpfloat (pct, ==, 0);
}

static void
test_rate_errors (void)
{
  TtgCpuSample a = { 5000, 10 * G_USEC_PER_SEC };
  TtgCpuSample same_time = { 6000, 10 * G_USEC_PER_SEC };
  TtgCpuSample earlier = { 6000, 9 * G_USEC_PER_SEC };
  TtgCpuSample reset = { 100, 11 * G_USEC_PER_SEC };
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;
  double pct = -1;

  g_assert_false (ttg_cpu_rate (&a, &same_time, &pct, &e1));
  g_assert_error (e1, TTG_STATS_ERROR, TTG_STATS_ERROR_NOT_LATER);
  g_assert_false (ttg_cpu_rate (&a, &earlier, &pct, &e2));
  g_assert_error (e2, TTG_STATS_ERROR, TTG_STATS_ERROR_NOT_LATER);
  g_assert_false (ttg_cpu_rate (&a, &reset, &pct, &e3));
  g_assert_error (e3, TTG_STATS_ERROR, TTG_STATS_ERROR_COUNTER_BACK);
  g_assert_cmpfloat (pct, ==, -1);
  g_assert_cmpstr (ttg_stats_error_to_string (TTG_STATS_ERROR_COUNTER_BACK), ==, "counter-back");
}

static gboolean
update (TtgStatsCache *c, const char *unit, guint64 usage, gint64 at_ms, double *pct)
{
  TtgCpuSample s = { usage, at_ms * G_TIME_SPAN_MILLISECOND };

  return ttg_stats_cache_update (c, unit, &s, pct);
}

static void
test_cache_rates (void)
{
  g_autoptr(TtgStatsCache) c = ttg_stats_cache_new ();
  double pct = -1;

  /* The first sample has nothing to compare with. */
  g_assert_false (update (c, "a.scope", 0, 1000, &pct));
  g_assert_cmpfloat (pct, ==, -1);
  /* Too soon, and no rate yet: still none. */
  g_assert_false (update (c, "a.scope", 100000, 1200, &pct));
  /* Measured against the first sample, not the one too soon: 1 s of CPU
   * in 1 s. */
  g_assert_true (update (c, "a.scope", 1000000, 2000, &pct));
  g_assert_cmpfloat_with_epsilon (pct, 100, 1e-9);
  /* Too soon again: the last rate, not a noisy new one. */
  pct = -1;
  g_assert_true (update (c, "a.scope", 1000000, 2100, &pct));
  g_assert_cmpfloat_with_epsilon (pct, 100, 1e-9);
  /* Idle for 1.5 s since the sample of 2000 ms. */
  g_assert_true (update (c, "a.scope", 1000000, 3500, &pct));
  g_assert_cmpfloat (pct, ==, 0);
  /* Another group has figures of its own. */
  g_assert_false (update (c, "b.scope", 7, 3500, &pct));
  g_assert_cmpuint (ttg_stats_cache_size (c), ==, 2);
}

static void
test_cache_stale_and_reset (void)
{
  g_autoptr(TtgStatsCache) c = ttg_stats_cache_new ();
  gint64 max_age_ms = TTG_STATS_MAX_AGE_USEC / G_TIME_SPAN_MILLISECOND;
  double pct = -1;

  g_assert_false (update (c, "a.scope", 0, 1000, &pct));
  g_assert_true (update (c, "a.scope", 500000, 2000, &pct));
  g_assert_cmpfloat_with_epsilon (pct, 50, 1e-9);
  /* Nobody asked for longer than the maximum age: an average over that
   * long is no figure of "now", measure again. */
  g_assert_false (update (c, "a.scope", 9000000, 2000 + max_age_ms + 1, &pct));
  g_assert_true (update (c, "a.scope", 9250000, 2000 + max_age_ms + 1001, &pct));
  g_assert_cmpfloat_with_epsilon (pct, 25, 1e-9);
  /* The unit was started again under its name: its counter restarts. */
  g_assert_false (update (c, "a.scope", 10, 2000 + max_age_ms + 2001, &pct));
  g_assert_true (update (c, "a.scope", 1000010, 2000 + max_age_ms + 3001, &pct));
  g_assert_cmpfloat_with_epsilon (pct, 100, 1e-9);
}

static void
test_cache_bounded (void)
{
  g_autoptr(TtgStatsCache) c = ttg_stats_cache_new ();
  const char *live[] = { "b.scope", "d.scope" };
  double pct;

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *unit = g_strdup_printf ("%c.scope", 'a' + i);

      (void) update (c, unit, 0, 1000, &pct);
    }
  g_assert_cmpuint (ttg_stats_cache_size (c), ==, 4);
  ttg_stats_cache_forget (c, "a.scope");
  ttg_stats_cache_forget (c, "never-seen.scope");
  g_assert_cmpuint (ttg_stats_cache_size (c), ==, 3);
  ttg_stats_cache_retain (c, live, G_N_ELEMENTS (live));
  g_assert_cmpuint (ttg_stats_cache_size (c), ==, 2);
  /* What was kept still has its sample. */
  g_assert_true (update (c, "d.scope", 1000000, 2000, &pct));
  g_assert_false (update (c, "c.scope", 1000000, 2000, &pct));
  ttg_stats_cache_retain (c, NULL, 0);
  g_assert_cmpuint (ttg_stats_cache_size (c), ==, 0);
}

static void
test_pressure_totals (void)
{
  g_autoptr(GError) error = NULL;
  guint64 some = 1, full = 1;
  static const char *const bad[] = {
    "some avg10=0.00 avg60=0.00 avg300=0.00\nfull avg10=0.00 total=3\n", /* some has no total */
    "some avg10=0.00 total=x\n",
    "some avg10=0.00 total=\n",
    "some avg10=0.00 total=12a\n",
    "some total=18446744073709551616\n",
    "some avg10=0.00 total=5\nfull avg10=0.00 total=-1\n",
    "full avg10=0.00 total=5\n", /* no some line */
    "",
  };

  g_assert_true (ttg_cpu_pressure_parse_totals (cpu_pressure, strlen (cpu_pressure), &some, &full, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (some, ==, 573817728);
  g_assert_cmpuint (full, ==, 0);

  /* the lines in any order, the total anywhere on its line */
  g_assert_true (ttg_cpu_pressure_parse_totals ("full total=7 avg10=1.00\nsome avg10=0.00 total=18446744073709551615\n",
                                                67, &some, &full, &error));
  g_assert_cmpuint (full, ==, 7);
  g_assert_cmpuint (some, ==, G_MAXUINT64);

  /* no full line: an older kernel */
  g_assert_true (ttg_cpu_pressure_parse_totals ("some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n", 48, &some, &full,
                                                &error));
  g_assert_cmpuint (some, ==, 42);
  g_assert_cmpuint (full, ==, TTG_STATS_UNKNOWN);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      some = full = 99;
      g_test_message ("%s", bad[i]);
      g_assert_false (ttg_cpu_pressure_parse_totals (bad[i], strlen (bad[i]), &some, &full, &error));
      g_assert_nonnull (error);
      g_assert_true (error->domain == TTG_STATS_ERROR);
      g_clear_error (&error);
      g_assert_cmpuint (some, ==, 99);
      g_assert_cmpuint (full, ==, 99);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/groupstats/cpu-stat/real", test_cpu_stat_real);
  g_test_add_func ("/groupstats/cpu-stat/malformed", test_cpu_stat_malformed);
  g_test_add_func ("/groupstats/pressure/real", test_pressure_real);
  g_test_add_func ("/groupstats/pressure/malformed", test_pressure_malformed);
  g_test_add_func ("/groupstats/pressure/totals", test_pressure_totals);
  g_test_add_func ("/groupstats/rate/values", test_rate);
  g_test_add_func ("/groupstats/rate/errors", test_rate_errors);
  g_test_add_func ("/groupstats/cache/rates", test_cache_rates);
  g_test_add_func ("/groupstats/cache/stale-and-reset", test_cache_stale_and_reset);
  g_test_add_func ("/groupstats/cache/bounded", test_cache_bounded);
  return g_test_run ();
}
