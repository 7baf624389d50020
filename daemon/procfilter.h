/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <linux/filter.h>

#include "procevent.h"

G_BEGIN_DECLS

/* What of the proc connector's traffic can matter to the service, decided
 * in two places: the kernel (a classic BPF socket filter on the connector
 * socket, so that the events that cannot matter never wake the service up)
 * and the service (a gate on the events that pass: an exec matters only for
 * a process that called setsid(), and knowing that needs memory the filter
 * does not have). */

/* The filter's decision, as the program below makes it, for a proc
 * connector message whose proc_event has this `what` and these pid and tgid
 * (fork: the child's; exec, sid, exit: the process's). Kept: SID; EXEC; EXIT
 * of a process (not of a thread). Dropped: FORK (a child inherits its
 * parent's cgroup; stragglers are swept by the session id), thread exits,
 * and the kinds the service never reads (UID, GID, PTRACE, COMM, COREDUMP,
 * the connector's acknowledgement). A message that is not a proc connector
 * event (another connector id) is kept: the parser decides about it. */
gboolean ttg_proc_filter_keeps (guint32 what, pid_t pid, pid_t tgid);

/* The number of instructions of the program. */
#define TTG_PROC_FILTER_LEN 16

/* Writes the program into prog (TTG_PROC_FILTER_LEN instructions), for
 * SO_ATTACH_FILTER on a NETLINK_CONNECTOR socket: it reads a netlink
 * datagram from its start (nlmsghdr, cn_msg, proc_event). */
void ttg_proc_filter_program (struct sock_filter prog[TTG_PROC_FILTER_LEN]);

/* The service's side: which of the events that passed the kernel reach the
 * manager. SID: yes, and its pid is remembered as a session leader; EXEC:
 * only of a remembered session leader (the exec that completes a terminal:
 * every other exec is of a process that is no session leader, and the
 * manager would only read its /proc/PID/stat to find that out); EXIT: yes
 * (a group's leader may have called setsid() before this service started),
 * and the pid is forgotten; FORK: no. Leaders that called setsid() while no
 * events were read (before the start, or lost: ENOBUFS) are found by the
 * manager's rescan of /proc, as before. */
typedef struct TtgProcGate TtgProcGate;

/* At most this many session leaders are remembered; past it (exits lost
 * with a buffer overflow) the memory starts over: an exec of a forgotten
 * leader is then not reported, and the rescan that follows the overflow
 * finds what it would have found. */
#define TTG_PROC_GATE_MAX_LEADERS 65536

TtgProcGate *ttg_proc_gate_new (void);
void ttg_proc_gate_free (TtgProcGate *gate);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgProcGate, ttg_proc_gate_free)
gboolean ttg_proc_gate_pass (TtgProcGate *gate, const TtgProcEvent *event);
/* Session leaders remembered (for the tests and the status). */
guint ttg_proc_gate_size (TtgProcGate *gate);

G_END_DECLS
