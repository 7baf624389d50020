#!/bin/bash
# The desktop side: a user's gsettings switch reaches the service through
# ttygroup-agent (SetUserPolicy, as that user), for their own sessions only and
# within the system policy; the agent re-sends after a service restart, and
# weighs the terminal scopes of the user's own systemd manager. Translations:
# polkit message, settings schema and ttygroupctl under de_DE.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

SCHEMA=org.ttygroup1

# A settings change reaches the service through polkit (SetUserPolicy is
# checked for each call). On a loaded host polkitd was seen to stall 15 s on
# one such check, until its own watchdog fired ("Terminating runaway script
# after 15 seconds"), and the change applied 17 s after gsettings set: a wait
# that crosses a polkit check allows 30 s. A passing run does not wait longer.
POLKIT_WAIT=30

ttg_setup_each() {
    ttg_policy TerminalWeight=100
}

# agent_log UID: what that user's agent logged (this boot)
agent_log() {
    journalctl -b -o cat --no-pager "_UID=$1" _SYSTEMD_USER_UNIT=ttygroup-agent.service 2>/dev/null
}

# agent_log_count UID TEXT: how many lines of it contain TEXT
agent_log_count() {
    agent_log "$1" | grep -cF -- "$2" || true
}

_agent_log_grew() {
    (( $(agent_log_count "$1" "$2") > $3 ))
}

# wait_agent_log UID TEXT BEFORE: until more than BEFORE lines contain TEXT
wait_agent_log() {
    wait_until "$POLKIT_WAIT" _agent_log_grew "$@"
}

# start_agent HANDLE UID: the user's settings back to their defaults, then the
# agent started as the graphical session starts it (graphical-session.target
# wants the unit); returns once the service applied the settings
start_agent() {
    local before
    before=$(agent_log_count "$2" 'ttygroupd applied my settings')
    ttg_session_run "$1" "gsettings reset-recursively $SCHEMA && systemctl --user start ttygroup-agent.service"
    wait_agent_log "$2" 'ttygroupd applied my settings' "$before"
}

# alice_at_seat_with_terminal: alice logs in on the seat (tty5), her agent
# runs, and she opens a terminal; sets the caller's v (her session) and pv
# (the terminal's leader, grouped)
alice_at_seat_with_terminal() {
    v=$(ttg_open_vt_session alice tty5)
    start_agent "$v" 1001
    pv=$(ttg_new_pty_in_session "$v" 'sleep 600')
    wait_until 10 ttg_grouped "$pv"
}

# switch_off HANDLE PID: the user's gsettings switch off; PID (a terminal's
# leader) is back in its session scope
switch_off() {
    ttg_session_run "$1" "gsettings set $SCHEMA enabled false"
    wait_until $POLKIT_WAIT ttg_in_session_scope "$2"
}

# user_scope_weight UID UNIT: cpu.weight of a scope of that user's manager
user_scope_weight() {
    local cg
    cg=$(find "/sys/fs/cgroup/user.slice/user-$1.slice/user@$1.service" -maxdepth 3 -type d -name "$2" | head -n 1)
    [[ -n $cg ]] || return 1
    cat "$cg/cpu.weight"
}

# user_scope_cpuweight HANDLE UNIT: the CPUWeight property of a scope of the
# session user's manager ("[not set]" when none)
user_scope_cpuweight() {
    ttg_session_run "$1" "systemctl --user show -p CPUWeight --value $2"
}

testcase_gsettings_switch_applies_to_own_sessions_only() {
    local v b pv pb ms
    v=$(ttg_open_vt_session alice tty5)
    b=$(ttg_open_pty_session bob)
    start_agent "$v" 1001
    pv=$(ttg_new_pty_in_session "$v" 'sleep 600')
    pb=$(ttg_new_pty_in_session "$b" 'sleep 600')
    wait_until 10 ttg_grouped "$pv"
    wait_until 10 ttg_grouped "$pb"

    # measured inside the session (switchlat polls /proc without forking):
    # from `gsettings set` starting to the terminal's leader being back in
    # the session scope
    ms=$(ttg_session_run "$v" "switchlat '/session-$v.scope' $pv 30000 gsettings set $SCHEMA enabled false") \
        || { echo "switchlat: $ms" >&2; return 1; }
    echo "measured: gsettings set enabled false -> pty group dissolved: $ms"
    assert_true ttg_in_session_scope "$pv"
    assert_true kill -0 "$pv"
    assert_eq "$(ttg_session_of_pid "$pv")" "$v" "the terminal is still in its session for logind"
    # the service's log says why
    assert_in "back in session-$v.scope, because its user turned grouping off \(SetUserPolicy\)" \
        "$(journalctl -b -u ttygroupd -o cat --no-pager)"
    # bob's groups are untouched
    sleep 1
    assert_true ttg_grouped "$pb"
    assert_true kill -0 "$pb"

    ms=$(ttg_session_run "$v" "switchlat /ttygroup-pty- $pv 30000 gsettings set $SCHEMA enabled true") \
        || { echo "switchlat: $ms" >&2; return 1; }
    echo "measured: gsettings set enabled true -> pty grouped again: $ms"
    assert_true ttg_grouped "$pv"

    # the per-terminal switch alone
    ttg_session_run "$v" "gsettings set $SCHEMA group-terminals false"
    wait_until $POLKIT_WAIT ttg_in_session_scope "$pv"
    assert_true ttg_grouped "$pb"
}

testcase_weight_stays_within_the_admins_bound() {
    local v pv unit before out
    alice_at_seat_with_terminal
    unit=$(ttg_unit_of_pid "$pv")

    ttg_session_run "$v" "gsettings set $SCHEMA terminal-weight 40"
    wait_eq $POLKIT_WAIT 40 ttg_unit_weight "$unit"

    # above the system's TerminalWeight (100): refused, the previous weight stays
    before=$(agent_log_count 1001 'refused the terminal weight 5000')
    ttg_session_run "$v" "gsettings set $SCHEMA terminal-weight 5000"
    wait_agent_log 1001 'refused the terminal weight 5000' "$before"
    agent_log 1001 | grep -F 'refused the terminal weight 5000' | tail -n 1
    sleep 1
    assert_eq "$(ttg_unit_weight "$unit")" 40
    # the switches still apply while the weight is refused
    ttg_session_run "$v" "gsettings set $SCHEMA group-terminals false"
    wait_until $POLKIT_WAIT ttg_in_session_scope "$pv"
    ttg_session_run "$v" "gsettings set $SCHEMA group-terminals true"
    wait_until $POLKIT_WAIT ttg_grouped "$pv"
    unit=$(ttg_unit_of_pid "$pv")
    wait_eq $POLKIT_WAIT 40 ttg_unit_weight "$unit"

    # directly on the bus, without the agent: the same named error
    out=$(ttg_session_run "$v" "gdbus call --system --dest org.ttygroup1 --object-path /org/ttygroup1 \
        --method org.ttygroup1.Manager.SetUserPolicy \"{'TerminalWeight': <uint64 5000>}\" 2>&1" || true)
    echo "$out"
    assert_in 'org.ttygroup1.Error.InvalidPolicy' "$out"
    assert_in 'TerminalWeight' "$out"
    assert_eq "$(ttg_unit_weight "$unit")" 40

    # the administrator lowers the bound below the user's weight: it follows
    ttg_policy TerminalWeight=30
    wait_eq 10 30 ttg_unit_weight "$unit"
}

testcase_service_restart_reapplies_settings() {
    local v pv pv2 before
    alice_at_seat_with_terminal
    switch_off "$v" "$pv"

    # the service forgets user settings when it stops (runtime only): the
    # agent sees the new owner of org.ttygroup1 and sends them again
    before=$(agent_log_count 1001 'ttygroupd applied my settings: Enabled=false')
    systemctl restart ttygroupd
    wait_agent_log 1001 'ttygroupd applied my settings: Enabled=false' "$before"
    wait_until 10 ttg_in_session_scope "$pv"
    sleep 2
    assert_true ttg_in_session_scope "$pv"
    pv2=$(ttg_new_pty_in_session "$v" 'sleep 600')
    sleep 2
    assert_true ttg_in_session_scope "$pv2"

    # control: without the agent, a restarted service groups them again, so
    # it was the agent's re-send that kept them in the session scope
    ttg_session_run "$v" "systemctl --user stop ttygroup-agent.service"
    systemctl restart ttygroupd
    wait_until 15 ttg_grouped "$pv"
    wait_until 15 ttg_grouped "$pv2"
}

testcase_settings_refused_in_the_background_apply_back_in_front() {
    local v b pv before
    alice_at_seat_with_terminal
    switch_off "$v" "$pv"

    # bob takes the seat; alice's session goes to the background, where
    # polkit no longer allows her agent (set-user-policy: active user only)
    b=$(ttg_open_vt_session bob tty6)
    assert_eq "$(loginctl show-session -p Active --value "$v")" no
    before=$(agent_log_count 1001 'polkit refused')
    systemctl restart ttygroupd
    wait_agent_log 1001 'polkit refused' "$before"
    # the restarted service knows nothing of her settings meanwhile
    wait_until 15 ttg_grouped "$pv"

    # back in front: the agent sends them again at the seat switch
    before=$(agent_log_count 1001 'ttygroupd applied my settings: Enabled=false')
    loginctl activate "$v"
    wait_agent_log 1001 'ttygroupd applied my settings: Enabled=false' "$before"
    wait_until 10 ttg_in_session_scope "$pv"
    assert_true kill -0 "$pv"
}

testcase_user_manager_terminal_scopes_get_the_weight() {
    local v vte1 vte2 app other
    v=$(ttg_open_vt_session alice tty5)
    start_agent "$v" 1001
    # what GNOME Terminal and app launchers do: a transient scope of the user
    # manager per tab (here made with systemd-run, as VTE does over the bus)
    ttg_session_spawn "$v" "systemd-run --user --scope --unit=vte-spawn-0f1e2d3c.scope sleep 600" >/dev/null
    ttg_session_spawn "$v" "systemd-run --user --scope --unit=other-tool-1.scope sleep 600" >/dev/null
    wait_until 15 user_scope_weight 1001 vte-spawn-0f1e2d3c.scope
    wait_until 15 user_scope_weight 1001 other-tool-1.scope

    # a weight for the existing scope, and for the ones started after
    ttg_session_run "$v" "gsettings set $SCHEMA terminal-weight 40"
    wait_eq $POLKIT_WAIT 40 user_scope_weight 1001 vte-spawn-0f1e2d3c.scope
    ttg_session_spawn "$v" "systemd-run --user --scope --unit=vte-spawn-4b5a6978.scope sleep 600" >/dev/null
    ttg_session_spawn "$v" "systemd-run --user --scope --unit=app-org.example.Terminal-77.scope sleep 600" >/dev/null
    wait_eq 15 40 user_scope_weight 1001 vte-spawn-4b5a6978.scope
    wait_eq 15 40 user_scope_weight 1001 app-org.example.Terminal-77.scope
    assert_eq "$(user_scope_weight 1001 other-tool-1.scope)" 100 "a scope that is not a terminal is left alone"

    # a narrower list: what no longer counts as a terminal is let go
    ttg_session_run "$v" "gsettings set $SCHEMA terminal-scopes \"['vte-spawn-*.scope']\""
    wait_eq $POLKIT_WAIT "[not set]" user_scope_cpuweight "$v" app-org.example.Terminal-77.scope
    assert_eq "$(user_scope_weight 1001 vte-spawn-0f1e2d3c.scope)" 40

    # grouping off for this user: back to systemd's default (no weight set;
    # systemd may then even turn the cpu controller off below app.slice)
    ttg_session_run "$v" "gsettings set $SCHEMA enabled false"
    wait_eq $POLKIT_WAIT "[not set]" user_scope_cpuweight "$v" vte-spawn-0f1e2d3c.scope
    wait_eq $POLKIT_WAIT "[not set]" user_scope_cpuweight "$v" vte-spawn-4b5a6978.scope
    wait_eq $POLKIT_WAIT "[not set]" user_scope_cpuweight "$v" app-org.example.Terminal-77.scope
    # and the tabs are all still running
    assert_eq "$(ttg_session_run "$v" 'systemctl --user list-units --no-legend --state=running "vte-spawn-*.scope" "app-*.scope" | wc -l')" 3
}

testcase_one_agent_per_user_started_with_the_graphical_session() {
    local v out before
    # a desktop session's target, the way GNOME's and Plasma's bind to it
    cat > /etc/systemd/user/ttg-test-desktop.target <<'UNIT'
[Unit]
Description=A desktop session (test)
BindsTo=graphical-session.target
Before=graphical-session.target
UNIT
    v=$(ttg_open_vt_session alice tty5)
    # (an earlier test's agent may still run in alice's user manager)
    ttg_session_run "$v" "gsettings reset-recursively $SCHEMA; systemctl --user stop ttygroup-agent.service; systemctl --user daemon-reload"
    out=$(ttg_session_run "$v" 'systemctl --user list-dependencies --plain --no-pager graphical-session.target')
    assert_in 'ttygroup-agent.service' "$out"
    assert_eq "$(ttg_session_run "$v" 'systemctl --user is-active ttygroup-agent.service' || true)" inactive
    # the desktop starts: the agent comes with graphical-session.target, no user setup
    before=$(agent_log_count 1001 'ttygroupd applied my settings')
    ttg_session_run "$v" 'systemctl --user start ttg-test-desktop.target'
    wait_eq 20 active ttg_session_run "$v" 'systemctl --user is-active ttygroup-agent.service'
    wait_agent_log 1001 'ttygroupd applied my settings' "$before"
    # the desktop ends: so does the agent
    ttg_session_run "$v" 'systemctl --user stop ttg-test-desktop.target'
    wait_eq 20 inactive ttg_session_run "$v" 'systemctl --user is-active ttygroup-agent.service'
    rm -f /etc/systemd/user/ttg-test-desktop.target

    start_agent "$v" 1001
    # a second one (the XDG autostart entry on a systemd desktop, say) leaves
    out=$(ttg_session_run "$v" '/usr/libexec/ttygroup-agent 2>&1; echo "rc=$?"')
    echo "$out"
    assert_in 'Another ttygroup agent is already running' "$out"
    assert_in 'rc=0' "$out"
    assert_eq "$(ttg_session_run "$v" 'systemctl --user is-active ttygroup-agent.service')" active
    grep -qx 'X-systemd-skip=true' /etc/xdg/autostart/ttygroup-agent.desktop
    grep -qx 'Exec=/usr/libexec/ttygroup-agent' /etc/xdg/autostart/ttygroup-agent.desktop
}

# auth_prompt HANDLE LANG: the text polkit's own tty agent shows when the
# session's user asks for org.ttygroup1.set-policy (no password is given)
auth_prompt() {
    ttg_session_run "$1" "LANG=$2 LANGUAGE= timeout 8 script -qec 'pkcheck --action-id org.ttygroup1.set-policy \
        --process \$\$ --allow-user-interaction --enable-internal-agent' /dev/null </dev/null 2>&1 | tr -d '\r'" || true
}

testcase_translations() {
    local v out
    # The authentication dialog: polkitd localizes the message for the
    # agent's locale from the xml:lang texts merged in from po/de.po.
    v=$(ttg_open_pty_session alice)
    out=$(auth_prompt "$v" de_DE.UTF-8)
    echo "$out"
    assert_in 'Zum Ändern der CPU-Aufteilung zwischen Sitzungen und Terminals ist eine Legitimierung erforderlich' "$out"
    out=$(auth_prompt "$v" C.UTF-8)
    assert_in 'Authentication is required to change how sessions and terminals share the CPU' "$out"
    # what polkitd returns for a German locale, for both actions
    out=$(gdbus call --system --dest org.freedesktop.PolicyKit1 --object-path /org/freedesktop/PolicyKit1/Authority \
        --method org.freedesktop.PolicyKit1.Authority.EnumerateActions de_DE.UTF-8)
    assert_in 'Die Regeln für die CPU-Aufteilung ändern' "$out"
    assert_in 'Die CPU-Aufteilung Ihrer eigenen Sitzungen ändern' "$out"
    assert_in 'Zum Ändern der CPU-Aufteilung Ihrer eigenen Sitzungen und Terminals ist eine Legitimierung erforderlich' "$out"
    # pkaction of polkit 122 shows no translation under any locale, not even
    # for polkit's own actions (org.freedesktop.policykit.exec has German
    # texts): it is no evidence either way; shown for the record
    LANG=de_DE.UTF-8 pkaction --verbose --action-id org.ttygroup1.set-user-policy | grep -E 'description|message' || true

    out=$(LANG=de_DE.UTF-8 gsettings describe "$SCHEMA" enabled)
    echo "$out"
    assert_in 'Terminal' "$out"
    assert_not_in 'When on, each of your sessions' "$out"
    out=$(LANG=de_DE.UTF-8 gsettings describe "$SCHEMA" terminal-weight)
    assert_in 'Gewichtung' "$out"

    out=$(LANG=de_DE.UTF-8 ttygroupctl --help)
    assert_not_in 'Query and change ttygroupd' "$out"
    out=$(LANG=de_DE.UTF-8 ttygroupctl set-user-policy Nope=1 2>&1 || true)
    echo "$out"
    assert_in 'set-user-policy: unbekannter Schlüssel »Nope«' "$out"
    out=$(LANG=de_DE.UTF-8 /usr/libexec/ttygroup-agent --help)
    assert_not_in 'Applies your ttygroup settings' "$out"
    out=$(LANG=de_DE.UTF-8 /usr/libexec/ttygroupd --help)
    assert_not_in 'per-session and per-terminal CPU groups' "$out"
}

run_testcases "$@"
