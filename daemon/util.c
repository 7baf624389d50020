/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "util.h"
#include "procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>
#include <unistd.h>
#include <systemd/sd-journal.h>

static gboolean log_verbose;
static int log_to_journal = -1;

void
ttg_log_set_verbose (gboolean verbose)
{
  log_verbose = verbose;
}

void
ttg_log (int priority, const char *topic, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  if (priority >= LOG_DEBUG && !log_verbose)
    return;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);

  if (log_to_journal < 0)
    log_to_journal = getenv ("JOURNAL_STREAM") != NULL;

  if (log_to_journal)
    {
      sd_journal_send ("MESSAGE=%s", msg,
                       "PRIORITY=%i", priority,
                       "TTYGROUP_TOPIC=%s", topic,
                       "SYSLOG_IDENTIFIER=ttygroupd",
                       NULL);
      return;
    }

  fprintf (stderr, "ttygroupd[%s]: %s\n", topic, msg);
}

char *
ttg_read_file (const char *path, int *r)
{
  g_autofree char *buf = NULL;
  gsize cap = 4096, len = 0;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      if (r)
        *r = -errno;
      return NULL;
    }

  buf = g_malloc (cap);
  for (;;)
    {
      ssize_t n;

      if (len + 1 >= cap)
        {
          cap *= 2;
          buf = g_realloc (buf, cap);
        }
      n = read (fd, buf + len, cap - len - 1);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (r)
            *r = -errno;
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;
      len += n;
    }
  close (fd);
  buf[len] = '\0';
  if (r)
    *r = 0;
  return g_steal_pointer (&buf);
}

GArray *
ttg_cgroup_read_procs (const char *cgroup_path)
{
  g_autofree char *path = g_strconcat (TTG_CGROUP_ROOT, cgroup_path, "/cgroup.procs", NULL);
  g_autofree char *text = ttg_read_file (path, NULL);
  g_auto(GStrv) lines = NULL;
  GArray *pids;

  if (!text)
    return NULL;

  pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      guint64 v;
      pid_t pid;

      if (!g_ascii_string_to_unsigned (*l, 10, 1, G_MAXINT32, &v, NULL))
        continue;
      pid = (pid_t) v;
      g_array_append_val (pids, pid);
    }
  return pids;
}

int
ttg_cgroup_is_populated (const char *cgroup_path)
{
  g_autofree char *path = g_strconcat (TTG_CGROUP_ROOT, cgroup_path, "/cgroup.events", NULL);
  g_autofree char *text = NULL;
  int r, populated;

  text = ttg_read_file (path, &r);
  if (!text)
    return r;
  populated = ttg_cgroup_events_populated (text);
  return populated < 0 ? -EBADMSG : populated;
}

int
ttg_cgroup_write_proc (const char *cgroup_path, pid_t pid)
{
  g_autofree char *path = g_strconcat (TTG_CGROUP_ROOT, cgroup_path, "/cgroup.procs", NULL);
  char buf[32];
  int fd, len;
  ssize_t n;

  fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  len = g_snprintf (buf, sizeof buf, "%d\n", (int) pid);
  n = write (fd, buf, len);
  if (n < 0)
    {
      int r = -errno;
      close (fd);
      return r;
    }
  close (fd);
  return 0;
}

void
ttg_timer_arm (sd_event *event, sd_event_source **source, guint64 delay_usec,
               sd_event_time_handler_t handler, void *user_data)
{
  uint64_t now, when = 0;
  int enabled = SD_EVENT_OFF;
  int r;

  if (sd_event_now (event, CLOCK_MONOTONIC, &now) < 0)
    return;
  if (!*source)
    {
      /* Accuracy 1 us: sd-event would otherwise fire up to 250 ms late, and
       * a rescan or retry that is due now should come now. */
      r = sd_event_add_time (event, source, CLOCK_MONOTONIC, now + delay_usec, 1, handler, user_data);
      if (r < 0)
        ttg_log_err ("event", "Failed to arm a timer: %s", g_strerror (-r));
      return;
    }
  (void) sd_event_source_get_enabled (*source, &enabled);
  (void) sd_event_source_get_time (*source, &when);
  if (enabled != SD_EVENT_OFF && when <= now + delay_usec)
    return;
  (void) sd_event_source_set_time (*source, now + delay_usec);
  (void) sd_event_source_set_enabled (*source, SD_EVENT_ONESHOT);
}
