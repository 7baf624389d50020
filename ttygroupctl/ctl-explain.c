/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl explain PID: where a process is grouped (GetGroupForPid). */
#include "build-config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "ctl.h"

int
cmd_explain (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_auto(Rows) rows = { 0 };
  guint64 pid = 0;
  int r;

  if (!*args[0] || strspn (args[0], "0123456789") != strlen (args[0]) ||
      !g_ascii_string_to_unsigned (args[0], 10, 1, G_MAXUINT32, &pid, NULL))
    /* Translators: "explain" is the command name, keep it as is */
    return usage_error (_("explain: '%s' is not a process id"), args[0]);

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, "GetGroupForPid", &call) < 0)
    return EXIT_FAIL;
  r = sd_bus_message_append (call, "u", (uint32_t) pid);
  if (r < 0)
    return reply_malformed ("GetGroupForPid", r);
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed ("GetGroupForPid", &error, r);

  if (arg_json != JSON_OFF)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_printf (json, "{\"Pid\":%" G_GUINT64_FORMAT, pid);
      r = read_dict (reply, NULL, json);
      if (r < 0)
        return reply_malformed ("GetGroupForPid", r);
      g_string_append_c (json, '}');
      print_json (json);
      return EXIT_OK;
    }

  /* Not translated: the rows are the keys of GetGroupForPid's reply */
  rows_init (&rows);
  g_autofree char *pid_text = g_strdup_printf ("%" G_GUINT64_FORMAT, pid);
  rows_add (&rows, "PID", pid_text);
  r = read_dict (reply, &rows, NULL);
  if (r < 0)
    return reply_malformed ("GetGroupForPid", r);
  rows_print (&rows, ": ");
  return EXIT_OK;
}
