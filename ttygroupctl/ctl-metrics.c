/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl metrics: the groups' figures and the service's counters in
 * the OpenMetrics text format, on stdout or, with --output=FILE, into FILE
 * replaced atomically (node-exporter's textfile collector reads *.prom
 * files at any moment: it must never see half of one). */
#include "build-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ctl.h"
#include "ctl-metrics-text.h"

const char *arg_output;

/* The counters of Status (the keys of ttg-bus.h); the others are skipped. */
static int
status_counter (sd_bus_message *m, const char *key, gpointer data)
{
  CtlServiceCounters *out = data;
  guint64 *dest = NULL;
  uint64_t v;
  int r;

  if (g_str_equal (key, TTG_STATUS_PROCESS_EVENTS))
    dest = &out->process_events;
  else if (g_str_equal (key, TTG_STATUS_LOST_EVENTS))
    dest = &out->lost_events;
  else if (g_str_equal (key, TTG_STATUS_PLACEMENTS))
    dest = &out->placements;
  else if (g_str_equal (key, TTG_STATUS_PLACEMENT_FAILURES))
    dest = &out->placement_failures;
  if (!dest)
    return sd_bus_message_skip (m, "v");
  r = sd_bus_message_read (m, "v", "t", &v);
  *dest = v;
  return r;
}

static int
read_group_counters (sd_bus_message *m, GArray *groups)
{
  int r;

  r = sd_bus_message_enter_container (m, 'a', TTG_GROUP_COUNTERS_ENTRY);
  if (r < 0)
    return r;
  for (;;)
    {
      CtlGroupCounters g = { 0 };
      uint64_t weight, usage, some, full;
      uint32_t uid;

      r = sd_bus_message_read (m, TTG_GROUP_COUNTERS_ENTRY, &g.unit, &g.session, &uid, &g.kind, &weight, &usage,
                               &some, &full);
      if (r <= 0)
        break;
      g.uid = uid;
      g.weight = weight;
      g.usage_usec = usage;
      g.pressure_some_usec = some;
      g.pressure_full_usec = full;
      g_array_append_val (groups, g);
    }
  if (r < 0)
    return r;
  return sd_bus_message_exit_container (m);
}

int
cmd_metrics (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) status = NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (CtlGroupCounters));
  g_auto(GStrv) limitations = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) local = NULL;
  CtlServiceCounters service = { 0 };
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;

  r = get_effective (bus, &service.effective, &limitations);
  if (r != EXIT_OK)
    return r;
  service.limitations = g_strv_length (limitations);
  r = sd_bus_get_property (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Status", &error, &status, "a{sv}");
  if (r < 0)
    return call_failed ("Status", &error, r);
  r = walk_dict (status, status_counter, &service);
  if (r < 0)
    return reply_malformed ("Status", r);

  r = new_call (bus, TTG_METHOD_LIST_GROUP_COUNTERS, &call);
  if (r < 0)
    return EXIT_FAIL;
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed (TTG_METHOD_LIST_GROUP_COUNTERS, &error, r);
  r = read_group_counters (reply, groups);
  if (r < 0)
    return reply_malformed (TTG_METHOD_LIST_GROUP_COUNTERS, r);

  text = ctl_metrics_format (&service, (const CtlGroupCounters *) (void *) groups->data, groups->len);
  if (!arg_output)
    {
      fputs (text, stdout);
      return EXIT_OK;
    }
  /* A temporary file beside it, then rename(): a reader sees the old file
   * or the new one, whole. Readable by the collector's user. */
  if (!g_file_set_contents_full (arg_output, text, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0644, &local))
    {
      /* Translators: %s is the error, which names the file */
      print_error (_("Failed to write the metrics: %s"), local->message);
      return EXIT_FAIL;
    }
  return EXIT_OK;
}
