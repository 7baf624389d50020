#!/bin/bash
# Every pty opened inside the user's display session gets a group of its own;
# nothing is left behind; polkit's answers do not change; only the display
# session's terminals are split out.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

REBOOT=org.freedesktop.login1.reboot   # implicit active: yes, any/inactive: auth_admin_keep

ttg_setup_each() {
    ttg_policy TerminalWeight=120
}

# pkcheck's verdict for a process: "yes" (authorized) or "no"
polkit_verdict() {
    if pkcheck --action-id "$REBOOT" --process "$1" >/dev/null 2>&1; then echo yes; else echo no; fi
}

testcase_three_ptys_three_groups() {
    local s p1 p2 p3 u1 u2 u3 cgls
    s=$(ttg_open_pty_session alice)
    p1=$(ttg_new_pty_in_session "$s" 'sleep 600')
    p2=$(ttg_new_pty_in_session "$s" 'sleep 600')
    p3=$(ttg_new_pty_in_session "$s" 'sleep 600')
    for p in "$p1" "$p2" "$p3"; do wait_until 10 ttg_grouped "$p"; done
    u1=$(ttg_unit_of_pid "$p1"); u2=$(ttg_unit_of_pid "$p2"); u3=$(ttg_unit_of_pid "$p3")
    assert_ne "$u1" "$u2"; assert_ne "$u2" "$u3"; assert_ne "$u1" "$u3"
    for u in "$u1" "$u2" "$u3"; do
        assert_eq "$(ttg_unit_weight "$u")" 120
        assert_eq "$(systemctl show -p Slice --value "$u")" "user-$(id -u alice).slice"
        assert_in "^Terminal pts/[0-9]+ of session $s \\(" "$(systemctl show -p Description --value "$u")"
    done
    cgls=$(systemd-cgls --no-pager "/user.slice/user-$(id -u alice).slice")
    echo "$cgls"
    assert_in "$u1" "$cgls"
    assert_in "Terminal pts/" "$(systemctl list-units --no-legend 'ttygroup-pty-*')"
    # the session's own shell stays in the session scope
    assert_true ttg_in_session_scope "$(ttg_session_shell_pid "$s")"
}

testcase_tmux_panes_and_screen_windows() {
    local s units=() p
    # in an ssh session, as they are mostly used
    s=$(ttg_open_ssh_session alice)
    assert_eq "$(loginctl show-session "$s" -p Remote --value)" yes
    ttg_session_run "$s" 'tmux -L t new-session -d -s w "sleep 601" \; split-window -t w "sleep 601" \; split-window -t w "sleep 601"'
    wait_eq 15 3 count_lines ttg_leaders_of alice 'sleep 601'
    for p in $(ttg_leaders_of alice 'sleep 601'); do
        wait_until 10 ttg_grouped "$p"
        units+=("$(ttg_unit_of_pid "$p")")
    done
    assert_eq "$(printf '%s\n' "${units[@]}" | sort -u | wc -l)" 3 "three tmux panes, three groups"
    ttg_session_run "$s" 'screen -dmS w sh -c "sleep 602"; sleep 1; screen -S w -X screen sh -c "sleep 602"'
    wait_eq 15 2 count_lines pgrep -u alice -x -f 'sleep 602'
    for p in $(pgrep -u alice -x -f 'sleep 602'); do
        wait_until 10 ttg_grouped "$p"
    done
    # a terminal opened from inside a grouped terminal gets its own group too
    p=$(ttg_new_pty_in_session "$s" 'script -qfec "sleep 603" /dev/null')
    wait_until 10 ttg_grouped "$p"
    wait_until 10 test -n "$(ttg_leaders_of alice 'sleep 603')"
    local inner; inner=$(ttg_leaders_of alice 'sleep 603')
    wait_until 10 ttg_grouped "$inner"
    assert_ne "$(ttg_unit_of_pid "$inner")" "$(ttg_unit_of_pid "$p")"
}

testcase_ssh_and_vt_sessions_grouped() {
    local s v p q
    s=$(ttg_open_ssh_session bob)
    p=$(ttg_new_pty_in_session "$s" 'sleep 600')
    wait_until 10 ttg_grouped "$p"
    v=$(ttg_open_vt_session carol tty5)
    q=$(ttg_new_pty_in_session "$v" 'sleep 600')
    wait_until 10 ttg_grouped "$q"
    assert_in "of session $s " "$(systemctl show -p Description --value "$(ttg_unit_of_pid "$p")")"
    # the ssh login's own shell is the session itself: it stays in the scope
    assert_true ttg_in_session_scope "$(ttg_session_shell_pid "$s")"
    assert_eq "$(ttg_session_of_pid "$(ttg_session_shell_pid "$s")")" "$s"
    assert_in "of session $v " "$(systemctl show -p Description --value "$(ttg_unit_of_pid "$q")")"
}

testcase_fifty_children_none_left_behind() {
    local s leader n_in n_all unit
    s=$(ttg_open_pty_session alice)
    leader=$(ttg_new_pty_in_session "$s" 'for i in $(seq 50); do sleep 600 & done; wait')
    sleep 1
    wait_until 10 ttg_grouped "$leader"
    unit=$(ttg_unit_of_pid "$leader")
    n_all=$(ps -e -o sid= | awk -v s="$leader" '$1 == s' | wc -l)
    n_in=$(wc -l < "/sys/fs/cgroup$(systemctl show -p ControlGroup --value "$unit")/cgroup.procs")
    assert_eq "$n_all" 51 "the shell and its 50 children are alive"
    assert_eq "$n_in" 51 "all 51 processes are in $unit"
}

testcase_polkit_unchanged_active_seat() {
    local v shell p before after
    v=$(ttg_open_vt_session carol tty5)
    shell=$(ttg_session_shell_pid "$v")
    before=$(polkit_verdict "$shell")
    assert_eq "$before" yes "the active seat0 session may reboot"
    p=$(ttg_new_pty_in_session "$v" 'sleep 600')
    wait_until 10 ttg_grouped "$p"
    assert_eq "$(polkit_verdict "$p")" "$before" "a grouped terminal of the active session"
}

testcase_polkit_unchanged_ssh() {
    local s shell p before
    s=$(ttg_open_ssh_session bob)
    shell=$(ttg_session_shell_pid "$s")
    before=$(polkit_verdict "$shell")
    assert_eq "$before" no "an ssh session may not reboot without auth"
    p=$(ttg_new_pty_in_session "$s" 'sleep 600')
    wait_until 10 ttg_grouped "$p"
    assert_eq "$(polkit_verdict "$p")" "$before"
}

testcase_only_display_session_splits() {
    local v r p q display
    v=$(ttg_open_vt_session alice tty5)
    r=$(ttg_open_ssh_session alice)
    display=$(loginctl show-user alice -p Display --value)
    echo "display session of alice: $display (VT $v, ssh $r)"
    assert_eq "$display" "$v"
    p=$(ttg_new_pty_in_session "$r" 'sleep 600')
    q=$(ttg_new_pty_in_session "$v" 'sleep 600')
    wait_until 10 ttg_grouped "$q"
    sleep 1
    assert_true ttg_in_session_scope "$p" "the ssh session's pty is not split out"
    assert_eq "$(polkit_verdict "$p")" no "and it keeps the ssh session's rights"
    # the local session ends: the ssh session becomes the display session
    ttg_close_session "$v"
    wait_eq 20 "$r" loginctl show-user alice -p Display --value
    wait_until 10 ttg_grouped "$p"
    assert_eq "$(polkit_verdict "$p")" no
    # a local session again: if logind makes it the display session, the ssh
    # session's groups fold back into its scope
    v=$(ttg_open_vt_session alice tty5)
    sleep 2
    display=$(loginctl show-user alice -p Display --value)
    echo "after a new VT login: display session $display"
    if [[ $display == "$v" ]]; then
        wait_until 10 ttg_in_session_scope "$p"
        assert_true kill -0 "$p"
    else
        assert_true ttg_grouped "$p"
    fi
    assert_eq "$(polkit_verdict "$p")" no
}

# connector_drops PID: events the kernel dropped for PID's proc connector
# socket (netlink protocol 11)
connector_drops() {
    local ino
    ino=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n')
    awk -v inodes="$(tr '\n' ' ' <<<"$ino")" \
        'BEGIN { n = split(inodes, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1; d = 0 }
         $2 == 11 && ($10 in want) { d += $9 } END { print d }' /proc/net/netlink
}

# The kernel drops process events when the service cannot keep up (netlink
# ENOBUFS): the service then rescans /proc and still finds the terminal that
# was opened while its events were being dropped.
testcase_lost_events_rescan() {
    local s p0 p1 pid before
    s=$(ttg_open_pty_session alice)
    p0=$(ttg_new_pty_in_session "$s" 'sleep 600')
    wait_until 10 ttg_grouped "$p0"
    before=$(journalctl -b -u ttygroupd -o cat --no-pager | grep -c 'Process events were lost' || true)
    pid=$(systemctl show -p MainPID --value ttygroupd)
    # stopped, the service reads nothing: short-lived processes (2 events
    # each) until the kernel drops events for its socket (the Drops column
    # of /proc/net/netlink); from there its buffer is full, and the new
    # terminal's events are dropped too. (A fixed 40000 processes took 60 to
    # 140 s here; the kernel dropped events after 12000, in 20 s.)
    kill -STOP "$pid"
    local i=0
    until (( $(connector_drops "$pid") > 0 )); do
        (( ++i <= 40 )) || _ttg_fail "$(_ttg_where)" "no events dropped after 80000 processes"
        /opt/ttygroup-test/bin/forkburst 2000 16 --no-exec >/dev/null
    done
    echo "events dropped after $(( i * 2000 )) processes"
    p1=$(ttg_new_pty_in_session "$s" 'sleep 600')
    kill -CONT "$pid"
    wait_until 60 ttg_grouped "$p1"
    assert_true ttg_grouped "$p0"
    (( $(journalctl -b -u ttygroupd -o cat --no-pager | grep -c 'Process events were lost') > before )) \
        || _ttg_fail "$(_ttg_where)" "no overflow was logged: the test did not provoke ENOBUFS"
}

run_testcases "$@"
