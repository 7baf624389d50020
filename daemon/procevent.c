/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "procevent.h"

#include <stddef.h>
#include <string.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

/* The bytes come from a socket: never cast them to a struct in place (the
 * connector's data is not aligned for struct proc_event, and a short message
 * must not be read past its end). Every field is memcpy'd out. */

/* The payload starts right after the header, no padding in between. */
G_STATIC_ASSERT (NLMSG_HDRLEN == sizeof (struct nlmsghdr));

#define EVENT_OFFSET(member) offsetof (struct proc_event, event_data.member)
/* Bytes of struct proc_event needed to read up to and including member: the
 * kernel's struct has grown over time (exit got parent_pid later), so only
 * what is read is required, not the sizeof of the headers built against. */
#define EVENT_NEEDS(member) (EVENT_OFFSET (member) + sizeof (((struct proc_event *) 0)->event_data.member))

/* A pid field of the event; the caller checked the length. */
static pid_t
read_pid (const guint8 *event, gsize offset)
{
  __kernel_pid_t v;

  memcpy (&v, event + offset, sizeof v);
  return v;
}

gboolean
ttg_proc_event_parse (const void *buf, gsize len, TtgProcEvent *out)
{
  const guint8 *bytes = buf;
  const guint8 *event;
  struct cn_msg cn;
  guint32 what; /* read as an integer: any value may come, not only the enum's */
  pid_t pid, tgid;

  g_return_val_if_fail (buf != NULL || len == 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (len < sizeof cn)
    return FALSE;
  memcpy (&cn, bytes, sizeof cn);
  if (cn.id.idx != CN_IDX_PROC || cn.id.val != CN_VAL_PROC)
    return FALSE;
  /* cn.len says how much data follows; it must be there, and nothing past
   * it is read. */
  if (cn.len > len - sizeof cn || cn.len < offsetof (struct proc_event, event_data))
    return FALSE;
  event = bytes + sizeof cn;
  G_STATIC_ASSERT (sizeof what == sizeof (((struct proc_event *) 0)->what));
  memcpy (&what, event + offsetof (struct proc_event, what), sizeof what);

  switch (what)
    {
    case PROC_EVENT_FORK:
      if (cn.len < EVENT_NEEDS (fork))
        return FALSE;
      pid = read_pid (event, EVENT_OFFSET (fork.child_pid));
      tgid = read_pid (event, EVENT_OFFSET (fork.child_tgid));
      /* A new thread is a fork event too; only processes matter. */
      if (pid != tgid)
        return FALSE;
      out->kind = TTG_PROC_EVENT_FORK;
      out->parent = read_pid (event, EVENT_OFFSET (fork.parent_tgid));
      break;
    case PROC_EVENT_EXEC:
      if (cn.len < EVENT_NEEDS (exec))
        return FALSE;
      tgid = read_pid (event, EVENT_OFFSET (exec.process_tgid));
      out->kind = TTG_PROC_EVENT_EXEC;
      out->parent = 0;
      break;
    case PROC_EVENT_SID:
      if (cn.len < EVENT_NEEDS (sid))
        return FALSE;
      tgid = read_pid (event, EVENT_OFFSET (sid.process_tgid));
      out->kind = TTG_PROC_EVENT_SID;
      out->parent = 0;
      break;
    case PROC_EVENT_EXIT:
      /* Up to exit_signal: what every kernel with the connector sends. */
      if (cn.len < EVENT_NEEDS (exit.exit_signal))
        return FALSE;
      pid = read_pid (event, EVENT_OFFSET (exit.process_pid));
      tgid = read_pid (event, EVENT_OFFSET (exit.process_tgid));
      if (pid != tgid)
        return FALSE;
      out->kind = TTG_PROC_EVENT_EXIT;
      out->parent = 0;
      break;
    default:
      return FALSE;
    }
  /* No process has pid 0 or below: such an event is not one to act on. */
  if (tgid <= 0)
    return FALSE;
  out->pid = tgid;
  return TRUE;
}

guint
ttg_proc_datagram_parse (const void *buf, gsize len, TtgProcEventFunc func, gpointer user_data)
{
  const guint8 *bytes = buf;
  gsize offset = 0;
  guint count = 0;

  g_return_val_if_fail (buf != NULL || len == 0, 0);

  while (len - offset >= sizeof (struct nlmsghdr))
    {
      struct nlmsghdr nl;
      TtgProcEvent ev;
      gsize step;

      memcpy (&nl, bytes + offset, sizeof nl);
      if (nl.nlmsg_len < sizeof nl || nl.nlmsg_len > len - offset)
        break;

      if (nl.nlmsg_type != NLMSG_ERROR && nl.nlmsg_type != NLMSG_NOOP &&
          ttg_proc_event_parse (bytes + offset + sizeof nl, nl.nlmsg_len - sizeof nl, &ev))
        {
          count++;
          func (&ev, user_data);
        }

      step = NLMSG_ALIGN ((gsize) nl.nlmsg_len);
      if (step >= len - offset)
        break;
      offset += step;
    }
  return count;
}
