#!/bin/bash
# Session scopes get the policy's CPUWeight: local, remote and seat-active
# sessions each their own.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

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
        wait_eq 10 150 session_weight "$s"
        assert_eq "$(systemctl show -p CPUWeight --value "session-$s.scope")" 150
    done
}

testcase_remote_session() {
    local s
    s=$(ttg_open_ssh_session bob)
    assert_eq "$(loginctl show-session "$s" -p Remote --value)" yes
    wait_eq 10 70 session_weight "$s"
}

testcase_active_seat_session_and_switch() {
    local v1 v2
    v1=$(ttg_open_vt_session carol tty5)
    wait_eq 10 300 session_weight "$v1"
    # a second VT session taking the seat: the first one becomes inactive
    v2=$(ttg_open_vt_session alice tty6)
    wait_eq 10 300 session_weight "$v2"
    wait_eq 10 150 session_weight "$v1"
    loginctl activate "$v1"
    wait_eq 10 300 session_weight "$v1"
    wait_eq 10 150 session_weight "$v2"
}

testcase_policy_change_applies_to_existing_sessions() {
    local s
    s=$(ttg_open_pty_session alice)
    wait_eq 10 150 session_weight "$s"
    ttg_policy SessionWeight=40
    wait_eq 10 40 session_weight "$s"
}

testcase_bad_config_keeps_last_good_policy() {
    local s
    s=$(ttg_open_pty_session alice)
    wait_eq 10 150 session_weight "$s"
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
    # the warning cpuwatch.c gives when the weights cannot act (test-nocpu.sh: where it is given)
    assert_false bash -c "journalctl -u ttygroupd -o cat | grep -q 'CPU weights cannot act'"
}

run_testcases "$@"
