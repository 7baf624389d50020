/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* forkburst: makes the process events of a parallel build: N children, each
 * forked and exec'ing /bin/true, up to J at a time.
 *   forkburst N J  -> "processes=N events=~3N wall_ms=..." */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  int n, j, running = 0, started = 0;
  struct timespec a, b;

  if (argc != 3 || (n = atoi (argv[1])) <= 0 || (j = atoi (argv[2])) <= 0)
    {
      fprintf (stderr, "usage: forkburst N JOBS\n");
      return 2;
    }
  clock_gettime (CLOCK_MONOTONIC, &a);
  while (started < n || running > 0)
    {
      if (started < n && running < j)
        {
          pid_t pid = fork ();
          if (pid == 0)
            {
              execl ("/bin/true", "true", (char *) NULL);
              _exit (127);
            }
          if (pid > 0)
            {
              started++;
              running++;
              continue;
            }
        }
      if (wait (NULL) > 0)
        running--;
    }
  clock_gettime (CLOCK_MONOTONIC, &b);
  /* fork + exec + exit per child */
  printf ("processes=%d events=%d wall_ms=%.0f\n", n, 3 * n,
          (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
  return 0;
}
