/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ttg-policy-keys.h"

#include <string.h>

G_DEFINE_QUARK (ttg-error-quark, ttg_error)

static const TtgPolicyKeyInfo policy_keys[] = {
  { TTG_KEY_ENABLED, TTG_POLICY_TYPE_BOOLEAN,
    "Give sessions and terminals CPU groups at all", TRUE },
  { TTG_KEY_GROUP_TERMINALS, TTG_POLICY_TYPE_BOOLEAN,
    "Give each terminal (pty) of the display session a group of its own", TRUE },
  { TTG_KEY_MANAGE_GREETER, TTG_POLICY_TYPE_BOOLEAN,
    "Also weigh greeter and lock-screen sessions", FALSE },
  { TTG_KEY_ACTIVE_SESSION_WEIGHT, TTG_POLICY_TYPE_WEIGHT,
    "CPU weight of the active session of a seat", 200 },
  { TTG_KEY_SESSION_WEIGHT, TTG_POLICY_TYPE_WEIGHT,
    "CPU weight of other local sessions", 100 },
  { TTG_KEY_REMOTE_SESSION_WEIGHT, TTG_POLICY_TYPE_WEIGHT,
    "CPU weight of remote (ssh, ...) sessions", 100 },
  { TTG_KEY_TERMINAL_WEIGHT, TTG_POLICY_TYPE_WEIGHT,
    "CPU weight of each terminal group", 100 },
  { NULL, 0, NULL, 0 },
};

G_STATIC_ASSERT (G_N_ELEMENTS (policy_keys) == TTG_POLICY_N_KEYS + 1);

const TtgPolicyKeyInfo *
ttg_policy_keys (void)
{
  return policy_keys;
}

const TtgPolicyKeyInfo *
ttg_policy_key_lookup (const char *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  for (const TtgPolicyKeyInfo *info = policy_keys; info->key != NULL; info++)
    if (g_str_equal (info->key, key))
      return info;

  return NULL;
}

const char *
ttg_policy_type_name (TtgPolicyType type)
{
  switch (type)
    {
    case TTG_POLICY_TYPE_BOOLEAN:
      return "a boolean (b)";

    case TTG_POLICY_TYPE_WEIGHT:
      return "a weight (t)";
    }

  g_assert_not_reached ();
}

char
ttg_policy_type_signature (TtgPolicyType type)
{
  switch (type)
    {
    case TTG_POLICY_TYPE_BOOLEAN:
      return 'b';

    case TTG_POLICY_TYPE_WEIGHT:
      return 't';
    }

  g_assert_not_reached ();
}

gboolean
ttg_parse_boolean (const char *text, gboolean *out)
{
  static const char *const truths[] = { "1", "yes", "y", "true", "t", "on" };
  static const char *const lies[] = { "0", "no", "n", "false", "f", "off" };

  g_return_val_if_fail (text != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (truths); i++)
    {
      if (g_ascii_strcasecmp (text, truths[i]) == 0)
        {
          *out = TRUE;
          return TRUE;
        }
      if (g_ascii_strcasecmp (text, lies[i]) == 0)
        {
          *out = FALSE;
          return TRUE;
        }
    }
  return FALSE;
}

/* Not g_ascii_string_to_unsigned(): it accepts a leading '+' and, through
 * strtoull, leading whitespace. */
gboolean
ttg_parse_decimal (const char *text, guint64 *out, gboolean *overflow)
{
  guint64 value = 0;
  const char *c;

  g_return_val_if_fail (text != NULL, FALSE);

  *overflow = FALSE;
  for (c = text; g_ascii_isdigit (*c); c++)
    {
      guint digit = *c - '0';

      if (value > (G_MAXUINT64 - digit) / 10)
        *overflow = TRUE;
      else
        value = value * 10 + digit;
    }

  if (c == text || *c != '\0')
    {
      *overflow = FALSE;
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* Keys and values can come from D-Bus callers, files and command lines:
 * escape them so an error message stays one readable line of ASCII. */
static char *
quote (const char *text)
{
  g_autofree char *escaped = g_strescape (text, NULL);

  return g_strdup_printf ("\"%s\"", escaped);
}

gboolean
ttg_policy_check_weight (const TtgPolicyKeyInfo *info, guint64 value, GError **error)
{
  if (value >= TTG_WEIGHT_MIN && value <= TTG_WEIGHT_MAX)
    return TRUE;

  g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
               "Key \"%s\": %" G_GUINT64_FORMAT " is out of range (%d..%d)",
               info->key, value, TTG_WEIGHT_MIN, TTG_WEIGHT_MAX);
  return FALSE;
}

gboolean
ttg_policy_parse_value (const char     *key,
                        const char     *text,
                        TtgPolicyValue *out,
                        GError        **error)
{
  TtgPolicyValue v;

  if (!ttg_policy_parse_text (key, text, &v, error))
    return FALSE;
  if (v.info->type == TTG_POLICY_TYPE_WEIGHT && !ttg_policy_check_weight (v.info, v.weight, error))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
ttg_policy_parse_text (const char     *key,
                       const char     *text,
                       TtgPolicyValue *out,
                       GError        **error)
{
  const TtgPolicyKeyInfo *info;

  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  info = ttg_policy_key_lookup (key);
  if (info == NULL)
    {
      g_autofree char *quoted = quote (key);

      g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY, "Unknown key %s", quoted);
      return FALSE;
    }

  switch (info->type)
    {
    case TTG_POLICY_TYPE_BOOLEAN:
      {
        gboolean b;

        if (!ttg_parse_boolean (text, &b))
          {
            g_autofree char *quoted = quote (text);

            g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                         "Key \"%s\": expected %s, got %s",
                         info->key, ttg_policy_type_name (info->type), quoted);
            return FALSE;
          }
        *out = (TtgPolicyValue) { .info = info, .boolean = b };
        return TRUE;
      }

    case TTG_POLICY_TYPE_WEIGHT:
      {
        gboolean overflow;
        guint64 w;

        if (!ttg_parse_decimal (text, &w, &overflow))
          {
            g_autofree char *quoted = quote (text);

            g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                         "Key \"%s\": expected %s, got %s (not a decimal number)",
                         info->key, ttg_policy_type_name (info->type), quoted);
            return FALSE;
          }
        if (overflow)
          {
            /* Only digits, so it can go into the message as is. */
            g_set_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY,
                         "Key \"%s\": %s is out of range (%d..%d)",
                         info->key, text, TTG_WEIGHT_MIN, TTG_WEIGHT_MAX);
            return FALSE;
          }
        *out = (TtgPolicyValue) { .info = info, .weight = w };
        return TRUE;
      }
    }

  g_assert_not_reached ();
}
