/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A datagram read from the proc connector socket: the kernel's, but read
 * with lengths that must be checked before anything is trusted. */
#include "fuzz.h"
#include "procevent.h"

static void
on_event (const TtgProcEvent *event, gpointer user_data)
{
  guint *n = user_data;

  FUZZ_CHECK (event->pid > 0);
  FUZZ_CHECK (event->kind == TTG_PROC_EVENT_FORK || event->kind == TTG_PROC_EVENT_EXEC
              || event->kind == TTG_PROC_EVENT_SID || event->kind == TTG_PROC_EVENT_EXIT);
  FUZZ_CHECK (event->kind == TTG_PROC_EVENT_FORK || event->parent == 0);
  (*n)++;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  TtgProcEvent ev;
  guint n = 0;

  fuzz_setup ();
  FUZZ_CHECK (ttg_proc_datagram_parse (data, size, on_event, &n) == n);
  /* The same bytes as the payload of one message (what the walk hands on). */
  if (ttg_proc_event_parse (data, size, &ev))
    on_event (&ev, &n);
  return 0;
}
