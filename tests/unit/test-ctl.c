/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pure parts of ttygroupctl's command line and output. */
#include "ctl-parse.h"

static void
test_json_mode (void)
{
  static const struct {
    const char *text;
    gboolean ok;
    JsonMode mode;
  } cases[] = {
    { NULL, TRUE, JSON_SHORT }, /* a bare --json */
    { "short", TRUE, JSON_SHORT },
    { "pretty", TRUE, JSON_PRETTY },
    { "off", TRUE, JSON_OFF },
    { "", FALSE }, { "Short", FALSE }, { "PRETTY", FALSE }, { "on", FALSE },
    { "true", FALSE }, { "1", FALSE }, { "short ", FALSE }, { "sho", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      JsonMode mode = (JsonMode) 42;

      g_assert_cmpint (ctl_parse_json_mode (cases[i].text, &mode), ==, cases[i].ok);
      if (cases[i].ok)
        g_assert_cmpint (mode, ==, cases[i].mode);
    }
}

static void
test_flag_with_value (void)
{
  static const char *const flags[] = { "version", "no-pager", "no-legend", NULL };
  static const struct {
    const char *args;
    const char *bad;
  } cases[] = {
    { "--version", NULL },
    { "--version=3", "--version=3" },
    { "--version=", "--version=" },
    { "list --no-pager=yes", "--no-pager=yes" },
    { "--json=short list", NULL },
    { "--versions=3", NULL },
    { "--versio=3", NULL },
    { "set-policy Enabled=true", NULL },
    { "-- --version=3", NULL },
    { "--no-legend --no-legend=0", "--no-legend=0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *line = g_strconcat ("ttygroupctl ", cases[i].args, NULL);
      g_auto(GStrv) argv = g_strsplit (line, " ", -1);

      g_assert_cmpstr (ctl_find_flag_with_value (g_strv_length (argv), argv, flags), ==, cases[i].bad);
    }
}

static void
test_bare_json (void)
{
  static const struct {
    const char *args;
    const char *expanded;
  } cases[] = {
    { "--json status", "--json=short status" },
    { "--json=pretty status", "--json=pretty status" },
    { "status --json", "status --json=short" },
    { "--json --json=off list", "--json=short --json=off list" },
    { "--jsonx list", "--jsonx list" },
    { "-- --json", "-- --json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *line = g_strconcat ("ttygroupctl ", cases[i].args, NULL);
      g_auto(GStrv) argv = g_strsplit (line, " ", -1);
      char **copy = g_memdup2 (argv, (g_strv_length (argv) + 1) * sizeof (char *));
      g_autofree char *joined = NULL;

      ctl_expand_bare_json (g_strv_length (copy), copy);
      joined = g_strjoinv (" ", copy + 1);
      g_assert_cmpstr (joined, ==, cases[i].expanded);
      g_free (copy);
    }
}

static void
test_json_pretty (void)
{
  static const struct {
    const char *compact;
    const char *pretty;
  } cases[] = {
    { "{}", "{}" },
    { "[]", "[]" },
    { "{\"Enabled\":true}", "{\n  \"Enabled\": true\n}" },
    { "[{\"Unit\":\"a,b\",\"Weight\":100},{\"Unit\":\"x:{y}\",\"Tty\":\"\"}]",
      "[\n  {\n    \"Unit\": \"a,b\",\n    \"Weight\": 100\n  },\n  {\n    \"Unit\": \"x:{y}\",\n    \"Tty\": \"\"\n  }\n]" },
    { "{\"Desc\":\"say \\\"hi\\\", {ok}\\\\\",\"S\":{}}",
      "{\n  \"Desc\": \"say \\\"hi\\\", {ok}\\\\\",\n  \"S\": {}\n}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *pretty = ctl_json_pretty (cases[i].compact);

      g_assert_cmpstr (pretty, ==, cases[i].pretty);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ctl/json-mode", test_json_mode);
  g_test_add_func ("/ctl/flag-with-value", test_flag_with_value);
  g_test_add_func ("/ctl/bare-json", test_bare_json);
  g_test_add_func ("/ctl/json-pretty", test_json_pretty);

  return g_test_run ();
}
