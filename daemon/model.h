/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "policy.h"
#include "procstat.h"

G_BEGIN_DECLS

/* What logind says about one session (sd-login). Strings are owned. */
typedef struct {
  char *id;
  uid_t uid;
  char *klass;  /* "user", "greeter", "lock-screen", "background", ... */
  char *type;   /* "tty", "x11", "wayland", "unspecified", ... */
  char *state;  /* "online", "active", "closing" */
  char *seat;   /* NULL when the session has no seat */
  char *tty;    /* "pts/3", "tty5" or NULL */
  gboolean remote;
  gboolean active;     /* sd_session_is_active */
  gboolean is_display; /* this session is sd_uid_get_display(uid) */
  pid_t leader;        /* the process logind registered the session for; 0 if unknown */
} TtgSession;

TtgSession *ttg_session_new (const char *id);
void ttg_session_free (TtgSession *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgSession, ttg_session_free)

/* "session-<id>.scope", newly allocated. */
char *ttg_session_scope_name (const char *session_id);

/* The CPUWeight the policy wants on the session's scope; TTG_WEIGHT_UNSET
 * when the service must not set one (grouping disabled, or a greeter /
 * lock-screen session while ManageGreeter is false, or a closing session). */
guint64 ttg_model_session_weight (const TtgPolicy *p, const TtgSession *s);

/* Why the session gets that weight, for logs and (later) the API:
 * "active session of seat0", "remote session", "disabled", ... static string. */
const char *ttg_model_session_weight_reason (const TtgPolicy *p, const TtgSession *s);

/* TRUE when ptys of this session are split into their own groups: enabled,
 * GroupTerminals, class "user", not closing, and it is the user's display
 * session (see DESIGN.md: moving a process out of a session scope makes polkit
 * judge it by the display session). */
gboolean ttg_model_session_splits_terminals (const TtgPolicy *p, const TtgSession *s);

/* Weight of each pty group of the session. */
guint64 ttg_model_terminal_weight (const TtgPolicy *p, const TtgSession *s);

/* Decides whether a process starts a pty group: it is a kernel session leader
 * (session == pid), its controlling tty is a pty, it sits in the scope of
 * logind session s (in_session_scope: its cgroup is exactly
 * session-<s->id>.scope), and s splits terminals. s may be NULL (unknown
 * session): then FALSE. On TRUE, *pts_index gets the pty number. */
gboolean ttg_model_process_starts_group (const TtgPolicy *p, const TtgProcStat *st,
                                         gboolean in_session_scope, const TtgSession *s,
                                         guint *pts_index);

/* TRUE when pts/<pts_index> is the session's own terminal (s->tty is
 * "pts/<pts_index>"): that terminal is the session itself and stays in the
 * session scope; only further ptys opened inside the session are split. */
gboolean ttg_model_pty_is_session_tty (const TtgSession *s, guint pts_index);

/* TRUE when the process st on pts/<pts_index> is the session's own login
 * terminal, which stays in the session scope (it is the session itself):
 * its pty is the session's TTY, or it is the session's leader (login(1) on
 * the pty), or it descends from the leader through processes without a
 * terminal (sshd: the leader is the privileged monitor, the shell's parent
 * its unprivileged child; logind's TTY of an ssh session is not the pty).
 * ancestors: st's parent, grandparent, ... as far as known (n of them). A
 * terminal opened inside the session (script, tmux) has an ancestor with a
 * terminal, or none leading to the leader. */
gboolean ttg_model_is_login_terminal (const TtgSession *s, const TtgProcStat *st, guint pts_index,
                                      const TtgProcStat *ancestors, guint n_ancestors);

/* The value of KEY in an environment-style file ("KEY=value" lines, as
 * logind's /run/systemd/sessions/<id>), newly allocated, or NULL. */
char *ttg_env_text_get (const char *text, const char *key);

/* A pty group's unit: "ttygroup-pty-<session>-<leaderpid>.scope". Deterministic
 * so a restarted service finds and never duplicates it. NULL if the session id
 * is invalid. */
char *ttg_pty_unit_name (const char *session_id, pid_t leader);
/* Parses such a name; FALSE for anything else (other prefixes, bad pid, ...). */
gboolean ttg_pty_unit_name_parse (const char *unit, char **session_id, pid_t *leader);

/* "Terminal pts/3 of session 4 (make)". comm may be NULL or empty: then no
 * parenthesised part. Control characters in comm are replaced by '?'. */
char *ttg_pty_unit_description (guint pts_index, const char *session_id, const char *comm);

G_END_DECLS
