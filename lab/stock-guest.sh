#!/usr/bin/env bash
# lab/stock-guest.sh：原版 Debian 虚拟机里，由镜像的 rocev2-harness.service（root）运行（lab/stock-run 每次复制到 harness 目录）。
# 挂上两个 9p 目录，运行 lab/stock-run 给的 SCRIPT，输出和退出码写进共享目录，两台都做完后关机。
set -uo pipefail
H=/run/rocev2-harness
# shellcheck source=/dev/null  # lab/stock-run 写的配置
. $H/config
SYNC=/run/rocev2-sync
PROJ_RO=/run/rocev2-project
O=trans=virtio,version=9p2000.L,msize=262144
mkdir -p "$SYNC" "$PROJ_RO"
# 变体 cloud 的云内核没有 9p：harness 目录是一块磁盘（上面还有项目的副本 project/），同步目录和输出放在本机盘上，
# 重启进了有 9p 的内核以后，先把这些输出并进共享目录（LOCAL 是本机盘上的那一份）
LOCAL=/var/lib/rocev2-harness/sync-local
if mount -t 9p -o "$O" sync "$SYNC" 2>/dev/null; then
    if [[ -s $LOCAL/vm$LAB_VM.out ]]; then cat "$LOCAL/vm$LAB_VM.out" >>"$SYNC/vm$LAB_VM.out"; rm -rf "$LOCAL"; fi
    exec >>"$SYNC/vm$LAB_VM.out" 2>&1
    # 项目目录只读、运行期间不变：cache=loose（和 lab/setup 的宿主根目录一样）
    mount -t 9p -o "$O,ro,cache=loose" project "$PROJ_RO" || echo "stock-guest: cannot mount the project share"
elif [[ -d $H/project ]]; then
    mkdir -p "$LOCAL"
    SYNC=$LOCAL
    # 输出也抄到串口控制台（这一次开机宿主机只看得到控制台日志）
    exec > >(tee -a "$SYNC/vm$LAB_VM.out" >/dev/console) 2>&1
    echo "stock-guest: vm$LAB_VM: no 9p in kernel $(uname -r): harness disk, local sync dir $LOCAL (merged into the shared one after a reboot)"
    mount --bind "$H/project" "$PROJ_RO"
else
    echo "stock-guest: cannot mount the sync share" >/dev/console
    systemctl poweroff --no-block
    exit 1
fi
export LAB_VM LAB_MAC STOCK_MACHINE_ID STOCK_FLAVOUR STOCK_REBOOT LAB_SYNC=$SYNC LAB_PROJ_RO=$PROJ_RO LAB_IP0=10.11.0.1 LAB_IP1=10.11.0.2
[[ -n ${LAB_ENV_CI:-} ]] && export CI=$LAB_ENV_CI
mapfile -d '' -t argv <"$H/argv"
cd "$PROJ_RO" || exit 1
# 这台第几次开机（计数在覆盖层上，跨过重启）
mkdir -p /var/lib/rocev2-harness
LAB_BOOT=$(($(cat /var/lib/rocev2-harness/boots 2>/dev/null || echo 0) + 1))
echo "$LAB_BOOT" >/var/lib/rocev2-harness/boots
export LAB_BOOT
bash "$PROJ_RO/$LAB_SCRIPT" "${argv[@]}" </dev/null
rc=$?
# 200：SCRIPT 要重启这台（lab/stock-run 的 LAB_REBOOT=1），开机后 harness 再运行它
if ((rc == 200)); then
    echo "stock-guest: vm$LAB_VM boot $LAB_BOOT: rebooting as the script asked"
    sync
    systemctl reboot
    exit 0
fi
# 两台都做完才写退出码：先做完的一台等另一台（最多 180 秒），免得宿主机以为对端没了
: >"$SYNC/vm$LAB_VM.finished"
exec {nap}<> <(:)
for ((i = 0; i < 900; i++)); do
    [[ -e $SYNC/vm$((1 - LAB_VM)).finished ]] && break
    read -r -t 0.2 -u "$nap" _
done
echo "$rc" >"$SYNC/vm$LAB_VM.status"
# 覆盖层结束就删，不必好好关机：-ff 直接 reboot(2)（不经 systemd 的总线）
sync
systemctl poweroff -ff
