# shellcheck shell=bash
# tests/integration/lib/lib.sh — helpers for ttygroup integration tests.
#
# Runs INSIDE the test VM, as root, sourced by a test script:
#     #!/bin/bash
#     . /opt/ttygroup-test/lib.sh
#     testcase_foo() { s=$(ttg_open_pty_session alice); assert_eq "$(ttg_session_run "$s" 'id -un')" alice; }
#     run_testcases "$@"
# (tools/vm run copies this file to /opt/ttygroup-test/lib.sh and the test
# helpers to /opt/ttygroup-test/bin/, which is on PATH.)
#
# Runner
#   run_testcases [NAME...]   run every function named testcase_* (in definition
#                             order; or only the NAMEs given), each in a subshell
#                             with `set -eE -o pipefail`; prints "=== NAME", then
#                             "PASS: NAME (Ns)" or "FAIL: NAME (Ns)" + context, and at
#                             the end exactly "N passed, M failed"; returns 1 if any
#                             failed (0 otherwise). Sessions opened with ttg_open_*
#                             during a testcase are closed after it (unless
#                             TTG_KEEP_SESSIONS=1). Optional hooks: ttg_setup_each,
#                             ttg_teardown_each (run in the case's subshell).
# Asserts (on failure: message with file:line on stderr, then `exit 1`)
#   assert_eq ACTUAL EXPECTED [MSG]      string equality
#   assert_ne ACTUAL UNEXPECTED [MSG]
#   assert_in REGEX TEXT [MSG]           bash [[ TEXT =~ REGEX ]] (like systemd's)
#   assert_not_in REGEX TEXT [MSG]
#   assert_true CMD...                   CMD must exit 0
#   assert_false CMD...                  CMD must exit non-zero
#   assert_rc RC CMD...                  CMD must exit with RC
#   wait_until TIMEOUT_S CMD...          poll CMD every 0.2 s until it exits 0;
#                                        returns 0, or 1 (with a message) on timeout
#                                        (CMD's arguments are expanded once, by the
#                                        caller: to wait for a value, use wait_eq)
#   count_lines CMD...                   the number of lines CMD prints
#   wait_eq TIMEOUT_S EXPECTED CMD...    poll until CMD's output is EXPECTED (CMD is
#                                        run anew each time); 1 with the last value
#                                        on timeout
# Sessions (real logind sessions; every helper here is for root)
#   ttg_open_pty_session USER            pty login session (script + su -l, via systemd-run)
#   ttg_open_ssh_session USER            ssh -tt USER@localhost: Remote=yes, a pts
#   ttg_open_vt_session USER [TTY]       seat0 VT session on /dev/TTY (default tty5), activated
#   ttg_open_graphical_session USER TYPE [VT]
#                                        a session of Type=TYPE (x11, wayland) as a display
#                                        manager opens it: PAMName=login, no tty at all; the
#                                        shell is logind's Leader (like a session's first process);
#                                        with VT: on seat0 at that VT number, activated
#       Each prints the logind session id (e.g. "4" or "c1") once logind lists the
#       session and its shell is ready. The session's shell is a command agent
#       (runs as USER, leader's child, with the session tty as controlling tty and
#       stdin); use the printed id as HANDLE below.
#   ttg_session_run HANDLE CMD...        run the shell command "CMD..." (bash -c) as the user
#                                        inside the session (child of its shell); prints its
#                                        stdout+stderr, returns its exit status (124 on
#                                        timeout: TTG_RUN_TIMEOUT, default 120 s)
#   ttg_session_spawn HANDLE CMD...      start CMD in the background inside the session;
#                                        prints its pid (a simple command is exec'd, so the pid
#                                        is the command's own); output: ttg_spawn_log HANDLE PID
#   ttg_spawn_log HANDLE PID             path of the output file of a spawned command
#   ttg_new_pty_in_session HANDLE CMD... a nested pty in the session: runs
#                                        `script -qfec CMD /dev/null` from the session's shell;
#                                        prints the pid of the nested kernel session's leader
#                                        (setsid'd, controlling tty = a new /dev/pts/N, runs CMD)
#   ttg_session_info HANDLE [KEY]        agent info: session= pid= (the shell) tty= user= unit=
#   ttg_session_shell_pid HANDLE         pid of the session's shell (the agent)
#   ttg_close_session ID                 terminate the session, wait until logind forgot it
#                                        (30 s), stop its helper unit, forget the handle
#   ttg_session_of_pid PID               logind session of PID as sd-login sees it (cgroup);
#                                        prints "" and returns 1 if none
#   ttg_cgroup_of_pid PID                cgroup v2 path of PID (e.g. /user.slice/.../session-4.scope)
#   ttg_unit_of_pid PID                  the systemd unit PID is in (last cgroup component)
#   ttg_leaders_of USER CMD              pids of the kernel-session leaders (terminals, panes)
#                                        running exactly CMD as USER
#   ttg_sanitized                        true when the ttygroupd installed is the ASan+UBSan
#                                        build (tools/vm gave it its sanitizer drop-in)

TTG_RUN=/run/ttg-test
TTG_TEST_DIR=${TTG_TEST_DIR:-/opt/ttygroup-test}
case ":$PATH:" in *":$TTG_TEST_DIR/bin:"*) ;; *) PATH=$TTG_TEST_DIR/bin:$PATH ;; esac
export PATH

ttg_sanitized() { [[ -f /etc/systemd/system/ttygroupd.service.d/50-sanitizer.conf ]]; }

# ------------------------------------------------------------------ asserts --
_ttg_where() { echo "${BASH_SOURCE[2]:-?}:${BASH_LINENO[1]:-?}"; }
_ttg_fail() { echo "ASSERT FAILED ($1): $2" >&2; exit 1; }

assert_eq() {
    [[ "$1" == "$2" ]] || _ttg_fail "$(_ttg_where)" "${3:+$3: }expected '$2', got '$1'"
}
assert_ne() {
    [[ "$1" != "$2" ]] || _ttg_fail "$(_ttg_where)" "${3:+$3: }got '$1', which it must not be"
}
assert_in() {
    [[ "$2" =~ $1 ]] || _ttg_fail "$(_ttg_where)" "${3:+$3: }'$1' not found in: $2"
}
assert_not_in() {
    ! [[ "$2" =~ $1 ]] || _ttg_fail "$(_ttg_where)" "${3:+$3: }'$1' found in: $2"
}
assert_true() {
    local rc=0
    "$@" || rc=$?
    (( rc == 0 )) || _ttg_fail "$(_ttg_where)" "'$*' exited $rc, expected success"
}
assert_false() {
    local rc=0
    "$@" || rc=$?
    (( rc != 0 )) || _ttg_fail "$(_ttg_where)" "'$*' succeeded, expected failure"
}
assert_rc() {
    local want=$1 rc=0; shift
    "$@" || rc=$?
    (( rc == want )) || _ttg_fail "$(_ttg_where)" "'$*' exited $rc, expected $want"
}
wait_until() {
    local timeout=$1; shift
    # bash's own clock (microseconds): no date process forked per poll
    local deadline=$(( ${EPOCHREALTIME//[!0-9]/} + ${timeout%.*} * 1000000 ))
    while true; do
        if "$@" >/dev/null 2>&1; then return 0; fi
        if (( ${EPOCHREALTIME//[!0-9]/} >= deadline )); then
            echo "wait_until: timed out after ${timeout} s: $* ($(_ttg_where))" >&2
            return 1
        fi
        sleep 0.2
    done
}

# ------------------------------------------------------------------- runner --
_ttg_output_is() {
    local expected=$1; shift
    [[ $("$@" 2>/dev/null) == "$expected" ]]
}

# count_lines CMD...: how many lines CMD prints (for wait_eq)
count_lines() {
    "$@" 2>/dev/null | grep -c . || true
}

wait_eq() {
    local timeout=$1 expected=$2; shift 2
    if ! wait_until "$timeout" _ttg_output_is "$expected" "$@"; then
        echo "wait_eq: '$*' printed '$("$@" 2>&1)', expected '$expected'" >&2
        return 1
    fi
}

_ttg_context() {
    echo "---- context ----"
    echo "# loginctl list-sessions"; loginctl list-sessions --no-legend 2>&1 | sed 's/^/  /'
    echo "# systemd-cgls user.slice"; systemd-cgls --no-pager --xattr=no -u user.slice 2>&1 | head -n 60 | sed 's/^/  /'
    if systemctl cat ttygroupd.service >/dev/null 2>&1; then
        echo "# ttygroupd: $(systemctl is-active ttygroupd.service 2>&1)"
        journalctl -b -u ttygroupd --no-pager -n 30 2>&1 | sed 's/^/  /'
    fi
    echo "---- end of context ----"
}

run_testcases() {
    local tcs=() tc name pass=0 fail=0 failed=() t0 rc before errexit
    if (( $# )); then
        tcs=("$@")
    else
        # definition order: declare -F sorts by name, so ask bash for line numbers
        mapfile -t tcs < <(shopt -s extdebug; for f in $(compgen -A function testcase_); do
                               declare -F "$f"; done | sort -k2,2n | awk '{print $1}')
    fi
    (( ${#tcs[@]} )) || { echo "run_testcases: no testcase_* functions" >&2; return 1; }
    [[ $- == *e* ]] && errexit=1 || errexit=0
    set +e
    mkdir -p "$TTG_RUN"; touch "$TTG_RUN/opened"
    for tc in "${tcs[@]}"; do
        name=${tc}
        declare -F "$tc" >/dev/null || { echo "FAIL: $name (no such function)"; fail=$((fail+1)); failed+=("$name"); continue; }
        echo "=== $name"
        before=$(wc -l < "$TTG_RUN/opened")
        t0=$(date +%s)
        (
            set -eE -o pipefail
            trap 'echo "ERROR: \"$BASH_COMMAND\" exited $? (${BASH_SOURCE[0]}:$LINENO, in ${FUNCNAME[0]:-main})" >&2' ERR
            if declare -F ttg_setup_each >/dev/null; then ttg_setup_each; fi
            "$tc"
            if declare -F ttg_teardown_each >/dev/null; then ttg_teardown_each; fi
        )
        rc=$?
        if (( rc == 0 )); then
            echo "PASS: $name ($(( $(date +%s) - t0 )) s)"
            pass=$((pass+1))
        else
            _ttg_context >&2
            echo "FAIL: $name (exit $rc, $(( $(date +%s) - t0 )) s)"
            fail=$((fail+1)); failed+=("$name")
        fi
        if [[ ${TTG_KEEP_SESSIONS:-0} != 1 ]]; then
            local sid
            for sid in $(tail -n +"$((before + 1))" "$TTG_RUN/opened"); do
                [[ -e $TTG_RUN/by-session/$sid ]] && ttg_close_session "$sid" >/dev/null 2>&1
            done
        fi
    done
    (( errexit )) && set -e
    (( fail )) && echo "failed: ${failed[*]}"
    echo "$pass passed, $fail failed"
    (( fail == 0 ))
}

# ----------------------------------------------------------------- sessions --
_ttg_agent() {
    # the drivable shell of a test session; runs as the user, in the session
    # (/run is noexec: run it with /bin/bash)
    [[ -f $TTG_RUN/agent.sh && -f /etc/profile.d/zz-ttg-test-agent.sh ]] && return 0
    mkdir -p "$TTG_RUN/by-session"
    chmod 755 "$TTG_RUN"
    cat > "$TTG_RUN/agent.tmp" <<'AGENT'
#!/bin/bash
# ttg session agent: reads "MODE ID" lines from DIR/cmd; runs DIR/req.ID with bash -c
dir=$1
unset TTG_AGENT_DIR
export PATH=/opt/ttygroup-test/bin:$PATH
sid=${XDG_SESSION_ID:-}
[ -n "$sid" ] || sid=$(sed -n 's#^0::.*/session-\(.*\)\.scope$#\1#p' /proc/self/cgroup)
tty=$(tty 2>/dev/null) || tty=$(readlink /proc/self/fd/0)
printf 'session=%s\npid=%s\ntty=%s\nuser=%s\n' "$sid" "$$" "$tty" "$(id -un)" > "$dir/info.tmp"
mv -f "$dir/info.tmp" "$dir/info"
exec 3<>"$dir/cmd"
while read -r -u 3 mode id; do
    [ -f "$dir/req.$id" ] || continue
    case $mode in
        run)
            bash -c "$(cat "$dir/req.$id")" > "$dir/out.$id" 2>&1 3<&-
            echo $? > "$dir/rc.$id.tmp"; mv -f "$dir/rc.$id.tmp" "$dir/rc.$id" ;;
        spawn)
            bash -c "$(cat "$dir/req.$id")" > "$dir/out.$id" 2>&1 3<&- &
            ln -sf "out.$id" "$dir/log.$!"
            echo $! > "$dir/pid.$id.tmp"; mv -f "$dir/pid.$id.tmp" "$dir/pid.$id" ;;
        exit) exit 0 ;;
    esac
done
AGENT
    chmod 755 "$TTG_RUN/agent.tmp"
    mv -f "$TTG_RUN/agent.tmp" "$TTG_RUN/agent.sh"
    # a login shell started with TTG_AGENT_DIR becomes the agent (ttg_open_pty_session)
    cat > /etc/profile.d/zz-ttg-test-agent.sh <<'HOOK'
# ttygroup tests (lib.sh): a login shell started with TTG_AGENT_DIR becomes the session agent
if [ -n "${TTG_AGENT_DIR:-}" ] && [ -d "$TTG_AGENT_DIR" ] && [ ! -e "$TTG_AGENT_DIR/info" ]; then
    exec /bin/bash /run/ttg-test/agent.sh "$TTG_AGENT_DIR"
fi
HOOK
}

_ttg_dir() {
    # HANDLE (session id or token) -> directory
    local h=${1:-}
    [[ -n $h ]] || { echo "ttg: empty session handle" >&2; return 2; }
    if [[ -d $TTG_RUN/by-session/$h/ ]]; then
        readlink -f "$TTG_RUN/by-session/$h"
    elif [[ $h == ttg-* && -d $TTG_RUN/$h ]]; then
        echo "$TTG_RUN/$h"
    else
        echo "ttg: no test session '$h' (open one with ttg_open_*_session)" >&2
        return 2
    fi
}

ttg_session_info() {
    local dir; dir=$(_ttg_dir "$1") || return 2
    if [[ -n ${2:-} ]]; then sed -n "s/^$2=//p" "$dir/info"; else cat "$dir/info"; fi
}
ttg_session_shell_pid() { ttg_session_info "$1" pid; }

_ttg_open() {
    # _ttg_open KIND USER [TTY|TYPE [VT]]
    local kind=$1 user=$2 tty=${3:-tty5} token dir unit sid i
    id -u "$user" >/dev/null 2>&1 || { echo "ttg_open_${kind}_session: no user '$user'" >&2; return 2; }
    _ttg_agent
    token=ttg-$kind-$user-$(date +%s%N | tail -c 7)$RANDOM
    dir=$TTG_RUN/$token
    unit=$token
    install -d -m 700 -o "$user" -g "$(id -g "$user")" "$dir"
    mkfifo -m 600 "$dir/cmd"; chown "$user" "$dir/cmd"
    case $kind in
        pty)
            # login -f: its child setsid()s and takes the pty as controlling tty, like
            # getty/sshd logins; the login shell execs the agent (profile.d hook).
            # TTG_PTY_LOGIN=su: su -l --session-command instead (su -c would setsid()
            # the shell away from the pty, leaving it without a controlling tty).
            local how="exec login -p -f $user"
            [[ ${TTG_PTY_LOGIN:-login} == su ]] && how="exec su -l $user --session-command '/bin/bash $TTG_RUN/agent.sh $dir'"
            systemd-run --quiet --unit="$unit" --collect -p TimeoutStopSec=2 \
                --description="ttg test pty session of $user" -E TTG_AGENT_DIR="$dir" \
                -- script -qfec "$how" /dev/null ;;
        ssh)
            systemd-run --quiet --unit="$unit" --collect -p TimeoutStopSec=2 \
                --description="ttg test ssh session of $user" \
                -- ssh -tt -o BatchMode=yes -o ConnectTimeout=30 "$user@localhost" "/bin/bash $TTG_RUN/agent.sh $dir" ;;
        vt)
            systemd-run --quiet --unit="$unit" --collect -p TimeoutStopSec=2 \
                --description="ttg test VT session of $user on $tty" \
                -p PAMName=login -p User="$user" -p TTYPath="/dev/$tty" \
                -p StandardInput=tty -p StandardOutput=tty -p StandardError=tty \
                -p TTYReset=yes -p TTYVHangup=yes \
                -- /bin/bash "$TTG_RUN/agent.sh" "$dir" ;;
        graphical)
            # $tty is the session type here; with a VT number ($4), the session
            # is on seat0 at that VT (what a display manager opens), no tty
            local seat=()
            [[ -n ${4:-} ]] && seat=(-E XDG_SEAT=seat0 -E XDG_VTNR="$4")
            systemd-run --quiet --unit="$unit" --collect -p TimeoutStopSec=2 \
                --description="ttg test $tty session of $user" \
                -p PAMName=login -p User="$user" -E XDG_SESSION_TYPE="$tty" -E XDG_SESSION_CLASS=user \
                "${seat[@]}" -p StandardInput=null \
                -- /bin/bash "$TTG_RUN/agent.sh" "$dir" ;;
    esac || { echo "ttg_open_${kind}_session: systemd-run failed" >&2; return 1; }
    _ttg_started() { [[ -s $dir/info ]] || ! systemctl is-active -q "$unit.service"; }
    wait_until 90 _ttg_started || true
    if [[ ! -s $dir/info ]]; then
        echo "ttg_open_${kind}_session $user: the session's shell did not start" >&2
        systemctl status --no-pager -l "$unit.service" >&2 || true
        journalctl -b --no-pager -n 40 -u "$unit.service" >&2 || true
        return 1
    fi
    sid=$(sed -n 's/^session=//p' "$dir/info")
    if [[ -z $sid ]]; then
        echo "ttg_open_${kind}_session $user: the shell is not in a logind session" >&2
        cat "$dir/info" /proc/"$(sed -n 's/^pid=//p' "$dir/info")"/cgroup >&2 || true
        return 1
    fi
    if ! wait_until 30 loginctl show-session "$sid" -p Id; then
        echo "ttg_open_${kind}_session $user: logind does not list session $sid" >&2
        return 1
    fi
    echo "$unit.service" | sed 's/^/unit=/' >> "$dir/info"
    ln -sfn "../$token" "$TTG_RUN/by-session/$sid"
    echo "$sid" >> "$TTG_RUN/opened"
    if [[ $kind == vt || ( $kind == graphical && -n ${4:-} ) ]]; then
        loginctl activate "$sid"
        if ! wait_eq 30 yes loginctl show-session "$sid" -p Active --value; then
            echo "ttg_open_vt_session $user: session $sid did not become active" >&2
            loginctl show-session "$sid" >&2 || true
            return 1
        fi
    fi
    echo "$sid"
}
ttg_open_pty_session() { _ttg_open pty "${1:?usage: ttg_open_pty_session USER}"; }
ttg_open_ssh_session() { _ttg_open ssh "${1:?usage: ttg_open_ssh_session USER}"; }
ttg_open_vt_session()  { _ttg_open vt "${1:?usage: ttg_open_vt_session USER [TTY]}" "${2:-tty5}"; }
# ttg_open_graphical_session USER TYPE [VT]: a session of TYPE (x11, wayland)
# without a tty; with VT, on seat0 at that VT and made the active one
ttg_open_graphical_session() {
    _ttg_open graphical "${1:?usage: ttg_open_graphical_session USER TYPE [VT]}" \
        "${2:?usage: ttg_open_graphical_session USER TYPE [VT]}" "${3:-}"
}

_ttg_send() {
    # _ttg_send DIR MODE CMD -> echoes request id
    local dir=$1 mode=$2 cmd=$3 id pid fd
    pid=$(sed -n 's/^pid=//p' "$dir/info")
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "ttg: the shell of session $(sed -n 's/^session=//p' "$dir/info") (pid $pid) is gone" >&2
        return 2
    fi
    id=$BASHPID-$RANDOM$RANDOM
    printf '%s\n' "$cmd" > "$dir/req.$id"
    chmod 644 "$dir/req.$id"
    exec {fd}<>"$dir/cmd"
    printf '%s %s\n' "$mode" "$id" >&"$fd"
    exec {fd}>&-
    echo "$id"
}

_ttg_wait_file() {
    # _ttg_wait_file FILE TIMEOUT_S
    local f=$1 n=$(( $2 * 20 ))
    while [[ ! -e $f ]]; do
        (( n-- > 0 )) || return 1
        sleep 0.05
    done
}

ttg_session_run() {
    local dir id rc t=${TTG_RUN_TIMEOUT:-120}
    dir=$(_ttg_dir "${1:-}") || return 2; shift
    id=$(_ttg_send "$dir" run "$*") || return 2
    if ! _ttg_wait_file "$dir/rc.$id" "$t"; then
        echo "ttg_session_run: timed out after $t s: $*" >&2
        cat "$dir/out.$id" 2>/dev/null
        return 124
    fi
    cat "$dir/out.$id"
    rc=$(cat "$dir/rc.$id")
    rm -f "$dir/req.$id" "$dir/out.$id" "$dir/rc.$id"
    return "$rc"
}

ttg_session_spawn() {
    local dir id
    dir=$(_ttg_dir "${1:-}") || return 2; shift
    id=$(_ttg_send "$dir" spawn "$*") || return 2
    _ttg_wait_file "$dir/pid.$id" 30 || { echo "ttg_session_spawn: no pid after 30 s" >&2; return 1; }
    cat "$dir/pid.$id"
    rm -f "$dir/pid.$id"
}

ttg_spawn_log() {
    local dir; dir=$(_ttg_dir "$1") || return 2
    echo "$dir/log.$2"
}

ttg_new_pty_in_session() {
    local h=${1:-} dir spid lpid
    dir=$(_ttg_dir "$h") || return 2; shift
    spid=$(ttg_session_spawn "$h" "exec script -qfec $(printf '%q' "$*") /dev/null </dev/null") || return 1
    # the child of script: setsid()s, takes the new pty as controlling tty, runs CMD
    _ttg_leader() {
        lpid=$(pgrep -P "$spid" | head -n1)
        [[ -n $lpid && $(ps -o sid= -p "$lpid" | tr -d ' ') == "$lpid" && $(ps -o tty= -p "$lpid" | tr -d ' ') == pts/* ]]
    }
    if ! wait_until 30 _ttg_leader; then
        echo "ttg_new_pty_in_session: no nested session leader under script (pid $spid)" >&2
        return 1
    fi
    _ttg_leader
    echo "$lpid"
}

ttg_close_session() {
    local sid=${1:-} dir="" unit=""
    [[ -n $sid ]] || { echo "ttg_close_session: empty session id (would end our own session)" >&2; return 2; }
    if [[ -e $TTG_RUN/by-session/$sid ]]; then
        dir=$(readlink -f "$TTG_RUN/by-session/$sid")
        unit=$(sed -n 's/^unit=//p' "$dir/info" 2>/dev/null | head -n1)
    fi
    if loginctl show-session "$sid" -p Id >/dev/null 2>&1; then
        loginctl terminate-session "$sid" || true
    fi
    if ! wait_until 30 bash -c "! loginctl show-session '$sid' -p Id"; then
        echo "ttg_close_session: session $sid still there after 30 s:" >&2
        loginctl session-status "$sid" --no-pager >&2 || true
        return 1
    fi
    if [[ -n $unit ]]; then
        systemctl stop "$unit" 2>/dev/null || true
        systemctl reset-failed "$unit" 2>/dev/null || true
    fi
    [[ -n $dir ]] && rm -rf "$dir"
    rm -f "$TTG_RUN/by-session/$sid"
    return 0
}

ttg_session_of_pid() {
    local s
    s=$(ps -o lsession= -p "${1:?usage: ttg_session_of_pid PID}" 2>/dev/null | tr -d ' ')
    [[ -n $s && $s != - ]] || { echo ""; return 1; }
    echo "$s"
}

# ttg_leaders_of USER CMD: pids of the kernel-session leaders (terminals,
# tmux panes, screen windows) running exactly CMD as USER
ttg_leaders_of() {
    local pid
    for pid in $(pgrep -u "$1" -x -f "$2"); do
        [[ $(ps -o sid= -p "$pid" | tr -d ' ') == "$pid" ]] && echo "$pid"
    done
}

ttg_cgroup_of_pid() {
    sed -n 's/^0:://p' "/proc/${1:?usage: ttg_cgroup_of_pid PID}/cgroup"
}

ttg_unit_of_pid() {
    local cg; cg=$(ttg_cgroup_of_pid "$1") || return 1
    echo "${cg##*/}"
}
