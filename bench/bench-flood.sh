#!/bin/bash
# Flood and churn benchmark, run inside the test VM:
#   tools/vm run bench/bench-flood.sh [FLOOD=10000] [CHURN=2000]
# Prints, each figure also as a ratio against a floor measured in this run:
#   - flood: alice opens FLOOD terminals in a loop (ptyflood: up to 400 alive
#     at once, 3 s each) with the default [Limits]. Bob's placement latency
#     (ptylat, 10 terminals) before the flood (the floor) and during it; the
#     most terminal groups alice had at once; ttygroupd's RSS and CPU time,
#     and PID 1's RSS, before and after;
#   - churn: CHURN terminals opened and closed in alice's session (20 alive at
#     once, 0.5 s each), with limits raised so every one of them gets a group
#     and loses it again: ttygroupd's RSS after a warm-up of 100 terminals
#     (the floor) and after CHURN, and the ttygroup units left over.
# The VM runs under TCG emulation: absolute times are far above those of
# real hardware; the ratios are what carries over.
set -eu
. /opt/ttygroup-test/lib.sh

FLOOD=${1:-10000}
CHURN=${2:-2000}
BIN=/opt/ttygroup-test/bin
DROPIN=/etc/ttygroup/ttygroup.conf.d/60-bench.conf

daemon_pid() { systemctl show -p MainPID --value ttygroupd; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ms() { awk -v t="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) * 1000 / t }' "/proc/$1/stat"; }
p50() { sed -n 's/.*p50_ms=\([0-9.]*\).*/\1/p' <<<"$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
units_of() { systemctl list-units --all --no-legend --plain "ttygroup-pty-$1-*.scope" | grep -c . || true; }
reload() { systemctl reload ttygroupd; sleep 1; }

echo "ttygroupd $(/usr/libexec/ttygroupd --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPU (TCG)"
rm -f "$DROPIN"; reload
sa=$(ttg_open_pty_session alice)
sb=$(ttg_open_pty_session bob)

# ---- flood -----------------------------------------------------------------
floor=$(TTG_RUN_TIMEOUT=600 ttg_session_run "$sb" "$BIN/ptylat 10 20000" | grep '^n=')
d=$(daemon_pid); rss0=$(rss_kb "$d"); cpu0=$(cpu_ms "$d"); pid1_0=$(rss_kb 1)
fpid=$(ttg_session_spawn "$sa" "exec $BIN/ptyflood $FLOOD 400 3000")
during=$(TTG_RUN_TIMEOUT=600 ttg_session_run "$sb" "$BIN/ptylat 10 20000" | grep '^n=')
max=0
while kill -0 "$fpid" 2>/dev/null; do
    n=$(units_of "$sa"); (( n > max )) && max=$n
    sleep 1
done
rss1=$(rss_kb "$d"); cpu1=$(cpu_ms "$d"); pid1_1=$(rss_kb 1)
echo "flood: $(cat "$(ttg_spawn_log "$sa" "$fpid")" 2>/dev/null)"
echo "  bob's placement before: $floor"
echo "  bob's placement during: $during"
echo "  bob's p50 during/before: $(ratio "$(p50 "$during")" "$(p50 "$floor")")"
echo "  alice's terminal groups at most at once: $max (cap 64)"
echo "  ttygroupd RSS: $rss0 -> $rss1 kB (ratio $(ratio "$rss1" "$rss0")); CPU time during the flood: $(awk -v a="$cpu1" -v b="$cpu0" 'BEGIN { printf "%.0f", a - b }') ms"
echo "  PID 1 RSS: $pid1_0 -> $pid1_1 kB (ratio $(ratio "$pid1_1" "$pid1_0"))"
wait_until 120 bash -c "[[ \$(systemctl list-units --all --no-legend --plain 'ttygroup-pty-$sa-*.scope' | grep -c .) == 0 ]]" || true

# ---- churn -----------------------------------------------------------------
printf '[Limits]\nMaxTerminalGroupsPerUser=100000\nTerminalGroupBurst=100000\nTerminalGroupsPerMinute=100000\n' > "$DROPIN"; reload
ttg_session_run "$sa" "$BIN/ptyflood 100 20 500" >/dev/null
wait_until 60 bash -c "[[ \$(systemctl list-units --all --no-legend --plain 'ttygroup-pty-$sa-*.scope' | grep -c .) == 0 ]]" || true
warm=$(rss_kb "$d"); c0=$(cpu_ms "$d"); t0=$(date +%s)
churn=$(TTG_RUN_TIMEOUT=3000 ttg_session_run "$sa" "$BIN/ptyflood $CHURN 20 500")
wait_until 120 bash -c "[[ \$(systemctl list-units --all --no-legend --plain 'ttygroup-pty-$sa-*.scope' | grep -c .) == 0 ]]" || true
after=$(rss_kb "$d"); c1=$(cpu_ms "$d")
placed=$(journalctl -u ttygroupd -o cat --no-pager --since "@$t0" | grep -c "^Terminal pts/[0-9]* of session $sa " || true)
echo "churn: $churn; $placed of them got a group"
echo "  ttygroupd RSS after 100 (warm-up) -> after $CHURN more: $warm -> $after kB (ratio $(ratio "$after" "$warm"))"
echo "  ttygroupd CPU time: $(awk -v a="$c1" -v b="$c0" -v n="$CHURN" 'BEGIN { printf "%.0f ms, %.1f ms a terminal", a - b, (a - b) / n }')"
echo "  ttygroup units of the session left over: $(units_of "$sa")"
rm -f "$DROPIN"; reload
echo "BENCH flood_bob_p50_ratio=$(ratio "$(p50 "$during")" "$(p50 "$floor")") flood_max_groups=$max flood_rss_ratio=$(ratio "$rss1" "$rss0") churn_rss_ratio=$(ratio "$after" "$warm") churn_leftover_units=$(units_of "$sa")"
