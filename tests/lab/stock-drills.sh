#!/usr/bin/env bash
# tests/lab/stock-drills.sh - 演练：在一对原版 Debian 虚拟机里（lab/stock-run --flavour nftdrop，root 运行本脚本），
# 以 learner 把 README/QUICKFIX/TROUBLESHOOTING 引用的每个建 rxe、防火墙、memlock 错误做一次，把打印的原话交给宿主机去和文档对照
# （tests/stock/drills.sh 调用；make test-stock）。LAB_VM=0 是服务端 10.11.0.1，1 是客户端 10.11.0.2。
#
# 每一次演练：learner 的登录 shell 里（sudo 只在命令写了的地方）逐条执行几行，输出打印成
#   DRILL-BEGIN vmN 名字 rc=退出码（最后一行的）
#   ……每条命令前一行 “+ 命令”，然后它的 stdout+stderr……
#   DRILL-END vmN 名字
# 判断（原话对不对）在宿主机上做；这里只有“做没做成”的结果行 RESULT。
# harness 额外做的事打印成 STAND-IN（网络地址、NOPASSWD、代码树、让内核加载不了 rdma_rxe 的 modprobe 配置、漏掉的防火墙行）。
set -uo pipefail
P=${LAB_PROJ_RO:?只在 lab/stock-run 里运行}
VM=${LAB_VM:?}
STEPS=$P/tests/docs/readme-steps.sh
# shellcheck source=tests/lab/peer.bash
. "$P/tests/lab/peer.bash"
OUT=/tmp/stock-drills
mkdir -p "$OUT"
chmod 755 "$OUT"
# shellcheck source=tests/lab/stock-common.bash
. "$P/tests/lab/stock-common.bash"

# drill 名字 命令行...：以 learner 逐条执行（不因失败停下），打印 DRILL 段；返回最后一条的退出码
drill() {
    local name=$1 sh=$OUT/$1.sh log=$OUT/$1.log line rc=0
    shift
    : >"$sh"
    for line in "$@"; do
        # shellcheck disable=SC2016  # 写进演练脚本：$? 在 learner 的 shell 里展开
        printf 'printf "+ %%s\\n" %q\n%s\nlast=$?\n' "$line" "$line" >>"$sh"
    done
    # shellcheck disable=SC2016
    printf 'return "$last"\n' >>"$sh"
    chmod 644 "$sh"
    as_learner "$sh" >"$log" 2>&1 || rc=$?
    echo "DRILL-BEGIN vm$VM $name rc=$rc"
    cat "$log"
    echo "DRILL-END vm$VM $name"
    return "$rc"
}

# 两台对齐（有上限）
barrier() { peer_ready "$1"; need_peer "$1" "drill-$1-vm$VM"; }

stock_setup "drill-setup-vm$VM" || exit 0
result "drill-setup-vm$VM" 0 "VM$VM: 网卡 $NIC，learner 的登录 shell，flavour ${STOCK_FLAVOUR:-?}"

# ---------- 建 rxe 的错误 ----------
if [[ $VM == 1 ]]; then
    # 内核加载不了 rdma_rxe：modprobe 配置让它的加载失败（就像模块装坏了）；rdma link add 自己去加载它
    if lsmod | grep -q '^rdma_rxe '; then
        result drill-einval-vm1 1 "rdma_rxe 已经加载了，做不出「加载不了」"
    else
        echo 'install rdma_rxe /bin/false' >/etc/modprobe.d/rocev2-drill.conf
        stand "让内核加载不了 rdma_rxe: /etc/modprobe.d/rocev2-drill.conf = 'install rdma_rxe /bin/false'（做完就删）"
        drill einval "sudo rdma link add rxe0 type rxe netdev $NIC"
        rm -f /etc/modprobe.d/rocev2-drill.conf
    fi
fi
# 网卡名写错：照抄写着 eth0 的命令（网上的教程常这样写；原版 Debian 的网卡叫 ens2，没有 eth0）
wrong=eth0
[[ $NIC == eth0 ]] && wrong=eth9
[[ $wrong == eth0 ]] && stand "网卡名写错: netdev 照抄 eth0（这台的网卡是 $NIC，没有 eth0）"
drill no-such-device "sudo modprobe rdma_rxe && sudo rdma link add rxe0 type rxe netdev $wrong"
drill create "sudo rdma link add rxe0 type rxe netdev $NIC"
drill file-exists "sudo rdma link add rxe0 type rxe netdev $NIC"
drill file-exists-netdev "rdma link show" "sudo rdma link add rxe1 type rxe netdev $NIC"
if [[ $VM == 0 ]]; then
    # 名字 rxe0 已用在 $NIC 上，再把它用在另一块网卡上
    drill name-taken "sudo ip link add x0 type veth peer name x1 && sudo ip addr add 10.12.0.1/24 dev x0 && sudo ip link set x0 up && sudo ip link set x1 up" \
        "sudo rdma link add rxe0 type rxe netdev x0"
    ip link del x0 2>/dev/null
fi

# ---------- memlock（learner，客户端那台；注册内存在连接服务端之前，不需要服务端） ----------
if [[ $VM == 1 ]]; then
    drill memlock-default "ulimit -l" "ulimit -H -l"
    drill memlock "ulimit -l 64" "./build/rdma_client 10.11.0.1 -q 1 --size 1M"
    drill memlock-raise "ulimit -l 64" "ulimit -l unlimited"
fi
barrier rxe

# ---------- 防火墙：nftdrop（input policy drop），README 的防火墙块漏掉 4791 那一行 ----------
mapfile -t fw < <(bash "$STEPS" raw firewall-nft)
partial=() rest=()
for line in "${fw[@]}"; do
    if [[ $line == *4791* ]]; then rest+=("$line"); else partial+=("$line"); fi
done
stand "防火墙: README 的 firewall-nft 块少了 4791 那一行（${rest[*]}）：学习者只放行了 TCP 18515"
drill fw-partial "${partial[@]}"
barrier fw-partial

# pair 名字：VM0 以 learner 在后台运行服务端，等它在 18515 上监听后告诉 VM1；VM1 运行客户端
pair() {
    local name=$1 rc=0 cmd='./build/rdma_server -q 1 --op write -t 10' text
    if [[ $VM == 0 ]]; then
        # 脚本先把命令打印成 “+ 命令”（学习者看到的样子），再运行它
        printf -v text 'printf "+ %%s\\n" "%s"\n%s' "$cmd" "$cmd"
        if learner_serve "$text" "$OUT/$name-server.sh" "$OUT/$name-server.log" "$name-server"; then
            peer_ready "srv-$name"
        fi
        wait "$SERVE_PID" || rc=$?
        echo "DRILL-BEGIN vm0 $name-server rc=$rc"
        cat "$OUT/$name-server.log"
        echo "DRILL-END vm0 $name-server"
    else
        need_peer "srv-$name" "drill-$name-vm1"
        drill "$name-client" "./build/rdma_client 10.11.0.1 -q 1 --op write -t 10"
    fi
}
pair fw
barrier fw-ran

drill diagnose-peer "sudo ./diagnose.sh --peer $PEERIP"
drill diagnose-learner "./diagnose.sh"
barrier diagnosed

# 补上漏掉的那一行，同一对就通过了（diagnose.sh 说的对）
drill fw-fixed "${rest[@]}"
barrier fw-fixed
pair fixed
peer_done
exit 0
