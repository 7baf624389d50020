/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ctl-text.h"

/* A JSON string. D-Bus strings are valid UTF-8, others (user names) are
 * made so; every control character is escaped. */
void
json_append_string (GString *out, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) valid; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\b': g_string_append (out, "\\b"); break;
      case '\f': g_string_append (out, "\\f"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      default:
        if (*p < 0x20 || *p == 0x7f)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, (char) *p);
      }
  g_string_append_c (out, '"');
}

/* Text for a terminal: control characters (C0, DEL, C1) are shown escaped,
 * never sent: descriptions carry process names, which users choose. */
void
text_append_safe (GString *out, const char *s)
{
  g_autofree char *valid = g_utf8_make_valid (s, -1);

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        g_string_append_printf (out, "\\x%02x", (unsigned) c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
}

char *
text_safe (const char *s)
{
  GString *out = g_string_new (NULL);

  text_append_safe (out, s);
  return g_string_free (out, FALSE);
}

void
ctl_group_json (GString    *out,
                const char *unit,
                const char *session,
                guint32     uid,
                const char *kind,
                const char *tty,
                guint32     leader,
                guint64     weight,
                const char *description)
{
  g_string_append (out, "{\"Unit\":");
  json_append_string (out, unit);
  g_string_append (out, ",\"Session\":");
  json_append_string (out, session);
  g_string_append_printf (out, ",\"Uid\":%" G_GUINT32_FORMAT ",\"Kind\":", uid);
  json_append_string (out, kind);
  g_string_append (out, ",\"Tty\":");
  json_append_string (out, tty);
  g_string_append_printf (out, ",\"Leader\":%" G_GUINT32_FORMAT ",\"Weight\":%" G_GUINT64_FORMAT
                          ",\"Description\":", leader, weight);
  json_append_string (out, description);
  g_string_append_c (out, '}');
}
