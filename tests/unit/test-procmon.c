/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* gettid() */
#define _GNU_SOURCE
#include "procmon.h"
#include "util.h" /* autoptr for sd_event */

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Events arrive within milliseconds; the limit only keeps a broken build
 * from hanging. Generous, because CI runs tests in parallel and under
 * sanitizers. */
#define TIMEOUT_USEC (5 * G_USEC_PER_SEC)

/* The real proc connector: needs root (CAP_NET_ADMIN), which CI has. Without
 * that capability the whole program skips (exit 77, or every case "ok # SKIP"
 * under --tap) and says why; with it, failing to open the connector fails. */
typedef struct {
  sd_event *event;
  TtgProcmon *pm;
  GArray *events; /* TtgProcEvent, every one reported, in order */
  guint lost;
  pid_t until_exit_of; /* stop the loop at this pid's EXIT */
  gboolean done;
  gboolean timed_out;
} Fixture;

static void
on_event (const TtgProcEvent *event, gpointer user_data)
{
  Fixture *fx = user_data;

  g_array_append_val (fx->events, *event);
  if (event->kind == TTG_PROC_EVENT_EXIT && event->pid == fx->until_exit_of)
    fx->done = TRUE;
}

static void
on_lost (gpointer user_data)
{
  Fixture *fx = user_data;

  fx->lost++;
}

static void
fixture_setup (Fixture *fx, gconstpointer user_data)
{
  g_autoptr(GError) error = NULL;
  int r;

  r = sd_event_new (&fx->event);
  if (r < 0)
    g_error ("sd_event_new: %s", g_strerror (-r));
  fx->events = g_array_new (FALSE, TRUE, sizeof (TtgProcEvent));

  fx->pm = ttg_procmon_new (fx->event, on_event, on_lost, fx, &error);
  if (!fx->pm)
    g_prefix_error (&error, "Cannot watch process events (this test needs root or "
                            "CAP_NET_ADMIN, and the kernel's proc connector): ");
  g_assert_no_error (error);
  g_assert_nonnull (fx->pm);
}

static void
fixture_teardown (Fixture *fx, gconstpointer user_data)
{
  g_clear_pointer (&fx->pm, ttg_procmon_free);
  g_clear_pointer (&fx->event, sd_event_unref);
  g_clear_pointer (&fx->events, g_array_unref);
}

static int
on_timeout (sd_event_source *s, uint64_t usec, void *user_data)
{
  Fixture *fx = user_data;

  fx->timed_out = TRUE;
  return 0;
}

/* Runs the loop until pid's EXIT was (or had been) reported; fails after
 * TIMEOUT_USEC. */
static void
run_until_exit_of (Fixture *fx, pid_t pid)
{
  g_autoptr(sd_event_source) timer = NULL;
  int r;

  fx->until_exit_of = pid;
  fx->done = FALSE;
  fx->timed_out = FALSE;
  for (guint i = 0; i < fx->events->len; i++)
    {
      const TtgProcEvent *ev = &g_array_index (fx->events, TtgProcEvent, i);

      if (ev->kind == TTG_PROC_EVENT_EXIT && ev->pid == pid)
        return; /* already seen, in an earlier run */
    }

  r = sd_event_add_time_relative (fx->event, &timer, CLOCK_MONOTONIC, TIMEOUT_USEC, 0,
                                  on_timeout, fx);
  if (r < 0)
    g_error ("sd_event_add_time_relative: %s", g_strerror (-r));

  while (!fx->done && !fx->timed_out)
    {
      r = sd_event_run (fx->event, UINT64_MAX);
      if (r < 0)
        g_error ("sd_event_run: %s", g_strerror (-r));
    }
  sd_event_source_set_enabled (timer, SD_EVENT_OFF);

  if (!fx->done)
    g_error ("no EXIT event for pid %d within %d s (%u events seen, %u overflows)",
             (int) pid, (int) (TIMEOUT_USEC / G_USEC_PER_SEC), fx->events->len, fx->lost);
}

static void
wait_child (pid_t pid)
{
  int status = 0;
  pid_t r;

  do
    r = waitpid (pid, &status, 0);
  while (r < 0 && errno == EINTR);
  g_assert_cmpint (r, ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* What a terminal emulator does for its shell: fork, setsid, exec. */
static pid_t
spawn_session_leader (void)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (setsid () < 0)
        _exit (126);
      execl ("/bin/true", "true", (char *) NULL);
      _exit (127);
    }
  return pid;
}

static const char *
kind_name (TtgProcEventKind kind)
{
  switch (kind)
    {
    case TTG_PROC_EVENT_FORK:
      return "FORK";
    case TTG_PROC_EVENT_EXEC:
      return "EXEC";
    case TTG_PROC_EVENT_SID:
      return "SID";
    case TTG_PROC_EVENT_EXIT:
      return "EXIT";
    }
  return "?";
}

/* "FORK SID EXEC EXIT": the kinds reported for pid, in order. */
static char *
kinds_of (Fixture *fx, pid_t pid)
{
  g_autoptr(GString) kinds = g_string_new (NULL);

  for (guint i = 0; i < fx->events->len; i++)
    {
      const TtgProcEvent *ev = &g_array_index (fx->events, TtgProcEvent, i);

      if (ev->pid != pid)
        continue;
      if (kinds->len > 0)
        g_string_append_c (kinds, ' ');
      g_string_append (kinds, kind_name (ev->kind));
    }
  return g_string_free (g_steal_pointer (&kinds), FALSE);
}

static const TtgProcEvent *
find_fork (Fixture *fx, pid_t pid)
{
  for (guint i = 0; i < fx->events->len; i++)
    {
      const TtgProcEvent *ev = &g_array_index (fx->events, TtgProcEvent, i);

      if (ev->kind == TTG_PROC_EVENT_FORK && ev->pid == pid)
        return ev;
    }
  return NULL;
}

static guint
count_forks_by (Fixture *fx, pid_t parent)
{
  guint n = 0;

  for (guint i = 0; i < fx->events->len; i++)
    {
      const TtgProcEvent *ev = &g_array_index (fx->events, TtgProcEvent, i);

      if (ev->kind == TTG_PROC_EVENT_FORK && ev->parent == parent)
        n++;
    }
  return n;
}

static void
assert_counters (Fixture *fx)
{
  g_assert_cmpuint (ttg_procmon_get_event_count (fx->pm), ==, fx->events->len);
  g_assert_cmpuint (ttg_procmon_get_lost_count (fx->pm), ==, fx->lost);
}

static void
test_session_leader (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *kinds = NULL;
  pid_t child;

  child = spawn_session_leader ();
  run_until_exit_of (fx, child);
  wait_child (child);

  /* The fork is dropped by the kernel (procfilter.c): a child inherits its
   * parent's cgroup, nothing to act on. */
  kinds = kinds_of (fx, child);
  g_assert_cmpstr (kinds, ==, "SID EXEC EXIT");
  g_assert_null (find_fork (fx, child));

  assert_counters (fx);
}

static pid_t
spawn_plain (void)
{
  pid_t pid = fork ();

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      execl ("/bin/true", "true", (char *) NULL);
      _exit (127);
    }
  return pid;
}

static void
test_exec_of_no_leader (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *kinds = NULL;
  pid_t child;

  /* No setsid(): its exec cannot start a terminal, and is not reported;
   * its exit is (it might have been a group's leader). */
  child = spawn_plain ();
  run_until_exit_of (fx, child);
  wait_child (child);

  kinds = kinds_of (fx, child);
  g_assert_cmpstr (kinds, ==, "EXIT");

  assert_counters (fx);
}

static void
test_two_children (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *kinds_a = NULL;
  g_autofree char *kinds_b = NULL;
  pid_t a, b;

  /* Back to back: each child's events are its own, none lost. */
  a = spawn_session_leader ();
  b = spawn_session_leader ();
  run_until_exit_of (fx, a);
  run_until_exit_of (fx, b);
  wait_child (a);
  wait_child (b);

  kinds_a = kinds_of (fx, a);
  kinds_b = kinds_of (fx, b);
  g_assert_cmpstr (kinds_a, ==, "SID EXEC EXIT");
  g_assert_cmpstr (kinds_b, ==, "SID EXEC EXIT");

  assert_counters (fx);
}

static gpointer
thread_tid (gpointer data)
{
  *(pid_t *) data = gettid ();
  return NULL;
}

static void
test_thread_is_not_a_fork (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *kinds_tid = NULL;
  g_autofree char *kinds_self = NULL;
  g_autofree char *kinds_marker = NULL;
  pthread_t thread;
  pid_t tid = 0;
  pid_t marker;

  g_assert_cmpint (pthread_create (&thread, NULL, thread_tid, &tid), ==, 0);
  g_assert_cmpint (pthread_join (thread, NULL), ==, 0);
  g_assert_cmpint (tid, >, 0);
  g_assert_cmpint (tid, !=, getpid ());

  /* The connector reports in order: once the marker, forked after the
   * thread has come and gone, is reported, so would the thread have been. */
  marker = spawn_session_leader ();
  run_until_exit_of (fx, marker);
  wait_child (marker);

  /* Neither as the thread (FORK/EXIT of its tid: the kernel drops a
   * thread's exit) nor, mistaking the thread group for the child, as this
   * process; no fork at all is reported. */
  kinds_tid = kinds_of (fx, tid);
  kinds_self = kinds_of (fx, getpid ());
  kinds_marker = kinds_of (fx, marker);
  g_assert_cmpstr (kinds_tid, ==, "");
  g_assert_cmpstr (kinds_self, ==, "");
  g_assert_cmpstr (kinds_marker, ==, "SID EXEC EXIT");
  g_assert_cmpuint (count_forks_by (fx, getpid ()), ==, 0);

  assert_counters (fx);
}

static gpointer
thread_spawn (gpointer data)
{
  *(pid_t *) data = spawn_session_leader ();
  return NULL;
}

static void
test_fork_from_thread (Fixture *fx, gconstpointer user_data)
{
  g_autofree char *kinds = NULL;
  pthread_t thread;
  pid_t child = 0;

  /* A process forked by a secondary thread: reported as one forked by the
   * process (its fork itself is not reported). */
  g_assert_cmpint (pthread_create (&thread, NULL, thread_spawn, &child), ==, 0);
  g_assert_cmpint (pthread_join (thread, NULL), ==, 0);
  g_assert_cmpint (child, >, 0);
  run_until_exit_of (fx, child);
  wait_child (child);

  kinds = kinds_of (fx, child);
  g_assert_cmpstr (kinds, ==, "SID EXEC EXIT");

  assert_counters (fx);
}

static void
test_free_null (void)
{
  ttg_procmon_free (NULL);
}

/* Whether the effective capabilities hold CAP_NET_ADMIN (bit 12 of CapEff),
 * which binding the proc connector requires. */
static gboolean
have_cap_net_admin (void)
{
  g_autofree char *status = NULL;
  const char *line;
  guint64 caps;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return FALSE;
  line = strstr (status, "\nCapEff:");
  if (!line)
    return FALSE;
  caps = g_ascii_strtoull (line + strlen ("\nCapEff:"), NULL, 16);
  return (caps >> 12) & 1;
}

static void
skip_case (gconstpointer why)
{
  g_test_skip (why);
}

int
main (int argc, char **argv)
{
  const char *why = NULL;
  gboolean tap = FALSE;
  int r;

  for (int i = 1; i < argc; i++)
    tap = tap || g_str_equal (argv[i], "--tap");
  g_test_init (&argc, &argv, NULL);

  if (!have_cap_net_admin ())
    {
      why = "the kernel's proc connector needs root (CAP_NET_ADMIN); run as root";
      g_printerr ("test-procmon: skipped: %s\n", why);
    }

  /* All or none: a run without the capability shows as SKIP, not as a pass
   * of the one case that needs nothing. */
#define ADD_PLAIN(path, func) \
  do { \
    if (why) \
      g_test_add_data_func (path, why, skip_case); \
    else \
      g_test_add_func (path, func); \
  } while (0)
#define ADD(path, func) \
  do { \
    if (why) \
      g_test_add_data_func (path, why, skip_case); \
    else \
      g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown); \
  } while (0)

  ADD_PLAIN ("/procmon/free-null", test_free_null);

  ADD ("/procmon/session-leader", test_session_leader);
  ADD ("/procmon/exec-of-no-leader", test_exec_of_no_leader);
  ADD ("/procmon/two-children", test_two_children);
  ADD ("/procmon/thread-is-not-a-fork", test_thread_is_not_a_fork);
  ADD ("/procmon/fork-from-thread", test_fork_from_thread);

#undef ADD
#undef ADD_PLAIN

  r = g_test_run ();
  /* Under --tap the "# SKIP" lines say it; otherwise the exit status does,
   * as test drivers read it. */
  return why && !tap && r == 0 ? 77 : r;
}
