/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: what it prints. JSON (short or pretty), text for people
 * (rows, tables), and the pager. */
#include "build-config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "ctl.h"

/* --------------------------------------------------------- formatting -- */

/* Reads the next complete value of m (any D-Bus type) and appends it as
 * JSON, or as text for people (booleans yes/no, strings bare). */
int
append_value (sd_bus_message *m, GString *out, gboolean json)
{
  const char *contents = NULL;
  char type;
  int r;

  r = sd_bus_message_peek_type (m, &type, &contents);
  if (r < 0)
    return r;
  if (r == 0)
    return -EBADMSG;

  switch (type)
    {
    case SD_BUS_TYPE_VARIANT:
      r = sd_bus_message_enter_container (m, type, contents);
      if (r < 0)
        return r;
      r = append_value (m, out, json);
      if (r < 0)
        return r;
      return sd_bus_message_exit_container (m);

    case SD_BUS_TYPE_ARRAY:
    case SD_BUS_TYPE_STRUCT:
      {
        gboolean dict = type == SD_BUS_TYPE_ARRAY && contents[0] == SD_BUS_TYPE_DICT_ENTRY_BEGIN;
        gboolean first = TRUE;

        r = sd_bus_message_enter_container (m, type, contents);
        if (r < 0)
          return r;
        if (json)
          g_string_append_c (out, dict ? '{' : '[');
        else
          g_string_append_c (out, dict ? '{' : type == SD_BUS_TYPE_STRUCT ? '(' : '[');
        while ((r = sd_bus_message_at_end (m, FALSE)) == 0)
          {
            if (!first)
              g_string_append (out, json ? "," : ", ");
            first = FALSE;
            r = append_value (m, out, json);
            if (r < 0)
              return r;
          }
        if (r < 0)
          return r;
        if (json)
          g_string_append_c (out, dict ? '}' : ']');
        else
          g_string_append_c (out, dict ? '}' : type == SD_BUS_TYPE_STRUCT ? ')' : ']');
        return sd_bus_message_exit_container (m);
      }

    case SD_BUS_TYPE_DICT_ENTRY:
      {
        char key_type;

        r = sd_bus_message_enter_container (m, type, contents);
        if (r < 0)
          return r;
        r = sd_bus_message_peek_type (m, &key_type, NULL);
        if (r <= 0)
          return r < 0 ? r : -EBADMSG;
        /* JSON keys are strings: quote numeric keys */
        gboolean quote = json && !strchr ("sog", key_type);
        if (quote)
          g_string_append_c (out, '"');
        r = append_value (m, out, json);
        if (r < 0)
          return r;
        if (quote)
          g_string_append_c (out, '"');
        g_string_append (out, json ? ":" : "=");
        r = append_value (m, out, json);
        if (r < 0)
          return r;
        return sd_bus_message_exit_container (m);
      }

    default:
      {
        union {
          uint8_t y;
          int b;
          int16_t n;
          uint16_t q;
          int32_t i;
          uint32_t u;
          int64_t x;
          uint64_t t;
          double d;
          const char *s;
          int h;
        } v;

        r = sd_bus_message_read_basic (m, type, &v);
        if (r < 0)
          return r;
        switch (type)
          {
          case SD_BUS_TYPE_BOOLEAN:
            g_string_append (out, json ? (v.b ? "true" : "false") : (v.b ? "yes" : "no"));
            break;
          case SD_BUS_TYPE_BYTE: g_string_append_printf (out, "%" G_GUINT16_FORMAT, (guint16) v.y); break;
          case SD_BUS_TYPE_INT16: g_string_append_printf (out, "%" G_GINT16_FORMAT, v.n); break;
          case SD_BUS_TYPE_UINT16: g_string_append_printf (out, "%" G_GUINT16_FORMAT, v.q); break;
          case SD_BUS_TYPE_INT32: g_string_append_printf (out, "%" G_GINT32_FORMAT, v.i); break;
          case SD_BUS_TYPE_UINT32: g_string_append_printf (out, "%" G_GUINT32_FORMAT, v.u); break;
          case SD_BUS_TYPE_INT64: g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) v.x); break;
          case SD_BUS_TYPE_UINT64: g_string_append_printf (out, "%" G_GUINT64_FORMAT, (guint64) v.t); break;
          case SD_BUS_TYPE_UNIX_FD: g_string_append_printf (out, "%d", v.h); break;
          case SD_BUS_TYPE_DOUBLE:
            if (isfinite (v.d))
              {
                char buf[G_ASCII_DTOSTR_BUF_SIZE];
                g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v.d));
              }
            else
              g_string_append (out, json ? "null" : isnan (v.d) ? "nan" : v.d > 0 ? "inf" : "-inf");
            break;
          case SD_BUS_TYPE_STRING:
          case SD_BUS_TYPE_OBJECT_PATH:
          case SD_BUS_TYPE_SIGNATURE:
            if (json)
              json_append_string (out, v.s);
            else
              text_append_safe (out, v.s);
            break;
          default:
            return -EBADMSG;
          }
        return 0;
      }
    }
}

/* Text for people: "Key: value" lines with the values aligned. */
void
rows_init (Rows *rows)
{
  rows->keys = g_ptr_array_new_with_free_func (g_free);
  rows->values = g_ptr_array_new_with_free_func (g_free);
}

void
rows_clear (Rows *rows)
{
  g_clear_pointer (&rows->keys, g_ptr_array_unref);
  g_clear_pointer (&rows->values, g_ptr_array_unref);
}

void
rows_add (Rows *rows, const char *key, const char *value)
{
  g_ptr_array_add (rows->keys, g_strdup (key));
  g_ptr_array_add (rows->values, text_safe (*value ? value : "-"));
}

void
rows_print (const Rows *rows, const char *separator)
{
  int width = 0;

  for (guint i = 0; i < rows->keys->len; i++)
    width = MAX (width, (int) g_utf8_strlen (rows->keys->pdata[i], -1));
  for (guint i = 0; i < rows->keys->len; i++)
    {
      const char *key = rows->keys->pdata[i];
      printf ("%s%s%*s%s\n", key, separator, width - (int) g_utf8_strlen (key, -1), "",
              (const char *) rows->values->pdata[i]);
    }
}

int
walk_dict (sd_bus_message *m, DictEntryFunc entry, gpointer data)
{
  int r;

  r = sd_bus_message_enter_container (m, SD_BUS_TYPE_ARRAY, "{sv}");
  if (r < 0)
    return r;
  while ((r = sd_bus_message_enter_container (m, SD_BUS_TYPE_DICT_ENTRY, "sv")) > 0)
    {
      const char *key;

      r = sd_bus_message_read_basic (m, SD_BUS_TYPE_STRING, &key);
      if (r < 0)
        return r;
      r = entry (m, key, data);
      if (r < 0)
        return r;
      r = sd_bus_message_exit_container (m);
      if (r < 0)
        return r;
    }
  if (r < 0)
    return r;
  return sd_bus_message_exit_container (m);
}

typedef struct {
  Rows *rows;
  GString *json;
} DictOut;

static int
dict_entry_out (sd_bus_message *m, const char *key, gpointer data)
{
  DictOut *out = data;
  g_autoptr(GString) text = NULL;
  int r;

  if (out->json)
    {
      GString *json = out->json;

      if (json->len > 0 && json->str[json->len - 1] != '{')
        g_string_append_c (json, ',');
      json_append_string (json, key);
      g_string_append_c (json, ':');
      return append_value (m, json, TRUE);
    }
  text = g_string_new (NULL);
  r = append_value (m, text, FALSE);
  if (r >= 0)
    rows_add (out->rows, key, text->str);
  return r;
}

/* Walks an a{sv} at the current position of m: adds each entry to rows (as
 * text), or to json as the members of an object (without the braces). */
int
read_dict (sd_bus_message *m, Rows *rows, GString *json)
{
  DictOut out = { rows, json };

  return walk_dict (m, dict_entry_out, &out);
}

void
print_json (GString *json)
{
  if (arg_json == JSON_PRETTY)
    {
      g_autofree char *pretty = ctl_json_pretty (json->str);

      printf ("%s\n", pretty);
      return;
    }
  g_string_append_c (json, '\n');
  fputs (json->str, stdout);
}

/* ---------------------------------------------------------------- pager -- */

static pid_t pager_pid;

void
pager_open (void)
{
  const char *pager;
  int fds[2];
  pid_t pid;

  if (arg_no_pager || pager_pid > 0 || !isatty (STDOUT_FILENO))
    return;
  pager = g_getenv ("SYSTEMD_PAGER");
  if (!pager)
    pager = g_getenv ("PAGER");
  if (!pager)
    pager = "less";
  /* systemd's rule: an empty pager or "cat" means no pager */
  pager = pager + strspn (pager, " \t");
  if (!*pager || g_str_equal (pager, "cat"))
    return;

  fflush (stdout);
  if (pipe (fds) < 0)
    return;
  pid = fork ();
  if (pid < 0)
    {
      close (fds[0]);
      close (fds[1]);
      return;
    }
  if (pid == 0)
    {
      if (dup2 (fds[0], STDIN_FILENO) < 0)
        _exit (EXIT_FAIL);
      close (fds[0]);
      close (fds[1]);
      /* F: quit when it fits one screen, R: colours, S: no wrapping,
       * X: leave the screen alone, M: verbose prompt, K: quit on ^C */
      setenv ("LESS", "FRSXMK", 0);
      execl ("/bin/sh", "sh", "-c", pager, (char *) NULL);
      _exit (EXIT_FAIL);
    }
  close (fds[0]);
  if (dup2 (fds[1], STDOUT_FILENO) < 0)
    {
      close (fds[1]);
      return;
    }
  close (fds[1]);
  pager_pid = pid;
  /* The pager reads ^C (K), the client must not die of it meanwhile. */
  signal (SIGINT, SIG_IGN);
  signal (SIGPIPE, SIG_IGN);
}

void
pager_close (void)
{
  if (pager_pid <= 0)
    return;
  fflush (stdout);
  close (STDOUT_FILENO);
  while (waitpid (pager_pid, NULL, 0) < 0 && errno == EINTR)
    ;
  pager_pid = 0;
}
