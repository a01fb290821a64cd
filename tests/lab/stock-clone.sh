#!/usr/bin/env bash
# tests/lab/stock-clone.sh - 克隆的那一例，在两台克隆机里（lab/stock-run --clone --flavour ufw，root 运行本脚本；tests/stock/clone.sh 调用）。
# 两台是同一个原版镜像（Ubuntu 样子的 Debian 12：netplan + systemd-networkd）的两个克隆：MAC 不同（52:54:00:0b:00:01/02），
# /etc/machine-id 相同，网卡接在同一个集线器上，集线器上的第三台运行 dnsmasq（tests/lab/stock-hub.sh）。
#   开机 1：两台都用 netplan 的 dhcp4 要地址（替身：安装程序写的 netplan 配置），记下地址、MAC、machine-id 和 networkd 租约里的
#           client id。README 说两台会拿到同一个地址（networkd 的 DHCP client id 由 machine-id 算出来）；
#           然后 VM1（“克隆出来的那台”）以 learner 在登录 shell 里原样运行 README 的 clone 块（换 machine-id，sudo reboot）。
#   开机 2（只有 VM1）：networkd 开机就用新的 machine-id 要地址；两台的地址必须不同了。
# 每个结果打印一行 “RESULT 名字 ok|fail 说明”；替身以 STAND-IN 开头。
set -uo pipefail
P=${LAB_PROJ_RO:?只在 lab/stock-run --clone 里运行}
VM=${LAB_VM:?}
STEPS=$P/tests/docs/readme-steps.sh
# shellcheck source=tests/lab/peer.bash
. "$P/tests/lab/peer.bash"
OUT=/tmp/stock-clone
mkdir -p "$OUT"
chmod 755 "$OUT"
# shellcheck source=tests/lab/stock-common.bash
. "$P/tests/lab/stock-common.bash"
stock_find_nic
[[ -n $NIC ]] || { result "dhcp-vm$VM" 1 "找不到 MAC $LAB_MAC 的网卡"; peer_abort "网卡"; exit 0; }

# addr_wait：等 NIC 上出现 DHCP 给的 10.11.0.x（networkd 配的地址带 dynamic），上限 PEER_BOUND 秒；ADDR 是它（没有时为空）
addr_wait() {
    local i line
    ADDR=""
    for ((i = 0; i < PEER_BOUND * 5; i++)); do
        line=$(ip -4 -o addr show dev "$NIC" 2>/dev/null)
        if [[ $line =~ inet\ (10\.11\.0\.[0-9]+)/24.*dynamic ]]; then
            ADDR=${BASH_REMATCH[1]}
            return 0
        fi
        peer_nap 0.2
    done
    return 1
}

# 这台现在的情况：地址、MAC、machine-id、networkd 租约文件里的 client id（ClientIdentifier=duid 时由 machine-id 算出）
describe() {  # describe 文件
    local ifi cid
    ifi=$(<"/sys/class/net/$NIC/ifindex")
    cid=$(sed -n 's/^CLIENTID=//p' "/run/systemd/netif/leases/$ifi" 2>/dev/null)
    {
        echo "addr=$ADDR"
        echo "mac=$(<"/sys/class/net/$NIC/address")"
        echo "machine_id=$(</etc/machine-id)"
        echo "client_id=${cid:-?}"
    } >"$1"
}
val() { sed -n "s/^$2=//p" "$1"; }  # val 文件 键

# ---------- 开机 2：VM1 换了 machine-id、重启之后 ----------
if [[ $VM == 1 && ${LAB_BOOT:-1} -ge 2 ]]; then
    log=$OUT/b2.log
    ok=1
    if addr_wait; then
        describe "$LAB_SYNC/vm1.info2"
        { echo "+ networkctl status $NIC"; networkctl --no-pager status "$NIC"; } >"$log" 2>&1
        a0=$(val "$LAB_SYNC/vm0.info1" addr) m1=$(val "$LAB_SYNC/vm1.info1" machine_id) m2=$(val "$LAB_SYNC/vm1.info2" machine_id)
        c1=$(val "$LAB_SYNC/vm1.info1" client_id) c2=$(val "$LAB_SYNC/vm1.info2" client_id)
        echo "CLONE vm1 boot 2: $(tr '\n' ' ' <"$LAB_SYNC/vm1.info2")"
        [[ -n $a0 && -n $m1 && -n $c1 && $ADDR != "$a0" && $m2 != "$m1" && $c2 != "$c1" ]] && ok=0
        verdict="不同了"
        ((ok == 0)) || verdict="应该不同（machine-id 之前是 $m1）"
        result clone-fixed "$ok" "README 的 clone 块之后（machine-id $m2，client id $c2）VM1 拿到 $ADDR，VM0 是 $a0：$verdict" "$log"
    else
        result clone-fixed 1 "重启后 ${PEER_BOUND}s 内 $NIC 上没有 DHCP 的地址" "$log"
    fi
    peer_ready b2
    peer_done
    exit 0
fi

# ---------- 开机 1：两台都用 DHCP ----------
# 替身：安装程序写的 netplan 配置（Ubuntu Server 的安装程序写 /etc/netplan/00-installer-config.yaml，网卡 dhcp4: true）
printf '%s\n' 'network:' '  version: 2' '  ethernets:' "    $NIC:" '      dhcp4: true' >/etc/netplan/00-installer-config.yaml
chmod 600 /etc/netplan/00-installer-config.yaml
stand "网络: /etc/netplan/00-installer-config.yaml = $NIC dhcp4: true（Ubuntu Server 安装程序写的那种；这个镜像是装好之后克隆的样子），netplan apply"
printf 'learner ALL=(ALL:ALL) NOPASSWD: ALL\n' >/etc/sudoers.d/rocev2-lab
chmod 440 /etc/sudoers.d/rocev2-lab
stand "sudo: /etc/sudoers.d/rocev2-lab = 'learner ALL=(ALL:ALL) NOPASSWD: ALL'（learner 本来要输密码）"
# dnsmasq 在集线器上运行了再要地址（lab/stock-run 放 hub.ready）
for ((i = 0; i < PEER_BOUND * 5; i++)); do
    [[ -e $LAB_SYNC/hub.ready ]] && break
    peer_nap 0.2
done
[[ -e $LAB_SYNC/hub.ready ]] || { result "dhcp-vm$VM" 1 "集线器上的 dnsmasq ${PEER_BOUND}s 内没有就绪"; peer_abort "hub"; exit 0; }
log=$OUT/dhcp.log
# 克隆出来的那台在原来那台已经有地址以后才开机要地址（学习者的做法：原来那台开着，再启动克隆机）。
# 两台在同一刻要地址时，dnsmasq 可能还没记下第一台的租约，按 MAC 给第二台另一个地址（见过一次），那就看不出这个问题
((VM == 1)) && need_peer leased dhcp-vm1
netplan apply >"$log" 2>&1
if ! addr_wait; then
    { ip addr show; networkctl --no-pager status "$NIC"; } >>"$log" 2>&1
    result "dhcp-vm$VM" 1 "netplan apply 之后 ${PEER_BOUND}s 内 $NIC 上没有 DHCP 的地址" "$log"
    peer_abort "dhcp"
    exit 0
fi
describe "$LAB_SYNC/vm$VM.info1"
((VM == 0)) && peer_ready leased
echo "CLONE vm$VM boot 1: $(tr '\n' ' ' <"$LAB_SYNC/vm$VM.info1")"
{ echo "+ networkctl status $NIC"; networkctl --no-pager status "$NIC"; echo "+ /run/systemd/network/*"; cat /run/systemd/network/*; } >>"$log" 2>&1
result "dhcp-vm$VM" 0 "VM$VM $NIC（MAC $(val "$LAB_SYNC/vm$VM.info1" mac)）用 netplan 的 dhcp4 拿到 $ADDR" "$log"
peer_ready b1
need_peer b1 clone-same-address

if [[ $VM == 0 ]]; then
    # VM0 是“原来那台”：什么也不改，等 VM1 换完 machine-id、重启、再拿到地址
    need_peer b2 clone-vm0-kept
    a1=$(val "$LAB_SYNC/vm0.info1" addr)
    addr_wait
    ok=1
    [[ -n $ADDR && $ADDR == "$a1" ]] && ok=0
    result clone-vm0-kept "$ok" "VM0（原来那台，什么也没改）还是 $ADDR（开机时 $a1）"
    peer_done
    exit 0
fi

# VM1：两台的地址一样吗（MAC 不同、machine-id 相同）
b0=$LAB_SYNC/vm0.info1 b1=$LAB_SYNC/vm1.info1
ok=1
[[ -n $(val "$b0" addr) && $(val "$b0" addr) == "$(val "$b1" addr)" && $(val "$b0" mac) != "$(val "$b1" mac)" &&
    $(val "$b0" machine_id) == "$(val "$b1" machine_id)" && $(val "$b0" client_id) == "$(val "$b1" client_id)" ]] && ok=0
result clone-same-address "$ok" "两台克隆 MAC $(val "$b0" mac) / $(val "$b1" mac)，machine-id 都是 $(val "$b0" machine_id)，client id 都是 $(val "$b0" client_id)：地址 $(val "$b0" addr) / $(val "$b1" addr)"

# README 的 clone 块，以 learner 在登录 shell 里原样运行（只在克隆出来的那台：VM1）；它最后 sudo reboot
sh=$OUT/clone.sh log=$OUT/clone.log
: >"$sh"
while IFS= read -r line; do
    # shellcheck disable=SC2016  # 写进块脚本：$? 在 learner 的 shell 里展开
    printf 'printf "+ %%s\\n" %q\n%s\nrc=$?; if ((rc != 0)); then echo "  (退出码 $rc)"; return "$rc"; fi\n' "$line" "$line" >>"$sh"
done < <(bash "$STEPS" raw clone)
chmod 644 "$sh"
rc=0
timeout 120 runuser -l learner -c ". $sh" </dev/null >"$log" 2>&1 || rc=$?
result clone-block-vm1 "$rc" "VM1: README 的「clone」块以 learner 原样执行，退出码 $rc（最后一条 sudo reboot）" "$log"
# 正在关机：等 systemd 停掉本脚本；上限内还在就是没有重启
for ((i = 0; i < 120 * 5; i++)); do peer_nap 0.2; done
result clone-fixed 1 "README 的 clone 块之后 120 s 还没有重启"
peer_abort "没有重启"
exit 0
