/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* scopelat: the floor of placing a new terminal through systemd. N times:
 * fork; the child setsid()s and execs itself in a wait mode that polls
 * /proc/self/cgroup every 0.5 ms (as ptylat's children do); once the child
 * runs that exec, this process asks PID 1 for a scope holding it
 * (StartTransientUnit scopelat-PID.scope with PIDs=[child] and the
 * properties ttygroupd gives a terminal's scope: Slice=SLICE, CPUWeight=100,
 * Description, CollectMode, DelegateControllers=cpu, PartOf= and After=
 * SESSION_SCOPE) and waits for the job. The child's time from setsid() to
 * seeing itself in the scope is what ptylat measures for ttygroupd, with
 * nothing in between but one bare StartTransientUnit round trip of the same
 * request.
 *   scopelat N SLICE SESSION_SCOPE
 *     -> one "lat_ms=.." line per terminal (-1: not placed in 10 s),
 *        then "n=.. placed=.. p50_ms=.. p99_ms=.. max_ms=.."
 * Needs root (PID 1 starts units for root without asking polkit). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#include "monotonic.h"

static int
in_scope (void)
{
  char buf[512];
  int fd = open ("/proc/self/cgroup", O_RDONLY | O_CLOEXEC);
  ssize_t n;

  if (fd < 0)
    return 0;
  n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  return strstr (buf, "/scopelat-") != NULL;
}

static int
wait_mode (double t0, int ready_fd)
{
  struct timespec pause = { 0, 500 * 1000 };

  (void) !write (ready_fd, "r", 1);
  close (ready_fd);
  for (;;)
    {
      double t = now_ms ();

      if (in_scope ())
        {
          printf ("%.3f\n", t - t0);
          return 0;
        }
      if (t - t0 > 10000)
        {
          printf ("-1\n");
          return 0;
        }
      nanosleep (&pause, NULL);
    }
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static const char *job_path;
static int job_done;

static int
on_job_removed (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  const char *path, *unit, *result;
  uint32_t id;

  if (sd_bus_message_read (m, "uoss", &id, &path, &unit, &result) >= 0 && job_path &&
      strcmp (path, job_path) == 0)
    job_done = 1;
  return 0;
}

static int
start_scope (sd_bus *bus, pid_t pid, const char *slice, const char *session_scope)
{
  sd_bus_message *m = NULL, *reply = NULL;
  sd_bus_error err = SD_BUS_ERROR_NULL;
  char unit[64];
  uint32_t p = (uint32_t) pid;
  int r;

  snprintf (unit, sizeof unit, "scopelat-%d.scope", (int) pid);
  r = sd_bus_message_new_method_call (bus, &m, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                      "org.freedesktop.systemd1.Manager", "StartTransientUnit");
  if (r >= 0)
    r = sd_bus_message_append (m, "ssa(sv)a(sa(sv))", unit, "fail", 8,
                               "Description", "s", "scopelat terminal",
                               "Slice", "s", slice,
                               "CollectMode", "s", "inactive-or-failed",
                               "DelegateControllers", "as", 1, "cpu",
                               "PartOf", "as", 1, session_scope,
                               "After", "as", 1, session_scope,
                               "CPUWeight", "t", (uint64_t) 100,
                               "PIDs", "au", 1, p,
                               0);
  if (r >= 0)
    r = sd_bus_call (bus, m, 0, &err, &reply);
  if (r >= 0)
    r = sd_bus_message_read (reply, "o", &job_path);
  if (r < 0)
    fprintf (stderr, "scopelat: StartTransientUnit: %s\n", err.message ? err.message : strerror (-r));
  job_done = 0;
  while (r >= 0 && !job_done)
    {
      r = sd_bus_process (bus, NULL);
      if (r == 0)
        r = sd_bus_wait (bus, 2000000);
    }
  job_path = NULL;
  sd_bus_message_unref (reply);
  sd_bus_message_unref (m);
  sd_bus_error_free (&err);
  return r < 0 ? r : 0;
}

int
main (int argc, char **argv)
{
  sd_bus *bus = NULL;
  int n, placed = 0, r;
  double *lat, *ok;

  if (argc == 4 && strcmp (argv[1], "--wait") == 0)
    return wait_mode (strtod (argv[2], NULL), atoi (argv[3]));
  if (argc != 4 || (n = atoi (argv[1])) <= 0)
    {
      fprintf (stderr, "usage: scopelat N SLICE SESSION_SCOPE\n");
      return 2;
    }
  r = sd_bus_open_system (&bus);
  if (r >= 0)
    r = sd_bus_match_signal (bus, NULL, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                             "org.freedesktop.systemd1.Manager", "JobRemoved", on_job_removed, NULL);
  if (r >= 0)
    r = sd_bus_call_method (bus, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                            "org.freedesktop.systemd1.Manager", "Subscribe", NULL, NULL, NULL);
  if (r < 0)
    {
      fprintf (stderr, "scopelat: system bus: %s\n", strerror (-r));
      return 1;
    }

  lat = calloc (n, sizeof *lat);
  ok = calloc (n, sizeof *ok);
  for (int i = 0; i < n; i++)
    {
      int out[2], ready[2];
      char buf[64] = "", c;
      pid_t pid;

      if (pipe2 (out, O_CLOEXEC) < 0 || pipe (ready) < 0)
        return 1;
      pid = fork ();
      if (pid == 0)
        {
          char t0s[32], fds[16];
          double t0;

          setsid ();
          t0 = now_ms ();
          close (ready[0]);
          dup2 (out[1], STDOUT_FILENO);
          snprintf (t0s, sizeof t0s, "%.3f", t0);
          snprintf (fds, sizeof fds, "%d", ready[1]);
          execl ("/proc/self/exe", argv[0], "--wait", t0s, fds, (char *) NULL);
          _exit (1);
        }
      close (out[1]);
      close (ready[1]);
      if (read (ready[0], &c, 1) == 1)
        (void) start_scope (bus, pid, argv[2], argv[3]);
      close (ready[0]);
      if (read (out[0], buf, sizeof buf - 1) <= 0)
        strcpy (buf, "-1");
      close (out[0]);
      waitpid (pid, NULL, 0);
      lat[i] = strtod (buf, NULL);
      printf ("lat_ms=%.3f\n", lat[i]);
      if (lat[i] >= 0)
        ok[placed++] = lat[i];
    }
  qsort (ok, placed, sizeof *ok, compare);
  printf ("n=%d placed=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f\n", n, placed,
          placed ? ok[placed / 2] : -1, placed ? ok[(int) (placed * 0.99) < placed ? (int) (placed * 0.99) : placed - 1] : -1,
          placed ? ok[placed - 1] : -1);
  free (ok);
  free (lat);
  sd_bus_flush_close_unref (bus);
  return 0;
}
