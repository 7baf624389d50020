/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "cpuwatch.h"

#include "cpucheck.h"
#include "util.h"

struct TtgCpuWatch {
  char *root;
  TtgCpuWatchFunc changed;
  gpointer user_data;
  sd_event_source *timer; /* the next check: soon after a request, else the slow interval */
  gboolean weights_asked;
  gboolean checked;       /* a verdict exists */
  GPtrArray *limitations; /* char *, as ttg_cpu_limitations() gave them */
  char **strv;            /* the same, NULL-terminated */
};

static void
log_change (TtgCpuWatch *w, GPtrArray *before)
{
  if (w->limitations->len == 0)
    {
      if (before)
        ttg_log_info ("cpu", "CPU weights can act again");
      return;
    }
  for (guint i = 0; i < w->limitations->len; i++)
    ttg_log_warn ("cpu", "CPU weights cannot act: %s. Grouping goes on, so the groups are ready when this is fixed.",
                  (const char *) w->limitations->pdata[i]);
}

gboolean
ttg_cpu_watch_check_now (TtgCpuWatch *w)
{
  g_auto(TtgCpuInput) in;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) before = NULL;

  ttg_cpu_input_init (&in);
  ttg_cpu_input_read (&in, w->root);
  in.check_path = w->weights_asked;
  found = ttg_cpu_limitations (&in);
  if (w->checked && ttg_cpu_limitations_equal (found, w->limitations))
    return FALSE;

  before = w->checked ? g_steal_pointer (&w->limitations) : NULL;
  g_clear_pointer (&w->limitations, g_ptr_array_unref);
  w->limitations = g_steal_pointer (&found);
  g_strfreev (w->strv);
  w->strv = g_new0 (char *, w->limitations->len + 1);
  for (guint i = 0; i < w->limitations->len; i++)
    w->strv[i] = g_strdup (w->limitations->pdata[i]);
  w->checked = TRUE;
  log_change (w, before);
  if (w->changed)
    w->changed (w->user_data);
  return TRUE;
}

static void
arm (TtgCpuWatch *w, guint64 delay_usec)
{
  if (!w->timer)
    return;
  (void) sd_event_source_set_time_relative (w->timer, delay_usec);
  (void) sd_event_source_set_enabled (w->timer, SD_EVENT_ONESHOT);
}

static int
on_timer (sd_event_source *source, uint64_t usec, void *user_data)
{
  TtgCpuWatch *w = user_data;

  (void) ttg_cpu_watch_check_now (w);
  arm (w, TTG_CPU_WATCH_INTERVAL_USEC);
  return 0;
}

TtgCpuWatch *
ttg_cpu_watch_new (sd_event *event, const char *root, TtgCpuWatchFunc changed, gpointer user_data)
{
  TtgCpuWatch *w = g_new0 (TtgCpuWatch, 1);
  int r;

  w->root = g_strdup (root);
  w->changed = changed;
  w->user_data = user_data;
  if (event)
    {
      r = sd_event_add_time_relative (event, &w->timer, CLOCK_MONOTONIC, TTG_CPU_WATCH_INTERVAL_USEC,
                                      G_USEC_PER_SEC, on_timer, w);
      if (r < 0)
        ttg_log_warn ("cpu", "No timer to check the CPU weights again: %s; checked on changes only",
                      g_strerror (-r));
    }
  /* The first verdict comes without a callback: nobody listens yet. */
  w->changed = NULL;
  (void) ttg_cpu_watch_check_now (w);
  w->changed = changed;
  return w;
}

void
ttg_cpu_watch_free (TtgCpuWatch *w)
{
  if (!w)
    return;
  sd_event_source_disable_unref (w->timer);
  g_clear_pointer (&w->limitations, g_ptr_array_unref);
  g_strfreev (w->strv);
  g_free (w->root);
  g_free (w);
}

void
ttg_cpu_watch_recheck (TtgCpuWatch *w, gboolean weights_asked)
{
  uint64_t next = 0, now = 0;
  sd_event *event;

  w->weights_asked = weights_asked;
  if (!w->timer)
    {
      (void) ttg_cpu_watch_check_now (w);
      return;
    }
  event = sd_event_source_get_event (w->timer);
  /* An earlier request already brought the check near: it stays. */
  if (sd_event_now (event, CLOCK_MONOTONIC, &now) >= 0 && sd_event_source_get_time (w->timer, &next) >= 0
      && next <= now + TTG_CPU_WATCH_SETTLE_USEC)
    return;
  arm (w, TTG_CPU_WATCH_SETTLE_USEC);
}

gboolean
ttg_cpu_watch_effective (TtgCpuWatch *w)
{
  return w->limitations->len == 0;
}

const char *const *
ttg_cpu_watch_limitations (TtgCpuWatch *w)
{
  return (const char *const *) w->strv;
}
