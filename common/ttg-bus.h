/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The names of the org.ttygroup1 contract (dbus/org.ttygroup1.xml), shared by
 * ttygroupd, ttygroupctl and ttygroup-agent so that none of them spells one
 * differently. Plain strings: no D-Bus library needed. */

#define TTG_DBUS_NAME "org.ttygroup1"
#define TTG_DBUS_PATH "/org/ttygroup1"
#define TTG_DBUS_INTERFACE "org.ttygroup1.Manager"

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
