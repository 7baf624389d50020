/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The pure parts of ttygroupctl's command line: no bus, no output, so the
 * unit tests take them as they are. */

#include <glib.h>

#include "ttg-policy-keys.h"

G_BEGIN_DECLS

typedef enum {
  CTL_ASSIGN_OK,
  CTL_ASSIGN_SYNTAX,      /* not KEY=VALUE (no '=', or nothing before it) */
  CTL_ASSIGN_UNKNOWN_KEY, /* *ret_key is set */
  CTL_ASSIGN_BAD_VALUE,   /* *ret_key and ret->info are set */
} CtlAssignResult;

/* One KEY=VALUE argument of set-policy and set-user-policy. The value is
 * read by ttg_policy_parse_text(), the rule of ttygroup.conf, so the
 * command line takes exactly the texts the file takes; the range of a
 * weight is left to the service (it alone knows it for set-user-policy).
 * *ret_key (the part before '=', to free) is set unless the syntax is
 * wrong. */
CtlAssignResult ctl_parse_assignment (const char *arg, char **ret_key, TtgPolicyValue *ret);

typedef enum {
  JSON_OFF,
  JSON_SHORT,  /* one document on one line */
  JSON_PRETTY, /* indented, for people */
} JsonMode;

/* The value of --json: "short", "pretty" or "off"; NULL (a bare --json)
 * means short. FALSE for anything else. */
gboolean ctl_parse_json_mode (const char *text, JsonMode *out);

/* A bare "--json" (before the first "--") becomes "--json=short" in argv:
 * GOption would take the next argument, the command, as its value. */
void ctl_expand_bare_json (int argc, char **argv);

/* The options that take no value: "--NAME=..." for one of them, before the
 * first "--", is an error GOption lets through. Returns the first such
 * argument of argv (argc entries, argv[0] the program), or NULL. */
const char *ctl_find_flag_with_value (int argc, char **argv, const char *const *flags);

/* compact, one JSON document as ttygroupctl writes it (no blanks outside
 * strings), indented by two spaces a level; a new string. */
char *ctl_json_pretty (const char *compact);

G_END_DECLS
