/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "procstat.h"

#include "policy.h" /* TTG_ERROR */

#include <string.h>

/* Unix98 pty slaves: /dev/pts/N. The kernel registers them all under major
 * 136 with 20-bit minors; 137..143 are the majors old 8-bit-minor kernels
 * used for the same range. */
#define PTS_MAJOR_FIRST 136
#define PTS_MAJOR_LAST 143

#define SESSION_ID_MAX 64
#define SESSION_SCOPE_PREFIX "session-"
#define SCOPE_SUFFIX ".scope"

/* Reads an unsigned decimal number at *s and advances *s past it. No sign,
 * no blanks: /proc prints these fields with a plain %d/%u. */
static gboolean
parse_decimal (const char **s, guint64 max, guint64 *out)
{
  const char *c = *s;
  guint64 value = 0;

  if (!g_ascii_isdigit (*c))
    return FALSE;

  for (; g_ascii_isdigit (*c); c++)
    {
      guint digit = *c - '0';

      if (value > (max - digit) / 10)
        return FALSE;
      value = value * 10 + digit;
    }

  *s = c;
  *out = value;
  return TRUE;
}

static gboolean
parse_pid_field (const char **s, const char *name, pid_t *out, GError **error)
{
  guint64 value;

  if (**s != ' ')
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: missing field %s", name);
      return FALSE;
    }
  (*s)++;

  if (!parse_decimal (s, G_MAXINT32, &value))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: field %s is not a number", name);
      return FALSE;
    }

  *out = (pid_t) value;
  return TRUE;
}

gboolean
ttg_proc_stat_parse (const char *text, TtgProcStat *out, GError **error)
{
  TtgProcStat st = { 0, };
  const char *c = text;
  const char *comm_end;
  guint64 value;
  gboolean negative;
  gsize len;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!parse_decimal (&c, G_MAXINT32, &value) || value == 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: no process id");
      return FALSE;
    }
  st.pid = (pid_t) value;

  if (c[0] != ' ' || c[1] != '(')
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: no command name after the process id");
      return FALSE;
    }
  c += 2;

  /* comm is free text (prctl(PR_SET_NAME) allows ')', blanks, newlines),
   * but every field after it is a number: so comm ends at the last ')'. */
  comm_end = strrchr (c, ')');
  if (comm_end == NULL)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: command name not terminated");
      return FALSE;
    }

  /* The kernel caps comm at 64 bytes; if one day it is longer, a cut name
   * still serves for descriptions. */
  len = MIN ((gsize) (comm_end - c), sizeof st.comm - 1);
  memcpy (st.comm, c, len);
  st.comm[len] = '\0';
  c = comm_end + 1;

  if (c[0] != ' ' || !g_ascii_isalpha (c[1]))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: missing or invalid process state");
      return FALSE;
    }
  st.state = c[1];
  c += 2;

  if (!parse_pid_field (&c, "ppid", &st.ppid, error) ||
      !parse_pid_field (&c, "pgrp", &st.pgrp, error) ||
      !parse_pid_field (&c, "session", &st.session, error))
    return FALSE;

  /* The kernel prints the u32 device number as a signed int, so a large
   * minor comes out negative; take it back as the same 32 bits. */
  if (*c != ' ')
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: missing field tty_nr");
      return FALSE;
    }
  c++;
  negative = *c == '-';
  if (negative)
    c++;
  if (!parse_decimal (&c, negative ? (guint64) G_MAXINT32 + 1 : G_MAXINT32, &value))
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: field tty_nr is not a number");
      return FALSE;
    }
  st.tty_nr = negative ? (guint32) (-(gint64) value) : (guint32) value;

  /* A real line goes on for dozens of fields. Without the blank, the text
   * may have been cut inside tty_nr and the number be wrong. */
  if (*c != ' ')
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Malformed stat: truncated after field tty_nr");
      return FALSE;
    }

  *out = st;
  return TRUE;
}

gboolean
ttg_tty_nr_is_pts (guint32 tty_nr, guint *pts_index)
{
  /* Inverse of the kernel's new_encode_dev(). */
  guint major = (tty_nr >> 8) & 0xfff;
  guint minor = (tty_nr & 0xff) | ((tty_nr >> 12) & 0xfff00);

  if (major < PTS_MAJOR_FIRST || major > PTS_MAJOR_LAST)
    return FALSE;

  if (pts_index != NULL)
    *pts_index = (major - PTS_MAJOR_FIRST) * 256 + minor;
  return TRUE;
}

char *
ttg_cgroup_v2_path_parse (const char *text)
{
  g_auto(GStrv) lines = NULL;
  const char *found = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  /* Each line is "hierarchy-id:controllers:path"; the path may itself hold
   * ':' so only the first two separate fields. cgroup v2 is hierarchy 0
   * with no controllers listed. */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *c = lines[i];
      const char *controllers;
      const char *path;
      guint64 hierarchy;

      if (*c == '\0')
        continue;

      if (!parse_decimal (&c, G_MAXINT32, &hierarchy) || *c != ':')
        return NULL;

      controllers = c + 1;
      path = strchr (controllers, ':');
      if (path == NULL)
        return NULL;
      path++;

      if (*path != '/')
        return NULL;

      if (hierarchy != 0)
        continue;

      /* Two v2 lines, or controllers on hierarchy 0: not a format we
       * know, so trust nothing in it. */
      if (found != NULL || path != controllers + 1)
        return NULL;
      found = path;
    }

  /* A v2 cgroup removed under a (dying) process reads "/path (deleted)";
   * left as is, its last component names no unit we act on. */
  return g_strdup (found);
}

char *
ttg_cgroup_path_unit (const char *cgroup_path)
{
  const char *start;
  const char *end;

  if (cgroup_path == NULL)
    return NULL;

  end = cgroup_path + strlen (cgroup_path);
  while (end > cgroup_path && end[-1] == '/')
    end--;

  start = end;
  while (start > cgroup_path && start[-1] != '/')
    start--;

  if (start == end)
    return NULL;

  return g_strndup (start, end - start);
}

char *
ttg_cgroup_path_session_id (const char *cgroup_path)
{
  g_autofree char *unit = ttg_cgroup_path_unit (cgroup_path);
  g_autofree char *id = NULL;
  gsize len;

  if (unit == NULL ||
      !g_str_has_prefix (unit, SESSION_SCOPE_PREFIX) ||
      !g_str_has_suffix (unit, SCOPE_SUFFIX))
    return NULL;

  len = strlen (unit);
  if (len <= strlen (SESSION_SCOPE_PREFIX) + strlen (SCOPE_SUFFIX))
    return NULL;

  id = g_strndup (unit + strlen (SESSION_SCOPE_PREFIX),
                  len - strlen (SESSION_SCOPE_PREFIX) - strlen (SCOPE_SUFFIX));
  if (!ttg_session_id_is_valid (id))
    return NULL;

  return g_steal_pointer (&id);
}

int
ttg_cgroup_events_populated (const char *text)
{
  static const char key[] = "populated ";
  const char *line = text;

  while (line && *line)
    {
      const char *nl = strchr (line, '\n');
      gsize len = nl ? (gsize) (nl - line) : strlen (line);

      if (len >= sizeof key - 1 && strncmp (line, key, sizeof key - 1) == 0)
        {
          if (len == sizeof key && (line[len - 1] == '0' || line[len - 1] == '1'))
            return line[len - 1] - '0';
          return -1;
        }
      line = nl ? nl + 1 : NULL;
    }
  return -1;
}

gboolean
ttg_session_id_is_valid (const char *id)
{
  gsize len = 0;

  if (id == NULL)
    return FALSE;

  for (const char *c = id; *c != '\0'; c++, len++)
    if (!g_ascii_isalnum (*c) || len >= SESSION_ID_MAX)
      return FALSE;

  return len > 0;
}
