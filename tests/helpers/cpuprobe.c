/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpuprobe: spins for a while and prints the share of one CPU it got.
 *   cpuprobe SECONDS      -> "share=0.493 cpu_ms=2465 wall_ms=5000"
 *   cpuprobe --hog        -> spins forever (a CPU hog)
 * Used by the load test and the demo: a probe next to ten hogs on one CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
now (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  volatile unsigned long spin = 0;
  double seconds, w0, c0, w, c;

  if (argc == 2 && strcmp (argv[1], "--hog") == 0)
    for (;;)
      spin++;

  if (argc != 2 || (seconds = strtod (argv[1], NULL)) <= 0)
    {
      fprintf (stderr, "usage: cpuprobe SECONDS | cpuprobe --hog\n");
      return 2;
    }

  w0 = now (CLOCK_MONOTONIC);
  c0 = now (CLOCK_PROCESS_CPUTIME_ID);
  do
    {
      for (int i = 0; i < 100000; i++)
        spin++;
      w = now (CLOCK_MONOTONIC);
    }
  while (w - w0 < seconds);
  c = now (CLOCK_PROCESS_CPUTIME_ID);

  printf ("share=%.3f cpu_ms=%.0f wall_ms=%.0f\n", (c - c0) / (w - w0), (c - c0) * 1000, (w - w0) * 1000);
  return 0;
}
