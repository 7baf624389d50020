/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "groupstats.h"

#include <string.h>

G_DEFINE_QUARK (ttg-stats-error-quark, ttg_stats_error)

const char *
ttg_stats_error_to_string (TtgStatsError code)
{
  switch (code)
    {
    case TTG_STATS_ERROR_TOO_LONG:
      return "too-long";
    case TTG_STATS_ERROR_MISSING:
      return "missing";
    case TTG_STATS_ERROR_MALFORMED:
      return "malformed";
    case TTG_STATS_ERROR_OUT_OF_RANGE:
      return "out-of-range";
    case TTG_STATS_ERROR_NOT_LATER:
      return "not-later";
    case TTG_STATS_ERROR_COUNTER_BACK:
      return "counter-back";
    }
  return "unknown";
}

/* The text as a string of its own, or FALSE when it cannot be a cgroup
 * file: too long, or with a NUL inside. */
static gboolean
bounded_text (const char *text, gsize len, const char *file, char **out, GError **error)
{
  if (len > TTG_STATS_TEXT_MAX)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_TOO_LONG,
                   "%s: %" G_GSIZE_FORMAT " bytes, more than %d", file, len, TTG_STATS_TEXT_MAX);
      return FALSE;
    }
  if (memchr (text, '\0', len))
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MALFORMED, "%s: a NUL byte in the text", file);
      return FALSE;
    }
  *out = g_strndup (text, len);
  return TRUE;
}

/* The rest of the line that starts with prefix, or NULL. */
static const char *
find_line (const char *text, const char *prefix)
{
  gsize n = strlen (prefix);

  for (const char *line = text; line && *line; line = strchr (line, '\n'), line = line ? line + 1 : NULL)
    if (strncmp (line, prefix, n) == 0)
      return line + n;
  return NULL;
}

gboolean
ttg_cpu_stat_parse_usage (const char *text, gsize len, guint64 *usage_usec, GError **error)
{
  g_autofree char *copy = NULL;
  const char *p;
  guint64 v = 0;
  gsize digits = 0;

  if (!bounded_text (text, len, "cpu.stat", &copy, error))
    return FALSE;
  p = find_line (copy, "usage_usec ");
  if (!p)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MISSING, "cpu.stat: no usage_usec line");
      return FALSE;
    }
  for (; g_ascii_isdigit (*p); p++, digits++)
    {
      guint d = (guint) (*p - '0');

      if (v > (G_MAXUINT64 - d) / 10)
        {
          g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_OUT_OF_RANGE,
                       "cpu.stat: usage_usec does not fit 64 bits");
          return FALSE;
        }
      v = v * 10 + d;
    }
  if (digits == 0 || (*p != '\n' && *p != '\0'))
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MALFORMED,
                   "cpu.stat: usage_usec is not a decimal number");
      return FALSE;
    }
  *usage_usec = v;
  return TRUE;
}

gboolean
ttg_cpu_pressure_parse_some_avg10 (const char *text, gsize len, double *avg10, GError **error)
{
  g_autofree char *copy = NULL;
  const char *line, *p;
  guint whole = 0, frac = 0, frac_digits = 0, int_digits = 0;

  if (!bounded_text (text, len, "cpu.pressure", &copy, error))
    return FALSE;
  line = find_line (copy, "some ");
  p = line ? strstr (line, "avg10=") : NULL;
  if (p && memchr (line, '\n', (gsize) (p - line)))
    p = NULL; /* avg10 of the next line (full) is not some's */
  if (!p)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MISSING, "cpu.pressure: no \"some avg10=\"");
      return FALSE;
    }
  /* The kernel prints "%lu.%02lu"; read it by hand: strtod would follow the
   * locale's decimal separator. */
  for (p += strlen ("avg10="); g_ascii_isdigit (*p) && int_digits < 4; p++, int_digits++)
    whole = whole * 10 + (guint) (*p - '0');
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p) && frac_digits < 2; p++, frac_digits++)
      frac = frac * 10 + (guint) (*p - '0');
  if (int_digits == 0 || (*p != ' ' && *p != '\n' && *p != '\0'))
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MALFORMED,
                   "cpu.pressure: some avg10 is not a number of the form 12.34");
      return FALSE;
    }
  if (frac_digits == 1)
    frac *= 10;
  if (whole > 100 || (whole == 100 && frac > 0))
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_OUT_OF_RANGE,
                   "cpu.pressure: some avg10 above 100%%");
      return FALSE;
    }
  *avg10 = whole + frac / 100.0;
  return TRUE;
}

/* The total= of the line of cpu.pressure that starts with prefix: TRUE
 * with *total, FALSE without an error when there is no such line, FALSE
 * with one when the line is there and its total is not a number. */
static gboolean
pressure_total (const char *copy, const char *prefix, guint64 *total, GError **error)
{
  const char *line = find_line (copy, prefix);
  const char *end, *p;
  guint64 v = 0;
  gsize digits = 0;

  if (!line)
    return FALSE;
  end = strchr (line, '\n');
  if (!end)
    end = line + strlen (line);
  for (p = line; p < end && strncmp (p, "total=", 6) != 0; p = memchr (p, ' ', (gsize) (end - p)), p = p ? p + 1 : end)
    ;
  if (p >= end)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MISSING, "cpu.pressure: no total= on the %sline", prefix);
      return FALSE;
    }
  for (p += 6; p < end && g_ascii_isdigit (*p); p++, digits++)
    {
      guint d = (guint) (*p - '0');

      if (v > (G_MAXUINT64 - d) / 10)
        {
          g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_OUT_OF_RANGE,
                       "cpu.pressure: the %stotal does not fit 64 bits", prefix);
          return FALSE;
        }
      v = v * 10 + d;
    }
  if (digits == 0 || (p < end && *p != ' '))
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_MALFORMED,
                   "cpu.pressure: the %stotal is not a decimal number", prefix);
      return FALSE;
    }
  *total = v;
  return TRUE;
}

gboolean
ttg_cpu_pressure_parse_totals (const char *text, gsize len, guint64 *some_usec, guint64 *full_usec,
                               GError **error)
{
  g_autofree char *copy = NULL;
  guint64 some = 0, full = TTG_STATS_UNKNOWN;
  GError *local = NULL;

  if (!bounded_text (text, len, "cpu.pressure", &copy, error))
    return FALSE;
  if (!pressure_total (copy, "some ", &some, &local))
    {
      if (!local)
        g_set_error (&local, TTG_STATS_ERROR, TTG_STATS_ERROR_MISSING, "cpu.pressure: no \"some\" line");
      g_propagate_error (error, local);
      return FALSE;
    }
  if (!pressure_total (copy, "full ", &full, &local))
    {
      if (local)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      full = TTG_STATS_UNKNOWN; /* kernels before 5.13 keep no full line for cgroups */
    }
  *some_usec = some;
  *full_usec = full;
  return TRUE;
}

gboolean
ttg_cpu_rate (const TtgCpuSample *prev, const TtgCpuSample *cur, double *percent, GError **error)
{
  if (cur->at_usec <= prev->at_usec)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_NOT_LATER,
                   "the second sample (%" G_GINT64_FORMAT " us) is not after the first (%" G_GINT64_FORMAT " us)",
                   cur->at_usec, prev->at_usec);
      return FALSE;
    }
  if (cur->usage_usec < prev->usage_usec)
    {
      g_set_error (error, TTG_STATS_ERROR, TTG_STATS_ERROR_COUNTER_BACK,
                   "usage went down from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT " us",
                   prev->usage_usec, cur->usage_usec);
      return FALSE;
    }
  *percent = 100.0 * (double) (cur->usage_usec - prev->usage_usec) / (double) (cur->at_usec - prev->at_usec);
  return TRUE;
}

typedef struct {
  TtgCpuSample prev;
  gboolean has_rate;
  double rate;
} CacheEntry;

struct TtgStatsCache {
  GHashTable *entries; /* unit -> CacheEntry */
};

TtgStatsCache *
ttg_stats_cache_new (void)
{
  TtgStatsCache *c = g_new0 (TtgStatsCache, 1);

  c->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return c;
}

void
ttg_stats_cache_free (TtgStatsCache *c)
{
  if (!c)
    return;
  g_hash_table_unref (c->entries);
  g_free (c);
}

gboolean
ttg_stats_cache_update (TtgStatsCache *c, const char *unit, const TtgCpuSample *sample, double *percent)
{
  CacheEntry *e = g_hash_table_lookup (c->entries, unit);
  double rate;

  if (!e)
    {
      e = g_new0 (CacheEntry, 1);
      e->prev = *sample;
      g_hash_table_insert (c->entries, g_strdup (unit), e);
      return FALSE;
    }
  if (sample->at_usec - e->prev.at_usec > TTG_STATS_MAX_AGE_USEC)
    {
      e->prev = *sample;
      e->has_rate = FALSE;
      return FALSE;
    }
  if (sample->at_usec - e->prev.at_usec < TTG_STATS_MIN_INTERVAL_USEC)
    {
      /* Keep the older sample: the interval grows until it is long enough. */
      if (e->has_rate)
        *percent = e->rate;
      return e->has_rate;
    }
  if (!ttg_cpu_rate (&e->prev, sample, &rate, NULL))
    {
      /* Another cgroup under the same name: start again from this one. */
      e->prev = *sample;
      e->has_rate = FALSE;
      return FALSE;
    }
  e->prev = *sample;
  e->rate = rate;
  e->has_rate = TRUE;
  *percent = rate;
  return TRUE;
}

void
ttg_stats_cache_forget (TtgStatsCache *c, const char *unit)
{
  g_hash_table_remove (c->entries, unit);
}

void
ttg_stats_cache_retain (TtgStatsCache *c, const char *const *units, guint n)
{
  GHashTableIter it;
  const char *unit;

  g_hash_table_iter_init (&it, c->entries);
  while (g_hash_table_iter_next (&it, (gpointer *) &unit, NULL))
    {
      gboolean live = FALSE;

      for (guint i = 0; i < n && !live; i++)
        live = g_str_equal (units[i], unit);
      if (!live)
        g_hash_table_iter_remove (&it);
    }
}

guint
ttg_stats_cache_size (TtgStatsCache *c)
{
  return g_hash_table_size (c->entries);
}
