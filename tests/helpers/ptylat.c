/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptylat: opens N new terminals one after the other, each the way a terminal
 * emulator does (fork, setsid, the pty slave becomes the controlling
 * terminal, exec), and measures how long after setsid() the new process
 * finds itself in a ttygroup scope.
 *   ptylat N [TIMEOUT_MS]  -> one line per pty ("lat_ms=3.2" or "lat_ms=-1"
 *                             on timeout), then "n=.. placed=.. p50_ms=.. p99_ms=.. max_ms=.."
 * Run it inside a logind session whose terminals are grouped. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"

static int
in_group (void)
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
  return strstr (buf, "/ttygroup-pty-") != NULL;
}

static int
wait_mode (double t0, double timeout_ms)
{
  struct timespec pause = { 0, 500 * 1000 };

  for (;;)
    {
      double t = now_ms ();

      if (in_group ())
        {
          printf ("%.3f\n", t - t0);
          return 0;
        }
      if (t - t0 > timeout_ms)
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

int
main (int argc, char **argv)
{
  int n, placed = 0;
  double timeout_ms = 5000, *lat;

  if (argc == 4 && strcmp (argv[1], "--wait") == 0)
    return wait_mode (strtod (argv[2], NULL), strtod (argv[3], NULL));
  if (argc < 2 || (n = atoi (argv[1])) <= 0)
    {
      fprintf (stderr, "usage: ptylat N [TIMEOUT_MS]\n");
      return 2;
    }
  if (argc > 2)
    timeout_ms = strtod (argv[2], NULL);

  lat = calloc (n, sizeof *lat);
  for (int i = 0; i < n; i++)
    {
      int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
      int out[2];
      char buf[64] = "";
      pid_t pid;

      if (master < 0 || grantpt (master) < 0 || unlockpt (master) < 0 || pipe (out) < 0)
        {
          perror ("ptylat: pty");
          free (lat);
          return 1;
        }
      pid = fork ();
      if (pid == 0)
        {
          char t0s[32], tos[32];
          double t0 = now_ms ();
          int slave;

          setsid ();
          slave = open (ptsname (master), O_RDWR); /* becomes the controlling tty */
          if (slave < 0)
            _exit (1);
          dup2 (out[1], STDOUT_FILENO);
          snprintf (t0s, sizeof t0s, "%.3f", t0);
          snprintf (tos, sizeof tos, "%.0f", timeout_ms);
          execl ("/proc/self/exe", argv[0], "--wait", t0s, tos, (char *) NULL);
          _exit (1);
        }
      close (out[1]);
      if (read (out[0], buf, sizeof buf - 1) <= 0)
        strcpy (buf, "-1");
      close (out[0]);
      waitpid (pid, NULL, 0);
      close (master);
      lat[i] = strtod (buf, NULL);
      printf ("lat_ms=%.3f\n", lat[i]);
      if (lat[i] >= 0)
        placed++;
    }

  {
    double *ok = calloc (n, sizeof *ok);
    int k = 0;

    for (int i = 0; i < n; i++)
      if (lat[i] >= 0)
        ok[k++] = lat[i];
    qsort (ok, k, sizeof *ok, compare);
    printf ("n=%d placed=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f\n", n, placed,
            k ? ok[k / 2] : -1, k ? ok[(int) (k * 0.99) < k ? (int) (k * 0.99) : k - 1] : -1,
            k ? ok[k - 1] : -1);
    free (ok);
  }
  free (lat);
  return placed == n ? 0 : 1;
}
