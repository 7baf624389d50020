/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ttygroupctl: its messages, shared by every command. No bus here. */
#include "build-config.h"

#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/signalfd.h>

#include <glib/gi18n.h>

#include "ctl.h"

const char *arg_command;

static void G_GNUC_PRINTF (1, 0)
print_error_va (const char *format, va_list ap)
{
  g_autofree char *msg = g_strdup_vprintf (format, ap);

  g_printerr ("ttygroupctl: %s\n", msg);
}

/* "ttygroupctl: MESSAGE" on stderr; the message is translated by the
 * caller, the prefix and the newline are not part of it. */
void
print_error (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  print_error_va (format, ap);
  va_end (ap);
}

int
usage_error (const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  print_error_va (format, ap);
  va_end (ap);
  g_printerr ("%s\n", _("Try 'ttygroupctl --help' for more information."));
  return EXIT_USAGE;
}

const char *
user_name (uid_t uid, char *buf, size_t size)
{
  struct passwd *pw = getpwuid (uid);

  if (pw && pw->pw_name)
    return pw->pw_name;
  g_snprintf (buf, size, "%u", (unsigned) uid);
  return buf;
}

int
open_signal_fd (void)
{
  sigset_t mask;

  sigemptyset (&mask);
  sigaddset (&mask, SIGINT);
  sigaddset (&mask, SIGTERM);
  if (sigprocmask (SIG_BLOCK, &mask, NULL) < 0)
    return -errno;
  return signalfd (-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}
