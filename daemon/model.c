/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model.h"

#include <string.h>

#define PTY_UNIT_PREFIX "ttygroup-pty-"
#define SCOPE_SUFFIX ".scope"

TtgSession *
ttg_session_new (const char *id)
{
  TtgSession *s = g_new0 (TtgSession, 1);

  s->id = g_strdup (id);
  return s;
}

void
ttg_session_free (TtgSession *s)
{
  if (s == NULL)
    return;

  g_free (s->id);
  g_free (s->klass);
  g_free (s->type);
  g_free (s->state);
  g_free (s->seat);
  g_free (s->tty);
  g_free (s->service);
  g_free (s->cgroup);
  g_free (s);
}

char *
ttg_session_scope_name (const char *session_id)
{
  /* The id goes into a unit name and from there into a cgroup path. */
  g_return_val_if_fail (ttg_session_id_is_valid (session_id), NULL);

  return g_strdup_printf ("session-%s.scope", session_id);
}

/* logind session classes since systemd 256 include "user-early",
 * "user-light" and "user-early-light": interactive logins all the same
 * ("user-incomplete" is a login still waiting for its home, not yet the
 * user's). systemd 252 knows only "user". */
static gboolean
is_user_class (const char *klass)
{
  static const char *const user_classes[] = {
    "user", "user-early", "user-light", "user-early-light", NULL,
  };

  return klass != NULL && g_strv_contains (user_classes, klass);
}

static gboolean
is_greeter_class (const char *klass)
{
  return g_strcmp0 (klass, "greeter") == 0 ||
         g_strcmp0 (klass, "lock-screen") == 0;
}

static gboolean
is_closing (const TtgSession *s)
{
  return g_strcmp0 (s->state, "closing") == 0;
}

/* One decision, two views of it: the weight and the reason come from the
 * same branch, so they cannot disagree. */
static guint64
decide_session_weight (const TtgPolicy *p, const TtgSession *s, const char **reason)
{
  if (!p->enabled)
    {
      *reason = "disabled";
      return TTG_WEIGHT_UNSET;
    }

  if (is_closing (s))
    {
      *reason = "closing session";
      return TTG_WEIGHT_UNSET;
    }

  if (is_greeter_class (s->klass))
    {
      if (!p->manage_greeter)
        {
          *reason = "greeter or lock-screen session, ManageGreeter is off";
          return TTG_WEIGHT_UNSET;
        }
      *reason = "greeter or lock-screen session";
      return p->session_weight;
    }

  if (!is_user_class (s->klass))
    {
      *reason = "not a user session";
      return TTG_WEIGHT_UNSET;
    }

  if (s->remote)
    {
      *reason = "remote session";
      return p->remote_session_weight;
    }

  if (s->active && s->seat != NULL)
    {
      *reason = "active session of its seat";
      return p->active_session_weight;
    }

  if (s->seat != NULL)
    *reason = "inactive session of its seat";
  else
    *reason = "local session without a seat";
  return p->session_weight;
}

/* Why ptys of s are (not) split, under p; NULL when they are. */
static const char *
why_terminals_not_split (const TtgPolicy *system, const TtgPolicy *p, const TtgSession *s)
{
  if (!system->enabled)
    return "grouping is disabled (Enabled=false)";
  if (!p->enabled)
    return "its user turned grouping off (SetUserPolicy)";
  if (!system->group_terminals)
    return "terminal grouping is disabled (GroupTerminals=false)";
  if (!p->group_terminals)
    return "its user turned terminal grouping off (SetUserPolicy)";
  if (s == NULL)
    return "its session is gone";
  if (!is_user_class (s->klass))
    return "it is not a user session";
  if (is_closing (s))
    return "its session is closing";
  if (!s->is_display)
    return "it is not the user's display session, and moving its processes out would change what polkit lets them do";
  return NULL;
}

void
ttg_model_judge_session (const TtgPolicy *system, const TtgPolicy *p, const TtgSession *s,
                         TtgVerdict *out)
{
  const char *not_split;

  g_return_if_fail (system != NULL);
  g_return_if_fail (p != NULL);
  g_return_if_fail (out != NULL);

  if (s != NULL)
    out->session_weight = decide_session_weight (p, s, &out->session_reason);
  else
    {
      out->session_weight = TTG_WEIGHT_UNSET;
      out->session_reason = "session gone";
    }
  out->grouped = p->enabled;
  not_split = why_terminals_not_split (system, p, s);
  out->splits_terminals = not_split == NULL;
  out->split_reason = not_split ? not_split : "it is the user's display session";
  out->terminal_weight = p->enabled ? p->terminal_weight : TTG_WEIGHT_UNSET;
}

gboolean
ttg_model_process_starts_group (const TtgVerdict *v, const TtgProcStat *st, guint *pts_index)
{
  guint index;

  g_return_val_if_fail (st != NULL, FALSE);

  if (v == NULL || !v->splits_terminals)
    return FALSE;

  if (st->pid <= 0 || st->session != st->pid)
    return FALSE;

  if (!ttg_tty_nr_is_pts (st->tty_nr, &index))
    return FALSE;

  if (pts_index != NULL)
    *pts_index = index;
  return TRUE;
}

char *
ttg_pty_unit_name (const char *session_id, pid_t leader)
{
  if (!ttg_session_id_is_valid (session_id) || leader <= 0)
    return NULL;

  return g_strdup_printf (PTY_UNIT_PREFIX "%s-%d" SCOPE_SUFFIX,
                          session_id, (int) leader);
}

/* Exactly what ttg_pty_unit_name() prints for a pid: no sign, no leading
 * zero, so that one pid has one unit name. */
static gboolean
parse_pid (const char *start, const char *end, pid_t *out)
{
  gint64 value = 0;

  if (start == end || *start == '0')
    return FALSE;

  for (const char *c = start; c < end; c++)
    {
      if (!g_ascii_isdigit (*c))
        return FALSE;
      value = value * 10 + (*c - '0');
      if (value > G_MAXINT32)
        return FALSE;
    }

  *out = (pid_t) value;
  return TRUE;
}

gboolean
ttg_pty_unit_name_parse (const char *unit, char **session_id, pid_t *leader)
{
  g_autofree char *id = NULL;
  const char *body;
  const char *end;
  const char *dash;
  pid_t pid;

  if (unit == NULL ||
      !g_str_has_prefix (unit, PTY_UNIT_PREFIX) ||
      !g_str_has_suffix (unit, SCOPE_SUFFIX))
    return FALSE;

  body = unit + strlen (PTY_UNIT_PREFIX);
  end = unit + strlen (unit) - strlen (SCOPE_SUFFIX);
  if (end <= body)
    return FALSE;

  /* Session ids have no '-', so the first one ends the id. */
  dash = memchr (body, '-', end - body);
  if (dash == NULL)
    return FALSE;

  id = g_strndup (body, dash - body);
  if (!ttg_session_id_is_valid (id))
    return FALSE;

  if (!parse_pid (dash + 1, end, &pid))
    return FALSE;

  if (session_id != NULL)
    *session_id = g_steal_pointer (&id);
  if (leader != NULL)
    *leader = pid;
  return TRUE;
}

/* The description goes to systemd over D-Bus, which refuses strings that
 * are not UTF-8, and into logs: comm is whatever the process set, so
 * replace control characters and stray bytes alike. */
static void
append_sanitised (GString *out, const char *text)
{
  const char *end = text + strlen (text);
  const char *c = text;

  while (c < end)
    {
      gunichar u = g_utf8_get_char_validated (c, end - c);

      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          g_string_append_c (out, '?');
          c++;
          continue;
        }

      if (g_unichar_iscntrl (u))
        g_string_append_c (out, '?');
      else
        g_string_append_unichar (out, u);
      c = g_utf8_next_char (c);
    }
}

char *
ttg_pty_unit_description (guint pts_index, const char *session_id, const char *comm)
{
  g_autoptr(GString) str = NULL;

  g_return_val_if_fail (session_id != NULL, NULL);

  str = g_string_new (NULL);
  g_string_append_printf (str, "Terminal pts/%u of session ", pts_index);
  append_sanitised (str, session_id);

  if (comm != NULL && *comm != '\0')
    {
      g_string_append (str, " (");
      append_sanitised (str, comm);
      g_string_append_c (str, ')');
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static gboolean
is_graphical_type (const char *type)
{
  static const char *const graphical[] = { "x11", "wayland", "mir", NULL };

  return type != NULL && g_strv_contains (graphical, type);
}

gboolean
ttg_model_pty_is_session_tty (const TtgSession *s, guint pts_index)
{
  guint64 n;

  if (!s || !s->tty || !g_str_has_prefix (s->tty, "pts/"))
    return FALSE;
  if (!g_ascii_string_to_unsigned (s->tty + 4, 10, 0, G_MAXUINT, &n, NULL))
    return FALSE;
  return n == pts_index;
}

TtgPtyRole
ttg_model_pty_role (const TtgSession *s, const TtgProcStat *st, guint pts_index,
                    const TtgProcStat *parent)
{
  g_return_val_if_fail (s != NULL, TTG_PTY_IN_TEXT_SESSION);
  g_return_val_if_fail (st != NULL, TTG_PTY_IN_TEXT_SESSION);

  /* A display server's session has no terminal of its own: every pty in
   * it is a terminal emulator's (or one opened from one). */
  if (is_graphical_type (s->type))
    return TTG_PTY_IN_GRAPHICAL_SESSION;

  if (s->tty && *s->tty)
    return ttg_model_pty_is_session_tty (s, pts_index) ? TTG_PTY_LOGIN_TTY : TTG_PTY_IN_TEXT_SESSION;

  /* Type=tty without a TTY: what pam_systemd records for sshd, which names
   * its PAM_TTY "ssh" and opens the session before it allocates the pty.
   * logind's leader is sshd's privileged monitor; the login's pty is the one
   * its unprivileged child (itself without a terminal) gives the shell. */
  if (g_strcmp0 (s->type, "tty") != 0 || g_strcmp0 (s->service, "sshd") != 0 || s->leader <= 0)
    return TTG_PTY_IN_SESSION_WITHOUT_TERMINAL;
  if (parent && parent->pid == st->ppid && parent->ppid == s->leader && parent->tty_nr == 0)
    return TTG_PTY_LOGIN_GIVEN_BY_LEADER;
  return TTG_PTY_IN_TEXT_SESSION;
}

gboolean
ttg_pty_role_is_login (TtgPtyRole role)
{
  return role == TTG_PTY_LOGIN_TTY || role == TTG_PTY_LOGIN_GIVEN_BY_LEADER;
}

char *
ttg_pty_role_explain (TtgPtyRole role, const TtgSession *s, guint pts_index)
{
  const char *id = s ? s->id : "?";
  const char *type = s && s->type ? s->type : "unspecified";

  switch (role)
    {
    case TTG_PTY_LOGIN_TTY:
      return g_strdup_printf ("pts/%u is the terminal session %s logged in on (logind: TTY=%s): "
                              "it is the session itself and stays in its scope",
                              pts_index, id, s->tty);
    case TTG_PTY_LOGIN_GIVEN_BY_LEADER:
      return g_strdup_printf ("pts/%u is the terminal sshd gave the shell of ssh login %s (logind: Type=tty, "
                              "no TTY, leader %d): it is the session itself and stays in its scope", pts_index, id, (int) s->leader);
    case TTG_PTY_IN_GRAPHICAL_SESSION:
      return g_strdup_printf ("pts/%u is a terminal opened in the graphical (%s) session %s, which has no "
                              "login terminal: every terminal there gets a group of its own (TerminalWeight)",
                              pts_index, type, id);
    case TTG_PTY_IN_SESSION_WITHOUT_TERMINAL:
      return g_strdup_printf ("pts/%u is a terminal opened in session %s, which logged in without a terminal "
                              "(logind: Type=%s, no TTY): it gets a group of its own (TerminalWeight)",
                              pts_index, id, type);
    case TTG_PTY_IN_TEXT_SESSION:
    default:
      if (s && s->tty && *s->tty)
        return g_strdup_printf ("pts/%u is a terminal opened inside session %s, whose login terminal is %s: "
                                "it gets a group of its own (TerminalWeight)", pts_index, id, s->tty);
      return g_strdup_printf ("pts/%u is a terminal opened inside session %s, not the one its login was "
                              "given: it gets a group of its own (TerminalWeight)", pts_index, id);
    }
}
