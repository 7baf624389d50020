#!/bin/bash
# Desktop switch benchmark, run inside the test VM:
#   tools/vm run bench/bench-desktop-switch.sh [ROUNDS] [N_PTYS]
# Prints, over ROUNDS (default 20) flips of `gsettings set org.ttygroup1
# enabled false/true` in a seat0 session with N_PTYS (default 5) terminals:
#   - the time from starting `gsettings set` until every terminal's leader is
#     in its session scope (off) or in its own ttygroup scope again (on),
#     p50/max, measured inside the session by switchlat (tests/helpers), which
#     polls /proc/PID/cgroup every 2 ms without forking (gsettings -> dconf ->
#     ttygroup-agent -> SetUserPolicy -> polkit -> ttygroupd -> cgroup moves);
#   - how long the gsettings command itself takes (its start-up is part of
#     the figures above);
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

# flip VALUE PATTERN: "command_ms=.. total_ms=.." from switchlat
flip() {
    ttg_session_run "$v" "switchlat '$2' $(IFS=,; echo "${pids[*]}") 20000 gsettings set org.ttygroup1 enabled $1"
}
field() { sed -n "s/.*$1=\([0-9-]*\).*/\1/p" <<<"$2"; }

cpu0=$(agent_cpu_ms)
off=(); on=(); cmd=()
for _ in $(seq "$ROUNDS"); do
    r=$(flip false "/session-$v.scope"); off+=("$(field total_ms "$r")"); cmd+=("$(field command_ms "$r")")
    r=$(flip true /ttygroup-pty-); on+=("$(field total_ms "$r")"); cmd+=("$(field command_ms "$r")")
done
cpu1=$(agent_cpu_ms)

stats() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { printf "p50 %d ms, max %d ms (n=%d)", a[int((NR + 1) / 2)], a[NR], NR }'; }
echo "ttygroupd $(/usr/libexec/ttygroupd --version | cut -d' ' -f2), kernel $(uname -r), $(nproc) vCPU (TCG), $N_PTYS terminals"
echo "switch off (gsettings -> all $N_PTYS back in session-$v.scope): $(stats "${off[@]}")"
echo "switch on  (gsettings -> all $N_PTYS in their own scopes again): $(stats "${on[@]}")"
echo "of which the gsettings command itself (start to exit): $(stats "${cmd[@]}")"
awk -v c="$cpu1" -v b="$cpu0" -v n="$((2 * ROUNDS))" \
    'BEGIN { printf "agent CPU time: %.0f ms for %d changes\n", c - b, n }'
echo "agent RSS: $(awk '/^VmRSS/ {print $2}' "/proc/$agent/status") kB"
