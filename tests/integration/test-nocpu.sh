#!/bin/bash
# vm-append: cgroup_disable=cpu
# vm-host-check: tests/openmetrics-check.py --effective 0 --min-groups 1
# A machine whose kernel has no cpu controller (booted with
# cgroup_disable=cpu; tools/vm boots the saved guest's disk cold with it):
# ttygroupd starts and groups as everywhere, but no weight can act, and it
# says so, naming the missing controller: Effective false, Limitations, the
# first lines of ttygroupctl status, systemctl status, the journal (once)
# and the metrics. (On systemd 252 a runtime DisableControllers=cpu on
# user.slice is accepted but not applied to live cgroups: it cannot stand
# in for this.)
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

OUT=$TTG_TEST_DIR/out
mkdir -p "$OUT"

prop() { busctl get-property org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager "$1"; }

testcase_the_kernel_has_no_cpu_controller() {
    # the premise: this boot's command line, and no cpu in cgroup v2
    assert_in "cgroup_disable=cpu" "$(cat /proc/cmdline)"
    assert_not_in "(^| )cpu( |$)" "$(cat /sys/fs/cgroup/cgroup.controllers)"
    assert_true systemctl is-active -q ttygroupd.service
}

testcase_effective_is_false_and_says_why() {
    local lim status
    assert_eq "$(prop Effective)" "b false"
    lim=$(prop Limitations)
    echo "$lim"
    assert_eq "$lim" 'as 1 "the cpu controller is disabled on the kernel command line (cgroup_disable=cpu): /sys/fs/cgroup/cgroup.controllers lacks cpu"'
    # the earlier Status keys say the same
    assert_in '"CpuWeightsUsable" b false' "$(prop Status)"
    assert_in '"Reason" s "the cpu controller is disabled' "$(prop Status)"

    status=$(ttygroupctl --no-pager status)
    echo "$status"
    assert_in "^Effective: +no" "$(sed -n 1p <<<"$status")"
    assert_in "^Limitation: +the cpu controller is disabled on the kernel command line \(cgroup_disable=cpu\)" \
        "$(sed -n 2p <<<"$status")"
    assert_in '"Effective":false,"Limitations":\["the cpu controller' "$(ttygroupctl --json status)"
    assert_in "^CPU weights cannot act: the cpu controller is disabled" \
        "$(systemctl show -p StatusText --value ttygroupd.service)"
    # warned once, at warning level
    assert_eq "$(journalctl -b -u ttygroupd -p warning -o cat --no-pager | grep -c 'CPU weights cannot act: the cpu controller')" 1
}

testcase_grouping_goes_on_and_metrics_say_so() {
    local s p f=$OUT/nocpu.prom
    s=$(ttg_open_pty_session alice)
    p=$(ttg_new_pty_in_session "$s" 'sleep 900')
    wait_until 30 ttg_grouped "$p"
    # the reconcile after the new session checks again: the verdict stands,
    # and is not told again
    sleep 3
    assert_eq "$(prop Effective)" "b false"
    assert_eq "$(journalctl -b -u ttygroupd -p warning -o cat --no-pager | grep -c 'CPU weights cannot act')" 1
    ttygroupctl metrics > "$f"
    assert_true grep -qx "ttygroup_effective 0" "$f"
    assert_true grep -qx "ttygroup_limitations 1" "$f"
    assert_true grep -qF "ttygroup_group_weight{unit=\"$(ttg_unit_of_pid "$p")\"" "$f"
}

run_testcases "$@"
