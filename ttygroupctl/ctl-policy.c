/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl get-policy, set-policy, set-user-policy, enable, disable. */
#include "build-config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "ctl.h"
#include "ctl-parse.h"

int
cmd_get_policy (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_auto(Rows) rows = { 0 };
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  r = sd_bus_get_property (bus, TTG_DBUS_NAME, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Policy", &error, &reply, "a{sv}");
  if (r < 0)
    return call_failed ("Policy", &error, r);

  if (arg_json != JSON_OFF)
    {
      g_autoptr(GString) json = g_string_new ("{");

      r = read_dict (reply, NULL, json);
      if (r < 0)
        return reply_malformed ("Policy", r);
      g_string_append_c (json, '}');
      print_json (json);
      return EXIT_OK;
    }
  rows_init (&rows);
  r = read_dict (reply, &rows, NULL);
  if (r < 0)
    return reply_malformed ("Policy", r);
  /* KEY=VALUE: what set-policy and ttygroup.conf take */
  for (guint i = 0; i < rows.keys->len; i++)
    printf ("%s=%s\n", (const char *) rows.keys->pdata[i], (const char *) rows.values->pdata[i]);
  return EXIT_OK;
}

static int
unknown_key (const char *key)
{
  g_autoptr(GString) known = g_string_new (NULL);

  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    {
      if (g_ascii_strcasecmp (key, info->key) == 0)
        /* Translators: the first %s is the command name (set-policy, set-user-policy);
         * the others are policy key names */
        return usage_error (_("%s: unknown key '%s' (did you mean '%s'?)"), arg_command, key, info->key);
      g_string_append_printf (known, "%s%s", known->len ? ", " : "", info->key);
    }
  /* Translators: the first %s is the command name (set-policy, set-user-policy); the
   * second the key given, the third the comma-separated list of the policy key names */
  return usage_error (_("%s: unknown key '%s'; the keys are %s"), arg_command, key, known->str);
}

/* The value was read by the rule of ttygroup.conf (ctl_parse_assignment());
 * the message is this program's, to be translated. */
static int
bad_value (const TtgPolicyKeyInfo *info, const char *value)
{
  switch (info->type)
    {
    case TTG_POLICY_TYPE_BOOLEAN:
      /* Translators: the first %s is the command name (set-policy, set-user-policy);
       * the second a policy key name, the third the value given. true/false, yes/no,
       * on/off and 1/0 are the values it takes: keep them in English */
      return usage_error (_("%s: %s takes a boolean (true/false, yes/no, on/off, 1/0), not '%s'"),
                          arg_command, info->key, value);

    case TTG_POLICY_TYPE_WEIGHT:
      /* Translators: the first %s is the command name (set-policy, set-user-policy);
       * the second a policy key name, the third the value given */
      return usage_error (_("%s: %s takes a weight (a decimal number), not '%s'"),
                          arg_command, info->key, value);
    }

  g_assert_not_reached ();
}

/* Appends the a{sv} of KEY=VALUE arguments to m, or only checks them when m
 * is NULL. 0, EXIT_USAGE (with a message) for anything that cannot be sent
 * as the contract says, or -errno. The service validates every key again. */
static int
append_changes (sd_bus_message *m, char **args, int n)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int r;

  r = m ? sd_bus_message_open_container (m, SD_BUS_TYPE_ARRAY, "{sv}") : 0;
  if (r < 0)
    return r;
  for (int i = 0; i < n; i++)
    {
      g_autofree char *key = NULL;
      gboolean bad = FALSE;
      TtgPolicyValue v;

      switch (ctl_parse_assignment (args[i], &key, &v))
        {
        case CTL_ASSIGN_SYNTAX:
          /* Translators: the first %s is the command name (set-policy, set-user-policy);
           * KEY=VALUE is the syntax of its arguments (may be translated like in the --help text) */
          return usage_error (_("%s: expected KEY=VALUE, got '%s'"), arg_command, args[i]);

        case CTL_ASSIGN_UNKNOWN_KEY:
          return unknown_key (key);

        case CTL_ASSIGN_BAD_VALUE:
          bad = TRUE;
          break;

        case CTL_ASSIGN_OK:
          break;
        }
      if (!g_hash_table_add (seen, g_strdup (key)))
        /* Translators: the first %s is the command name (set-policy, set-user-policy);
         * the second a policy key name */
        return usage_error (_("%s: %s given twice"), arg_command, key);
      if (bad)
        return bad_value (v.info, args[i] + strlen (key) + 1);

      if (!m)
        continue;
      if (v.info->type == TTG_POLICY_TYPE_BOOLEAN)
        r = sd_bus_message_append (m, "{sv}", key, "b", v.boolean);
      else
        r = sd_bus_message_append (m, "{sv}", key, "t", (uint64_t) v.weight);
      if (r < 0)
        return r;
    }
  r = m ? sd_bus_message_close_container (m) : 0;
  return r < 0 ? r : 0;
}

static int
set_policy (const char *method, char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  /* A usage error must not need (or wait for) the bus. */
  r = append_changes (NULL, args, n);
  if (r != 0)
    return r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, method, &call) < 0)
    return EXIT_FAIL;
  r = append_changes (call, args, n);
  if (r == 0)
    r = sd_bus_message_set_allow_interactive_authorization (call, !arg_no_ask_password);
  if (r < 0)
    {
      /* Translators: the first %s is a D-Bus method name, the second the system error text */
      print_error (_("Failed to create the %s call: %s"), method, g_strerror (-r));
      return EXIT_FAIL;
    }

  agent_open ();
  r = sd_bus_call (bus, call, arg_no_ask_password ? 0 : INTERACTIVE_TIMEOUT_USEC, &error, &reply);
  agent_close ();
  if (r < 0)
    return call_failed (method, &error, r);
  return EXIT_OK;
}

int
cmd_set_policy (char **args, int n)
{
  return set_policy ("SetPolicy", args, n);
}

int
cmd_set_user_policy (char **args, int n)
{
  return set_policy ("SetUserPolicy", args, n);
}

int
cmd_enable (char **args, int n)
{
  char *change[] = { (char *) TTG_KEY_ENABLED "=true", NULL };

  return set_policy ("SetPolicy", change, 1);
}

int
cmd_disable (char **args, int n)
{
  char *change[] = { (char *) TTG_KEY_ENABLED "=false", NULL };

  return set_policy ("SetPolicy", change, 1);
}
