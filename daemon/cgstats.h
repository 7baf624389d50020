/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Reads the cpu.stat and cpu.pressure of a group's cgroup through
 * libcgroup; the text is parsed by groupstats.c. Reading only: every change
 * to a group goes through systemd. */

/* Initialises libcgroup once; FALSE (with the reason) when it cannot find
 * the cgroup v2 hierarchy. Later calls return the first answer. */
gboolean ttg_cgstats_init (GError **error);

/* usage_usec of cgroup_path (relative to the cgroup root), and the
 * CLOCK_MONOTONIC time it was read at. FALSE when the cgroup is gone or its
 * cpu.stat cannot be read or parsed. */
gboolean ttg_cgstats_read_usage (const char *cgroup_path, guint64 *usage_usec, gint64 *at_usec,
                                 GError **error);

/* cpu.pressure's "some avg10" of cgroup_path, 0..100. FALSE when the
 * kernel keeps no pressure figures (PSI off) or the cgroup is gone. */
gboolean ttg_cgstats_read_pressure (const char *cgroup_path, double *avg10, GError **error);

/* cpu.pressure's some and full total= (microseconds) of cgroup_path; *full_usec
 * is TTG_STATS_UNKNOWN when the kernel keeps no full line. */
gboolean ttg_cgstats_read_pressure_totals (const char *cgroup_path, guint64 *some_usec, guint64 *full_usec,
                                           GError **error);

G_END_DECLS
