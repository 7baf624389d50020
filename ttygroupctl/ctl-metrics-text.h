/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The figures of `ttygroupctl metrics` in the OpenMetrics text format
 * (what Prometheus scrapes, and node-exporter's textfile collector reads
 * from *.prom files). No bus: unit-tested. */

#include <glib.h>

G_BEGIN_DECLS

/* One entry of ListGroupCounters; a figure may be TTG_COUNTER_UNKNOWN
 * (ttg-bus.h): its sample is left out. */
typedef struct {
  const char *unit;
  const char *session;
  guint32 uid;
  const char *kind; /* "session" or "terminal" */
  guint64 weight;   /* 0: none set by the service */
  guint64 usage_usec;
  guint64 pressure_some_usec;
  guint64 pressure_full_usec;
} CtlGroupCounters;

/* The service-wide figures: Effective and the counters of Status. */
typedef struct {
  gboolean effective;
  guint limitations;
  guint64 process_events;
  guint64 lost_events;
  guint64 placements;
  guint64 placement_failures;
} CtlServiceCounters;

/* A label value as the format has it: backslash, double quote and newline
 * escaped (\\, \", \n); anything else as it is. Invalid UTF-8 is made valid
 * (the format is UTF-8). */
void ctl_metrics_append_label_value (GString *out, const char *value);

/* The whole exposition, ending in "# EOF\n". */
char *ctl_metrics_format (const CtlServiceCounters *service, const CtlGroupCounters *groups, guint n);

G_END_DECLS
