/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "agent-service.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "agent-policy.h"
#include "ttg-bus.h"
#include "agent-userscopes.h"

struct _TtgAgent {
  GSettings *settings;
  GDBusConnection *system_bus;
  TtgUserScopes *scopes;
  GCancellable *cancellable;
  guint watch_id;
  guint props_changed_id;
  guint seat_changed_id;
  guint push_idle_id;

  char *service_owner;     /* NULL while ttygroupd is not on the bus */
  gboolean system_known;   /* its Policy has been read */
  TtgAgentSystem system;
  guint64 accepted_weight; /* TerminalWeight the service took from us; 0: none */
  guint64 refused_weight;  /* one it refused (above the bound); not sent again */
  gboolean pushing;
  gboolean push_again;
  gboolean refused_access; /* polkit said no (not the active session): retry on a seat switch */
};

static void push (TtgAgent *a);

static void
read_prefs (TtgAgent *a, TtgAgentPrefs *prefs)
{
  prefs->enabled = g_settings_get_boolean (a->settings, "enabled");
  prefs->group_terminals = g_settings_get_boolean (a->settings, "group-terminals");
  prefs->terminal_weight = g_settings_get_uint (a->settings, "terminal-weight");
}

/* The user-manager scopes follow what the service holds for this user. */
static void
update_scopes (TtgAgent *a)
{
  TtgAgentPrefs prefs;

  if (!a->service_owner || !a->system_known)
    return;
  read_prefs (a, &prefs);
  ttg_user_scopes_set_weight (a->scopes, ttg_agent_scope_weight (&a->system, &prefs, a->accepted_weight));
}

typedef struct {
  TtgAgent *agent;
  GVariant *request;
  gboolean with_weight;
  guint64 weight;
} Push;

static void
push_free (Push *p)
{
  g_variant_unref (p->request);
  g_free (p);
}

static void send_request (TtgAgent *a, gboolean with_weight);

static void
on_pushed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  Push *p = user_data;
  TtgAgent *a = p->agent;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), res, &error);
  g_autofree char *text = ttg_agent_request_to_string (p->request);
  g_autofree char *remote = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      push_free (p);
      return;
    }
  a->refused_access = FALSE;
  if (reply)
    {
      g_message (_("ttygroupd applied my settings: %s"), text);
      if (p->with_weight)
        a->accepted_weight = p->weight;
    }
  else
    {
      remote = g_dbus_error_get_remote_error (error);
      g_dbus_error_strip_remote_error (error);
      if (p->with_weight && g_strcmp0 (remote, TTG_DBUS_ERROR_INVALID_POLICY) == 0)
        {
          /* The weight is outside what the administrator allows: keep the
           * weight the service had and still apply the switches. */
          g_warning (_("ttygroupd refused the terminal weight %" PRIu64 " (%s); "
                       "the previous weight stays"), (uint64_t) p->weight, error->message);
          a->refused_weight = p->weight;
          a->pushing = FALSE;
          send_request (a, FALSE);
          push_free (p);
          return;
        }
      if (g_strcmp0 (remote, "org.freedesktop.DBus.Error.AccessDenied") == 0
          || g_strcmp0 (remote, "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired") == 0)
        {
          /* polkit allows the user of the active local session; this user's
           * session may just be in the background (another user's on the
           * seat): sent again when the seat switches. */
          a->refused_access = TRUE;
          g_message (_("ttygroupd did not apply my settings (%s), polkit refused: %s; "
                       "they are sent again when a seat switches sessions"), text, error->message);
        }
      else
        g_warning (_("ttygroupd did not apply my settings (%s): %s: %s"), text,
                   remote ? remote : "", error->message);
    }
  a->pushing = FALSE;
  push_free (p);
  update_scopes (a);
  if (a->push_again)
    push (a);
}

static void
send_request (TtgAgent *a, gboolean with_weight)
{
  TtgAgentPrefs prefs;
  Push *p = g_new0 (Push, 1);

  read_prefs (a, &prefs);
  p->agent = a;
  p->with_weight = with_weight;
  p->weight = prefs.terminal_weight;
  p->request = g_variant_ref_sink (ttg_agent_prefs_to_request (&prefs, with_weight));
  a->pushing = TRUE;
  /* No interactive authorization: the desktop switch must never pop up a
   * password dialog; polkit allows the active local user without one. */
  g_dbus_connection_call (a->system_bus, a->service_owner, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "SetUserPolicy",
                          g_variant_new ("(@a{sv})", p->request), G_VARIANT_TYPE_UNIT,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, a->cancellable, on_pushed, p);
}

static void
push (TtgAgent *a)
{
  guint64 weight;

  if (!a->service_owner)
    return;
  if (a->pushing)
    {
      a->push_again = TRUE; /* once the call in flight is answered */
      return;
    }
  a->push_again = FALSE;
  /* A weight already refused is not offered again, until it changes or the
   * administrator's bound does. */
  weight = g_settings_get_uint (a->settings, "terminal-weight");
  if (weight == a->refused_weight)
    g_message (_("Not sending the terminal weight %" PRIu64 " again: ttygroupd refused it "
                 "and its bound has not changed since"), (uint64_t) weight);
  send_request (a, weight != a->refused_weight);
}

static gboolean
push_idle (gpointer user_data)
{
  TtgAgent *a = user_data;

  a->push_idle_id = 0;
  push (a);
  return G_SOURCE_REMOVE;
}

static void
on_settings_changed (GSettings *settings, const char *key, gpointer user_data)
{
  TtgAgent *a = user_data;

  if (g_str_equal (key, "terminal-scopes"))
    {
      g_auto(GStrv) patterns = g_settings_get_strv (settings, "terminal-scopes");

      ttg_user_scopes_set_patterns (a->scopes, (const char *const *) patterns);
      return;
    }
  /* One write may change several keys: send them together. */
  if (!a->push_idle_id)
    a->push_idle_id = g_idle_add (push_idle, a);
}

static void
take_policy (TtgAgent *a, GVariant *policy)
{
  guint64 bound_before = a->system_known ? a->system.terminal_weight : 0;

  ttg_agent_system_from_policy (policy, &a->system);
  a->system_known = TRUE;
  if (a->refused_weight && a->system.terminal_weight != bound_before)
    {
      /* the bound moved: the weight may fit now */
      a->refused_weight = 0;
      push (a);
    }
  g_debug ("System policy: Enabled=%d GroupTerminals=%d TerminalWeight=%" G_GUINT64_FORMAT,
           a->system.enabled, a->system.group_terminals, a->system.terminal_weight);
  update_scopes (a);
}

static void
on_policy_read (GObject *source, GAsyncResult *res, gpointer user_data)
{
  TtgAgent *a = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), res, &error);
  g_autoptr(GVariant) policy = NULL;

  if (!reply)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning (_("Could not read the policy of ttygroupd: %s"), error->message);
      return;
    }
  g_variant_get (reply, "(v)", &policy);
  take_policy (a, policy);
}

static void
read_policy (TtgAgent *a)
{
  g_dbus_connection_call (a->system_bus, a->service_owner, TTG_DBUS_PATH, "org.freedesktop.DBus.Properties", "Get",
                          g_variant_new ("(ss)", TTG_DBUS_INTERFACE, "Policy"), G_VARIANT_TYPE ("(v)"),
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, a->cancellable, on_policy_read, a);
}

static void
on_properties_changed (GDBusConnection *bus, const char *sender, const char *path, const char *iface,
                       const char *signal, GVariant *params, gpointer user_data)
{
  TtgAgent *a = user_data;
  g_autoptr(GVariant) policy = NULL;

  if (!a->service_owner || g_strcmp0 (sender, a->service_owner) != 0
      || !ttg_agent_property_changed (params, TTG_DBUS_INTERFACE, "Policy", &policy))
    return;
  if (policy && g_variant_is_of_type (policy, G_VARIANT_TYPE_VARDICT))
    take_policy (a, policy);
  else
    read_policy (a);
}

/* A seat's active session changed: maybe this user's session is in front
 * now, so settings polkit refused before may be allowed. */
static void
on_seat_changed (GDBusConnection *bus, const char *sender, const char *path, const char *iface,
                 const char *signal, GVariant *params, gpointer user_data)
{
  TtgAgent *a = user_data;
  g_autoptr(GVariant) active = NULL;

  if (!a->refused_access
      || !ttg_agent_property_changed (params, "org.freedesktop.login1.Seat", "ActiveSession", &active))
    return;
  g_debug ("Seat %s switched sessions: sending the refused settings again", path);
  push (a);
}

static void
on_service_appeared (GDBusConnection *bus, const char *name, const char *owner, gpointer user_data)
{
  TtgAgent *a = user_data;

  if (g_strcmp0 (a->service_owner, owner) == 0)
    return;
  g_message (_("ttygroupd is on the system bus (%s): sending my settings"), owner);
  g_free (a->service_owner);
  a->service_owner = g_strdup (owner);
  /* A new instance of the service holds nothing of ours: it starts from the
   * system policy until the push is answered. */
  a->accepted_weight = 0;
  a->refused_weight = 0;
  a->system_known = FALSE;
  a->pushing = FALSE;
  read_policy (a);
  push (a);
}

static void
on_service_vanished (GDBusConnection *bus, const char *name, gpointer user_data)
{
  TtgAgent *a = user_data;

  if (a->service_owner)
    g_message (_("ttygroupd left the system bus; my settings will be sent again when it is back"));
  g_clear_pointer (&a->service_owner, g_free);
  a->system_known = FALSE;
}

TtgAgent *
ttg_agent_new (GSettings *settings, GDBusConnection *system_bus, GDBusConnection *session_bus)
{
  TtgAgent *a = g_new0 (TtgAgent, 1);
  g_auto(GStrv) patterns = NULL;

  a->settings = g_object_ref (settings);
  a->system_bus = g_object_ref (system_bus);
  a->cancellable = g_cancellable_new ();
  a->scopes = ttg_user_scopes_new (session_bus);
  patterns = g_settings_get_strv (settings, "terminal-scopes");
  ttg_user_scopes_set_patterns (a->scopes, (const char *const *) patterns);

  g_signal_connect (a->settings, "changed", G_CALLBACK (on_settings_changed), a);
  a->props_changed_id = g_dbus_connection_signal_subscribe (a->system_bus, TTG_DBUS_NAME,
                                                            "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                                            TTG_DBUS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                            on_properties_changed, a, NULL);
  a->seat_changed_id = g_dbus_connection_signal_subscribe (a->system_bus, "org.freedesktop.login1",
                                                           "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                                           NULL, "org.freedesktop.login1.Seat",
                                                           G_DBUS_SIGNAL_FLAGS_NONE, on_seat_changed, a, NULL);
  /* Appeared fires for the service already running and again after every
   * restart: each time, the settings are sent anew. */
  a->watch_id = g_bus_watch_name_on_connection (a->system_bus, TTG_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                on_service_appeared, on_service_vanished, a, NULL);
  return a;
}

void
ttg_agent_free (TtgAgent *a)
{
  if (!a)
    return;
  g_cancellable_cancel (a->cancellable);
  g_bus_unwatch_name (a->watch_id);
  g_dbus_connection_signal_unsubscribe (a->system_bus, a->props_changed_id);
  g_dbus_connection_signal_unsubscribe (a->system_bus, a->seat_changed_id);
  g_signal_handlers_disconnect_by_data (a->settings, a);
  g_clear_handle_id (&a->push_idle_id, g_source_remove);
  ttg_user_scopes_free (a->scopes);
  g_clear_object (&a->cancellable);
  g_clear_object (&a->settings);
  g_clear_object (&a->system_bus);
  g_free (a->service_owner);
  g_free (a);
}
