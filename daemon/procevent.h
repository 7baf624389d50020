/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Process events from the kernel's proc connector. Threads are filtered
 * out: every event is about a process. */
typedef enum {
  TTG_PROC_EVENT_FORK, /* pid: the child, parent: the parent */
  TTG_PROC_EVENT_EXEC,
  TTG_PROC_EVENT_SID,  /* pid called setsid() */
  TTG_PROC_EVENT_EXIT,
} TtgProcEventKind;

typedef struct {
  TtgProcEventKind kind;
  pid_t pid;
  pid_t parent;
} TtgProcEvent;

/* Parses the payload of one netlink message from the proc connector: a
 * struct cn_msg followed by its data (a struct proc_event), len bytes at buf,
 * which need not be aligned. TRUE and *out filled when it is a process event
 * ttygroup acts on; FALSE for anything else (another connector, a kind of
 * event we ignore, a thread, a length that does not add up). */
gboolean ttg_proc_event_parse (const void *buf, gsize len, TtgProcEvent *out);

typedef void (*TtgProcEventFunc) (const TtgProcEvent *event, gpointer user_data);

/* Walks every netlink message of one datagram read from the proc connector
 * socket (len bytes at buf, any alignment) and calls func for each process
 * event ttg_proc_event_parse() accepts; error, no-op and malformed messages
 * are skipped, a message running past len ends the walk. Returns the number
 * of events reported. */
guint ttg_proc_datagram_parse (const void *buf, gsize len, TtgProcEventFunc func, gpointer user_data);

G_END_DECLS
