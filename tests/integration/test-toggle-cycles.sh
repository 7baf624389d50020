#!/bin/bash
# Grouping turned off and on again, many times, by every switch there is
# (Enabled over D-Bus, GroupTerminals in the configuration, a user's own
# SetUserPolicy), with and without a restart of the service in between.
# After every cycle: the old terminals are grouped again (each in one group),
# a new terminal is grouped, the weights are the policy's, and a probe next to
# ten CPU hogs in another terminal gets its fair half of one CPU.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/integration/service.sh

CYCLES=${TTG_CYCLES:-5}
PROBE_SECONDS=${TTG_LOAD_SECONDS:-4}
POLICY=(SessionWeight=150 ActiveSessionWeight=150 TerminalWeight=120)

ttg_setup_each() {
    ttg_policy "${POLICY[@]}"
}

# open_terminals HANDLE: ten hogs on CPU 0 in one terminal, a quiet terminal
# next to it; OLD lists every process of both.
open_terminals() {
    HOGS=$(ttg_new_pty_in_session "$1" 'for i in $(seq 10); do taskset -c 0 cpuprobe --hog & done; wait')
    QUIET=$(ttg_new_pty_in_session "$1" 'sleep 900')
    wait_eq 10 10 count_lines pgrep -s "$HOGS" -x -f 'cpuprobe --hog'
    OLD="$QUIET $(pgrep -s "$HOGS" | tr '\n' ' ')"
    wait_until 15 all_grouped
}

all_grouped() {
    local p
    for p in $OLD; do ttg_grouped "$p" || return 1; done
}

none_grouped() {
    local p
    for p in $OLD; do ttg_in_session_scope "$p" || return 1; done
}

units_of_session() {
    local p
    for p in $(pgrep -s "$1"); do ttg_unit_of_pid "$p"; done | sort -u
}

share_of() {
    sed -n 's/.*share=\([0-9.]*\).*/\1/p' <<<"$1"
}

# Off: every process back in its session scope, alive, the scope at the
# weight that is left (the default when all grouping is off, the policy's when
# only terminals are); a terminal opened meanwhile stays there too.
check_off() {
    local h=$1 weight=$2 p
    wait_until 15 none_grouped
    for p in $OLD; do assert_true kill -0 "$p"; done
    wait_eq 10 "$weight" ttg_unit_weight "session-$h.scope"
    p=$(ttg_new_pty_in_session "$h" 'sleep 900')
    OLD="$OLD $p"
    sleep 1
    assert_true ttg_in_session_scope "$p"
}

# On again: what a user would look at.
check_on() {
    local h=$1 label=$2 p u new out share
    wait_until 20 all_grouped
    # one group per terminal, the hogs together
    assert_eq "$(units_of_session "$HOGS" | wc -l)" 1 "hog terminal in one group"
    assert_ne "$(units_of_session "$HOGS")" "$(ttg_unit_of_pid "$QUIET")"
    new=$(ttg_new_pty_in_session "$h" 'sleep 900')
    wait_until 10 ttg_grouped "$new"
    for u in $(ttg_groups); do wait_eq 10 120 ttg_unit_weight "$u"; done
    wait_eq 10 150 ttg_unit_weight "session-$h.scope"
    # no leftovers: exactly the groups of the terminals that exist
    local want; want=$(for p in $OLD $new; do ps -o sid= -p "$p"; done | sort -u | wc -l)
    wait_eq 10 "$want" ttg_group_count
    out=$(ttg_session_run "$h" "script -qfec 'taskset -c 0 cpuprobe $PROBE_SECONDS' /dev/null" | tr -d '\r')
    share=$(share_of "$out")
    echo "RESULT $label: probe share next to 10 grouped hogs on one CPU: $share"
    assert_true awk -v x="$share" 'BEGIN { exit !(x >= 0.45) }'
    kill "$new"
}

set_enabled() {
    ttygroupctl set-policy "Enabled=$1"
}

set_group_terminals() {
    ttg_policy "${POLICY[@]}" "GroupTerminals=$1"
}

# SetUserPolicy as the session's own user, from inside it
set_user_enabled() {
    ttg_session_run "$S" "gdbus call --system --dest org.ttygroup1 --object-path /org/ttygroup1 \
        --method org.ttygroup1.Manager.SetUserPolicy \"{'Enabled': <$1>}\""
}

# cycle HOW WEIGHT_WHEN_OFF
cycle() {
    local how=$1 i
    for i in $(seq "$CYCLES"); do
        "$how" false
        check_off "$S" "$2"
        "$how" true
        check_on "$S" "$how cycle $i"
    done
}

testcase_enabled_off_and_on() {
    S=$(ttg_open_pty_session alice)
    open_terminals "$S"
    cycle set_enabled 100
}

testcase_group_terminals_off_and_on() {
    S=$(ttg_open_pty_session alice)
    open_terminals "$S"
    cycle set_group_terminals 150
}

testcase_user_policy_off_and_on() {
    # polkit lets the active local user steer their own sessions
    S=$(ttg_open_vt_session carol tty5)
    open_terminals "$S"
    cycle set_user_enabled 100
}

# SetPolicy without waiting for the reply
set_enabled_now() {
    busctl call --expect-reply=no org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager SetPolicy \
        'a{sv}' 1 Enabled b "$1"
}

testcase_quick_off_and_on() {
    # on again before systemd has collected the dissolved scopes: the second
    # SetPolicy is queued behind the first, ahead of systemd's UnitRemoved
    local i
    S=$(ttg_open_pty_session alice)
    open_terminals "$S"
    for i in $(seq "$CYCLES"); do
        set_enabled_now false
        set_enabled_now true
        check_on "$S" "quick cycle $i"
    done
}

# cycle_across_restarts HOW WEIGHT_WHEN_OFF: a setting of the system (SetPolicy,
# the configuration) survives a restart: restarted while off, it stays off;
# restarted while on, everything is grouped again
cycle_across_restarts() {
    local how=$1 i
    for i in $(seq "$CYCLES"); do
        "$how" false
        check_off "$S" "$2"
        systemctl restart ttygroupd
        none_grouped
        "$how" true
        check_on "$S" "$how restart cycle $i (restarted while off)"
        systemctl restart ttygroupd
        check_on "$S" "$how restart cycle $i (restarted while on)"
    done
}

testcase_off_and_on_across_restarts() {
    S=$(ttg_open_pty_session alice)
    open_terminals "$S"
    cycle_across_restarts set_enabled 100
}

testcase_group_terminals_off_and_on_across_restarts() {
    S=$(ttg_open_pty_session alice)
    open_terminals "$S"
    cycle_across_restarts set_group_terminals 150
}

# A user's own setting lives as long as the service (the desktop agent sends
# it again after a restart: test-desktop.sh): restarted between cycles
testcase_user_policy_off_and_on_across_restarts() {
    local i
    S=$(ttg_open_vt_session carol tty5)
    open_terminals "$S"
    for i in $(seq "$CYCLES"); do
        set_user_enabled false
        check_off "$S" 100
        set_user_enabled true
        check_on "$S" "SetUserPolicy restart cycle $i"
        systemctl restart ttygroupd
    done
    check_on "$S" "SetUserPolicy after the last restart"
}

run_testcases "$@"
