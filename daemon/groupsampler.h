/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

#include "groupinfo.h"

G_BEGIN_DECLS

/* CPU figures of the groups, sampled when someone asks: the last cpu.stat
 * sample of each group is kept (groupstats.h's cache) and the rate is over
 * the time between two requests. Nothing runs between requests. */
typedef struct TtgGroupSampler TtgGroupSampler;

/* The figures of one group; -1 where not known. */
typedef struct {
  double cpu;      /* percent of one CPU, over the last interval */
  double pressure; /* cpu.pressure some avg10, 0..100 */
} TtgGroupFigures;

TtgGroupSampler *ttg_group_sampler_new (void);
void ttg_group_sampler_free (TtgGroupSampler *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgGroupSampler, ttg_group_sampler_free)

/* Samples every group of groups (TtgGroupInfo) into figures (a TtgGroupFigures
 * per group, in order) and forgets groups no longer there. TRUE when every
 * group whose cgroup could be read has its rate; FALSE when some have none
 * yet: sampling again after TTG_STATS_MIN_INTERVAL_USEC gives them one. */
gboolean ttg_group_sampler_sample (TtgGroupSampler *s, GPtrArray *groups, GArray *figures);

/* The cumulative figures of one group, in microseconds since its cgroup
 * was made; TTG_STATS_UNKNOWN where not known. */
typedef struct {
  guint64 usage_usec;         /* cpu.stat usage_usec */
  guint64 pressure_some_usec; /* cpu.pressure some total */
  guint64 pressure_full_usec; /* cpu.pressure full total */
} TtgGroupCounters;

/* Reads them for every group of groups (TtgGroupInfo) into counters (a
 * TtgGroupCounters per group, in order). Keeps nothing. */
void ttg_group_counters_read (GPtrArray *groups, GArray *counters);

/* The group went away: its sample goes too. */
void ttg_group_sampler_forget (TtgGroupSampler *s, const char *unit);

/* The indices of groups sorted by CPU, busiest first; groups without a rate
 * last, ties by unit name. At most max indices. */
GArray *ttg_group_figures_order (GPtrArray *groups, GArray *figures, guint max);

G_END_DECLS
