/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>
#include <systemd/sd-event.h>

#include "procevent.h"

G_BEGIN_DECLS

/* Watches the kernel's proc connector (netlink, needs CAP_NET_ADMIN) and
 * reports the process events (procevent.h) that can matter, as they come:
 * SID, EXEC of a process that called setsid() while it watched, EXIT of a
 * process (procfilter.h decides; forks are not reported). */
typedef struct TtgProcmon TtgProcmon;

typedef void (*TtgProcmonEventFunc) (const TtgProcEvent *event, gpointer user_data);
/* Events were lost (the socket overflowed, ENOBUFS): rescan /proc. */
typedef void (*TtgProcmonLostFunc) (gpointer user_data);

TtgProcmon *ttg_procmon_new (sd_event *event,
                             TtgProcmonEventFunc on_event,
                             TtgProcmonLostFunc on_lost,
                             gpointer user_data,
                             GError **error);
void ttg_procmon_free (TtgProcmon *pm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgProcmon, ttg_procmon_free)

/* Counters for the benchmark and the status: events reported, overflows. */
guint64 ttg_procmon_get_event_count (TtgProcmon *pm);
guint64 ttg_procmon_get_lost_count (TtgProcmon *pm);

G_END_DECLS
