/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupd: main(), options, signals and the event loop. Everything else
 * lives in the manager and its edges. */
#include "build-config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <systemd/sd-daemon.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "api.h"
#include "config.h"
#include "manager.h"
#include "state.h"
#include "util.h"

typedef struct {
  TtgManager *manager;
  TtgApi *api;
  TtgState *state;
  const char *config_file;
  const char *dropin_dir;
} Daemon;

/* Errors of the command line, on stderr (not the journal): "ttygroupd:
 * MESSAGE". The message is translated by the caller. */
static void G_GNUC_PRINTF (1, 2)
cli_error (const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  fprintf (stderr, "ttygroupd: %s\n", msg);
}

/* The effective policy: the configuration files, then what was set over
 * D-Bus (saved under the state directory). */
static gboolean
load_policy (const char *config_file, const char *dropin_dir, TtgState *state,
             TtgPolicy *out, TtgLimits *limits, GError **error)
{
  TtgPolicy p;

  if (!ttg_config_load (config_file, dropin_dir, &p, limits, error))
    return FALSE;
  if (state && !ttg_state_apply (state, &p, error))
    return FALSE;
  *out = p;
  return TRUE;
}

static char *
state_file_path (void)
{
  const char *dir = g_getenv ("STATE_DIRECTORY"); /* set by StateDirectory= */

  if (dir && *dir && !strchr (dir, ':'))
    return g_build_filename (dir, "policy.conf", NULL);
  return g_build_filename (TTG_STATE_DIR, "policy.conf", NULL);
}

static int
on_sighup (sd_event_source *s, const struct signalfd_siginfo *si, void *user_data)
{
  Daemon *d = user_data;
  g_autoptr(GError) error = NULL;
  TtgPolicy policy;
  TtgLimits limits;

  (void) sd_notify (0, "RELOADING=1");
  if (!load_policy (d->config_file, d->dropin_dir, d->state, &policy, &limits, &error))
    ttg_log_err ("config", "Configuration not reloaded, keeping the last good policy and limits: %s", error->message);
  else
    {
      ttg_manager_set_limits (d->manager, &limits);
      ttg_manager_set_policy (d->manager, &policy);
      ttg_api_policy_changed (d->api);
    }
  (void) sd_notify (0, "READY=1");
  return 0;
}

static int
on_exit_signal (sd_event_source *s, const struct signalfd_siginfo *si, void *user_data)
{
  ttg_log_info ("daemon", "Received %s, exiting; groups stay as they are for the next start",
                strsignal (si->ssi_signo));
  return sd_event_exit (sd_event_source_get_event (s), 0);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(sd_event) event = NULL;
  g_autoptr(sd_bus) bus = NULL;
  g_autoptr(TtgManager) manager = NULL;
  g_autoptr(TtgApi) api = NULL;
  g_autoptr(TtgState) state = NULL;
  g_autofree char *state_path = NULL;
  gboolean verbose = FALSE, version = FALSE, check_config = FALSE;
  g_autofree char *config_file = NULL;
  g_autofree char *dropin_dir = NULL;
  g_autofree char *config_help = NULL;
  g_autofree char *dropin_help = NULL;
  TtgPolicy policy;
  TtgLimits limits;
  sigset_t mask;
  int r;

  /* Only the command line is translated; the journal stays in English. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Translators: the description of --config; %s is the default file name */
  config_help = g_strdup_printf (_("Main configuration file (default %s)"), TTG_CONFIG_FILE);
  /* Translators: the description of --config-dir; %s is the default directory */
  dropin_help = g_strdup_printf (_("Drop-in directory (default %s)"), TTG_CONFIG_DROPIN_DIR);

  /* The descriptions are translated by GOption (its translation domain);
   * config_help and dropin_help already are. */
  GOptionEntry entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_("Log debug messages too"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version and exit"), NULL },
    { "check-config", 0, 0, G_OPTION_ARG_NONE, &check_config,
      N_("Check the configuration files, print the resulting policy and exit"), NULL },
    { "config", 'c', 0, G_OPTION_ARG_FILENAME, &config_file, config_help,
      /* Translators: the argument of --config, as in --config=FILE */
      N_("FILE") },
    { "config-dir", 0, 0, G_OPTION_ARG_FILENAME, &dropin_dir, dropin_help,
      /* Translators: the argument of --config-dir, as in --config-dir=DIR */
      N_("DIR") },
    { NULL }
  };

  /* Translators: what follows "Usage: ttygroupd [OPTION...]" in --help */
  ctx = g_option_context_new (_("- per-session and per-terminal CPU groups"));
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx,
    /* Translators: the --help text of ttygroupd; keep the lines under 80
     * columns. logind, CPUWeight, ttygroupd.service and SIGHUP are names:
     * keep them as they are */
    _("ttygroupd gives every logind session, and every terminal (pty) inside the user's\n"
      "display session, a CPU group of its own (a systemd scope with a CPUWeight), so a\n"
      "parallel build in one terminal cannot starve the others. It is started by systemd\n"
      "as ttygroupd.service; SIGHUP reloads the configuration."));
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      /* Translators: %s is the error of the command line (from GLib) */
      cli_error (_("%s (see --help)"), error->message);
      return 2;
    }
  if (version)
    {
      printf ("ttygroupd %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (argc > 1)
    {
      cli_error (_("unexpected argument \"%s\" (see --help)"), argv[1]);
      return 2;
    }
  /* The service logs to the journal and answers over D-Bus in English, with
   * C number formats (strerror, strsignal, %f): only the command line above
   * and --check-config follow the user's locale. systemd passes the system
   * LANG to services. */
  if (!check_config)
    setlocale (LC_ALL, "C");
  if (!config_file)
    config_file = g_strdup (TTG_CONFIG_FILE);
  if (!dropin_dir)
    dropin_dir = g_strdup (TTG_CONFIG_DROPIN_DIR);

  ttg_log_set_verbose (verbose);

  state_path = state_file_path ();
  state = ttg_state_new (state_path);
  if (!load_policy (config_file, dropin_dir, check_config ? NULL : state, &policy, &limits, &error))
    {
      if (check_config)
        {
          cli_error ("%s", error->message);
          return 1;
        }
      ttg_log_err ("config", "Bad configuration, using the built-in defaults: %s", error->message);
      ttg_policy_init_defaults (&policy);
      ttg_limits_init_default (&limits);
      g_clear_error (&error);
    }
  if (check_config)
    {
      g_autofree char *text = ttg_policy_to_keyfile_data (&policy);
      printf ("%s\n[" TTG_LIMITS_GROUP "]\n"
              TTG_KEY_MAX_TERMINAL_GROUPS_PER_USER "=%u\n"
              TTG_KEY_TERMINAL_GROUP_BURST "=%u\n"
              TTG_KEY_TERMINAL_GROUPS_PER_MINUTE "=%u\n",
              text, limits.max_groups, limits.burst, limits.per_minute);
      return 0;
    }

  sigemptyset (&mask);
  sigaddset (&mask, SIGTERM);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGHUP);
  sigprocmask (SIG_BLOCK, &mask, NULL);

  r = sd_event_default (&event);
  if (r < 0)
    {
      ttg_log_err ("daemon", "Failed to create the event loop: %s", g_strerror (-r));
      return 1;
    }
  r = sd_bus_open_system (&bus);
  if (r < 0)
    {
      ttg_log_err ("daemon", "Failed to connect to the system bus: %s", g_strerror (-r));
      return 1;
    }
  r = sd_bus_attach_event (bus, event, SD_EVENT_PRIORITY_NORMAL);
  if (r < 0)
    {
      ttg_log_err ("daemon", "Failed to attach the bus to the event loop: %s", g_strerror (-r));
      return 1;
    }

  manager = ttg_manager_new (event, bus, &policy, &error);
  if (manager)
    ttg_manager_set_limits (manager, &limits);
  if (!manager || !ttg_manager_start (manager, &error))
    {
      ttg_log_err ("daemon", "Failed to start: %s", error->message);
      return 1;
    }

  api = ttg_api_new (bus, manager, state, &error);
  if (!api)
    {
      ttg_log_err ("daemon", "Failed to start the D-Bus API: %s", error->message);
      return 1;
    }

  Daemon d = { .manager = manager, .api = api, .state = state,
               .config_file = config_file, .dropin_dir = dropin_dir };
  (void) sd_event_add_signal (event, NULL, SIGTERM, on_exit_signal, NULL);
  (void) sd_event_add_signal (event, NULL, SIGINT, on_exit_signal, NULL);
  (void) sd_event_add_signal (event, NULL, SIGHUP, on_sighup, &d);

  ttg_log_info ("daemon", "ttygroupd %s started", PACKAGE_VERSION);
  (void) sd_notify (0, "READY=1");

  r = sd_event_loop (event);
  (void) sd_notify (0, "STOPPING=1");
  if (r < 0)
    {
      ttg_log_err ("daemon", "Event loop failed: %s", g_strerror (-r));
      return 1;
    }
  return 0;
}
