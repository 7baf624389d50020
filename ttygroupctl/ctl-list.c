/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl list: the groups (ListGroups), as a table or JSON. */
#include "build-config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "ctl.h"
#include "ctl-table.h"

int
cmd_list (char **args, int n)
{
  static const char *const header[] = {
    /* Translators: a column header of "ttygroupctl list": the systemd unit */
    N_("UNIT"),
    /* Translators: a column header of "ttygroupctl list": the logind session id */
    N_("SESSION"),
    /* Translators: a column header of "ttygroupctl list": the user name */
    N_("USER"),
    /* Translators: a column header of "ttygroupctl list": session or terminal */
    N_("KIND"),
    /* Translators: a column header of "ttygroupctl list": the terminal (tty) name */
    N_("TTY"),
    /* Translators: a column header of "ttygroupctl list": the process id of the group's leader */
    N_("LEADER"),
    /* Translators: a column header of "ttygroupctl list": the group's CPU weight */
    N_("WEIGHT"),
    /* Translators: a column header of "ttygroupctl list" */
    N_("DESCRIPTION"),
  };
  enum { COLUMNS = G_N_ELEMENTS (header) };
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  const char *unit, *session, *kind, *tty, *description;
  uint32_t uid, leader;
  uint64_t weight;
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, "ListGroups", &call) < 0)
    return EXIT_FAIL;
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed ("ListGroups", &error, r);

  r = sd_bus_message_enter_container (reply, SD_BUS_TYPE_ARRAY, "(ssussuts)");
  if (r < 0)
    return reply_malformed ("ListGroups", r);
  while ((r = sd_bus_message_read (reply, "(ssussuts)", &unit, &session, &uid, &kind, &tty,
                                   &leader, &weight, &description)) > 0)
    {
      if (arg_json != JSON_OFF)
        {
          if (json->len > 1)
            g_string_append_c (json, ',');
          ctl_group_json (json, unit, session, uid, kind, tty, leader, weight, description);
        }
      else
        {
          char buf[32];

          g_ptr_array_add (cells, text_safe (unit));
          g_ptr_array_add (cells, text_safe (*session ? session : "-"));
          g_ptr_array_add (cells, text_safe (user_name (uid, buf, sizeof buf)));
          g_ptr_array_add (cells, text_safe (kind));
          g_ptr_array_add (cells, text_safe (*tty ? tty : "-"));
          g_ptr_array_add (cells, leader ? g_strdup_printf ("%" G_GUINT32_FORMAT, leader) : g_strdup ("-"));
          /* 0: the service sets no weight, systemd's default applies */
          g_ptr_array_add (cells, weight ? g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) weight) : g_strdup ("-"));
          g_ptr_array_add (cells, text_safe (*description ? description : "-"));
        }
    }
  if (r < 0)
    return reply_malformed ("ListGroups", r);

  if (arg_json != JSON_OFF)
    {
      g_string_append_c (json, ']');
      print_json (json);
      return EXIT_OK;
    }
  if (cells->len == 0)
    {
      if (!arg_no_legend)
        printf ("%s\n", _("No groups."));
      return EXIT_OK;
    }
  {
    const char *titles[COLUMNS];
    g_autoptr(CtlTable) table = NULL;
    g_autofree char *text = NULL;

    for (guint c = 0; c < COLUMNS; c++)
      titles[c] = _(header[c]);
    /* on a narrow terminal the DESCRIPTION is cut, the names stay whole */
    table = ctl_table_new (titles, COLUMNS, 1u << (COLUMNS - 1));
    for (guint i = 0; i < cells->len; i += COLUMNS)
      ctl_table_add_row (table, (const char *const *) cells->pdata + i);
    ctl_table_set_width (table, arg_columns);
    ctl_table_set_header (table, !arg_no_legend);
    text = ctl_table_to_string (table);
    fputs (text, stdout);
  }
  if (arg_no_legend)
    return EXIT_OK;
  printf ("\n");
  /* Translators: the last line of "ttygroupctl list"; %u is the number of groups */
  printf (ngettext ("%u group listed.", "%u groups listed.", cells->len / COLUMNS), cells->len / COLUMNS);
  printf ("\n");
  return EXIT_OK;
}
