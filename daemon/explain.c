/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "explain.h"

#include <string.h>

#include "model.h"
#include "policy.h"
#include "procfs.h"

/* The pty role of the kernel session led by leader, in words; NULL when the
 * leader is gone or not on a pty. */
static char *
pty_role_text (const TtgSession *s, pid_t leader)
{
  TtgProcStat st, parent;
  guint pts;

  if (!s || !ttg_procfs_read_stat (leader, &st) || !ttg_tty_nr_is_pts (st.tty_nr, &pts))
    return NULL;
  return ttg_pty_role_explain (ttg_model_pty_role (s, &st, pts,
                                                   ttg_procfs_read_stat (st.ppid, &parent) ? &parent : NULL),
                               s, pts);
}

static void
explain_terminal_group (const TtgExplainInput *in, const char *session_id, pid_t leader, TtgPidInfo *out)
{
  TtgGroup *g = ttg_groups_lookup (in->groups, out->unit);
  g_autofree char *role_text = NULL;

  out->kind = "terminal";
  out->weight = g && g->weight != TTG_WEIGHT_UNSET ? g->weight : 0;
  if (g && g->rule)
    role_text = g_strdup (g->rule);
  else
    role_text = pty_role_text (g_hash_table_lookup (in->sessions, session_id), leader);
  if (!role_text)
    role_text = g_strdup ("it is a terminal opened inside that session");
  out->rule = g_strdup_printf ("Its terminal (kernel session %d) has a group of its own in session %s, "
                               "the user's display session, because %s", (int) leader, session_id, role_text);
}

static char *
explain_in_session (const TtgExplainInput *in, const char *session_id, const TtgProcStat *st,
                    gboolean has_pts, guint pts)
{
  const TtgSession *s = g_hash_table_lookup (in->sessions, session_id);
  const TtgVerdict *v = g_hash_table_lookup (in->verdicts, session_id);
  g_autofree char *role_text = NULL;
  g_autofree char *held = NULL;

  if (!s || !v)
    return g_strdup_printf ("Session %s is not known to logind any more", session_id);
  if (!v->grouped)
    return g_strdup_printf ("Its session is not grouped, because %s", v->split_reason);
  if (!has_pts)
    return g_strdup_printf ("It has no pty: it belongs to session %s as a whole (%s)", session_id,
                            v->session_reason);
  if (!v->splits_terminals)
    return g_strdup_printf ("Session %s does not split its terminals, because %s: it is grouped as a whole",
                            session_id, v->split_reason);

  role_text = pty_role_text (s, st->session);
  held = ttg_budgets_hold_text (in->budgets, s->uid, st->session,
                                ttg_groups_count_live (in->groups, s->uid));
  if (role_text && held)
    return g_strdup_printf ("pts/%u of session %s would have a group of its own, but stays in the session's "
                            "scope for now: %s", pts, session_id, held);
  if (role_text)
    return g_strdup_printf ("%c%s", g_ascii_toupper (role_text[0]), role_text + 1);
  return g_strdup_printf ("pts/%u of session %s: its terminal's leader (%d) is gone",
                          pts, session_id, (int) st->session);
}

gboolean
ttg_explain_pid (const TtgExplainInput *in, pid_t pid, TtgPidInfo *out, GError **error)
{
  g_autofree char *session_id = NULL;
  TtgProcStat st;
  guint pts = 0;
  gboolean has_pts;
  pid_t leader;

  memset (out, 0, sizeof *out);
  if (!ttg_procfs_read_stat (pid, &st) || !(out->cgroup = ttg_procfs_read_cgroup (pid)))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_NO_SUCH_PROCESS, "No process with pid %d", (int) pid);
      return FALSE;
    }

  has_pts = ttg_tty_nr_is_pts (st.tty_nr, &pts);
  out->unit = ttg_cgroup_path_unit (out->cgroup);
  if (!out->unit)
    out->unit = g_strdup ("");
  out->tty = has_pts ? g_strdup_printf ("pts/%u", pts) : g_strdup ("");

  if (ttg_pty_unit_name_parse (out->unit, &session_id, &leader))
    {
      explain_terminal_group (in, session_id, leader, out);
      out->session_id = g_steal_pointer (&session_id);
      return TRUE;
    }

  session_id = ttg_cgroup_path_session_id (out->cgroup);
  if (!session_id)
    {
      out->kind = "none";
      out->session_id = g_strdup ("");
      out->rule = g_strdup ("It is not in a logind session (a system service or a user manager): "
                            "ttygroup does not place it");
      return TRUE;
    }

  out->kind = "session";
  {
    const TtgVerdict *v = g_hash_table_lookup (in->verdicts, session_id);

    out->weight = v && v->session_weight != TTG_WEIGHT_UNSET ? v->session_weight : 0;
  }
  out->rule = explain_in_session (in, session_id, &st, has_pts, pts);
  out->session_id = g_steal_pointer (&session_id);
  return TRUE;
}
