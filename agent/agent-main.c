/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include <locale.h>
#include <stdio.h>

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>

#include "agent-service.h"
#include "agent-policy.h"
#include "ttg-bus.h"

/* One agent per user: the first to own this name on the user's bus. */

static gboolean
on_quit_signal (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

/* TRUE when this process is the user's agent; FALSE with *other set when
 * another one already is. */
static gboolean
own_agent_name (GDBusConnection *session_bus, gboolean *other, GError **error)
{
  g_autoptr(GVariant) reply = NULL;
  guint32 result;

  *other = FALSE;
  reply = g_dbus_connection_call_sync (session_bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", TTG_AGENT_DBUS_NAME, 0x4 /* DO_NOT_QUEUE */),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, error);
  if (!reply)
    return FALSE;
  g_variant_get (reply, "(u)", &result);
  if (result == 1 /* PRIMARY_OWNER */ || result == 4 /* ALREADY_OWNER */)
    return TRUE;
  *other = TRUE;
  return FALSE;
}

/* The weights of terminal scopes under the user manager only count if
 * systemd delegated the cpu controller to it (user@.service Delegate=). */
static void
check_cpu_delegated (void)
{
  g_autofree char *self = NULL;
  g_autofree char *manager = NULL;
  g_autofree char *path = NULL;
  g_autofree char *controllers = NULL;
  g_auto(GStrv) names = NULL;

  if (!g_file_get_contents ("/proc/self/cgroup", &self, NULL, NULL))
    return;
  manager = ttg_agent_user_manager_cgroup (self);
  if (!manager)
    return; /* started outside the user manager (XDG autostart): nothing to say */
  path = g_build_filename ("/sys/fs/cgroup", manager, "cgroup.controllers", NULL);
  if (!g_file_get_contents (path, &controllers, NULL, NULL))
    return;
  names = g_strsplit_set (g_strstrip (controllers), " ", -1);
  if (!g_strv_contains ((const char *const *) names, "cpu"))
    g_warning (_("The cpu controller is not delegated to your systemd user manager (%s has “%s”): "
                 "the CPU weights of terminal scopes under it have no effect"), manager, controllers);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) session_bus = NULL;
  g_autoptr(GDBusConnection) system_bus = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(TtgAgent) agent = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  gboolean version = FALSE, verbose = FALSE, other = FALSE;
  GSettingsSchemaSource *source;
  GOptionEntry entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_("Log debug messages too"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version and exit"), NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  ctx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx,
    _("Applies your ttygroup settings (gsettings schema org.ttygroup1) to your own\n"
      "sessions: sends them to ttygroupd when the desktop session starts, whenever\n"
      "one changes and whenever the service restarts, and gives the terminal scopes\n"
      "of your systemd user manager (vte-spawn-*.scope, app-*-*.scope) their CPU\n"
      "weight. Started with the graphical session (ttygroup-agent.service, or the\n"
      "XDG autostart entry on desktops without systemd user sessions)."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "ttygroup-agent: ");
      /* Translators: %s is the error of the command line (from GLib) */
      fprintf (stderr, _("%s (see --help)"), error->message);
      fprintf (stderr, "\n");
      return 2;
    }
  if (version)
    {
      printf ("ttygroup-agent %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (argc > 1)
    {
      fprintf (stderr, _("ttygroup-agent: unexpected argument “%s” (see --help)\n"), argv[1]);
      return 2;
    }
  if (verbose)
    g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);

  source = g_settings_schema_source_get_default ();
  schema = source ? g_settings_schema_source_lookup (source, TTG_SETTINGS_SCHEMA, TRUE) : NULL;
  if (!schema)
    {
      fprintf (stderr, _("ttygroup-agent: the settings schema %s is not installed\n"), TTG_SETTINGS_SCHEMA);
      return 1;
    }
  session_bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  if (!session_bus)
    {
      fprintf (stderr, _("ttygroup-agent: no session bus: %s\n"), error->message);
      return 1;
    }
  system_bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (!system_bus)
    {
      fprintf (stderr, _("ttygroup-agent: no system bus: %s\n"), error->message);
      return 1;
    }
  if (!own_agent_name (session_bus, &other, &error))
    {
      if (other)
        {
          /* Both the user unit and the XDG autostart entry may start one. */
          g_message (_("Another ttygroup agent is already running for this user; leaving the work to it"));
          return 0;
        }
      fprintf (stderr, _("ttygroup-agent: could not own %s on the session bus: %s\n"), TTG_AGENT_DBUS_NAME,
               error->message);
      return 1;
    }

  check_cpu_delegated ();
  settings = g_settings_new_full (schema, NULL, NULL);
  loop = g_main_loop_new (NULL, FALSE);
  agent = ttg_agent_new (settings, system_bus, session_bus);
  g_unix_signal_add (SIGTERM, on_quit_signal, loop);
  g_unix_signal_add (SIGINT, on_quit_signal, loop);
  g_main_loop_run (loop);
  return 0;
}
