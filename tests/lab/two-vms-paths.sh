#!/usr/bin/env bash
# tests/lab/two-vms-paths.sh - 两台虚拟机之间“路径”上的错误（由 tests/62-two-vms-paths.t 通过
# LAB_TOPOLOGY=two-vms lab/run 调用；两台虚拟机里都运行本脚本，LAB_VM=0 是服务端，1 是客户端）。
#
# 每台虚拟机和两台真实的虚拟机一样：eth0 + rxe0。VM1 上依次制造学习者最常见的错误：
#   wrong-nic   rxe0 建在第二块网卡 x0（10.99.0.2/24，不通往服务端）上：
#               自动选择在创建任何 QP 之前报错并给出修复命令；-d rxe0 硬用则大声警告、RTR 失败并给出证据
#   fixed       按提示在 eth0 上再建一个 rxe1（VM1 现在有两个设备，只有一个通往服务端）：自动选对、数据通过
#   mtu         VM0 的 eth0 改成 MTU 9000（rxe0 的 active_mtu 变成 4096），VM1 仍是 1500（1024）：
#               两端都用较小的 1024，8 KiB 的 WRITE 照样通过（取较大者的话，4096 字节的包 VM1 收不下）
#   unreachable 连一个不存在的地址 10.11.0.9：在 -t 秒内失败并说明
#   firewall    VM0 用 nftables 丢弃进来的 UDP 4791：客户端 RETRY_EXC_ERR（提示里有防火墙），
#               VM0 上的 diagnose.sh 指出这条规则；删掉规则后同一对通过
# 每个结果打印一行 “RESULT 名字 ok|fail 说明”，tests/62-two-vms-paths.t 把它们变成 TAP。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

SERVER=build/rdma_server
CLIENT=build/rdma_client
OUT=${TMPDIR:-/tmp}/paths
mkdir -p "$OUT"
# shellcheck source=tests/lab/peer.bash
. tests/lab/peer.bash

result() {  # result 名字 0|非0 说明 [日志]
    if [[ $2 == 0 ]]; then
        echo "RESULT $1 ok $3"
    else
        echo "RESULT $1 fail $3"
        [[ -n ${4:-} && -f $4 ]] && sed 's/^/    | /' "$4"
    fi
}

has() { grep -qF -- "$2" "$1"; }

# ---------------- VM0：服务端，每个场景一个端口 ----------------
# 每个服务端先监听，再在共享目录里放 listen-端口 的标记（tests/lab/peer.bash 的 serve）；VM1 的客户端等到标记才连。
# 服务端等客户端的上限是 --accept-timeout $PEER_BOUND；VM1 放弃时（vm1.abort）立刻停掉服务端。
if [[ ${LAB_VM:-} == 0 ]]; then
    A=(--accept-timeout "$PEER_BOUND")
    T=$((PEER_BOUND + 60))
    # serve_step 结果名 端口 日志 服务端参数...：服务端退出码写进 rc；对端放弃时打印 RESULT fail 并结束
    serve_step() {
        local name=$1 port=$2 log=$3
        shift 3
        rc=0
        if ! serve "$port" "$log" timeout "$T" "$SERVER" -p "$port" "$@" "${A[@]}"; then
            result "$name" 1 "服务端没有在 $port 上监听" "$log"
            exit 0
        fi
        serve_wait || rc=$?
        if ((rc == 2)); then
            echo "RESULT $name fail $PEER_WHY"
            exit 0
        fi
    }
    # 18531: -d rxe0 硬用错网卡的客户端（RTR 失败）；18532: 修好之后
    serve_step server-wrong-nic 18531 "$OUT/s1.log" -q 1 -t 10
    echo "VM0 server 18531 exit $rc"
    sed 's/^/    | /' "$OUT/s1.log" | grep -E '路径检查|警告|错误|提示|证据|  - ' || true
    serve_step server-after-fix 18532 "$OUT/s2.log" -q 2 --op write --size 8K --iters 2 -t 10
    result server-after-fix "$rc" "服务端在修好之后的一对里退出 0" "$OUT/s2.log"
    ip link set eth0 mtu 9000
    for ((i = 0; i < 50; i++)); do ibv_devinfo -d rxe0 | grep -q 'active_mtu:.*4096' && break; peer_nap 0.1; done
    serve_step mtu-server 18533 "$OUT/s3.log" -q 1 --op write --size 8K --iters 2 -t 10
    ok=1
    [[ $rc == 0 ]] && has "$OUT/s3.log" '本地连接信息: num_qp=1 op=write active_mtu=4096' \
        && has "$OUT/s3.log" '路径MTU取两端 active_mtu 的较小者: 1024 字节' \
        && has "$OUT/s3.log" '网卡 eth0 的 MTU 9000 ≥ 路径MTU 1024 + 64 字节 RoCE 头 —— 一致' && ok=0
    result mtu-server "$ok" "服务端 MTU 9000（active_mtu 4096）: 用两端较小的 1024，退出码 $rc" "$OUT/s3.log"
    cp "$OUT/s3.log" logs/paths-mtu-server.log 2>/dev/null || true
    ip link set eth0 mtu 1500
    # 防火墙：丢弃进来的 RoCE v2（UDP 4791）
    nft add table inet labfw
    nft add chain inet labfw input '{ type filter hook input priority 0; }'
    nft add rule inet labfw input udp dport 4791 drop
    serve_step firewall-diagnose 18534 "$OUT/s4.log" -q 1 -t 5
    ./diagnose.sh --peer 10.11.0.2 >"$OUT/d4.log" 2>&1
    drc=$?
    ok=1
    [[ $rc == 1 && $drc == 1 ]] && has "$OUT/d4.log" '4791' && ok=0
    result firewall-diagnose "$ok" "VM0 丢弃 UDP 4791: 服务端退出码 $rc，diagnose.sh 退出码 $drc 并指出 4791" "$OUT/d4.log"
    cp "$OUT/d4.log" logs/paths-firewall-diagnose.log 2>/dev/null || true
    nft delete table inet labfw
    serve_step firewall-fixed-server 18535 "$OUT/s5.log" -q 1 -t 10
    result firewall-fixed-server "$rc" "删掉规则后服务端退出 0" "$OUT/s5.log"
    peer_done
    exit 0
fi

# ---------------- VM1：客户端，制造错误 ----------------
rxe_on_wrong_nic

# 1. 自动选择：在创建任何 QP 之前报错，说出网卡和修复命令
SECONDS=0
timeout 60 "$CLIENT" 10.11.0.1 -p 18530 -q 1 -t 10 >"$OUT/c0.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/c0.log" '到服务端 10.11.0.1 的路由（内核路由表，等同 ip route get 10.11.0.1）: 走网卡 eth0，源地址 10.11.0.2' \
    && has "$OUT/c0.log" '但没有哪个 ACTIVE 的 RDMA 设备建在 eth0 上' \
    && has "$OUT/c0.log" 'rxe0 在 x0 上（10.99.0.2）' \
    && has "$OUT/c0.log" 'sudo rdma link add rxe1 type rxe netdev eth0' \
    && ! has "$OUT/c0.log" 'ibv_create_qp' && ((took < 30)) && ok=0
result wrong-nic-auto "$ok" "自动选择: 退出码 $rc，用时 ${took}s，创建QP之前就报错并给出 rdma link add … netdev eth0" "$OUT/c0.log"
cp "$OUT/c0.log" logs/paths-wrong-nic-auto.log 2>/dev/null || true

# 2. -d rxe0 硬用：大声警告，RTR 失败时给出证据（路由走 eth0，GID 在 x0 上）
need_peer listen-18531 wrong-nic-explicit
SECONDS=0
timeout 60 "$CLIENT" 10.11.0.1 -d rxe0 -p 18531 -q 1 -t 10 >"$OUT/c1.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/c1.log" '警告: 选中的 rxe0 GID索引1（10.99.0.2，网卡 x0）不在通往服务端 10.11.0.1 的路上：内核走 eth0，源地址 10.11.0.2' \
    && has "$OUT/c1.log" '警告: 路径检查: 本端GID 10.99.0.2 在网卡 x0 上，但内核从 10.99.0.2 到 10.11.0.1 的路由走 eth0' \
    && has "$OUT/c1.log" 'RTR状态失败' && has "$OUT/c1.log" '→ 路由走 eth0，GID 却在 x0 上：RDMA 设备建错了网卡' \
    && has "$OUT/c1.log" './diagnose.sh --peer 10.11.0.1' && ((took < 30)) && ok=0
result wrong-nic-explicit "$ok" "-d rxe0: 退出码 $rc，用时 ${took}s，警告 + RTR 失败 + 证据" "$OUT/c1.log"
cp "$OUT/c1.log" logs/paths-wrong-nic-explicit.log 2>/dev/null || true

# 2b. diagnose.sh --peer 找出原因：通往服务端的 eth0 上没有 RDMA 设备，rxe0 在不通的 x0 上
SECONDS=0
./diagnose.sh --peer 10.11.0.1 >"$OUT/d1.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/d1.log" '[失败] 没有建在网卡 eth0 上的 RDMA 设备' \
    && has "$OUT/d1.log" '修复: sudo rdma link add rxe1 type rxe netdev eth0' \
    && has "$OUT/d1.log" '[警告] rxe0 端口1 建在网卡 x0 上，这块网卡不通往 10.11.0.1' && ok=0
result wrong-nic-diagnose "$ok" "diagnose.sh --peer: 退出码 $rc，用时 ${took}s，指出 eth0 上没有设备、rxe0 在 x0 上" "$OUT/d1.log"
cp "$OUT/d1.log" logs/paths-wrong-nic-diagnose.log 2>/dev/null || true

# 3. 按提示修复：在 eth0 上再建一个设备；现在有两个设备，只有 rxe1 通往服务端
rdma link add rxe1 type rxe netdev eth0
for ((i = 0; i < 50; i++)); do [[ -e /sys/class/infiniband/rxe1/ports/1/gids/1 ]] && break; peer_nap 0.1; done
need_peer listen-18532 two-devices-fixed
timeout 60 "$CLIENT" 10.11.0.1 -p 18532 -q 2 --op write --size 8K --iters 2 -t 30 >"$OUT/c2.log" 2>&1
rc=$?
ok=1
[[ $rc == 0 ]] && has "$OUT/c2.log" '按路由自动选择: rxe1 —— 它的端口1 建在 eth0 上，GID索引1 的地址是 10.11.0.2（RoCE v2）' \
    && has "$OUT/c2.log" '路径检查（RTR 之前）: 本端GID 10.11.0.2 在 eth0 上，内核从 10.11.0.2 到 10.11.0.1 也走 eth0 —— 一致' \
    && has "$OUT/c2.log" '网卡 eth0 的 MTU 1500 ≥ 路径MTU 1024 + 64 字节 RoCE 头 —— 一致' \
    && has "$OUT/c2.log" '全部 2 轮 × 2 个QP 完成并校验通过' && ok=0
result two-devices-fixed "$ok" "两个设备（rxe0 在 x0、rxe1 在 eth0）: 自动选 rxe1，数据校验通过" "$OUT/c2.log"
./diagnose.sh --peer 10.11.0.1 >"$OUT/d2.log" 2>&1
rc=$?
ok=1
[[ $rc == 0 ]] && has "$OUT/d2.log" '[警告] rxe0 端口1 建在网卡 x0 上' && ! grep -q '^\[失败\]' "$OUT/d2.log" && ok=0
result fixed-diagnose "$ok" "修好之后 diagnose.sh --peer 退出码 $rc（rxe0 在 x0 上仍是警告）" "$OUT/d2.log"
cp "$OUT/c2.log" logs/paths-two-devices.log 2>/dev/null || true

# 4. 两端 MTU 不同（VM0 9000，VM1 1500）：路径MTU取较小者，大消息照样通过
need_peer listen-18533 mtu-client
timeout 60 "$CLIENT" 10.11.0.1 -p 18533 -q 1 --op write --size 8K --iters 2 -t 30 >"$OUT/c3.log" 2>&1
rc=$?
ok=1
[[ $rc == 0 ]] && has "$OUT/c3.log" '远端连接信息: num_qp=1 op=write active_mtu=4096' \
    && has "$OUT/c3.log" '路径MTU取两端 active_mtu 的较小者: 1024 字节' \
    && has "$OUT/c3.log" '全部 2 轮 × 1 个QP 完成并校验通过' && ok=0
result mtu-client "$ok" "客户端 MTU 1500 对服务端 9000: 路径MTU 1024，8 KiB WRITE 通过，退出码 $rc" "$OUT/c3.log"

# 5. 对端地址不存在：在 -t 秒内失败
SECONDS=0
timeout 60 "$CLIENT" 10.11.0.9 -q 1 -t 3 >"$OUT/c4.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/c4.log" '到服务端 10.11.0.9 的路由（内核路由表，等同 ip route get 10.11.0.9）: 走网卡 eth0' \
    && has "$OUT/c4.log" '错误: connect(10.11.0.9:18515) 失败' && ((took < 30)) && ok=0
result unreachable "$ok" "对端地址不存在: 退出码 $rc，用时 ${took}s" "$OUT/c4.log"
cp "$OUT/c4.log" logs/paths-unreachable.log 2>/dev/null || true

# 6. 对端防火墙丢弃 UDP 4791：重传 retry_cnt=6 次（每次约 67 ms）后 RETRY_EXC_ERR，提示点名 UDP 4791。
#    （retry_cnt=7 时 rxe 无限重传，只能等 -t 秒后轮询超时：程序因此用 6）
need_peer listen-18534 firewall-client
SECONDS=0
timeout 60 "$CLIENT" 10.11.0.1 -p 18534 -q 1 -t 8 >"$OUT/c5.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/c5.log" '状态=transport retry counter exceeded (12)' && ! has "$OUT/c5.log" '轮询CQ超时' \
    && has "$OUT/c5.log" 'UDP 4791' && ((took < 30)) && ok=0
result firewall-client "$ok" "对端丢弃 UDP 4791: 退出码 $rc，用时 ${took}s，在 -t 8 之内 RETRY_EXC_ERR，提示点名 UDP 4791" "$OUT/c5.log"
cp "$OUT/c5.log" logs/paths-firewall-client.log 2>/dev/null || true
need_peer listen-18535 firewall-fixed-client
timeout 60 "$CLIENT" 10.11.0.1 -p 18535 -q 1 -t 30 >"$OUT/c6.log" 2>&1
result firewall-fixed-client "$?" "删掉规则后客户端退出 0" "$OUT/c6.log"
peer_done
exit 0
