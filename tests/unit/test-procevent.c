/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Proc connector datagrams as the kernel sends them, and the broken ones a
 * socket might hand over: what the service acts on and what it ignores. */
#include <stddef.h>
#include <string.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "procevent.h"

/* Builds one netlink message (header, cn_msg, proc_event) at the end of a
 * byte array, field by field, the way the kernel lays it out. */
typedef struct {
  guint32 what;
  pid_t a, b, c, d; /* the first four pid fields of event_data, in order */
  guint16 event_len; /* cn_msg.len; 0: the full struct proc_event */
  guint32 idx, val;  /* connector id; 0: the proc connector */
  guint16 nl_type;   /* 0: NLMSG_DONE */
} Msg;

static void
put (GByteArray *out, gsize at, const void *field, gsize size)
{
  g_assert_cmpuint (at + size, <=, out->len);
  memcpy (out->data + at, field, size);
}

static void
append_msg (GByteArray *out, const Msg *m)
{
  guint16 event_len = m->event_len ? m->event_len : sizeof (struct proc_event);
  gsize start = out->len;
  gsize cn_at = start + NLMSG_HDRLEN;
  gsize ev_at = cn_at + sizeof (struct cn_msg);
  gsize total = NLMSG_SPACE (sizeof (struct cn_msg) + MAX (event_len, sizeof (struct proc_event)));
  struct nlmsghdr nl = { 0 };
  struct cn_msg cn = { 0 };
  pid_t pids[4] = { m->a, m->b, m->c, m->d };

  g_byte_array_set_size (out, start + total);
  memset (out->data + start, 0, total);

  nl.nlmsg_len = NLMSG_LENGTH (sizeof cn + event_len);
  nl.nlmsg_type = m->nl_type ? m->nl_type : NLMSG_DONE;
  put (out, start, &nl, sizeof nl);
  cn.id.idx = m->idx ? m->idx : CN_IDX_PROC;
  cn.id.val = m->val ? m->val : CN_VAL_PROC;
  cn.len = event_len;
  put (out, cn_at, &cn, sizeof cn);
  put (out, ev_at + offsetof (struct proc_event, what), &m->what, sizeof m->what);
  put (out, ev_at + offsetof (struct proc_event, event_data), pids, sizeof pids);
  /* what is past nlmsg_len is not the message's: only whole aligned messages
   * follow each other */
  g_byte_array_set_size (out, start + NLMSG_ALIGN (nl.nlmsg_len));
}

static void
collect (const TtgProcEvent *event, gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, *event);
}

/* Every event ttg_proc_datagram_parse() reports for data, also when data
 * sits at an odd address (a datagram buffer need not be aligned). */
static GArray *
parse_all (const GByteArray *data)
{
  GArray *events = g_array_new (FALSE, TRUE, sizeof (TtgProcEvent));
  g_autofree guint8 *odd = g_malloc (data->len + 1);
  g_autoptr(GArray) again = g_array_new (FALSE, TRUE, sizeof (TtgProcEvent));
  guint n;

  n = ttg_proc_datagram_parse (data->data, data->len, collect, events);
  g_assert_cmpuint (n, ==, events->len);

  if (data->len)
    memcpy (odd + 1, data->data, data->len);
  n = ttg_proc_datagram_parse (odd + 1, data->len, collect, again);
  g_assert_cmpuint (n, ==, again->len);
  g_assert_cmpmem (events->data, events->len * sizeof (TtgProcEvent), again->data,
                   again->len * sizeof (TtgProcEvent));
  return events;
}

static void
assert_event (GArray *events, guint i, TtgProcEventKind kind, pid_t pid, pid_t parent)
{
  const TtgProcEvent *e;

  g_assert_cmpuint (i, <, events->len);
  e = &g_array_index (events, TtgProcEvent, i);
  g_assert_cmpint (e->kind, ==, kind);
  g_assert_cmpint (e->pid, ==, pid);
  g_assert_cmpint (e->parent, ==, parent);
}

static void
test_kinds (void)
{
  g_autoptr(GByteArray) d = g_byte_array_new ();
  g_autoptr(GArray) ev = NULL;

  /* fork: parent_pid, parent_tgid, child_pid, child_tgid */
  append_msg (d, &(Msg) { .what = PROC_EVENT_FORK, .a = 100, .b = 100, .c = 200, .d = 200 });
  /* exec, sid: process_pid, process_tgid */
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 200, .b = 200 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_SID, .a = 200, .b = 200 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXIT, .a = 200, .b = 200 });
  ev = parse_all (d);

  g_assert_cmpuint (ev->len, ==, 4);
  assert_event (ev, 0, TTG_PROC_EVENT_FORK, 200, 100);
  assert_event (ev, 1, TTG_PROC_EVENT_EXEC, 200, 0);
  assert_event (ev, 2, TTG_PROC_EVENT_SID, 200, 0);
  assert_event (ev, 3, TTG_PROC_EVENT_EXIT, 200, 0);
}

/* A thread of process 300 starting or ending is no process event; an exec
 * in a thread is reported for its process (the kernel gives the tgid). */
static void
test_threads_filtered (void)
{
  g_autoptr(GByteArray) d = g_byte_array_new ();
  g_autoptr(GArray) ev = NULL;

  append_msg (d, &(Msg) { .what = PROC_EVENT_FORK, .a = 300, .b = 300, .c = 301, .d = 300 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXIT, .a = 301, .b = 300 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 301, .b = 300 });
  ev = parse_all (d);

  g_assert_cmpuint (ev->len, ==, 1);
  assert_event (ev, 0, TTG_PROC_EVENT_EXEC, 300, 0);
}

static void
test_ignored (void)
{
  g_autoptr(GByteArray) d = g_byte_array_new ();
  g_autoptr(GArray) ev = NULL;

  append_msg (d, &(Msg) { .what = PROC_EVENT_UID, .a = 5, .b = 5 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_COMM, .a = 5, .b = 5 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_NONE }); /* the ack of our listen request */
  append_msg (d, &(Msg) { .what = 0x12345678, .a = 5, .b = 5 });
  /* another connector's message with the same bytes */
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 5, .b = 5, .idx = CN_IDX_PROC + 1 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 5, .b = 5, .val = CN_VAL_PROC + 1 });
  /* netlink's own messages are not the connector's */
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 5, .b = 5, .nl_type = NLMSG_ERROR });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 5, .b = 5, .nl_type = NLMSG_NOOP });
  /* no process has pid 0 or below */
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 0, .b = 0 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_SID, .a = -1, .b = -1 });
  /* still read after all of these */
  append_msg (d, &(Msg) { .what = PROC_EVENT_SID, .a = 7, .b = 7 });
  ev = parse_all (d);

  g_assert_cmpuint (ev->len, ==, 1);
  assert_event (ev, 0, TTG_PROC_EVENT_SID, 7, 0);
}

/* cn_msg.len is what the event holds: an event too short for its kind is
 * dropped, one just long enough (an older kernel's exit event, without the
 * parent fields) is read. */
static void
test_event_lengths (void)
{
  gsize fork_needs = offsetof (struct proc_event, event_data.fork.child_tgid) + sizeof (__kernel_pid_t);
  gsize exit_needs = offsetof (struct proc_event, event_data.exit.exit_signal) + sizeof (__u32);
  g_autoptr(GByteArray) d = g_byte_array_new ();
  g_autoptr(GArray) ev = NULL;

  append_msg (d, &(Msg) { .what = PROC_EVENT_FORK, .a = 1, .b = 1, .c = 10, .d = 10, .event_len = fork_needs - 1 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_FORK, .a = 1, .b = 1, .c = 11, .d = 11, .event_len = fork_needs });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXIT, .a = 12, .b = 12, .event_len = exit_needs - 1 });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXIT, .a = 13, .b = 13, .event_len = exit_needs });
  append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 14, .b = 14, .event_len = 2 });
  ev = parse_all (d);

  g_assert_cmpuint (ev->len, ==, 2);
  assert_event (ev, 0, TTG_PROC_EVENT_FORK, 11, 1);
  assert_event (ev, 1, TTG_PROC_EVENT_EXIT, 13, 0);
}

static void
set_u32 (GByteArray *d, gsize at, guint32 v)
{
  put (d, at, &v, sizeof v);
}

/* Lengths that do not add up never make the parser read past the buffer
 * (the sanitizer build checks that) and never invent an event. */
static void
test_lengths_lie (void)
{
  gsize cn_len_at = NLMSG_HDRLEN + offsetof (struct cn_msg, len);
  g_autoptr(GByteArray) one = g_byte_array_new ();

  append_msg (one, &(Msg) { .what = PROC_EVENT_SID, .a = 9, .b = 9 });

  /* cn_msg.len larger than what the netlink message holds */
  {
    g_autoptr(GByteArray) d = g_byte_array_new ();
    g_autoptr(GArray) ev = NULL;
    guint16 big = 0xffff;

    g_byte_array_append (d, one->data, one->len);
    put (d, cn_len_at, &big, sizeof big);
    ev = parse_all (d);
    g_assert_cmpuint (ev->len, ==, 0);
  }
  /* nlmsg_len past the end of the datagram: the walk ends, nothing read */
  {
    g_autoptr(GByteArray) d = g_byte_array_new ();
    g_autoptr(GArray) ev = NULL;

    g_byte_array_append (d, one->data, one->len);
    set_u32 (d, 0, one->len + 1);
    ev = parse_all (d);
    g_assert_cmpuint (ev->len, ==, 0);
  }
  /* nlmsg_len below the header: the walk cannot step, it ends */
  {
    g_autoptr(GByteArray) d = g_byte_array_new ();
    g_autoptr(GArray) ev = NULL;

    g_byte_array_append (d, one->data, one->len);
    g_byte_array_append (d, one->data, one->len);
    set_u32 (d, 0, 4);
    ev = parse_all (d);
    g_assert_cmpuint (ev->len, ==, 0);
  }
  /* every truncation of a good datagram of two events: at most the first,
   * and that only once it is whole */
  {
    g_autoptr(GByteArray) d = g_byte_array_new ();
    guint32 first_len;

    memcpy (&first_len, one->data, sizeof first_len);
    g_byte_array_append (d, one->data, one->len);
    append_msg (d, &(Msg) { .what = PROC_EVENT_EXEC, .a = 8, .b = 8 });
    for (guint cut = 0; cut < d->len; cut++)
      {
        g_autoptr(GByteArray) part = g_byte_array_new ();
        g_autoptr(GArray) ev = NULL;

        g_byte_array_append (part, d->data, cut);
        ev = parse_all (part);
        g_assert_cmpuint (ev->len, ==, cut >= first_len ? 1 : 0);
        if (ev->len)
          assert_event (ev, 0, TTG_PROC_EVENT_SID, 9, 0);
      }
  }
}

static void
test_single_message (void)
{
  guint8 buf[sizeof (struct cn_msg) + sizeof (struct proc_event)] = { 0 };
  struct cn_msg cn = { .id = { CN_IDX_PROC, CN_VAL_PROC }, .len = sizeof (struct proc_event) };
  guint32 what = PROC_EVENT_SID;
  pid_t pids[2] = { 42, 42 };
  TtgProcEvent e = { 0 };

  memcpy (buf, &cn, sizeof cn);
  memcpy (buf + sizeof cn + offsetof (struct proc_event, what), &what, sizeof what);
  memcpy (buf + sizeof cn + offsetof (struct proc_event, event_data), pids, sizeof pids);
  g_assert_true (ttg_proc_event_parse (buf, sizeof buf, &e));
  g_assert_cmpint (e.kind, ==, TTG_PROC_EVENT_SID);
  g_assert_cmpint (e.pid, ==, 42);

  g_assert_false (ttg_proc_event_parse (buf, sizeof buf - 1, &e));
  g_assert_false (ttg_proc_event_parse (buf, sizeof cn - 1, &e));
  g_assert_false (ttg_proc_event_parse (NULL, 0, &e));
  g_assert_cmpuint (ttg_proc_datagram_parse (NULL, 0, collect, NULL), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/procevent/kinds", test_kinds);
  g_test_add_func ("/procevent/threads-filtered", test_threads_filtered);
  g_test_add_func ("/procevent/ignored", test_ignored);
  g_test_add_func ("/procevent/event-lengths", test_event_lengths);
  g_test_add_func ("/procevent/lengths-lie", test_lengths_lie);
  g_test_add_func ("/procevent/single-message", test_single_message);
  return g_test_run ();
}
