#!/bin/bash
# ttygroupd.service is hardened (systemd-analyze security rates it "OK" or
# better: exposure <= 3.0) and still does its whole job under those settings:
# the proc connector, reading other users' /proc, asking systemd over the bus,
# and writing the cgroup.procs of a session scope to move processes back.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

MAX_EXPOSURE=3.0
SANITIZER_DROPIN=/etc/systemd/system/ttygroupd.service.d/50-sanitizer.conf

# "Overall exposure level for UNIT: 1.8 OK" -> 1.8
exposure() {
    systemd-analyze security --no-pager "$@" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'
}

at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

testcase_shipped_unit_exposure() {
    # the unit as installed, under another name so that no drop-in applies
    local dir e
    dir=$(mktemp -d)
    cp "$(systemctl show -p FragmentPath --value ttygroupd.service)" "$dir/ttygroupd-shipped.service"
    e=$(exposure --offline=true "$dir/ttygroupd-shipped.service")
    rm -rf "$dir"
    echo "exposure of the unit as shipped: $e"
    assert_ne "$e" "" "systemd-analyze printed an exposure level"
    assert_true at_most "$e" "$MAX_EXPOSURE"
}

testcase_running_unit_exposure() {
    local e
    e=$(exposure ttygroupd.service)
    echo "exposure of the running unit: $e"
    assert_ne "$e" "" "systemd-analyze printed an exposure level"
    if [[ -e $SANITIZER_DROPIN ]]; then
        # the sanitizer drop-in lifts MemoryDenyWriteExecute and the system call filter
        echo "sanitized build: $SANITIZER_DROPIN relaxes the unit; the shipped unit is checked above"
        return 0
    fi
    assert_true at_most "$e" "$MAX_EXPOSURE"
}

testcase_settings_in_force() {
    local main
    main=$(systemctl show -p MainPID --value ttygroupd)
    assert_ne "$main" 0
    assert_eq "$(systemctl show -p ProtectProc --value ttygroupd)" invisible
    # all of /proc: libcgroup needs /proc/cgroups (see the unit file)
    assert_eq "$(systemctl show -p ProcSubset --value ttygroupd)" all
    assert_eq "$(systemctl show -p ProtectKernelTunables --value ttygroupd)" yes
    assert_eq "$(systemctl show -p PrivateDevices --value ttygroupd)" yes
    assert_eq "$(systemctl show -p RestrictAddressFamilies --value ttygroupd | tr ' ' '\n' | sort | paste -sd ' ')" \
        "AF_NETLINK AF_UNIX"
    # the capabilities of the running process: only CAP_NET_ADMIN and CAP_SYS_PTRACE
    assert_eq "$(sed -n 's/^CapBnd:[[:space:]]*//p' "/proc/$main/status")" 0000000000081000
    assert_eq "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' "/proc/$main/status")" 1
}

# the whole job, under those settings
testcase_service_works_hardened() {
    local s p u out
    s=$(ttg_open_pty_session alice)
    p=$(ttg_new_pty_in_session "$s" 'sleep 900 & exec sleep 901')
    u=ttygroup-pty-$s-$p.scope
    # seen by the proc connector, placed through systemd
    wait_eq 30 "$u" ttg_unit_of_pid "$p"
    # another user's /proc, read through ProtectProc=invisible
    out=$(busctl call org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager GetGroupForPid u "$p")
    assert_in "$u" "$out"
    # moving back writes cgroup.procs of the session scope
    ttg_policy Enabled=false
    wait_until 30 ttg_in_session_scope "$p"
    assert_eq "$(ttg_session_of_pid "$p")" "$s"
    assert_true kill -0 "$p"
    ttg_policy Enabled=true
    wait_eq 30 "$u" ttg_unit_of_pid "$p"
    # nothing was refused by the sandbox
    assert_not_in 'denied|not permitted|Read-only file system' \
        "$(journalctl -b -o cat --no-pager _COMM=ttygroupd)"
    ttg_policy_reset
}

run_testcases "$@"
