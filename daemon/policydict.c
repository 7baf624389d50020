/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "policydict.h"

#include <string.h>

/* Keys longer than this are never valid; do not echo megabytes back. */
#define KEY_ECHO_MAX 64

static char *
printable (const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  if (g_utf8_strlen (valid, -1) > KEY_ECHO_MAX)
    {
      g_autofree char *cut = g_utf8_substring (valid, 0, KEY_ECHO_MAX);
      return g_strdup_printf ("%s...", cut);
    }
  return g_steal_pointer (&valid);
}

typedef gboolean (*ApplyFunc) (const TtgPolicyEntry *e, TtgPolicyType type, gpointer target, GError **error);

/* The checks both dictionaries share, entry by entry, in order: the first
 * problem is the one reported. */
static gboolean
walk (const TtgPolicyEntry *entries, gsize n, ApplyFunc apply, gpointer target, GPtrArray *keys,
      GError **error)
{
  if (n == 0)
    {
      g_set_error_literal (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                           "No keys given: the dictionary is empty");
      return FALSE;
    }

  for (gsize i = 0; i < n; i++)
    {
      const TtgPolicyEntry *e = &entries[i];
      const TtgPolicyKeyInfo *info = e->key ? ttg_policy_key_lookup (e->key) : NULL;
      char want;

      if (!info)
        {
          g_autofree char *shown = printable (e->key ? e->key : "");
          g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Unknown key \"%s\"", shown);
          return FALSE;
        }
      for (gsize j = 0; j < i; j++)
        if (g_str_equal (entries[j].key, e->key))
          {
            g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Key \"%s\" given twice", e->key);
            return FALSE;
          }
      want = ttg_policy_type_signature (info->type);
      if (!e->signature || e->signature[0] != want || e->signature[1] != '\0')
        {
          g_autofree char *shown = printable (e->signature ? e->signature : "");
          g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Key \"%s\": expected %s, got \"%s\"",
                       e->key, ttg_policy_type_name (info->type), shown);
          return FALSE;
        }
      if (!apply (e, info->type, target, error))
        return FALSE;
    }

  if (keys)
    for (gsize i = 0; i < n; i++)
      g_ptr_array_add (keys, g_strdup (entries[i].key));
  return TRUE;
}

static gboolean
apply_system (const TtgPolicyEntry *e, TtgPolicyType type, gpointer target, GError **error)
{
  return type == TTG_POLICY_TYPE_BOOLEAN ? ttg_policy_set_boolean (target, e->key, e->b, error)
                                         : ttg_policy_set_weight (target, e->key, e->t, error);
}

gboolean
ttg_policy_dict_apply (TtgPolicy *p, const TtgPolicyEntry *entries, gsize n_entries, GPtrArray *keys,
                       GError **error)
{
  TtgPolicy work;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (entries != NULL || n_entries == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  work = *p;
  if (!walk (entries, n_entries, apply_system, &work, keys, error))
    return FALSE;
  *p = work;
  return TRUE;
}

typedef struct {
  TtgUserPolicy *asked;
  const TtgPolicy *system;
} UserTarget;

static gboolean
apply_user (const TtgPolicyEntry *e, TtgPolicyType type, gpointer target, GError **error)
{
  UserTarget *u = target;

  return type == TTG_POLICY_TYPE_BOOLEAN ? ttg_user_policy_set_boolean (u->asked, e->key, e->b, error)
                                         : ttg_user_policy_set_weight (u->asked, u->system, e->key, e->t, error);
}

gboolean
ttg_user_policy_dict_apply (TtgUserPolicy *u, const TtgPolicy *system, const TtgPolicyEntry *entries,
                            gsize n_entries, GError **error)
{
  TtgUserPolicy work;
  UserTarget target = { &work, system };

  g_return_val_if_fail (u != NULL, FALSE);
  g_return_val_if_fail (system != NULL, FALSE);
  g_return_val_if_fail (entries != NULL || n_entries == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  work = *u;
  if (!walk (entries, n_entries, apply_user, &target, NULL, error))
    return FALSE;
  *u = work;
  return TRUE;
}
