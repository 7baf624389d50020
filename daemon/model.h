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
  char *service; /* the PAM service that opened it: "sshd", "login", "su", ... or NULL */
  gboolean remote;
  gboolean active;     /* sd_session_is_active */
  gboolean is_display; /* this session is sd_uid_get_display(uid) */
  pid_t leader;        /* the process logind registered the session for; 0 if unknown */
  char *cgroup;        /* its scope's cgroup path (where its leader is); NULL if not known */
} TtgSession;

TtgSession *ttg_session_new (const char *id);
void ttg_session_free (TtgSession *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtgSession, ttg_session_free)

/* "session-<id>.scope", newly allocated. */
char *ttg_session_scope_name (const char *session_id);

/* Everything decided about one session, with the reasons, in one place
 * (one branch decides each weight and its reason, so they cannot disagree):
 * the manager judges each session once per change of the sessions or the
 * policies, and reconcile, explain, the journal and the API read that. */
/* The session's weight is TTG_WEIGHT_UNSET (the service must not set one)
 * when grouping is disabled, for a greeter / lock-screen session while
 * ManageGreeter is false, and for a closing session. Its ptys are split
 * when grouping and GroupTerminals are on, it is a user session that is not
 * closing, and it is the user's display session (moving a process out of a
 * session scope makes polkit judge it by the user's display session). */
typedef struct {
  gboolean grouped;             /* the policy that rules it groups at all (else
                                 * split_reason says whose choice that was) */
  guint64 session_weight;       /* for its scope; TTG_WEIGHT_UNSET: leave it as it is */
  const char *session_reason;   /* why: "active session of its seat", ... */
  gboolean splits_terminals;    /* its ptys get groups of their own */
  const char *split_reason;     /* why (not), to follow "because": "its user turned
                                 * grouping off (SetUserPolicy)", ... */
  guint64 terminal_weight;      /* of each of its pty groups */
} TtgVerdict;

/* Judges session s (NULL: it is gone) under p, the policy that rules it
 * (the system's, narrowed by its user's), and system, the system policy,
 * which tells a user's choice from the admin's. Reasons are static strings. */
void ttg_model_judge_session (const TtgPolicy *system, const TtgPolicy *p, const TtgSession *s,
                              TtgVerdict *out);

/* Decides whether a process starts a pty group: it is a kernel session leader
 * (session == pid), its controlling tty is a pty, and v, the verdict on the
 * logind session whose scope it sits in, splits terminals. v may be NULL
 * (unknown session): then FALSE. On TRUE, *pts_index gets the pty number. */
gboolean ttg_model_process_starts_group (const TtgVerdict *v, const TtgProcStat *st, guint *pts_index);

/* TRUE when pts/<pts_index> is the session's TTY as logind has it ("pts/N"). */
gboolean ttg_model_pty_is_session_tty (const TtgSession *s, guint pts_index);

/* What a pty of a session is, for the process st that leads it (kernel
 * session leader on pts/<pts_index>), decided from what logind says of the
 * session (Type, TTY, Service, Leader), never from how deep st sits:
 *   - graphical sessions (x11, wayland, mir) have no login terminal: every
 *     pty there is a terminal emulator's, at any depth;
 *   - a session with a TTY: that pty is its login terminal, every other one
 *     was opened inside it;
 *   - an ssh login (Type=tty, Service=sshd, no TTY): the login terminal is the
 *     pty whose leader's parent is a child of logind's Leader (sshd's monitor)
 *     without a terminal; parent is st's parent as read now (NULL if gone);
 *   - any other session without a TTY has no login terminal.
 * Login terminals stay in the session scope (they are the session itself);
 * the other roles get a group of their own. */
typedef enum {
  TTG_PTY_LOGIN_TTY,                   /* the session's TTY */
  TTG_PTY_LOGIN_GIVEN_BY_LEADER,       /* ssh: the pty sshd gave the login's shell */
  TTG_PTY_IN_GRAPHICAL_SESSION,        /* a terminal of an x11/wayland/mir session */
  TTG_PTY_IN_TEXT_SESSION,             /* opened inside a session that has a login terminal */
  TTG_PTY_IN_SESSION_WITHOUT_TERMINAL, /* opened in a session without any terminal */
} TtgPtyRole;

TtgPtyRole ttg_model_pty_role (const TtgSession *s, const TtgProcStat *st, guint pts_index,
                               const TtgProcStat *parent);
gboolean ttg_pty_role_is_login (TtgPtyRole role);
/* The decision in words, for `ttygroupctl explain` and the journal. */
char *ttg_pty_role_explain (TtgPtyRole role, const TtgSession *s, guint pts_index);

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
