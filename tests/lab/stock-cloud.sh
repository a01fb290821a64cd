#!/usr/bin/env bash
# tests/lab/stock-cloud.sh - 变体 cloud（lab/stock-run --flavour cloud，root 运行本脚本）：Debian 12 的云内核，从磁盘上它自己的 GRUB 启动。
# tests/stock/cloud.sh 调用。以 learner 在登录 shell 里原样运行文档里的行：
#   第一次开机（云内核，没有 9p：harness 是一块磁盘，输出先存在本机盘上，重启后并进共享目录）：
#     README 的快速开始停在 modprobe（QUICKFIX 引的原话）；./diagnose.sh 说出云内核和修复；QUICKFIX 的 cloud-kernel 块原样运行，
#     最后一行就是它自己的 sudo reboot
#   第二次开机（GRUB 选的内核）：uname -r 是通用内核，云内核和它的元包都没了；快速开始原样再来一次，rdma_rxe 加载、一对通过；
#     ./diagnose.sh 没有“失败”
# 每个结果打印一行 “RESULT 名字 ok|fail 说明”。
set -uo pipefail
P=${LAB_PROJ_RO:?只在 lab/stock-run 里运行}
VM=${LAB_VM:?}
STEPS=$P/tests/docs/readme-steps.sh
# 装内核（解包 70 MB、update-initramfs）在 TCG 下要好几分钟，两台重启的时刻也可能差这么多：等对端和 learner 的每一步（as_learner 是 PEER_BOUND+60 秒）都放宽
export PEER_BOUND=${PEER_BOUND:-1200}
# shellcheck source=tests/lab/peer.bash
. "$P/tests/lab/peer.bash"
OUT=/var/lib/rocev2-harness/out
mkdir -p "$OUT"
chmod 755 /var/lib/rocev2-harness "$OUT"
# shellcheck source=tests/lab/stock-common.bash
. "$P/tests/lab/stock-common.bash"

# 快速开始里两台都运行的行（「只在 Ubuntu 上」「服务端」「客户端」的除外），取网卡那一行的对端地址换成另一台的
quick_both() {
    local line
    while IFS= read -r line; do
        case $line in *'#'*'只在 Ubuntu'* | *'#'*'只在 ufw'* | *'#'*'服务端'* | *'#'*'客户端 '*) continue ;; esac
        printf '%s\n' "${line//route get 10.11.0.2 /route get $PEERIP }"
    done < <(bash "$STEPS" raw quickstart)
}
quick_role() {  # quick_role 服务端|客户端
    bash "$STEPS" raw quickstart | grep -E "#[[:space:]]*$1 "
}
# 一段行写成 learner 的脚本：逐条打印、运行，失败就停在这一条（和 tests/lab/stock-readme.sh 的块一样）
script_of() {  # script_of 文件 < 行
    local line
    : >"$1"
    while IFS= read -r line; do
        # shellcheck disable=SC2016  # 写进块脚本：$? 和 $rc 在 learner 的 shell 里展开
        printf 'printf "+ %%s\\n" %q\n%s\nrc=$?; if ((rc != 0)); then echo "  (退出码 $rc)"; return "$rc"; fi\n' "$line" "$line" >>"$1"
    done
    chmod 644 "$1"
}
boot_facts() {  # 这次开机的内核、GRUB 给的 BOOT_IMAGE、grub.cfg 里第一个（默认的）菜单项
    KREL=$(uname -r)
    BOOTIMG=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^BOOT_IMAGE=//p')
    GRUBDEF=$(grep -m1 "^menuentry " /boot/grub/grub.cfg | cut -d"'" -f2)
    GRUBFIRST=$(grep -m1 -oE "linux[[:space:]]+/boot/vmlinuz-[^ ]+" /boot/grub/grub.cfg | sed 's|.*/vmlinuz-||')
    echo "BOOT vm$VM boot $LAB_BOOT: uname -r=$KREL BOOT_IMAGE=$BOOTIMG grub.cfg default entry: '$GRUBDEF' (kernel $GRUBFIRST)"
}

# ---------- 第二次开机：GRUB 选的内核 ----------
if ((${LAB_BOOT:-1} >= 2)); then
    boot_facts
    stock_find_nic
    # 软件源的磁盘是第一次开机时挂上的（不在 fstab 里）：重新挂上
    stock_mirror >/dev/null || { result "after-fix-kernel-vm$VM" 1 "重启后挂不上软件源的磁盘"; exit 0; }
    log=$OUT/after-kernel.log
    {
        echo "+ uname -r"; uname -r
        echo "+ cat /proc/cmdline"; cat /proc/cmdline
        echo "+ dpkg -l 'linux-image-*'"; dpkg -l 'linux-image-*' | grep -E '^(ii|rc)'
        echo "+ ls /boot"; ls /boot
        echo "+ grep menuentry /boot/grub/grub.cfg"; grep -E "^[[:space:]]*(menuentry|submenu) " /boot/grub/grub.cfg
    } >"$log" 2>&1
    cloudpk=$(dpkg-query -W -f '${Package} ${db:Status-Abbrev}\n' 'linux-image-*cloud*' 2>/dev/null | awk '$2 ~ /^i/ {print $1}')
    ok=1
    [[ $KREL == *-amd64 && $KREL != *cloud* && $BOOTIMG == "/boot/vmlinuz-$KREL" && $GRUBFIRST == "$KREL" && -z $cloudpk &&
        -z $(ls /boot/vmlinuz-*cloud* 2>/dev/null) ]] && ok=0
    result "after-fix-kernel-vm$VM" "$ok" "VM$VM 重启后（开机第 $LAB_BOOT 次）: GRUB 启动的是 $BOOTIMG，uname -r = $KREL，grub.cfg 的默认项是「$GRUBDEF」（$GRUBFIRST），装着的云内核包: ${cloudpk:-没有}" "$log"
    # 以后的内核升级只会带来通用内核：源里有云内核，但没有哪个装着的包还要它
    log=$OUT/after-upgrade.log
    as_learner_cmd() { printf '%s\n' "$1" >"$OUT/cmd.sh"; chmod 644 "$OUT/cmd.sh"; as_learner "$OUT/cmd.sh"; }
    rc=0
    as_learner_cmd 'sudo apt-get update -q && apt-get -s dist-upgrade && apt-cache policy linux-image-cloud-amd64' >"$log" 2>&1 || rc=$?
    ok=1
    [[ $rc == 0 ]] && ! grep -qE '^Inst .*cloud' "$log" && grep -qE '^  Installed: \(none\)' "$log" && ok=0
    result "after-fix-upgrade-vm$VM" "$ok" "VM$VM: apt-get -s dist-upgrade 不装回任何云内核（元包 linux-image-cloud-amd64 已删，源里还有它）" "$log"
    # 快速开始原样再来一次（这次 modprobe 成功），然后一对
    script_of "$OUT/quick2.sh" < <(quick_both)
    rc=0
    as_learner "$OUT/quick2.sh" >"$OUT/quick2.log" 2>&1 || rc=$?
    ok=1
    [[ $rc == 0 && -e /sys/class/infiniband/rxe0 ]] && lsmod | grep -q '^rdma_rxe ' && ok=0
    result "after-fix-quickstart-vm$VM" "$ok" "VM$VM: 快速开始原样（$(quick_both | wc -l) 行）退出码 $rc，rdma_rxe 加载了，rxe0 在 $NIC 上" "$OUT/quick2.log"
    peer_ready q2
    need_peer q2 "after-fix-pair-vm$VM"
    if [[ $VM == 0 ]]; then
        line=$(quick_role 服务端)
        if ! learner_serve "$line" "$OUT/srv.sh" "$OUT/srv.log" after-fix-server; then
            wait "$SERVE_PID"
            result after-fix-server 1 "VM0 \`$line\` 没有在 18515 上开始监听" "$OUT/srv.log"
        else
            peer_ready srv
            rc=0
            serve_wait || rc=$?
            ok=$rc
            ((rc == 0)) && ! grep -q '完成并校验通过' "$OUT/srv.log" && ok=1
            result after-fix-server "$ok" "VM0 learner 快速开始的 \`$line\` 退出码 $rc" "$OUT/srv.log"
        fi
    else
        need_peer srv after-fix-client
        line=$(quick_role 客户端)
        printf '%s\n' "$line" >"$OUT/cli.sh"
        chmod 644 "$OUT/cli.sh"
        rc=0
        as_learner "$OUT/cli.sh" >"$OUT/cli.log" 2>&1 || rc=$?
        ok=$rc
        ((rc == 0)) && ! grep -q '完成并校验通过' "$OUT/cli.log" && ok=1
        result after-fix-client "$ok" "VM1 learner 快速开始的 \`$line\` 退出码 $rc（要求 0 且数据校验通过）" "$OUT/cli.log"
    fi
    peer_ready pair-done
    need_peer pair-done "after-fix-pair-vm$VM"
    as_learner_cmd './diagnose.sh' >"$OUT/diag2.log" 2>&1
    rc=$?
    ok=1
    ((rc == 0)) && ! grep -q '\[失败\]' "$OUT/diag2.log" && grep -qF '[通过] 找到 RDMA 设备: rxe0' "$OUT/diag2.log" && ok=0
    result "after-fix-diagnose-vm$VM" "$ok" "VM$VM: ./diagnose.sh 退出码 $rc，有「[通过] 找到 RDMA 设备: rxe0」，没有「[失败]」" "$OUT/diag2.log"
    peer_ready end
    need_peer end "after-fix-diagnose-vm$VM"
    exit 0
fi

# ---------- 第一次开机：云内核 ----------
boot_facts
ok=1
[[ $KREL == *-cloud-amd64 && $BOOTIMG == "/boot/vmlinuz-$KREL" && $GRUBFIRST == "$KREL" && ! -e /sys/module/9pnet_virtio ]] && ok=0
result "cloud-image-vm$VM" "$ok" "VM$VM: GRUB（/proc/cmdline 的 BOOT_IMAGE=$BOOTIMG）启动了 grub.cfg 的默认项「$GRUBDEF」，uname -r = $KREL（云内核，没有 9p）"
stock_setup "network-vm$VM" || exit 0
stock_mirror || { result "mirror-vm$VM" 1 "没有软件源的磁盘"; exit 0; }
# 替身：装通用内核时 update-initramfs 只放这台用得到的模块。Debian 默认 MODULES=most，在这里的 TCG（两个核被十几个进程分着用）下
# 为通用内核生成 initramfs 超过 20 分钟，learner 的 apt-get 两次被超时杀掉在半截；内核、GRUB 和它们的选择都不受影响
echo 'MODULES=dep' >/etc/initramfs-tools/conf.d/rocev2-lab
stand "initramfs: /etc/initramfs-tools/conf.d/rocev2-lab = 'MODULES=dep'（Debian 默认 most；TCG 下为通用内核生成 most 的 initramfs 超过 20 分钟）"
# 快速开始：两台的行原样，停在 modprobe
script_of "$OUT/quick1.sh" < <(quick_both)
rc=0
as_learner "$OUT/quick1.sh" >"$OUT/quick1.log" 2>&1 || rc=$?
want="modprobe: FATAL: Module rdma_rxe not found in directory /lib/modules/$KREL"
quoted='modprobe: FATAL: Module rdma_rxe not found in directory /lib/modules/'
ok=1
((rc != 0)) && grep -qF "$want" "$OUT/quick1.log" && [[ $(grep '^+ ' "$OUT/quick1.log" | tail -n 1) == *'modprobe rdma_rxe'* ]] &&
    grep -qF "$quoted" "$P/QUICKFIX.md" && grep -qF 'Module rdma_rxe not found' "$P/README.md" && ok=0
result "quickstart-fails-vm$VM" "$ok" "VM$VM: 快速开始原样运行，停在 modprobe 那一行（退出码 $rc），原话「$want」（QUICKFIX 第 0 节引的）" "$OUT/quick1.log"
# ./diagnose.sh 说出云内核和修复
printf './diagnose.sh\n' >"$OUT/diag1.sh"
chmod 644 "$OUT/diag1.sh"
as_learner "$OUT/diag1.sh" >"$OUT/diag1.log" 2>&1
ok=1
dfix="修复: sudo apt-get install -y linux-image-amd64 && sudo DEBIAN_FRONTEND=noninteractive apt-get purge -y linux-image-cloud-amd64 'linux-image-*-cloud-amd64' && sudo reboot"
grep -qF -- "-cloud-amd64 内核变种" "$OUT/diag1.log" && grep -qF -- "$dfix" "$OUT/diag1.log" && ok=0
result "diagnose-cloud-vm$VM" "$ok" "VM$VM: ./diagnose.sh 说出 -cloud-amd64 内核变种和修复「${dfix#修复: }」（QUICKFIX 的 cloud-kernel 块的三行）" "$OUT/diag1.log"
# QUICKFIX 的 cloud-kernel 块原样：最后一行 sudo reboot 单独运行（它一返回系统就在关机了，之后的输出记不下来）
mapfile -t fix < <(README=$P/QUICKFIX.md bash "$STEPS" raw cloud-kernel)
if ((${#fix[@]} < 2)) || [[ ${fix[-1]} != 'sudo reboot' ]]; then
    result "cloud-fix-vm$VM" 1 "QUICKFIX 里没有以 sudo reboot 结尾的 cloud-kernel 块（标记 <!-- readme-steps: cloud-kernel skip -->）"
    exit 0
fi
# 第一行（装上通用内核）之后先看一眼：GRUB 的默认项还是云内核（QUICKFIX：“只装不删，重启后还是它”）
script_of "$OUT/fix1.sh" < <(printf '%s\n' "${fix[0]}")
rc=0 t1=$SECONDS
as_learner "$OUT/fix1.sh" >"$OUT/fix.log" 2>&1 || rc=$?
echo "TIMING vm$VM: QUICKFIX 的第一行（装通用内核，含 update-initramfs）$((SECONDS - t1)) s"
{ echo "+ grep menuentry /boot/grub/grub.cfg"; grep -E "^[[:space:]]*(menuentry|submenu) " /boot/grub/grub.cfg; } >>"$OUT/fix.log" 2>&1
mid=$(grep -m1 -oE "linux[[:space:]]+/boot/vmlinuz-[^ ]+" /boot/grub/grub.cfg | sed 's|.*/vmlinuz-||')
gen=""
for k in /boot/vmlinuz-*-amd64; do [[ -e $k && $k != *cloud* ]] && gen=${k#/boot/vmlinuz-}; done
ok=1
[[ $rc == 0 && $mid == "$KREL" && -n $gen ]] && dpkg --compare-versions "$KREL" gt "$gen" && ok=0
result "install-only-vm$VM" "$ok" "VM$VM: 只运行第一行（装上 $gen）之后 grub.cfg 的默认项还是 $mid（dpkg --compare-versions $KREL gt $gen）" "$OUT/fix.log"
script_of "$OUT/fix.sh" < <(printf '%s\n' "${fix[@]:1:${#fix[@]}-2}")
rc=0
as_learner "$OUT/fix.sh" >>"$OUT/fix.log" 2>&1 || rc=$?
{ echo "+ grep menuentry /boot/grub/grub.cfg"; grep -E "^[[:space:]]*(menuentry|submenu) " /boot/grub/grub.cfg; echo "+ ls /boot"; ls /boot; } >>"$OUT/fix.log" 2>&1
newdef=$(grep -m1 -oE "linux[[:space:]]+/boot/vmlinuz-[^ ]+" /boot/grub/grub.cfg | sed 's|.*/vmlinuz-||')
ok=1
[[ $rc == 0 && $newdef == *-amd64 && $newdef != *cloud* ]] && ok=0
result "cloud-fix-vm$VM" "$ok" "VM$VM: QUICKFIX 的 cloud-kernel 块（$((${#fix[@]} - 1)) 行 + sudo reboot）以 learner 原样运行，退出码 $rc；grub.cfg 的默认项现在是 $newdef" "$OUT/fix.log"
echo "STEP vm$VM: learner: ${fix[-1]}"
printf '%s\n' "${fix[-1]}" >"$OUT/reboot.sh"
chmod 644 "$OUT/reboot.sh"
sync
as_learner "$OUT/reboot.sh"
# 系统在关机：harness 的服务会被停掉；等着（不写退出码，开机后第二次运行本脚本）
sleep 600
