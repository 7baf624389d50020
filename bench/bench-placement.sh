#!/bin/bash
# ttygroupd benchmark, run inside the test VM:   tools/vm run bench/bench-placement.sh [N_PTYS] [N_PROCS]
# Prints:
#   - placement latency: time from a new terminal's setsid() until its process
#     finds itself in its ttygroup scope, p50/p99/max over N_PTYS (default 200) ptys;
#   - the service's CPU time per 1000 process events during a fork burst of
#     N_PROCS (default 3000) short processes (fork+exec+exit = 3 events each),
#     run in a grouped terminal, 16 at a time (a parallel build's pattern);
#   - the service's RSS before and after.
# The VM runs under TCG emulation: absolute times are ~100x those of real
# hardware (fork+exec ~40 ms there); compare runs with each other.
set -eu
. /opt/ttygroup-test/lib.sh

N_PTYS=${1:-200}
N_PROCS=${2:-3000}

daemon_pid() { systemctl show -p MainPID --value ttygroupd; }
# utime+stime of the daemon in ms
daemon_cpu_ms() {
    local tck; tck=$(getconf CLK_TCK)
    awk -v t="$tck" '{ sub(/^.*\) /, ""); print ($12 + $13) * 1000 / t }' "/proc/$(daemon_pid)/stat"
}
daemon_rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$(daemon_pid)/status"; }

echo "ttygroupd $(/usr/libexec/ttygroupd --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPU (TCG)"
rss0=$(daemon_rss_kb)

s=$(ttg_open_pty_session alice)

# --- placement latency ---------------------------------------------------
out=$(TTG_RUN_TIMEOUT=1800 ttg_session_run "$s" "ptylat $N_PTYS 10000")
summary=$(grep '^n=' <<<"$out")
echo "placement latency (setsid -> in its scope): $summary"

# --- CPU per 1000 process events ------------------------------------------
cpu0=$(daemon_cpu_ms)
burst=$(TTG_RUN_TIMEOUT=1800 ttg_session_run "$s" "script -qfec 'forkburst $N_PROCS 16' /dev/null" | tr -d '\r')
cpu1=$(daemon_cpu_ms)
events=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' <<<"$burst")
echo "fork burst: $burst"
awk -v c="$cpu1" -v b="$cpu0" -v e="$events" \
    'BEGIN { printf "service CPU time: %.0f ms for %d process events = %.1f ms per 1000 events\n", c - b, e, (c - b) * 1000 / e }'

rss1=$(daemon_rss_kb)
echo "service RSS: ${rss0} kB at start, ${rss1} kB after $N_PTYS ptys and $N_PROCS processes"
echo "BENCH placement_p50_ms=$(sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p' <<<"$summary") placement_p99_ms=$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' <<<"$summary") rss_kb=$rss1"
systemctl status ttygroupd --no-pager | sed -n '1,8p'
