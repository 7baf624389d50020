/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* switchlat: runs a command that flips a setting (gsettings set ...) and
 * measures how long until every given process is in a cgroup whose path
 * contains PATTERN, polling /proc/PID/cgroup every 2 ms (no forks while
 * polling, so the measurement adds next to nothing).
 *   switchlat PATTERN PID[,PID...] TIMEOUT_MS COMMAND [ARGS...]
 * Prints "command_ms=.. total_ms=.." (total from just before the command
 * starts until the last process arrived; -1 on timeout, exit status 1). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"

/* 1 when /proc/PID/cgroup contains pattern, 0 when not, -1 when gone */
static int
in_cgroup (long pid, const char *pattern)
{
  char path[64], buf[1024];
  FILE *f;
  size_t n;

  snprintf (path, sizeof path, "/proc/%ld/cgroup", pid);
  f = fopen (path, "re");
  if (!f)
    return -1;
  n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  return strstr (buf, pattern) != NULL;
}

int
main (int argc, char **argv)
{
  long pids[256];
  int npids = 0, status;
  char *list, *tok, *save = NULL;
  double t0, t_cmd = -1, timeout;
  pid_t child;

  if (argc < 5)
    {
      fprintf (stderr, "usage: switchlat PATTERN PID[,PID...] TIMEOUT_MS COMMAND [ARGS...]\n");
      return 2;
    }
  list = strdup (argv[2]);
  for (tok = strtok_r (list, ",", &save); tok && npids < 256; tok = strtok_r (NULL, ",", &save))
    pids[npids++] = strtol (tok, NULL, 10);
  free (list);
  timeout = atof (argv[3]);

  t0 = now_ms ();
  child = fork ();
  if (child < 0)
    return 2;
  if (child == 0)
    {
      execvp (argv[4], argv + 4);
      _exit (127);
    }
  for (;;)
    {
      int arrived = 0;

      if (t_cmd < 0 && waitpid (child, &status, WNOHANG) == child)
        {
          t_cmd = now_ms () - t0;
          if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            {
              fprintf (stderr, "switchlat: %s failed\n", argv[4]);
              return 2;
            }
        }
      for (int i = 0; i < npids; i++)
        if (in_cgroup (pids[i], argv[1]) == 1)
          arrived++;
      if (arrived == npids && t_cmd >= 0)
        {
          printf ("command_ms=%.0f total_ms=%.0f\n", t_cmd, now_ms () - t0);
          return 0;
        }
      if (now_ms () - t0 > timeout)
        {
          printf ("command_ms=%.0f total_ms=-1\n", t_cmd);
          return 1;
        }
      usleep (2000);
    }
}
