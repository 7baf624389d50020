/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cnlisten: the floor of listening to the kernel's proc connector. It
 * subscribes as ttygroupd does (same receive buffer), reads every datagram
 * and counts its messages, and does nothing else with them.
 *   cnlisten SECONDS  -> "listening" once subscribed, then "events=.. cpu_ms=..
 *                        dropped=.." after SECONDS or SIGTERM (cpu_ms: from
 *                        "listening" on)
 *                        (root: CAP_NET_ADMIN)
 * The bench compares the service's CPU time per event with this one's over
 * the same events. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "monotonic.h"

static int
subscribe (int fd)
{
  char msg[NLMSG_SPACE (sizeof (struct cn_msg) + sizeof (enum proc_cn_mcast_op))];
  struct nlmsghdr *nl = (struct nlmsghdr *) msg;
  struct cn_msg cn = { .id = { CN_IDX_PROC, CN_VAL_PROC }, .len = sizeof (enum proc_cn_mcast_op) };
  enum proc_cn_mcast_op op = PROC_CN_MCAST_LISTEN;

  memset (msg, 0, sizeof msg);
  nl->nlmsg_len = NLMSG_LENGTH (sizeof cn + sizeof op);
  nl->nlmsg_type = NLMSG_DONE;
  memcpy (NLMSG_DATA (nl), &cn, sizeof cn);
  memcpy ((char *) NLMSG_DATA (nl) + sizeof cn, &op, sizeof op);
  return send (fd, msg, nl->nlmsg_len, 0) < 0 ? -1 : 0;
}

static volatile sig_atomic_t stop;

static void
on_term (int sig)
{
  stop = 1;
}

int
main (int argc, char **argv)
{
  struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
  int size = 8 * 1024 * 1024, fd;
  long long events = 0, dropped = 0;
  double seconds, end;
  struct timespec cpu0, cpu;

  if (argc != 2 || (seconds = strtod (argv[1], NULL)) <= 0)
    {
      fprintf (stderr, "usage: cnlisten SECONDS\n");
      return 2;
    }
  fd = socket (PF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
  if (fd < 0 || (setsockopt (fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0 &&
                 setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size) < 0) ||
      bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0 || subscribe (fd) < 0)
    {
      perror ("cnlisten");
      return 1;
    }
  {
    struct sigaction sa = { .sa_handler = on_term }; /* no SA_RESTART: poll returns */

    sigaction (SIGTERM, &sa, NULL);
  }
  /* ready: the caller may start what it measures; the CPU time of starting
   * up is not the listener's */
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu0);
  printf ("listening\n");
  fflush (stdout);
  end = now_ms () + seconds * 1e3;
  for (double t; !stop && (t = now_ms ()) < end;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      char buf[16384] __attribute__ ((aligned (NLMSG_ALIGNTO)));
      int n;

      if (poll (&p, 1, (int) (end - t) + 1) <= 0)
        continue;
      n = (int) recv (fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0)
        {
          if (errno == ENOBUFS)
            dropped++;
          continue;
        }
      for (size_t off = 0; off + sizeof (struct nlmsghdr) <= (size_t) n;)
        {
          struct nlmsghdr nl;

          memcpy (&nl, buf + off, sizeof nl);
          if (nl.nlmsg_len < sizeof nl || nl.nlmsg_len > (size_t) n - off)
            break;
          events++;
          off += NLMSG_ALIGN (nl.nlmsg_len);
        }
    }
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu);
  printf ("events=%lld cpu_ms=%.1f dropped=%lld\n", events, (cpu.tv_sec - cpu0.tv_sec) * 1e3 + (cpu.tv_nsec - cpu0.tv_nsec) / 1e6, dropped);
  return 0;
}
