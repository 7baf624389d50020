/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The agent's reader of the service's PropertiesChanged signal and of the
 * Policy a{sv} in it. The input is the signal's parameters, "(sa{sv}as)",
 * serialized as GVariant (what GDBus hands the agent once it has read a
 * message); GVariant turns any bytes into a value of that type. */
#include <string.h>

#include "agent-policy.h"
#include "fuzz.h"
#include "ttg-bus.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GVariant) params = NULL;
  g_autoptr(GVariant) value = NULL;
  TtgAgentSystem sys;

  fuzz_setup ();
  bytes = g_bytes_new (data, size);
  params = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE ("(sa{sv}as)"), bytes, FALSE));

  if (ttg_agent_property_changed (params, TTG_DBUS_INTERFACE, "Policy", &value))
    {
      const char *iface;

      g_variant_get_child (params, 0, "&s", &iface);
      FUZZ_CHECK (g_str_equal (iface, TTG_DBUS_INTERFACE));
      memset (&sys, 0x5a, sizeof sys);
      /* What the agent does with it: a{sv} is read, anything else ignored. */
      ttg_agent_system_from_policy (value, &sys);
      FUZZ_CHECK (sys.enabled == TRUE || sys.enabled == FALSE);
      FUZZ_CHECK (sys.group_terminals == TRUE || sys.group_terminals == FALSE);
      {
        TtgAgentPrefs prefs = { TRUE, TRUE, 100 };
        guint64 w = ttg_agent_scope_weight (&sys, &prefs, 0);

        FUZZ_CHECK (w == TTG_AGENT_WEIGHT_UNSET || w <= MAX (sys.terminal_weight, (guint64) 100));
      }
    }
  else
    FUZZ_CHECK (value == NULL);

  /* Another property or interface is never taken for Policy. */
  {
    g_autoptr(GVariant) other = NULL;

    if (ttg_agent_property_changed (params, "org.freedesktop.DBus.Properties", "Policy", &other))
      {
        const char *iface;

        g_variant_get_child (params, 0, "&s", &iface);
        FUZZ_CHECK (g_str_equal (iface, "org.freedesktop.DBus.Properties"));
      }
  }
  return 0;
}
