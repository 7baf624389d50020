#!/bin/bash
# Turning grouping off returns every process to its session scope, alive;
# turning it on groups them again; restarts (clean or kill -9) change nothing.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

ttg_setup_each() {
    ttg_policy SessionWeight=150 TerminalWeight=120
}

# "PID UNIT" lines for the given pids
placement() {
    local p
    for p in "$@"; do echo "$p $(ttg_unit_of_pid "$p")"; done
}

open_three() {
    S=$(ttg_open_pty_session alice)
    P1=$(ttg_new_pty_in_session "$S" 'sleep 900')
    P2=$(ttg_new_pty_in_session "$S" 'for i in 1 2 3; do sleep 900 & done; wait')
    P3=$(ttg_new_pty_in_session "$S" 'sleep 900')
    for p in "$P1" "$P2" "$P3"; do wait_until 10 ttg_grouped "$p"; done
    ALL=$(ps -e -o pid=,sid= | awk -v a="$P1" -v b="$P2" -v c="$P3" '$2 == a || $2 == b || $2 == c {print $1}')
    assert_eq "$(echo $ALL | wc -w)" 6
}

testcase_disable_and_enable() {
    local p
    open_three
    wait_eq 10 150 ttg_unit_weight "session-$S.scope"
    ttg_policy SessionWeight=150 TerminalWeight=120 Enabled=false
    for p in $ALL; do
        wait_until 10 ttg_in_session_scope "$p"
        assert_true kill -0 "$p"
        assert_eq "$(ttg_session_of_pid "$p")" "$S"
    done
    wait_eq 10 0 ttg_group_count
    wait_eq 10 100 ttg_unit_weight "session-$S.scope"
    # nothing comes back while disabled, even for new terminals
    p=$(ttg_new_pty_in_session "$S" 'sleep 900')
    sleep 2
    assert_true ttg_in_session_scope "$p"
    ttg_policy SessionWeight=150 TerminalWeight=120 Enabled=true
    for p in $ALL "$p"; do wait_until 10 ttg_grouped "$p"; done
    wait_eq 10 150 ttg_unit_weight "session-$S.scope"
    assert_eq "$(ttg_group_count)" 4
}

testcase_restart_changes_nothing() {
    local before after
    open_three
    before=$(placement $ALL)
    systemctl restart ttygroupd
    sleep 3
    after=$(placement $ALL)
    assert_eq "$after" "$before"
    assert_eq "$(ttg_group_count)" 3
    assert_in 'Adopted ttygroup-pty-' "$(journalctl -u ttygroupd -o cat --no-pager)"
    for u in $(ttg_groups); do assert_eq "$(ttg_unit_weight "$u")" 120; done
}

testcase_kill9_then_start() {
    local before after main
    open_three
    before=$(placement $ALL)
    main=$(systemctl show -p MainPID --value ttygroupd)
    systemctl kill -s KILL ttygroupd
    wait_until 10 bash -c "! kill -0 $main"
    systemctl start ttygroupd   # Restart=on-failure may have done it already
    wait_until 10 systemctl is-active -q ttygroupd
    sleep 3
    after=$(placement $ALL)
    assert_eq "$after" "$before"
    assert_eq "$(ttg_group_count)" 3
    # and it still works: a new terminal is grouped
    local p; p=$(ttg_new_pty_in_session "$S" 'sleep 900')
    wait_until 10 ttg_grouped "$p"
    assert_eq "$(ttg_group_count)" 4
}

testcase_group_goes_away_with_its_last_process() {
    local p u
    open_three
    u=$(ttg_unit_of_pid "$P1")
    kill "$P1"
    wait_until 10 bash -c "! systemctl is-active -q $u"
    assert_eq "$(ttg_group_count)" 2
}

run_testcases "$@"
