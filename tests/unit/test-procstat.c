/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* posix_openpt(), ptsname() */
#define _GNU_SOURCE
#include "procstat.h"
#include "policy.h" /* TTG_ERROR */

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Real lines, copied from a Debian 12 host (6.x kernel). The second is a
 * login shell on pts/0: tty_nr 34816 = major 136, minor 0. */
#define STAT_CAT \
  "3576 (cat) R 3566 3566 2875 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 " \
  "385148 3133440 411 18446744073709551615 94442740502528 94442740522409 " \
  "140731899714016 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 94442740538416 " \
  "94442740540032 94442753699840 140731899722370 140731899722390 " \
  "140731899722390 140731899723755 0\n"
#define STAT_BASH_PTS0 \
  "2875 (bash) S 2874 2875 2875 34816 3566 4194560 2123 51911 2 69 1 1 52 " \
  "13 20 0 1 0 384260 5124096 943 18446744073709551615 94881118142464 " \
  "94881118931869 140731454770064 0 0 0 65536 4 1132560123 1 0 0 17 1 0 0 " \
  "0 0 0 94881119165168 94881119213412 94881782988800 140731454778170 " \
  "140731454778185 140731454778185 140731454779370 0\n"
/* Everything after tty_nr, for made-up lines. */
#define STAT_TAIL " -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 385148 3133440 411\n"

static void
assert_stat (const TtgProcStat *st, pid_t pid, const char *comm, char state,
             pid_t ppid, pid_t pgrp, pid_t session, guint32 tty_nr)
{
  g_assert_cmpint (st->pid, ==, pid);
  g_assert_cmpstr (st->comm, ==, comm);
  g_assert_cmpint (st->state, ==, state);
  g_assert_cmpint (st->ppid, ==, ppid);
  g_assert_cmpint (st->pgrp, ==, pgrp);
  g_assert_cmpint (st->session, ==, session);
  g_assert_cmpuint (st->tty_nr, ==, tty_nr);
}

static void
test_stat_real (void)
{
  g_autoptr(GError) error = NULL;
  TtgProcStat st;

  g_assert_true (ttg_proc_stat_parse (STAT_CAT, &st, &error));
  g_assert_no_error (error);
  assert_stat (&st, 3576, "cat", 'R', 3566, 3566, 2875, 0);

  g_assert_true (ttg_proc_stat_parse (STAT_BASH_PTS0, &st, &error));
  g_assert_no_error (error);
  assert_stat (&st, 2875, "bash", 'S', 2874, 2875, 2875, 34816);

  /* As read with the newline already stripped. */
  g_assert_true (ttg_proc_stat_parse ("1 (systemd) S 0 1 1 0 -1 4194560", &st, &error));
  g_assert_no_error (error);
  assert_stat (&st, 1, "systemd", 'S', 0, 1, 1, 0);

  /* A kernel thread: no session, no parent in this namespace. */
  g_assert_true (ttg_proc_stat_parse ("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0",
                                      &st, &error));
  g_assert_no_error (error);
  assert_stat (&st, 2, "kthreadd", 'S', 0, 0, 0, 0);
}

static void
test_stat_self (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  TtgProcStat st;

  g_file_get_contents ("/proc/self/stat", &text, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (ttg_proc_stat_parse (text, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpint (st.pid, ==, getpid ());
  g_assert_cmpint (st.ppid, ==, getppid ());
  g_assert_cmpint (st.pgrp, ==, getpgrp ());
  g_assert_cmpint (st.session, ==, getsid (0));
  g_assert_cmpint (st.state, ==, 'R');
}

typedef struct {
  const char *text;
  const char *comm;
} CommCase;

static void
test_stat_comm (void)
{
  /* prctl(PR_SET_NAME) takes any 15 bytes; these are all legal names. */
  static const CommCase cases[] = {
    { "42 (tmux: server) S 1 42 42 0" STAT_TAIL, "tmux: server" },
    { "42 (a) (b) S 1 42 42 0" STAT_TAIL, "a) (b" },
    { "42 (x) S 1 2 3 4) S 1 42 42 0" STAT_TAIL, "x) S 1 2 3 4" },
    { "42 ()) S 1 42 42 0" STAT_TAIL, ")" },
    { "42 (() S 1 42 42 0" STAT_TAIL, "(" },
    { "42 ((sd-pam)) S 1 42 42 0" STAT_TAIL, "(sd-pam)" },
    { "42 () S 1 42 42 0" STAT_TAIL, "" },
    { "42 ( ) S 1 42 42 0" STAT_TAIL, " " },
    { "42 (a\nb) S 1 42 42 0" STAT_TAIL, "a\nb" },
    { "42 (kworker/u16:3-events_unbound) S 1 42 42 0" STAT_TAIL,
      "kworker/u16:3-events_unbound" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      TtgProcStat st;

      g_test_message ("stat: %s", cases[i].text);
      g_assert_true (ttg_proc_stat_parse (cases[i].text, &st, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (st.comm, ==, cases[i].comm);
      g_assert_cmpint (st.pid, ==, 42);
      g_assert_cmpint (st.ppid, ==, 1);
      g_assert_cmpint (st.session, ==, 42);
      g_assert_cmpint (st.state, ==, 'S');
    }
}

static void
test_stat_comm_long (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strnfill (100, 'n');
  g_autofree char *text = g_strdup_printf ("7 (%s) S 1 7 7 34819" STAT_TAIL, name);
  TtgProcStat st;

  /* Longer than any kernel writes today: cut, not refused. */
  g_assert_true (ttg_proc_stat_parse (text, &st, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (st.comm), ==, sizeof st.comm - 1);
  g_assert_true (strncmp (st.comm, name, sizeof st.comm - 1) == 0);
  g_assert_cmpuint (st.tty_nr, ==, 34819);
}

static void
test_stat_negative_tty (void)
{
  g_autoptr(GError) error = NULL;
  TtgProcStat st;

  /* The kernel prints the u32 as an int. */
  g_assert_true (ttg_proc_stat_parse ("9 (x) S 1 9 9 -2147448832" STAT_TAIL,
                                      &st, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (st.tty_nr, ==, 0x80008800u);
}

static void
test_stat_malformed (void)
{
  static const char *const bad[] = {
    "",
    " ",
    "\n",
    "42",
    "42 ",
    "42 (",
    "42 (bash",
    "42 (bash) ",
    "42 (bash)",
    "42 (bash) S",
    "42 (bash) S ",
    "42 (bash) S 1",
    "42 (bash) S 1 42",
    "42 (bash) S 1 42 42",
    "42 (bash) S 1 42 42 ",
    /* Cut inside tty_nr: 348 is not 34816. */
    "42 (bash) S 1 42 42 348",
    "42 (bash) S 1 42 42 34816",
    "42 (bash) S 1 42 42 34816\n",
    /* Fields that are not numbers. */
    "x (bash) S 1 42 42 0" STAT_TAIL,
    "-42 (bash) S 1 42 42 0" STAT_TAIL,
    "0 (bash) S 1 42 42 0" STAT_TAIL,
    "42 (bash) S x 42 42 0" STAT_TAIL,
    "42 (bash) S 1 4x2 42 0" STAT_TAIL,
    "42 (bash) S 1 42 -42 0" STAT_TAIL,
    "42 (bash) S 1 42 42 x" STAT_TAIL,
    "42 (bash) S 1 42 42 -" STAT_TAIL,
    "42 (bash) S 1 42 42 3.5" STAT_TAIL,
    "42 (bash) S 1 42 42 +0" STAT_TAIL,
    "42 (bash) 1 1 42 42 0" STAT_TAIL,
    /* Separators other than exactly one blank. */
    "42(bash) S 1 42 42 0" STAT_TAIL,
    "42  (bash) S 1 42 42 0" STAT_TAIL,
    " 42 (bash) S 1 42 42 0" STAT_TAIL,
    "42 (bash)S 1 42 42 0" STAT_TAIL,
    "42 (bash) S  1 42 42 0" STAT_TAIL,
    "42 (bash) S\t1 42 42 0" STAT_TAIL,
    "42 bash S 1 42 42 0" STAT_TAIL,
    /* Overflowing numbers must not wrap into plausible pids. */
    "4294967338 (bash) S 1 42 42 0" STAT_TAIL,
    "42 (bash) S 1 42 4294967338 0" STAT_TAIL,
    "42 (bash) S 1 42 42 4294967296" STAT_TAIL,
    "42 (bash) S 1 42 42 99999999999999999999999" STAT_TAIL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      TtgProcStat st;
      TtgProcStat before;

      memset (&st, 0x5a, sizeof st);
      before = st;

      g_test_message ("stat: \"%s\"", bad[i]);
      g_assert_false (ttg_proc_stat_parse (bad[i], &st, &error));
      g_assert_error (error, TTG_ERROR, TTG_ERROR_FAILED);
      g_assert_true (g_str_has_prefix (error->message, "Malformed stat: "));
      /* Nothing half-parsed leaks out. */
      g_assert_true (memcmp (&st, &before, sizeof st) == 0);
    }

  /* The error is optional. */
  {
    TtgProcStat st;

    g_assert_false (ttg_proc_stat_parse ("42 (bash", &st, NULL));
  }
}

/* new_encode_dev() from the kernel, for readable expectations. */
static guint32
encode_dev (guint major, guint minor)
{
  return (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
}

typedef struct {
  guint32 tty_nr;
  gboolean is_pts;
  guint index;
} TtyCase;

static void
test_tty_nr (void)
{
  static const TtyCase cases[] = {
    { 0, FALSE, 0 },
    { 34816, TRUE, 0 },          /* pts/0, as in the stat line above */
    { 34819, TRUE, 3 },          /* pts/3 */
    { 1025, FALSE, 0 },          /* tty1: major 4 */
    { 1024, FALSE, 0 },          /* tty0 */
    { 1088, FALSE, 0 },          /* ttyS0: major 4, minor 64 */
    { 1280, FALSE, 0 },          /* /dev/tty: major 5 */
    { 34560, FALSE, 0 },         /* major 135 */
    { 36864, FALSE, 0 },         /* major 144 */
    { 0x00088000, FALSE, 0 },    /* major 0x880 is not 136 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint index = 12345;

      g_test_message ("tty_nr %u", cases[i].tty_nr);
      g_assert_cmpint (ttg_tty_nr_is_pts (cases[i].tty_nr, &index), ==, cases[i].is_pts);
      if (cases[i].is_pts)
        g_assert_cmpuint (index, ==, cases[i].index);
      else
        g_assert_cmpuint (index, ==, 12345);
    }

  /* pts/300 as today's kernels number it: major 136, a 20-bit minor whose
   * high bits sit above the major in the encoding. */
  {
    guint index;

    g_assert_cmpuint (encode_dev (136, 300), ==, 0x10882c);
    g_assert_true (ttg_tty_nr_is_pts (encode_dev (136, 300), &index));
    g_assert_cmpuint (index, ==, 300);

    /* And as old kernels with 8-bit minors did: major 137, minor 44. */
    g_assert_true (ttg_tty_nr_is_pts (encode_dev (137, 44), &index));
    g_assert_cmpuint (index, ==, 300);

    g_assert_true (ttg_tty_nr_is_pts (encode_dev (143, 255), &index));
    g_assert_cmpuint (index, ==, 7 * 256 + 255);

    g_assert_true (ttg_tty_nr_is_pts (encode_dev (136, 0xfffff), &index));
    g_assert_cmpuint (index, ==, 0xfffff);

    g_assert_false (ttg_tty_nr_is_pts (encode_dev (4, 300), &index));
  }

  /* The index is optional. */
  g_assert_true (ttg_tty_nr_is_pts (34819, NULL));
  g_assert_false (ttg_tty_nr_is_pts (1025, NULL));
}

/* Opens ptys until one numbered at least min_index exists. */
static int
open_pty (guint min_index, guint *index)
{
  for (guint tries = 0; tries < min_index + 64; tries++)
    {
      int fd = posix_openpt (O_RDWR | O_NOCTTY);
      const char *name;
      guint64 n;

      if (fd < 0)
        return -1;
      if (grantpt (fd) < 0 || unlockpt (fd) < 0 || (name = ptsname (fd)) == NULL)
        return -1;
      if (!g_str_has_prefix (name, "/dev/pts/") ||
          !g_ascii_string_to_unsigned (name + strlen ("/dev/pts/"), 10, 0, G_MAXUINT,
                                       &n, NULL))
        return -1;

      if (n >= min_index)
        {
          *index = n;
          return fd;
        }
      /* Leave it open so the next one gets a higher number. */
    }

  return -1;
}

/* Runs in a subprocess: becomes a session leader with a pty as controlling
 * tty, the way a terminal emulator starts a shell, and checks that the
 * kernel's own stat line decodes to that pty. */
static void
check_own_pty (guint min_index)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *slave_name = NULL;
  TtgProcStat st;
  guint expected = 0;
  guint index;
  int master;
  int slave;

  master = open_pty (min_index, &expected);
  g_assert_cmpint (master, >=, 0);
  slave_name = g_strdup (ptsname (master));

  g_assert_cmpint (setsid (), ==, getpid ());
  slave = open (slave_name, O_RDWR);
  g_assert_cmpint (slave, >=, 0);

  g_file_get_contents ("/proc/self/stat", &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ttg_proc_stat_parse (text, &st, &error));
  g_assert_no_error (error);

  g_test_message ("controlling tty %s, tty_nr %u", slave_name, st.tty_nr);
  g_assert_cmpint (st.session, ==, st.pid);
  g_assert_true (ttg_tty_nr_is_pts (st.tty_nr, &index));
  g_assert_cmpuint (index, ==, expected);
}

static void
test_tty_nr_kernel (gconstpointer data)
{
  guint min_index = GPOINTER_TO_UINT (data);

  if (g_test_subprocess ())
    {
      check_own_pty (min_index);
      return;
    }

  {
    int probe = posix_openpt (O_RDWR | O_NOCTTY);

    if (probe < 0)
      {
        g_test_skip ("no ptys here");
        return;
      }
    close (probe);
  }

  /* A subprocess, because setsid() and a controlling tty change the
   * process for good. */
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* cgroup.events as the kernel writes it (6.1: populated, then frozen),
 * and text that is not it. */
static void
test_cgroup_events (void)
{
  static const struct {
    const char *text;
    int populated;
  } cases[] = {
    { "populated 1\nfrozen 0\n", 1 },
    { "populated 0\nfrozen 0\n", 0 },
    { "frozen 1\npopulated 0\n", 0 },
    { "populated 0", 0 },
    { "populated 1\n", 1 },
    { "", -1 },
    { "frozen 0\n", -1 },
    { "populated\n", -1 },
    { "populated \n", -1 },
    { "populated 2\n", -1 },
    { "populated 10\n", -1 },
    { "populated 0 \n", -1 },
    { "unpopulated 0\n", -1 },
    { " populated 0\n", -1 },
    { "xpopulated 1\npopulated 0\n", 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %" G_GSIZE_FORMAT ": %s", i, cases[i].text);
      g_assert_cmpint (ttg_cgroup_events_populated (cases[i].text), ==, cases[i].populated);
    }
  g_assert_cmpint (ttg_cgroup_events_populated (NULL), ==, -1);
}

typedef struct {
  const char *text;
  const char *path; /* NULL: no v2 path */
} CgroupCase;

static void
test_cgroup_v2_path (void)
{
  static const CgroupCase cases[] = {
    /* Pure v2 (the default since systemd 247). */
    { "0::/user.slice/user-1000.slice/session-3.scope\n",
      "/user.slice/user-1000.slice/session-3.scope" },
    { "0::/user.slice/user-1000.slice/session-3.scope",
      "/user.slice/user-1000.slice/session-3.scope" },
    { "0::/\n", "/" },
    /* Hybrid: v1 controllers and the unified hierarchy, from a real host. */
    { "9:name=systemd:/\n8:pids:/\n7:blkio:/\n6:freezer:/\n5:devices:/\n"
      "4:memory:/process_api/748b57e4413579ff32e7a8c9f2d5f76b\n3:cpuset:/\n"
      "2:cpuacct:/\n1:cpu:/\n0::/\n", "/" },
    { "12:cpu,cpuacct:/user.slice\n1:name=systemd:/user.slice/user-1000.slice/session-c2.scope\n"
      "0::/user.slice/user-1000.slice/session-c2.scope\n",
      "/user.slice/user-1000.slice/session-c2.scope" },
    /* v2 line first, then v1. */
    { "0::/system.slice/ssh.service\n1:name=systemd:/system.slice/ssh.service\n",
      "/system.slice/ssh.service" },
    /* cgroup directory names may hold ':' and blanks. */
    { "0::/a:b/c d\n", "/a:b/c d" },
    /* A cgroup removed under a dying process. */
    { "0::/user.slice/x.scope (deleted)\n", "/user.slice/x.scope (deleted)" },

    /* No v2 line. */
    { "", NULL },
    { "\n", NULL },
    { "1:name=systemd:/user.slice\n2:cpu:/\n", NULL },
    /* Malformed. */
    { "0::\n", NULL },
    { "0::user.slice\n", NULL },
    { "0:/user.slice\n", NULL },
    { "0\n", NULL },
    { "::/user.slice\n", NULL },
    { "x::/user.slice\n", NULL },
    { "-0::/user.slice\n", NULL },
    { " 0::/user.slice\n", NULL },
    { "0:cpu:/user.slice\n", NULL },
    { "0::/a\n0::/b\n", NULL },
    { "garbage\n0::/user.slice\n", NULL },
    { "0::/user.slice\n1:cpu\n", NULL },
    { "0::/user.slice\n1:cpu:relative\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = NULL;

      g_test_message ("cgroup: \"%s\"", cases[i].text);
      path = ttg_cgroup_v2_path_parse (cases[i].text);
      g_assert_cmpstr (path, ==, cases[i].path);
    }
}

static void
test_cgroup_self (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, &error))
    {
      g_test_skip (error->message);
      return;
    }
  if (strstr (text, "0::") == NULL)
    {
      g_test_skip ("no cgroup v2 hierarchy here");
      return;
    }

  path = ttg_cgroup_v2_path_parse (text);
  g_assert_nonnull (path);
  g_assert_true (path[0] == '/');
}

typedef struct {
  const char *path;
  const char *unit;
  const char *session;
} UnitCase;

static void
test_cgroup_unit (void)
{
  static const UnitCase cases[] = {
    { "/user.slice/user-1000.slice/session-3.scope", "session-3.scope", "3" },
    { "/user.slice/user-1000.slice/session-c12.scope", "session-c12.scope", "c12" },
    { "session-3.scope", "session-3.scope", "3" },
    { "/user.slice/user-1000.slice/session-3.scope/", "session-3.scope", "3" },
    { "/user.slice/user-1000.slice/ttygroup-pty-3-1234.scope",
      "ttygroup-pty-3-1234.scope", NULL },
    { "/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope", "x.scope", NULL },
    { "/user.slice/user-1000.slice", "user-1000.slice", NULL },
    { "/system.slice/ssh.service", "ssh.service", NULL },
    /* Looks like a session scope, but isn't one. */
    { "/user.slice/session-.scope", "session-.scope", NULL },
    { "/user.slice/session-3.scope.d", "session-3.scope.d", NULL },
    { "/user.slice/session-3.slice", "session-3.slice", NULL },
    { "/user.slice/xsession-3.scope", "xsession-3.scope", NULL },
    { "/user.slice/session-3-4.scope", "session-3-4.scope", NULL },
    { "/user.slice/session-../x.scope", "x.scope", NULL },
    { "/user.slice/session-3.scope (deleted)", "session-3.scope (deleted)", NULL },
    { "/user.slice/session-3 .scope", "session-3 .scope", NULL },
    { "/session-3.scope/child", "child", NULL },
    { "/", NULL, NULL },
    { "//", NULL, NULL },
    { "", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *unit = ttg_cgroup_path_unit (cases[i].path);
      g_autofree char *session = ttg_cgroup_path_session_id (cases[i].path);

      g_test_message ("path: \"%s\"", cases[i].path);
      g_assert_cmpstr (unit, ==, cases[i].unit);
      g_assert_cmpstr (session, ==, cases[i].session);
    }

  g_assert_null (ttg_cgroup_path_unit (NULL));
  g_assert_null (ttg_cgroup_path_session_id (NULL));

  {
    g_autofree char *id64 = g_strnfill (64, '7');
    g_autofree char *id65 = g_strnfill (65, '7');
    g_autofree char *path64 = g_strdup_printf ("/u/session-%s.scope", id64);
    g_autofree char *path65 = g_strdup_printf ("/u/session-%s.scope", id65);
    g_autofree char *got64 = ttg_cgroup_path_session_id (path64);
    g_autofree char *got65 = ttg_cgroup_path_session_id (path65);

    g_assert_cmpstr (got64, ==, id64);
    g_assert_null (got65);
  }
}

static void
test_session_id (void)
{
  static const char *const good[] = { "3", "c12", "1234567", "abcXYZ09" };
  static const char *const bad[] = {
    "", "../x", "3/4", "3 ", " 3", "3\n", "c-1", "c_1", "c.1", "3.scope",
    "-", "\xc3\xa9", "3\t",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    g_assert_true (ttg_session_id_is_valid (good[i]));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_test_message ("session id: \"%s\"", bad[i]);
      g_assert_false (ttg_session_id_is_valid (bad[i]));
    }

  g_assert_false (ttg_session_id_is_valid (NULL));

  {
    g_autofree char *id64 = g_strnfill (64, 'a');
    g_autofree char *id65 = g_strnfill (65, 'a');

    g_assert_true (ttg_session_id_is_valid (id64));
    g_assert_false (ttg_session_id_is_valid (id65));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/procstat/stat/real", test_stat_real);
  g_test_add_func ("/procstat/stat/self", test_stat_self);
  g_test_add_func ("/procstat/stat/comm", test_stat_comm);
  g_test_add_func ("/procstat/stat/comm-long", test_stat_comm_long);
  g_test_add_func ("/procstat/stat/negative-tty", test_stat_negative_tty);
  g_test_add_func ("/procstat/stat/malformed", test_stat_malformed);
  g_test_add_func ("/procstat/tty-nr/decode", test_tty_nr);
  g_test_add_data_func ("/procstat/tty-nr/kernel/low", GUINT_TO_POINTER (0),
                        test_tty_nr_kernel);
  g_test_add_data_func ("/procstat/tty-nr/kernel/above-255", GUINT_TO_POINTER (300),
                        test_tty_nr_kernel);
  g_test_add_func ("/procstat/cgroup/v2-path", test_cgroup_v2_path);
  g_test_add_func ("/procstat/cgroup/self", test_cgroup_self);
  g_test_add_func ("/procstat/cgroup/unit", test_cgroup_unit);
  g_test_add_func ("/procstat/cgroup/events", test_cgroup_events);
  g_test_add_func ("/procstat/session-id", test_session_id);

  return g_test_run ();
}
