#!/usr/bin/env bash
# tests/lab/cm-two-vms.sh - --cm（librdmacm 建连）在两台虚拟机之间（由 tests/63-two-vms-cm.t 通过
# LAB_TOPOLOGY=two-vms lab/run 调用；两台里都运行本脚本，LAB_VM=0 是服务端 10.11.0.1，1 是客户端 10.11.0.2）。
# 每台只有一个 rxe0，所以两端都不用 -d/--src：服务端监听 0.0.0.0，客户端的源地址由路由决定。
#   ops-N        六种操作 × N 个QP（1、4、16），数据校验通过，两端退出 0
#   interactive  交互模式（管道输入）
#   vanish       客户端进程被 SIGKILL：服务端收到 DISCONNECTED，退出 1
#   no-listener  连一个没人监听的 CM 端口：REJECTED status 8，退出 1
#   vc-*         最后（同一次开机）：verbs-check 在两台上，tests/lab/verbs-check-two-vms.sh
# 每个结果一行 “RESULT 名字 ok|fail 说明”（服务端的结果由 VM0 打印，客户端的由 VM1 打印）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

SERVER=build/rdma_server
CLIENT=build/rdma_client
OUT=${TMPDIR:-/tmp}/cm2
mkdir -p "$OUT"
OPS=(send write read write_imm fetch_add cmp_swap)
# shellcheck source=tests/lab/peer.bash
. tests/lab/peer.bash
A=(--accept-timeout "$PEER_BOUND")
T=$((PEER_BOUND + 60))

result() {  # result 名字 0|非0 说明 [日志]
    if [[ $2 == 0 ]]; then
        echo "RESULT $1 ok $3"
    else
        echo "RESULT $1 fail $3"
        [[ -n ${4:-} && -f $4 ]] && sed 's/^/    | /' "$4"
    fi
}

has() { grep -qF -- "$2" "$1"; }

# 每种操作跑几个QP：make test 里 1 个（16 个在 cm.bats，4 个在 combos.bats）；CM_TWO_VMS_QPS="1 4 16" 全跑
read -r -a QPS <<<"${CM_TWO_VMS_QPS:-1}"

op_args() {  # op_args 操作 QP数：两端相同的参数
    local size=(--size 4K)
    [[ $1 == fetch_add || $1 == cmp_swap ]] && size=()
    echo --op "$1" -q "$2" "${size[@]}" --iters 2 -t 30
}

# ---------------- VM0：服务端，每一对一个端口 ----------------
# 每个服务端在 rdma_listen 之后用 --ready-file 在共享目录里写 listen-端口；VM1 的客户端等到它才连（tests/lab/peer.bash）。
if [[ ${LAB_VM:-} == 0 ]]; then
    # cm_serve 端口 日志 参数...：服务端退出码写进 rc；对端放弃时打印 RESULT fail 并结束
    cm_serve() {
        local port=$1 log=$2
        shift 2
        rc=0
        if ! serve "$port" "$log" timeout "$T" "$SERVER" --cm -p "$port" "$@" "${A[@]}"; then
            echo "RESULT cm-server-$port fail 服务端没有在 $port 上开始监听（上限 ${PEER_BOUND}s）"
            sed 's/^/    | /' "$log"
            exit 0
        fi
        serve_wait || rc=$?
        if ((rc == 2)); then
            echo "RESULT cm-server-$port fail $PEER_WHY"
            exit 0
        fi
    }
    port=18600
    for q in "${QPS[@]}"; do
        bad=0
        for op in "${OPS[@]}"; do
            port=$((port + 1))
            # shellcheck disable=SC2046
            cm_serve "$port" "$OUT/s-$op-$q.log" $(op_args "$op" "$q")
            ((rc == 0)) || { bad=1; sed 's/^/    | /' "$OUT/s-$op-$q.log"; }
            has "$OUT/s-$op-$q.log" 'CM 按地址选出的设备: rxe0 端口 1' || bad=1
        done
        result "server-ops-$q" "$bad" "服务端: 六种操作 × $q 个QP 都退出 0，设备 rxe0 来自 CM"
    done
    cm_serve 18620 "$OUT/s-int.log" --interactive -q 2 -t 30
    ok=1
    [[ $rc == 0 ]] && has "$OUT/s-int.log" '[服务端内存] 消息#1: hello two vms' && ok=0
    result server-interactive "$ok" "服务端交互模式: 退出码 $rc，看到了客户端写进来的消息" "$OUT/s-int.log"
    cm_serve 18621 "$OUT/s-van.log" --interactive -q 1 -t 30
    ok=1
    [[ $rc == 1 ]] && has "$OUT/s-van.log" 'CM事件: RDMA_CM_EVENT_DISCONNECTED' \
        && has "$OUT/s-van.log" '客户端断开了连接（没有发送 q）' && ok=0
    result vanish "$ok" "客户端被 SIGKILL: 服务端退出码 $rc，收到 DISCONNECTED" "$OUT/s-van.log"
    cp "$OUT/s-van.log" logs/cm-two-vms-vanish.log 2>/dev/null || true
    # 同一次开机：verbs-check 在两台上（issue 57；RESULT vc-*）
    # shellcheck source=tests/lab/verbs-check-two-vms.sh
    . tests/lab/verbs-check-two-vms.sh
    peer_done
    exit 0
fi

# ---------------- VM1：客户端 ----------------
# 每一对之前等 VM0 的 listen-端口（服务端已经 rdma_listen；上限 PEER_BOUND 秒，VM0 放弃则立刻失败）
port=18600
for q in "${QPS[@]}"; do
    bad=0
    for op in "${OPS[@]}"; do
        port=$((port + 1))
        need_peer "listen-$port" "client-ops-$q"
        # shellcheck disable=SC2046
        timeout 120 "$CLIENT" 10.11.0.1 --cm -p "$port" $(op_args "$op" "$q") >"$OUT/c-$op-$q.log" 2>&1 ||
            { bad=1; sed 's/^/    | /' "$OUT/c-$op-$q.log"; }
        has "$OUT/c-$op-$q.log" "全部 2 轮 × $q 个QP 完成并校验通过" || bad=1
        has "$OUT/c-$op-$q.log" 'rdma_resolve_addr(): 本端 10.11.0.2:' || bad=1
    done
    result "client-ops-$q" "$bad" "客户端: 六种操作 × $q 个QP 数据校验通过，源地址 10.11.0.2"
done
cp "$OUT/c-write-1.log" logs/cm-two-vms-client.log 2>/dev/null || true

printf 'hello two vms\nq\n' >"$OUT/in.txt"
need_peer listen-18620 client-interactive
timeout 120 "$CLIENT" 10.11.0.1 --cm -p 18620 --interactive -q 2 -t 30 <"$OUT/in.txt" >"$OUT/c-int.log" 2>&1
rc=$?
ok=1
[[ $rc == 0 ]] && has "$OUT/c-int.log" 'RDMA READ 读回: hello two vms' && ok=0
result client-interactive "$ok" "客户端交互模式: 退出码 $rc，读回了自己写的行" "$OUT/c-int.log"

# 没人监听的端口（等到 VM0 已经在 18621 上等下一个场景：虚拟机还在，只是 18699 没人监听）
need_peer listen-18621 no-listener
SECONDS=0
timeout 60 "$CLIENT" 10.11.0.1 --cm -p 18699 -t 10 >"$OUT/c-nol.log" 2>&1
rc=$? took=$SECONDS
ok=1
[[ $rc == 1 ]] && has "$OUT/c-nol.log" 'RDMA_CM_EVENT_REJECTED，status=8 = IB_CM_REJ_INVALID_SERVICE_ID' && ((took < 20)) && ok=0
result no-listener "$ok" "没人监听: 退出码 $rc，用时 ${took}s，REJECTED status 8" "$OUT/c-nol.log"

# 对端消失：客户端进入交互模式（出现“发送>”提示，上限 PEER_BOUND 秒）后被 SIGKILL
sleep 600 | timeout 120 "$CLIENT" 10.11.0.1 --cm -p 18621 --interactive -q 1 -t 30 >"$OUT/c-van.log" 2>&1 &
for ((k = 0; k < PEER_BOUND * 10; k++)); do
    grep -qE '发送>|失败退出' "$OUT/c-van.log" 2>/dev/null && break
    kill -0 $! 2>/dev/null || break
    peer_nap 0.1
done
if has "$OUT/c-van.log" '发送>'; then
    pkill -9 -x rdma_client
else
    echo "RESULT vanish-client fail 客户端没有进入交互模式（上限 ${PEER_BOUND}s）"
    sed 's/^/    | /' "$OUT/c-van.log"
    pkill -9 -x rdma_client
fi
pkill -f '^sleep 600$' || true   # 管道里给客户端当标准输入的 sleep：不杀它，最后的 wait 要白等
wait
# 同一次开机：verbs-check 在两台上（issue 57；RESULT vc-*）
# shellcheck source=tests/lab/verbs-check-two-vms.sh
. tests/lab/verbs-check-two-vms.sh
peer_done
exit 0
