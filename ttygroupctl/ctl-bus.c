/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: the connection to the system bus, the polkit text agent and
 * the reporting of failed calls. */
#include "build-config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "ctl.h"

/* r < 0 from an sd_bus call: name and message of the D-Bus error, or the
 * errno text when there is none. */
int
call_failed (const char *what, const sd_bus_error *error, int r)
{
  if (sd_bus_error_is_set (error))
    {
      /* what: the D-Bus member; then the D-Bus error's name and message */
      print_error ("%s: %s: %s", what, error->name, error->message ? error->message : "");
      if (sd_bus_error_has_names (error, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
        print_error ("%s", _("is ttygroupd running? (systemctl status ttygroupd)"));
      else if (sd_bus_error_has_name (error, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED))
        /* Translators: --no-ask-password is an option of ttygroupctl, keep it as is */
        print_error ("%s", _("run it without --no-ask-password to authenticate, or as root"));
    }
  else
    print_error ("%s: %s", what, g_strerror (-r));
  return EXIT_FAIL;
}

int
reply_malformed (const char *what, int r)
{
  /* Translators: the first %s is a D-Bus method or property name, the
   * second the bus name org.ttygroup1, the third the system error text */
  print_error (_("%s: unexpected reply from %s: %s"), what, TTG_DBUS_NAME, g_strerror (-r));
  return EXIT_FAIL;
}

/* ---------------------------------------------------------------- bus -- */

int
bus_connect (sd_bus **ret)
{
  g_autoptr(sd_bus) bus = NULL;
  int r;

  r = sd_bus_open_system (&bus);
  if (r < 0)
    {
      print_error (_("Failed to connect to the system bus: %s"), g_strerror (-r));
      return EXIT_FAIL;
    }
  (void) sd_bus_set_description (bus, "ttygroupctl");
  *ret = g_steal_pointer (&bus);
  return EXIT_OK;
}

/* The polkit text agent, for mutating calls from a terminal that has no
 * agent of its own (a desktop's agent wins: --fallback). Like systemctl. */
static GPid agent_pid;

void
agent_open (void)
{
  g_autofree char *agent = NULL;
  g_autofree char *fd_text = NULL;
  g_autoptr(GError) error = NULL;
  int pipe_fd[2];
  int target_fd = 3;

  if (agent_pid > 0 || arg_no_ask_password)
    return;
  /* root needs no authentication; without a terminal nobody could answer */
  if (geteuid () == 0 || !isatty (STDIN_FILENO))
    return;
  agent = g_find_program_in_path ("pkttyagent");
  if (!agent)
    return;
  if (pipe (pipe_fd) < 0)
    return;

  fd_text = g_strdup_printf ("%d", target_fd);
  const char *argv[] = { agent, "--notify-fd", fd_text, "--fallback", NULL };
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN,
                                         NULL, NULL, -1, -1, -1, &pipe_fd[1], &target_fd, 1,
                                         &agent_pid, NULL, NULL, NULL, &error))
    {
      agent_pid = 0;
      close (pipe_fd[0]);
      close (pipe_fd[1]);
      return;
    }
  close (pipe_fd[1]);
  /* It closes the fd once it is registered (or when it exits). */
  struct pollfd p = { .fd = pipe_fd[0], .events = POLLIN };
  while (poll (&p, 1, 10 * 1000) < 0 && errno == EINTR)
    ;
  close (pipe_fd[0]);
}

void
agent_close (void)
{
  if (agent_pid <= 0)
    return;
  (void) kill (agent_pid, SIGTERM);
  while (waitpid (agent_pid, NULL, 0) < 0 && errno == EINTR)
    ;
  agent_pid = 0;
}

int
get_effective (sd_bus *bus, gboolean *effective, char ***limitations)
{
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  int b = 0;
  int r;

  r = sd_bus_get_property_trivial (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, TTG_PROPERTY_EFFECTIVE,
                                   &error, SD_BUS_TYPE_BOOLEAN, &b);
  if (r < 0)
    return call_failed (TTG_PROPERTY_EFFECTIVE, &error, r);
  r = sd_bus_get_property_strv (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, TTG_PROPERTY_LIMITATIONS,
                                &error, limitations);
  if (r < 0)
    return call_failed (TTG_PROPERTY_LIMITATIONS, &error, r);
  /* sd-bus gives NULL for an empty array */
  if (!*limitations)
    *limitations = g_new0 (char *, 1);
  *effective = b;
  return EXIT_OK;
}

int
new_call (sd_bus *bus, const char *member, sd_bus_message **ret)
{
  int r = sd_bus_message_new_method_call (bus, ret, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, member);

  if (r < 0)
    /* Translators: the first %s is a D-Bus method name, the second the system error text */
    print_error (_("Failed to create the %s call: %s"), member, g_strerror (-r));
  return r;
}
