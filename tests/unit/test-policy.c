/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "policy.h"

#include <string.h>

/* A policy to change, and a copy of it to prove a failed change left it
 * alone. */
typedef struct {
  TtgPolicy policy;
  TtgPolicy before;
} Fixture;

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  ttg_policy_init_defaults (&fx->policy);
  fx->before = fx->policy;
}

static void
assert_unchanged (Fixture *fx)
{
  g_assert_true (ttg_policy_equal (&fx->policy, &fx->before));
}

static void
assert_invalid_policy (const GError *error, const char *expected_message)
{
  g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
  g_assert_cmpstr (error->message, ==, expected_message);
}

static const char *const boolean_keys[] = {
  "Enabled", "GroupTerminals", "ManageGreeter", NULL,
};

static const char *const weight_keys[] = {
  "ActiveSessionWeight", "SessionWeight", "RemoteSessionWeight", "TerminalWeight", NULL,
};

/* Reads a key back through the only public view of every key. */
static char *
policy_value (const TtgPolicy *p, const char *key)
{
  g_autofree char *text = ttg_policy_to_string (p);
  g_auto(GStrv) pairs = g_strsplit (text, " ", -1);
  g_autofree char *prefix = g_strconcat (key, "=", NULL);

  for (guint i = 0; pairs[i] != NULL; i++)
    if (g_str_has_prefix (pairs[i], prefix))
      return g_strdup (pairs[i] + strlen (prefix));

  g_assert_not_reached ();
}

static void
test_keys (void)
{
  const TtgPolicyKeyInfo *keys = ttg_policy_keys ();
  guint n = 0;

  for (const TtgPolicyKeyInfo *info = keys; info->key != NULL; info++, n++)
    {
      g_assert_true (ttg_policy_key_lookup (info->key) == info);
      g_assert_nonnull (info->summary);
      g_assert_cmpstr (info->summary, !=, "");
      if (info->type == TTG_POLICY_TYPE_BOOLEAN)
        g_assert_true (g_strv_contains (boolean_keys, info->key));
      else
        g_assert_true (g_strv_contains (weight_keys, info->key));
    }
  g_assert_cmpuint (n, ==, g_strv_length ((char **) boolean_keys) +
                    g_strv_length ((char **) weight_keys));

  /* Names are exact: a config file with "enabled" must not half-work. */
  g_assert_null (ttg_policy_key_lookup ("enabled"));
  g_assert_null (ttg_policy_key_lookup ("Enabled "));
  g_assert_null (ttg_policy_key_lookup (""));
  g_assert_null (ttg_policy_key_lookup ("Foo"));
}

static void
test_defaults (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy p;

  /* Garbage first, so defaults must set every field. */
  memset (&p, 0xaa, sizeof p);
  ttg_policy_init_defaults (&p);

  g_assert_true (p.enabled);
  g_assert_true (p.group_terminals);
  g_assert_false (p.manage_greeter);
  g_assert_cmpuint (p.active_session_weight, ==, 200);
  g_assert_cmpuint (p.session_weight, ==, 100);
  g_assert_cmpuint (p.remote_session_weight, ==, 100);
  g_assert_cmpuint (p.terminal_weight, ==, 100);
  g_assert_true (ttg_policy_equal (&p, &fx->policy));
}

static void
test_equal (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy other = fx->policy;

  g_assert_true (ttg_policy_equal (&fx->policy, &other));

  /* Any true value is true. */
  other.enabled = 42;
  g_assert_true (ttg_policy_equal (&fx->policy, &other));

  other.manage_greeter = TRUE;
  g_assert_false (ttg_policy_equal (&fx->policy, &other));

  other = fx->policy;
  other.terminal_weight = 101;
  g_assert_false (ttg_policy_equal (&fx->policy, &other));

  other = fx->policy;
  other.remote_session_weight = 99;
  g_assert_false (ttg_policy_equal (&fx->policy, &other));
}

static void
test_to_string (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *text = ttg_policy_to_string (&fx->policy);

  g_assert_cmpstr (text, ==,
                   "Enabled=true GroupTerminals=true ManageGreeter=false "
                   "ActiveSessionWeight=200 SessionWeight=100 "
                   "RemoteSessionWeight=100 TerminalWeight=100");
}

static void
test_set_boolean (Fixture *fx, gconstpointer user_data)
{
  for (guint i = 0; boolean_keys[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *off = NULL;
      g_autofree char *on = NULL;

      g_assert_true (ttg_policy_set_boolean (&fx->policy, boolean_keys[i], FALSE, &error));
      g_assert_no_error (error);
      off = policy_value (&fx->policy, boolean_keys[i]);
      g_assert_cmpstr (off, ==, "false");

      g_assert_true (ttg_policy_set_boolean (&fx->policy, boolean_keys[i], TRUE, &error));
      g_assert_no_error (error);
      on = policy_value (&fx->policy, boolean_keys[i]);
      g_assert_cmpstr (on, ==, "true");
    }

  g_assert_true (ttg_policy_set_boolean (&fx->policy, "ManageGreeter", 7, NULL));
  g_assert_true (fx->policy.manage_greeter == TRUE);
}

static void
test_set_boolean_errors (Fixture *fx, gconstpointer user_data)
{
  for (guint i = 0; weight_keys[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = NULL;

      g_assert_false (ttg_policy_set_boolean (&fx->policy, weight_keys[i], TRUE, &error));
      expected = g_strdup_printf ("Key \"%s\": expected a weight (t), got a boolean (b)",
                                  weight_keys[i]);
      assert_invalid_policy (error, expected);
      assert_unchanged (fx);
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_boolean (&fx->policy, "Foo", FALSE, &error));
    assert_invalid_policy (error, "Unknown key \"Foo\"");
    assert_unchanged (fx);
  }

  /* A key from a D-Bus caller is quoted so the message stays one line. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_boolean (&fx->policy, "A\"b\nc", FALSE, &error));
    assert_invalid_policy (error, "Unknown key \"A\\\"b\\nc\"");
  }

  /* Errors are optional. */
  g_assert_false (ttg_policy_set_boolean (&fx->policy, "Foo", FALSE, NULL));
  assert_unchanged (fx);
}

static void
test_set_weight (Fixture *fx, gconstpointer user_data)
{
  static const guint64 good[] = { TTG_WEIGHT_MIN, 2, 100, 9999, TTG_WEIGHT_MAX };

  for (guint i = 0; weight_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (good); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *value = NULL;
          g_autofree char *expected = g_strdup_printf ("%" G_GUINT64_FORMAT, good[j]);

          g_assert_true (ttg_policy_set_weight (&fx->policy, weight_keys[i], good[j], &error));
          g_assert_no_error (error);
          value = policy_value (&fx->policy, weight_keys[i]);
          g_assert_cmpstr (value, ==, expected);
        }
    }

  /* Each key has its own field. */
  ttg_policy_init_defaults (&fx->policy);
  g_assert_true (ttg_policy_set_weight (&fx->policy, "ActiveSessionWeight", 1, NULL));
  g_assert_true (ttg_policy_set_weight (&fx->policy, "SessionWeight", 2, NULL));
  g_assert_true (ttg_policy_set_weight (&fx->policy, "RemoteSessionWeight", 3, NULL));
  g_assert_true (ttg_policy_set_weight (&fx->policy, "TerminalWeight", 4, NULL));
  g_assert_cmpuint (fx->policy.active_session_weight, ==, 1);
  g_assert_cmpuint (fx->policy.session_weight, ==, 2);
  g_assert_cmpuint (fx->policy.remote_session_weight, ==, 3);
  g_assert_cmpuint (fx->policy.terminal_weight, ==, 4);
  g_assert_true (fx->policy.enabled);
  g_assert_true (fx->policy.group_terminals);
  g_assert_false (fx->policy.manage_greeter);
}

static void
test_set_weight_errors (Fixture *fx, gconstpointer user_data)
{
  static const guint64 bad[] = { 0, TTG_WEIGHT_MAX + 1, 100000, G_MAXUINT64 };

  for (guint i = 0; weight_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (bad); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *expected = NULL;

          g_assert_false (ttg_policy_set_weight (&fx->policy, weight_keys[i], bad[j], &error));
          expected = g_strdup_printf ("Key \"%s\": %" G_GUINT64_FORMAT
                                      " is out of range (1..10000)",
                                      weight_keys[i], bad[j]);
          assert_invalid_policy (error, expected);
          assert_unchanged (fx);
        }
    }

  for (guint i = 0; boolean_keys[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = NULL;

      g_assert_false (ttg_policy_set_weight (&fx->policy, boolean_keys[i], 1, &error));
      expected = g_strdup_printf ("Key \"%s\": expected a boolean (b), got a weight (t)",
                                  boolean_keys[i]);
      assert_invalid_policy (error, expected);
      assert_unchanged (fx);
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_weight (&fx->policy, "sessionweight", 100, &error));
    assert_invalid_policy (error, "Unknown key \"sessionweight\"");
    assert_unchanged (fx);
  }
}

typedef struct {
  const char *text;
  gboolean value;
} BooleanText;

static void
test_from_string_boolean (Fixture *fx, gconstpointer user_data)
{
  /* systemd's parse_boolean(): six spellings each way, in any case */
  static const BooleanText good[] = {
    { "true", TRUE }, { "yes", TRUE }, { "1", TRUE }, { "on", TRUE }, { "y", TRUE }, { "t", TRUE },
    { "TRUE", TRUE }, { "True", TRUE }, { "YES", TRUE }, { "On", TRUE }, { "Y", TRUE }, { "T", TRUE },
    { "false", FALSE }, { "no", FALSE }, { "0", FALSE }, { "off", FALSE }, { "n", FALSE }, { "f", FALSE },
    { "FALSE", FALSE }, { "No", FALSE }, { "OFF", FALSE }, { "N", FALSE }, { "F", FALSE },
  };
  static const char *const bad[] = {
    "", " ", " true", "true ", "true\n", "2", "01", "-1", "truex", "of", "ye",
    "enabled", "yes please", "0x1", "+1",
  };

  for (guint i = 0; boolean_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (good); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *value = NULL;

          /* Start from the opposite, so a no-op would show. */
          g_assert_true (ttg_policy_set_boolean (&fx->policy, boolean_keys[i],
                                                 !good[j].value, NULL));
          g_assert_true (ttg_policy_set_from_string (&fx->policy, boolean_keys[i],
                                                     good[j].text, &error));
          g_assert_no_error (error);
          value = policy_value (&fx->policy, boolean_keys[i]);
          g_assert_cmpstr (value, ==, good[j].value ? "true" : "false");
        }
    }

  ttg_policy_init_defaults (&fx->policy);
  for (guint i = 0; boolean_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (bad); j++)
        {
          g_autoptr(GError) error = NULL;

          g_assert_false (ttg_policy_set_from_string (&fx->policy, boolean_keys[i],
                                                      bad[j], &error));
          g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
          g_assert_true (g_str_has_prefix (error->message, "Key \""));
          g_assert_nonnull (strstr (error->message, boolean_keys[i]));
          g_assert_nonnull (strstr (error->message, "expected a boolean (b), got \""));
          assert_unchanged (fx);
        }
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_from_string (&fx->policy, "Enabled", "maybe", &error));
    assert_invalid_policy (error, "Key \"Enabled\": expected a boolean (b), got \"maybe\"");
  }
}

typedef struct {
  const char *text;
  guint64 value;
} WeightText;

static void
test_from_string_weight (Fixture *fx, gconstpointer user_data)
{
  static const WeightText good[] = {
    { "1", 1 }, { "10000", 10000 }, { "150", 150 },
    /* Digits only, as promised; leading zeros are still digits. */
    { "0042", 42 },
  };
  static const char *const not_numbers[] = {
    "", " ", "+5", "-5", " 5", "5 ", "5\n", "\t5", "5x", "x5", "0x10", "1e3",
    "5.0", "1,000", "1_000", "true",
  };
  static const char *const out_of_range[] = {
    "0", "00", "10001", "4294967296", "18446744073709551615",
    /* Overflows guint64: must not wrap around into the range. */
    "18446744073709551616", "18446744073709551716",
    "99999999999999999999999999999999999999",
  };

  for (guint i = 0; weight_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (good); j++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *value = NULL;
          g_autofree char *expected = g_strdup_printf ("%" G_GUINT64_FORMAT, good[j].value);

          g_assert_true (ttg_policy_set_from_string (&fx->policy, weight_keys[i],
                                                     good[j].text, &error));
          g_assert_no_error (error);
          value = policy_value (&fx->policy, weight_keys[i]);
          g_assert_cmpstr (value, ==, expected);
        }
    }

  ttg_policy_init_defaults (&fx->policy);
  for (guint i = 0; weight_keys[i] != NULL; i++)
    {
      for (guint j = 0; j < G_N_ELEMENTS (not_numbers); j++)
        {
          g_autoptr(GError) error = NULL;

          g_assert_false (ttg_policy_set_from_string (&fx->policy, weight_keys[i],
                                                      not_numbers[j], &error));
          g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
          g_assert_nonnull (strstr (error->message, weight_keys[i]));
          g_assert_nonnull (strstr (error->message, "not a decimal number"));
          assert_unchanged (fx);
        }

      for (guint j = 0; j < G_N_ELEMENTS (out_of_range); j++)
        {
          g_autoptr(GError) error = NULL;

          g_assert_false (ttg_policy_set_from_string (&fx->policy, weight_keys[i],
                                                      out_of_range[j], &error));
          g_assert_error (error, TTG_ERROR, TTG_ERROR_INVALID_POLICY);
          g_assert_nonnull (strstr (error->message, weight_keys[i]));
          g_assert_nonnull (strstr (error->message, "is out of range (1..10000)"));
          assert_unchanged (fx);
        }
    }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_from_string (&fx->policy, "SessionWeight", "0", &error));
    assert_invalid_policy (error, "Key \"SessionWeight\": 0 is out of range (1..10000)");
  }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_from_string (&fx->policy, "TerminalWeight",
                                                "18446744073709551616", &error));
    assert_invalid_policy (error, "Key \"TerminalWeight\": 18446744073709551616 "
                           "is out of range (1..10000)");
  }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_from_string (&fx->policy, "SessionWeight", "-5", &error));
    assert_invalid_policy (error, "Key \"SessionWeight\": expected a weight (t), "
                           "got \"-5\" (not a decimal number)");
  }

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_set_from_string (&fx->policy, "Foo", "1", &error));
    assert_invalid_policy (error, "Unknown key \"Foo\"");
    assert_unchanged (fx);
  }
}

static GKeyFile *
load_keyfile (const char *data)
{
  g_autoptr(GKeyFile) kf = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  /* Keep translations: otherwise GKeyFile drops "Key[de]=" lines before
   * the policy code could refuse them. */
  g_key_file_load_from_data (kf, data, -1, G_KEY_FILE_KEEP_TRANSLATIONS, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&kf);
}

static void
test_keyfile_merge (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GKeyFile) kf = load_keyfile ("# admin's choice\n"
                                         "[Policy]\n"
                                         "GroupTerminals=false\n"
                                         "TerminalWeight = 50\n"
                                         "SessionWeight=300  \n");
  g_autoptr(GError) error = NULL;
  TtgPolicy expected = fx->policy;

  expected.group_terminals = FALSE;
  expected.terminal_weight = 50;
  expected.session_weight = 300;

  g_assert_true (ttg_policy_merge_keyfile (&fx->policy, kf, "/etc/ttygroup/ttygroup.conf", &error));
  g_assert_no_error (error);
  g_assert_true (ttg_policy_equal (&fx->policy, &expected));

  /* Merges on top: keys the file does not name keep their value. */
  {
    g_autoptr(GKeyFile) kf2 = load_keyfile ("[Policy]\nEnabled=no\n");

    g_assert_true (ttg_policy_merge_keyfile (&fx->policy, kf2, "drop-in", &error));
    g_assert_no_error (error);
    expected.enabled = FALSE;
    g_assert_true (ttg_policy_equal (&fx->policy, &expected));
  }
}

static void
test_keyfile_empty (Fixture *fx, gconstpointer user_data)
{
  static const char *const texts[] = {
    "",
    "# nothing but a comment\n",
    "[Policy]\n",
    "[Policy]\n# SessionWeight=0\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GKeyFile) kf = load_keyfile (texts[i]);
      g_autoptr(GError) error = NULL;

      g_assert_true (ttg_policy_merge_keyfile (&fx->policy, kf, "empty.conf", &error));
      g_assert_no_error (error);
      assert_unchanged (fx);
    }
}

typedef struct {
  const char *data;
  const char *message; /* after "test.conf: " */
} BadKeyfile;

static void
test_keyfile_bad (Fixture *fx, gconstpointer user_data)
{
  static const BadKeyfile bad[] = {
    /* The good key comes first: all or nothing means it is not applied. */
    { "[Policy]\nEnabled=false\nSessionWeight=0\n",
      "Key \"SessionWeight\": 0 is out of range (1..10000)" },
    { "[Policy]\nTerminalWeight=5\nEnabled=maybe\n",
      "Key \"Enabled\": expected a boolean (b), got \"maybe\"" },
    { "[Policy]\nActiveSessionWeight=50\nRemoteSessionWeight=ten\n",
      "Key \"RemoteSessionWeight\": expected a weight (t), got \"ten\" (not a decimal number)" },
    { "[Policy]\nEnabled=false\nFoo=1\n",
      "Unknown key \"Foo\"" },
    { "[Policy]\nEnabled=false\nenabled=true\n",
      "Unknown key \"enabled\"" },
    { "[Policy]\nEnabled=false\nEnabled[de]=true\n",
      "Unknown key \"Enabled[de]\"" },
    { "[Policy]\nEnabled=false\n[Other]\nEnabled=true\n",
      "Unknown group \"Other\" (only [Policy] and [Limits] are known)" },
    { "[Other]\nX=1\n[Policy]\nEnabled=false\n",
      "Unknown group \"Other\" (only [Policy] and [Limits] are known)" },
    { "[policy]\nEnabled=false\n",
      "Unknown group \"policy\" (only [Policy] and [Limits] are known)" },
    { "[Policy]\nSessionWeight=\n",
      "Key \"SessionWeight\": expected a weight (t), got \"\" (not a decimal number)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GKeyFile) kf = load_keyfile (bad[i].data);
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = g_strconcat ("test.conf: ", bad[i].message, NULL);

      g_test_message ("key file: %s", bad[i].data);
      g_assert_false (ttg_policy_merge_keyfile (&fx->policy, kf, "test.conf", &error));
      assert_invalid_policy (error, expected);
      assert_unchanged (fx);
    }

  /* Without an origin there is nothing to prefix. */
  {
    g_autoptr(GKeyFile) kf = load_keyfile (bad[0].data);
    g_autoptr(GError) error = NULL;

    g_assert_false (ttg_policy_merge_keyfile (&fx->policy, kf, NULL, &error));
    assert_invalid_policy (error, bad[0].message);
    assert_unchanged (fx);
  }
}

static void
test_keyfile_round_trip (Fixture *fx, gconstpointer user_data)
{
  TtgPolicy custom = {
    .enabled = FALSE,
    .group_terminals = FALSE,
    .manage_greeter = TRUE,
    .active_session_weight = TTG_WEIGHT_MAX,
    .session_weight = TTG_WEIGHT_MIN,
    .remote_session_weight = 77,
    .terminal_weight = 1234,
  };
  g_autofree char *data = ttg_policy_to_keyfile_data (&custom);
  g_autoptr(GKeyFile) kf = load_keyfile (data);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) keys = NULL;

  /* Every key is written, so the file alone says the whole policy. */
  keys = g_key_file_get_keys (kf, "Policy", NULL, &error);
  g_assert_no_error (error);
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); info->key != NULL; info++)
    g_assert_true (g_strv_contains ((const char *const *) keys, info->key));

  g_assert_true (ttg_policy_merge_keyfile (&fx->policy, kf, "round-trip", &error));
  g_assert_no_error (error);
  g_assert_true (ttg_policy_equal (&fx->policy, &custom));

  /* And back onto a non-default policy. */
  {
    g_autofree char *defaults_data = ttg_policy_to_keyfile_data (&fx->before);
    g_autoptr(GKeyFile) defaults_kf = load_keyfile (defaults_data);

    g_assert_true (ttg_policy_merge_keyfile (&fx->policy, defaults_kf, "round-trip", &error));
    g_assert_no_error (error);
    assert_unchanged (fx);
  }
}

static void
test_error_quark (void)
{
  g_assert_cmpstr (g_quark_to_string (TTG_ERROR), ==, "ttg-error-quark");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/policy/keys", test_keys);
  g_test_add_func ("/policy/error-quark", test_error_quark);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, NULL)

  ADD ("/policy/defaults", test_defaults);
  ADD ("/policy/equal", test_equal);
  ADD ("/policy/to-string", test_to_string);
  ADD ("/policy/set-boolean/ok", test_set_boolean);
  ADD ("/policy/set-boolean/errors", test_set_boolean_errors);
  ADD ("/policy/set-weight/ok", test_set_weight);
  ADD ("/policy/set-weight/errors", test_set_weight_errors);
  ADD ("/policy/from-string/boolean", test_from_string_boolean);
  ADD ("/policy/from-string/weight", test_from_string_weight);
  ADD ("/policy/keyfile/merge", test_keyfile_merge);
  ADD ("/policy/keyfile/empty", test_keyfile_empty);
  ADD ("/policy/keyfile/bad", test_keyfile_bad);
  ADD ("/policy/keyfile/round-trip", test_keyfile_round_trip);

#undef ADD

  return g_test_run ();
}
