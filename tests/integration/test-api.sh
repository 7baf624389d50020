#!/bin/bash
# The D-Bus API, org.ttygroup1 (dbus/org.ttygroup1.xml), against the installed
# service: SetPolicy changes, persists and announces the policy; bad input
# gets a named error and changes nothing; polkit guards changes; ListGroups,
# GetGroupForPid and ttygroupctl tell what is where; the live introspection,
# the interface XML and org.ttygroup1(5) agree.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

DEST=org.ttygroup1
OPATH=/org/ttygroup1
IFACE=org.ttygroup1.Manager
XML=/usr/share/dbus-1/interfaces/org.ttygroup1.xml
STATE=/var/lib/ttygroup/policy.conf

api_call() { busctl call "$DEST" "$OPATH" "$IFACE" "$@"; }
api_get() { busctl get-property "$DEST" "$OPATH" "$IFACE" "$@"; }
set_policy() { api_call SetPolicy 'a{sv}' "$@"; }
# busctl prints only an error's message; gdbus prints "GDBus.Error:NAME: message"
gd_call() {
    local method=$1; shift
    gdbus call --system --dest "$DEST" --object-path "$OPATH" --method "$IFACE.$method" "$@"
}
policy_json() { busctl --json=short get-property "$DEST" "$OPATH" "$IFACE" Policy | jq -cS .data; }
policy_value() { busctl --json=short get-property "$DEST" "$OPATH" "$IFACE" Policy | jq -r ".data.$1.data"; }
main_pid() { systemctl show -p MainPID --value ttygroupd; }
tty_of_pid() { ps -o tty= -p "$1" | tr -d ' '; }
# conditions for wait_until: it runs a command again and again, so what it
# checks must be computed inside that command, not in a $(...) of its arguments
weight_is() { [[ $(ttg_unit_weight "$1" 2>/dev/null) == "$2" ]]; }
group_count_is() { [[ $(ttg_group_count) == "$1" ]]; }
procs_in_kernel_session_are() { [[ $(pgrep -s "$1" | wc -l) == "$2" ]]; }

ttg_setup_each() {
    # every case starts from the built-in policy: no key saved over D-Bus, no drop-in
    if [[ -e $STATE || -e $TTG_DROPIN ]]; then
        systemctl stop ttygroupd
        rm -f "$STATE" "$TTG_DROPIN"
        systemctl start ttygroupd
    fi
    wait_until 30 api_get Version
}

testcase_set_policy_changes_weight_and_property() {
    local s
    s=$(ttg_open_pty_session alice)
    assert_eq "$(policy_value SessionWeight)" 100
    set_policy 1 SessionWeight t 250
    wait_until 10 weight_is "session-$s.scope" 250
    assert_eq "$(systemctl show -p CPUWeight --value "session-$s.scope")" 250 "set through systemd"
    assert_eq "$(policy_value SessionWeight)" 250
    assert_eq "$(policy_value TerminalWeight)" 100 "keys not given keep their value"
    assert_eq "$(api_get Enabled)" "b true"
    assert_true grep -qx 'SessionWeight=250' "$STATE"
    assert_eq "$(ttygroupctl get-policy | grep '^SessionWeight=')" SessionWeight=250
}

testcase_set_policy_emits_properties_changed() {
    local out=$TTG_RUN/api-monitor.out err=$TTG_RUN/api-monitor.err mon
    # stdbuf: busctl's stdout is a file, each message must reach it at once
    stdbuf -oL busctl monitor --json=short \
        --match="type='signal',path='$OPATH',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'" \
        >"$out" 2>"$err" &
    mon=$!
    # shellcheck disable=SC2064 # the pid is known now
    trap "kill $mon 2>/dev/null || true" EXIT
    wait_until 10 grep -q 'Monitoring' "$err"
    set_policy 1 TerminalWeight t 130
    announced() {
        jq --arg i "$IFACE" 'select(.payload.data[0] == $i)
                             | .payload.data[1].Policy.data.TerminalWeight.data == 130' "$out" | grep -q true
    }
    if ! wait_until 10 announced; then
        cat "$out" "$err" >&2
        _ttg_fail "$(_ttg_where)" "no PropertiesChanged with Policy.TerminalWeight=130"
    fi
    kill "$mon"
    # it came from the owner of the name
    assert_eq "$(jq -r 'select(.payload.data[0] == "'"$IFACE"'") | .sender' "$out" | sort -u)" \
        "$(busctl --json=short call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus \
               GetNameOwner s "$DEST" | jq -r '.data[0]')"
}

testcase_policy_survives_restart_and_wins_over_config() {
    local s p u
    s=$(ttg_open_pty_session alice)
    p=$(ttg_new_pty_in_session "$s" 'sleep 900')
    wait_until 10 ttg_grouped "$p"
    u=$(ttg_unit_of_pid "$p")
    set_policy 2 SessionWeight t 220 TerminalWeight t 140
    wait_until 10 weight_is "$u" 140
    wait_until 10 weight_is "session-$s.scope" 220

    systemctl restart ttygroupd
    wait_until 10 systemctl is-active -q ttygroupd
    assert_eq "$(policy_value SessionWeight)" 220
    assert_eq "$(policy_value TerminalWeight)" 140
    sleep 2
    assert_eq "$(ttg_unit_of_pid "$p")" "$u" "the restart keeps the group"
    assert_eq "$(ttg_unit_weight "$u")" 140
    assert_eq "$(ttg_unit_weight "session-$s.scope")" 220

    # keys set over D-Bus win over the configuration files; the others follow them
    ttg_policy SessionWeight=150 RemoteSessionWeight=90
    assert_eq "$(policy_value SessionWeight)" 220
    assert_eq "$(policy_value RemoteSessionWeight)" 90
    assert_eq "$(ttg_unit_weight "session-$s.scope")" 220
}

testcase_disable_and_enable_over_dbus() {
    local s p1 p2 p all
    s=$(ttg_open_pty_session alice)
    p1=$(ttg_new_pty_in_session "$s" 'sleep 900')
    p2=$(ttg_new_pty_in_session "$s" 'sleep 900 & sleep 900 & wait')
    for p in "$p1" "$p2"; do wait_until 10 ttg_grouped "$p"; done
    wait_until 10 procs_in_kernel_session_are "$p2" 3
    all="$p1 $(pgrep -s "$p2" | tr '\n' ' ')"
    for p in $all; do wait_until 10 ttg_grouped "$p"; done

    set_policy 1 Enabled b false
    for p in $all; do
        wait_until 10 ttg_in_session_scope "$p"
        assert_true kill -0 "$p"
        assert_eq "$(ttg_session_of_pid "$p")" "$s"
    done
    wait_until 10 group_count_is 0
    assert_eq "$(api_get Enabled)" "b false"
    assert_eq "$(policy_value Enabled)" false

    set_policy 1 Enabled b true
    for p in $all; do wait_until 10 ttg_grouped "$p"; done
    assert_eq "$(api_get Enabled)" "b true"

    # the same through ttygroupctl
    ttygroupctl disable
    for p in $all; do
        wait_until 10 ttg_in_session_scope "$p"
        assert_true kill -0 "$p"
    done
    ttygroupctl enable
    for p in $all; do wait_until 10 ttg_grouped "$p"; done
}

testcase_unprivileged_caller_refused() {
    local s before out rc
    local change="\"{'SessionWeight': <uint64 333>}\""
    s=$(ttg_open_ssh_session alice)
    before=$(policy_json)

    # auth_admin_keep: polkit would ask for a password, the caller did not allow it
    out=$(ttg_session_run "$s" "gdbus call --system --dest $DEST --object-path $OPATH --method $IFACE.SetPolicy $change </dev/null") \
        && rc=0 || rc=$?
    assert_ne "$rc" 0 "SetPolicy as alice succeeded: $out"
    assert_in 'GDBus\.Error:org\.freedesktop\.DBus\.Error\.InteractiveAuthorizationRequired:' "$out"

    # interaction allowed, but no agent answers for the session: polkit says no
    out=$(ttg_session_run "$s" "gdbus call --system --interactive --dest $DEST --object-path $OPATH --method $IFACE.SetPolicy $change </dev/null") \
        && rc=0 || rc=$?
    assert_ne "$rc" 0 "SetPolicy as alice succeeded: $out"
    assert_in 'GDBus\.Error:org\.freedesktop\.DBus\.Error\.AccessDenied:' "$out"

    # the README's way
    out=$(ttg_session_run "$s" "busctl call $DEST $OPATH $IFACE SetPolicy 'a{sv}' 1 SessionWeight t 333 </dev/null") \
        && rc=0 || rc=$?
    assert_ne "$rc" 0 "busctl SetPolicy as alice succeeded: $out"

    out=$(ttg_session_run "$s" 'ttygroupctl --no-ask-password set-policy SessionWeight=333 </dev/null') \
        && rc=0 || rc=$?
    assert_eq "$rc" 1 "ttygroupctl's exit status ($out)"
    assert_in 'org\.freedesktop\.DBus\.Error\.InteractiveAuthorizationRequired' "$out"
    # without a terminal ttygroupctl starts no password agent: nobody answers
    out=$(ttg_session_run "$s" 'ttygroupctl set-policy SessionWeight=333 </dev/null') \
        && rc=0 || rc=$?
    assert_eq "$rc" 1 "ttygroupctl's exit status ($out)"
    assert_in 'org\.freedesktop\.DBus\.Error\.AccessDenied' "$out"

    assert_eq "$(policy_json)" "$before" "a refused SetPolicy changed the policy"
    assert_false test -e "$STATE"
    assert_true systemctl is-active -q ttygroupd

    # reading is open to everyone
    out=$(ttg_session_run "$s" 'ttygroupctl get-policy')
    assert_in 'SessionWeight=100' "$out"
    out=$(ttg_session_run "$s" "busctl call $DEST $OPATH $IFACE GetGroupForPid u \$\$")
    assert_in '"Session" s "'"$s"'"' "$out"
}

# expect_invalid REGEX GVARIANT: SetPolicy(GVARIANT) fails with InvalidPolicy,
# the message matches REGEX (the key), and nothing changes.
expect_invalid() {
    local want=$1 arg=$2 before pid out rc
    before=$(policy_json)
    pid=$(main_pid)
    out=$(gd_call SetPolicy "$arg" 2>&1) && rc=0 || rc=$?
    assert_ne "$rc" 0 "SetPolicy ${arg:0:80} succeeded"
    assert_in 'GDBus\.Error:org\.ttygroup1\.Error\.InvalidPolicy:' "${out:0:1000}"
    assert_in "$want" "${out:0:1000}"
    assert_true test "${#out}" -lt 1000   # a huge key is not echoed back whole
    assert_eq "$(policy_json)" "$before" "SetPolicy ${arg:0:80} changed the policy"
    assert_eq "$(main_pid)" "$pid" "the service restarted"
    assert_false test -e "$STATE"
}

testcase_invalid_policy_refused() {
    local huge out rc pid
    expect_invalid 'NoSuchKey' "{'NoSuchKey': <uint64 1>}"
    expect_invalid 'SessionWeight' "{'SessionWeight': <'x'>}"
    expect_invalid 'Enabled' "{'Enabled': <uint64 1>}"
    expect_invalid 'Enabled' "{'Enabled': <'true'>}"
    expect_invalid 'SessionWeight' "{'SessionWeight': <uint64 0>}"
    expect_invalid 'TerminalWeight' "{'TerminalWeight': <uint64 10001>}"
    expect_invalid 'ActiveSessionWeight' "{'ActiveSessionWeight': <uint32 100>}"
    expect_invalid '[Ee]mpty|[Nn]o keys' '@a{sv} {}'
    # nothing is half-applied: a good key next to a bad one is not taken
    expect_invalid 'SessionWeight' "{'TerminalWeight': <uint64 50>, 'SessionWeight': <uint64 0>}"
    expect_invalid 'SessionWeight' "{'SessionWeight': <uint64 50>, 'SessionWeight': <uint64 60>}"
    huge=$(head -c 102400 /dev/zero | tr '\0' K)
    expect_invalid 'KKKKKKKK' "{'$huge': <uint64 1>}"

    # the README's way (busctl shows the message only)
    pid=$(main_pid)
    out=$(set_policy 1 SessionWeight t 0 2>&1) && rc=0 || rc=$?
    assert_ne "$rc" 0
    assert_in 'SessionWeight' "$out"
    out=$(set_policy 1 "$huge" t 100 2>&1) && rc=0 || rc=$?
    assert_ne "$rc" 0
    # not the contract's dictionary at all: the bus library refuses it
    out=$(api_call SetPolicy 'a{ss}' 1 SessionWeight 100 2>&1) && rc=0 || rc=$?
    assert_ne "$rc" 0
    # ttygroupctl leaves ranges to the service and names its error
    out=$(ttygroupctl set-policy SessionWeight=10001 2>&1) && rc=0 || rc=$?
    assert_eq "$rc" 1
    assert_in 'org\.ttygroup1\.Error\.InvalidPolicy' "$out"
    assert_in 'SessionWeight' "$out"

    assert_eq "$(main_pid)" "$pid" "the service restarted"
    assert_false test -e "$STATE"
    assert_eq "$(policy_value SessionWeight)" 100
    assert_eq "$(policy_value TerminalWeight)" 100
}

testcase_list_groups_and_get_group_for_pid() {
    local s p u tty json row info sh out rc
    s=$(ttg_open_pty_session alice)
    p=$(ttg_new_pty_in_session "$s" 'sleep 900')
    wait_until 10 ttg_grouped "$p"
    u=$(ttg_unit_of_pid "$p")
    tty=$(tty_of_pid "$p")
    wait_until 10 ttg_unit_weight "$u"

    json=$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" ListGroups)
    row=$(jq -c --arg u "$u" '.data[0][] | select(.[0] == $u)' <<<"$json")
    assert_ne "$row" "" "ListGroups does not list $u: $json"
    assert_eq "$(jq -r '.[1]' <<<"$row")" "$s"
    assert_eq "$(jq -r '.[2]' <<<"$row")" "$(id -u alice)"
    assert_eq "$(jq -r '.[3]' <<<"$row")" terminal
    assert_eq "$(jq -r '.[4]' <<<"$row")" "$tty"
    assert_eq "$(jq -r '.[5]' <<<"$row")" "$p"
    assert_eq "$(jq -r '.[6]' <<<"$row")" "$(ttg_unit_weight "$u")"
    assert_in "^Terminal $tty of session $s " "$(jq -r '.[7]' <<<"$row")"
    # the session is a group too
    assert_eq "$(jq -r --arg u "session-$s.scope" '.data[0][] | select(.[0] == $u) | .[3]' <<<"$json")" session

    info=$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" GetGroupForPid u "$p")
    assert_eq "$(jq -r '.data[0].Unit.data' <<<"$info")" "$u"
    assert_eq "$(jq -r '.data[0].ControlGroup.data' <<<"$info")" "$(ttg_cgroup_of_pid "$p")"
    assert_eq "$(jq -r '.data[0].Session.data' <<<"$info")" "$s"
    assert_eq "$(jq -r '.data[0].Kind.data' <<<"$info")" terminal
    assert_eq "$(jq -r '.data[0].Tty.data' <<<"$info")" "$tty"
    assert_eq "$(jq -r '.data[0].Weight.data' <<<"$info")" "$(ttg_unit_weight "$u")"
    assert_ne "$(jq -r '.data[0].Rule.data' <<<"$info")" ""

    # the session's own shell stays in the session scope
    sh=$(ttg_session_shell_pid "$s")
    info=$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" GetGroupForPid u "$sh")
    assert_eq "$(jq -r '.data[0].Unit.data' <<<"$info")" "session-$s.scope"
    assert_eq "$(jq -r '.data[0].Session.data' <<<"$info")" "$s"
    assert_eq "$(jq -r '.data[0].Kind.data' <<<"$info")" session
    # a system service is in no session
    info=$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" GetGroupForPid u 1)
    assert_eq "$(jq -r '.data[0].Kind.data' <<<"$info")" none
    assert_eq "$(jq -r '.data[0].Session.data' <<<"$info")" ""
    # no such process (pid_max itself is never a pid)
    out=$(gd_call GetGroupForPid "$(cat /proc/sys/kernel/pid_max)" 2>&1) && rc=0 || rc=$?
    assert_ne "$rc" 0
    assert_in 'GDBus\.Error:org\.ttygroup1\.Error\.NoSuchProcess:' "$out"
    out=$(gd_call GetGroupForPid 0 2>&1) && rc=0 || rc=$?
    assert_in 'GDBus\.Error:org\.ttygroup1\.Error\.NoSuchProcess:' "$out"

    # ttygroupctl list shows the same
    assert_in "$u" "$(ttygroupctl list)"
    assert_eq "$(ttygroupctl --json list | jq -r --arg u "$u" '.[] | select(.Unit == $u) | .Leader')" "$p"
    assert_eq "$(ttygroupctl --json list | jq -r --arg u "$u" '.[] | select(.Unit == $u) | .Session')" "$s"
}

testcase_ttygroupctl_explain_from_grouped_pty() {
    local s p u tty dir txt json
    dir=$(mktemp -d /tmp/ttg-api.XXXXXX)
    chown alice "$dir"
    s=$(ttg_open_pty_session alice)
    # runs as alice in a new pty of the session; $$ is that pty's session leader.
    # It waits until it has been grouped, then asks about itself.
    p=$(ttg_new_pty_in_session "$s" "until grep -q /ttygroup-pty- /proc/\$\$/cgroup; do sleep 0.2; done;
        ttygroupctl explain \$\$ >$dir/explain.txt 2>&1; ttygroupctl --json explain \$\$ >$dir/explain.json 2>&1;
        exec sleep 900")
    wait_until 60 test -s "$dir/explain.json"
    assert_true ttg_grouped "$p"
    u=$(ttg_unit_of_pid "$p")
    tty=$(tty_of_pid "$p")
    txt=$(cat "$dir/explain.txt")
    echo "$txt"
    assert_eq "$(sed -n 's/^PID: *//p' <<<"$txt")" "$p"
    assert_eq "$(sed -n 's/^Unit: *//p' <<<"$txt")" "$u"
    assert_eq "$(sed -n 's/^Session: *//p' <<<"$txt")" "$s"
    assert_eq "$(sed -n 's/^Kind: *//p' <<<"$txt")" terminal
    assert_eq "$(sed -n 's/^Tty: *//p' <<<"$txt")" "$tty"
    json=$(cat "$dir/explain.json")
    assert_eq "$(jq -r .Pid <<<"$json")" "$p"
    assert_eq "$(jq -r .Unit <<<"$json")" "$u"
    assert_eq "$(jq -r .Session <<<"$json")" "$s"
    assert_eq "$(jq -r .Tty <<<"$json")" "$tty"
    rm -rf "$dir"
}

testcase_ttygroupctl_json_and_usage() {
    local out s version
    out=$(ttygroupctl --json status)
    echo "$out"
    assert_eq "$(jq -r type <<<"$out")" object
    version=$(busctl --json=short get-property "$DEST" "$OPATH" "$IFACE" Version | jq -r .data)
    assert_eq "$(jq -r .Version <<<"$out")" "$version"
    assert_eq "$(jq -r '.Enabled | type' <<<"$out")" boolean
    assert_eq "$(jq -r '.Status.CpuWeightsUsable | type' <<<"$out")" boolean
    assert_eq "$(jq -r '.Status.Reason | type' <<<"$out")" string
    assert_eq "$(jq -r '.Status.Sessions | type' <<<"$out")" number
    assert_eq "$(jq -r '.Status.Groups | type' <<<"$out")" number
    assert_eq "$(jq -r '.Effective | type' <<<"$out")" boolean
    assert_eq "$(jq -r '.Limitations | type' <<<"$out")" array
    assert_eq "$(jq -r '.Status.Placements | type' <<<"$out")" number
    assert_eq "$(jq -r '.Status.PlacementFailures | type' <<<"$out")" number
    assert_eq "$(jq -r '.Status.ProcessEvents | type' <<<"$out")" number
    assert_eq "$(jq -r '.Status.LostEvents | type' <<<"$out")" number
    # ListGroupCounters: the groups of ListGroups, in order
    assert_eq "$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" ListGroupCounters | jq -r '[.data[0][][0]] | join(" ")')" \
        "$(busctl --json=short call "$DEST" "$OPATH" "$IFACE" ListGroups | jq -r '[.data[0][][0]] | join(" ")')"
    assert_eq "$(ttygroupctl --version)" "ttygroupctl $version"
    assert_in 'Version: +'"$version" "$(ttygroupctl status)"

    out=$(ttygroupctl --json get-policy)
    assert_eq "$(jq -c 'keys' <<<"$out")" \
        '["ActiveSessionWeight","Enabled","GroupTerminals","ManageGreeter","RemoteSessionWeight","SessionWeight","TerminalWeight"]'
    assert_eq "$(jq -r '.TerminalWeight' <<<"$out")" 100
    assert_eq "$(ttygroupctl --json list | jq -r type)" array

    # usage errors: exit status 2, nothing sent
    assert_rc 2 ttygroupctl
    assert_rc 2 ttygroupctl frobnicate
    assert_rc 2 ttygroupctl --frobnicate status
    assert_rc 2 ttygroupctl explain
    assert_rc 2 ttygroupctl explain notapid
    assert_rc 2 ttygroupctl set-policy
    assert_rc 2 ttygroupctl set-policy NoSuchKey=1
    assert_rc 2 ttygroupctl set-policy SessionWeight=abc
    assert_rc 2 ttygroupctl set-policy Enabled=maybe
    assert_rc 2 ttygroupctl set-policy SessionWeight
    assert_rc 0 ttygroupctl --help
    assert_false test -e "$STATE"

    # anyone may read
    s=$(ttg_open_pty_session bob)
    assert_eq "$(ttg_session_run "$s" 'ttygroupctl --json status' | jq -r .Version)" "$version"
}

testcase_bus_activation() {
    # a call to the name starts the service (dbus-org.ttygroup1.service, the
    # alias `systemctl enable` made), and it comes up with the saved policy
    set_policy 1 TerminalWeight t 90
    systemctl stop ttygroupd
    assert_false systemctl is-active -q ttygroupd
    assert_eq "$(policy_value TerminalWeight)" 90
    assert_true systemctl is-active -q ttygroupd
}

# From the interface XML, one line per member of $IFACE. Default: like busctl
# introspect's columns ("method NAME IN OUT", "signal NAME SIG", "property NAME
# TYPE FLAGS"); with "man": the .SS heading org.ttygroup1(5) must have for it.
xml_members() {
    local mode=${1:-busctl} line kind="" name="" in="" out="" args="" ptype="" access="" flags=""
    local t n
    local re_member='<(method|signal|property) name="([^"]+)"' re_type=' type="([^"]+)"'
    local re_name=' name="([^"]+)"' re_access=' access="([^"]+)"' re_arg='<arg '
    local re_emits='org\.freedesktop\.DBus\.Property\.EmitsChangedSignal".*value="([^"]+)"'
    local re_end='</(method|signal|property)>'
    emit() {
        if [[ $mode == man ]]; then
            if [[ $kind == property ]]; then echo "$name ($ptype, $access)"; else echo "$name($args)"; fi
        else
            case $kind in
                method) echo "method $name ${in:--} ${out:--}" ;;
                signal) echo "signal $name ${in:--}" ;;
                property) echo "property $name $ptype $flags" ;;
            esac
        fi
        kind=""
    }
    while IFS= read -r line; do
        if [[ $line =~ $re_member ]]; then
            kind=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]} in="" out="" args="" flags=emits-change
            if [[ $kind == property ]]; then
                [[ $line =~ $re_type ]] && ptype=${BASH_REMATCH[1]}
                [[ $line =~ $re_access ]] && access=${BASH_REMATCH[1]}
            fi
            [[ $line == *'/>' ]] && emit
        elif [[ -n $kind && $line =~ $re_arg ]]; then
            t="" n=""
            [[ $line =~ $re_type ]] && t=${BASH_REMATCH[1]}
            [[ $line =~ $re_name ]] && n=${BASH_REMATCH[1]}
            if [[ $line == *'direction="out"'* ]]; then
                out+=$t; args+="${args:+, }out $t $n"
            else
                in+=$t; args+="${args:+, }$t $n"
            fi
        elif [[ -n $kind && $line =~ $re_emits ]]; then
            case ${BASH_REMATCH[1]} in
                const) flags=const ;;
                invalidates) flags=emits-invalidation ;;
                false) flags=- ;;
            esac
        elif [[ -n $kind && $line =~ $re_end ]]; then
            emit
        fi
    done < "$XML"
}

testcase_introspection_matches_xml_and_man_page() {
    local want got man names
    assert_true test -f "$XML"
    want=$(xml_members | sort)
    echo "$want"
    assert_true test "$(wc -l <<<"$want")" -ge 10
    got=$(busctl introspect --no-pager "$DEST" "$OPATH" "$IFACE" | awk '
        $1 ~ /^\./ {
            n = substr($1, 2)
            if ($2 == "method") print "method", n, $3, $4
            else if ($2 == "signal") print "signal", n, $3
            else if ($2 == "property") print "property", n, $3, $NF
        }' | sort)
    diff -u <(echo "$want") <(echo "$got") >&2 || true
    assert_eq "$got" "$want" "live introspection vs $XML"

    # the man page documents exactly these members, each in a heading of its own
    man=$(compgen -G '/usr/share/man/man5/org.ttygroup1.5*' | head -n1) || true
    assert_ne "$man" "" "org.ttygroup1(5) is not installed"
    want=$(xml_members man | sort)
    got=$(zcat -f "$man" | sed -n 's/^\.SS "\(.*\)"$/\1/p' | sort)
    diff -u <(echo "$want") <(echo "$got") >&2 || true
    assert_eq "$got" "$want" "headings of $man vs $XML"
    # and every member name of the XML, as grep finds it, is in the page
    names=$(grep -oE '<(method|signal|property) name="[^"]+"' "$XML" | sed -E 's/.*name="([^"]+)"/\1/')
    for n in $names; do
        assert_true grep -qE "^\\.SS \"${n}[ (]" <(zcat -f "$man")
    done
}

run_testcases "$@"
