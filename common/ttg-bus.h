/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The names of the org.ttygroup1 contract (dbus/org.ttygroup1.xml), shared by
 * ttygroupd, ttygroupctl and ttygroup-agent so that none of them spells one
 * differently. Plain strings: no D-Bus library needed. */

#define TTG_DBUS_NAME "org.ttygroup1"
#define TTG_DBUS_PATH "/org/ttygroup1"
#define TTG_DBUS_INTERFACE "org.ttygroup1.Manager"

/* Whether the CPU weights can act, and the sentences that say why not. */
#define TTG_PROPERTY_EFFECTIVE "Effective"
#define TTG_PROPERTY_LIMITATIONS "Limitations"

/* Keys of the Status a{sv}: the service's counters, each a "t". */
#define TTG_STATUS_PROCESS_EVENTS "ProcessEvents"
#define TTG_STATUS_LOST_EVENTS "LostEvents"
#define TTG_STATUS_PLACEMENTS "Placements"
#define TTG_STATUS_PLACEMENT_FAILURES "PlacementFailures"
/* ... and the counts of sessions and terminal groups, each a "u". */
#define TTG_STATUS_SESSIONS "Sessions"
#define TTG_STATUS_GROUPS "Groups"

/* ListGroupCounters: per group unit, session, uid, kind, weight, then the
 * cumulative figures: CPU usage, cpu.pressure some total, full total, in
 * microseconds; TTG_COUNTER_UNKNOWN where not known. */
#define TTG_METHOD_LIST_GROUP_COUNTERS "ListGroupCounters"
#define TTG_GROUP_COUNTERS_ENTRY "(ssustttt)"
#define TTG_GROUP_COUNTERS_SIGNATURE "a" TTG_GROUP_COUNTERS_ENTRY
#define TTG_COUNTER_UNKNOWN 0xffffffffffffffffULL

/* Named errors of SetPolicy, SetUserPolicy and GetGroupForPid. */
#define TTG_DBUS_ERROR_INVALID_POLICY "org.ttygroup1.Error.InvalidPolicy"
#define TTG_DBUS_ERROR_NO_SUCH_PROCESS "org.ttygroup1.Error.NoSuchProcess"
#define TTG_DBUS_ERROR_FAILED "org.ttygroup1.Error.Failed"

/* polkit actions (polkit/org.ttygroup1.policy.in). */
#define TTG_ACTION_SET_POLICY "org.ttygroup1.set-policy"
#define TTG_ACTION_SET_USER_POLICY "org.ttygroup1.set-user-policy"

/* The desktop agent: its name on the session bus (one agent per user
 * session) and its GSettings schema. */
#define TTG_AGENT_DBUS_NAME "org.ttygroup1.Agent"
#define TTG_SETTINGS_SCHEMA "org.ttygroup1"
