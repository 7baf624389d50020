/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl metrics: the OpenMetrics text, without a bus. With
 * --print-sample it prints the exposition of sample figures instead, for
 * tests/openmetrics-check.py (prometheus_client's parser, on the host). */
#include "ctl-metrics-text.h"
#include "ttg-bus.h"

#include <stdio.h>
#include <string.h>

/* Label values a unit or session name cannot hold on a real machine, but
 * the format must carry anyway. */
static const CtlGroupCounters sample_groups[] = {
  { "session-2.scope", "2", 1001, "session", 200, 12345678, 1500000, 250, },
  { "ttygroup-pty-2-812.scope", "2", 1001, "terminal", 100, 1, 0, 0, },
  { "odd\\unit\"with\nall.scope", "c\"1", 0, "terminal", 0, 999999, 1000000, TTG_COUNTER_UNKNOWN, },
  { "session-9.scope", "9", 4294967294u, "session", 0, TTG_COUNTER_UNKNOWN, TTG_COUNTER_UNKNOWN,
    TTG_COUNTER_UNKNOWN, },
};
static const CtlServiceCounters sample_service = { FALSE, 2, 184467440737095516ull, 3, 41, 7 };

static char *
label (const char *value)
{
  GString *out = g_string_new (NULL);

  ctl_metrics_append_label_value (out, value);
  return g_string_free (out, FALSE);
}

static void
test_label_escaping (void)
{
  static const struct {
    const char *in, *out;
  } cases[] = {
    { "", "" },
    { "session-2.scope", "session-2.scope" },
    { "a\\b", "a\\\\b" },
    { "say \"hi\"", "say \\\"hi\\\"" },
    { "two\nlines", "two\\nlines" },
    { "\\\"\n", "\\\\\\\"\\n" },
    { "tab\tstays", "tab\tstays" },  /* only these three are escaped */
    { "ü", "ü" },                    /* UTF-8 as it is */
    { "bad\xff", "bad\xef\xbf\xbd" }, /* not UTF-8: made valid */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = label (cases[i].in);

      g_assert_cmpstr (got, ==, cases[i].out);
    }
  {
    g_autofree char *got = label (NULL);
    g_assert_cmpstr (got, ==, "");
  }
}

static gboolean
has_line (const char *text, const char *line)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  return g_strv_contains ((const char *const *) lines, line);
}

static void
assert_line (const char *text, const char *line)
{
  if (!has_line (text, line))
    g_error ("no line \"%s\" in:\n%s", line, text);
}

static void
test_exposition (void)
{
  g_autofree char *text = ctl_metrics_format (&sample_service, sample_groups, G_N_ELEMENTS (sample_groups));

  g_test_message ("%s", text);
  g_assert_true (g_str_has_suffix (text, "\n# EOF\n"));
  g_assert_null (strstr (text, "# EOF\n#"));
  /* every family typed, with help; counters' samples end in _total */
  assert_line (text, "# TYPE ttygroup_group_cpu_usage_seconds counter");
  assert_line (text, "# UNIT ttygroup_group_cpu_usage_seconds seconds");
  assert_line (text, "# TYPE ttygroup_placements counter");
  assert_line (text, "# TYPE ttygroup_effective gauge");
  assert_line (text, "# HELP ttygroup_lost_events Times process events were lost (the socket overflowed; /proc was rescanned)");
  /* seconds exactly, from microseconds */
  assert_line (text, "ttygroup_group_cpu_usage_seconds_total{unit=\"session-2.scope\",kind=\"session\",session=\"2\",uid=\"1001\"} 12.345678");
  assert_line (text, "ttygroup_group_cpu_usage_seconds_total{unit=\"ttygroup-pty-2-812.scope\",kind=\"terminal\",session=\"2\",uid=\"1001\"} 0.000001");
  assert_line (text, "ttygroup_group_cpu_pressure_some_seconds_total{unit=\"session-2.scope\",kind=\"session\",session=\"2\",uid=\"1001\"} 1.500000");
  assert_line (text, "ttygroup_group_cpu_pressure_full_seconds_total{unit=\"session-2.scope\",kind=\"session\",session=\"2\",uid=\"1001\"} 0.000250");
  /* escaped labels */
  assert_line (text, "ttygroup_group_cpu_usage_seconds_total{unit=\"odd\\\\unit\\\"with\\nall.scope\",kind=\"terminal\",session=\"c\\\"1\",uid=\"0\"} 0.999999");
  /* unknown figures are left out, the weight is always there */
  g_assert_null (strstr (text, "ttygroup_group_cpu_usage_seconds_total{unit=\"session-9.scope\""));
  g_assert_null (strstr (text, "ttygroup_group_cpu_pressure_full_seconds_total{unit=\"odd"));
  assert_line (text, "ttygroup_group_weight{unit=\"session-9.scope\",kind=\"session\",session=\"9\",uid=\"4294967294\"} 0");
  assert_line (text, "ttygroup_group_weight{unit=\"session-2.scope\",kind=\"session\",session=\"2\",uid=\"1001\"} 200");
  assert_line (text, "ttygroup_groups{kind=\"session\"} 2");
  assert_line (text, "ttygroup_groups{kind=\"terminal\"} 2");
  assert_line (text, "ttygroup_process_events_total 184467440737095516");
  assert_line (text, "ttygroup_lost_events_total 3");
  assert_line (text, "ttygroup_placements_total 41");
  assert_line (text, "ttygroup_placement_failures_total 7");
  assert_line (text, "ttygroup_effective 0");
  assert_line (text, "ttygroup_limitations 2");
  /* no sample line holds a raw newline of a label: every line is a comment
   * or a sample of a ttygroup_ family */
  {
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

    for (char **l = lines; *l && **l; l++)
      g_assert_true (g_str_has_prefix (*l, "# ") || g_str_has_prefix (*l, "ttygroup_"));
  }
}

static void
test_no_groups (void)
{
  CtlServiceCounters s = { TRUE, 0, 0, 0, 0, 0 };
  g_autofree char *text = ctl_metrics_format (&s, NULL, 0);

  assert_line (text, "# TYPE ttygroup_group_weight gauge");
  assert_line (text, "ttygroup_groups{kind=\"session\"} 0");
  assert_line (text, "ttygroup_effective 1");
  g_assert_true (g_str_has_suffix (text, "\n# EOF\n"));
}

int
main (int argc, char **argv)
{
  if (argc == 2 && g_str_equal (argv[1], "--print-sample"))
    {
      g_autofree char *text = ctl_metrics_format (&sample_service, sample_groups, G_N_ELEMENTS (sample_groups));

      fputs (text, stdout);
      return 0;
    }
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/metrics/label-escaping", test_label_escaping);
  g_test_add_func ("/metrics/exposition", test_exposition);
  g_test_add_func ("/metrics/no-groups", test_no_groups);

  return g_test_run ();
}
