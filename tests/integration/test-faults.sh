#!/bin/bash
# Faults around the service (logind, systemd, dbus-daemon and ttygroupd itself
# restarting, cgroupfs refusing a write, systemd refusing a scope or failing
# its job) lose nothing and kill nothing: after each, every terminal is in
# exactly its own group, no group is duplicated or left without processes,
# the service lists exactly those groups, every user process is alive, new
# terminals are still grouped and the service logged no error.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

FOREIGN="not ttygroup's"

# each testcase starts without the faults an earlier one may have left
ttg_setup_each() {
    local u
    if [[ -e /run/systemd/system/ttygroup-pty-.scope.d || -e /run/systemd/system/ttygroupd.service.d/90-fault.conf ]]; then
        rm -rf /run/systemd/system/ttygroup-pty-.scope.d /run/systemd/system/ttygroupd.service.d/90-fault.conf
        systemctl daemon-reload
        systemctl restart ttygroupd
    fi
    for u in $(systemctl list-units --no-legend --plain 'ttygroup-pty-*' | awk '{print $1}'); do
        if [[ $(systemctl show -p Description --value "$u") == "$FOREIGN" ]]; then systemctl stop "$u"; fi
    done
    T0=$(date +%s)
    ttg_policy TerminalWeight=120
}

# leaders of alice's kernel sessions whose command line is exactly CMD
leaders() {
    local pid
    for pid in $(pgrep -u alice -x -f "$1"); do
        [[ $(ps -o sid= -p "$pid" | tr -d ' ') == "$pid" ]] && echo "$pid"
    done
}

# every process of alice, one pid a line
alice_pids() { pgrep -u alice | sort -n; }

# the pty groups the service lists (ListGroups), sorted
listed_groups() {
    busctl --json=short call org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager ListGroups \
        | grep -o 'ttygroup-pty-[^"]*\.scope' | sort
}

# the ttygroup units systemd has loaded and not inactive (active, failed, ...), sorted
loaded_groups() {
    systemctl list-units --no-legend --plain 'ttygroup-*' | awk '{print $1}' | sort
}

# opens N terminals at once from the session's shell, each running CMD
burst() {
    local s=$1 n=$2 cmd=$3
    ttg_session_spawn "$s" "for i in \$(seq $n); do script -qfec '$cmd' /dev/null </dev/null >/dev/null 2>&1 & done; wait" >/dev/null
}

# the state every fault must leave: S is the session, the leaders given are
# the terminals that must be grouped, each in its own group and nothing else
check_state() {
    local s=$1; shift
    local l u p units=() cg want
    for l in "$@"; do
        u=ttygroup-pty-$s-$l.scope
        wait_eq 30 "$u" ttg_unit_of_pid "$l"
        # every process of the terminal is in that one group
        for p in $(ps -e -o pid=,sid= | awk -v l="$l" '$2 == l {print $1}'); do
            assert_eq "$(ttg_unit_of_pid "$p")" "$u" "process $p of terminal $l"
        done
        units+=("$u")
    done
    want=$(printf '%s\n' "${units[@]}" | sort)
    # no group beyond those (none duplicated, none left over or failed),
    # and the service knows exactly them
    wait_eq 30 "$want" loaded_groups
    wait_eq 30 "$want" listed_groups
    for u in "${units[@]}"; do
        cg=$(systemctl show -p ControlGroup --value "$u")
        assert_ne "$(cat "/sys/fs/cgroup$cg/cgroup.procs")" "" "$u has processes"
    done
    assert_true systemctl is-active -q ttygroupd
}

# ttygroupd's own messages since the testcase began hold no error
check_journal() {
    local errs
    errs=$(journalctl --since "@$T0" -p err -o cat --no-pager _COMM=ttygroupd | grep -v '^$' || true)
    assert_eq "$errs" "" "errors logged by ttygroupd"
}

# every pid given is still alive
check_alive() {
    local p
    for p in "$@"; do assert_true kill -0 "$p"; done
}

# a terminal opened now is grouped, and the service lists its group
check_new_terminal() {
    local p; p=$(ttg_new_pty_in_session "$1" 'sleep 905')
    wait_until 30 ttg_grouped "$p"
    wait_until 30 bash -c "busctl call org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager ListGroups | grep -q 'ttygroup-pty-$1-$p.scope'"
}

# opens alice's session with three grouped terminals (two processes each):
# S, LEADERS, and BEFORE (every process of alice then)
open_session() {
    local _
    S=$(ttg_open_pty_session alice)
    LEADERS=()
    for _ in 1 2 3; do
        LEADERS+=("$(ttg_new_pty_in_session "$S" 'sleep 900 & exec sleep 901')")
    done
    check_state "$S" "${LEADERS[@]}"
    mapfile -t BEFORE < <(alice_pids)
}

after_fault() {
    check_state "$S" "${LEADERS[@]}"
    check_alive "${BEFORE[@]}"
    check_new_terminal "$S"
    check_journal
}

testcase_logind_restart() {
    open_session
    systemctl restart systemd-logind
    wait_until 30 loginctl show-session "$S" -p Id
    after_fault
}

testcase_daemon_reexec() {
    open_session
    systemctl daemon-reload
    systemctl daemon-reexec
    wait_until 60 systemctl is-active -q multi-user.target
    after_fault
}

testcase_dbus_reload() {
    open_session
    systemctl reload dbus
    after_fault
}

# 20 terminals at once, the service restarted (cleanly, or by kill -9) in
# the middle of them
restart_in_burst() {
    local how=$1 main new
    open_session
    main=$(systemctl show -p MainPID --value ttygroupd)
    burst "$S" 20 'sleep 910'
    wait_until 30 bash -c "(( \$(pgrep -c -u alice -x -f 'sleep 910') >= 5 ))"
    case $how in
        restart) systemctl restart ttygroupd ;;
        kill) kill -9 "$main"
              wait_until 10 bash -c "! kill -0 $main"
              systemctl start ttygroupd ;; # Restart=on-failure may have done it already
    esac
    wait_until 30 systemctl is-active -q ttygroupd
    wait_eq 90 20 count_lines leaders 'sleep 910'
    mapfile -t new < <(leaders 'sleep 910')
    LEADERS+=("${new[@]}")
    after_fault
    assert_in 'Adopted ttygroup-pty-' "$(journalctl -u ttygroupd --since "@$T0" -o cat --no-pager)"
}

testcase_restart_in_burst() { restart_in_burst restart; }
testcase_kill9_in_burst() { restart_in_burst kill; }

# The one cgroupfs write of the service (moving processes back into their
# session scope) fails: the processes stay in their groups, alive, and the
# service says so; once the write works, they are moved back.
testcase_cgroupfs_write_fails() {
    local cg p
    open_session
    cg=/sys/fs/cgroup$(systemctl show -p ControlGroup --value "session-$S.scope")
    mkdir -p /run/systemd/system/ttygroupd.service.d
    printf '[Service]\nReadOnlyPaths=%s\n' "$cg" > /run/systemd/system/ttygroupd.service.d/90-fault.conf
    systemctl daemon-reload
    systemctl restart ttygroupd
    ttg_policy TerminalWeight=120 Enabled=false
    wait_until 30 bash -c "journalctl -u ttygroupd --since @$T0 -o cat | grep -q 'Could not move all processes'"
    for p in "${BEFORE[@]}"; do assert_true kill -0 "$p"; done
    check_state "$S" "${LEADERS[@]}"
    # the fault is gone: a restart moves them back, alive, into the session
    rm /run/systemd/system/ttygroupd.service.d/90-fault.conf
    systemctl daemon-reload
    systemctl restart ttygroupd
    for p in "${LEADERS[@]}"; do
        wait_until 30 ttg_in_session_scope "$p"
        assert_eq "$(ttg_session_of_pid "$p")" "$S"
    done
    wait_eq 30 "" loaded_groups
    ttg_policy TerminalWeight=120 Enabled=true
    after_fault
}

# A scope with the very name the service gives a terminal exists already
# (not the service's): the start is refused; the terminal stays in its
# session scope, alive, the other scope is left alone; once the name is
# free, the terminal gets its group.
testcase_unit_exists() {
    local p u foreign l
    open_session
    ttg_policy TerminalWeight=120 Enabled=false
    p=$(ttg_new_pty_in_session "$S" 'sleep 920')
    u=ttygroup-pty-$S-$p.scope
    systemd-run --quiet --scope --unit="$u" --description="$FOREIGN" sleep 1000 &
    wait_until 20 systemctl is-active -q "$u"
    foreign=$(cat "/sys/fs/cgroup$(systemctl show -p ControlGroup --value "$u")/cgroup.procs")
    assert_in '^[0-9]+$' "$foreign" "the one process of $u"
    ttg_policy TerminalWeight=120 Enabled=true
    for l in "${LEADERS[@]}"; do wait_until 30 ttg_grouped "$l"; done
    sleep 3
    assert_true ttg_in_session_scope "$p"
    assert_eq "$(ttg_unit_of_pid "$foreign")" "$u"
    assert_eq "$(systemctl show -p Description --value "$u")" "$FOREIGN"
    assert_eq "$(listed_groups | grep -c "$u" || true)" 0 "the foreign scope is not listed as a group"
    check_alive "$p" "$foreign" "${BEFORE[@]}"
    kill "$foreign"
    wait_until 20 bash -c "! systemctl is-active -q $u"
    LEADERS+=("$p")
    after_fault
}

# systemd takes the start but its job fails (here: an assertion a drop-in
# adds to every new pty scope of the session): the terminal stays in its
# session scope, alive, no failed unit is left; it is grouped once the
# fault is gone.
testcase_job_failed() {
    local p u
    open_session
    mkdir -p /run/systemd/system/ttygroup-pty-.scope.d
    printf '[Unit]\nAssertPathExists=/run/ttg-test-no-such-file\n' > /run/systemd/system/ttygroup-pty-.scope.d/90-fault.conf
    systemctl daemon-reload
    p=$(ttg_new_pty_in_session "$S" 'sleep 930')
    u=ttygroup-pty-$S-$p.scope
    wait_until 30 bash -c "journalctl -u ttygroupd --since @$T0 -o cat | grep -q 'did not start $u'"
    assert_true ttg_in_session_scope "$p"
    assert_eq "$(ttg_session_of_pid "$p")" "$S"
    check_alive "$p" "${BEFORE[@]}"
    # said once, however often it is retried
    sleep 5
    assert_eq "$(journalctl -u ttygroupd --since "@$T0" -o cat | grep -c "did not start $u (")" 1
    rm -r /run/systemd/system/ttygroup-pty-.scope.d
    systemctl daemon-reload
    LEADERS+=("$p")
    after_fault
}

# Why the service writes cgroup.procs at all: systemd (252) will not move a
# process into a session scope, which is not delegated; yet turning grouping
# off must return every process to its session scope, where sd-login (and
# polkit) find its session again.
testcase_move_back_needs_cgroup_procs() {
    local out p
    open_session
    out=$(busctl call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
              AttachProcessesToUnit ssau "session-$S.scope" "" 1 "${LEADERS[0]}" 2>&1 || true)
    assert_in 'non-delegated' "$out" "AttachProcessesToUnit into session-$S.scope"
    ttg_policy TerminalWeight=120 Enabled=false
    for p in "${BEFORE[@]}"; do
        assert_true kill -0 "$p"
    done
    for p in "${LEADERS[@]}"; do
        wait_until 30 ttg_in_session_scope "$p"
        assert_eq "$(ttg_session_of_pid "$p")" "$S"
    done
    wait_eq 30 "" loaded_groups
    ttg_policy TerminalWeight=120 Enabled=true
    after_fault
}

run_testcases "$@"
