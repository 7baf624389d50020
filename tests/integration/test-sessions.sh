#!/bin/bash
# Session scopes get the policy's CPUWeight: local, remote and seat-active
# sessions each their own.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/integration/service.sh

ttg_setup_each() {
    ttg_policy ActiveSessionWeight=300 SessionWeight=150 RemoteSessionWeight=70 TerminalWeight=120
}

session_weight() {
    ttg_unit_weight "session-$1.scope"
}

testcase_pty_sessions_of_two_users() {
    local a1 a2 b1
    a1=$(ttg_open_pty_session alice)
    a2=$(ttg_open_pty_session alice)
    b1=$(ttg_open_pty_session bob)
    for s in "$a1" "$a2" "$b1"; do
        wait_until 10 test "$(session_weight "$s")" = 150
        assert_eq "$(systemctl show -p CPUWeight --value "session-$s.scope")" 150
    done
}

testcase_remote_session() {
    local s
    s=$(ttg_open_ssh_session bob)
    assert_eq "$(loginctl show-session "$s" -p Remote --value)" yes
    wait_until 10 test "$(session_weight "$s")" = 70
}

testcase_active_seat_session_and_switch() {
    local v1 v2
    v1=$(ttg_open_vt_session carol tty5)
    wait_until 10 test "$(session_weight "$v1")" = 300
    # a second VT session taking the seat: the first one becomes inactive
    v2=$(ttg_open_vt_session alice tty6)
    wait_until 10 test "$(session_weight "$v2")" = 300
    wait_until 10 test "$(session_weight "$v1")" = 150
    loginctl activate "$v1"
    wait_until 10 test "$(session_weight "$v1")" = 300
    wait_until 10 test "$(session_weight "$v2")" = 150
}

testcase_policy_change_applies_to_existing_sessions() {
    local s
    s=$(ttg_open_pty_session alice)
    wait_until 10 test "$(session_weight "$s")" = 150
    ttg_policy SessionWeight=40
    wait_until 10 test "$(session_weight "$s")" = 40
}

testcase_bad_config_keeps_last_good_policy() {
    local s
    s=$(ttg_open_pty_session alice)
    wait_until 10 test "$(session_weight "$s")" = 150
    printf '[Policy]\nSessionWeight=0\n' > /etc/ttygroup/ttygroup.conf.d/90-bad.conf
    assert_rc 1 /usr/libexec/ttygroupd --check-config
    assert_in 'SessionWeight' "$(/usr/libexec/ttygroupd --check-config 2>&1 || true)"
    systemctl reload ttygroupd
    wait_until 10 bash -c "journalctl -u ttygroupd -o cat | grep -q 'keeping the last good policy'"
    assert_in '90-bad.conf' "$(journalctl -u ttygroupd -o cat | grep 'keeping the last good policy')"
    sleep 1
    assert_eq "$(session_weight "$s")" 150
    assert_true systemctl is-active -q ttygroupd
    rm -f /etc/ttygroup/ttygroup.conf.d/90-bad.conf
}

testcase_status_is_honest() {
    assert_in 'session\(s\)' "$(systemctl show -p StatusText --value ttygroupd)"
    assert_false bash -c "journalctl -u ttygroupd -o cat | grep -q 'CPU weights will have no effect'"
}

run_testcases "$@"
