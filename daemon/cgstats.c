/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpu.stat and cpu.pressure through libcgroup: it finds the cgroup v2
 * mount and the cpu controller's place in it, the service reads. It never
 * writes through it: changes go to systemd (placer.c). */
#include "build-config.h"

#include "cgstats.h"

#include <errno.h>
#include <libcgroup.h>

#include "groupstats.h"
#include "ttg-policy-keys.h"

/* cgroup_init() examines the mounts once; its answer stands for the life
 * of the process (-1: not tried yet). */
static int init_result = -1;

gboolean
ttg_cgstats_init (GError **error)
{
  if (init_result < 0)
    init_result = cgroup_init ();
  if (init_result != 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "libcgroup cannot find the cgroup hierarchy: %s",
                   cgroup_strerror (init_result));
      return FALSE;
    }
  return TRUE;
}

/* The whole of a small cgroup file, at most TTG_STATS_TEXT_MAX + 1 bytes
 * (one more than the parsers take, so a longer file is refused there and
 * not silently cut). libcgroup reads it line by line, as fgets does. */
static GString *
read_cgroup_file (const char *cgroup_path, const char *file, GError **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  char line[256];
  void *handle = NULL;
  int r;

  if (!ttg_cgstats_init (error))
    return NULL;
  /* The file name is not changed by libcgroup; its prototype lacks const. */
  r = cgroup_read_value_begin ("cpu", cgroup_path, (char *) file, &handle, line, sizeof line);
  if (r != 0 && r != ECGEOF)
    {
      /* The cgroup went away under us, most of the time. */
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "Cannot read %s of %s: %s", file, cgroup_path,
                   r == ECGOTHER ? g_strerror (cgroup_get_last_errno ()) : cgroup_strerror (r));
      return NULL;
    }
  while (r == 0 && text->len <= TTG_STATS_TEXT_MAX)
    {
      g_string_append (text, line);
      r = cgroup_read_value_next (&handle, line, sizeof line);
    }
  (void) cgroup_read_value_end (&handle);
  return g_steal_pointer (&text);
}

gboolean
ttg_cgstats_read_usage (const char *cgroup_path, guint64 *usage_usec, gint64 *at_usec, GError **error)
{
  g_autoptr(GString) text = NULL;
  gint64 at;

  at = g_get_monotonic_time ();
  text = read_cgroup_file (cgroup_path, "cpu.stat", error);
  if (!text)
    return FALSE;
  if (!ttg_cpu_stat_parse_usage (text->str, text->len, usage_usec, error))
    return FALSE;
  *at_usec = at;
  return TRUE;
}

gboolean
ttg_cgstats_read_pressure (const char *cgroup_path, double *avg10, GError **error)
{
  g_autoptr(GString) text = read_cgroup_file (cgroup_path, "cpu.pressure", error);

  return text && ttg_cpu_pressure_parse_some_avg10 (text->str, text->len, avg10, error);
}

gboolean
ttg_cgstats_read_pressure_totals (const char *cgroup_path, guint64 *some_usec, guint64 *full_usec, GError **error)
{
  g_autoptr(GString) text = read_cgroup_file (cgroup_path, "cpu.pressure", error);

  return text && ttg_cpu_pressure_parse_totals (text->str, text->len, some_usec, full_usec, error);
}
