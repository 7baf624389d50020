/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "userpolicy.h"

static const char *const user_keys[] = { TTG_KEY_ENABLED, TTG_KEY_GROUP_TERMINALS, TTG_KEY_TERMINAL_WEIGHT, NULL };

gboolean
ttg_user_policy_key_allowed (const char *key)
{
  return key && g_strv_contains (user_keys, key);
}

static gboolean
check_key (const char *key, TtgPolicyType want, GError **error)
{
  const TtgPolicyKeyInfo *info = ttg_policy_key_lookup (key);

  if (!info)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Unknown key \"%s\"", key);
      return FALSE;
    }
  if (!ttg_user_policy_key_allowed (key))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                   "Key \"%s\" is part of the system policy only (SetPolicy); users may set "
                   "Enabled, GroupTerminals and TerminalWeight", key);
      return FALSE;
    }
  if (info->type != want)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Key \"%s\": expected %s", key,
                   info->type == TTG_POLICY_TYPE_BOOLEAN ? "a boolean (b)" : "a weight (t)");
      return FALSE;
    }
  return TRUE;
}

gboolean
ttg_user_policy_set_boolean (TtgUserPolicy *u, const char *key, gboolean value, GError **error)
{
  if (!check_key (key, TTG_POLICY_TYPE_BOOLEAN, error))
    return FALSE;
  if (g_str_equal (key, TTG_KEY_ENABLED))
    {
      u->has_enabled = TRUE;
      u->enabled = !!value;
    }
  else
    {
      u->has_group_terminals = TRUE;
      u->group_terminals = !!value;
    }
  return TRUE;
}

gboolean
ttg_user_policy_set_weight (TtgUserPolicy *u, const TtgPolicy *system, const char *key,
                            guint64 value, GError **error)
{
  if (!check_key (key, TTG_POLICY_TYPE_WEIGHT, error))
    return FALSE;
  if (value < TTG_WEIGHT_MIN || value > system->terminal_weight)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                   "Key \"%s\": %" G_GUINT64_FORMAT " is outside what the system allows (%d..%" G_GUINT64_FORMAT
                   ", the system's TerminalWeight)", key, value, TTG_WEIGHT_MIN, system->terminal_weight);
      return FALSE;
    }
  u->has_terminal_weight = TRUE;
  u->terminal_weight = value;
  return TRUE;
}

void
ttg_user_policy_apply (const TtgUserPolicy *u, const TtgPolicy *system, TtgPolicy *out)
{
  *out = *system;
  if (!u)
    return;
  if (u->has_enabled)
    out->enabled = system->enabled && u->enabled;
  if (u->has_group_terminals)
    out->group_terminals = system->group_terminals && u->group_terminals;
  if (u->has_terminal_weight)
    out->terminal_weight = MIN (u->terminal_weight, system->terminal_weight);
}
