#!/bin/bash
# Desktop switch benchmark, run inside the test VM:
#   tools/vm run bench/bench-desktop-switch.sh [ROUNDS] [N_PTYS]
# Prints, over ROUNDS (default 20) flips of `gsettings set org.ttygroup1
# enabled false/true` in a seat0 session with N_PTYS (default 5) terminals:
#   - the time from `gsettings set` until every terminal's leader is in its
#     session scope (off) or in its own ttygroup scope again (on), p50/max,
#     measured inside the session (dconf -> ttygroup-agent -> SetUserPolicy ->
#     polkit -> ttygroupd -> cgroup moves);
#   - the agent's CPU time for all flips and its RSS.
# The VM runs under TCG emulation: absolute times are far above those of real
# hardware; compare runs with each other.
set -eu
. /opt/ttygroup-test/lib.sh

ROUNDS=${1:-20}
N_PTYS=${2:-5}

v=$(ttg_open_vt_session alice tty5)
ttg_session_run "$v" "gsettings reset-recursively org.ttygroup1 && systemctl --user start ttygroup-agent.service"
pids=()
for _ in $(seq "$N_PTYS"); do pids+=("$(ttg_new_pty_in_session "$v" 'sleep 3600')"); done
for p in "${pids[@]}"; do wait_until 30 grep -q ttygroup-pty- "/proc/$p/cgroup"; done
agent=$(ttg_session_run "$v" 'systemctl --user show -p MainPID --value ttygroup-agent.service')
agent_cpu_ms() { awk -v t="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) * 1000 / t }' "/proc/$agent/stat"; }

# flip VALUE PATTERN: ms from `gsettings set` until all leaders' cgroups match
flip() {
    ttg_session_run "$v" "t0=\$(date +%s%N); gsettings set org.ttygroup1 enabled $1
        for p in ${pids[*]}; do
            for i in \$(seq 3000); do grep -q '$2' /proc/\$p/cgroup && break; sleep 0.005; done
        done
        echo \$(( (\$(date +%s%N) - t0) / 1000000 ))"
}

cpu0=$(agent_cpu_ms)
off=(); on=()
for _ in $(seq "$ROUNDS"); do
    off+=("$(flip false "/session-$v.scope\$")")
    on+=("$(flip true '/ttygroup-pty-')")
done
cpu1=$(agent_cpu_ms)

stats() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "p50 %d ms, max %d ms (n=%d)", a[int((NR + 1) / 2)], a[NR], NR }'; }
echo "ttygroupd $(/usr/libexec/ttygroupd --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPU (TCG), $N_PTYS terminals"
echo "switch off (gsettings -> all $N_PTYS back in session-$v.scope): $(stats "${off[@]}")"
echo "switch on  (gsettings -> all $N_PTYS in their own scopes again): $(stats "${on[@]}")"
awk -v c="$cpu1" -v b="$cpu0" -v n="$((2 * ROUNDS))" \
    'BEGIN { printf "agent CPU time: %.0f ms for %d changes\n", c - b, n }'
echo "agent RSS: $(awk '/^VmRSS/ {print $2}' "/proc/$agent/status") kB"
