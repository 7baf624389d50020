/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl status: first whether the weights can act (Effective, and
 * why not: Limitations), then Version, Enabled and the Status diagnostics. */
#include "build-config.h"

#include <glib/gi18n.h>

#include "ctl.h"

int
cmd_status (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) status = NULL;
  g_autofree char *version = NULL;
  g_auto(GStrv) limitations = NULL;
  g_auto(Rows) rows = { 0 };
  gboolean effective = FALSE;
  int enabled = 0;
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;

  r = get_effective (bus, &effective, &limitations);
  if (r != EXIT_OK)
    return r;
  r = sd_bus_get_property_string (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Version", &error, &version);
  if (r < 0)
    return call_failed ("Version", &error, r);
  r = sd_bus_get_property_trivial (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Enabled", &error,
                                   SD_BUS_TYPE_BOOLEAN, &enabled);
  if (r < 0)
    return call_failed ("Enabled", &error, r);
  r = sd_bus_get_property (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Status", &error, &status, "a{sv}");
  if (r < 0)
    return call_failed ("Status", &error, r);

  if (arg_json != JSON_OFF)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_append_printf (json, "{\"%s\":%s,\"%s\":[", TTG_PROPERTY_EFFECTIVE, effective ? "true" : "false",
                              TTG_PROPERTY_LIMITATIONS);
      for (char **l = limitations; l && *l; l++)
        {
          if (l != limitations)
            g_string_append_c (json, ',');
          json_append_string (json, *l);
        }
      g_string_append (json, "],\"Version\":");
      json_append_string (json, version);
      g_string_append_printf (json, ",\"Enabled\":%s,\"Status\":{", enabled ? "true" : "false");
      r = read_dict (status, NULL, json);
      if (r < 0)
        return reply_malformed ("Status", r);
      g_string_append (json, "}}");
      print_json (json);
      return EXIT_OK;
    }

  /* Not translated: the rows are the D-Bus names (properties and the keys
   * of Status), like the booleans' yes/no of append_value. */
  rows_init (&rows);
  rows_add (&rows, TTG_PROPERTY_EFFECTIVE,
            effective ? "yes: the CPU weights can act" : "no: the CPU weights cannot act on this machine");
  for (char **l = limitations; l && *l; l++)
    rows_add (&rows, "Limitation", *l);
  rows_add (&rows, "Version", version);
  rows_add (&rows, "Enabled", enabled ? "yes" : "no");
  r = read_dict (status, &rows, NULL);
  if (r < 0)
    return reply_malformed ("Status", r);
  rows_print (&rows, ": ");
  return EXIT_OK;
}
