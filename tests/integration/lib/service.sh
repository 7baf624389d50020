# shellcheck shell=bash
# Helpers about ttygroupd itself, for the integration tests (sourced after
# lib.sh, inside the VM).
#
#   ttg_policy KEY=VALUE...   write them to a drop-in, reload the service and
#                             wait until the service logged the new policy
#   ttg_policy_reset          remove the drop-in, reload
#   ttg_groups                names of the active ttygroup-pty-*.scope units
#   ttg_group_count           how many there are
#   ttg_unit_weight UNIT      cpu.weight of UNIT in the cgroup fs
#   ttg_grouped PID           PID is in a ttygroup-pty-*.scope (exit status)
#   ttg_in_session_scope PID  PID is in session-*.scope (exit status)

TTG_DROPIN=/etc/ttygroup/ttygroup.conf.d/50-test.conf

_ttg_policy_lines() {
    journalctl -u ttygroupd -o cat --no-pager | grep -ci 'policy' || true
}

_ttg_policy_lines_above() {
    (( $(_ttg_policy_lines) > $1 ))
}

_ttg_reload() {
    local before
    before=$(_ttg_policy_lines)
    systemctl reload ttygroupd
    wait_until 30 _ttg_policy_lines_above "$before"
}

ttg_policy() {
    mkdir -p "${TTG_DROPIN%/*}"
    { echo "[Policy]"; printf '%s\n' "$@"; } > "$TTG_DROPIN"
    _ttg_reload
}

ttg_policy_reset() {
    rm -f "$TTG_DROPIN"
    _ttg_reload
}

ttg_groups() {
    systemctl list-units --no-legend --plain --state=active 'ttygroup-pty-*.scope' | awk '{print $1}'
}

ttg_group_count() {
    ttg_groups | grep -c . || true
}

ttg_unit_weight() {
    local cg
    cg=$(systemctl show -p ControlGroup --value "$1")
    [[ -n $cg ]] || return 1
    cat "/sys/fs/cgroup$cg/cpu.weight"
}

ttg_grouped() {
    [[ $(ttg_unit_of_pid "$1") == ttygroup-pty-*.scope ]]
}

ttg_in_session_scope() {
    [[ $(ttg_unit_of_pid "$1") == session-*.scope ]]
}
