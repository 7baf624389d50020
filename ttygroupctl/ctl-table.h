/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Tables for people, through libsmartcols: columns aligned by display
 * width (wide characters count twice), and on a terminal the columns that
 * may be truncated are cut to fit its width. No bus: unit-tested. */

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CtlTable CtlTable;

/* n_columns headers (already translated); the columns whose bit is set in
 * trunc_mask (1 << column) may be truncated to fit the width. */
CtlTable *ctl_table_new (const char *const *headers, guint n_columns, guint trunc_mask);
void ctl_table_free (CtlTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CtlTable, ctl_table_free)

/* n_columns cells, safe to print (no control characters). */
void ctl_table_add_row (CtlTable *table, const char *const *cells);
/* The width to fit, in columns; 0 (the default): no limit, nothing is cut,
 * as for output that is not a terminal. */
void ctl_table_set_width (CtlTable *table, guint width);
/* FALSE: no header line (--no-legend). */
void ctl_table_set_header (CtlTable *table, gboolean header);
/* The table as text, lines ending in '\n'; a new string. */
char *ctl_table_to_string (CtlTable *table);

/* The width of the terminal on stdout, from $COLUMNS or the terminal
 * itself; 0 when stdout is not a terminal. */
guint ctl_terminal_width (void);

G_END_DECLS
