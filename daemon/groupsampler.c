/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "groupsampler.h"

#include "cgstats.h"
#include "groupstats.h"
#include "util.h"

struct TtgGroupSampler {
  TtgStatsCache *cache;
  gboolean told_unreadable; /* the journal heard once that libcgroup cannot read */
};

TtgGroupSampler *
ttg_group_sampler_new (void)
{
  TtgGroupSampler *s = g_new0 (TtgGroupSampler, 1);

  s->cache = ttg_stats_cache_new ();
  return s;
}

void
ttg_group_sampler_free (TtgGroupSampler *s)
{
  if (!s)
    return;
  ttg_stats_cache_free (s->cache);
  g_free (s);
}

gboolean
ttg_group_sampler_sample (TtgGroupSampler *s, GPtrArray *groups, GArray *figures)
{
  g_autoptr(GPtrArray) units = g_ptr_array_new ();
  g_autoptr(GError) init_error = NULL;
  gboolean complete = TRUE;

  g_array_set_size (figures, 0);
  if (!ttg_cgstats_init (&init_error) && !s->told_unreadable)
    {
      ttg_log_warn ("stats", "No CPU figures for the groups: %s", init_error->message);
      s->told_unreadable = TRUE;
    }

  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];
      TtgGroupFigures f = { -1, -1 };
      const char *cgroup = g->cgroup;
      g_autoptr(GError) error = NULL;
      TtgCpuSample sample;

      g_ptr_array_add (units, g->unit);
      if (cgroup && !init_error)
        {
          if (ttg_cgstats_read_usage (cgroup, &sample.usage_usec, &sample.at_usec, &error))
            {
              if (!ttg_stats_cache_update (s->cache, g->unit, &sample, &f.cpu))
                complete = FALSE;
            }
          else
            ttg_log_debug ("stats", "%s: %s", g->unit, error->message);
          g_clear_error (&error);
          if (!ttg_cgstats_read_pressure (cgroup, &f.pressure, &error))
            ttg_log_debug ("stats", "%s: %s", g->unit, error->message);
        }
      g_array_append_val (figures, f);
    }
  ttg_stats_cache_retain (s->cache, (const char *const *) units->pdata, units->len);
  return complete;
}

void
ttg_group_counters_read (GPtrArray *groups, GArray *counters)
{
  g_array_set_size (counters, 0);
  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];
      TtgGroupCounters c = { TTG_STATS_UNKNOWN, TTG_STATS_UNKNOWN, TTG_STATS_UNKNOWN };
      const char *cgroup = g->cgroup;
      g_autoptr(GError) error = NULL;
      gint64 at;

      if (cgroup && ttg_cgstats_init (NULL))
        {
          if (!ttg_cgstats_read_usage (cgroup, &c.usage_usec, &at, &error))
            {
              ttg_log_debug ("stats", "%s: %s", g->unit, error->message);
              c.usage_usec = TTG_STATS_UNKNOWN;
            }
          g_clear_error (&error);
          if (!ttg_cgstats_read_pressure_totals (cgroup, &c.pressure_some_usec, &c.pressure_full_usec, &error))
            ttg_log_debug ("stats", "%s: %s", g->unit, error->message);
        }
      g_array_append_val (counters, c);
    }
}

void
ttg_group_sampler_forget (TtgGroupSampler *s, const char *unit)
{
  ttg_stats_cache_forget (s->cache, unit);
}

typedef struct {
  GPtrArray *groups;
  GArray *figures;
} OrderData;

static gint
compare_by_cpu (gconstpointer a, gconstpointer b, gpointer user_data)
{
  OrderData *d = user_data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  double ci = g_array_index (d->figures, TtgGroupFigures, i).cpu;
  double cj = g_array_index (d->figures, TtgGroupFigures, j).cpu;
  const TtgGroupInfo *gi = d->groups->pdata[i], *gj = d->groups->pdata[j];

  if (ci != cj)
    return ci > cj ? -1 : 1;
  return g_strcmp0 (gi->unit, gj->unit);
}

GArray *
ttg_group_figures_order (GPtrArray *groups, GArray *figures, guint max)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), groups->len);
  OrderData d = { groups, figures };

  for (guint i = 0; i < groups->len; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_by_cpu, &d);
  if (order->len > max)
    g_array_set_size (order, max);
  return order;
}
