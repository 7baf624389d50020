/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* forkburst: makes the process events of a parallel build: N children, each
 * forked and exec'ing /bin/true, up to J at a time.
 *   forkburst N J [--no-exec] -> "processes=N events=~3N wall_ms=..."
 * --no-exec: children exit at once (fork + exit, 2 events each): the
 * cheapest way to flood the proc connector. */
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monotonic.h"

int
main (int argc, char **argv)
{
  int n, j, running = 0, started = 0, exec_child = 1;
  double t0;

  if (argc == 4 && strcmp (argv[3], "--no-exec") == 0)
    {
      exec_child = 0;
      argc--;
    }
  if (argc != 3 || (n = atoi (argv[1])) <= 0 || (j = atoi (argv[2])) <= 0)
    {
      fprintf (stderr, "usage: forkburst N JOBS [--no-exec]\n");
      return 2;
    }
  t0 = now_ms ();
  while (started < n || running > 0)
    {
      if (started < n && running < j)
        {
          pid_t pid = fork ();
          if (pid == 0)
            {
              if (exec_child)
                execl ("/bin/true", "true", (char *) NULL);
              _exit (exec_child ? 127 : 0);
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
  /* fork + exec + exit per child (fork + exit with --no-exec) */
  printf ("processes=%d events=%d wall_ms=%.0f\n", n, (exec_child ? 3 : 2) * n,
          now_ms () - t0);
  return 0;
}
