/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy dictionary of SetPolicy and SetUserPolicy: what any local user
 * may send the service. The input is the a{sv}, serialized as GVariant (any
 * bytes are some a{sv}: GVariant reads untrusted data into a value of the
 * type); its entries are taken as the service's bus reader takes them from
 * the message (key, the variant's signature, its value when that is "b" or
 * "t", at most TTG_POLICY_DICT_MAX + 1 entries) and checked by both
 * dictionaries. */
#include <string.h>

#include "fuzz-policy.h"
#include "policydict.h"

static void
check_valid (const TtgPolicy *p)
{
  fuzz_check_policy_weights (p);
}

static void
check_error (const GError *error)
{
  FUZZ_CHECK (error != NULL);
  FUZZ_CHECK (error->domain == TTG_ERROR && error->code == TTG_ERROR_INVALID_POLICY);
  /* It goes back to the caller as a D-Bus error message: valid UTF-8, and
   * short whatever the caller sent. */
  FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL));
  FUZZ_CHECK (strlen (error->message) < 512);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GVariant) dict = NULL;
  TtgPolicyEntry entries[TTG_POLICY_DICT_MAX + 1];
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  gsize n = 0;

  fuzz_setup ();
  bytes = g_bytes_new (data, size);
  dict = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, bytes, FALSE));

  memset (entries, 0, sizeof entries);
  for (gsize i = 0; i < g_variant_n_children (dict) && n < G_N_ELEMENTS (entries); i++, n++)
    {
      GVariant *value;

      g_variant_get_child (dict, i, "{&sv}", &entries[n].key, &value);
      g_ptr_array_add (values, value);
      entries[n].signature = g_variant_get_type_string (value);
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
        entries[n].b = g_variant_get_boolean (value);
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_UINT64))
        entries[n].t = g_variant_get_uint64 (value);
    }

  /* SetPolicy on the defaults. */
  {
    g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GError) error = NULL;
    TtgPolicy p, before;

    ttg_policy_init_defaults (&p);
    before = p;
    if (ttg_policy_dict_apply (&p, entries, n, keys, &error))
      {
        FUZZ_CHECK (error == NULL);
        FUZZ_CHECK (n >= 1 && n <= TTG_POLICY_DICT_MAX);
        FUZZ_CHECK (keys->len == n);
        for (gsize i = 0; i < n; i++)
          FUZZ_CHECK (g_str_equal (keys->pdata[i], entries[i].key));
        check_valid (&p);
      }
    else
      {
        check_error (error);
        FUZZ_CHECK (keys->len == 0);
        FUZZ_CHECK (ttg_policy_equal (&p, &before));
      }
  }

  /* SetUserPolicy under a system policy with a low terminal weight. */
  {
    g_autoptr(GError) error = NULL;
    TtgUserPolicy u = { 0 }, before;
    TtgPolicy sys, applied;

    ttg_policy_init_defaults (&sys);
    sys.terminal_weight = 50;
    u.has_terminal_weight = TRUE;
    u.terminal_weight = 20;
    before = u;
    if (ttg_user_policy_dict_apply (&u, &sys, entries, n, &error))
      {
        FUZZ_CHECK (error == NULL);
        for (gsize i = 0; i < n; i++)
          FUZZ_CHECK (ttg_user_policy_key_allowed (entries[i].key));
        FUZZ_CHECK (!u.has_terminal_weight || (u.terminal_weight >= 1 && u.terminal_weight <= 50));
        ttg_user_policy_apply (&u, &sys, &applied);
        check_valid (&applied);
        FUZZ_CHECK (applied.terminal_weight <= sys.terminal_weight);
      }
    else
      {
        check_error (error);
        FUZZ_CHECK (memcmp (&u, &before, sizeof u) == 0);
      }
  }
  return 0;
}
