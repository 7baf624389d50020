/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Per-group CPU figures from the text of cgroup v2 files: cpu.stat's
 * usage_usec, turned into a rate between two samples, and cpu.pressure's
 * "some avg10". Pure: text and monotonic timestamps in, numbers out; the
 * files are read by cgstats.c. */

/* cpu.stat is ~150 bytes (~250 with the cpu controller on), cpu.pressure
 * ~110: anything longer is not one of them, and is not parsed. */
#define TTG_STATS_TEXT_MAX 4096

#define TTG_STATS_ERROR (ttg_stats_error_quark ())
GQuark ttg_stats_error_quark (void);

typedef enum {
  TTG_STATS_ERROR_TOO_LONG,       /* more than TTG_STATS_TEXT_MAX bytes */
  TTG_STATS_ERROR_MISSING,        /* the field is not in the text */
  TTG_STATS_ERROR_MALFORMED,      /* the field is there, its value is not a number */
  TTG_STATS_ERROR_OUT_OF_RANGE,   /* a number beyond what the kernel can report */
  TTG_STATS_ERROR_NOT_LATER,      /* the second sample is not after the first */
  TTG_STATS_ERROR_COUNTER_BACK,   /* usage went down: not the same cgroup any more */
} TtgStatsError;

/* "too-long", "missing", ...: for the journal and the tests. */
const char *ttg_stats_error_to_string (TtgStatsError code);

/* usage_usec from the text of cpu.stat (len bytes, need not end in NUL). */
gboolean ttg_cpu_stat_parse_usage (const char *text, gsize len, guint64 *usage_usec, GError **error);

/* avg10 of the "some" line of cpu.pressure, a percentage 0..100. */
gboolean ttg_cpu_pressure_parse_some_avg10 (const char *text, gsize len, double *avg10, GError **error);

/* A figure the kernel does not keep. */
#define TTG_STATS_UNKNOWN G_MAXUINT64

/* The total= (microseconds) of the "some" and "full" lines of cpu.pressure.
 * No full line (older kernels): *full_usec is TTG_STATS_UNKNOWN. Nothing
 * is set on error. */
gboolean ttg_cpu_pressure_parse_totals (const char *text, gsize len, guint64 *some_usec, guint64 *full_usec,
                                        GError **error);

/* One reading of a group's cpu.stat, with the CLOCK_MONOTONIC time it was
 * taken at. */
typedef struct {
  guint64 usage_usec;
  gint64 at_usec;
} TtgCpuSample;

/* The CPU used between prev and cur, in percent of one CPU (200 = two CPUs
 * busy). NOT_LATER when cur is not after prev, COUNTER_BACK when the usage
 * went down (the unit was stopped and started again under its name). */
gboolean ttg_cpu_rate (const TtgCpuSample *prev, const TtgCpuSample *cur, double *percent,
                       GError **error);

/* Rates are over at least this long: two calls closer together return the
 * rate of the last such interval instead of a noisy one. */
#define TTG_STATS_MIN_INTERVAL_USEC (500 * G_TIME_SPAN_MILLISECOND)
/* A sample older than this is not "the last seconds" any more: it is
 * forgotten and the rate is measured again. */
#define TTG_STATS_MAX_AGE_USEC (30 * G_TIME_SPAN_SECOND)

/* The last sample and rate of every group asked about, by unit name. Its
 * size is that of the groups: entries go with ttg_stats_cache_forget() and
 * ttg_stats_cache_retain(). */
typedef struct TtgStatsCache TtgStatsCache;

TtgStatsCache *ttg_stats_cache_new (void);
void ttg_stats_cache_free (TtgStatsCache *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgStatsCache, ttg_stats_cache_free)

/* Gives the cache a new sample of unit. TRUE with *percent when a rate over
 * the last interval is known (this sample against one at least
 * TTG_STATS_MIN_INTERVAL_USEC older, or the last such rate when this one
 * comes too soon); FALSE when there is none yet (first sample, or the one
 * before is too old or of another cgroup): ask again after
 * TTG_STATS_MIN_INTERVAL_USEC. */
gboolean ttg_stats_cache_update (TtgStatsCache *c, const char *unit, const TtgCpuSample *sample,
                                 double *percent);
void ttg_stats_cache_forget (TtgStatsCache *c, const char *unit);
/* Drops every entry whose unit is not among the n units. */
void ttg_stats_cache_retain (TtgStatsCache *c, const char *const *units, guint n);
guint ttg_stats_cache_size (TtgStatsCache *c);

G_END_DECLS
