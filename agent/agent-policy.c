/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "agent-policy.h"

#include <string.h>

GVariant *
ttg_agent_prefs_to_request (const TtgAgentPrefs *prefs, gboolean with_weight)
{
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", TTG_KEY_ENABLED, g_variant_new_boolean (prefs->enabled));
  g_variant_builder_add (&b, "{sv}", TTG_KEY_GROUP_TERMINALS, g_variant_new_boolean (prefs->group_terminals));
  if (with_weight)
    g_variant_builder_add (&b, "{sv}", TTG_KEY_TERMINAL_WEIGHT, g_variant_new_uint64 (prefs->terminal_weight));
  return g_variant_builder_end (&b);
}

void
ttg_agent_system_from_policy (GVariant *policy, TtgAgentSystem *out)
{
  /* the service's defaults (common/), for keys a Policy does not carry */
  out->enabled = ttg_policy_key_lookup (TTG_KEY_ENABLED)->default_value != 0;
  out->group_terminals = ttg_policy_key_lookup (TTG_KEY_GROUP_TERMINALS)->default_value != 0;
  out->terminal_weight = ttg_policy_key_lookup (TTG_KEY_TERMINAL_WEIGHT)->default_value;
  if (!policy || !g_variant_is_of_type (policy, G_VARIANT_TYPE_VARDICT))
    return;
  (void) g_variant_lookup (policy, TTG_KEY_ENABLED, "b", &out->enabled);
  (void) g_variant_lookup (policy, TTG_KEY_GROUP_TERMINALS, "b", &out->group_terminals);
  (void) g_variant_lookup (policy, TTG_KEY_TERMINAL_WEIGHT, "t", &out->terminal_weight);
}

guint64
ttg_agent_scope_weight (const TtgAgentSystem *system, const TtgAgentPrefs *prefs, guint64 accepted_weight)
{
  guint64 w;

  if (!system->enabled || !system->group_terminals || !prefs->enabled || !prefs->group_terminals)
    return TTG_AGENT_WEIGHT_UNSET;
  w = accepted_weight ? accepted_weight : system->terminal_weight;
  return MIN (w, system->terminal_weight);
}

gboolean
ttg_agent_is_terminal_scope (const char *unit, const char *const *patterns)
{
  if (!unit || !g_str_has_suffix (unit, ".scope") || !patterns)
    return FALSE;
  for (; *patterns; patterns++)
    if (g_pattern_match_simple (*patterns, unit))
      return TRUE;
  return FALSE;
}

static gboolean
is_user_manager_unit (const char *name)
{
  const char *p;

  if (!g_str_has_prefix (name, "user@") || !g_str_has_suffix (name, ".service"))
    return FALSE;
  p = name + strlen ("user@");
  if (*p == '.')
    return FALSE;
  for (; *p != '.'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

char *
ttg_agent_user_manager_cgroup (const char *proc_self_cgroup)
{
  g_auto(GStrv) lines = g_strsplit (proc_self_cgroup ? proc_self_cgroup : "", "\n", -1);

  for (char **l = lines; *l; l++)
    {
      g_auto(GStrv) parts = NULL;

      if (!g_str_has_prefix (*l, "0::/"))
        continue;
      parts = g_strsplit (*l + 3, "/", -1);
      for (guint i = 0; parts[i]; i++)
        if (is_user_manager_unit (parts[i]))
          {
            GString *path = g_string_new (NULL);

            for (guint j = 1; j <= i; j++)
              g_string_append_printf (path, "/%s", parts[j]);
            return g_string_free (path, FALSE);
          }
    }
  return NULL;
}

char *
ttg_agent_request_to_string (GVariant *request)
{
  GString *s = g_string_new (NULL);
  GVariantIter it;
  const char *key;
  GVariant *value;

  g_variant_iter_init (&it, request);
  while (g_variant_iter_loop (&it, "{&sv}", &key, &value))
    {
      g_autofree char *text = NULL;

      if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
        text = g_strdup (g_variant_get_boolean (value) ? "true" : "false");
      else
        text = g_variant_print (value, FALSE);
      g_string_append_printf (s, "%s%s=%s", s->len ? " " : "", key, text);
    }
  return g_string_free (s, FALSE);
}

gboolean
ttg_agent_property_changed (GVariant *params, const char *iface, const char *property, GVariant **value)
{
  const char *changed_iface;
  g_autoptr(GVariant) changed = NULL;
  g_autofree const char **invalidated = NULL;

  *value = NULL;
  if (!params || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(sa{sv}as)")))
    return FALSE;
  g_variant_get (params, "(&s@a{sv}^a&s)", &changed_iface, &changed, &invalidated);
  if (!g_str_equal (changed_iface, iface))
    return FALSE;
  *value = g_variant_lookup_value (changed, property, NULL);
  return *value || g_strv_contains (invalidated, property);
}
