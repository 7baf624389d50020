/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* OpenMetrics text (https://openmetrics.io, the text format): every family
 * has "# TYPE" and "# HELP" lines before its samples, which are contiguous;
 * a counter's samples end in _total; seconds are a unit (# UNIT, and the
 * name ends in _seconds); the exposition ends with "# EOF". */
#include "ctl-metrics-text.h"

#include "ttg-bus.h"

void
ctl_metrics_append_label_value (GString *out, const char *value)
{
  g_autofree char *valid = g_utf8_make_valid (value ? value : "", -1);

  for (const char *p = valid; *p; p++)
    switch (*p)
      {
      case '\\': g_string_append (out, "\\\\"); break;
      case '"': g_string_append (out, "\\\""); break;
      case '\n': g_string_append (out, "\\n"); break;
      default: g_string_append_c (out, *p); break;
      }
}

typedef enum { COUNTER, GAUGE } Kind;

static void
family (GString *out, const char *name, Kind kind, const char *unit, const char *help)
{
  g_string_append_printf (out, "# TYPE %s %s\n", name, kind == COUNTER ? "counter" : "gauge");
  if (unit)
    g_string_append_printf (out, "# UNIT %s %s\n", name, unit);
  /* help is this file's own text: nothing in it to escape */
  g_string_append_printf (out, "# HELP %s %s\n", name, help);
}

static void
group_labels (GString *out, const CtlGroupCounters *g)
{
  g_string_append (out, "{unit=\"");
  ctl_metrics_append_label_value (out, g->unit);
  g_string_append (out, "\",kind=\"");
  ctl_metrics_append_label_value (out, g->kind);
  g_string_append (out, "\",session=\"");
  ctl_metrics_append_label_value (out, g->session);
  g_string_append_printf (out, "\",uid=\"%u\"}", g->uid);
}

/* Microseconds as seconds, exactly (no rounding through a double). */
static void
append_seconds (GString *out, guint64 usec)
{
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%06u", usec / G_USEC_PER_SEC,
                          (guint) (usec % G_USEC_PER_SEC));
}

typedef enum { USAGE, SOME, FULL } Figure;

static guint64
figure_of (const CtlGroupCounters *g, Figure f)
{
  switch (f)
    {
    case USAGE: return g->usage_usec;
    case SOME: return g->pressure_some_usec;
    case FULL: return g->pressure_full_usec;
    }
  return TTG_COUNTER_UNKNOWN;
}

static void
group_seconds (GString *out, const char *name, const char *help, const CtlGroupCounters *groups, guint n, Figure f)
{
  family (out, name, COUNTER, "seconds", help);
  for (guint i = 0; i < n; i++)
    {
      guint64 v = figure_of (&groups[i], f);

      if (v == TTG_COUNTER_UNKNOWN)
        continue;
      g_string_append_printf (out, "%s_total", name);
      group_labels (out, &groups[i]);
      g_string_append_c (out, ' ');
      append_seconds (out, v);
      g_string_append_c (out, '\n');
    }
}

static void
service_counter (GString *out, const char *name, const char *help, guint64 value)
{
  family (out, name, COUNTER, NULL, help);
  g_string_append_printf (out, "%s_total %" G_GUINT64_FORMAT "\n", name, value);
}

char *
ctl_metrics_format (const CtlServiceCounters *service, const CtlGroupCounters *groups, guint n)
{
  GString *out = g_string_new (NULL);
  guint sessions = 0, terminals = 0;

  group_seconds (out, "ttygroup_group_cpu_usage_seconds",
                 "CPU time used by the processes of the group (cpu.stat usage_usec)", groups, n, USAGE);
  group_seconds (out, "ttygroup_group_cpu_pressure_some_seconds",
                 "Time in which some runnable task of the group waited for a CPU (cpu.pressure some total)",
                 groups, n, SOME);
  group_seconds (out, "ttygroup_group_cpu_pressure_full_seconds",
                 "Time in which every runnable task of the group waited for a CPU (cpu.pressure full total)",
                 groups, n, FULL);

  family (out, "ttygroup_group_weight", GAUGE, NULL,
          "CPUWeight the service gave the group (0: none, systemd's default applies)");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, "ttygroup_group_weight");
      group_labels (out, &groups[i]);
      g_string_append_printf (out, " %" G_GUINT64_FORMAT "\n", groups[i].weight);
      if (g_strcmp0 (groups[i].kind, "terminal") == 0)
        terminals++;
      else
        sessions++;
    }

  family (out, "ttygroup_groups", GAUGE, NULL, "Groups the service keeps, by kind");
  g_string_append_printf (out, "ttygroup_groups{kind=\"session\"} %u\n", sessions);
  g_string_append_printf (out, "ttygroup_groups{kind=\"terminal\"} %u\n", terminals);

  service_counter (out, "ttygroup_process_events", "Process events read from the kernel's proc connector",
                   service->process_events);
  service_counter (out, "ttygroup_lost_events",
                   "Times process events were lost (the socket overflowed; /proc was rescanned)",
                   service->lost_events);
  service_counter (out, "ttygroup_placements", "Terminal groups placed (scopes systemd started)",
                   service->placements);
  service_counter (out, "ttygroup_placement_failures", "Scope starts systemd refused or failed",
                   service->placement_failures);

  family (out, "ttygroup_effective", GAUGE, NULL,
          "1 when the CPU weights can act, 0 when not (ttygroupctl status says why)");
  g_string_append_printf (out, "ttygroup_effective %d\n", service->effective ? 1 : 0);
  family (out, "ttygroup_limitations", GAUGE, NULL, "Reasons the CPU weights cannot act (Limitations)");
  g_string_append_printf (out, "ttygroup_limitations %u\n", service->limitations);

  g_string_append (out, "# EOF\n");
  return g_string_free (out, FALSE);
}
