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

guint64
ttg_model_session_weight (const TtgPolicy *p, const TtgSession *s)
{
  const char *reason;

  g_return_val_if_fail (p != NULL, TTG_WEIGHT_UNSET);
  g_return_val_if_fail (s != NULL, TTG_WEIGHT_UNSET);

  return decide_session_weight (p, s, &reason);
}

const char *
ttg_model_session_weight_reason (const TtgPolicy *p, const TtgSession *s)
{
  const char *reason;

  g_return_val_if_fail (p != NULL, NULL);
  g_return_val_if_fail (s != NULL, NULL);

  decide_session_weight (p, s, &reason);
  return reason;
}

gboolean
ttg_model_session_splits_terminals (const TtgPolicy *p, const TtgSession *s)
{
  g_return_val_if_fail (p != NULL, FALSE);

  if (s == NULL)
    return FALSE;

  return p->enabled &&
         p->group_terminals &&
         is_user_class (s->klass) &&
         !is_closing (s) &&
         s->is_display;
}

guint64
ttg_model_terminal_weight (const TtgPolicy *p, const TtgSession *s)
{
  g_return_val_if_fail (p != NULL, TTG_WEIGHT_UNSET);

  if (!p->enabled)
    return TTG_WEIGHT_UNSET;

  return p->terminal_weight;
}

gboolean
ttg_model_process_starts_group (const TtgPolicy   *p,
                                const TtgProcStat *st,
                                gboolean           in_session_scope,
                                const TtgSession  *s,
                                guint             *pts_index)
{
  guint index;

  g_return_val_if_fail (p != NULL, FALSE);
  g_return_val_if_fail (st != NULL, FALSE);

  if (s == NULL)
    return FALSE;

  if (st->pid <= 0 || st->session != st->pid)
    return FALSE;

  if (!ttg_tty_nr_is_pts (st->tty_nr, &index))
    return FALSE;

  /* logind may still be moving a fresh login into its scope; a process
   * anywhere else (already grouped, another scope) is not ours to take. */
  if (!in_session_scope)
    return FALSE;

  if (!ttg_model_session_splits_terminals (p, s))
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

gboolean
ttg_model_is_login_terminal (const TtgSession *s, const TtgProcStat *st, guint pts_index,
                             const TtgProcStat *ancestors, guint n_ancestors)
{
  if (!s || !st)
    return FALSE;
  if (ttg_model_pty_is_session_tty (s, pts_index))
    return TRUE;
  if (s->leader <= 0)
    return FALSE;
  if (st->pid == s->leader)
    return TRUE;
  for (guint i = 0; i < n_ancestors; i++)
    {
      if (ancestors[i].pid == s->leader)
        return TRUE;
      if (ancestors[i].tty_nr != 0)
        return FALSE; /* opened from a terminal: a terminal inside the session */
    }
  return FALSE;
}

char *
ttg_env_text_get (const char *text, const char *key)
{
  g_auto(GStrv) lines = NULL;
  gsize klen;

  if (!text || !key || !*key)
    return NULL;
  klen = strlen (key);
  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    if (strncmp (*l, key, klen) == 0 && (*l)[klen] == '=')
      return g_strdup (*l + klen + 1);
  return NULL;
}
