#!/bin/bash
# SetUserPolicy: a user steers grouping of their own sessions, within the
# system policy, as polkit allows (the active local user: yes).
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

ttg_setup_each() {
    ttg_policy TerminalWeight=100
}

# set_user_policy HANDLE 'gvariant dict': SetUserPolicy as the session's user,
# from inside the session; prints gdbus's output (the error name on failure)
set_user_policy() {
    ttg_session_run "$1" "gdbus call --system --dest org.ttygroup1 --object-path /org/ttygroup1 \
        --method org.ttygroup1.Manager.SetUserPolicy \"$2\" 2>&1"
}

testcase_active_user_turns_own_terminals_off_and_on() {
    local v b pv pb out
    v=$(ttg_open_vt_session carol tty5)
    b=$(ttg_open_pty_session bob)
    pv=$(ttg_new_pty_in_session "$v" 'sleep 600')
    pb=$(ttg_new_pty_in_session "$b" 'sleep 600')
    wait_until 10 ttg_grouped "$pv"
    wait_until 10 ttg_grouped "$pb"

    out=$(set_user_policy "$v" "{'GroupTerminals': <false>}")
    echo "$out"
    wait_until 10 ttg_in_session_scope "$pv"
    assert_true kill -0 "$pv"
    assert_eq "$(ttg_session_of_pid "$pv")" "$v"
    # another user's groups are untouched
    sleep 1
    assert_true ttg_grouped "$pb"
    # a new terminal of carol's stays in her session scope now
    local pv2; pv2=$(ttg_new_pty_in_session "$v" 'sleep 600')
    sleep 2
    assert_true ttg_in_session_scope "$pv2"

    set_user_policy "$v" "{'GroupTerminals': <true>, 'TerminalWeight': <uint64 50>}"
    wait_until 10 ttg_grouped "$pv"
    wait_until 10 ttg_grouped "$pv2"
    wait_eq 10 50 ttg_unit_weight "$(ttg_unit_of_pid "$pv")"
    assert_eq "$(ttg_unit_weight "$(ttg_unit_of_pid "$pb")")" 100 "bob keeps the system's weight"
}

testcase_bounds_and_keys() {
    local v out
    v=$(ttg_open_vt_session carol tty5)
    out=$(set_user_policy "$v" "{'TerminalWeight': <uint64 500>}" || true)
    assert_in 'org.ttygroup1.Error.InvalidPolicy' "$out"
    assert_in 'TerminalWeight' "$out"
    out=$(set_user_policy "$v" "{'SessionWeight': <uint64 50>}" || true)
    assert_in 'org.ttygroup1.Error.InvalidPolicy' "$out"
    assert_in 'system policy only' "$out"
    out=$(set_user_policy "$v" "{'Enabled': <'yes'>}" || true)
    assert_in 'org.ttygroup1.Error.InvalidPolicy' "$out"
    assert_true systemctl is-active -q ttygroupd
}

testcase_inactive_remote_user_is_refused() {
    local s p out
    s=$(ttg_open_ssh_session bob)
    p=$(ttg_new_pty_in_session "$s" 'sleep 600')
    wait_until 10 ttg_grouped "$p"
    out=$(set_user_policy "$s" "{'GroupTerminals': <false>}" || true)
    echo "$out"
    assert_in 'org.freedesktop.DBus.Error.(AccessDenied|InteractiveAuthorizationRequired)' "$out"
    sleep 1
    assert_true ttg_grouped "$p"
}

testcase_system_off_wins() {
    local v p
    v=$(ttg_open_vt_session carol tty5)
    set_user_policy "$v" "{'Enabled': <true>}"
    p=$(ttg_new_pty_in_session "$v" 'sleep 600')
    wait_until 10 ttg_grouped "$p"
    ttg_policy TerminalWeight=100 Enabled=false
    wait_until 10 ttg_in_session_scope "$p"
}

run_testcases "$@"
