/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The proc connector filter: the kernel runs the BPF program on sample
 * datagrams (laid out as the connector sends them) and its verdict must be
 * the one ttg_proc_filter_keeps() states; and the service's gate. The
 * program runs on a unix datagram socket, which any user may filter: the
 * bytes it sees start where a netlink datagram's do. */
#include "procfilter.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

typedef struct {
  int tx, rx;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  struct sock_filter prog[TTG_PROC_FILTER_LEN];
  struct sock_fprog fprog = { .len = TTG_PROC_FILTER_LEN, .filter = prog };
  int sv[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), ==, 0);
  fx->tx = sv[0];
  fx->rx = sv[1];
  ttg_proc_filter_program (prog);
  g_assert_cmpint (setsockopt (fx->rx, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof fprog), ==, 0);
}

static void
fixture_teardown (Fixture *fx, gconstpointer user_data)
{
  close (fx->tx);
  close (fx->rx);
}

/* A datagram of the connector: nlmsghdr, cn_msg, proc_event of kind what
 * whose first two pid fields (process_pid/tgid; for fork parent_pid/tgid)
 * are pid, tgid; fork's child fields are pid, tgid too. Returns its length,
 * cut to len when len > 0. */
static gsize
make_datagram (guint8 *buf, gsize size, guint32 idx, guint32 val, guint32 what, pid_t pid, pid_t tgid)
{
  struct nlmsghdr nl = { 0 };
  struct cn_msg cn = { 0 };
  struct proc_event ev;
  gsize total = NLMSG_HDRLEN + sizeof cn + sizeof ev;

  g_assert_cmpuint (size, >=, total);
  memset (&ev, 0, sizeof ev);
  ev.what = what;
  ev.cpu = 1;
  switch (what)
    {
    case PROC_EVENT_FORK:
      ev.event_data.fork.parent_pid = pid;
      ev.event_data.fork.parent_tgid = tgid;
      ev.event_data.fork.child_pid = pid + 1;
      ev.event_data.fork.child_tgid = tgid + 1;
      break;
    default:
      /* exec, sid, exit, uid, comm...: all begin with process_pid, process_tgid */
      ev.event_data.exit.process_pid = pid;
      ev.event_data.exit.process_tgid = tgid;
      ev.event_data.exit.exit_code = 0x100;
      break;
    }
  nl.nlmsg_len = total;
  nl.nlmsg_type = NLMSG_DONE;
  cn.id.idx = idx;
  cn.id.val = val;
  cn.len = sizeof ev;
  memset (buf, 0, size);
  memcpy (buf, &nl, sizeof nl);
  memcpy (buf + NLMSG_HDRLEN, &cn, sizeof cn);
  memcpy (buf + NLMSG_HDRLEN + sizeof cn, &ev, sizeof ev);
  return total;
}

/* TRUE if the kernel let the datagram through the filter */
static gboolean
kernel_keeps (Fixture *fx, const guint8 *buf, gsize len)
{
  guint8 in[512];
  ssize_t n;

  g_assert_cmpint (send (fx->tx, buf, len, 0), ==, (ssize_t) len);
  n = recv (fx->rx, in, sizeof in, MSG_DONTWAIT);
  if (n < 0)
    {
      g_assert_cmpint (errno, ==, EAGAIN);
      return FALSE;
    }
  g_assert_cmpint (n, ==, (ssize_t) len);
  g_assert_cmpmem (in, len, buf, len);
  return TRUE;
}

static void
test_kinds (Fixture *fx, gconstpointer user_data)
{
  const guint32 kinds[] = { PROC_EVENT_NONE, PROC_EVENT_FORK, PROC_EVENT_EXEC, PROC_EVENT_UID,
                            PROC_EVENT_GID, PROC_EVENT_SID, PROC_EVENT_PTRACE, PROC_EVENT_COMM,
                            PROC_EVENT_COREDUMP, PROC_EVENT_EXIT, 0x12345678 };
  /* a process (pid == tgid) and a thread of it; pids with bytes that a
   * wrong byte order would tell apart */
  const pid_t pids[][2] = { { 4242, 4242 }, { 4243, 4242 }, { 0x01020304, 0x01020304 }, { 0x01020304, 0x04030201 } };
  guint kept = 0, dropped = 0;

  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (gsize p = 0; p < G_N_ELEMENTS (pids); p++)
      {
        guint8 buf[256];
        gsize len = make_datagram (buf, sizeof buf, CN_IDX_PROC, CN_VAL_PROC, kinds[k], pids[p][0], pids[p][1]);
        gboolean want = ttg_proc_filter_keeps (kinds[k], pids[p][0], pids[p][1]);

        g_test_message ("what=0x%x pid=%d tgid=%d: %s", kinds[k], pids[p][0], pids[p][1], want ? "kept" : "dropped");
        g_assert_cmpint (kernel_keeps (fx, buf, len), ==, want);
        if (want)
          kept++;
        else
          dropped++;
      }
  /* both verdicts were seen: sid, exec (4 each) and the exits of the two processes */
  g_assert_cmpuint (kept, ==, 4 + 4 + 2);
  g_assert_cmpuint (dropped, ==, G_N_ELEMENTS (kinds) * G_N_ELEMENTS (pids) - kept);
}

static void
test_decisions (void)
{
  g_assert_true (ttg_proc_filter_keeps (PROC_EVENT_SID, 10, 10));
  g_assert_true (ttg_proc_filter_keeps (PROC_EVENT_EXEC, 10, 10));
  g_assert_true (ttg_proc_filter_keeps (PROC_EVENT_EXIT, 10, 10));
  g_assert_false (ttg_proc_filter_keeps (PROC_EVENT_EXIT, 11, 10));
  g_assert_false (ttg_proc_filter_keeps (PROC_EVENT_FORK, 10, 10));
  g_assert_false (ttg_proc_filter_keeps (PROC_EVENT_COMM, 10, 10));
  g_assert_false (ttg_proc_filter_keeps (PROC_EVENT_NONE, 0, 0));
}

static void
test_other_connector (Fixture *fx, gconstpointer user_data)
{
  guint8 buf[256];
  gsize len;

  /* not the proc connector: left to the parser, which drops it */
  len = make_datagram (buf, sizeof buf, CN_IDX_PROC + 1, CN_VAL_PROC, PROC_EVENT_FORK, 5, 5);
  g_assert_true (kernel_keeps (fx, buf, len));
  len = make_datagram (buf, sizeof buf, CN_IDX_PROC, CN_VAL_PROC + 1, PROC_EVENT_FORK, 5, 5);
  g_assert_true (kernel_keeps (fx, buf, len));
}

static void
test_short (Fixture *fx, gconstpointer user_data)
{
  guint8 buf[256];
  gsize full = make_datagram (buf, sizeof buf, CN_IDX_PROC, CN_VAL_PROC, PROC_EVENT_EXIT, 7, 7);
  gsize pid_end = NLMSG_HDRLEN + sizeof (struct cn_msg) +
                  offsetof (struct proc_event, event_data.exit.process_tgid) + sizeof (__kernel_pid_t);

  g_assert_true (kernel_keeps (fx, buf, full));
  /* cut inside the pids or the kind: no event, dropped */
  g_assert_false (kernel_keeps (fx, buf, pid_end - 1));
  g_assert_false (kernel_keeps (fx, buf, NLMSG_HDRLEN + sizeof (struct cn_msg) + 2));
  g_assert_false (kernel_keeps (fx, buf, 8));
  /* exactly up to the tgid: enough for the filter */
  g_assert_true (kernel_keeps (fx, buf, pid_end));
}

static TtgProcEvent
ev (TtgProcEventKind kind, pid_t pid)
{
  TtgProcEvent e = { .kind = kind, .pid = pid, .parent = 0 };

  return e;
}

static gboolean
pass (TtgProcGate *gate, TtgProcEventKind kind, pid_t pid)
{
  TtgProcEvent e = ev (kind, pid);

  return ttg_proc_gate_pass (gate, &e);
}

static void
test_gate (void)
{
  g_autoptr(TtgProcGate) gate = ttg_proc_gate_new ();

  /* a process that is no session leader: its execs are not reported */
  g_assert_false (pass (gate, TTG_PROC_EVENT_FORK, 100));
  g_assert_false (pass (gate, TTG_PROC_EVENT_EXEC, 100));
  g_assert_true (pass (gate, TTG_PROC_EVENT_EXIT, 100));
  /* a terminal's leader: setsid(), then exec (once or more) */
  g_assert_true (pass (gate, TTG_PROC_EVENT_SID, 200));
  g_assert_true (pass (gate, TTG_PROC_EVENT_EXEC, 200));
  g_assert_true (pass (gate, TTG_PROC_EVENT_EXEC, 200));
  g_assert_false (pass (gate, TTG_PROC_EVENT_EXEC, 201));
  g_assert_cmpuint (ttg_proc_gate_size (gate), ==, 1);
  /* its exit is reported and forgets it: the pid, reused by a process that
   * is no leader, is not reported */
  g_assert_true (pass (gate, TTG_PROC_EVENT_EXIT, 200));
  g_assert_cmpuint (ttg_proc_gate_size (gate), ==, 0);
  g_assert_false (pass (gate, TTG_PROC_EVENT_EXEC, 200));
}

static void
test_gate_bounded (void)
{
  g_autoptr(TtgProcGate) gate = ttg_proc_gate_new ();

  for (pid_t pid = 1; pid <= TTG_PROC_GATE_MAX_LEADERS; pid++)
    g_assert_true (pass (gate, TTG_PROC_EVENT_SID, pid));
  g_assert_cmpuint (ttg_proc_gate_size (gate), ==, TTG_PROC_GATE_MAX_LEADERS);
  /* full: starts over, the new leader is remembered */
  g_assert_true (pass (gate, TTG_PROC_EVENT_SID, TTG_PROC_GATE_MAX_LEADERS + 1));
  g_assert_cmpuint (ttg_proc_gate_size (gate), ==, 1);
  g_assert_true (pass (gate, TTG_PROC_EVENT_EXEC, TTG_PROC_GATE_MAX_LEADERS + 1));
  g_assert_false (pass (gate, TTG_PROC_EVENT_EXEC, 1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/procfilter/decisions", test_decisions);
  g_test_add ("/procfilter/kernel/kinds", Fixture, NULL, fixture_setup, test_kinds, fixture_teardown);
  g_test_add ("/procfilter/kernel/other-connector", Fixture, NULL, fixture_setup, test_other_connector, fixture_teardown);
  g_test_add ("/procfilter/kernel/short", Fixture, NULL, fixture_setup, test_short, fixture_teardown);
  g_test_add_func ("/procfilter/gate", test_gate);
  g_test_add_func ("/procfilter/gate-bounded", test_gate_bounded);
  return g_test_run ();
}
