/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl top: the groups sorted by CPU, with their pressure, again
 * every --delay seconds (ListGroupStats), like systemd-cgtop. On a terminal
 * the screen is redrawn until ^C; with --iterations=N, or when stdout is no
 * terminal, N snapshots are printed one after the other (no screen control),
 * for scripts and tests. */
#include "build-config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "ctl.h"
#include "ctl-table.h"

gint64 arg_delay_usec = G_USEC_PER_SEC;
guint arg_iterations;

gboolean
ctl_top_parse_delay (const char *text, gint64 *usec)
{
  char *end = NULL;
  double secs;

  if (!text || !g_ascii_isdigit (text[0]))
    return FALSE;
  secs = g_ascii_strtod (text, &end);
  if (*end != '\0' || secs < CTL_TOP_DELAY_MIN_SECS || secs > CTL_TOP_DELAY_MAX_SECS)
    return FALSE;
  *usec = (gint64) (secs * G_USEC_PER_SEC);
  return TRUE;
}

gboolean
ctl_top_parse_iterations (const char *text, guint *n)
{
  guint64 v;

  if (!text || !g_ascii_string_to_unsigned (text, 10, 1, CTL_TOP_ITERATIONS_MAX, &v, NULL))
    return FALSE;
  *n = (guint) v;
  return TRUE;
}

/* One group of ListGroupStats. */
typedef struct {
  char *unit;
  char *session;
  guint32 uid;
  char *kind;
  char *tty;
  guint32 leader;
  guint64 weight;
  char *description;
  double cpu;
  double pressure;
} Row;

static void
row_clear (gpointer p)
{
  Row *row = p;

  g_free (row->unit);
  g_free (row->session);
  g_free (row->kind);
  g_free (row->tty);
  g_free (row->description);
}

/* Busiest first; unknown rates (-1) last; ties by unit, so the order does
 * not flicker between two refreshes. */
static gint
compare_rows (gconstpointer a, gconstpointer b)
{
  const Row *x = a, *y = b;

  if (x->cpu != y->cpu)
    return x->cpu > y->cpu ? -1 : 1;
  return g_strcmp0 (x->unit, y->unit);
}

static int
fetch (sd_bus *bus, GArray *rows)
{
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) call = NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  const char *unit, *session, *kind, *tty, *description;
  uint32_t uid, leader;
  uint64_t weight;
  double cpu, pressure;
  int r;

  g_array_set_size (rows, 0);
  if (new_call (bus, "ListGroupStats", &call) < 0)
    return EXIT_FAIL;
  r = sd_bus_call (bus, call, 0, &error, &reply);
  if (r < 0)
    return call_failed ("ListGroupStats", &error, r);
  r = sd_bus_message_enter_container (reply, SD_BUS_TYPE_ARRAY, "(ssussutsdd)");
  if (r < 0)
    return reply_malformed ("ListGroupStats", r);
  while ((r = sd_bus_message_read (reply, "(ssussutsdd)", &unit, &session, &uid, &kind, &tty, &leader,
                                   &weight, &description, &cpu, &pressure)) > 0)
    {
      Row row = {
        g_strdup (unit), g_strdup (session), uid, g_strdup (kind), g_strdup (tty), leader, weight,
        g_strdup (description), cpu, pressure,
      };

      g_array_append_val (rows, row);
    }
  if (r < 0)
    return reply_malformed ("ListGroupStats", r);
  g_array_sort (rows, compare_rows);
  return EXIT_OK;
}

/* A figure of the service, or "-" for -1 (not known). */
static char *
figure (double v, int decimals)
{
  return v < 0 ? g_strdup ("-") : g_strdup_printf ("%.*f", decimals, v);
}

static void
print_json_snapshot (GArray *rows)
{
  g_autoptr(GString) json = g_string_new ("[");

  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = &g_array_index (rows, Row, i);
      char num[G_ASCII_DTOSTR_BUF_SIZE];

      if (i > 0)
        g_string_append_c (json, ',');
      ctl_group_json (json, row->unit, row->session, row->uid, row->kind, row->tty, row->leader, row->weight,
                      row->description);
      /* The object is closed: reopen it for the two figures (null: not known). */
      g_string_truncate (json, json->len - 1);
      g_string_append (json, ",\"Cpu\":");
      g_string_append (json, row->cpu < 0 ? "null" : g_ascii_formatd (num, sizeof num, "%.1f", row->cpu));
      g_string_append (json, ",\"Pressure\":");
      g_string_append (json, row->pressure < 0 ? "null" : g_ascii_formatd (num, sizeof num, "%.2f", row->pressure));
      g_string_append_c (json, '}');
    }
  g_string_append_c (json, ']');
  print_json (json);
}

/* How many groups fit the terminal below the title and the header; all of
 * them when its height is not known. */
static guint
rows_that_fit (guint n)
{
  struct winsize ws = { 0 };
  guint above = arg_no_legend ? 0 : 3;

  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_row <= above + 1)
    return n;
  return MIN (n, ws.ws_row - above - 1u);
}

static void
print_table_snapshot (GArray *rows, gboolean live)
{
  static const char *const header[] = {
    /* Translators: a column header of "ttygroupctl top": the systemd unit */
    N_("UNIT"),
    /* Translators: a column header of "ttygroupctl top": session or terminal */
    N_("KIND"),
    /* Translators: a column header of "ttygroupctl top": the terminal (tty) name */
    N_("TTY"),
    /* Translators: a column header of "ttygroupctl top": the user name */
    N_("USER"),
    /* Translators: a column header of "ttygroupctl top": CPU used, in percent of one CPU */
    N_("CPU%"),
    /* Translators: a column header of "ttygroupctl top": cpu.pressure, the share of the
     * last 10 s in which the group's tasks waited for a CPU */
    N_("PRESSURE"),
    /* Translators: a column header of "ttygroupctl top": the group's CPU weight */
    N_("WEIGHT"),
  };
  enum { COLUMNS = G_N_ELEMENTS (header) };
  const char *titles[COLUMNS];
  g_autoptr(CtlTable) table = NULL;
  g_autofree char *text = NULL;

  for (guint c = 0; c < COLUMNS; c++)
    titles[c] = _(header[c]);
  /* on a narrow terminal the unit is cut; the figures stay whole */
  table = ctl_table_new (titles, COLUMNS, 1u << 0);
  /* a live view shows the busiest that fit the screen, as top does */
  for (guint i = 0; i < (live ? rows_that_fit (rows->len) : rows->len); i++)
    {
      Row *row = &g_array_index (rows, Row, i);
      char buf[32];
      g_autofree char *unit = text_safe (row->unit);
      g_autofree char *kind = text_safe (row->kind);
      g_autofree char *tty = text_safe (*row->tty ? row->tty : "-");
      g_autofree char *user = text_safe (user_name (row->uid, buf, sizeof buf));
      g_autofree char *cpu = figure (row->cpu, 1);
      g_autofree char *pressure = figure (row->pressure, 2);
      g_autofree char *weight = row->weight ? g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) row->weight)
                                            : g_strdup ("-");
      const char *cells[COLUMNS] = { unit, kind, tty, user, cpu, pressure, weight };

      ctl_table_add_row (table, cells);
    }
  ctl_table_set_width (table, arg_columns);
  ctl_table_set_header (table, !arg_no_legend);

  if (live)
    /* home, clear the screen: the next snapshot replaces this one */
    fputs ("\033[H\033[2J", stdout);
  if (!arg_no_legend)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *clock = g_date_time_format (now, "%H:%M:%S");

      /* Translators: the first line of "ttygroupctl top": %s is the time of
       * day, %u the number of groups, %.1f the refresh delay in seconds */
      printf (ngettext ("%s  %u group, every %.1f s", "%s  %u groups, every %.1f s", rows->len), clock, rows->len,
              (double) arg_delay_usec / G_USEC_PER_SEC);
      if (live)
        /* Translators: after the first line of "ttygroupctl top" on a terminal */
        printf ("%s", _("  (^C to quit)"));
      printf ("\n\n");
    }
  if (rows->len == 0)
    {
      if (!arg_no_legend)
        printf ("%s\n", _("No groups."));
    }
  else
    {
      text = ctl_table_to_string (table);
      fputs (text, stdout);
    }
}

/* TRUE when the delay passed, FALSE when a signal came. */
static gboolean
wait_delay (int sfd, gint64 deadline)
{
  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();
      struct pollfd pfd = { .fd = sfd, .events = POLLIN };
      int r;

      if (left <= 0)
        return TRUE;
      r = poll (&pfd, 1, (int) MIN ((left + 999) / 1000, G_MAXINT));
      if (r < 0 && errno == EINTR)
        continue;
      if (r > 0 || r < 0)
        return FALSE;
    }
}

int
cmd_top (char **args, int n)
{
  g_autoptr(sd_bus) bus = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  /* Redraw in place only for a person at a terminal who asked for no count. */
  gboolean live = arg_iterations == 0 && isatty (STDOUT_FILENO);
  guint iterations = arg_iterations ? arg_iterations : (live ? 0 : 1);
  int sfd, r = EXIT_OK;

  g_array_set_clear_func (rows, row_clear);
  r = bus_connect (&bus);
  if (r != EXIT_OK)
    return r;
  sfd = open_signal_fd ();
  if (sfd < 0)
    {
      print_error (_("Failed to watch for signals: %s"), g_strerror (-sfd));
      return EXIT_FAIL;
    }

  for (guint i = 0; iterations == 0 || i < iterations; i++)
    {
      gint64 next = g_get_monotonic_time () + arg_delay_usec;

      r = fetch (bus, rows);
      if (r != EXIT_OK)
        break;
      if (i > 0 && !live && arg_json == JSON_OFF)
        printf ("\n");
      if (arg_json != JSON_OFF)
        print_json_snapshot (rows);
      else
        print_table_snapshot (rows, live);
      if (fflush (stdout) != 0)
        break; /* the reader went away; main() tells a real failure */
      if ((iterations == 0 || i + 1 < iterations) && !wait_delay (sfd, next))
        break;
    }
  close (sfd);
  return r;
}
