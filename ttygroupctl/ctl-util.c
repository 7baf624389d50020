/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: its messages, shared by every command. No bus here. */
#include "build-config.h"

#include <stdarg.h>
#include <stdio.h>

#include <glib/gi18n.h>

#include "ctl.h"

const char *arg_command;

/* "ttygroupctl: MESSAGE" on stderr; the message is translated by the
 * caller, the prefix and the newline are not part of it. */
void
print_error (const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_printerr ("ttygroupctl: %s\n", msg);
}

int
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
