/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "procmon.h"
#include "procfilter.h"
#include "policy.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

struct TtgProcmon {
  int fd;
  sd_event_source *source;
  TtgProcmonEventFunc on_event;
  TtgProcmonLostFunc on_lost;
  gpointer user_data;
  TtgProcGate *gate;
  guint64 events;
  guint64 lost;
};

/* A build burst is ~500 forks/s; each fork is followed by exec and exit.
 * A large buffer rides out the time the service spends talking to systemd. */
#define RCVBUF_SIZE (8 * 1024 * 1024)

static int
send_listen (int fd, enum proc_cn_mcast_op op)
{
  /* nlmsghdr, cn_msg, then the op as cn_msg's data. Laid out by hand: a
   * struct holding struct cn_msg (which ends in a flexible array) anywhere
   * but last is not C. */
  union {
    struct nlmsghdr nl;
    char bytes[NLMSG_SPACE (sizeof (struct cn_msg) + sizeof (enum proc_cn_mcast_op))];
  } msg;
  struct cn_msg cn;

  memset (&msg, 0, sizeof msg);
  msg.nl.nlmsg_len = NLMSG_LENGTH (sizeof cn + sizeof op);
  msg.nl.nlmsg_type = NLMSG_DONE;
  msg.nl.nlmsg_pid = 0;

  memset (&cn, 0, sizeof cn);
  cn.id.idx = CN_IDX_PROC;
  cn.id.val = CN_VAL_PROC;
  cn.len = sizeof op;
  memcpy ((char *) NLMSG_DATA (&msg.nl), &cn, sizeof cn);
  memcpy ((char *) NLMSG_DATA (&msg.nl) + sizeof cn, &op, sizeof op);

  if (send (fd, &msg, msg.nl.nlmsg_len, 0) < 0)
    return -errno;
  return 0;
}

static void
dispatch_one (const TtgProcEvent *ev, gpointer user_data)
{
  TtgProcmon *pm = user_data;

  if (!ttg_proc_gate_pass (pm->gate, ev))
    return;
  pm->events++;
  pm->on_event (ev, pm->user_data);
}

static int
on_readable (sd_event_source *s, int fd, uint32_t revents, void *user_data)
{
  TtgProcmon *pm = user_data;
  char buf[16384] __attribute__ ((aligned (NLMSG_ALIGNTO)));

  /* Drain what is there, but give the rest of the loop a turn now and then. */
  for (int round = 0; round < 64; round++)
    {
      ssize_t n = recv (fd, buf, sizeof buf, MSG_DONTWAIT);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno == EAGAIN)
            return 0;
          if (errno == ENOBUFS)
            {
              pm->lost++;
              ttg_log_warn ("procmon", "Process events were lost (netlink buffer overflow), rescanning /proc");
              pm->on_lost (pm->user_data);
              continue;
            }
          ttg_log_err ("procmon", "Failed to read process events: %s", g_strerror (errno));
          return 0;
        }

      (void) ttg_proc_datagram_parse (buf, (gsize) n, dispatch_one, pm);
    }
  return 0;
}

TtgProcmon *
ttg_procmon_new (sd_event *event,
                 TtgProcmonEventFunc on_event,
                 TtgProcmonLostFunc on_lost,
                 gpointer user_data,
                 GError **error)
{
  g_autoptr(TtgProcmon) pm = g_new0 (TtgProcmon, 1);
  struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC };
  int size = RCVBUF_SIZE;
  int r;

  pm->fd = -1;
  pm->on_event = on_event;
  pm->on_lost = on_lost;
  pm->user_data = user_data;
  pm->gate = ttg_proc_gate_new ();

  pm->fd = socket (PF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_CONNECTOR);
  if (pm->fd < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to open the proc connector socket: %s", g_strerror (errno));
      return NULL;
    }

  /* FORCE needs CAP_NET_ADMIN, which the proc connector needs anyway. */
  if (setsockopt (pm->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
    (void) setsockopt (pm->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);

  /* Before the first event can come: what cannot matter (forks, threads'
   * exits, most kinds) never wakes the service up. Every fork, exec and
   * exit on the machine is an event; the service ran for each of them, on
   * the CPU the interactive processes wait for. Without the filter (a
   * kernel without SO_ATTACH_FILTER for netlink) the gate alone decides. */
  {
    struct sock_filter prog[TTG_PROC_FILTER_LEN];
    struct sock_fprog fprog = { .len = TTG_PROC_FILTER_LEN, .filter = prog };

    ttg_proc_filter_program (prog);
    if (setsockopt (pm->fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof fprog) < 0)
      ttg_log_warn ("procmon", "Could not filter process events in the kernel (%s), reading them all",
                    g_strerror (errno));
  }

  if (bind (pm->fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to bind the proc connector socket: %s", g_strerror (errno));
      return NULL;
    }

  r = send_listen (pm->fd, PROC_CN_MCAST_LISTEN);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to subscribe to process events: %s", g_strerror (-r));
      return NULL;
    }

  r = sd_event_add_io (event, &pm->source, pm->fd, EPOLLIN, on_readable, pm);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to watch the proc connector socket: %s", g_strerror (-r));
      return NULL;
    }

  return g_steal_pointer (&pm);
}

void
ttg_procmon_free (TtgProcmon *pm)
{
  if (!pm)
    return;
  sd_event_source_disable_unref (pm->source);
  ttg_proc_gate_free (pm->gate);
  if (pm->fd >= 0)
    {
      (void) send_listen (pm->fd, PROC_CN_MCAST_IGNORE);
      close (pm->fd);
    }
  g_free (pm);
}

guint64
ttg_procmon_get_event_count (TtgProcmon *pm)
{
  return pm->events;
}

guint64
ttg_procmon_get_lost_count (TtgProcmon *pm)
{
  return pm->lost;
}
