/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The pure parts of ttygroupctl's command line and output. */
#include "ctl-parse.h"
#include "ctl-table.h"
#include "ctl-text.h"

#include <locale.h>
#include <string.h>

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

static void
test_json_string (void)
{
  static const struct {
    const char *in;
    const char *out;
  } cases[] = {
    { "", "\"\"" },
    { "bash", "\"bash\"" },
    { "say \"hi\" \\ now", "\"say \\\"hi\\\" \\\\ now\"" },
    { "a\tb\nc\rd\be\ff", "\"a\\tb\\nc\\rd\\be\\ff\"" },
    { "\x01\x1b[31m\x7f", "\"\\u0001\\u001b[31m\\u007f\"" },
    { "日本語", "\"日本語\"" },
    { "bad\xff", "\"bad\xef\xbf\xbd\"" }, /* invalid UTF-8: U+FFFD */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) out = g_string_new (NULL);

      json_append_string (out, cases[i].in);
      g_assert_cmpstr (out->str, ==, cases[i].out);
    }
}

static void
test_text_safe (void)
{
  g_autofree char *a = text_safe ("make\x1b]0;owned\x07 -j8");
  g_autofree char *b = text_safe ("日本語\xc2\x9b");

  g_assert_cmpstr (a, ==, "make\\x1b]0;owned\\x07 -j8");
  g_assert_cmpstr (b, ==, "日本語\\x9b"); /* C1 too */
}

/* "list --json" for a fixed group, short and pretty. */
static void
test_group_json (void)
{
  g_autoptr(GString) out = g_string_new ("[");
  g_autofree char *pretty = NULL;

  ctl_group_json (out, "app-ttygroup-pty3.scope", "2", 1000, "terminal", "pts/3", 4242, 100,
                  "make \"all\"");
  g_string_append_c (out, ',');
  ctl_group_json (out, "session-2.scope", "2", 1000, "session", "", 0, G_MAXUINT64, "");
  g_string_append_c (out, ']');
  g_assert_cmpstr (out->str, ==,
                   "[{\"Unit\":\"app-ttygroup-pty3.scope\",\"Session\":\"2\",\"Uid\":1000,"
                   "\"Kind\":\"terminal\",\"Tty\":\"pts/3\",\"Leader\":4242,\"Weight\":100,"
                   "\"Description\":\"make \\\"all\\\"\"},"
                   "{\"Unit\":\"session-2.scope\",\"Session\":\"2\",\"Uid\":1000,"
                   "\"Kind\":\"session\",\"Tty\":\"\",\"Leader\":0,\"Weight\":18446744073709551615,"
                   "\"Description\":\"\"}]");

  pretty = ctl_json_pretty ("[{\"Unit\":\"u\",\"Weight\":100,\"Description\":\"a, b: {c}\"}]");
  g_assert_cmpstr (pretty, ==,
                   "[\n"
                   "  {\n"
                   "    \"Unit\": \"u\",\n"
                   "    \"Weight\": 100,\n"
                   "    \"Description\": \"a, b: {c}\"\n"
                   "  }\n"
                   "]");
}

static const char *const table_headers[] = { "UNIT", "USER", "DESCRIPTION" };
static const char *const table_rows[][3] = {
  { "session-2.scope", "alice", "bash" },
  { "app-ttygroup-pty3.scope", "日本語", "make -j8 in a very long directory name" },
};

static CtlTable *
sample_table (void)
{
  CtlTable *table = ctl_table_new (table_headers, 3, 1u << 2);

  for (guint i = 0; i < G_N_ELEMENTS (table_rows); i++)
    ctl_table_add_row (table, table_rows[i]);
  return table;
}

/* Display columns: a wide (East Asian) character takes two. */
static guint
display_width (const char *s)
{
  guint width = 0;

  for (const char *p = s; *p; p = g_utf8_next_char (p))
    width += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  return width;
}

static void
test_table_aligned (void)
{
  g_autoptr(CtlTable) table = sample_table ();
  g_autofree char *text = ctl_table_to_string (table);

  /* 日本語 is six columns wide, like "alice" and its blank */
  g_assert_cmpstr (text, ==,
                   "UNIT                    USER   DESCRIPTION\n"
                   "session-2.scope         alice  bash\n"
                   "app-ttygroup-pty3.scope 日本語 make -j8 in a very long directory name\n");
}

static void
test_table_truncated (void)
{
  g_autoptr(CtlTable) table = sample_table ();
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  ctl_table_set_width (table, 50);
  text = ctl_table_to_string (table);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[3], ==, "");
  for (guint i = 0; i < 3; i++)
    {
      g_test_message ("%s", lines[i]);
      g_assert_cmpuint (display_width (lines[i]), <=, 50);
    }
  /* the names stay whole, the description gives way (never below the
   * width of its header: libsmartcols keeps that much) */
  g_assert_true (g_str_has_prefix (lines[2], "app-ttygroup-pty3.scope 日本語 make"));
  g_assert_null (strstr (lines[2], "directory"));
}

static void
test_table_no_header (void)
{
  g_autoptr(CtlTable) table = sample_table ();
  g_autofree char *text = NULL;

  ctl_table_set_header (table, FALSE);
  text = ctl_table_to_string (table);
  g_assert_true (g_str_has_prefix (text, "session-2.scope         alice  bash\n"));
  g_assert_null (strstr (text, "UNIT"));
}

int
main (int argc, char **argv)
{
  /* libsmartcols writes non-ASCII as \x escapes unless the locale is UTF-8 */
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ctl/json/string", test_json_string);
  g_test_add_func ("/ctl/json/group", test_group_json);
  g_test_add_func ("/ctl/text-safe", test_text_safe);
  g_test_add_func ("/ctl/table/aligned", test_table_aligned);
  g_test_add_func ("/ctl/table/truncated", test_table_truncated);
  g_test_add_func ("/ctl/table/no-header", test_table_no_header);

  g_test_add_func ("/ctl/json-mode", test_json_mode);
  g_test_add_func ("/ctl/flag-with-value", test_flag_with_value);
  g_test_add_func ("/ctl/bare-json", test_bare_json);
  g_test_add_func ("/ctl/json-pretty", test_json_pretty);

  return g_test_run ();
}
