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
  if (!ttg_policy_parse_text (info->key, eq + 1, ret, &error))
    {
      *ret = (TtgPolicyValue) { .info = info };
      return CTL_ASSIGN_BAD_VALUE;
    }
  return CTL_ASSIGN_OK;
}

gboolean
ctl_parse_json_mode (const char *text, JsonMode *out)
{
  static const struct {
    const char *name;
    JsonMode mode;
  } modes[] = {
    { "short", JSON_SHORT },
    { "pretty", JSON_PRETTY },
    { "off", JSON_OFF },
  };

  if (text == NULL)
    {
      *out = JSON_SHORT;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (text, modes[i].name))
      {
        *out = modes[i].mode;
        return TRUE;
      }
  return FALSE;
}

void
ctl_expand_bare_json (int argc, char **argv)
{
  static char short_json[] = "--json=short";

  for (int i = 1; i < argc && !g_str_equal (argv[i], "--"); i++)
    if (g_str_equal (argv[i], "--json"))
      argv[i] = short_json;
}

const char *
ctl_find_flag_with_value (int argc, char **argv, const char *const *flags)
{
  for (int i = 1; i < argc; i++)
    {
      const char *eq;

      if (g_str_equal (argv[i], "--"))
        return NULL;
      if (!g_str_has_prefix (argv[i], "--") || !(eq = strchr (argv[i], '=')))
        continue;
      for (guint f = 0; flags[f]; f++)
        if (strlen (flags[f]) == (gsize) (eq - argv[i] - 2) && strncmp (argv[i] + 2, flags[f], eq - argv[i] - 2) == 0)
          return argv[i];
    }
  return NULL;
}

static void
newline (GString *out, int depth)
{
  g_string_append_c (out, '\n');
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

char *
ctl_json_pretty (const char *compact)
{
  GString *out = g_string_new (NULL);
  gboolean in_string = FALSE;
  int depth = 0;

  for (const char *p = compact; *p; p++)
    {
      if (in_string)
        {
          g_string_append_c (out, *p);
          if (*p == '\\' && p[1])
            g_string_append_c (out, *++p);
          else if (*p == '"')
            in_string = FALSE;
          continue;
        }
      switch (*p)
        {
        case '"':
          in_string = TRUE;
          g_string_append_c (out, *p);
          break;

        case '{':
        case '[':
          g_string_append_c (out, *p);
          /* an empty object or array stays on its line */
          if (p[1] == (*p == '{' ? '}' : ']'))
            g_string_append_c (out, *++p);
          else
            newline (out, ++depth);
          break;

        case '}':
        case ']':
          newline (out, --depth);
          g_string_append_c (out, *p);
          break;

        case ',':
          g_string_append_c (out, ',');
          newline (out, depth);
          break;

        case ':':
          g_string_append (out, ": ");
          break;

        default:
          g_string_append_c (out, *p);
        }
    }
  return g_string_free (out, FALSE);
}
