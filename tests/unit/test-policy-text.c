/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A policy value written as text means the same everywhere: the
 * configuration file (ttygroupd --check-config), ttygroupctl set-policy and
 * the common parser they both call must accept and reject the same texts,
 * with the same values. Only the range of a weight is the file's alone:
 * ttygroupctl leaves it to the service, which names its error. */
#include "config.h"
#include "ctl-parse.h"

#include <glib/gstdio.h>

typedef struct {
  const char *text;
  gboolean ok;
  guint64 value; /* TRUE/FALSE for boolean keys */
} Case;

/* systemd's parse_boolean(): these spellings, in any case, nothing else. */
static const Case boolean_cases[] = {
  { "1", TRUE, TRUE }, { "yes", TRUE, TRUE }, { "y", TRUE, TRUE },
  { "true", TRUE, TRUE }, { "t", TRUE, TRUE }, { "on", TRUE, TRUE },
  { "TRUE", TRUE, TRUE }, { "True", TRUE, TRUE }, { "YeS", TRUE, TRUE }, { "ON", TRUE, TRUE },
  { "Y", TRUE, TRUE }, { "T", TRUE, TRUE },
  { "0", TRUE, FALSE }, { "no", TRUE, FALSE }, { "n", TRUE, FALSE },
  { "false", TRUE, FALSE }, { "f", TRUE, FALSE }, { "off", TRUE, FALSE },
  { "FALSE", TRUE, FALSE }, { "No", TRUE, FALSE }, { "oFF", TRUE, FALSE }, { "N", TRUE, FALSE },
  { "F", TRUE, FALSE },
  { "", FALSE }, { "2", FALSE }, { "01", FALSE }, { "-1", FALSE }, { "+1", FALSE },
  { "truex", FALSE }, { "ye", FALSE }, { "of", FALSE }, { "enabled", FALSE },
  { "yes please", FALSE }, { "0x1", FALSE }, { "on;", FALSE },
};

static const Case weight_cases[] = {
  { "1", TRUE, 1 }, { "100", TRUE, 100 }, { "10000", TRUE, 10000 }, { "0100", TRUE, 100 },
  { "", FALSE }, { "-5", FALSE }, { "+5", FALSE },
  { "1e3", FALSE }, { "0x10", FALSE }, { "100%", FALSE }, { "1 00", FALSE },
  { "99999999999999999999999", FALSE }, { "true", FALSE },
};

/* Decimal, but out of range: the file refuses them, ttygroupctl sends them
 * and leaves the refusal (with the service's named error) to the service. */
static const Case out_of_range_cases[] = {
  { "0", FALSE, 0 }, { "10001", FALSE, 10001 }, { "18446744073709551615", FALSE, G_MAXUINT64 },
};

/* What the configuration loader makes of "[Policy]\nKEY=TEXT": FALSE when
 * it rejects the file, else the value it took. */
static gboolean
config_parse (const char *key, const char *text, TtgPolicy *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("ttg-text-XXXXXX", &error);
  g_autofree char *file = NULL;
  g_autofree char *dropins = NULL;
  g_autofree char *contents = NULL;
  gboolean ok;

  g_assert_no_error (error);
  file = g_build_filename (root, "ttygroup.conf", NULL);
  dropins = g_build_filename (root, "ttygroup.conf.d", NULL);
  contents = g_strdup_printf ("[Policy]\n%s=%s\n", key, text);
  g_assert_true (g_file_set_contents (file, contents, -1, &error));
  g_assert_no_error (error);

  ok = ttg_config_load (file, dropins, out, NULL, &error);
  g_assert_true (ok == (error == NULL));
  if (!ok)
    g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);

  g_assert_no_errno (g_unlink (file));
  g_assert_no_errno (g_rmdir (root));
  return ok;
}

/* What ttygroupctl set-policy makes of KEY=TEXT. */
static gboolean
ctl_parse (const char *key, const char *text, TtgPolicyValue *out)
{
  g_autofree char *arg = g_strdup_printf ("%s=%s", key, text);
  g_autofree char *parsed_key = NULL;
  CtlAssignResult r = ctl_parse_assignment (arg, &parsed_key, out);

  g_assert_cmpstr (parsed_key, ==, key);
  g_assert_true (r == CTL_ASSIGN_OK || r == CTL_ASSIGN_BAD_VALUE);
  return r == CTL_ASSIGN_OK;
}

static gboolean
common_parse (const char *key, const char *text, TtgPolicyValue *out)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = ttg_policy_parse_value (key, text, out, &error);

  g_assert_true (ok == (error == NULL));
  if (!ok)
    {
      g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
      g_assert_nonnull (strstr (error->message, key));
    }
  return ok;
}

/* The value of key in ttg_policy_to_string()'s "KEY=VALUE KEY=VALUE..." */
static char *
policy_value (const TtgPolicy *p, const char *key)
{
  g_autofree char *text = ttg_policy_to_string (p);
  g_auto(GStrv) pairs = g_strsplit (text, " ", -1);
  g_autofree char *prefix = g_strdup_printf ("%s=", key);

  for (guint i = 0; pairs[i]; i++)
    if (g_str_has_prefix (pairs[i], prefix))
      return g_strdup (pairs[i] + strlen (prefix));
  g_assert_not_reached ();
}

/* The value of info's key in p, as a TtgPolicyValue holds it. */
static guint64
policy_number (const TtgPolicy *p, const TtgPolicyKeyInfo *info)
{
  g_autofree char *value = policy_value (p, info->key);

  if (info->type == TTG_POLICY_TYPE_BOOLEAN)
    return g_str_equal (value, "true");
  return g_ascii_strtoull (value, NULL, 10);
}

static guint64
value_number (const TtgPolicyValue *v)
{
  return v->info->type == TTG_POLICY_TYPE_BOOLEAN ? (guint64) v->boolean : v->weight;
}

/* Every key of the type, every case: the three readers agree with the
 * table and with each other. */
static void
check_cases (TtgPolicyType type, const Case *cases, guint n_cases, guint n_keys)
{
  guint tested_keys = 0;

  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key; info++)
    {
      if (info->type != type)
        continue;
      tested_keys++;
      for (guint i = 0; i < n_cases; i++)
        {
          const Case *c = &cases[i];
          TtgPolicyValue common, ctl;
          TtgPolicy file;

          g_test_message ("%s=%s", info->key, c->text);
          g_assert_cmpint (common_parse (info->key, c->text, &common), ==, c->ok);
          g_assert_cmpint (ctl_parse (info->key, c->text, &ctl), ==, c->ok);
          g_assert_cmpint (config_parse (info->key, c->text, &file), ==, c->ok);
          if (!c->ok)
            continue;
          g_assert_true (common.info == info && ctl.info == info);
          g_assert_cmpuint (value_number (&common), ==, c->value);
          g_assert_cmpuint (value_number (&ctl), ==, c->value);
          g_assert_cmpuint (policy_number (&file, info), ==, c->value);
        }
    }
  g_assert_cmpuint (tested_keys, ==, n_keys);
}

static void
test_booleans (void)
{
  check_cases (TTG_POLICY_TYPE_BOOLEAN, boolean_cases, G_N_ELEMENTS (boolean_cases), 3);
}

static void
test_weights (void)
{
  check_cases (TTG_POLICY_TYPE_WEIGHT, weight_cases, G_N_ELEMENTS (weight_cases), 4);
}

static void
test_weights_out_of_range (void)
{
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key; info++)
    {
      if (info->type != TTG_POLICY_TYPE_WEIGHT)
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (out_of_range_cases); i++)
        {
          const Case *c = &out_of_range_cases[i];
          g_autoptr(GError) error = NULL;
          TtgPolicyValue text, ctl;
          TtgPolicy file;

          g_test_message ("%s=%s", info->key, c->text);
          g_assert_false (common_parse (info->key, c->text, &text));
          g_assert_false (config_parse (info->key, c->text, &file));
          g_assert_true (ttg_policy_parse_text (info->key, c->text, &text, &error));
          g_assert_no_error (error);
          g_assert_true (ctl_parse (info->key, c->text, &ctl));
          g_assert_cmpuint (text.weight, ==, c->value);
          g_assert_cmpuint (ctl.weight, ==, c->value);
        }
    }
}

/* Keys are case-sensitive in both (D-Bus and GKeyFile keys are). */
static void
test_keys (void)
{
  static const char *const wrong[] = { "enabled", "ENABLED", "Enable", "Foo", "Enabled " };
  TtgPolicyValue v;

  for (guint i = 0; i < G_N_ELEMENTS (wrong); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *arg = g_strdup_printf ("%s=true", wrong[i]);
      g_autofree char *key = NULL;

      g_assert_false (ttg_policy_parse_value (wrong[i], "true", &v, &error));
      g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
      g_assert_cmpint (ctl_parse_assignment (arg, &key, &v), ==, CTL_ASSIGN_UNKNOWN_KEY);
      g_assert_cmpstr (key, ==, wrong[i]);
    }

  for (guint i = 0; i < 3; i++)
    {
      static const char *const syntax[] = { "Enabled", "=true", "" };
      g_autofree char *key = NULL;

      g_assert_cmpint (ctl_parse_assignment (syntax[i], &key, &v), ==, CTL_ASSIGN_SYNTAX);
      g_assert_null (key);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/policy-text/booleans", test_booleans);
  g_test_add_func ("/policy-text/weights", test_weights);
  g_test_add_func ("/policy-text/weights-out-of-range", test_weights_out_of_range);
  g_test_add_func ("/policy-text/keys", test_keys);

  return g_test_run ();
}
