#!/bin/bash
# Grouping turned off and on again, many times, by every switch there is
# (Enabled over D-Bus, GroupTerminals in the configuration, a user's own
# SetUserPolicy). After every cycle: the old terminals are grouped again (each
# in one group), a new terminal is grouped, the weights are the policy's, and
# a probe next to ten CPU hogs in another terminal gets its fair half of one
# CPU. The same with restarts of the service: test-switches-across-restarts.sh.
# It runs beside another VM: a neighbour does not move a CPU share
# (docs/testbed.md, "The suite", says why and what was measured).
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh
. /opt/ttygroup-test/lib/switches.sh

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

run_testcases "$@"
