/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How many terminal groups one user may have, and how fast new ones may be
 * made. Every terminal group is a unit in PID 1; without a bound a user who
 * opens ptys in a loop would make systemd (and this service) grow with them.
 * A terminal over a limit simply stays in its session scope. */
typedef struct {
  guint max_groups;  /* live terminal groups per user (0: no cap) */
  guint burst;       /* new groups a user may start at once */
  guint per_minute;  /* then this many a minute (0: no rate limit) */
} TtgLimits;

#define TTG_LIMITS_DEFAULT_MAX_GROUPS 64
#define TTG_LIMITS_DEFAULT_BURST 32
#define TTG_LIMITS_DEFAULT_PER_MINUTE 240

void ttg_limits_init_default (TtgLimits *l);

/* The [Limits] group of the configuration file and its keys. */
#define TTG_LIMITS_GROUP "Limits"
#define TTG_KEY_MAX_TERMINAL_GROUPS_PER_USER "MaxTerminalGroupsPerUser"
#define TTG_KEY_TERMINAL_GROUP_BURST "TerminalGroupBurst"
#define TTG_KEY_TERMINAL_GROUPS_PER_MINUTE "TerminalGroupsPerMinute"
/* The highest value of each: a limit is a bound, never "none". */
#define TTG_LIMITS_MAX_VALUE 100000

/* Merges the [Limits] group of kf (if any) into *l. All or nothing: on an
 * unknown key or a value that is not a decimal number in
 * 1..TTG_LIMITS_MAX_VALUE, *l is untouched and error (TTG_ERROR_INVALID_POLICY)
 * names the key and the reason. */
gboolean ttg_limits_merge_keyfile (TtgLimits *l, GKeyFile *kf, GError **error);

/* "MaxTerminalGroupsPerUser=64 TerminalGroupBurst=32 TerminalGroupsPerMinute=240" */
char *ttg_limits_to_string (const TtgLimits *l);

typedef enum {
  TTG_ADMIT_YES,
  TTG_ADMIT_OVER_CAP,  /* the user has max_groups groups already */
  TTG_ADMIT_TOO_FAST,  /* the user's burst is spent; wait for the rate */
} TtgAdmit;

/* One user's budget: a token bucket for the rate, and what was said. */
typedef struct {
  guint64 milli_tokens; /* tokens x 1000 */
  gint64 last_usec;     /* when milli_tokens was last brought up to date; 0: never */
  gboolean told_cap;    /* the journal was told the cap holds (until all is clear for a while) */
  gboolean told_rate;
  gint64 clear_usec;    /* since when nothing of the user is held back; 0: something is */
} TtgBudget;

/* How long nothing of a user must be held back before a refusal is news
 * again: a user who keeps opening terminals a little faster than the rate
 * allows is held back and let through by turns, which is one flood, told
 * once, not once per terminal. */
#define TTG_BUDGET_QUIET_USEC (60 * G_USEC_PER_SEC)

/* May one more terminal group be started for a user who has live_groups
 * now? now_usec is CLOCK_MONOTONIC. YES takes a token. A cap that holds
 * takes nothing, so the rate is not spent on refusals. */
TtgAdmit ttg_budget_admit (TtgBudget *b, const TtgLimits *l, guint live_groups, gint64 now_usec);

/* Microseconds from now_usec until the next token (0: one is there, or no
 * rate limit): when a refused terminal may be tried again. */
gint64 ttg_budget_usec_to_next (const TtgBudget *b, const TtgLimits *l, gint64 now_usec);

/* TRUE the first time a refusal of this kind is seen, or the first since
 * all was clear (ttg_budget_all_clear()) for TTG_BUDGET_QUIET_USEC: the
 * journal says it once, not for every pty of a flood, nor for every
 * terminal the rate lets through during it. A refusal ends the all-clear. */
gboolean ttg_budget_tell_once (TtgBudget *b, TtgAdmit verdict, gint64 now_usec);

/* Nothing of the user is held back any more, since now_usec (kept if it
 * was clear already). */
void ttg_budget_all_clear (TtgBudget *b, gint64 now_usec);

/* "the cap of 64 terminal groups per user", "the rate of 240 new terminal
 * groups a minute (burst 32)": for the journal and explain. */
char *ttg_admit_explain (TtgAdmit verdict, const TtgLimits *l);

G_END_DECLS
