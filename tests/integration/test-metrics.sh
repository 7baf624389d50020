#!/bin/bash
# vm-host-check: tests/openmetrics-check.py --effective 1 --min-groups 3
# A normal machine (the saved guest, resumed): the weights can act
# (Effective true, no Limitations, said first by ttygroupctl status);
# ttygroupctl metrics prints the groups' figures; ttygroup-metrics.timer is
# installed disabled and, once enabled, writes the .prom file of
# node-exporter's textfile collector, whole every time and replaced by a
# rename. The files left in $OUT are read on the host by prometheus_client's
# OpenMetrics parser (the line above: tools/vm runs it after this script).
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

OUT=$TTG_TEST_DIR/out
PROM_DIR=/var/lib/prometheus/node-exporter
PROM=$PROM_DIR/ttygroup.prom
mkdir -p "$OUT"

prop() { busctl get-property org.ttygroup1 /org/ttygroup1 org.ttygroup1.Manager "$1"; }
last_trigger() { systemctl show -p LastTriggerUSecMonotonic --value ttygroup-metrics.timer; }
triggered_since() { [[ $(last_trigger) != "$1" ]]; }
metrics_service_idle() { ! systemctl is-active -q ttygroup-metrics.service; }

# One terminal group of alice's for the figures, for every testcase
# (opened before run_testcases, so it stays open between them).
S=$(ttg_open_pty_session alice)
P=$(ttg_new_pty_in_session "$S" 'sleep 900')
wait_until 30 ttg_grouped "$P"
UNIT=$(ttg_unit_of_pid "$P")

testcase_weights_can_act() {
    local status
    assert_eq "$(prop Effective)" "b true"
    assert_eq "$(prop Limitations)" "as 0"
    # The check after the reconcile that placed the terminal looks down the
    # path to user-1001.slice as well; it runs about 2 s after it
    # (TTG_CPU_WATCH_SETTLE_USEC): the verdict must still hold after that.
    sleep 3
    assert_eq "$(prop Effective)" "b true"
    assert_in "cpu" "$(cat /sys/fs/cgroup/user.slice/user-1001.slice/cgroup.controllers)"
    status=$(ttygroupctl --no-pager status)
    echo "$status"
    assert_in "^Effective: +yes" "$(head -n1 <<<"$status")"
    assert_not_in "Limitation" "$status"
    assert_in "Placements: +[1-9]" "$status"
    assert_in "PlacementFailures: +0" "$status"
    assert_in '"Effective":true,"Limitations":\[\]' "$(ttygroupctl --json status)"
    assert_not_in "CPU weights cannot act" "$(journalctl -b -u ttygroupd -o cat --no-pager)"
}

# has_line FILE REGEX: a line of FILE matches (ERE; bash's =~ would anchor
# ^ and $ at the ends of the whole text)
has_line() { grep -qE "$2" "$1"; }

testcase_metrics_name_the_groups() {
    local f=$OUT/ttygroupctl-metrics.prom line
    ttygroupctl metrics > "$f"
    assert_eq "$(tail -n1 "$f")" "# EOF"
    line=$(grep -F "ttygroup_group_weight{unit=\"$UNIT\"" "$f")
    echo "$line"
    assert_in "kind=\"terminal\",session=\"$S\",uid=\"1001\"\} [1-9]" "$line"
    assert_true has_line "$f" "^ttygroup_group_cpu_usage_seconds_total\{unit=\"$UNIT\",.*\} [0-9]+\.[0-9]{6}$"
    assert_true has_line "$f" "^ttygroup_group_cpu_pressure_some_seconds_total\{unit=\"session-$S\.scope\""
    assert_true has_line "$f" "^ttygroup_effective 1$"
    assert_true has_line "$f" "^ttygroup_placements_total [1-9]"
    assert_true has_line "$f" "^ttygroup_process_events_total [1-9]"
    # --output belongs to metrics alone
    assert_rc 2 ttygroupctl --output=/tmp/x status
}

testcase_timer_writes_the_file_atomically() {
    local i n_reads inodes before after security trigger dir
    # shipped disabled, not running, no file yet
    assert_eq "$(systemctl is-enabled ttygroup-metrics.timer || true)" disabled
    assert_false systemctl is-active -q ttygroup-metrics.timer
    assert_false test -e "$PROM"

    systemctl enable --now ttygroup-metrics.timer
    # the timer's first run, at once (OnActiveSec=0), makes the directory and the file
    wait_until 60 test -s "$PROM"
    assert_true systemctl is-active -q ttygroup-metrics.timer
    assert_eq "$(stat -c %a "$PROM")" 644
    assert_eq "$(tail -n1 "$PROM")" "# EOF"
    assert_true grep -qF "ttygroup_group_weight{unit=\"$UNIT\"" "$PROM"
    cp "$PROM" "$OUT/timer-first.prom"
    assert_eq "$(systemctl show -p Result --value ttygroup-metrics.service)" success
    trigger=$(last_trigger)

    # Replaced, never rewritten in place: a reader looping over the file sees
    # it whole every time while it is written again and again, under more
    # than one inode (a new file renamed over it each time), and the file
    # held open from before is left as it was, unlinked. (The inode number
    # at the end may be the first one again: ext4 reuses freed numbers.)
    before=$(cat "$PROM")
    exec 9<"$PROM"
    rm -f "$OUT"/reads
    (
        n=0
        while [[ ! -e $OUT/stop ]]; do
            t=$(cat "$PROM")
            [[ $t == "# TYPE "* && $t == *$'\n# EOF' ]] || { printf '%s\n' "$t" > "$OUT/partial"; exit 1; }
            stat -c %i "$PROM" >> "$OUT/inodes"
            n=$((n + 1))
        done
        echo "$n" > "$OUT/reads"
    ) &
    for i in 1 2 3 4 5; do
        systemctl start ttygroup-metrics.service
    done
    # and the timer's own next run, 15 s after the last one (OnUnitActiveSec)
    wait_until 45 triggered_since "$trigger"
    wait_until 20 metrics_service_idle
    touch "$OUT/stop"
    wait || true  # a partial read is told below
    rm -f "$OUT/stop"
    assert_false test -e "$OUT/partial"
    n_reads=$(cat "$OUT/reads")
    inodes=$(sort -u "$OUT/inodes" | wc -l)
    rm -f "$OUT/reads" "$OUT/inodes"
    echo "reads of the file while it was replaced: $n_reads, inodes seen: $inodes"
    assert_true test "$n_reads" -ge 5
    assert_true test "$inodes" -ge 2
    assert_in "^$PROM \(deleted\)$" "$(readlink /proc/self/fd/9)" "the file held open is still the file"
    after=$(cat <&9)
    exec 9<&-
    assert_eq "$after" "$before" "the file held open was rewritten in place"
    # nothing but the file is left in the collector's directory
    assert_eq "$(ls -A "$PROM_DIR")" ttygroup.prom
    cp "$PROM" "$OUT/timer-last.prom"

    # hardened like ttygroupd.service (test-hardening.sh: exposure <= 3.0),
    # the unit as shipped: under another name, so that no drop-in applies
    # (a sanitized build's lifts the system call filter)
    dir=$(mktemp -d)
    cp "$(systemctl show -p FragmentPath --value ttygroup-metrics.service)" "$dir/ttygroup-metrics-shipped.service"
    security=$(systemd-analyze security --offline=true --no-pager "$dir/ttygroup-metrics-shipped.service" 2>&1 | tail -n1)
    rm -rf "$dir"
    echo "$security"
    assert_in "Overall exposure level for ttygroup-metrics-shipped.service: ([0-2]\.[0-9]|3\.0) " "$security"

    systemctl disable --now ttygroup-metrics.timer
}

run_testcases "$@"
