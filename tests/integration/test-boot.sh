#!/bin/bash
# vm-boot: cold
# The one script that boots from power-on (tools/vm: "cold", the disk of the
# saved guest, where the build or the packages were installed and
# ttygroupd.service enabled as they enable it): the service is started by
# systemd during boot, groups a terminal of the first login, and is started
# again by the bus when a call to org.ttygroup1 finds it stopped.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

usec_of() { systemctl show "$@" --value; }

testcase_started_by_systemd_at_boot() {
    local started finished uptime_us
    assert_eq "$(systemctl is-enabled ttygroupd.service)" enabled
    assert_true systemctl is-active -q ttygroupd.service
    # started during this boot's start-up transaction, not by a later call
    started=$(usec_of -p ActiveEnterTimestampMonotonic ttygroupd.service)
    finished=$(usec_of -p FinishTimestampMonotonic)
    echo "ttygroupd active at ${started} us of the boot; start-up finished at ${finished} us"
    assert_true test "$started" -gt 0
    assert_true test "$started" -le "$finished"
    # and started once: no restart since
    assert_eq "$(usec_of -p NRestarts ttygroupd.service)" 0
    assert_eq "$(journalctl -b -u ttygroupd.service -o cat --no-pager | grep -c '^Started ')" 1
    uptime_us=$(awk '{ printf "%d", $1 * 1000000 }' /proc/uptime)
    assert_true test "$started" -lt "$uptime_us"
    # the machine came up clean: what the package or the build installed failed nothing
    assert_eq "$(systemctl --failed --no-legend --plain | grep -c ttygroup || true)" 0
}

testcase_weights_can_act_after_boot() {
    local p=(busctl get-property org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager)
    # a normal boot: nothing in the way of the weights (test-nocpu.sh: a boot where there is)
    assert_eq "$("${p[@]}" Effective)" "b true"
    assert_eq "$("${p[@]}" Limitations)" "as 0"
    assert_in "^Effective: +yes" "$(ttygroupctl --no-pager status | head -n1)"
    # the Prometheus timer is shipped, not enabled, by the build and the package alike
    assert_eq "$(systemctl is-enabled ttygroup-metrics.timer || true)" disabled
    assert_false systemctl is-active -q ttygroup-metrics.timer
}

testcase_metrics_unit_as_installed() {
    # The metrics service under its own sandbox (the deb run has no sanitizer
    # drop-in: the shipped system call filter and /proc settings apply; its
    # timer is test-metrics.sh's).
    local f=/var/lib/prometheus/node-exporter/ttygroup.prom
    systemctl start ttygroup-metrics.service
    assert_eq "$(systemctl show -p Result --value ttygroup-metrics.service)" success
    assert_eq "$(tail -n1 "$f")" "# EOF"
    assert_true grep -qx "ttygroup_effective 1" "$f"
    rm -f "$f"
}

testcase_first_login_is_grouped() {
    local s p
    s=$(ttg_open_pty_session alice)
    p=$(ttg_new_pty_in_session "$s" 'sleep 900')
    wait_until 30 ttg_grouped "$p"
    assert_in "^/user.slice/user-1001.slice/ttygroup-pty-" "$(ttg_cgroup_of_pid "$p")"
}

testcase_bus_activation_after_boot() {
    local v
    systemctl stop ttygroupd.service
    assert_false systemctl is-active -q ttygroupd.service
    # a plain read of a property starts it (the activation file names the unit)
    v=$(busctl get-property org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager Version)
    assert_in '^s "' "$v"
    assert_true systemctl is-active -q ttygroupd.service
    assert_in "Activating via systemd: service name='org.ttygroup1'" \
        "$(journalctl -b -u dbus.service -o cat --no-pager)"
}

run_testcases "$@"
