#!/bin/bash
# The demo, inside the VM (tools/demo runs it with tools/vm run): a user logs
# in, starts a build-like load in one terminal and an interactive probe in
# another, and we look at the groups and at the probe's CPU share with and
# without ttygroup; then a desktop user flips her gsettings switch.
set -eu
. /opt/ttygroup-test/lib.sh
. /opt/ttygroup-test/lib/service.sh

SECS=${1:-8}
hr() { printf '\n==== %s ====\n' "$*"; }

hr "can the CPU weights act here? (ttygroupctl status: Effective, then why not)"
ttygroupctl --no-pager status | sed -n '/^Effective/p; /^Limitation/p'

hr "alice logs in on a pty (a real logind session)"
S=$(ttg_open_pty_session alice)
loginctl list-sessions --no-pager

hr "terminal A: a 'make -j10' stand-in: 10 CPU-bound jobs, all on CPU 0"
A=$(ttg_new_pty_in_session "$S" 'for i in $(seq 10); do taskset -c 0 cpuprobe --hog & done; wait')
wait_until 10 ttg_grouped "$A"
wait_eq 10 10 count_lines pgrep -u alice -x -f 'cpuprobe --hog'

hr "terminal B: an interactive probe, also on CPU 0"
B=$(ttg_new_pty_in_session "$S" 'sleep 3600')
wait_until 10 ttg_grouped "$B"

hr "what systemd shows"
systemd-cgls --no-pager "/user.slice/user-$(id -u alice).slice"
echo
systemctl list-units --no-pager 'ttygroup-pty-*' 'session-*.scope'
echo
for u in $(ttg_groups) "session-$S.scope"; do
    printf '%-32s cpu.weight=%s\n' "$u" "$(ttg_unit_weight "$u")"
done

measure() {
    ttg_session_run "$S" "script -qfec 'taskset -c 0 cpuprobe $SECS' /dev/null" | tr -d '\r' \
        | sed -n 's/.*share=\([0-9.]*\).*/\1/p'
}

hr "probe's share of CPU 0 next to the 10 jobs, with ttygroup (${SECS} s)"
with=$(measure)
echo "with ttygroup: $with"

hr "ttygroup off (Enabled=false): every process back in its session scope, alive"
ttg_policy Enabled=false
wait_eq 10 0 ttg_group_count
systemd-cgls --no-pager "/user.slice/user-$(id -u alice).slice" | head -20
without=$(measure)
echo "without ttygroup: $without"

hr "ttygroup on again"
ttg_policy Enabled=true
wait_until 10 ttg_grouped "$A"
systemctl list-units --no-pager --no-legend 'ttygroup-pty-*'

hr "the desktop switch: carol on the seat (tty5); her agent runs, as with a graphical session"
C=$(ttg_open_vt_session carol tty5)
ttg_session_run "$C" "systemctl --user start ttygroup-agent.service"
CT=$(ttg_new_pty_in_session "$C" 'sleep 3600')
wait_until 20 ttg_grouped "$CT"
echo "carol's terminal: $(ttg_unit_of_pid "$CT")"
ms=$(ttg_session_run "$C" "switchlat '/session-$C.scope' $CT 20000 gsettings set org.ttygroup1 enabled false")
echo "carol: gsettings set org.ttygroup1 enabled false -> her terminal is back in $(ttg_unit_of_pid "$CT"): $ms (alive: $(kill -0 "$CT" && echo yes))"
echo "alice's terminal groups, untouched: $(ttg_group_count)"
journalctl -o cat --no-pager _SYSTEMD_USER_UNIT=ttygroup-agent.service | tail -n 3
ttg_session_run "$C" "gsettings set org.ttygroup1 enabled true"
wait_until 10 ttg_grouped "$CT"
echo "carol: enabled true -> $(ttg_unit_of_pid "$CT")"

hr "result"
awk -v w="$with" -v o="$without" 'BEGIN {
    printf "probe CPU share next to a 10-job build on one CPU:\n"
    printf "  without ttygroup: %5.1f %%\n", o * 100
    printf "  with ttygroup:    %5.1f %%\n", w * 100 }'
echo
journalctl -u ttygroupd -o short-monotonic --no-pager | grep -E 'placed|Dissolved' | tail -8
