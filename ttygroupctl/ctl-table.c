/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "ctl-table.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <libsmartcols.h>

struct _CtlTable {
  struct libscols_table *table;
  guint n_columns;
};

CtlTable *
ctl_table_new (const char *const *headers, guint n_columns, guint trunc_mask)
{
  CtlTable *t = g_new0 (CtlTable, 1);

  t->table = scols_new_table ();
  g_assert (t->table != NULL);
  t->n_columns = n_columns;
  /* the table decides widths; the terminal (or not) is said by set_width */
  scols_table_set_termforce (t->table, SCOLS_TERMFORCE_NEVER);
  for (guint c = 0; c < n_columns; c++)
    {
      int flags = (trunc_mask & (1u << c)) ? SCOLS_FL_TRUNC : 0;
      struct libscols_column *col = scols_table_new_column (t->table, headers[c], 0, flags);

      g_assert (col != NULL);
    }
  return t;
}

void
ctl_table_free (CtlTable *t)
{
  if (!t)
    return;
  scols_unref_table (t->table);
  g_free (t);
}

void
ctl_table_add_row (CtlTable *t, const char *const *cells)
{
  struct libscols_line *line = scols_table_new_line (t->table, NULL);

  g_assert (line != NULL);
  for (guint c = 0; c < t->n_columns; c++)
    g_assert (scols_line_set_data (line, c, cells[c]) == 0);
}

void
ctl_table_set_width (CtlTable *t, guint width)
{
  if (width == 0)
    {
      scols_table_set_termforce (t->table, SCOLS_TERMFORCE_NEVER);
      return;
    }
  scols_table_set_termforce (t->table, SCOLS_TERMFORCE_ALWAYS);
  scols_table_set_termwidth (t->table, width);
}

void
ctl_table_set_header (CtlTable *t, gboolean header)
{
  scols_table_enable_noheadings (t->table, !header);
}

char *
ctl_table_to_string (CtlTable *t)
{
  char *data = NULL;
  g_autoptr(GString) out = NULL;

  g_assert (scols_print_table_to_string (t->table, &data) == 0);
  out = g_string_new (data ? data : "");
  free (data);
  /* every line ends in a newline, the last one too */
  if (out->len > 0 && out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
  return g_string_free (g_steal_pointer (&out), FALSE);
}

guint
ctl_terminal_width (void)
{
  const char *env = g_getenv ("COLUMNS");
  struct winsize ws;
  guint64 n;

  if (!isatty (STDOUT_FILENO))
    return 0;
  if (env && g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT, &n, NULL))
    return (guint) n;
  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 80;
}
