#!/bin/bash
# Grouping turned off and on again by every switch there is, with
# `systemctl restart ttygroupd` between cycles (and, for the system's own
# switches, while off): after every cycle what test-switches-off-on.sh checks.
# It runs beside another VM: a neighbour does not move a CPU share
# (docs/testbed.md, "The suite", says why and what was measured).
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh
. /opt/ttygroup-test/lib/switches.sh

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
