#!/bin/bash
# A user cannot make the service (nor PID 1) grow with the terminals they
# open: a cap on live terminal groups per user and a rate of new ones
# (ttygroup.conf [Limits]); a terminal over a limit stays in its session
# scope, the journal says so once, explain names the limit, and it gets its
# group when the limit allows. Other users' terminals are grouped meanwhile.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

LIMITS=/etc/ttygroup/ttygroup.conf.d/60-limits.conf

ttg_setup_each() { rm -f "$LIMITS"; _ttg_reload; }
ttg_teardown_each() { rm -f "$LIMITS"; _ttg_reload; }

limits() {
    mkdir -p "${LIMITS%/*}"
    { echo "[Limits]"; printf '%s\n' "$@"; } > "$LIMITS"
    _ttg_reload
}

# at_most VALUE MAX WHAT: integer VALUE <= MAX
at_most() {
    (( $1 <= $2 )) || _ttg_fail "$(_ttg_where)" "$3: $1, at most $2 expected"
}

# gap T1 T2: whole seconds from unix time T1 to T2 (fractions dropped)
gap() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", b - a }'; }

daemon_pid() { systemctl show -p MainPID --value ttygroupd; }
daemon_rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$(daemon_pid)/status"; }
# ttygroup-pty units of a user's slice that PID 1 has loaded (any state)
user_units() {
    systemctl list-units --all --no-legend --plain 'ttygroup-pty-*.scope' \
        | awk '{print $1}' | while read -r u; do
            [[ $(systemctl show -p Slice --value "$u" 2>/dev/null) == "user-$(id -u "$1").slice" ]] && echo "$u"
        done | grep -c . || true
}
# every ttygroup-pty unit of session $1 that PID 1 has loaded
alice_units_of() {
    systemctl list-units --all --no-legend --plain "ttygroup-pty-$1-*.scope" | awk '{print $1}'
}
# show_units SESSION: the state of each ttygroup-pty unit left of that session
show_units() {
    local u
    for u in $(alice_units_of "$1"); do
        echo "$u: $(systemctl show -p ActiveState,SubState,ControlGroup --value "$u" | tr '\n' ' ')" \
             "events: $(tr '\n' ' ' < "/sys/fs/cgroup$(systemctl show -p ControlGroup --value "$u")/cgroup.events" 2>&1)"
    done
}
journal_since() { journalctl -u ttygroupd -o cat --no-pager --since "@$1"; }

testcase_cap_holds_then_lets_through() {
    local s p1 p2 p3 t0 held
    limits MaxTerminalGroupsPerUser=2
    t0=$(date +%s)
    s=$(ttg_open_pty_session alice)
    p1=$(ttg_new_pty_in_session "$s" 'sleep 601')
    p2=$(ttg_new_pty_in_session "$s" 'sleep 602')
    wait_until 10 ttg_grouped "$p1"
    wait_until 10 ttg_grouped "$p2"
    p3=$(ttg_new_pty_in_session "$s" 'sleep 603')
    wait_until 10 bash -c "journalctl -u ttygroupd -o cat --no-pager --since @$t0 | grep -q 'MaxTerminalGroupsPerUser'"
    assert_true ttg_in_session_scope "$p3"
    held=$(ttygroupctl explain "$p3")
    echo "$held"
    assert_in "stays in the session's scope for now" "$held"
    assert_in "MaxTerminalGroupsPerUser" "$held"
    # a fourth is held too, and not said again
    ttg_new_pty_in_session "$s" 'sleep 604' >/dev/null
    sleep 2
    assert_eq "$(journal_since "$t0" | grep -c "^Leaving .*MaxTerminalGroupsPerUser")" 1 "the cap is said once"
    # a place under the cap frees: a held terminal gets it, alive
    kill "$p1"
    wait_until 15 ttg_grouped "$p3"
    assert_true kill -0 "$p3"
    assert_eq "$(user_units alice)" 2
}

testcase_rate_holds_then_lets_through() {
    local s p=() t0 t1 x at
    limits TerminalGroupBurst=1 TerminalGroupsPerMinute=6   # then one every 10 s
    s=$(ttg_open_pty_session alice)
    t0=$(date +%s)
    # three terminals at once, as a terminal emulator restoring its tabs does
    ttg_session_spawn "$s" "for i in 1 2 3; do script -qfec \"sleep 61\$i\" /dev/null </dev/null & done; wait" >/dev/null
    for i in 1 2 3; do
        wait_eq 30 1 count_lines ttg_leaders_of alice "sleep 61$i"
        p+=("$(ttg_leaders_of alice "sleep 61$i")")
    done
    # they come at the rate, without anything new happening in the session
    for x in "${p[@]}"; do wait_until 60 ttg_grouped "$x"; done
    t1=$(date +%s)
    # when each was placed, by the journal (a slow machine only widens the gaps)
    mapfile -t at < <(for x in "${p[@]}"; do
        journalctl -u ttygroupd -o short-unix --no-pager --since "@$t0" | grep "leader $x) placed in" | awk '{print $1}'
    done | sort -n)
    echo "three terminals at once, one group per 10 s after a burst of 1: placed at +0, +$(gap "${at[0]}" "${at[1]}"), +$(gap "${at[0]}" "${at[2]}") s; all grouped after $((t1 - t0)) s"
    assert_eq "${#at[@]}" 3 "placements in the journal"
    at_most 9 "$(gap "${at[0]}" "${at[1]}")" "seconds between the first and second placement (at least)"
    at_most 19 "$(gap "${at[0]}" "${at[2]}")" "seconds between the first and third placement (at least)"
    assert_eq "$(journal_since "$t0" | grep -c "^Leaving .*TerminalGroupsPerMinute")" 1 "the rate is said once"
    for x in "${p[@]}"; do assert_true kill -0 "$x"; done
}

testcase_flood_of_terminals() {
    local sa sb t0 rss0 rss1 rss_warm="" units0 pid1_0 pid1_1 fpid max=0 n out lat placed secs
    sa=$(ttg_open_pty_session alice)
    sb=$(ttg_open_pty_session bob)
    units0=$(systemctl list-units --all --no-legend | wc -l)
    pid1_0=$(awk '/^VmRSS/ {print $2}' /proc/1/status)
    rss0=$(daemon_rss_kb)
    t0=$(date +%s)
    # 10000 terminals, up to 200 alive at once, each 3 s long, for at most
    # 150 s (the emulated VM forks slowly: the log says how many it opened)
    fpid=$(ttg_session_spawn "$sa" "exec /opt/ttygroup-test/bin/ptyflood 10000 200 3000 150")
    # meanwhile bob opens terminals (each may take up to 60 s: how long they
    # took is bench/bench-flood.sh's to measure); how many groups has alice?
    out=$(TTG_RUN_TIMEOUT=900 ttg_session_run "$sb" "/opt/ttygroup-test/bin/ptylat 5 60000 2>&1; echo rc=\$?" || true)
    grep -q '^n=' <<<"$out" || echo "ptylat printed: $out"
    echo "bob during the flood: $(grep '^n=' <<<"$out")"
    placed=$(sed -n 's/.*placed=\([0-9]*\).*/\1/p' <<<"$out")
    while kill -0 "$fpid" 2>/dev/null; do
        n=$(user_units alice); (( n > max )) && max=$n
        # the service's size once the flood has run a minute (groups,
        # budgets, caches filled): from there on, churn must not grow it
        [[ -n $rss_warm ]] || (( $(date +%s) - t0 < 60 )) || rss_warm=$(daemon_rss_kb)
        sleep 1
    done
    secs=$(( $(date +%s) - t0 ))
    cat "$(ttg_spawn_log "$sa" "$fpid")" 2>/dev/null || true
    rss1=$(daemon_rss_kb)
    [[ -n $rss_warm ]] || rss_warm=$rss1
    pid1_1=$(awk '/^VmRSS/ {print $2}' /proc/1/status)
    local started said
    started=$(journal_since "$t0" | grep -c "^Terminal pts/[0-9]* of session $sa " || true)
    said=$(journal_since "$t0" | grep -c "^Leaving .*of user $(id -u alice) for now" || true)
    echo "flood of $(sed -n 's/^opened=\([0-9]*\).*/\1/p' "$(ttg_spawn_log "$sa" "$fpid")" 2>/dev/null) terminals over ${secs} s: alice's groups at most $max at once, $started started in all;" \
         "the journal said the limit $said time(s); ttygroupd RSS ${rss0} -> ${rss_warm} (after a minute of flood) -> ${rss1} kB; PID 1 RSS ${pid1_0} -> ${pid1_1} kB"
    assert_eq "$placed" 5 "bob's terminals are grouped during the flood"
    at_most "$max" 64 "alice's groups at once"
    # the burst, then 240 a minute (4 a second), and a second of slack
    at_most "$started" "$(( 32 + 4 * (secs + 1) ))" "groups started for alice during the flood"
    if ttg_sanitized; then
        # The ASan+UBSan ttygroupd is several times slower, and this run may
        # share the host with another VM: whether the flood reaches the
        # limit, and how often the limit is said, depend on that pace. And
        # ASan holds freed memory in its quarantine (256 MB by default): RSS
        # says nothing here. The run of this testcase against the plain
        # build checks both (tests/integration/suite.list); this one looks
        # for memory errors and leaks on the flood's paths.
        echo "not checked in the ASan build: how often the limit was said, RSS"
    else
        at_most 1 "$said" "times the journal said the limit (at least)"
        at_most "$said" 4 "times the journal said the limit"
        at_most "$(( rss1 - rss0 ))" 8192 "kB ttygroupd grew by"
        # flat under churn: within 10% of its size once the flood was running
        at_most "$rss1" "$(( rss_warm + rss_warm / 10 ))" "kB ttygroupd RSS after the flood (churn)"
    fi
    # nothing left behind once the flood is over (bob's session has its own
    # units): systemd 252 leaves some scopes whose terminal closed while they
    # started active and empty; the service stops those (said in the journal)
    wait_eq 60 0 count_lines alice_units_of "$sa" || { show_units "$sa"; return 1; }
    echo "empty groups the service had to stop: $(journal_since "$t0" | grep -c "has had no process for" || true)"
    at_most "$(systemctl list-units --all --no-legend | wc -l)" "$(( units0 + 10 ))" "units in PID 1 after the flood"
}

run_testcases "$@"
