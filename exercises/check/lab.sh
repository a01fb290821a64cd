#!/usr/bin/env bash
# lab.sh - 实验室虚拟机里：学习者的程序（练习版）对参照的对端（普通版）跑一次，输出写进 $EX_LOG/（宿主机的 exercise.py 判断）
#   EX_SIDE=client|server（学习者是哪一端）EX_ARGS（两端共同的参数）EX_MINE（学习者的程序）EX_LOG EX_LANG=zh|en
#   EX_TMO：两端的 -t（默认 8 秒）
#   EX_PEER_DIR：参照的对端程序所在的目录（默认 build，普通版）
#   EX_EXTRA：只给学习者那一端的参数（例如 --inject late-recv：看 --trace 的先后判断抓不抓得住）
#   学习者那一端总是带 --trace $EX_LOG/learner.trace（练习 5：READY 之前投递了接收吗，按事件的先后判断）
#   EX_CAPTURE=1：这一对在 veth0 上抓包（tools/trace/capture，每个包 128 字节）→ $EX_LOG/wire.pcap（练习 3：请求发给了谁、有没有应答）
#   EX_PLAN=文件：一次开机跑多对，每行 "SIDE|ARGS|MINE|LOG|PEER_DIR|EXTRA|CAPTURE"（tests/32-lab-exercises.t）
set -uo pipefail
stop_after() {   # stop_after PID SECONDS：等它自己结束，到时还没结束就停掉（退出码记成 124）
    local k
    for ((k = 0; k < $2 * 10; k++)); do kill -0 "$1" 2>/dev/null || { wait "$1"; return; }; sleep 0.1; done
    kill "$1" 2>/dev/null
    wait "$1"
    return 124
}

one_pair() {
    log=$EX_LOG
    mkdir -p "$log"
    read -r -a args <<<"$EX_ARGS"
    common=(--qp-state all --counters -t "${EX_TMO:-8}" "${args[@]}")
    [[ ${EX_LANG:-zh} == en ]] && common+=(--lang en)
    read -r -a extra <<<"${EX_EXTRA:-}"
    extra+=(--trace "$log/learner.trace")
    ready=/tmp/ex-ready
    rm -f "$ready"
    wait_ready() {   # 服务端开始等客户端时写 --ready-file；最多等 30 秒，服务端先退出了就不等
        local k
        for ((k = 0; k < 300; k++)); do [[ -s $ready ]] && return 0; kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
        echo "lab.sh: the server never became ready" >&2
        return 1
    }
    if [[ $EX_SIDE == client ]]; then
        # 对端（服务端，rxe0）先烧掉几个 QP 号和 MR 序号：它的 QPN、rkey 就和学习者（rxe1）的不同
        build/exercises/burn rxe0 5
        timeout 60 "${EX_PEER_DIR:-build}/rdma_server" -d rxe0 "${common[@]}" --ready-file "$ready" >"$log/peer.out" 2>&1 &
        peer=$!
        wait_ready "$peer" || { kill "$peer" 2>/dev/null; echo 1 >"$log/peer.rc"; echo 1 >"$log/learner.rc"; return 1; }
        timeout 45 "$EX_MINE" 10.11.0.1 -d rxe1 "${common[@]}" "${extra[@]}" >"$log/learner.out" 2>&1
        echo $? >"$log/learner.rc"
        stop_after "$peer" 3   # 学习者的客户端早早失败时，对端的服务端可能还在等连接
        echo $? >"$log/peer.rc"
    else
        build/exercises/burn rxe1 5
        timeout 60 "$EX_MINE" -d rxe0 "${common[@]}" "${extra[@]}" --ready-file "$ready" >"$log/learner.out" 2>&1 &
        mine=$!
        wait_ready "$mine" || { kill "$mine" 2>/dev/null; echo 1 >"$log/peer.rc"; echo 1 >"$log/learner.rc"; return 1; }
        timeout 45 "${EX_PEER_DIR:-build}/rdma_client" 10.11.0.1 -d rxe1 "${common[@]}" >"$log/peer.out" 2>&1
        echo $? >"$log/peer.rc"
        stop_after "$mine" 3
        echo $? >"$log/learner.rc"
    fi
}

pair() {   # 一对；EX_CAPTURE=1 时由 tools/trace/capture 包着（它先开始抓、等 tcpdump 在听，这一对跑完再停）
    if [[ ${EX_CAPTURE:-} == 1 ]]; then
        mkdir -p "$EX_LOG"
        export EX_SIDE EX_ARGS EX_MINE EX_LOG EX_PEER_DIR EX_EXTRA EX_TMO EX_LANG
        EX_CAPTURE=0 EX_PLAN="" tools/trace/capture -i veth0 -s 128 -w "$EX_LOG/wire.pcap" -- bash "$0" 2>"$EX_LOG/capture.err"
    else
        one_pair
    fi
}

if [[ -n ${EX_PLAN:-} ]]; then
    while IFS="|" read -r EX_SIDE EX_ARGS EX_MINE EX_LOG EX_PEER_DIR EX_EXTRA EX_CAPTURE; do
        [[ -n $EX_SIDE ]] || continue
        pair
    done <"$EX_PLAN"
else
    pair
fi
exit 0
