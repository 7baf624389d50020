/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* org.ttygroup1.Manager on the system bus: the contract is dbus/org.ttygroup1.xml. */
#include "build-config.h"

#include "api.h"

#include <errno.h>
#include <string.h>

#include "auth.h"
#include "groupsampler.h"
#include "groupstats.h"
#include "policydict.h"
#include "ttg-bus.h"
#include "util.h"

struct TtgApi {
  sd_bus *bus;
  TtgManager *manager;
  TtgState *state;
  sd_bus_slot *vtable_slot;
  TtgGroupSampler *sampler;
  GPtrArray *stats_waiting;     /* ListGroupStats calls waiting for a rate (sd_bus_message) */
  sd_event_source *stats_timer; /* set while some are waiting */
};

/* A validated SetPolicy request, waiting for polkit. */
typedef struct {
  TtgApi *api;
  TtgPolicy policy;
  GPtrArray *keys;
} PendingSet;

static void
pending_set_free (PendingSet *p)
{
  g_ptr_array_unref (p->keys);
  g_free (p);
}

/* Every key of the one table, with its D-Bus type. */
static int
append_policy (sd_bus_message *reply, const TtgPolicy *p)
{
  int r;

  r = sd_bus_message_open_container (reply, 'a', "{sv}");
  if (r < 0)
    return r;
  for (const TtgPolicyKeyInfo *info = ttg_policy_keys (); r >= 0 && info->key; info++)
    switch (info->type)
      {
      case TTG_POLICY_TYPE_BOOLEAN:
        r = sd_bus_message_append (reply, "{sv}", info->key, "b", ttg_policy_get_boolean (p, info));
        break;
      case TTG_POLICY_TYPE_WEIGHT:
        r = sd_bus_message_append (reply, "{sv}", info->key, "t", (uint64_t) ttg_policy_get_weight (p, info));
        break;
      }
  if (r < 0)
    return r;
  return sd_bus_message_close_container (reply);
}

static int
property_get_version (sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  return sd_bus_message_append (reply, "s", PACKAGE_VERSION);
}

static int
property_get_enabled (sd_bus *bus, const char *path, const char *interface, const char *property,
                      sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;

  return sd_bus_message_append (reply, "b", ttg_manager_get_policy (api->manager)->enabled);
}

static int
property_get_policy (sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;

  return append_policy (reply, ttg_manager_get_policy (api->manager));
}

static int
property_get_status (sd_bus *bus, const char *path, const char *interface, const char *property,
                     sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  const char *const *limitations = NULL;
  gboolean effective = ttg_manager_cpu_effective (api->manager, &limitations);
  TtgManagerCounters c;
  int r;

  ttg_manager_get_counters (api->manager, &c);
  r = sd_bus_message_open_container (reply, 'a', "{sv}");
  if (r < 0)
    return r;
  /* CpuWeightsUsable and Reason: what Effective and the first of
   * Limitations say, for callers of earlier versions. */
  r = sd_bus_message_append (reply, "{sv}{sv}{sv}{sv}{sv}{sv}{sv}{sv}",
                             "CpuWeightsUsable", "b", effective,
                             "Reason", "s", limitations[0] ? limitations[0] : "",
                             TTG_STATUS_SESSIONS, "u", ttg_manager_count_sessions (api->manager),
                             TTG_STATUS_GROUPS, "u", ttg_manager_count_groups (api->manager),
                             TTG_STATUS_PROCESS_EVENTS, "t", (uint64_t) c.process_events,
                             TTG_STATUS_LOST_EVENTS, "t", (uint64_t) c.lost_events,
                             TTG_STATUS_PLACEMENTS, "t", (uint64_t) c.placements,
                             TTG_STATUS_PLACEMENT_FAILURES, "t", (uint64_t) c.placement_failures);
  if (r < 0)
    return r;
  return sd_bus_message_close_container (reply);
}

static int
property_get_effective (sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;

  return sd_bus_message_append (reply, "b", ttg_manager_cpu_effective (api->manager, NULL));
}

static int
property_get_limitations (sd_bus *bus, const char *path, const char *interface, const char *property,
                          sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  const char *const *limitations = NULL;

  (void) ttg_manager_cpu_effective (api->manager, &limitations);
  return sd_bus_message_append_strv (reply, (char **) limitations);
}

/* Reads the entries of a policy a{sv} for ttg_policy_dict_apply() and
 * friends, which do every check. Stops after TTG_POLICY_DICT_MAX + 1
 * entries: the answer is then known already, and a huge dictionary costs
 * no memory. The strings point into m. Only a message that is not an a{sv}
 * fails here (negative errno). */
static int
read_policy_entries (sd_bus_message *m, GArray *entries)
{
  int r;

  r = sd_bus_message_enter_container (m, 'a', "{sv}");
  if (r < 0)
    return r;

  while (entries->len <= TTG_POLICY_DICT_MAX && (r = sd_bus_message_enter_container (m, 'e', "sv")) > 0)
    {
      TtgPolicyEntry e = { 0 };
      char type;

      r = sd_bus_message_read (m, "s", &e.key);
      if (r < 0)
        return r;
      r = sd_bus_message_peek_type (m, &type, &e.signature);
      if (r < 0)
        return r;
      if (g_str_equal (e.signature, "b"))
        {
          int v;

          r = sd_bus_message_read (m, "v", "b", &v);
          e.b = v;
        }
      else if (g_str_equal (e.signature, "t"))
        r = sd_bus_message_read (m, "v", "t", &e.t);
      else
        r = sd_bus_message_skip (m, "v");
      if (r < 0)
        return r;
      g_array_append_val (entries, e);

      r = sd_bus_message_exit_container (m);
      if (r < 0)
        return r;
    }
  return r < 0 ? r : 0;
}

/* A malformed message (not an a{sv} at all) is an InvalidPolicy too. */
static int
policy_dict_error (int r, const GError *local, sd_bus_error *error)
{
  if (local)
    return sd_bus_error_set (error, TTG_DBUS_ERROR_INVALID_POLICY, local->message);
  return sd_bus_error_setf (error, TTG_DBUS_ERROR_INVALID_POLICY, "Malformed policy dictionary: %s", g_strerror (-r));
}

static uid_t
sender_uid (sd_bus_message *call)
{
  sd_bus_creds *creds = NULL;
  uid_t uid = (uid_t) -1;

  if (sd_bus_query_sender_creds (call, SD_BUS_CREDS_EUID, &creds) >= 0)
    {
      (void) sd_bus_creds_get_euid (creds, &uid);
      sd_bus_creds_unref (creds);
    }
  return uid;
}

static void
on_set_policy_authorized (sd_bus_message *call, gboolean authorized, const sd_bus_error *auth_error,
                          gpointer user_data)
{
  PendingSet *p = user_data;
  TtgApi *api = p->api;
  g_autoptr(GError) error = NULL;
  g_autofree char *who = g_strdup_printf ("%s (uid %d)", sd_bus_message_get_sender (call),
                                          (int) sender_uid (call));

  if (!authorized)
    {
      ttg_log_notice ("api", "SetPolicy from %s refused: %s", who, auth_error->message);
      (void) sd_bus_reply_method_error (call, auth_error);
      pending_set_free (p);
      return;
    }

  g_ptr_array_add (p->keys, NULL);
  if (!ttg_state_save_keys (api->state, &p->policy, (const char *const *) p->keys->pdata, &error))
    {
      ttg_log_err ("api", "SetPolicy from %s not applied, the policy could not be saved: %s", who, error->message);
      (void) sd_bus_reply_method_errorf (call, TTG_DBUS_ERROR_FAILED, "The policy could not be saved: %s", error->message);
      pending_set_free (p);
      return;
    }

  ttg_log_info ("api", "SetPolicy from %s", who);
  ttg_manager_set_policy (api->manager, &p->policy);
  ttg_api_policy_changed (api);
  (void) sd_bus_reply_method_return (call, NULL);
  pending_set_free (p);
}

static int
method_set_policy (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  PendingSet *p = g_new0 (PendingSet, 1);
  g_autoptr(GArray) entries = g_array_new (FALSE, TRUE, sizeof (TtgPolicyEntry));
  g_autoptr(GError) local = NULL;
  int r;

  p->api = api;
  p->keys = g_ptr_array_new_with_free_func (g_free);
  p->policy = *ttg_manager_get_policy (api->manager);
  /* Validate before asking: bad input gets its named error from anyone. */
  r = read_policy_entries (m, entries);
  if (r < 0 || !ttg_policy_dict_apply (&p->policy, (const TtgPolicyEntry *) (void *) entries->data,
                                       entries->len, p->keys, &local))
    {
      pending_set_free (p);
      return policy_dict_error (r, local, error);
    }

  r = ttg_auth_check (api->bus, m, TTG_ACTION_SET_POLICY, on_set_policy_authorized, p);
  if (r < 0)
    {
      pending_set_free (p);
      return sd_bus_error_setf (error, SD_BUS_ERROR_ACCESS_DENIED, "Could not ask polkit: %s", g_strerror (-r));
    }
  return 1; /* the reply comes when polkit has answered */
}

typedef struct {
  TtgApi *api;
  uid_t uid;
  TtgUserPolicy asked;
} PendingUserSet;

static void
on_set_user_policy_authorized (sd_bus_message *call, gboolean authorized, const sd_bus_error *auth_error,
                               gpointer user_data)
{
  g_autofree PendingUserSet *p = user_data;

  if (!authorized)
    {
      ttg_log_notice ("api", "SetUserPolicy from uid %d refused: %s", (int) p->uid, auth_error->message);
      (void) sd_bus_reply_method_error (call, auth_error);
      return;
    }
  ttg_manager_set_user_policy (p->api->manager, p->uid, &p->asked);
  (void) sd_bus_reply_method_return (call, NULL);
}

static int
method_set_user_policy (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(GArray) entries = g_array_new (FALSE, TRUE, sizeof (TtgPolicyEntry));
  g_autoptr(GError) local = NULL;
  g_autofree PendingUserSet *p = g_new0 (PendingUserSet, 1);
  const TtgUserPolicy *before;
  int r;

  p->api = api;
  p->uid = sender_uid (m);
  if (p->uid == (uid_t) -1)
    return sd_bus_error_set (error, SD_BUS_ERROR_ACCESS_DENIED, "The caller's user is unknown");
  /* Keys not given keep what this user asked before. */
  before = ttg_manager_get_user_policy (api->manager, p->uid);
  if (before)
    p->asked = *before;
  r = read_policy_entries (m, entries);
  if (r < 0 || !ttg_user_policy_dict_apply (&p->asked, ttg_manager_get_policy (api->manager),
                                            (const TtgPolicyEntry *) (void *) entries->data,
                                            entries->len, &local))
    return policy_dict_error (r, local, error);

  r = ttg_auth_check (api->bus, m, TTG_ACTION_SET_USER_POLICY, on_set_user_policy_authorized, p);
  if (r < 0)
    return sd_bus_error_setf (error, SD_BUS_ERROR_ACCESS_DENIED, "Could not ask polkit: %s", g_strerror (-r));
  p = NULL; /* owned by the pending check */
  return 1;
}

/* Closes the reply's outer container and sends it. */
static int
close_and_send (sd_bus_message *reply)
{
  int r = sd_bus_message_close_container (reply);

  if (r < 0)
    return r;
  return sd_bus_send (NULL, reply, NULL);
}

static int
method_list_groups (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(GPtrArray) groups = ttg_manager_list_groups (api->manager);
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  r = sd_bus_message_new_method_return (m, &reply);
  if (r < 0)
    return r;
  r = sd_bus_message_open_container (reply, 'a', "(ssussuts)");
  if (r < 0)
    return r;
  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];

      r = sd_bus_message_append (reply, "(ssussuts)", g->unit, g->session_id, (uint32_t) g->uid,
                                 g->kind, g->tty, (uint32_t) g->leader, g->weight, g->description);
      if (r < 0)
        return r;
    }
  return close_and_send (reply);
}

/* ------------------------------------------------------------ figures -- */

/* TopGroups lists this many: what a panel has room for. */
#define TOP_GROUPS_MAX 5

static void
message_unref (gpointer m)
{
  sd_bus_message_unref (m);
}

static int
reply_group_stats (sd_bus_message *call, GPtrArray *groups, GArray *figures)
{
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  r = sd_bus_message_new_method_return (call, &reply);
  if (r < 0)
    return r;
  r = sd_bus_message_open_container (reply, 'a', "(ssussutsdd)");
  if (r < 0)
    return r;
  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];
      TtgGroupFigures *f = &g_array_index (figures, TtgGroupFigures, i);

      r = sd_bus_message_append (reply, "(ssussutsdd)", g->unit, g->session_id, (uint32_t) g->uid,
                                 g->kind, g->tty, (uint32_t) g->leader, g->weight, g->description,
                                 f->cpu, f->pressure);
      if (r < 0)
        return r;
    }
  return close_and_send (reply);
}

static int
on_stats_timer (sd_event_source *source, uint64_t usec, void *userdata)
{
  TtgApi *api = userdata;
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&api->stats_waiting);
  g_autoptr(GPtrArray) groups = ttg_manager_list_groups (api->manager);
  g_autoptr(GArray) figures = g_array_new (FALSE, FALSE, sizeof (TtgGroupFigures));

  api->stats_timer = sd_event_source_unref (api->stats_timer);
  api->stats_waiting = g_ptr_array_new_with_free_func (message_unref);
  (void) ttg_group_sampler_sample (api->sampler, groups, figures);
  /* A group that came up in between still has no rate: it shows -1 now
   * rather than keeping everyone waiting. */
  for (guint i = 0; i < waiting->len; i++)
    {
      sd_bus_message *call = waiting->pdata[i];
      int r = reply_group_stats (call, groups, figures);

      if (r < 0)
        (void) sd_bus_reply_method_errnof (call, r, "Could not list the groups: %s", g_strerror (-r));
    }
  return 0;
}

static int
method_list_group_stats (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(GPtrArray) groups = NULL;
  g_autoptr(GArray) figures = NULL;
  sd_event *event;
  int r;

  if (api->stats_timer)
    {
      g_ptr_array_add (api->stats_waiting, sd_bus_message_ref (m));
      return 1;
    }
  groups = ttg_manager_list_groups (api->manager);
  figures = g_array_new (FALSE, FALSE, sizeof (TtgGroupFigures));
  if (ttg_group_sampler_sample (api->sampler, groups, figures))
    return reply_group_stats (m, groups, figures);

  /* Some group has its first sample only: the rate comes with a second one,
   * a moment later. The call waits for it; the loop does not. The deadline
   * is counted from now, after the samples (CLOCK_MONOTONIC, as theirs):
   * sd-event's relative times start at the loop's wakeup, which is earlier. */
  event = sd_bus_get_event (api->bus);
  r = event ? sd_event_add_time (event, &api->stats_timer, CLOCK_MONOTONIC,
                                 (uint64_t) (g_get_monotonic_time () + TTG_STATS_MIN_INTERVAL_USEC),
                                 10 * G_TIME_SPAN_MILLISECOND, on_stats_timer, api)
            : -ENXIO;
  if (r < 0)
    return reply_group_stats (m, groups, figures);
  g_ptr_array_add (api->stats_waiting, sd_bus_message_ref (m));
  return 1;
}

static int
method_list_group_counters (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(GPtrArray) groups = ttg_manager_list_groups (api->manager);
  g_autoptr(GArray) counters = g_array_new (FALSE, FALSE, sizeof (TtgGroupCounters));
  g_autoptr(sd_bus_message) reply = NULL;
  int r;

  ttg_group_counters_read (groups, counters);
  r = sd_bus_message_new_method_return (m, &reply);
  if (r < 0)
    return r;
  r = sd_bus_message_open_container (reply, 'a', TTG_GROUP_COUNTERS_ENTRY);
  if (r < 0)
    return r;
  for (guint i = 0; i < groups->len; i++)
    {
      TtgGroupInfo *g = groups->pdata[i];
      TtgGroupCounters *c = &g_array_index (counters, TtgGroupCounters, i);

      r = sd_bus_message_append (reply, TTG_GROUP_COUNTERS_ENTRY, g->unit, g->session_id, (uint32_t) g->uid,
                                 g->kind, (uint64_t) g->weight, (uint64_t) c->usage_usec,
                                 (uint64_t) c->pressure_some_usec, (uint64_t) c->pressure_full_usec);
      if (r < 0)
        return r;
    }
  return close_and_send (reply);
}

static int
property_get_top_groups (sd_bus *bus, const char *path, const char *interface, const char *property,
                         sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(GPtrArray) groups = ttg_manager_list_groups (api->manager);
  g_autoptr(GArray) figures = g_array_new (FALSE, FALSE, sizeof (TtgGroupFigures));
  g_autoptr(GArray) order = NULL;
  int r;

  (void) ttg_group_sampler_sample (api->sampler, groups, figures);
  order = ttg_group_figures_order (groups, figures, TOP_GROUPS_MAX);
  r = sd_bus_message_open_container (reply, 'a', "(sssudd)");
  if (r < 0)
    return r;
  for (guint i = 0; i < order->len; i++)
    {
      guint k = g_array_index (order, guint, i);
      TtgGroupInfo *g = groups->pdata[k];
      TtgGroupFigures *f = &g_array_index (figures, TtgGroupFigures, k);

      r = sd_bus_message_append (reply, "(sssudd)", g->unit, g->kind, g->tty, (uint32_t) g->uid, f->cpu,
                                 f->pressure);
      if (r < 0)
        return r;
    }
  return sd_bus_message_close_container (reply);
}

static int
method_get_group_for_pid (sd_bus_message *m, void *userdata, sd_bus_error *error)
{
  TtgApi *api = userdata;
  g_autoptr(sd_bus_message) reply = NULL;
  g_autoptr(GError) local = NULL;
  g_auto(TtgPidInfo) info = { 0 };
  uint32_t pid;
  int r;

  r = sd_bus_message_read (m, "u", &pid);
  if (r < 0)
    return r;
  if (pid == 0 || pid > G_MAXINT32 || !ttg_manager_explain_pid (api->manager, (pid_t) pid, &info, &local))
    return sd_bus_error_setf (error, TTG_DBUS_ERROR_NO_SUCH_PROCESS, "No process with pid %u", pid);

  r = sd_bus_message_new_method_return (m, &reply);
  if (r < 0)
    return r;
  r = sd_bus_message_open_container (reply, 'a', "{sv}");
  if (r < 0)
    return r;
  r = sd_bus_message_append (reply, "{sv}{sv}{sv}{sv}{sv}{sv}{sv}",
                             "Unit", "s", info.unit,
                             "ControlGroup", "s", info.cgroup,
                             "Session", "s", info.session_id,
                             "Kind", "s", info.kind,
                             "Tty", "s", info.tty,
                             "Weight", "t", info.weight,
                             "Rule", "s", info.rule);
  if (r < 0)
    return r;
  return close_and_send (reply);
}

static const sd_bus_vtable manager_vtable[] = {
  SD_BUS_VTABLE_START (0),
  SD_BUS_PROPERTY ("Version", "s", property_get_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
  SD_BUS_PROPERTY ("Enabled", "b", property_get_enabled, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_PROPERTY ("Policy", "a{sv}", property_get_policy, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_PROPERTY (TTG_PROPERTY_EFFECTIVE, "b", property_get_effective, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_PROPERTY (TTG_PROPERTY_LIMITATIONS, "as", property_get_limitations, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
  SD_BUS_PROPERTY ("Status", "a{sv}", property_get_status, 0, 0),
  SD_BUS_PROPERTY ("TopGroups", "a(sssudd)", property_get_top_groups, 0, 0),
  SD_BUS_METHOD_WITH_ARGS ("SetPolicy", SD_BUS_ARGS ("a{sv}", changes), SD_BUS_NO_RESULT,
                           method_set_policy, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_METHOD_WITH_ARGS ("SetUserPolicy", SD_BUS_ARGS ("a{sv}", changes), SD_BUS_NO_RESULT,
                           method_set_user_policy, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_METHOD_WITH_ARGS ("ListGroups", SD_BUS_NO_ARGS, SD_BUS_RESULT ("a(ssussuts)", groups),
                           method_list_groups, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_METHOD_WITH_ARGS ("ListGroupStats", SD_BUS_NO_ARGS, SD_BUS_RESULT ("a(ssussutsdd)", groups),
                           method_list_group_stats, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_METHOD_WITH_ARGS (TTG_METHOD_LIST_GROUP_COUNTERS, SD_BUS_NO_ARGS,
                           SD_BUS_RESULT (TTG_GROUP_COUNTERS_SIGNATURE, groups),
                           method_list_group_counters, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_METHOD_WITH_ARGS ("GetGroupForPid", SD_BUS_ARGS ("u", pid), SD_BUS_RESULT ("a{sv}", group),
                           method_get_group_for_pid, SD_BUS_VTABLE_UNPRIVILEGED),
  SD_BUS_SIGNAL_WITH_ARGS ("GroupAdded", SD_BUS_ARGS ("s", unit, "s", session, "s", tty), 0),
  SD_BUS_SIGNAL_WITH_ARGS ("GroupRemoved", SD_BUS_ARGS ("s", unit), 0),
  SD_BUS_SIGNAL_WITH_ARGS ("GroupChanged", SD_BUS_ARGS ("s", unit, "t", weight), 0),
  SD_BUS_VTABLE_END
};

static void
on_group_added (const char *unit, const char *session_id, const char *tty, gpointer user_data)
{
  TtgApi *api = user_data;

  (void) sd_bus_emit_signal (api->bus, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "GroupAdded", "sss", unit, session_id, tty);
}

static void
on_group_removed (const char *unit, gpointer user_data)
{
  TtgApi *api = user_data;

  ttg_group_sampler_forget (api->sampler, unit);
  (void) sd_bus_emit_signal (api->bus, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "GroupRemoved", "s", unit);
}

static void
on_group_changed (const char *unit, guint64 weight, gpointer user_data)
{
  TtgApi *api = user_data;

  (void) sd_bus_emit_signal (api->bus, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "GroupChanged", "st", unit, (uint64_t) weight);
}

static void
on_cpu_changed (gpointer user_data)
{
  TtgApi *api = user_data;

  (void) sd_bus_emit_properties_changed (api->bus, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, TTG_PROPERTY_EFFECTIVE,
                                         TTG_PROPERTY_LIMITATIONS, NULL);
}

static const TtgManagerListener api_listener = {
  .group_added = on_group_added,
  .group_removed = on_group_removed,
  .group_changed = on_group_changed,
  .cpu_changed = on_cpu_changed,
};

TtgApi *
ttg_api_new (sd_bus *bus, TtgManager *manager, TtgState *state, GError **error)
{
  g_autoptr(TtgApi) api = g_new0 (TtgApi, 1);
  int r;

  api->bus = sd_bus_ref (bus);
  api->manager = manager;
  api->state = state;
  api->sampler = ttg_group_sampler_new ();
  api->stats_waiting = g_ptr_array_new_with_free_func (message_unref);

  r = sd_bus_add_object_vtable (bus, &api->vtable_slot, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, manager_vtable, api);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "Failed to publish %s: %s", TTG_DBUS_PATH, g_strerror (-r));
      return NULL;
    }
  ttg_manager_set_listener (manager, &api_listener, api);

  r = sd_bus_request_name (bus, TTG_DBUS_NAME, 0);
  if (r < 0)
    {
      g_set_error (error, TTG_ERROR, TTG_ERROR_FAILED, "Failed to own the bus name %s: %s",
                   TTG_DBUS_NAME, g_strerror (-r));
      return NULL;
    }
  return g_steal_pointer (&api);
}

void
ttg_api_free (TtgApi *api)
{
  if (!api)
    return;
  sd_bus_slot_unref (api->vtable_slot);
  sd_event_source_disable_unref (api->stats_timer);
  g_ptr_array_unref (api->stats_waiting);
  ttg_group_sampler_free (api->sampler);
  sd_bus_unref (api->bus);
  g_free (api);
}

void
ttg_api_policy_changed (TtgApi *api)
{
  (void) sd_bus_emit_properties_changed (api->bus, TTG_DBUS_PATH, TTG_DBUS_INTERFACE, "Enabled", "Policy", NULL);
}
