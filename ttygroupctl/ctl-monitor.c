/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl monitor: the service's signals (GroupAdded, GroupRemoved,
 * GroupChanged, PropertiesChanged of the manager), one line each as they
 * come, until SIGINT or SIGTERM. */
#include "build-config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "ctl.h"

/* The arguments of each signal, by the names of dbus/org.ttygroup1.xml
 * (capitalised, as the JSON of the other commands names things). */
static const struct {
  const char *member;
  const char *signature;
  const char *const names[4];
} signals[] = {
  { "GroupAdded", "sss", { "Unit", "Session", "Tty", NULL } },
  { "GroupRemoved", "s", { "Unit", NULL } },
  { "GroupChanged", "st", { "Unit", "Weight", NULL } },
};

static char *
timestamp (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.%f%:z");
}

/* One line: "TIME MEMBER NAME=VALUE..." or a JSON object. */
static int
print_signal (sd_bus_message *m, const char *member, const char *const *names)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *now = timestamp ();
  int r;

  if (arg_json != JSON_OFF)
    {
      g_string_append (out, "{\"Timestamp\":");
      json_append_string (out, now);
      g_string_append (out, ",\"Signal\":");
      json_append_string (out, member);
    }
  else
    g_string_append_printf (out, "%s %s", now, member);

  for (guint i = 0; names[i]; i++)
    {
      if (arg_json != JSON_OFF)
        {
          g_string_append_c (out, ',');
          json_append_string (out, names[i]);
          g_string_append_c (out, ':');
        }
      else
        g_string_append_printf (out, " %s=", names[i]);
      r = append_value (m, out, arg_json != JSON_OFF);
      if (r < 0)
        return r;
    }

  if (arg_json != JSON_OFF)
    {
      g_string_append_c (out, '}');
      print_json (out);
    }
  else
    printf ("%s\n", out->str);
  fflush (stdout);
  return 0;
}

static int
on_manager_signal (sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
  const char *member = sd_bus_message_get_member (m);

  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    if (g_strcmp0 (member, signals[i].member) == 0)
      {
        if (!sd_bus_message_has_signature (m, signals[i].signature)
            || print_signal (m, member, signals[i].names) < 0)
          (void) reply_malformed (member, -EBADMSG);
        return 0;
      }
  return 0;
}

static int
on_properties_changed (sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
  static const char *const names[] = { "Changed", "Invalidated", NULL };
  const char *interface;
  int r;

  if (!sd_bus_message_has_signature (m, "sa{sv}as"))
    return 0;
  r = sd_bus_message_read_basic (m, SD_BUS_TYPE_STRING, &interface);
  if (r < 0 || !g_str_equal (interface, TTG_DBUS_INTERFACE))
    return 0;
  if (print_signal (m, "PropertiesChanged", names) < 0)
    (void) reply_malformed ("PropertiesChanged", -EBADMSG);
  return 0;
}

int
cmd_monitor (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  int sfd, r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  /* By the well-known name: the signals of a restarted service come too. */
  r = sd_bus_match_signal (bus, NULL, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, NULL,
                           on_manager_signal, NULL);
  if (r >= 0)
    r = sd_bus_match_signal (bus, NULL, TTG_DBUS_NAME, TTG_DBUS_PATH, "org.freedesktop.DBus.Properties",
                             "PropertiesChanged", on_properties_changed, NULL);
  if (r < 0)
    {
      print_error (_("Failed to subscribe to the signals of %s: %s"), TTG_DBUS_NAME, g_strerror (-r));
      return EXIT_FAIL;
    }
  sfd = open_signal_fd ();
  if (sfd < 0)
    {
      print_error (_("Failed to watch for signals: %s"), g_strerror (errno));
      return EXIT_FAIL;
    }

  for (;;)
    {
      struct pollfd fds[2];
      uint64_t timeout_usec;
      int timeout_ms = -1;

      do
        r = sd_bus_process (bus, NULL);
      while (r > 0);
      if (r < 0)
        break;

      r = sd_bus_get_events (bus);
      if (r < 0)
        break;
      fds[0] = (struct pollfd) { .fd = sd_bus_get_fd (bus), .events = r };
      fds[1] = (struct pollfd) { .fd = sfd, .events = POLLIN };
      if (sd_bus_get_timeout (bus, &timeout_usec) >= 0 && timeout_usec != UINT64_MAX)
        {
          uint64_t now = g_get_monotonic_time ();

          timeout_ms = timeout_usec > now ? (int) MIN ((timeout_usec - now + 999) / 1000, G_MAXINT) : 0;
        }
      if (poll (fds, 2, timeout_ms) < 0)
        {
          if (errno == EINTR)
            continue;
          r = -errno;
          break;
        }
      if (fds[1].revents & POLLIN)
        {
          close (sfd);
          return EXIT_OK;
        }
    }

  close (sfd);
  /* Translators: %s is the system error text */
  print_error (_("The connection to the system bus failed: %s"), g_strerror (-r));
  return EXIT_FAIL;
}
