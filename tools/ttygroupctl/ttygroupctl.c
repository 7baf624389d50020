/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: the command-line client of org.ttygroup1 on the system bus.
 * The contract is dbus/org.ttygroup1.xml; this file only speaks it (sd-bus). */
#include "build-config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <systemd/sd-bus.h>

/* The daemon's idiom (daemon/util.h), without its logging and cgroup helpers. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus, sd_bus_flush_close_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus_message, sd_bus_message_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (sd_bus_error, sd_bus_error_free)

#define OBJECT_PATH "/org/ttygroup1"
#define INTERFACE "org.ttygroup1.Manager"

#define EXIT_OK 0
#define EXIT_FAIL 1  /* the call failed: D-Bus error, no bus, bad reply */
#define EXIT_USAGE 2 /* the command line is wrong; nothing was sent */

/* A password prompt may take a while; a service that does not answer at all
 * should still not hang a script forever. */
#define INTERACTIVE_TIMEOUT_USEC (5 * 60 * G_USEC_PER_SEC)

static gboolean arg_json;
static gboolean arg_no_ask_password;
static const char *arg_command; /* the command being run, for its messages */

/* -------------------------------------------------------------- errors -- */

/* "ttygroupctl: MESSAGE" on stderr; the message is translated by the
 * caller, the prefix and the newline are not part of it. */
static void G_GNUC_PRINTF (1, 2)
print_error (const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_printerr ("ttygroupctl: %s\n", msg);
}

static int G_GNUC_PRINTF (1, 2)
usage_error (const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  print_error ("%s", msg);
  g_printerr ("%s\n", _("Try 'ttygroupctl --help' for more information."));
  return EXIT_USAGE;
}

/* r < 0 from an sd_bus call: name and message of the D-Bus error, or the
 * errno text when there is none. */
static int
call_failed (const char *what, const sd_bus_error *error, int r)
{
  if (sd_bus_error_is_set (error))
    {
      /* what: the D-Bus member; then the D-Bus error's name and message */
      print_error ("%s: %s: %s", what, error->name, error->message ? error->message : "");
      if (sd_bus_error_has_names (error, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
        print_error ("%s", _("is ttygroupd running? (systemctl status ttygroupd)"));
      else if (sd_bus_error_has_name (error, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED))
        /* Translators: --no-ask-password is an option of ttygroupctl, keep it as is */
        print_error ("%s", _("run it without --no-ask-password to authenticate, or as root"));
    }
  else
    print_error ("%s: %s", what, g_strerror (-r));
  return EXIT_FAIL;
}

static int
reply_malformed (const char *what, int r)
{
  /* Translators: the first %s is a D-Bus method or property name, the
   * second the bus name org.ttygroup1, the third the system error text */
  print_error (_("%s: unexpected reply from %s: %s"), what, TTG_BUS_NAME, g_strerror (-r));
  return EXIT_FAIL;
}

/* ---------------------------------------------------------------- bus -- */

static int
bus_connect (sd_bus **ret)
{
  g_autoptr(sd_bus) bus = NULL;
  int r;

  r = sd_bus_open_system (&bus);
  if (r < 0)
    {
      print_error (_("Failed to connect to the system bus: %s"), g_strerror (-r));
      return EXIT_FAIL;
    }
  (void) sd_bus_set_description (bus, "ttygroupctl");
  *ret = g_steal_pointer (&bus);
  return EXIT_OK;
}

/* The polkit text agent, for mutating calls from a terminal that has no
 * agent of its own (a desktop's agent wins: --fallback). Like systemctl. */
static GPid agent_pid;

static void
agent_open (void)
{
  g_autofree char *agent = NULL;
  g_autofree char *fd_text = NULL;
  g_autoptr(GError) error = NULL;
  int pipe_fd[2];
  int target_fd = 3;

  if (agent_pid > 0 || arg_no_ask_password)
    return;
  /* root needs no authentication; without a terminal nobody could answer */
  if (geteuid () == 0 || !isatty (STDIN_FILENO))
    return;
  agent = g_find_program_in_path ("pkttyagent");
  if (!agent)
    return;
  if (pipe (pipe_fd) < 0)
    return;

  fd_text = g_strdup_printf ("%d", target_fd);
  const char *argv[] = { agent, "--notify-fd", fd_text, "--fallback", NULL };
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN,
                                         NULL, NULL, -1, -1, -1, &pipe_fd[1], &target_fd, 1,
                                         &agent_pid, NULL, NULL, NULL, &error))
    {
      agent_pid = 0;
      close (pipe_fd[0]);
      close (pipe_fd[1]);
      return;
    }
  close (pipe_fd[1]);
  /* It closes the fd once it is registered (or when it exits). */
  struct pollfd p = { .fd = pipe_fd[0], .events = POLLIN };
  while (poll (&p, 1, 10 * 1000) < 0 && errno == EINTR)
    ;
  close (pipe_fd[0]);
}

static void
agent_close (void)
{
  if (agent_pid <= 0)
    return;
  (void) kill (agent_pid, SIGTERM);
  while (waitpid (agent_pid, NULL, 0) < 0 && errno == EINTR)
    ;
  agent_pid = 0;
}

static int
new_call (sd_bus *bus, const char *member, sd_bus_message **ret)
{
  int r = sd_bus_message_new_method_call (bus, ret, TTG_BUS_NAME, OBJECT_PATH, INTERFACE, member);

  if (r < 0)
    /* Translators: the first %s is a D-Bus method name, the second the system error text */
    print_error (_("Failed to create the %s call: %s"), member, g_strerror (-r));
  return r;
}

/* --------------------------------------------------------- formatting -- */

/* A JSON string. D-Bus strings are valid UTF-8, others (user names) are
 * made so; every control character is escaped. */
static void
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
static void
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

static char *
text_safe (const char *s)
{
  GString *out = g_string_new (NULL);

  text_append_safe (out, s);
  return g_string_free (out, FALSE);
}

/* Reads the next complete value of m (any D-Bus type) and appends it as
 * JSON, or as text for people (booleans yes/no, strings bare). */
static int
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
typedef struct {
  GPtrArray *keys;
  GPtrArray *values;
} Rows;

static void
rows_init (Rows *rows)
{
  rows->keys = g_ptr_array_new_with_free_func (g_free);
  rows->values = g_ptr_array_new_with_free_func (g_free);
}

static void
rows_clear (Rows *rows)
{
  g_clear_pointer (&rows->keys, g_ptr_array_unref);
  g_clear_pointer (&rows->values, g_ptr_array_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Rows, rows_clear)

static void
rows_add (Rows *rows, const char *key, const char *value)
{
  g_ptr_array_add (rows->keys, g_strdup (key));
  g_ptr_array_add (rows->values, text_safe (*value ? value : "-"));
}

static void
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

/* Walks an a{sv} at the current position of m: adds each entry to rows (as
 * text), or to json as the members of an object (without the braces). */
static int
read_dict (sd_bus_message *m, Rows *rows, GString *json)
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
      if (json)
        {
          if (json->len > 0 && json->str[json->len - 1] != '{')
            g_string_append_c (json, ',');
          json_append_string (json, key);
          g_string_append_c (json, ':');
          r = append_value (m, json, TRUE);
        }
      else
        {
          g_autoptr(GString) text = g_string_new (NULL);

          r = append_value (m, text, FALSE);
          if (r >= 0)
            rows_add (rows, key, text->str);
        }
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

static void
print_json (GString *json)
{
  g_string_append_c (json, '\n');
  fputs (json->str, stdout);
}

/* ------------------------------------------------------------ commands -- */

static int
cmd_status (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) status = NULL;
  g_autofree char *version = NULL;
  g_auto(Rows) rows = { 0 };
  int enabled = 0;
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;

  r = sd_bus_get_property_string (bus, TTG_BUS_NAME, OBJECT_PATH, INTERFACE, "Version", &error, &version);
  if (r < 0)
    return call_failed ("Version", &error, r);
  r = sd_bus_get_property_trivial (bus, TTG_BUS_NAME, OBJECT_PATH, INTERFACE, "Enabled", &error,
                                   SD_BUS_TYPE_BOOLEAN, &enabled);
  if (r < 0)
    return call_failed ("Enabled", &error, r);
  r = sd_bus_get_property (bus, TTG_BUS_NAME, OBJECT_PATH, INTERFACE, "Status", &error, &status, "a{sv}");
  if (r < 0)
    return call_failed ("Status", &error, r);

  if (arg_json)
    {
      g_autoptr(GString) json = g_string_new ("{\"Version\":");

      json_append_string (json, version);
      g_string_append_printf (json, ",\"Enabled\":%s,\"Status\":{", enabled ? "true" : "false");
      r = read_dict (status, NULL, json);
      if (r < 0)
        return reply_malformed ("Status", r);
      g_string_append (json, "}}");
      print_json (json);
      return EXIT_OK;
    }

  /* Not translated: the rows are the D-Bus names (properties and the keys
   * of Status), like the booleans' yes/no of append_value. */
  rows_init (&rows);
  rows_add (&rows, "Version", version);
  rows_add (&rows, "Enabled", enabled ? "yes" : "no");
  r = read_dict (status, &rows, NULL);
  if (r < 0)
    return reply_malformed ("Status", r);
  rows_print (&rows, ": ");
  return EXIT_OK;
}

static const char *
user_name (uid_t uid, char *buf, size_t size)
{
  struct passwd *pw = getpwuid (uid);

  if (pw && pw->pw_name)
    return pw->pw_name;
  g_snprintf (buf, size, "%u", (unsigned) uid);
  return buf;
}

static int
cmd_list (char **args, int n)
{
  static const char *const header[] = {
    /* Translators: a column header of "ttygroupctl list": the systemd unit */
    N_("UNIT"),
    /* Translators: a column header of "ttygroupctl list": the logind session id */
    N_("SESSION"),
    /* Translators: a column header of "ttygroupctl list": the user name */
    N_("USER"),
    /* Translators: a column header of "ttygroupctl list": session or terminal */
    N_("KIND"),
    /* Translators: a column header of "ttygroupctl list": the terminal (tty) name */
    N_("TTY"),
    /* Translators: a column header of "ttygroupctl list": the process id of the group's leader */
    N_("LEADER"),
    /* Translators: a column header of "ttygroupctl list": the group's CPU weight */
    N_("WEIGHT"),
    /* Translators: a column header of "ttygroupctl list" */
    N_("DESCRIPTION"),
  };
  enum { COLUMNS = G_N_ELEMENTS (header) };
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  int width[COLUMNS] = { 0 };
  const char *unit, *session, *kind, *tty, *description;
  uint32_t uid, leader;
  uint64_t weight;
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, "ListGroups", &call) < 0)
    return EXIT_FAIL;
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed ("ListGroups", &error, r);

  r = sd_bus_message_enter_container (reply, SD_BUS_TYPE_ARRAY, "(ssussuts)");
  if (r < 0)
    return reply_malformed ("ListGroups", r);
  while ((r = sd_bus_message_read (reply, "(ssussuts)", &unit, &session, &uid, &kind, &tty,
                                   &leader, &weight, &description)) > 0)
    {
      if (arg_json)
        {
          if (json->len > 1)
            g_string_append_c (json, ',');
          g_string_append (json, "{\"Unit\":");
          json_append_string (json, unit);
          g_string_append (json, ",\"Session\":");
          json_append_string (json, session);
          g_string_append_printf (json, ",\"Uid\":%" G_GUINT32_FORMAT ",\"Kind\":", uid);
          json_append_string (json, kind);
          g_string_append (json, ",\"Tty\":");
          json_append_string (json, tty);
          g_string_append_printf (json, ",\"Leader\":%" G_GUINT32_FORMAT ",\"Weight\":%" G_GUINT64_FORMAT
                                  ",\"Description\":", leader, (guint64) weight);
          json_append_string (json, description);
          g_string_append_c (json, '}');
        }
      else
        {
          char buf[32];

          g_ptr_array_add (cells, text_safe (unit));
          g_ptr_array_add (cells, text_safe (*session ? session : "-"));
          g_ptr_array_add (cells, text_safe (user_name (uid, buf, sizeof buf)));
          g_ptr_array_add (cells, text_safe (kind));
          g_ptr_array_add (cells, text_safe (*tty ? tty : "-"));
          g_ptr_array_add (cells, leader ? g_strdup_printf ("%" G_GUINT32_FORMAT, leader) : g_strdup ("-"));
          /* 0: the service sets no weight, systemd's default applies */
          g_ptr_array_add (cells, weight ? g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) weight) : g_strdup ("-"));
          g_ptr_array_add (cells, text_safe (*description ? description : "-"));
        }
    }
  if (r < 0)
    return reply_malformed ("ListGroups", r);

  if (arg_json)
    {
      g_string_append_c (json, ']');
      print_json (json);
      return EXIT_OK;
    }
  if (cells->len == 0)
    {
      printf ("%s\n", _("No groups."));
      return EXIT_OK;
    }
  /* widths in characters: a translated header may not be ASCII */
  for (guint c = 0; c < COLUMNS; c++)
    width[c] = (int) g_utf8_strlen (_(header[c]), -1);
  for (guint i = 0; i < cells->len; i++)
    width[i % COLUMNS] = MAX (width[i % COLUMNS], (int) g_utf8_strlen (cells->pdata[i], -1));
  for (guint c = 0; c < COLUMNS; c++)
    {
      const char *title = _(header[c]);

      if (c + 1 < COLUMNS)
        printf ("%s%*s ", title, width[c] - (int) g_utf8_strlen (title, -1), "");
      else
        printf ("%s\n", title);
    }
  for (guint i = 0; i < cells->len; i++)
    {
      const char *cell = cells->pdata[i];
      guint c = i % COLUMNS;

      if (c + 1 < COLUMNS)
        printf ("%s%*s ", cell, width[c] - (int) g_utf8_strlen (cell, -1), "");
      else
        printf ("%s\n", cell);
    }
  printf ("\n");
  /* Translators: the last line of "ttygroupctl list"; %u is the number of groups */
  printf (ngettext ("%u group listed.", "%u groups listed.", cells->len / COLUMNS), cells->len / COLUMNS);
  printf ("\n");
  return EXIT_OK;
}

static int
cmd_explain (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_auto(Rows) rows = { 0 };
  guint64 pid = 0;
  int r;

  if (!*args[0] || strspn (args[0], "0123456789") != strlen (args[0]) ||
      !g_ascii_string_to_unsigned (args[0], 10, 1, G_MAXUINT32, &pid, NULL))
    /* Translators: "explain" is the command name, keep it as is */
    return usage_error (_("explain: '%s' is not a process id"), args[0]);

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, "GetGroupForPid", &call) < 0)
    return EXIT_FAIL;
  r = sd_bus_message_append (call, "u", (uint32_t) pid);
  if (r < 0)
    return reply_malformed ("GetGroupForPid", r);
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed ("GetGroupForPid", &error, r);

  if (arg_json)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_printf (json, "{\"Pid\":%" G_GUINT64_FORMAT, pid);
      r = read_dict (reply, NULL, json);
      if (r < 0)
        return reply_malformed ("GetGroupForPid", r);
      g_string_append_c (json, '}');
      print_json (json);
      return EXIT_OK;
    }

  /* Not translated: the rows are the keys of GetGroupForPid's reply */
  rows_init (&rows);
  g_autofree char *pid_text = g_strdup_printf ("%" G_GUINT64_FORMAT, pid);
  rows_add (&rows, "PID", pid_text);
  r = read_dict (reply, &rows, NULL);
  if (r < 0)
    return reply_malformed ("GetGroupForPid", r);
  rows_print (&rows, ": ");
  return EXIT_OK;
}

static int
cmd_get_policy (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  g_auto(Rows) rows = { 0 };
  int r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  r = sd_bus_get_property (bus, TTG_BUS_NAME, OBJECT_PATH, INTERFACE, "Policy", &error, &reply, "a{sv}");
  if (r < 0)
    return call_failed ("Policy", &error, r);

  if (arg_json)
    {
      g_autoptr(GString) json = g_string_new ("{");

      r = read_dict (reply, NULL, json);
      if (r < 0)
        return reply_malformed ("Policy", r);
      g_string_append_c (json, '}');
      print_json (json);
      return EXIT_OK;
    }
  rows_init (&rows);
  r = read_dict (reply, &rows, NULL);
  if (r < 0)
    return reply_malformed ("Policy", r);
  /* KEY=VALUE: what set-policy and ttygroup.conf take */
  for (guint i = 0; i < rows.keys->len; i++)
    printf ("%s=%s\n", (const char *) rows.keys->pdata[i], (const char *) rows.values->pdata[i]);
  return EXIT_OK;
}

/* The policy keys and their D-Bus types (dbus/org.ttygroup1.xml). Checked
 * here so a typo is caught before anything is sent; the service validates
 * every key again (and alone knows the ranges). */
static const struct {
  const char *key;
  char type;
} policy_keys[] = {
  { "Enabled", SD_BUS_TYPE_BOOLEAN },
  { "GroupTerminals", SD_BUS_TYPE_BOOLEAN },
  { "ManageGreeter", SD_BUS_TYPE_BOOLEAN },
  { "ActiveSessionWeight", SD_BUS_TYPE_UINT64 },
  { "SessionWeight", SD_BUS_TYPE_UINT64 },
  { "RemoteSessionWeight", SD_BUS_TYPE_UINT64 },
  { "TerminalWeight", SD_BUS_TYPE_UINT64 },
};

static gboolean
parse_boolean (const char *text, int *ret)
{
  /* what ttygroup.conf takes */
  static const char *const yes[] = { "true", "yes", "1" };
  static const char *const no[] = { "false", "no", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *ret = 1, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *ret = 0, TRUE;
    }
  return FALSE;
}

static gboolean
parse_number (const char *text, guint64 *ret)
{
  /* decimal digits only: no sign, no spaces, no suffix */
  if (!*text || strspn (text, "0123456789") != strlen (text))
    return FALSE;
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, ret, NULL);
}

static int
unknown_key (const char *key)
{
  g_autoptr(GString) known = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (policy_keys); i++)
    {
      if (g_ascii_strcasecmp (key, policy_keys[i].key) == 0)
        /* Translators: the first %s is the command name (set-policy, set-user-policy);
         * the others are policy key names */
        return usage_error (_("%s: unknown key '%s' (did you mean '%s'?)"), arg_command, key, policy_keys[i].key);
      g_string_append_printf (known, "%s%s", i ? ", " : "", policy_keys[i].key);
    }
  /* Translators: the first %s is the command name (set-policy, set-user-policy); the
   * second the key given, the third the comma-separated list of the policy key names */
  return usage_error (_("%s: unknown key '%s'; the keys are %s"), arg_command, key, known->str);
}

/* Appends the a{sv} of KEY=VALUE arguments to m, or only checks them when m
 * is NULL. 0, EXIT_USAGE (with a message) for anything that cannot be sent
 * as the contract says, or -errno. */
static int
append_changes (sd_bus_message *m, char **args, int n)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int r;

  r = m ? sd_bus_message_open_container (m, SD_BUS_TYPE_ARRAY, "{sv}") : 0;
  if (r < 0)
    return r;
  for (int i = 0; i < n; i++)
    {
      const char *eq = strchr (args[i], '=');
      g_autofree char *key = NULL;
      const char *value;
      char type = 0;

      if (!eq || eq == args[i])
        /* Translators: the first %s is the command name (set-policy, set-user-policy);
         * KEY=VALUE is the syntax of its arguments (may be translated like in the --help text) */
        return usage_error (_("%s: expected KEY=VALUE, got '%s'"), arg_command, args[i]);
      key = g_strndup (args[i], eq - args[i]);
      value = eq + 1;
      for (guint k = 0; k < G_N_ELEMENTS (policy_keys); k++)
        if (g_str_equal (key, policy_keys[k].key))
          type = policy_keys[k].type;
      if (!type)
        return unknown_key (key);
      if (!g_hash_table_add (seen, g_strdup (key)))
        /* Translators: the first %s is the command name (set-policy, set-user-policy);
         * the second a policy key name */
        return usage_error (_("%s: %s given twice"), arg_command, key);

      if (type == SD_BUS_TYPE_BOOLEAN)
        {
          int b;

          if (!parse_boolean (value, &b))
            /* Translators: the first %s is the command name (set-policy, set-user-policy);
             * the second a policy key name, the third the value given. true/false, yes/no
             * and 1/0 are the values it takes: keep them in English */
            return usage_error (_("%s: %s takes a boolean (true/false, yes/no, 1/0), not '%s'"), arg_command, key, value);
          r = m ? sd_bus_message_append (m, "{sv}", key, "b", b) : 0;
        }
      else
        {
          guint64 t;

          if (!parse_number (value, &t))
            /* Translators: the first %s is the command name (set-policy, set-user-policy);
             * the second a policy key name, the third the value given */
            return usage_error (_("%s: %s takes a weight (a decimal number), not '%s'"), arg_command, key, value);
          r = m ? sd_bus_message_append (m, "{sv}", key, "t", (uint64_t) t) : 0;
        }
      if (r < 0)
        return r;
    }
  r = m ? sd_bus_message_close_container (m) : 0;
  return r < 0 ? r : 0;
}

static int
set_policy (const char *method, char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  /* A usage error must not need (or wait for) the bus. */
  r = append_changes (NULL, args, n);
  if (r != 0)
    return r;

  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  if (new_call (bus, method, &call) < 0)
    return EXIT_FAIL;
  r = append_changes (call, args, n);
  if (r == 0)
    r = sd_bus_message_set_allow_interactive_authorization (call, !arg_no_ask_password);
  if (r < 0)
    {
      /* Translators: the first %s is a D-Bus method name, the second the system error text */
      print_error (_("Failed to create the %s call: %s"), method, g_strerror (-r));
      return EXIT_FAIL;
    }

  agent_open ();
  r = sd_bus_call (bus, call, arg_no_ask_password ? 0 : INTERACTIVE_TIMEOUT_USEC, &error, &reply);
  agent_close ();
  if (r < 0)
    return call_failed (method, &error, r);
  return EXIT_OK;
}

static int
cmd_set_policy (char **args, int n)
{
  return set_policy ("SetPolicy", args, n);
}

static int
cmd_set_user_policy (char **args, int n)
{
  return set_policy ("SetUserPolicy", args, n);
}

static int
cmd_enable (char **args, int n)
{
  char *change[] = { (char *) "Enabled=true", NULL };

  return set_policy ("SetPolicy", change, 1);
}

static int
cmd_disable (char **args, int n)
{
  char *change[] = { (char *) "Enabled=false", NULL };

  return set_policy ("SetPolicy", change, 1);
}

typedef struct {
  const char *name;
  int min_args;
  int max_args; /* -1: any number */
  int (*run) (char **args, int n);
} Command;

static const Command commands[] = {
  { "status", 0, 0, cmd_status },
  { "list", 0, 0, cmd_list },
  { "explain", 1, 1, cmd_explain },
  { "get-policy", 0, 0, cmd_get_policy },
  { "set-policy", 1, -1, cmd_set_policy },
  { "set-user-policy", 1, -1, cmd_set_user_policy },
  { "enable", 0, 0, cmd_enable },
  { "disable", 0, 0, cmd_disable },
};

/* The --help text after the options, in paragraphs. */
static const char *const description[] = {
  /* Translators: the commands of ttygroupctl. Keep the command names, KEY=VALUE
   * (or translate it consistently), PID, $$, Enabled, GroupTerminals,
   * TerminalWeight, true/false and the polkit action ids as they are; keep the
   * second column aligned and the lines under 80 columns */
  N_("Commands:\n"
     "  status               Version, whether grouping is on, diagnostics\n"
     "  list                 The groups: sessions and terminals, with unit and weight\n"
     "  explain PID          Where a process is grouped, and why (e.g. explain $$)\n"
     "  get-policy           The system policy, as KEY=VALUE lines\n"
     "  set-policy KEY=VALUE...\n"
     "                       Change policy keys (polkit: org.ttygroup1.set-policy)\n"
     "  set-user-policy KEY=VALUE...\n"
     "                       Change your own sessions' Enabled, GroupTerminals or\n"
     "                       TerminalWeight, within the system policy (polkit:\n"
     "                       org.ttygroup1.set-user-policy)\n"
     "  enable, disable      Same as set-policy Enabled=true / Enabled=false"),
  /* Translators: only "Policy keys:" is to be translated: the key names and
   * their values are what set-policy and ttygroup.conf take */
  N_("Policy keys:\n"
     "  Enabled, GroupTerminals, ManageGreeter                 true/false, yes/no, 1/0\n"
     "  ActiveSessionWeight, SessionWeight, RemoteSessionWeight,\n"
     "  TerminalWeight                                         1..10000"),
  /* Translators: keep ttygroupctl(1) and org.ttygroup1(5) (manual pages) as they are */
  N_("Exit status: 0 on success, 1 when the call failed (the D-Bus error is printed),\n"
     "2 for a wrong command line. See ttygroupctl(1) and org.ttygroup1(5)."),
};

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) ctx = NULL;
  g_autoptr(GError) error = NULL;
  gboolean version = FALSE;
  const Command *cmd = NULL;
  int n, r;
  g_autofree char *help_text = NULL;
  /* The descriptions are translated by GOption (its translation domain) */
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &arg_json, N_("Print JSON (one document on one line)"), NULL },
    { "no-ask-password", 0, 0, G_OPTION_ARG_NONE, &arg_no_ask_password,
      N_("Do not ask for a password when polkit wants one: fail instead"), NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version and exit"), NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Translators: the arguments in "Usage: ttygroupctl [OPTION...] COMMAND [ARGS...]" */
  ctx = g_option_context_new (_("COMMAND [ARGS...]"));
  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  g_option_context_set_summary (ctx, _("Query and change ttygroupd, the per-session and per-terminal CPU groups."));
  help_text = g_strjoin ("\n\n", _(description[0]), _(description[1]), _(description[2]), NULL);
  g_option_context_set_description (ctx, help_text);
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    return usage_error ("%s", error->message);
  if (version)
    {
      printf ("ttygroupctl %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }
  if (argc < 2)
    return usage_error ("%s", _("no command given"));

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      cmd = &commands[i];
  if (!cmd)
    return usage_error (_("unknown command '%s'"), argv[1]);

  n = argc - 2;
  if (n < cmd->min_args)
    /* Translators: %s is a command name (explain, set-policy...) */
    return usage_error (_("%s: missing argument"), cmd->name);
  if (cmd->max_args >= 0 && n > cmd->max_args)
    /* Translators: the first %s is a command name (explain, status...), the
     * second the argument given */
    return usage_error (_("%s: unexpected argument '%s'"), cmd->name, argv[2 + cmd->max_args]);

  arg_command = cmd->name;
  r = cmd->run (argv + 2, n);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      print_error (_("Failed to write the output: %s"), g_strerror (errno));
      return EXIT_FAIL;
    }
  return r;
}
