/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Text ttygroupctl writes, without a bus: JSON strings and objects, and
 * strings made safe for a terminal. Unit-tested. */

#include <glib.h>

G_BEGIN_DECLS

/* A JSON string (quoted, escaped; invalid UTF-8 made valid). */
void json_append_string (GString *out, const char *s);
/* Text for a terminal: control characters shown escaped, never sent. */
void text_append_safe (GString *out, const char *s);
char *text_safe (const char *s);

/* One group of ListGroups as the JSON object of "list --json". */
void ctl_group_json (GString *out, const char *unit, const char *session, guint32 uid, const char *kind,
                     const char *tty, guint32 leader, guint64 weight, const char *description);

G_END_DECLS
