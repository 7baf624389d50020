/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "agent-userscopes.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "agent-policy.h"

#define SYSTEMD_NAME "org.freedesktop.systemd1"
#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"

struct _TtgUserScopes {
  GDBusConnection *bus;
  GCancellable *cancellable;
  char **patterns;
  gboolean have_weight; /* nothing is touched before the first weight */
  guint64 weight;
  guint job_removed_id;
};

static void
on_unit_set (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autofree char *unit = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), res, &error);

  if (!reply && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* a tab closed meanwhile: its scope is gone, nothing to weigh */
    g_message (_("Could not set the CPU weight of %s: %s"), unit, error->message);
}

static void
set_unit_cpu_weight (TtgUserScopes *s, const char *unit, guint64 weight)
{
  GVariantBuilder props;

  if (weight == TTG_AGENT_WEIGHT_UNSET)
    g_message (_("Terminal scope %s: back to the default CPU weight"), unit);
  else
    g_message (_("Terminal scope %s: CPU weight %" PRIu64), unit, (uint64_t) weight);
  g_variant_builder_init (&props, G_VARIANT_TYPE ("a(sv)"));
  g_variant_builder_add (&props, "(sv)", "CPUWeight", g_variant_new_uint64 (weight));
  g_dbus_connection_call (s->bus, SYSTEMD_NAME, SYSTEMD_PATH, SYSTEMD_MANAGER, "SetUnitProperties",
                          g_variant_new ("(sba(sv))", unit, TRUE, &props), NULL,
                          G_DBUS_CALL_FLAGS_NONE, -1, s->cancellable, on_unit_set, g_strdup (unit));
}

static void
set_unit_weight (TtgUserScopes *s, const char *unit)
{
  set_unit_cpu_weight (s, unit, s->weight);
}

/* A listing of running scopes by patterns; released: the patterns a scope
 * matched before an edit of the list (NULL: give the matching scopes the
 * weight). */
typedef struct {
  TtgUserScopes *scopes;
  char **released;
} Listing;

static void
on_listed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  Listing *l = user_data;
  TtgUserScopes *s = l->scopes;
  g_auto(GStrv) released = l->released;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), res, &error);
  g_autoptr(GVariantIter) it = NULL;
  const char *unit;

  g_free (l);
  if (!reply)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning (_("Could not list the scopes of the user manager: %s"), error->message);
      return;
    }
  g_variant_get (reply, "(a(ssssssouso))", &it);
  while (g_variant_iter_next (it, "(&ssssssouso)", &unit, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL))
    {
      gboolean now = ttg_agent_is_terminal_scope (unit, (const char *const *) s->patterns);

      if (!released && now)
        set_unit_weight (s, unit);
      else if (released && !now && ttg_agent_is_terminal_scope (unit, (const char *const *) released))
        set_unit_cpu_weight (s, unit, TTG_AGENT_WEIGHT_UNSET); /* no longer a terminal: let go */
    }
}

static void
list_scopes (TtgUserScopes *s, char **patterns, char **released)
{
  const char *states[] = { "active", "activating", NULL };
  Listing *l = g_new0 (Listing, 1);

  l->scopes = s;
  l->released = released;
  g_dbus_connection_call (s->bus, SYSTEMD_NAME, SYSTEMD_PATH, SYSTEMD_MANAGER, "ListUnitsByPatterns",
                          g_variant_new ("(^as^as)", states, patterns),
                          G_VARIANT_TYPE ("(a(ssssssouso))"), G_DBUS_CALL_FLAGS_NONE, -1,
                          s->cancellable, on_listed, l);
}

/* Every running terminal scope gets the current weight. */
static void
apply_all (TtgUserScopes *s)
{
  if (!s->have_weight || !s->patterns || !s->patterns[0])
    return;
  list_scopes (s, s->patterns, NULL);
}

/* A scope is started by a job; when it is done the scope runs and has its
 * processes: the moment to give it its weight. */
static void
on_job_removed (GDBusConnection *bus, const char *sender, const char *path, const char *iface,
                const char *signal, GVariant *params, gpointer user_data)
{
  TtgUserScopes *s = user_data;
  const char *unit, *result;

  if (!g_variant_is_of_type (params, G_VARIANT_TYPE ("(uoss)")))
    return;
  g_variant_get (params, "(u&o&s&s)", NULL, NULL, &unit, &result);
  if (s->have_weight && s->weight != TTG_AGENT_WEIGHT_UNSET && g_str_equal (result, "done")
      && ttg_agent_is_terminal_scope (unit, (const char *const *) s->patterns))
    set_unit_weight (s, unit);
}

static void
on_subscribed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), res, &error);

  if (!reply && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning (_("Could not subscribe to the user manager's signals; new terminal scopes keep the default weight: %s"),
               error->message);
}

TtgUserScopes *
ttg_user_scopes_new (GDBusConnection *session_bus)
{
  TtgUserScopes *s = g_new0 (TtgUserScopes, 1);

  s->bus = g_object_ref (session_bus);
  s->cancellable = g_cancellable_new ();
  s->job_removed_id = g_dbus_connection_signal_subscribe (s->bus, SYSTEMD_NAME, SYSTEMD_MANAGER, "JobRemoved",
                                                          SYSTEMD_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                          on_job_removed, s, NULL);
  /* The manager sends JobRemoved only to subscribed clients. */
  g_dbus_connection_call (s->bus, SYSTEMD_NAME, SYSTEMD_PATH, SYSTEMD_MANAGER, "Subscribe", NULL, NULL,
                          G_DBUS_CALL_FLAGS_NONE, -1, s->cancellable, on_subscribed, NULL);
  return s;
}

void
ttg_user_scopes_free (TtgUserScopes *s)
{
  if (!s)
    return;
  g_cancellable_cancel (s->cancellable);
  g_dbus_connection_signal_unsubscribe (s->bus, s->job_removed_id);
  g_clear_object (&s->cancellable);
  g_clear_object (&s->bus);
  g_strfreev (s->patterns);
  g_free (s);
}

void
ttg_user_scopes_set_patterns (TtgUserScopes *s, const char *const *patterns)
{
  if (s->patterns && patterns && g_strv_equal ((const char *const *) s->patterns, patterns))
    return;
  /* scopes that were terminals by the old list and are no longer get
   * systemd's default back */
  if (s->have_weight && s->weight != TTG_AGENT_WEIGHT_UNSET && s->patterns && s->patterns[0])
    {
      char **old = s->patterns;

      s->patterns = g_strdupv ((char **) patterns);
      list_scopes (s, old, old);
    }
  else
    {
      g_strfreev (s->patterns);
      s->patterns = g_strdupv ((char **) patterns);
    }
  apply_all (s);
}

void
ttg_user_scopes_set_weight (TtgUserScopes *s, guint64 weight)
{
  if (s->have_weight && s->weight == weight)
    return;
  s->have_weight = TRUE;
  s->weight = weight;
  apply_all (s);
}
