/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "policy.h"

#include <string.h>

#define POLICY_GROUP "Policy"

/* Where each key of ttg_policy_keys() (common/) lives, same order. The
 * table of keys is shared with ttygroupctl and the agent, which have no
 * TtgPolicy; every generic operation here (defaults, equal, keyfile,
 * to_string) walks both tables, so a new key cannot be forgotten in one. */
static const gsize policy_offsets[] = {
  G_STRUCT_OFFSET (TtgPolicy, enabled),
  G_STRUCT_OFFSET (TtgPolicy, group_terminals),
  G_STRUCT_OFFSET (TtgPolicy, manage_greeter),
  G_STRUCT_OFFSET (TtgPolicy, active_session_weight),
  G_STRUCT_OFFSET (TtgPolicy, session_weight),
  G_STRUCT_OFFSET (TtgPolicy, remote_session_weight),
  G_STRUCT_OFFSET (TtgPolicy, terminal_weight),
};

G_STATIC_ASSERT (G_N_ELEMENTS (policy_offsets) == TTG_POLICY_N_KEYS);

static gboolean *
boolean_field (TtgPolicy *p, const TtgPolicyKeyInfo *info)
{
  g_assert (info->type == TTG_POLICY_TYPE_BOOLEAN);
  return G_STRUCT_MEMBER_P (p, policy_offsets[info - ttg_policy_keys ()]);
}

static guint64 *
weight_field (TtgPolicy *p, const TtgPolicyKeyInfo *info)
{
  g_assert (info->type == TTG_POLICY_TYPE_WEIGHT);
  return G_STRUCT_MEMBER_P (p, policy_offsets[info - ttg_policy_keys ()]);
}

gboolean
ttg_policy_get_boolean (const TtgPolicy *p, const TtgPolicyKeyInfo *info)
{
  return *boolean_field ((TtgPolicy *) p, info);
}

guint64
ttg_policy_get_weight (const TtgPolicy *p, const TtgPolicyKeyInfo *info)
{
  return *weight_field ((TtgPolicy *) p, info);
}

/* Keys and values can come from D-Bus callers and files: escape them so an
 * error message stays one readable line of ASCII. */
static char *
quote (const char *text)
{
  g_autofree char *escaped = g_strescape (text, NULL);

  return g_strdup_printf ("\"%s\"", escaped);
}

static const TtgPolicyKeyInfo *
lookup (const char *key, GError **error)
{
  const TtgPolicyKeyInfo *info = ttg_policy_key_lookup (key);

  if (info == NULL)
    {
      g_autofree char *quoted = quote (key);

      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                   "Unknown key %s", quoted);
    }

  return info;
}

static const TtgPolicyKeyInfo *
lookup_typed (const char *key, TtgPolicyType type, GError **error)
{
  const TtgPolicyKeyInfo *info = lookup (key, error);

  if (info == NULL)
    return NULL;

  if (info->type != type)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                   "Key \"%s\": expected %s, got %s",
                   info->key, ttg_policy_type_name (info->type), ttg_policy_type_name (type));
      return NULL;
    }

  return info;
}

void
ttg_policy_init_defaults (TtgPolicy *p)
{
  g_return_if_fail (p != NULL);

  *p = (TtgPolicy) { 0 };
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    {
      switch (info->type)
        {
        case TTG_POLICY_TYPE_BOOLEAN:
          *boolean_field (p, info) = info->default_value ? TRUE : FALSE;
          break;

        case TTG_POLICY_TYPE_WEIGHT:
          *weight_field (p, info) = info->default_value;
          break;
        }
    }
}

gboolean
ttg_policy_equal (const TtgPolicy *a, const TtgPolicy *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  /* Field by field: memcmp would compare padding, and a gboolean set by
   * hand to a non-1 true value must still compare equal to TRUE. */
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    {
      switch (info->type)
        {
        case TTG_POLICY_TYPE_BOOLEAN:
          if (!ttg_policy_get_boolean (a, info) != !ttg_policy_get_boolean (b, info))
            return FALSE;
          break;

        case TTG_POLICY_TYPE_WEIGHT:
          if (ttg_policy_get_weight (a, info) != ttg_policy_get_weight (b, info))
            return FALSE;
          break;
        }
    }

  return TRUE;
}

gboolean
ttg_policy_set_boolean (TtgPolicy  *p,
                        const char *key,
                        gboolean    value,
                        GError    **error)
{
  const TtgPolicyKeyInfo *info;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  info = lookup_typed (key, TTG_POLICY_TYPE_BOOLEAN, error);
  if (info == NULL)
    return FALSE;

  *boolean_field (p, info) = value ? TRUE : FALSE;
  return TRUE;
}

gboolean
ttg_policy_set_weight (TtgPolicy  *p,
                       const char *key,
                       guint64     value,
                       GError    **error)
{
  const TtgPolicyKeyInfo *info;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  info = lookup_typed (key, TTG_POLICY_TYPE_WEIGHT, error);
  if (info == NULL)
    return FALSE;

  if (!ttg_policy_check_weight (info, value, error))
    return FALSE;

  *weight_field (p, info) = value;
  return TRUE;
}

gboolean
ttg_policy_set_from_string (TtgPolicy  *p,
                            const char *key,
                            const char *value,
                            GError    **error)
{
  TtgPolicyValue v;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!ttg_policy_parse_value (key, value, &v, error))
    return FALSE;

  switch (v.info->type)
    {
    case TTG_POLICY_TYPE_BOOLEAN:
      *boolean_field (p, v.info) = v.boolean;
      return TRUE;

    case TTG_POLICY_TYPE_WEIGHT:
      *weight_field (p, v.info) = v.weight;
      return TRUE;
    }

  g_assert_not_reached ();
}

static gboolean
merge_group (TtgPolicy *p, GKeyFile *kf, GError **error)
{
  g_auto(GStrv) keys = NULL;

  keys = g_key_file_get_keys (kf, POLICY_GROUP, NULL, error);
  if (keys == NULL)
    return FALSE;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *value = NULL;

      value = g_key_file_get_value (kf, POLICY_GROUP, keys[i], error);
      if (value == NULL)
        return FALSE;

      /* GKeyFile keeps trailing blanks in a value, while its own
       * get_boolean() and get_integer() ignore them; do the same so
       * "SessionWeight=100 " in a file is not an error. Leading blanks are
       * already gone. */
      g_strchomp (value);

      if (!ttg_policy_set_from_string (p, keys[i], value, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
ttg_policy_merge_keyfile (TtgPolicy  *p,
                          GKeyFile   *kf,
                          const char *origin,
                          GError    **error)
{
  g_auto(GStrv) groups = NULL;
  g_autoptr(GError) local_error = NULL;
  TtgPolicy merged;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (kf != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* All or nothing: work on a copy and publish it only at the end. */
  merged = *p;

  groups = g_key_file_get_groups (kf, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      /* [Limits] is the configuration file's own (ttg_limits_merge_keyfile). */
      if (!g_str_equal (groups[i], POLICY_GROUP) && !g_str_equal (groups[i], "Limits"))
        {
          g_autofree char *quoted = quote (groups[i]);

          g_set_error (&local_error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                       "Unknown group %s (only [" POLICY_GROUP "] and [Limits] are known)",
                       quoted);
          break;
        }
    }

  if (local_error == NULL && g_key_file_has_group (kf, POLICY_GROUP))
    merge_group (&merged, kf, &local_error);

  if (local_error != NULL)
    {
      if (origin != NULL)
        g_prefix_error (&local_error, "%s: ", origin);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  *p = merged;
  return TRUE;
}

char *
ttg_policy_to_keyfile_data (const TtgPolicy *p)
{
  g_autoptr(GKeyFile) kf = NULL;

  g_return_val_if_fail (p != NULL, NULL);

  kf = g_key_file_new ();
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    {
      switch (info->type)
        {
        case TTG_POLICY_TYPE_BOOLEAN:
          g_key_file_set_boolean (kf, POLICY_GROUP, info->key,
                                  ttg_policy_get_boolean (p, info));
          break;

        case TTG_POLICY_TYPE_WEIGHT:
          g_key_file_set_uint64 (kf, POLICY_GROUP, info->key,
                                 ttg_policy_get_weight (p, info));
          break;
        }
    }

  return g_key_file_to_data (kf, NULL, NULL);
}

char *
ttg_policy_to_string (const TtgPolicy *p)
{
  g_autoptr(GString) str = NULL;

  g_return_val_if_fail (p != NULL, NULL);

  str = g_string_new (NULL);
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    {
      if (str->len > 0)
        g_string_append_c (str, ' ');

      switch (info->type)
        {
        case TTG_POLICY_TYPE_BOOLEAN:
          g_string_append_printf (str, "%s=%s", info->key,
                                  ttg_policy_get_boolean (p, info) ? "true" : "false");
          break;

        case TTG_POLICY_TYPE_WEIGHT:
          g_string_append_printf (str, "%s=%" G_GUINT64_FORMAT, info->key,
                                  ttg_policy_get_weight (p, info));
          break;
        }
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}
