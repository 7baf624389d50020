/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The configuration: the main file and one drop-in on top of it, as
 * ttg_config_load() reads them. The input is the main file, then (after the
 * first NUL byte, if any) the drop-in. */
#include <string.h>

#include "config.h"
#include "fuzz-policy.h"

static void
check_valid (const TtgPolicy *p)
{
  fuzz_check_policy_weights (p);
  FUZZ_CHECK (p->enabled == TRUE || p->enabled == FALSE);
  FUZZ_CHECK (p->group_terminals == TRUE || p->group_terminals == FALSE);
  FUZZ_CHECK (p->manage_greeter == TRUE || p->manage_greeter == FALSE);
}

/* Merges one file; all or nothing, and an error names the file. */
static gboolean
merge (TtgPolicy *p, const char *data, gsize len, const char *origin)
{
  g_autoptr(GError) error = NULL;
  TtgPolicy before = *p;

  if (ttg_config_merge_data (p, NULL, data, len, origin, &error))
    {
      FUZZ_CHECK (error == NULL);
      check_valid (p);
      return TRUE;
    }
  FUZZ_CHECK (error != NULL);
  FUZZ_CHECK (error->domain == TTG_ERROR && error->code == TTG_ERROR_INVALID_POLICY);
  FUZZ_CHECK (g_str_has_prefix (error->message, origin));
  FUZZ_CHECK (ttg_policy_equal (p, &before));
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = (const char *) data;
  const char *nul = size ? memchr (data, '\0', size) : NULL;
  gsize main_len = nul ? (gsize) (nul - text) : size;
  TtgPolicy p;

  fuzz_setup ();
  ttg_policy_init_defaults (&p);
  if (merge (&p, text, main_len, "/etc/ttygroup/ttygroup.conf") && nul)
    (void) merge (&p, nul + 1, size - main_len - 1, "/etc/ttygroup/ttygroup.conf.d/50-x.conf");

  /* What the service would write back reads as the same policy. */
  {
    g_autofree char *saved = ttg_policy_to_keyfile_data (&p);
    TtgPolicy again;

    ttg_policy_init_defaults (&again);
    again.enabled = !p.enabled;
    FUZZ_CHECK (merge (&again, saved, strlen (saved), "saved"));
    FUZZ_CHECK (ttg_policy_equal (&again, &p));
  }

  /* The line finder takes any text and names a line of it. */
  {
    g_autofree char *main_text = g_strndup (text, main_len);
    guint lines = 1;

    for (const char *c = main_text; *c; c++)
      lines += *c == '\n';
    FUZZ_CHECK (ttg_keyfile_bad_line (main_text) <= lines);
  }
  return 0;
}
