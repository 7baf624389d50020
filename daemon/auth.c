/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "build-config.h"

#include "auth.h"
#include "util.h"

/* CheckAuthorization flags */
#define POLKIT_ALLOW_USER_INTERACTION 0x1

typedef struct {
  sd_bus_message *call;
  char *action_id;
  TtgAuthDone done;
  gpointer user_data;
} Check;

static void
check_free (Check *c)
{
  sd_bus_message_unref (c->call);
  g_free (c->action_id);
  g_free (c);
}

static int
on_polkit_reply (sd_bus_message *reply, void *user_data, sd_bus_error *ret_error)
{
  Check *c = user_data;
  g_auto(sd_bus_error) error = SD_BUS_ERROR_NULL;
  const sd_bus_error *e = sd_bus_message_get_error (reply);
  int authorized = 0, challenge = 0;
  int r;

  if (e)
    {
      ttg_log_warn ("auth", "polkit could not decide %s for %s: %s", c->action_id,
                    sd_bus_message_get_sender (c->call), e->message ?: e->name);
      sd_bus_error_setf (&error, SD_BUS_ERROR_ACCESS_DENIED,
                         "Could not ask polkit whether %s is allowed: %s", c->action_id,
                         e->message ?: e->name);
      c->done (c->call, FALSE, &error, c->user_data);
      check_free (c);
      return 0;
    }

  r = sd_bus_message_enter_container (reply, 'r', "bba{ss}");
  if (r >= 0)
    r = sd_bus_message_read (reply, "bb", &authorized, &challenge);
  if (r < 0)
    {
      sd_bus_error_setf (&error, SD_BUS_ERROR_ACCESS_DENIED, "polkit's answer could not be read");
      c->done (c->call, FALSE, &error, c->user_data);
      check_free (c);
      return 0;
    }

  if (authorized)
    c->done (c->call, TRUE, NULL, c->user_data);
  else
    {
      if (challenge && !sd_bus_message_get_allow_interactive_authorization (c->call))
        sd_bus_error_setf (&error, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED,
                           "Authentication is required for %s; call with interactive authorization allowed",
                           c->action_id);
      else
        sd_bus_error_setf (&error, SD_BUS_ERROR_ACCESS_DENIED,
                           "Not authorized: polkit refused %s", c->action_id);
      c->done (c->call, FALSE, &error, c->user_data);
    }
  check_free (c);
  return 0;
}

int
ttg_auth_check (sd_bus *bus, sd_bus_message *call, const char *action_id,
                TtgAuthDone done, gpointer user_data)
{
  g_autoptr(sd_bus_message) m = NULL;
  const char *sender = sd_bus_message_get_sender (call);
  uint32_t flags = 0;
  Check *c;
  int r;

  if (!sender)
    return -EBADMSG;
  if (sd_bus_message_get_allow_interactive_authorization (call))
    flags |= POLKIT_ALLOW_USER_INTERACTION;

  r = sd_bus_message_new_method_call (bus, &m, "org.freedesktop.PolicyKit1",
                                      "/org/freedesktop/PolicyKit1/Authority",
                                      "org.freedesktop.PolicyKit1.Authority",
                                      "CheckAuthorization");
  if (r >= 0)
    r = sd_bus_message_append (m, "(sa{sv})s", "system-bus-name", 1, "name", "s", sender, action_id);
  if (r >= 0)
    r = sd_bus_message_append (m, "a{ss}us", 0, flags, "");
  if (r < 0)
    return r;

  c = g_new0 (Check, 1);
  c->call = sd_bus_message_ref (call);
  c->action_id = g_strdup (action_id);
  c->done = done;
  c->user_data = user_data;
  /* An interactive check may wait for a password: no bus timeout then. */
  r = sd_bus_call_async (bus, NULL, m, on_polkit_reply, c,
                         (flags & POLKIT_ALLOW_USER_INTERACTION) ? UINT64_MAX - 1 : 0);
  if (r < 0)
    {
      check_free (c);
      return r;
    }
  return 0;
}
