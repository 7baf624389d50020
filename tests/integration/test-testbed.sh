#!/bin/bash
# The test bed's own checks: the VM is a real systemd machine and the session
# helpers of lib.sh give real logind sessions. Run: tools/vm run tests/integration/test-testbed.sh
set -eu
. /opt/ttygroup-test/lib.sh

REBOOT=org.freedesktop.login1.reboot   # allow_any/inactive: auth_admin_keep, allow_active: yes

# These checks are about the test bed, i.e. what sd-login/polkit see WITHOUT
# ttygroupd (which deliberately moves pty sessions out of session scopes).
if systemctl is-active -q ttygroupd.service 2>/dev/null; then
    echo "(stopping ttygroupd.service: the test bed is checked without it)"
    systemctl stop ttygroupd.service
fi

testcase_systemd_is_pid1() {
    assert_eq "$(ps -p 1 -o comm=)" systemd
    assert_eq "$(readlink /proc/1/exe)" /usr/lib/systemd/systemd
    assert_in '^(running|degraded)$' "$(systemctl is-system-running)"
}

testcase_logind_and_dbus() {
    assert_true systemctl is-active -q dbus.service systemd-logind.service
    assert_in "\"/org/freedesktop/login1/session/" "$(busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager ListSessions)"
    assert_in 'seat0' "$(loginctl list-seats --no-legend)"
}

testcase_polkit_answers() {
    # polkitd is bus-activated: the first call starts it
    local v
    v=$(pkaction --verbose --action-id "$REBOOT")
    assert_in 'implicit active: +yes' "$v"
    assert_in 'implicit any: +auth_admin' "$v"
    assert_rc 0 pkcheck --action-id "$REBOOT" --process $$
    assert_true systemctl is-active -q polkit.service
}

testcase_cgroup_v2_with_cpu() {
    assert_eq "$(stat -fc %T /sys/fs/cgroup)" cgroup2fs
    assert_in '(^| )cpu( |$)' "$(cat /sys/fs/cgroup/cgroup.controllers)"
    local s uid
    s=$(ttg_open_pty_session alice)
    uid=$(id -u alice)
    systemctl set-property --runtime "session-$s.scope" CPUWeight=300
    assert_in '(^| )cpu( |$)' "$(cat /sys/fs/cgroup/cgroup.subtree_control)"
    assert_in '(^| )cpu( |$)' "$(cat /sys/fs/cgroup/user.slice/cgroup.subtree_control)"
    assert_in '(^| )cpu( |$)' "$(cat /sys/fs/cgroup/user.slice/user-$uid.slice/cgroup.subtree_control)"
    assert_eq "$(cat "/sys/fs/cgroup/user.slice/user-$uid.slice/session-$s.scope/cpu.weight")" 300
}

testcase_pty_session() {
    local s pid
    s=$(ttg_open_pty_session alice)
    assert_eq "$(loginctl show-session "$s" -p Name --value)" alice
    assert_eq "$(loginctl show-session "$s" -p Type --value)" tty
    assert_eq "$(loginctl show-session "$s" -p Remote --value)" no
    assert_in '^pts/[0-9]+$' "$(loginctl show-session "$s" -p TTY --value)"
    pid=$(ttg_session_shell_pid "$s")
    assert_in "/user-1001\.slice/session-$s\.scope\$" "$(ttg_cgroup_of_pid "$pid")"
    assert_eq "$(ttg_session_of_pid "$pid")" "$s"
    assert_in "(^|[[:space:]])$s " "$(loginctl list-sessions --no-legend)"
}

testcase_run_inside_session() {
    local s tty
    s=$(ttg_open_pty_session alice)
    tty=$(loginctl show-session "$s" -p TTY --value)
    assert_eq "$(ttg_session_run "$s" 'id -un')" alice
    assert_in "/session-$s\.scope\$" "$(ttg_session_run "$s" 'cat /proc/self/cgroup')"
    assert_eq "$(ttg_session_run "$s" 'ps -o lsession= -p $$ | tr -d " "')" "$s"
    assert_eq "$(ttg_session_run "$s" 'ps -o tty= -p $$ | tr -d " "')" "$tty"
    assert_eq "$(ttg_session_run "$s" 'tty')" "/dev/$tty"
    # like a getty login: login(1) leads the kernel session on the pty, the shell is in it
    local sh leader
    sh=$(ttg_session_shell_pid "$s")
    leader=$(ps -o sid= -p "$sh" | tr -d ' ')
    assert_eq "$(ps -o tty= -p "$leader" | tr -d ' ')" "$tty"
    assert_eq "$(ttg_session_of_pid "$leader")" "$s"
    assert_eq "$(ttg_session_run "$s" 'echo "$XDG_SESSION_ID"')" "$s"
    # a child of the session's shell
    assert_eq "$(ttg_session_run "$s" 'ps -o ppid= -p $$ | tr -d " "')" "$(ttg_session_shell_pid "$s")"
    # output and exit status come back
    assert_eq "$(ttg_session_run "$s" 'echo out; echo err >&2' 2>&1)" $'out\nerr'
    assert_rc 7 ttg_session_run "$s" 'exit 7'
    assert_eq "$(ttg_session_run "$s" echo two words)" "two words"
}

testcase_spawn_and_nested_pty() {
    local s pid lpid stty
    s=$(ttg_open_pty_session alice)
    stty=$(loginctl show-session "$s" -p TTY --value)
    pid=$(ttg_session_spawn "$s" 'sleep 300')
    assert_eq "$(cat "/proc/$pid/comm")" sleep
    assert_eq "$(ps -o user= -p "$pid")" alice
    assert_eq "$(ttg_session_of_pid "$pid")" "$s"
    pid=$(ttg_session_spawn "$s" 'echo spawned-output')
    wait_until 10 grep -q spawned-output "$(ttg_spawn_log "$s" "$pid")"
    lpid=$(ttg_new_pty_in_session "$s" 'sleep 300')
    assert_eq "$(ps -o sid= -p "$lpid" | tr -d ' ')" "$lpid"
    assert_in '^pts/[0-9]+$' "$(ps -o tty= -p "$lpid" | tr -d ' ')"
    assert_ne "$(ps -o tty= -p "$lpid" | tr -d ' ')" "$stty"
    assert_eq "$(ps -o user= -p "$lpid")" alice
    assert_eq "$(ttg_session_of_pid "$lpid")" "$s"
    assert_in "/session-$s\.scope\$" "$(ttg_cgroup_of_pid "$lpid")"
    # tmux from inside the session: its panes are nested pty sessions too
    local server pane
    ttg_session_run "$s" 'tmux new-session -d -s t "sleep 300"'
    wait_until 20 pgrep -u alice -x 'tmux: server'
    server=$(pgrep -u alice -x 'tmux: server')
    assert_eq "$(ttg_session_of_pid "$server")" "$s"
    wait_until 20 pgrep -P "$server"
    pane=$(pgrep -P "$server" | head -n1)
    assert_eq "$(ps -o sid= -p "$pane" | tr -d ' ')" "$pane"
    assert_in '^pts/[0-9]+$' "$(ps -o tty= -p "$pane" | tr -d ' ')"
    assert_eq "$(ttg_session_of_pid "$pane")" "$s"
}

testcase_ssh_session_is_remote() {
    local s
    s=$(ttg_open_ssh_session bob)
    assert_eq "$(loginctl show-session "$s" -p Name --value)" bob
    assert_eq "$(loginctl show-session "$s" -p Remote --value)" yes
    assert_eq "$(loginctl show-session "$s" -p Service --value)" sshd
    assert_in '^pts/[0-9]+$' "$(loginctl show-session "$s" -p TTY --value)"
    assert_eq "$(ttg_session_run "$s" 'id -un')" bob
    assert_eq "$(ttg_session_run "$s" 'ps -o lsession= -p $$ | tr -d " "')" "$s"
}

testcase_vt_session_is_active() {
    local s
    s=$(ttg_open_vt_session alice)
    assert_eq "$(loginctl show-session "$s" -p Seat --value)" seat0
    assert_eq "$(loginctl show-session "$s" -p VTNr --value)" 5
    assert_eq "$(loginctl show-session "$s" -p Active --value)" yes
    assert_eq "$(loginctl show-session "$s" -p State --value)" active
    assert_eq "$(ttg_session_run "$s" 'id -un')" alice
    assert_eq "$(ttg_session_run "$s" 'tty')" /dev/tty5
    assert_eq "$(ttg_session_run "$s" 'ps -o lsession= -p $$ | tr -d " "')" "$s"
}

testcase_polkit_follows_sessions() {
    local ssh_s pty_s vt_s p
    assert_rc 0 pkcheck --action-id "$REBOOT" --process $$                     # root
    ssh_s=$(ttg_open_ssh_session bob)
    p=$(ttg_session_spawn "$ssh_s" 'sleep 300')
    assert_false pkcheck --action-id "$REBOOT" --process "$p"                  # remote: auth_admin
    pty_s=$(ttg_open_pty_session alice)
    p=$(ttg_session_spawn "$pty_s" 'sleep 300')
    assert_false pkcheck --action-id "$REBOOT" --process "$p"                  # no seat: auth_admin
    vt_s=$(ttg_open_vt_session alice)
    p=$(ttg_session_spawn "$vt_s" 'sleep 300')
    assert_rc 0 pkcheck --action-id "$REBOOT" --process "$p"                   # active seat0: yes
}

testcase_close_session() {
    local s unit
    s=$(ttg_open_pty_session bob)
    unit=$(ttg_session_info "$s" unit)
    assert_true ttg_close_session "$s"
    assert_false loginctl show-session "$s" -p Id
    assert_false systemctl is-active -q "$unit"
}

run_testcases "$@"
