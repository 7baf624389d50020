/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "agent-policy.h"

static void
test_request (void)
{
  TtgAgentPrefs prefs = { .enabled = FALSE, .group_terminals = TRUE, .terminal_weight = 50 };
  g_autoptr(GVariant) full = g_variant_ref_sink (ttg_agent_prefs_to_request (&prefs, TRUE));
  g_autoptr(GVariant) switches = g_variant_ref_sink (ttg_agent_prefs_to_request (&prefs, FALSE));
  g_autofree char *text = ttg_agent_request_to_string (full);
  gboolean b;
  guint64 t;

  g_assert_true (g_variant_is_of_type (full, G_VARIANT_TYPE_VARDICT));
  g_assert_true (g_variant_lookup (full, "Enabled", "b", &b));
  g_assert_false (b);
  g_assert_true (g_variant_lookup (full, "GroupTerminals", "b", &b));
  g_assert_true (b);
  /* the service wants a uint64 weight ("t"), not the schema's "u" */
  g_assert_true (g_variant_lookup (full, "TerminalWeight", "t", &t));
  g_assert_cmpuint (t, ==, 50);
  g_assert_cmpuint (g_variant_n_children (full), ==, 3);

  /* after the service refused the weight: the switches alone */
  g_assert_cmpuint (g_variant_n_children (switches), ==, 2);
  g_assert_false (g_variant_lookup (switches, "TerminalWeight", "t", &t));

  g_assert_cmpstr (text, ==, "Enabled=false GroupTerminals=true TerminalWeight=50");
}

static void
test_system_from_policy (void)
{
  TtgAgentSystem sys;
  g_autoptr(GVariant) policy = g_variant_ref_sink (g_variant_new_parsed (
    "{'Enabled': <true>, 'GroupTerminals': <false>, 'TerminalWeight': <uint64 30>, 'SessionWeight': <uint64 100>}"));
  g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new_parsed ("{'TerminalWeight': <'lots'>}"));

  ttg_agent_system_from_policy (policy, &sys);
  g_assert_true (sys.enabled);
  g_assert_false (sys.group_terminals);
  g_assert_cmpuint (sys.terminal_weight, ==, 30);

  /* missing or mistyped: the service's defaults */
  ttg_agent_system_from_policy (wrong, &sys);
  g_assert_true (sys.enabled && sys.group_terminals);
  g_assert_cmpuint (sys.terminal_weight, ==, 100);
  ttg_agent_system_from_policy (NULL, &sys);
  g_assert_cmpuint (sys.terminal_weight, ==, 100);
}

static void
test_scope_weight (void)
{
  TtgAgentSystem sys = { .enabled = TRUE, .group_terminals = TRUE, .terminal_weight = 100 };
  TtgAgentPrefs prefs = { .enabled = TRUE, .group_terminals = TRUE, .terminal_weight = 40 };

  /* nothing accepted yet: the system's weight */
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 0), ==, 100);
  /* what the service accepted from us */
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, 40);
  /* the administrator lowered the bound below what was accepted */
  sys.terminal_weight = 25;
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, 25);
  sys.terminal_weight = 100;

  /* any switch off, the system's or the user's: systemd's default */
  prefs.enabled = FALSE;
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, TTG_AGENT_WEIGHT_UNSET);
  prefs.enabled = TRUE;
  prefs.group_terminals = FALSE;
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, TTG_AGENT_WEIGHT_UNSET);
  prefs.group_terminals = TRUE;
  sys.enabled = FALSE;
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, TTG_AGENT_WEIGHT_UNSET);
  sys.enabled = TRUE;
  sys.group_terminals = FALSE;
  g_assert_cmpuint (ttg_agent_scope_weight (&sys, &prefs, 40), ==, TTG_AGENT_WEIGHT_UNSET);
}

static void
test_terminal_scope (void)
{
  const char *defaults[] = { "vte-spawn-*.scope", "app-*-*.scope", NULL };
  const char *none[] = { NULL };

  g_assert_true (ttg_agent_is_terminal_scope ("vte-spawn-0b6f1c2e-9d7a-4f5e-8c11-2a3b4c5d6e7f.scope", defaults));
  g_assert_true (ttg_agent_is_terminal_scope ("app-org.kde.konsole-4321.scope", defaults));
  g_assert_true (ttg_agent_is_terminal_scope ("app-gnome-org.gnome.Terminal-1234.scope", defaults));
  /* not scopes, or other names */
  g_assert_false (ttg_agent_is_terminal_scope ("vte-spawn-x.service", defaults));
  g_assert_false (ttg_agent_is_terminal_scope ("app-org.kde.konsole@autostart.service", defaults));
  g_assert_false (ttg_agent_is_terminal_scope ("app.slice", defaults));
  g_assert_false (ttg_agent_is_terminal_scope ("dbus.scope", defaults));
  g_assert_false (ttg_agent_is_terminal_scope ("session-4.scope", defaults));
  g_assert_false (ttg_agent_is_terminal_scope (NULL, defaults));
  /* an empty list leaves every scope alone */
  g_assert_false (ttg_agent_is_terminal_scope ("vte-spawn-1.scope", none));
  g_assert_false (ttg_agent_is_terminal_scope ("vte-spawn-1.scope", NULL));
}

static void
test_user_manager_cgroup (void)
{
  g_autofree char *under_app = ttg_agent_user_manager_cgroup (
    "0::/user.slice/user-1001.slice/user@1001.service/app.slice/ttygroup-agent.service\n");
  g_autofree char *in_session = ttg_agent_user_manager_cgroup ("0::/user.slice/user-1001.slice/session-4.scope\n");
  g_autofree char *hybrid = ttg_agent_user_manager_cgroup (
    "12:cpu,cpuacct:/user.slice\n1:name=systemd:/user.slice/user-1001.slice/user@1001.service/app.slice\n"
    "0::/user.slice/user-1001.slice/user@1001.service/session.slice/x.service\n");
  g_autofree char *lookalike = ttg_agent_user_manager_cgroup ("0::/system.slice/user@x.service/a\n");
  g_autofree char *v1_only = ttg_agent_user_manager_cgroup ("1:name=systemd:/user.slice/user@1001.service\n");

  g_assert_cmpstr (under_app, ==, "/user.slice/user-1001.slice/user@1001.service");
  g_assert_null (in_session);
  g_assert_cmpstr (hybrid, ==, "/user.slice/user-1001.slice/user@1001.service");
  g_assert_null (lookalike);
  g_assert_null (v1_only);
  g_assert_null (ttg_agent_user_manager_cgroup (""));
  g_assert_null (ttg_agent_user_manager_cgroup (NULL));
}

static void
test_property_changed (void)
{
  g_autoptr(GVariant) with_value = g_variant_ref_sink (g_variant_new_parsed (
    "('org.ttygroup1.Manager', {'Policy': <{'Enabled': <false>}>, 'Enabled': <false>}, @as [])"));
  g_autoptr(GVariant) invalidated = g_variant_ref_sink (g_variant_new_parsed (
    "('org.freedesktop.login1.Seat', @a{sv} {}, ['ActiveSession'])"));
  g_autoptr(GVariant) wrong_type = g_variant_ref_sink (g_variant_new_parsed ("('x', 1)"));
  g_autoptr(GVariant) value = NULL;
  gboolean b = TRUE;

  g_assert_true (ttg_agent_property_changed (with_value, "org.ttygroup1.Manager", "Policy", &value));
  g_assert_nonnull (value);
  g_assert_true (g_variant_lookup (value, "Enabled", "b", &b));
  g_assert_false (b);
  g_clear_pointer (&value, g_variant_unref);

  /* another property, another interface */
  g_assert_false (ttg_agent_property_changed (with_value, "org.ttygroup1.Manager", "Status", &value));
  g_assert_null (value);
  g_assert_false (ttg_agent_property_changed (with_value, "org.freedesktop.login1.Seat", "Policy", &value));

  /* only invalidated: changed, without a value */
  g_assert_true (ttg_agent_property_changed (invalidated, "org.freedesktop.login1.Seat", "ActiveSession", &value));
  g_assert_null (value);

  g_assert_false (ttg_agent_property_changed (wrong_type, "x", "Policy", &value));
  g_assert_false (ttg_agent_property_changed (NULL, "x", "Policy", &value));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/agent/request", test_request);
  g_test_add_func ("/agent/system-from-policy", test_system_from_policy);
  g_test_add_func ("/agent/scope-weight", test_scope_weight);
  g_test_add_func ("/agent/terminal-scope", test_terminal_scope);
  g_test_add_func ("/agent/user-manager-cgroup", test_user_manager_cgroup);
  g_test_add_func ("/agent/property-changed", test_property_changed);
  return g_test_run ();
}
