/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "procfilter.h"

#include <arpa/inet.h>
#include <stddef.h>
#include <string.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

gboolean
ttg_proc_filter_keeps (guint32 what, pid_t pid, pid_t tgid)
{
  switch (what)
    {
    case PROC_EVENT_SID:
    case PROC_EVENT_EXEC:
      return TRUE;
    case PROC_EVENT_EXIT:
      return pid == tgid;
    default:
      return FALSE;
    }
}

/* Offsets in the datagram: the netlink header, the connector's header, then
 * the event. The payload follows each header without padding (procevent.c
 * asserts the netlink one; cn_msg is 20 bytes, a multiple of 4). */
#define CN_OFFSET NLMSG_HDRLEN
#define EV_OFFSET (CN_OFFSET + sizeof (struct cn_msg))
#define EV_WHAT (EV_OFFSET + offsetof (struct proc_event, what))
/* exec, sid and exit start with process_pid, process_tgid; so does fork's
 * data with the parent's, but fork is dropped by its kind alone */
#define EV_PID (EV_OFFSET + offsetof (struct proc_event, event_data.exit.process_pid))
#define EV_TGID (EV_OFFSET + offsetof (struct proc_event, event_data.exit.process_tgid))
G_STATIC_ASSERT (offsetof (struct proc_event, event_data.exec.process_pid) ==
                 offsetof (struct proc_event, event_data.exit.process_pid));
G_STATIC_ASSERT (offsetof (struct proc_event, event_data.sid.process_tgid) ==
                 offsetof (struct proc_event, event_data.exit.process_tgid));

void
ttg_proc_filter_program (struct sock_filter prog[TTG_PROC_FILTER_LEN])
{
  /* Absolute loads read in network byte order; the connector writes host
   * order: every constant is compared as htonl() of itself, and pid with
   * tgid are compared with each other, which byte order does not change.
   * A load past the end of a short datagram ends the program with 0: such
   * a datagram is no event. */
  const struct sock_filter p[TTG_PROC_FILTER_LEN] = {
    /* 0: another connector than the proc one: keep, the parser decides */
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, CN_OFFSET + offsetof (struct cn_msg, id.idx)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, htonl (CN_IDX_PROC), 0, 12),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, CN_OFFSET + offsetof (struct cn_msg, id.val)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, htonl (CN_VAL_PROC), 0, 10),
    /* 4: the kind of event */
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, EV_WHAT),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, htonl (PROC_EVENT_SID), 9, 0),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, htonl (PROC_EVENT_EXEC), 8, 0),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, htonl (PROC_EVENT_EXIT), 1, 0),
    /* 8: any other kind */
    BPF_STMT (BPF_RET | BPF_K, 0),
    /* 9: exit: of a process, or of one of its threads */
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, EV_TGID),
    BPF_STMT (BPF_MISC | BPF_TAX, 0),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, EV_PID),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_X, 0, 2, 0),
    /* 13: a thread's exit */
    BPF_STMT (BPF_RET | BPF_K, 0),
    /* 14: not a proc connector message */
    BPF_STMT (BPF_RET | BPF_K, 0xffffffff),
    /* 15: sid, exec, a process's exit */
    BPF_STMT (BPF_RET | BPF_K, 0xffffffff),
  };

  memcpy (prog, p, sizeof p);
}

struct TtgProcGate {
  GHashTable *leaders; /* pid -> nothing: called setsid() and did not exit yet */
};

TtgProcGate *
ttg_proc_gate_new (void)
{
  TtgProcGate *gate = g_new0 (TtgProcGate, 1);

  gate->leaders = g_hash_table_new (g_direct_hash, g_direct_equal);
  return gate;
}

void
ttg_proc_gate_free (TtgProcGate *gate)
{
  if (!gate)
    return;
  g_hash_table_unref (gate->leaders);
  g_free (gate);
}

gboolean
ttg_proc_gate_pass (TtgProcGate *gate, const TtgProcEvent *event)
{
  gpointer key = GINT_TO_POINTER (event->pid);

  switch (event->kind)
    {
    case TTG_PROC_EVENT_SID:
      if (g_hash_table_size (gate->leaders) >= TTG_PROC_GATE_MAX_LEADERS)
        g_hash_table_remove_all (gate->leaders);
      g_hash_table_add (gate->leaders, key);
      return TRUE;
    case TTG_PROC_EVENT_EXEC:
      return g_hash_table_contains (gate->leaders, key);
    case TTG_PROC_EVENT_EXIT:
      g_hash_table_remove (gate->leaders, key);
      return TRUE;
    case TTG_PROC_EVENT_FORK:
    default:
      return FALSE;
    }
}

guint
ttg_proc_gate_size (TtgProcGate *gate)
{
  return g_hash_table_size (gate->leaders);
}
