/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <syslog.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

G_BEGIN_DECLS

/* One cleanup idiom for GLib and sd-bus types alike. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus, sd_bus_flush_close_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus_message, sd_bus_message_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus_slot, sd_bus_slot_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_event, sd_event_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_event_source, sd_event_source_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (sd_bus_error, sd_bus_error_free)

/* Logging: to the journal with a topic field when started by systemd, to
 * stderr otherwise. Priorities are syslog's (LOG_ERR, LOG_INFO, ...). */
void ttg_log_set_verbose (gboolean verbose);
void ttg_log (int priority, const char *topic, const char *format, ...) G_GNUC_PRINTF (3, 4);

#define ttg_log_err(topic, ...) ttg_log (LOG_ERR, topic, __VA_ARGS__)
#define ttg_log_warn(topic, ...) ttg_log (LOG_WARNING, topic, __VA_ARGS__)
#define ttg_log_notice(topic, ...) ttg_log (LOG_NOTICE, topic, __VA_ARGS__)
#define ttg_log_info(topic, ...) ttg_log (LOG_INFO, topic, __VA_ARGS__)
#define ttg_log_debug(topic, ...) ttg_log (LOG_DEBUG, topic, __VA_ARGS__)

/* Arms the one-shot CLOCK_MONOTONIC timer *source (made on first use) to
 * call handler(user_data) in delay_usec, unless it is already due sooner. */
void ttg_timer_arm (sd_event *event, sd_event_source **source, guint64 delay_usec,
                    sd_event_time_handler_t handler, void *user_data);

/* Reads a whole small file (procfs, cgroupfs). NULL with errno-style
 * negative code in *r on failure (ENOENT/ESRCH when the process is gone). */
char *ttg_read_file (const char *path, int *r);

/* The cgroup v2 mount point. */
#define TTG_CGROUP_ROOT "/sys/fs/cgroup"

/* The pids in <TTG_CGROUP_ROOT><cgroup_path>/cgroup.procs; NULL if unreadable. */
GArray *ttg_cgroup_read_procs (const char *cgroup_path);

/* Are processes in <TTG_CGROUP_ROOT><cgroup_path> (its cgroup.events)?
 * 1 yes, 0 no, -errno when it cannot be read or makes no sense. */
int ttg_cgroup_is_populated (const char *cgroup_path);

/* Writes pid into <TTG_CGROUP_ROOT><cgroup_path>/cgroup.procs. 0 or -errno. */
int ttg_cgroup_write_proc (const char *cgroup_path, pid_t pid);

G_END_DECLS
