/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* wakeprobe: a periodic sleeper, the interactive side of a terminal. It
 * sleeps to absolute deadlines PERIOD_US apart (clock_nanosleep,
 * TIMER_ABSTIME) for SECONDS and measures how late each wakeup is.
 *   wakeprobe SECONDS [PERIOD_US]
 *     -> "wakeups=.. avg_us=.. p99_us=.. max_us=.. missed=.. migrations=.. moved=0|1"
 * missed: deadlines that passed without a wakeup (the probe woke more than a
 * period late); migrations: the change of se.nr_migrations in
 * /proc/self/sched over the run (CPU changes; pinned with taskset it stays
 * 0); moved: 1 if /proc/self/cgroup changed during the run. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long
ts_ns (const struct timespec *ts)
{
  return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void
read_text (const char *path, char *buf, size_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  ssize_t n = fd < 0 ? -1 : read (fd, buf, size - 1);

  if (fd >= 0)
    close (fd);
  buf[n > 0 ? n : 0] = '\0';
}

static long
nr_migrations (void)
{
  static char buf[8192];
  const char *p;

  read_text ("/proc/self/sched", buf, sizeof buf);
  p = strstr (buf, "se.nr_migrations");
  if (!p || !(p = strchr (p, ':')))
    return -1;
  return strtol (p + 1, NULL, 10);
}

static int
compare (const void *a, const void *b)
{
  long long x = *(const long long *) a, y = *(const long long *) b;

  return x < y ? -1 : x > y;
}

int
main (int argc, char **argv)
{
  double seconds;
  long period_us = 1000;
  long long period, end, next, *lat;
  size_t n = 0, cap;
  long long missed = 0, sum = 0;
  long mig0, mig1;
  char cg0[512], cg1[512];
  struct timespec ts;

  if (argc < 2 || argc > 3 || (seconds = strtod (argv[1], NULL)) <= 0 ||
      (argc == 3 && (period_us = strtol (argv[2], NULL, 10)) <= 0))
    {
      fprintf (stderr, "usage: wakeprobe SECONDS [PERIOD_US]\n");
      return 2;
    }
  period = period_us * 1000LL;
  cap = (size_t) (seconds * 1e9 / period) + 2;
  lat = calloc (cap, sizeof *lat);
  if (!lat)
    return 1;

  read_text ("/proc/self/cgroup", cg0, sizeof cg0);
  mig0 = nr_migrations ();
  clock_gettime (CLOCK_MONOTONIC, &ts);
  next = ts_ns (&ts) + period;
  end = ts_ns (&ts) + (long long) (seconds * 1e9);
  while (next <= end && n < cap)
    {
      struct timespec want = { next / 1000000000LL, next % 1000000000LL };
      long long late;

      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &want, NULL) != 0)
        ;
      clock_gettime (CLOCK_MONOTONIC, &ts);
      late = ts_ns (&ts) - next;
      lat[n++] = late;
      sum += late;
      /* deadlines already behind us are missed, not slept to */
      next += period;
      while (next <= ts_ns (&ts))
        {
          next += period;
          missed++;
        }
    }
  mig1 = nr_migrations ();
  read_text ("/proc/self/cgroup", cg1, sizeof cg1);

  qsort (lat, n, sizeof *lat, compare);
  printf ("wakeups=%zu avg_us=%.0f p99_us=%.0f max_us=%.0f missed=%lld migrations=%ld moved=%d\n",
          n, n ? sum / 1e3 / n : -1.0, n ? lat[n * 99 / 100] / 1e3 : -1.0,
          n ? lat[n - 1] / 1e3 : -1.0, missed,
          mig0 >= 0 && mig1 >= 0 ? mig1 - mig0 : -1L, strcmp (cg0, cg1) != 0);
  free (lat);
  return 0;
}
