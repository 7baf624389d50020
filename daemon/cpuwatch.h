/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <systemd/sd-event.h>

G_BEGIN_DECLS

/* Whether the CPU weights can act (cpucheck.h decides), kept up to date:
 * checked at once when made, again on request (after each reconcile, a
 * moment later: systemd enables the cpu controller along a path only once
 * it applied the weights asked for) and every TTG_CPU_WATCH_INTERVAL_USEC
 * (a sched_ext scheduler comes and goes with no event to wait for). Each
 * change is logged once: at warning level while the weights cannot act,
 * at info when they can again. */
typedef struct TtgCpuWatch TtgCpuWatch;

#define TTG_CPU_WATCH_INTERVAL_USEC (60 * G_USEC_PER_SEC)
/* How long after a request the files are read. */
#define TTG_CPU_WATCH_SETTLE_USEC (2 * G_USEC_PER_SEC)

/* Called after the verdict changed. */
typedef void (*TtgCpuWatchFunc) (gpointer user_data);

/* root: "/" on the machine (a directory of sample files in tests). event
 * may be NULL: then only ttg_cpu_watch_check_now() checks. */
TtgCpuWatch *ttg_cpu_watch_new (sd_event *event, const char *root, TtgCpuWatchFunc changed,
                                gpointer user_data);
void ttg_cpu_watch_free (TtgCpuWatch *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgCpuWatch, ttg_cpu_watch_free)

/* Checks again TTG_CPU_WATCH_SETTLE_USEC from now (requests in between
 * are one). weights_asked: the service has given some session scope a
 * weight, so systemd must have the controller enabled down to the users'
 * slices (see TtgCpuInput.check_path). */
void ttg_cpu_watch_recheck (TtgCpuWatch *w, gboolean weights_asked);
/* Checks now; TRUE when the verdict changed (the callback ran). */
gboolean ttg_cpu_watch_check_now (TtgCpuWatch *w);

gboolean ttg_cpu_watch_effective (TtgCpuWatch *w);
/* The sentences, NULL-terminated; empty when effective. Valid until the
 * next check. */
const char *const *ttg_cpu_watch_limitations (TtgCpuWatch *w);

G_END_DECLS
