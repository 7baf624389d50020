/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The clock of the test helpers' measurements. */
#pragma once

#include <time.h>

/* CLOCK_MONOTONIC in milliseconds */
static inline double
now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
