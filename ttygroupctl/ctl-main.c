/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: the command-line client of org.ttygroup1 on the system bus.
 * The contract is dbus/org.ttygroup1.xml; this file is the command line, each
 * command lives in a ctl-*.c file of its own (ctl.h). */
#include "build-config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>

#include <glib.h>
#include <glib/gi18n.h>

#include "ctl.h"
#include "ctl-table.h"

JsonMode arg_json = JSON_OFF;
gboolean arg_no_ask_password;
gboolean arg_no_legend;
gboolean arg_no_pager;
guint arg_columns;

static gboolean
parse_json_option (const char *name, const char *value, gpointer data, GError **error)
{
  if (ctl_parse_json_mode (value, &arg_json))
    return TRUE;
  /* Translators: the first %s is the value given; keep --json, short,
   * pretty and off as they are */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--json: '%s' is not one of short, pretty, off"), value);
  return FALSE;
}

static gboolean
parse_delay_option (const char *name, const char *value, gpointer data, GError **error)
{
  if (ctl_top_parse_delay (value, &arg_delay_usec))
    return TRUE;
  /* Translators: %s is the value given; keep --delay as it is */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--delay: '%s' is not a number of seconds from 0.1 to 3600"), value);
  return FALSE;
}

static gboolean
parse_iterations_option (const char *name, const char *value, gpointer data, GError **error)
{
  if (ctl_top_parse_iterations (value, &arg_iterations))
    return TRUE;
  /* Translators: %s is the value given; keep --iterations as it is */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("--iterations: '%s' is not a count from 1 to 1000000"), value);
  return FALSE;
}

typedef struct {
  const char *name;
  int min_args;
  int max_args; /* -1: any number */
  int (*run) (char **args, int n);
  gboolean paged; /* its output goes through the pager */
} Command;

static const Command commands[] = {
  { "status", 0, 0, cmd_status, TRUE },
  { "list", 0, 0, cmd_list, TRUE },
  { "explain", 1, 1, cmd_explain, TRUE },
  { "get-policy", 0, 0, cmd_get_policy, TRUE },
  { "set-policy", 1, -1, cmd_set_policy },
  { "set-user-policy", 1, -1, cmd_set_user_policy },
  { "enable", 0, 0, cmd_enable },
  { "disable", 0, 0, cmd_disable },
  { "monitor", 0, 0, cmd_monitor },
  { "top", 0, 0, cmd_top },
  { "metrics", 0, 0, cmd_metrics },
};

/* The --help text after the options, in paragraphs. */
static const char *const description[] = {
  /* Translators: the commands of ttygroupctl. Keep the command names, KEY=VALUE
   * (or translate it consistently), PID, $$, Enabled, GroupTerminals,
   * TerminalWeight, true/false and the polkit action ids as they are; keep the
   * second column aligned and the lines under 80 columns */
  N_("Commands:\n"
     "  status               Version, whether grouping is on, diagnostics\n"
     "  list                 The groups: sessions and terminals, with unit and weight\n"
     "  explain PID          Where a process is grouped, and why (e.g. explain $$)\n"
     "  get-policy           The system policy, as KEY=VALUE lines\n"
     "  set-policy KEY=VALUE...\n"
     "                       Change policy keys (polkit: org.ttygroup1.set-policy)\n"
     "  set-user-policy KEY=VALUE...\n"
     "                       Change your own sessions' Enabled, GroupTerminals or\n"
     "                       TerminalWeight, within the system policy (polkit:\n"
     "                       org.ttygroup1.set-user-policy)\n"
     "  enable, disable      Same as set-policy Enabled=true / Enabled=false\n"
     "  monitor              Print the service's signals as they come, until ^C\n"
     "  top                  The groups by CPU use, with their CPU pressure, again\n"
     "                       every --delay seconds until ^C (--iterations=N: N times)\n"
     "  metrics              The groups' CPU figures and the service's counters in the\n"
     "                       OpenMetrics text format, for Prometheus (--output=FILE:\n"
     "                       into FILE, replaced atomically)"),
  /* Translators: only "Policy keys:" is to be translated: the key names and
   * their values are what set-policy and ttygroup.conf take */
  N_("Policy keys:\n"
     "  Enabled, GroupTerminals, ManageGreeter    true/false, yes/no, on/off, 1/0\n"
     "  ActiveSessionWeight, SessionWeight,\n"
     "  RemoteSessionWeight, TerminalWeight       1..10000"),
  /* Translators: keep ttygroupctl(1) and org.ttygroup1(5) (manual pages) as they are */
  N_("Exit status: 0 on success, 1 when the call failed (the D-Bus error is printed),\n"
     "2 for a wrong command line. See ttygroupctl(1) and org.ttygroup1(5)."),
};

/* The options of entries[] that take no value. */
static const char *const flag_options[] = {
  "no-ask-password", "no-legend", "no-pager", "version", "help", "help-all", NULL
};

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  gboolean version = FALSE;
  const char *bad_flag;
  const Command *cmd = NULL;
  int n, r;
  g_autofree char *help_text = NULL;
  /* The descriptions are translated by GOption (its translation domain) */
  GOptionEntry entries[] = {
    { "json", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_json_option,
      N_("Print JSON: short (one line, also a bare --json), pretty or off"),
      "short|pretty|off" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &arg_no_legend,
      N_("Print no column headers and no footer"), NULL },
    { "no-pager", 0, 0, G_OPTION_ARG_NONE, &arg_no_pager,
      N_("Do not pipe the output into a pager"), NULL },
    { "delay", 0, 0, G_OPTION_ARG_CALLBACK, parse_delay_option,
      N_("top: seconds between two refreshes (default 1)"), "SECS" },
    { "iterations", 0, 0, G_OPTION_ARG_CALLBACK, parse_iterations_option,
      N_("top: print N snapshots in a row, then exit"), "N" },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &arg_output,
      N_("metrics: write to FILE (a temporary file beside it, then renamed) instead of stdout"), "FILE" },
    { "no-ask-password", 0, 0, G_OPTION_ARG_NONE, &arg_no_ask_password,
      N_("Do not ask for a password when polkit wants one: fail instead"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version and exit"), NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Translators: the arguments in "Usage: ttygroupctl [OPTION...] COMMAND [ARGS...]" */
  ctx = g_option_context_new (_("COMMAND [ARGS...]"));
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _("Query and change ttygroupd, the per-session and per-terminal CPU groups."));
  help_text = g_strjoin ("\n\n", _(description[0]), _(description[1]), _(description[2]), NULL);
  g_option_context_set_description (ctx, help_text);
  g_option_context_add_main_entries (ctx, entries, NULL);
  ctl_expand_bare_json (argc, argv);
  /* GOption takes "--version=3" as --version: refuse it, as systemctl does */
  bad_flag = ctl_find_flag_with_value (argc, argv, flag_options);
  if (bad_flag)
    /* Translators: %s is the argument given, like --version=3 */
    return usage_error (_("option '%s' takes no value"), bad_flag);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error ("%s", error->message);
  if (version)
    {
      printf ("ttygroupctl %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }
  if (argc < 2)
    return usage_error ("%s", _("no command given"));

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      cmd = &commands[i];
  if (!cmd)
    return usage_error (_("unknown command '%s'"), argv[1]);

  n = argc - 2;
  if (n < cmd->min_args)
    /* Translators: %s is a command name (explain, set-policy...) */
    return usage_error (_("%s: missing argument"), cmd->name);
  if (cmd->max_args >= 0 && n > cmd->max_args)
    /* Translators: the first %s is a command name (explain, status...), the
     * second the argument given */
    return usage_error (_("%s: unexpected argument '%s'"), cmd->name, argv[2 + cmd->max_args]);

  if (arg_output && cmd->run != cmd_metrics)
    /* Translators: %s is a command name; keep --output and metrics as they are */
    return usage_error (_("%s: --output is an option of metrics only"), cmd->name);

  arg_command = cmd->name;
  /* measured before the pager takes stdout, as systemctl does */
  arg_columns = ctl_terminal_width ();
  if (cmd->paged)
    pager_open ();
  r = cmd->run (argv + 2, n);
  /* EPIPE: the pager was quit before the end, which is no failure */
  if ((fflush (stdout) != 0 || ferror (stdout)) && errno != EPIPE)
    {
      pager_close ();
      print_error (_("Failed to write the output: %s"), g_strerror (errno));
      return EXIT_FAIL;
    }
  pager_close ();
  return r;
}

