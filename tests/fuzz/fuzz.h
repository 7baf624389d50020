/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What every harness shares. A harness is one LLVMFuzzerTestOneInput(): built
 * with libFuzzer (clang, -Dfuzzing=true) it is fuzzed; built with replay.c
 * (any compiler, always) it replays its corpus as a unit test. */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A broken promise of the parser is a crash, so the fuzzer keeps the input. */
#define FUZZ_CHECK(cond)                                                              \
  do                                                                                  \
    {                                                                                 \
      if (!(cond))                                                                    \
        {                                                                             \
          fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
          abort ();                                                                   \
        }                                                                             \
    }                                                                                 \
  while (0)

/* A g_return_if_fail() or g_warning() reached from input is a bug too. */
static inline void
fuzz_setup (void)
{
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* The input as a NUL-terminated string, as the readers get the files of
 * /proc (g_file_get_contents): a NUL inside ends it there. */
static inline char *
fuzz_strndup (const uint8_t *data, size_t size)
{
  char *s = g_malloc (size + 1);

  if (size)
    memcpy (s, data, size);
  s[size] = '\0';
  return s;
}
