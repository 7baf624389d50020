/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What the files of ttygroupctl share: the options given, the messages, the
 * bus, the output helpers and the commands. */

#include <glib.h>
#include <systemd/sd-bus.h>

#include "ttg-bus.h"
#include "ttg-policy-keys.h"
#include "ctl-parse.h"
#include "ctl-text.h"

G_BEGIN_DECLS

/* The daemon's idiom (daemon/util.h), without its logging and cgroup helpers. */
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus, sd_bus_flush_close_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (sd_bus_message, sd_bus_message_unref)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (sd_bus_error, sd_bus_error_free)

#define EXIT_OK 0
#define EXIT_FAIL 1  /* the call failed: D-Bus error, no bus, bad reply */
#define EXIT_USAGE 2 /* the command line is wrong; nothing was sent */

/* A password prompt may take a while; a service that does not answer at all
 * should still not hang a script forever. */
#define INTERACTIVE_TIMEOUT_USEC (5 * 60 * G_USEC_PER_SEC)

/* The options of the command line (ctl-main.c). */
extern JsonMode arg_json;
extern gboolean arg_no_ask_password;
extern gboolean arg_no_legend;
extern gboolean arg_no_pager;
/* The terminal's width when ttygroupctl started (before any pager), 0 when
 * stdout is no terminal: tables are fitted to it. */
extern guint arg_columns;
/* top: --delay (microseconds, default 1 s) and --iterations (0: until ^C
 * on a terminal, one snapshot otherwise) (ctl-top.c). */
extern gint64 arg_delay_usec;
extern guint arg_iterations;
/* metrics --output=FILE: write there, atomically, instead of stdout (ctl-metrics.c). */
extern const char *arg_output;
/* The command being run, for its messages (ctl-util.c). */
extern const char *arg_command;

/* ------------------------------------------------ messages (ctl-util.c) -- */

/* "ttygroupctl: MESSAGE" on stderr; the message is translated by the
 * caller, the prefix and the newline are not part of it. */
void print_error (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* print_error() and the pointer to --help; returns EXIT_USAGE. */
int usage_error (const char *format, ...) G_GNUC_PRINTF (1, 2);

/* ----------------------------------------------------- bus (ctl-bus.c) -- */

/* r < 0 from an sd_bus call: prints the D-Bus error (or the errno text) with
 * a hint where one helps; returns EXIT_FAIL. */
int call_failed (const char *what, const sd_bus_error *error, int r);
/* A reply not of the contract's type; returns EXIT_FAIL. */
int reply_malformed (const char *what, int r);

/* The user's name, or the uid in buf when it has none. */
const char *user_name (uid_t uid, char *buf, size_t size);

/* A signalfd for SIGINT and SIGTERM (both blocked from now on), so that
 * monitor and top end with exit 0 on them, even in the middle of a wait,
 * and no signal is lost between two waits. -errno on failure. */
int open_signal_fd (void);
/* EXIT_OK with *ret set, or EXIT_FAIL after a message. */
int bus_connect (sd_bus **ret);
/* Starts pkttyagent for the call to come when a password may be asked
 * (a terminal, not root, no --no-ask-password); agent_close() stops it. */
void agent_open (void);
void agent_close (void);
/* The Effective and Limitations properties; EXIT_OK, or EXIT_FAIL after a
 * message. */
int get_effective (sd_bus *bus, gboolean *effective, char ***limitations);
/* A method call of org.ttygroup1.Manager; r < 0 after a message. */
int new_call (sd_bus *bus, const char *member, sd_bus_message **ret);

/* ----------------------------------------------- output (ctl-output.c) -- */

/* Reads the next complete value of m (any D-Bus type) and appends it as
 * JSON, or as text for people (booleans yes/no, strings bare). */
int append_value (sd_bus_message *m, GString *out, gboolean json);

/* Text for people: "Key: value" lines with the values aligned. */
typedef struct {
  GPtrArray *keys;
  GPtrArray *values;
} Rows;

void rows_init (Rows *rows);
void rows_clear (Rows *rows);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Rows, rows_clear)
/* value is made safe for a terminal; "" is shown as "-". */
void rows_add (Rows *rows, const char *key, const char *value);
void rows_print (const Rows *rows, const char *separator);

/* Walks an a{sv} at the current position of m: entry() is called with each
 * key and must read the variant that follows (or skip it). */
typedef int (*DictEntryFunc) (sd_bus_message *m, const char *key, gpointer data);
int walk_dict (sd_bus_message *m, DictEntryFunc entry, gpointer data);
/* Walks an a{sv} at the current position of m: adds each entry to rows (as
 * text), or to json as the members of an object (without the braces). */
int read_dict (sd_bus_message *m, Rows *rows, GString *json);
/* Prints one JSON document and a newline: as built (one line) for
 * --json=short, indented for --json=pretty. */
void print_json (GString *json);

/* Pipes stdout through $SYSTEMD_PAGER, $PAGER or "less" (LESS=FRSXMK unless
 * set) when stdout is a terminal and --no-pager was not given, as systemctl
 * does; pager_close() waits for it. */
void pager_open (void);
void pager_close (void);

/* ------------------------------------------------------------ commands -- */

int cmd_status (char **args, int n);
int cmd_list (char **args, int n);
int cmd_explain (char **args, int n);
int cmd_get_policy (char **args, int n);
int cmd_set_policy (char **args, int n);
int cmd_set_user_policy (char **args, int n);
int cmd_enable (char **args, int n);
int cmd_disable (char **args, int n);
int cmd_monitor (char **args, int n);
int cmd_top (char **args, int n);
int cmd_metrics (char **args, int n);

/* The values --delay and --iterations take: seconds (a decimal number,
 * "0.5", from 0.1 to 3600) and a count (1 to 1000000). FALSE for anything
 * else. */
#define CTL_TOP_DELAY_MIN_SECS 0.1
#define CTL_TOP_DELAY_MAX_SECS 3600.0
#define CTL_TOP_ITERATIONS_MAX 1000000
gboolean ctl_top_parse_delay (const char *text, gint64 *usec);
gboolean ctl_top_parse_iterations (const char *text, guint *n);

G_END_DECLS
