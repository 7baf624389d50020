/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "logind.h"
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-login.h>

#define LOGIN1_DEST "org.freedesktop.login1"
#define LOGIN1_PATH "/org/freedesktop/login1"
#define LOGIN1_MANAGER "org.freedesktop.login1.Manager"
#define LOGIN1_SESSION "org.freedesktop.login1.Session"

/* Logins touch several files under /run/systemd in a row; wait for the
 * burst to settle before re-reading. */
#define SETTLE_USEC (30 * 1000)

struct TtgLogind {
  sd_event *event;
  sd_bus *bus;
  GHashTable *leaders; /* session id -> Known: the leader never changes for a session */
  sd_login_monitor *monitor;
  sd_event_source *io;
  sd_event_source *settle;
  TtgLogindChangedFunc on_changed;
  gpointer user_data;
};

/* What is read once per session. */
typedef struct {
  pid_t leader;
  char *cgroup; /* the session scope's, from the leader's; NULL until read */
} Known;

static void
known_free (Known *k)
{
  g_free (k->cgroup);
  g_free (k);
}

static int
on_settled (sd_event_source *s, uint64_t usec, void *user_data)
{
  TtgLogind *l = user_data;

  l->on_changed (l->user_data);
  return 0;
}

static int
on_monitor (sd_event_source *s, int fd, uint32_t revents, void *user_data)
{
  TtgLogind *l = user_data;

  (void) sd_login_monitor_flush (l->monitor);
  ttg_timer_arm (l->event, &l->settle, SETTLE_USEC, on_settled, l);
  return 0;
}

TtgLogind *
ttg_logind_new (sd_event *event, sd_bus *bus, TtgLogindChangedFunc on_changed,
                gpointer user_data, GError **error)
{
  g_autoptr(TtgLogind) l = g_new0 (TtgLogind, 1);
  int r, fd;

  l->event = sd_event_ref (event);
  l->bus = sd_bus_ref (bus);
  l->leaders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) known_free);
  l->on_changed = on_changed;
  l->user_data = user_data;

  /* NULL category: sessions, seats and users (the display session lives there). */
  r = sd_login_monitor_new (NULL, &l->monitor);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to watch logind: %s", g_strerror (-r));
      return NULL;
    }
  fd = sd_login_monitor_get_fd (l->monitor);
  r = sd_event_add_io (event, &l->io, fd, sd_login_monitor_get_events (l->monitor), on_monitor, l);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to watch logind's monitor fd: %s", g_strerror (-r));
      return NULL;
    }
  return g_steal_pointer (&l);
}

void
ttg_logind_free (TtgLogind *l)
{
  if (!l)
    return;
  sd_event_source_disable_unref (l->settle);
  sd_event_source_disable_unref (l->io);
  if (l->monitor)
    sd_login_monitor_unref (l->monitor);
  g_clear_pointer (&l->leaders, g_hash_table_unref);
  sd_bus_unref (l->bus);
  sd_event_unref (l->event);
  g_free (l);
}

static char *
steal_malloced (char *s)
{
  /* sd-login hands out malloc() memory; GLib's allocator is the same one
   * since 2.46, but copying keeps that assumption out of the code. */
  char *copy = g_strdup (s);
  free (s);
  return copy;
}

/* The session's Leader, from logind's public D-Bus API (org.freedesktop.login1
 * Session.Leader), once per session; NULL when logind does not answer (the
 * session is gone). */
static Known *
read_known (TtgLogind *l, const char *id)
{
  g_auto(sd_bus_error) err = SD_BUS_ERROR_NULL;
  g_autoptr(sd_bus_message) reply = NULL;
  const char *path;
  uint32_t leader = 0;
  Known *k = g_hash_table_lookup (l->leaders, id);
  int r;

  if (k)
    return k;
  r = sd_bus_call_method (l->bus, LOGIN1_DEST, LOGIN1_PATH, LOGIN1_MANAGER, "GetSession",
                          &err, &reply, "s", id);
  if (r >= 0)
    r = sd_bus_message_read (reply, "o", &path);
  if (r >= 0)
    r = sd_bus_get_property_trivial (l->bus, LOGIN1_DEST, path, LOGIN1_SESSION, "Leader",
                                     &err, 'u', &leader);
  if (r < 0)
    {
      ttg_log_debug ("logind", "No leader for session %s: %s", id, err.message ?: g_strerror (-r));
      return NULL;
    }
  k = g_new0 (Known, 1);
  k->leader = leader > G_MAXINT32 ? 0 : (pid_t) leader;
  g_hash_table_insert (l->leaders, g_strdup (id), k);
  return k;
}

/* The session scope's cgroup: where logind put the session's leader, which
 * this service never moves (its pty, if any, is the session's own). */
static const char *
session_cgroup (Known *k, const char *id)
{
  g_autofree char *cgroup = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *scope = NULL;

  if (k->cgroup || k->leader <= 0)
    return k->cgroup;
  cgroup = ttg_procfs_read_cgroup (k->leader);
  unit = cgroup ? ttg_cgroup_path_unit (cgroup) : NULL;
  scope = ttg_session_scope_name (id);
  if (unit && g_str_equal (unit, scope))
    k->cgroup = g_steal_pointer (&cgroup);
  return k->cgroup;
}

static TtgSession *
read_session (TtgLogind *l, const char *id)
{
  g_autoptr(TtgSession) s = ttg_session_new (id);
  char *v = NULL;
  int r;

  r = sd_session_get_uid (id, &s->uid);
  if (r < 0)
    return NULL; /* gone meanwhile */

  if (sd_session_get_class (id, &v) >= 0)
    s->klass = steal_malloced (v);
  if (sd_session_get_type (id, &v) >= 0)
    s->type = steal_malloced (v);
  if (sd_session_get_state (id, &v) >= 0)
    s->state = steal_malloced (v);
  if (sd_session_get_seat (id, &v) >= 0)
    s->seat = steal_malloced (v);
  if (sd_session_get_tty (id, &v) >= 0)
    s->tty = steal_malloced (v);
  if (sd_session_get_service (id, &v) >= 0)
    s->service = steal_malloced (v);
  s->remote = sd_session_is_remote (id) > 0;
  s->active = sd_session_is_active (id) > 0;
  {
    Known *k = read_known (l, id);

    s->leader = k ? k->leader : 0;
    s->cgroup = k ? g_strdup (session_cgroup (k, id)) : NULL;
  }

  if (sd_uid_get_display (s->uid, &v) >= 0)
    {
      s->is_display = g_strcmp0 (v, id) == 0;
      free (v);
    }

  return g_steal_pointer (&s);
}

GHashTable *
ttg_logind_read_sessions (TtgLogind *l, GError **error)
{
  g_autoptr(GHashTable) sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                           (GDestroyNotify) ttg_session_free);
  char **ids = NULL;
  int r;

  r = sd_get_sessions (&ids);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED,
                   "Failed to list logind sessions: %s", g_strerror (-r));
      return NULL;
    }

  for (char **id = ids; id && *id; id++)
    {
      TtgSession *s;

      if (!ttg_session_id_is_valid (*id))
        {
          ttg_log_warn ("logind", "Session id \"%s\" is not usable in a unit name, ignoring", *id);
          free (*id);
          continue;
        }
      s = read_session (l, *id);
      if (s)
        g_hash_table_insert (sessions, s->id, s);
      free (*id);
    }
  free (ids);

  /* Forget the leaders of sessions that ended. */
  {
    GHashTableIter it;
    const char *known;

    g_hash_table_iter_init (&it, l->leaders);
    while (g_hash_table_iter_next (&it, (gpointer *) &known, NULL))
      if (!g_hash_table_contains (sessions, known))
        g_hash_table_iter_remove (&it);
  }

  return g_steal_pointer (&sessions);
}
