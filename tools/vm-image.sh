#!/usr/bin/env bash
# tools/vm-image.sh OUTDIR — the recipe of the ttygroup test VM image.
#
# Builds, into OUTDIR (which must not exist yet; the caller renames it into
# place atomically):
#   rootfs.img   ext4 root file system (Debian bookworm, systemd), made with
#                mkfs.ext4 -d (no loop mounts)
#   vmlinux      the uncompressed kernel (TCG would spend seconds decompressing)
#   initrd.img   a small initramfs (MODULES=list: virtio_pci virtio_blk ext4)
#   id_ed25519   ssh key: root@host -> root@guest, and root@guest -> alice/bob/carol
#   cmdline      the kernel command line to boot it with
#   build-info   what was built, when, and how long it took
#
# The image cache key is a hash of THIS FILE: any change here makes tools/vm
# build a new image. Normally run through `tools/vm image`, not directly.
set -euo pipefail

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
}
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    "") usage >&2; exit 2 ;;
esac

OUT=$1
[[ -e $OUT ]] && { echo "vm-image: $OUT already exists" >&2; exit 1; }
[[ $(id -u) == 0 ]] || { echo "vm-image: must run as root (mmdebstrap root mode, mkfs.ext4 -d ownership)" >&2; exit 1; }

MIRROR=${TTYGROUP_VM_MIRROR:-http://deb.debian.org/debian}
SECMIRROR=${TTYGROUP_VM_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
SUITE=bookworm
EXTRA_MB=1536       # free space in the root fs (writes go to the -snapshot overlay anyway)

PACKAGES=(
    systemd systemd-sysv dbus dbus-user-session polkitd pkexec libpam-systemd
    linux-image-amd64 initramfs-tools zstd kmod
    openssh-server openssh-client
    procps psmisc iproute2 sudo util-linux bsdutils tmux screen
    xvfb xterm rt-tests
    libglib2.0-0 libglib2.0-bin libsmartcols1 libcgroup2 dconf-gsettings-backend dconf-service
    gettext-base locales jq less ca-certificates
)

start=$(date +%s)
mkdir -p "$OUT"
WORK=$(mktemp -d "${OUT%/}.work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/rootfs

# --- ssh key (host -> guest root; guest root -> users) -----------------------
ssh-keygen -q -t ed25519 -N '' -C ttygroup-vm -f "$OUT/id_ed25519"

# --- the root file system -------------------------------------------------
# Setup hook: initramfs-tools config exists before the kernel is installed, so
# the (only) initramfs build during installation is already a small one.
echo "vm-image: mmdebstrap $SUITE -> $ROOT"
mmdebstrap --variant=minbase --mode=root \
    --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --aptopt='Acquire::Retries "3"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --setup-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"' \
    --setup-hook='printf "MODULES=list\nCOMPRESS=zstd\nRESUME=none\n" > "$1/etc/initramfs-tools/conf.d/ttygroup-vm.conf"' \
    --setup-hook='printf "#!/bin/sh\nPREREQ=\"\"\nprereqs() { echo \"\$PREREQ\"; }\ncase \"\$1\" in prereqs) prereqs; exit 0;; esac\n. /usr/share/initramfs-tools/hook-functions\nfor m in virtio_pci virtio_blk ext4 crc32c_generic; do manual_add_modules \$m; echo \$m >> \"\$DESTDIR/conf/modules\"; done\n" > "$1/etc/initramfs-tools/hooks/ttygroup-vm"; chmod 755 "$1/etc/initramfs-tools/hooks/ttygroup-vm"' \
    "$SUITE" "$ROOT" \
    "deb $MIRROR $SUITE main" \
    "deb $MIRROR $SUITE-updates main" \
    "deb $SECMIRROR $SUITE-security main"

echo "vm-image: configuring the guest"
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C HOME=/root "$@"; }

echo ttg-vm > "$ROOT/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 ttg-vm\n::1 localhost ip6-localhost ip6-loopback\n' > "$ROOT/etc/hosts"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' > "$ROOT/etc/fstab"
: > "$ROOT/etc/machine-id"   # generated at each (snapshot) boot

# locales: en_US.UTF-8 and de_DE.UTF-8 (a test checks a translated polkit message)
sed -i -E 's/^# *(en_US\.UTF-8 UTF-8|de_DE\.UTF-8 UTF-8)$/\1/' "$ROOT/etc/locale.gen"
in_root locale-gen
echo 'LANG=C.UTF-8' > "$ROOT/etc/default/locale"

# network: DHCP on the user-mode NIC with systemd-networkd
mkdir -p "$ROOT/etc/systemd/network"
printf '[Match]\nName=en* eth*\n\n[Network]\nDHCP=ipv4\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n' \
    > "$ROOT/etc/systemd/network/20-wired.network"
in_root systemctl enable systemd-networkd.service
in_root systemctl mask systemd-networkd-wait-online.service

# quiet, deterministic system: no timers, no time sync, no scrubbing
for t in "$ROOT"/lib/systemd/system/*.timer "$ROOT"/etc/systemd/system/timers.target.wants/*.timer; do
    [[ -e $t ]] || continue
    in_root systemctl mask "$(basename "$t")" >/dev/null 2>&1 || true
done
for u in systemd-timesyncd.service e2scrub_all.service e2scrub_reap.service apt-daily.service \
         apt-daily-upgrade.service man-db.service fstrim.service logrotate.service \
         dpkg-db-backup.service getty-static.service; do
    in_root systemctl mask "$u" >/dev/null 2>&1 || true
done

# logind: no autovts (a getty on the test VT would hang the session up)
mkdir -p "$ROOT/etc/systemd/logind.conf.d"
printf '[Login]\nNAutoVTs=0\nReserveVT=0\n' > "$ROOT/etc/systemd/logind.conf.d/ttygroup-vm.conf"

# journal: volatile, no rate limiting (tests read it)
mkdir -p "$ROOT/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\nRateLimitBurst=0\n' > "$ROOT/etc/systemd/journald.conf.d/ttygroup-vm.conf"

# root autologin on the serial console
mkdir -p "$ROOT/etc/systemd/system/serial-getty@ttyS0.service.d"
printf '[Service]\nExecStart=\nExecStart=-/sbin/agetty -o "-p -f -- \\\\u" --keep-baud --autologin root 115200,57600,38400,9600 - $TERM\n' \
    > "$ROOT/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"

# users
in_root useradd -m -s /bin/bash -u 1001 -U alice
in_root useradd -m -s /bin/bash -u 1002 -U bob
in_root useradd -m -s /bin/bash -u 1003 -U -G sudo carol
printf 'root:test\nalice:test\nbob:test\ncarol:test\n' | in_root chpasswd

# ssh: root by key from the host; guest root -> users by the same key
install -d -m 700 "$ROOT/root/.ssh"
install -m 600 "$OUT/id_ed25519" "$ROOT/root/.ssh/id_ed25519"
install -m 644 "$OUT/id_ed25519.pub" "$ROOT/root/.ssh/id_ed25519.pub"
install -m 600 "$OUT/id_ed25519.pub" "$ROOT/root/.ssh/authorized_keys"
for u in alice bob carol; do
    uid=$(in_root id -u "$u")
    install -d -m 700 -o "$uid" -g "$uid" "$ROOT/home/$u/.ssh"
    install -m 600 -o "$uid" -g "$uid" "$OUT/id_ed25519.pub" "$ROOT/home/$u/.ssh/authorized_keys"
done
printf 'PermitRootLogin prohibit-password\nUsePAM yes\nPasswordAuthentication yes\nUseDNS no\nAcceptEnv LANG LC_* TTG_*\n' \
    > "$ROOT/etc/ssh/sshd_config.d/ttygroup-vm.conf"
printf 'Host localhost 127.0.0.1 ::1\n    StrictHostKeyChecking no\n    UserKnownHostsFile /dev/null\n    LogLevel ERROR\n' \
    > "$ROOT/etc/ssh/ssh_config.d/ttygroup-vm.conf"

# test tree
install -d "$ROOT/opt/ttygroup-test/bin"

# initramfs: small (MODULES=list + our hook), rebuilt now that config is final
in_root update-initramfs -u -k all
kver=$(basename "$(ls -d "$ROOT"/lib/modules/* | sort -V | tail -1)")
cp "$ROOT/boot/initrd.img-$kver" "$OUT/initrd.img"

# uncompressed kernel (the extract-vmlinux method: find a compressed stream
# by its magic, decompress, keep the first result that is an ELF file)
extract_vmlinux() {
    local img=$1 out=$2 spec magic tool pos
    for spec in '\x1f\x8b\x08:gunzip' '\xfd7zXZ\x00:unxz' '\x28\xb5\x2f\xfd:unzstd' \
                'BZh:bunzip2' '\x5d\x00\x00\x00:unlzma' '\x89\x4c\x5a:lzop -d' '\x02\x21\x4c\x18:lz4 -d'; do
        magic=${spec%%:*} tool=${spec#*:}
        for pos in $(LC_ALL=C grep -obUaP "$magic" "$img" | cut -d: -f1); do
            tail -c+"$((pos + 1))" "$img" | $tool > "$out" 2>/dev/null || true
            if [[ $(head -c4 "$out" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]]; then
                return 0
            fi
        done
    done
    rm -f "$out"
    return 1
}
extract_vmlinux "$ROOT/boot/vmlinuz-$kver" "$OUT/vmlinux" || { echo "vm-image: could not extract vmlinux from vmlinuz-$kver" >&2; exit 1; }
echo "root=/dev/vda rootfstype=ext4 rw console=ttyS0 quiet mitigations=off random.trust_cpu=on systemd.show_status=false" > "$OUT/cmdline"

# the ext4 image
rm -rf "$ROOT/var/cache/apt/archives/"*.deb "$ROOT/var/lib/apt/lists/"* "$ROOT/boot/"initrd.img* 2>/dev/null || true
used_mb=$(du -sm "$ROOT" | cut -f1)
size_mb=$((used_mb + EXTRA_MB))
echo "vm-image: mkfs.ext4 -d (${used_mb} MB used, ${size_mb} MB image)"
mkfs.ext4 -q -F -L ttg-root -E root_owner=0:0 -d "$ROOT" "$OUT/rootfs.img" "${size_mb}M"

end=$(date +%s)
{
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "kernel=$kver"
    echo "seconds=$((end - start))"
    echo "recipe_sha256=$(sha256sum "$0" | cut -d' ' -f1)"
} > "$OUT/build-info"
echo "vm-image: built in $((end - start)) s (kernel $kver)"
