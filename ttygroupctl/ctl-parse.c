/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ctl-parse.h"

#include <string.h>

CtlAssignResult
ctl_parse_assignment (const char *arg, char **ret_key, TtgPolicyValue *ret)
{
  const char *eq = strchr (arg, '=');
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  const TtgPolicyKeyInfo *info;

  *ret = (TtgPolicyValue) { 0 };
  if (!eq || eq == arg)
    return CTL_ASSIGN_SYNTAX;
  key = g_strndup (arg, eq - arg);
  info = ttg_policy_key_lookup (key);
  *ret_key = g_steal_pointer (&key);
  if (!info)
    return CTL_ASSIGN_UNKNOWN_KEY;
  if (!ttg_policy_parse_value (info->key, eq + 1, ret, &error))
    {
      *ret = (TtgPolicyValue) { .info = info };
      return CTL_ASSIGN_BAD_VALUE;
    }
  return CTL_ASSIGN_OK;
}
