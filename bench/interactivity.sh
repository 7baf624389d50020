#!/bin/bash
# Interactivity benchmark, run inside the test VM:
#   tools/vm run bench/interactivity.sh [REPS=5] [SECONDS=12] [PLACEMENTS=70] [BURST=1000] [CHURN=200]
# In one x11 session on seat0 (what a display manager opens: no tty), with
# Xvfb as its X server, ten busy loops on CPU 0 in one real xterm and a probe
# on CPU 0 in another xterm, under four layouts, interleaved and repeated
# REPS times (the order rotated each repetition):
#   ttygroup  each xterm's pty grouped by the service (its own scope in
#             user-UID.slice); the probe's xterm is opened in the window and
#             the probe starts once it sees its own scope
#   handmade  the service stopped; each xterm in a sibling scope made by hand:
#             systemd-run --scope --slice=user-UID.slice -p CPUWeight=100
#   autogroup the service stopped; each xterm in the root cgroup, where the
#             kernel's autogroup gives its kernel session a group
#   stock     the service stopped; both xterms in the session scope
# The probe, in its xterm: cpuprobe (CPU share over SHARE_SECONDS), then
# wakeprobe (a 1 ms periodic sleeper over SECONDS: wakeup avg/p99/max, missed
# periods, CPU migrations, whether it was moved), then cyclictest
# (--policy=other, 1 ms, SECONDS) as a second, independent wakeup probe.
# Per window also the CPU time of ttygroupd and of PID 1 (/proc/PID/stat).
# Then, in the same run: placement of a new terminal (ptylat, setsid() until
# it sees its own scope) against a bare StartTransientUnit round trip
# (scopelat), with ttygroupd's and PID 1's CPU time per placement; the
# service's CPU time per process event during a fork burst against a bare
# proc-connector listener of the same events (cnlisten); the service's RSS
# and the units left after a churn of terminals.
# Printed as ratios against the floors measured in this run, each with its
# spread over the repetitions (median [min-max]); the last line is BENCH.
# The VM runs under TCG emulation: absolute times are far above those of
# real hardware; the ratios within one run are what carries over.
set -eu
. /opt/ttygroup-test/lib.sh

REPS=${1:-5}
SECS=${2:-12}
SHARE_SECS=3
N_PLACE=${3:-70}    # terminals placed per repetition, by the service and bare:
                    # with 5 repetitions 350 each, so that p99 is not the largest one
N_BURST=${4:-1000}  # processes of the fork burst
N_CHURN=${5:-200}   # terminals of the churn
USER_=alice
UID_=$(id -u "$USER_")
SLICE=user-$UID_.slice
BIN=/opt/ttygroup-test/bin
OUT=$TTG_RUN/interactivity
rm -rf "$OUT"; install -d -m 1777 "$OUT"
RESULTS=$OUT/results
: > "$RESULTS"
# Waits without forking: every fork and exec is a process event the service
# handles, and the bench's own would be charged to it in the windows.
mkfifo -m 666 "$OUT/nap"; exec {NAP}<>"$OUT/nap"
nap() { read -r -t "$1" -u "$NAP" _ || true; }
wait_file() { local n=$(( $2 * 5 )); while [[ ! -e $1 ]]; do (( n-- > 0 )) || return 1; nap 0.2; done; }

tck=$(getconf CLK_TCK)
cpu_ms() { awk -v t="$tck" '{ sub(/^.*\) /, ""); print ($12 + $13) * 1000 / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
daemon_pid() { systemctl show -p MainPID --value ttygroupd; }
field() { grep -o "\b$1=[0-9.-]*" <<<"$2" | head -n1 | cut -d= -f2; }
units_left() { systemctl list-units --all --no-legend --plain 'ttygroup-pty-*.scope' | grep -c . || true; }

service() {
    if [[ $1 == on ]]; then
        systemctl is-active -q ttygroupd || { systemctl start ttygroupd; wait_until 30 systemctl is-active -q ttygroupd; }
    else
        wait_until 60 bash -c '[[ $(systemctl list-units --all --no-legend --plain "ttygroup-pty-*.scope" | grep -c .) == 0 ]]' || true
        systemctl stop ttygroupd
    fi
}

echo "ttygroupd $(/usr/libexec/ttygroupd --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPU (TCG), $(cyclictest --help 2>&1 | head -n1 | tr -d '\n')"
echo "load (guest): $(cut -d' ' -f1-3 /proc/loadavg); autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled)"
echo 1 > /proc/sys/kernel/sched_autogroup_enabled
# every terminal of the run gets its group: no [Limits] hold-back
DROPIN=/etc/ttygroup/ttygroup.conf.d/60-bench.conf
mkdir -p "${DROPIN%/*}"
printf '[Limits]\nMaxTerminalGroupsPerUser=100000\nTerminalGroupBurst=100000\nTerminalGroupsPerMinute=100000\n' > "$DROPIN"
service on
systemctl reload ttygroupd; sleep 1

g=$(ttg_open_graphical_session "$USER_" x11 7)
wait_eq 10 "$g" loginctl show-user "$USER_" -p Display --value
ttg_session_spawn "$g" "exec Xvfb :1 -ac -nolisten tcp -noreset" >/dev/null
wait_until 60 test -S /tmp/.X11-unix/X1
# cyclictest checks that it could use SCHED_FIFO before it runs as
# --policy=other: an RLIMIT_RTPRIO of 1 for the user's processes lets it
prlimit --pid "$(ttg_session_shell_pid "$g")" --rtprio=1:1
XENV="DISPLAY=:1 PATH=$BIN:/usr/bin:/bin HOME=/home/$USER_"

# how the xterms of a layout are started: launch LAYOUT NAME COMMAND (in the background)
launch() {
    local layout=$1 name=$2 cmd=$3 xt
    xt="env $XENV xterm -geometry 80x10 -title $name -e /bin/bash -c $(printf '%q' "$cmd")"
    case $layout in
        ttygroup|stock)
            ttg_session_spawn "$g" "exec $xt" >/dev/null ;;
        handmade)
            systemd-run --quiet --scope --unit="bench-$name" --slice="$SLICE" -p CPUWeight=100 -- \
                bash -c "exec prlimit --rtprio=1:1 setpriv --reuid=$UID_ --regid=$UID_ --init-groups $xt" </dev/null >/dev/null 2>&1 & ;;
        autogroup)
            # the wrapper enters the root cgroup first, then becomes the user's xterm;
            # xterm's child setsid()s: its kernel session is an autogroup
            bash -c "echo \$\$ > /sys/fs/cgroup/cgroup.procs && exec prlimit --rtprio=1:1 setpriv --reuid=$UID_ --regid=$UID_ --init-groups $xt" \
                </dev/null >/dev/null 2>&1 & ;;
    esac
}

hogs_running() { [[ $(wc -l < "$OUT/hogs.$1" 2>/dev/null || echo 0) -ge 10 ]]; }
hogs_grouped() { local p; for p in $(cat "$OUT/hogs.$1"); do grep -q /ttygroup-pty- "/proc/$p/cgroup" || return 1; done; }
cleanup_window() {
    local tag=$1 p
    for p in $(cat "$OUT/hogs.$tag" 2>/dev/null) $(cat "$OUT/xterms.$tag" 2>/dev/null); do
        kill "$p" 2>/dev/null || true
    done
    wait_until 30 bash -c "! pgrep -f 'xterm -geometry 80x10 -title [hp]-$tag' >/dev/null" || true
}

# CPU time of the service and of PID 1 while wakeprobe ran (the probe's own snapshots)
stats_during() {
    awk -v t="$tck" -v svc="$2" '{ sub(/^.*\) /, ""); v[NR] = ($12 + $13) * 1000 / t }
        END { printf "svc_wake_ms=%.0f pid1_wake_ms=%.0f", svc ? v[2] - v[1] : 0, v[4] - v[3] }' "$OUT/stats.$1"
}

# one window: LAYOUT REP
window() {
    local layout=$1 rep=$2 tag=$1-$2 d probe wait_scope="" s0 s1 p0 p1 share wake cyc hist
    d=$(daemon_pid); [[ $d == 0 ]] && d=""
    local D=${d:-1}
    launch "$layout" "h-$tag" "echo \$\$ > $OUT/xterms.$tag; for i in {1..10}; do taskset -c 0 cpuprobe --hog & echo \$! >> $OUT/hogs.$tag; done; wait"
    wait_until 60 hogs_running "$tag"
    [[ $layout == ttygroup ]] && wait_until 30 hogs_grouped "$tag"
    [[ $layout == ttygroup ]] && wait_scope='exec 9<>'$OUT/nap'; until read -r x < /proc/self/cgroup; [[ $x == *ttygroup-pty-* ]]; do read -r -t 0.01 -u 9 _; done; '
    hist=$OUT/hist.$tag
    probe="echo \$\$ >> $OUT/xterms.$tag; ${wait_scope}cat /proc/self/cgroup > $OUT/cg.$tag; taskset -c 0 cpuprobe $SHARE_SECS > $OUT/share.$tag; read -r a < /proc/$D/stat; read -r b < /proc/1/stat; taskset -c 0 wakeprobe $SECS > $OUT/wake.$tag; read -r c < /proc/$D/stat; read -r e < /proc/1/stat; printf '%s\\n' \"\$a\" \"\$c\" \"\$b\" \"\$e\" > $OUT/stats.$tag; taskset -c 0 cyclictest -q --policy=other -i 1000 -t 1 -D $SECS -h 60000 --histfile=$hist > $OUT/cyc.$tag 2>&1; touch $OUT/done.$tag"
    s0=$([[ -n $d ]] && cpu_ms "$d" || echo 0); p0=$(cpu_ms 1)
    launch "$layout" "p-$tag" "$probe"
    wait_file "$OUT/done.$tag" $((SHARE_SECS + 2 * SECS + 120))
    s1=$([[ -n $d ]] && cpu_ms "$d" || echo 0); p1=$(cpu_ms 1)
    share=$(field share "$(cat "$OUT/share.$tag")")
    wake=$(cat "$OUT/wake.$tag")
    # cyclictest: avg and max from its summary, p99 from its histogram (1 us bins)
    cyc=$(awk '/^[0-9]+ / { n += $2; c[$1 + 0] = $2 } /# Avg Latencies:/ { avg = $4 + 0 } /# Max Latencies:/ { max = $4 + 0 }
               /# Histogram Overflows:/ { over = $4 + 0 }
               END { t = n + over; k = 0; p = -1; for (i = 0; i < 60000; i++) { k += c[i]; if (p < 0 && k >= 0.99 * t) p = i }
                     if (p < 0) p = max; printf "cyc_avg=%d cyc_p99=%d cyc_max=%d", avg, p, max }' "$hist" 2>/dev/null || echo "cyc_avg=-1 cyc_p99=-1 cyc_max=-1")
    echo "$layout rep=$rep share=$share $wake $cyc svc_ms=$(awk -v a="$s1" -v b="$s0" 'BEGIN { printf "%.0f", a - b }') $(stats_during "$tag" "$d") pid1_ms=$(awk -v a="$p1" -v b="$p0" 'BEGIN { printf "%.0f", a - b }') probe_cgroup=$(sed -n 's/^0:://p' "$OUT/cg.$tag" | sed 's#^.*/\(.\)#\1#')" | tee -a "$RESULTS"
    cleanup_window "$tag"
}

LAYOUTS=(stock ttygroup handmade autogroup)
for rep in $(seq "$REPS"); do
    for k in 0 1 2 3; do
        l=${LAYOUTS[$(( (k + rep - 1) % 4 ))]}
        if [[ $l == ttygroup ]]; then service on; else service off; fi
        window "$l" "$rep"
    done
done
service on

# ---- placement: ptylat (the service) against scopelat (bare StartTransientUnit)
d=$(daemon_pid)
plat=(); slat=(); svc_place=0; pid1_place=0; tp0=$(date +%s)
for rep in $(seq "$REPS"); do
    s0=$(cpu_ms "$d"); p0=$(cpu_ms 1)
    out=$(TTG_RUN_TIMEOUT=900 ttg_session_run "$g" "ptylat $N_PLACE 10000")
    s1=$(cpu_ms "$d"); p1=$(cpu_ms 1)
    svc_place=$(awk -v a="$svc_place" -v x="$s1" -v y="$s0" 'BEGIN { print a + x - y }')
    pid1_place=$(awk -v a="$pid1_place" -v x="$p1" -v y="$p0" 'BEGIN { print a + x - y }')
    plat+=($(sed -n 's/^lat_ms=//p' <<<"$out"))
    slat+=($("$BIN/scopelat" "$N_PLACE" "$SLICE" "session-$g.scope" | sed -n 's/^lat_ms=//p'))
done
wait_until 60 bash -c '[[ $(systemctl list-units --all --no-legend --plain "ttygroup-pty-*.scope" | grep -c .) == 0 ]]' || true
# pct Q VALUES...: the nearest-rank percentile (the ceil(Q * N)-th smallest)
pct() { printf '%s\n' "${@:2}" | awk '$1 >= 0' | sort -n | awk -v q="$1" '{ a[NR] = $1 } END { k = int(NR * q); if (k < NR * q) k++; if (k < 1) k = 1; printf "%.1f", NR ? a[k] : -1 }'; }
pl50=$(pct 0.5 "${plat[@]}"); pl99=$(pct 0.99 "${plat[@]}")
# the service's own figure: from seeing the terminal to systemd's job done
seen=($(journalctl -u ttygroupd -o cat --no-pager --since "@$tp0" | sed -n 's/.*, \([0-9.]*\) ms after it was seen.*/\1/p'))
seen50=$(pct 0.5 "${seen[@]}")
sl50=$(pct 0.5 "${slat[@]}"); sl99=$(pct 0.99 "${slat[@]}")
n_place=$(( REPS * N_PLACE ))

# ---- CPU per process event: the service against a bare listener -------------
coproc LISTEN { exec "$BIN/cnlisten" 3600; }
read -r _ <&"${LISTEN[0]}"
s0=$(cpu_ms "$d")
burst=$(TTG_RUN_TIMEOUT=1800 ttg_session_run "$g" "script -qfec 'forkburst $N_BURST 16' /dev/null" | tr -d '\r')
s1=$(cpu_ms "$d")
kill -TERM "$LISTEN_PID"; read -r listen <&"${LISTEN[0]}"; wait "$LISTEN_PID" || true
ev=$(field events "$listen"); lcpu=$(field cpu_ms "$listen")
svc_ev=$(awk -v a="$s1" -v b="$s0" 'BEGIN { printf "%.0f", a - b }')

# ---- churn: RSS and units left -----------------------------------------------
ttg_session_run "$g" "ptyflood 50 10 300" >/dev/null
wait_until 60 bash -c '[[ $(systemctl list-units --all --no-legend --plain "ttygroup-pty-*.scope" | grep -c .) == 0 ]]' || true
rss0=$(rss_kb "$d")
TTG_RUN_TIMEOUT=1800 ttg_session_run "$g" "ptyflood $N_CHURN 10 300" >/dev/null
wait_until 120 bash -c '[[ $(systemctl list-units --all --no-legend --plain "ttygroup-pty-*.scope" | grep -c .) == 0 ]]' || true
rss1=$(rss_kb "$d"); left=$(units_left)

# ---- the figures --------------------------------------------------------------
echo
echo "per layout, median [min-max] over $REPS repetitions:"
for l in "${LAYOUTS[@]}"; do
    line="  $l:"
    for f in share avg_us p99_us max_us missed cyc_avg cyc_p99 cyc_max svc_ms pid1_ms svc_wake_ms pid1_wake_ms migrations moved; do
        line+=" $f=$(awk -v l="$l" -v f="$f" '$1 == l { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$RESULTS" |
            sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%s[%s-%s]", a[int((NR + 1) / 2)], a[1], a[NR]; else printf "n/a" }')"
    done
    echo "$line"
done
# ratio A B FIELD: per repetition A/B, then median [min-max]
ratio() {
    awk -v a="$1" -v b="$2" -v f="$3" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          if ($1 == a) x[v["rep"]] = v[f]; if ($1 == b) y[v["rep"]] = v[f] }
        END { n = 0; for (r in x) if (r in y) { q = (y[r] > 0) ? x[r] / y[r] : (x[r] > 0 ? 99 : 1); s[++n] = q }
              for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
              if (n) printf "%.2f[%.2f-%.2f]", s[int((n + 1) / 2)], s[1], s[n]; else printf "n/a" }' "$RESULTS"
}
med() { ratio "$@" | sed 's/\[.*//'; }
echo
for b in handmade autogroup; do
    echo "ttygroup / $b, median [min-max] of the per-repetition ratios:"
    for f in share avg_us p99_us max_us missed cyc_avg cyc_p99 cyc_max; do
        echo "  $f: $(ratio ttygroup "$b" "$f")"
    done
done
r2() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo
echo "placement of a new terminal ($n_place each): ttygroup p50 $pl50 ms p99 $pl99 ms; bare StartTransientUnit p50 $sl50 ms p99 $sl99 ms; ratio p50 $(r2 "$pl50" "$sl50") p99 $(r2 "$pl99" "$sl99"); the service's seen -> job done p50 $seen50 ms"
echo "CPU to place one terminal: ttygroupd $(awk -v a="$svc_place" -v n="$n_place" 'BEGIN { printf "%.1f", a / n }') ms, PID 1 $(awk -v a="$pid1_place" -v n="$n_place" 'BEGIN { printf "%.1f", a / n }') ms (ratio $(r2 "$svc_place" "$pid1_place"))"
echo "fork burst: $burst; kernel events $ev; ttygroupd $svc_ev ms, bare listener $lcpu ms (ratio $(r2 "$svc_ev" "$lcpu"))"
echo "churn of $N_CHURN terminals: ttygroupd RSS $rss0 -> $rss1 kB (ratio $(r2 "$rss1" "$rss0")), ttygroup units left $left"
rm -f "$DROPIN"; systemctl reload ttygroupd
echo "load (guest) at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "BENCH hm_avg=$(med ttygroup handmade avg_us) hm_p99=$(med ttygroup handmade p99_us) hm_max=$(med ttygroup handmade max_us) hm_missed=$(med ttygroup handmade missed) ag_share=$(med ttygroup autogroup share) ag_avg=$(med ttygroup autogroup avg_us) ag_p99=$(med ttygroup autogroup p99_us) hm_cyc_p99=$(med ttygroup handmade cyc_p99) place_p50=$(r2 "$pl50" "$sl50") place_p99=$(r2 "$pl99" "$sl99") place_cpu_vs_pid1=$(r2 "$svc_place" "$pid1_place") event_cpu_vs_bare=$(r2 "$svc_ev" "$lcpu") churn_rss=$(r2 "$rss1" "$rss0") units_left=$left"
