/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /proc/PID/stat text, which a process shapes through its comm (any bytes
 * but NUL, ')' and newlines included, through prctl(PR_SET_NAME)). */
#include <string.h>

#include "fuzz.h"
#include "procstat.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TtgProcStat st;
  guint index;

  fuzz_setup ();
  text = fuzz_strndup (data, size);
  memset (&st, 0x5a, sizeof st);
  if (ttg_proc_stat_parse (text, &st, &error))
    {
      FUZZ_CHECK (error == NULL);
      FUZZ_CHECK (st.pid > 0);
      FUZZ_CHECK (st.ppid >= 0 && st.pgrp >= 0 && st.session >= 0);
      FUZZ_CHECK (memchr (st.comm, '\0', sizeof st.comm) != NULL);
      FUZZ_CHECK (g_ascii_isalpha (st.state));
      if (ttg_tty_nr_is_pts (st.tty_nr, &index))
        FUZZ_CHECK (index < 8 * 256 + (1u << 20));
    }
  else
    {
      FUZZ_CHECK (error != NULL && error->message != NULL);
      /* Nothing is half-written on failure. */
      for (gsize i = 0; i < sizeof st; i++)
        FUZZ_CHECK (((const guint8 *) &st)[i] == 0x5a);
    }
  return 0;
}
