# shellcheck shell=bash
# Helpers of test-switches-off-on.sh and test-switches-across-restarts.sh (sourced after
# lib.sh and service.sh, inside the VM): terminals with ten CPU hogs and a
# quiet one in a session, and what a user would check after grouping was
# turned off (check_off) and on again (check_on).

# Two cycles: the defects these scripts exist for (a group not made again
# after a dissolve, a scope still being collected when grouping comes back,
# state left by a restart) show from the second cycle on. That the service's
# own state holds over many cycles of every switch, the old scopes collected
# or not, is checked on the host (tests/unit/test-manager.c,
# /manager/policy/switch-cycles); here what needs the real systemd and the
# CPU: scopes, moves, weights, the share. A third cycle ran the same code on
# the same state again, for ~2.5 min of the test bed's time.
CYCLES=${TTG_CYCLES:-2}
# The probe's window: it must tell a share of ~0.49 (grouped) from the 0.45
# threshold; over 40 runs of 4 s it read 0.488-0.496, and the spread of a
# 2 s window (~500 slices of the 4 ms tick) is about twice that: still 0.47
# or more, clear of the threshold.
PROBE_SECONDS=${TTG_LOAD_SECONDS:-2}
POLICY=(SessionWeight=150 ActiveSessionWeight=150 TerminalWeight=120)

ttg_setup_each() {
    ttg_policy "${POLICY[@]}"
}

# open_terminals HANDLE: ten hogs on CPU 0 in one terminal, a quiet terminal
# next to it; OLD lists every process of both. The hogs are stopped
# (SIGSTOP) except while the probe measures: a stopped process is moved
# between cgroups like a running one, and ten hogs spinning through the
# whole script kept one host CPU busy for nothing but the probe's 2 s windows.
open_terminals() {
    HOGS=$(ttg_new_pty_in_session "$1" 'for i in $(seq 10); do taskset -c 0 cpuprobe --hog & done; wait')
    QUIET=$(ttg_new_pty_in_session "$1" 'sleep 900')
    wait_eq 10 10 count_lines pgrep -s "$HOGS" -x -f 'cpuprobe --hog'
    OLD="$QUIET $(pgrep -s "$HOGS" | tr '\n' ' ')"
    hogs_signal STOP
    wait_until 15 all_grouped
}

# hogs_signal STOP|CONT: all ten hogs at once
hogs_signal() {
    pkill "-$1" -s "$HOGS" -x -f 'cpuprobe --hog'
}

all_grouped() {
    local p
    for p in $OLD; do ttg_grouped "$p" || return 1; done
}

none_grouped() {
    local p
    for p in $OLD; do ttg_in_session_scope "$p" || return 1; done
}

units_of_session() {
    local p
    for p in $(pgrep -s "$1"); do ttg_unit_of_pid "$p"; done | sort -u
}

share_of() {
    sed -n 's/.*share=\([0-9.]*\).*/\1/p' <<<"$1"
}

# Off: every process back in its session scope, alive, the scope at the
# weight that is left (the default when all grouping is off, the policy's when
# only terminals are); a terminal opened meanwhile stays there too.
check_off() {
    local h=$1 weight=$2 p
    wait_until 15 none_grouped
    for p in $OLD; do assert_true kill -0 "$p"; done
    wait_eq 10 "$weight" ttg_unit_weight "session-$h.scope"
    p=$(ttg_new_pty_in_session "$h" 'sleep 900')
    OLD="$OLD $p"
    sleep 1
    assert_true ttg_in_session_scope "$p"
}

# On again: what a user would look at.
check_on() {
    local h=$1 label=$2 p u new out share
    wait_until 20 all_grouped
    # one group per terminal, the hogs together
    assert_eq "$(units_of_session "$HOGS" | wc -l)" 1 "hog terminal in one group"
    assert_ne "$(units_of_session "$HOGS")" "$(ttg_unit_of_pid "$QUIET")"
    new=$(ttg_new_pty_in_session "$h" 'sleep 900')
    wait_until 10 ttg_grouped "$new"
    for u in $(ttg_groups); do wait_eq 10 120 ttg_unit_weight "$u"; done
    wait_eq 10 150 ttg_unit_weight "session-$h.scope"
    # no leftovers: exactly the groups of the terminals that exist
    local want; want=$(for p in $OLD $new; do ps -o sid= -p "$p"; done | sort -u | wc -l)
    wait_eq 10 "$want" ttg_group_count
    hogs_signal CONT
    out=$(ttg_session_run "$h" "script -qfec 'taskset -c 0 cpuprobe $PROBE_SECONDS' /dev/null" | tr -d '\r')
    hogs_signal STOP
    share=$(share_of "$out")
    echo "RESULT $label: probe share next to 10 grouped hogs on one CPU: $share"
    assert_true awk -v x="$share" 'BEGIN { exit !(x >= 0.45) }'
    kill "$new"
}

set_enabled() {
    ttygroupctl set-policy "Enabled=$1"
}

set_group_terminals() {
    ttg_policy "${POLICY[@]}" "GroupTerminals=$1"
}

# SetUserPolicy as the session's own user, from inside it
set_user_enabled() {
    ttg_session_run "$S" "gdbus call --system --dest org.ttygroup1 --object-path /org/ttygroup1 \
        --method org.ttygroup1.Manager.SetUserPolicy \"{'Enabled': <$1>}\""
}

# cycle HOW WEIGHT_WHEN_OFF
cycle() {
    local how=$1 i
    for i in $(seq "$CYCLES"); do
        "$how" false
        check_off "$S" "$2"
        "$how" true
        check_on "$S" "$how cycle $i"
    done
}

