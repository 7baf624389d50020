/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ptyflood: what a hostile or runaway local user does to the service: opens
 * TOTAL terminals in a loop as fast as it can, each the way a terminal
 * emulator does (fork, setsid, a new pty becomes the controlling terminal,
 * exec), with at most LIVE of them alive at once, each living HOLD_MS.
 *   ptyflood TOTAL LIVE HOLD_MS [MAX_SECONDS]
 *     -> "progress opened=.. seconds=.." every 1000 terminals, then
 *        "opened=.. seconds=.. per_second=.. failed=.."
 * MAX_SECONDS stops opening new terminals after that long (a slow machine
 * then opens fewer than TOTAL; the last line says how many).
 * The terminals hold their pty master and slave themselves, so the parent
 * keeps no descriptor per terminal. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"

static int
hold (long ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

  while (nanosleep (&t, &t) < 0 && errno == EINTR)
    ;
  return 0;
}

/* In the child: a session of its own on a new pty, then exec the holder. */
static void
become_terminal (const char *self, const char *hold_ms)
{
  int master, slave;
  const char *name;

  if (setsid () < 0)
    _exit (10);
  master = posix_openpt (O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt (master) < 0 || unlockpt (master) < 0 || !(name = ptsname (master)))
    _exit (11);
  slave = open (name, O_RDWR); /* the first tty a session leader opens is its controlling one */
  if (slave < 0)
    _exit (12);
  (void) dup2 (slave, 0);
  (void) dup2 (slave, 1);
  execl (self, "ptyflood", "--hold", hold_ms, (char *) NULL);
  _exit (13);
}

int
main (int argc, char **argv)
{
  long total, live_max, opened = 0, failed = 0, live = 0;
  double max_ms = 0;
  char self[4096];
  ssize_t n;
  double t0;

  if (argc == 3 && strcmp (argv[1], "--hold") == 0)
    return hold (atol (argv[2]));
  if (argc == 5)
    max_ms = atof (argv[4]) * 1000.0;
  if ((argc != 4 && argc != 5) || (total = atol (argv[1])) <= 0 || (live_max = atol (argv[2])) <= 0 || atol (argv[3]) < 0)
    {
      fprintf (stderr, "usage: ptyflood TOTAL LIVE HOLD_MS [MAX_SECONDS]\n");
      return 2;
    }
  n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';

  t0 = now_ms ();
  while (opened < total || live > 0)
    {
      int status;
      pid_t pid;

      /* Reap whoever is done, so no terminal lingers as a zombie. */
      while (live > 0 && (pid = waitpid (-1, &status, WNOHANG)) > 0)
        {
          live--;
          if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            failed++;
        }
      if (opened < total && max_ms > 0 && now_ms () - t0 > max_ms)
        total = opened; /* out of time: let the live ones finish */
      if (opened < total && live < live_max)
        {
          pid = fork ();
          if (pid == 0)
            become_terminal (self, argv[3]);
          if (pid < 0)
            {
              failed++;
              hold (10);
            }
          else
            live++;
          opened++;
          if (opened % 1000 == 0)
            {
              printf ("progress opened=%ld seconds=%.1f\n", opened, (now_ms () - t0) / 1000.0);
              fflush (stdout);
            }
          continue;
        }
      pid = waitpid (-1, &status, 0);
      if (pid > 0)
        {
          live--;
          if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
            failed++;
        }
    }
  {
    double s = (now_ms () - t0) / 1000.0;

    printf ("opened=%ld seconds=%.1f per_second=%.0f failed=%ld\n", opened, s, s > 0 ? opened / s : 0, failed);
  }
  return failed == opened ? 1 : 0;
}
