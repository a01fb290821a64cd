#!/usr/bin/env bash
# tools/bench/ir.sh [OUT] - 计时循环每次迭代的用户态指令数（callgrind）和系统调用数（strace），在实验室虚拟机里运行：
#   lab/run tools/bench/ir.sh
# 2 字节的 --bench lat（send、write）和 ib_send_lat/ib_write_lat 各跑 IR_N1 和 IR_N2 轮（默认 300、600）：
#   - 客户端在 valgrind --tool=callgrind 下（服务端照常）：OUT/{ours,pt}-OP-N.cg
#   - 服务端在 callgrind 下（客户端照常）：OUT/{ours,pt}-OP-N.srv.cg
#   - 两端都在 callgrind 下：OUT/{ours,pt}-OP-N.both.cg 和 .both.srv.cg（等的一端空转很多圈，量一圈的指令数）
#   - 客户端在 strace -c -f 下：OUT/{ours,pt}-OP-N.strace（每轮几次系统调用；callgrind 不数内核里的指令）
# IR_MODES 选跑哪几样（默认 "client server both strace"；经 lab/run 传要 LAB_PASSENV=IR_MODES），约 6 分钟。
# IR_BUILD：本项目的程序在哪个目录（默认 build；比较两个版本时另编一份，make BUILD=build/x）；
# IR_SIDES：跑哪一边（默认 "ours pt"；只量本项目的几个临时版本时 "ours"）。
# 之后在宿主机上：tools/bench/cgfuncs.py OUT 打印计数表，cgfuncs.py A.cg B.cg 按函数列出；
# 指令折合多少微秒由 tools/bench/ab.sh 量。读法见 docs/dev/bench-records.md 的“延迟差在哪里”。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=${1:-logs/ir}
N1=${IR_N1:-300} N2=${IR_N2:-600}
IP=10.11.0.1
CG=(valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes)
mkdir -p "$OUT"
. tools/lib/listen.bash
# shellcheck source=tools/bench/inline.bash
. tools/bench/inline.bash

# pingpong 日志前缀 服务端前缀... -- 客户端前缀...：服务端（命令在 SRV 数组）后台、等它监听，客户端（CLI 数组）前台；
# 前缀是包在命令前面的 valgrind/strace/env
pingpong() {
    local log=$1 sp
    shift
    local pre_s=() pre_c=()
    while [[ $1 != -- ]]; do pre_s+=("$1"); shift; done
    shift
    pre_c=("$@")
    timeout 900 "${pre_s[@]}" "${SRV[@]}" >"$log.s.log" 2>&1 &
    sp=$!
    wait_listen 18515 || true
    timeout 900 "${pre_c[@]}" "${CLI[@]}" >"$log.c.log" 2>&1 || true
    wait "$sp" || true
}

ours() {  # ours OP N TAG 服务端前缀... -- 客户端前缀...
    local op=$1 n=$2 tag=$3
    shift 3
    SRV=("${IR_BUILD:-build}/rdma_server" -d rxe0 -q 1 --bench lat --op "$op" --size 2 --iters "$n" -t 300)
    CLI=("${IR_BUILD:-build}/rdma_client" "$IP" -d rxe1 -q 1 --bench lat --op "$op" --size 2 --iters "$n" -t 300)
    pingpong "$OUT/ours-$op-$n$tag" "$@"
}

pt() {  # pt OP N TAG 服务端前缀... -- 客户端前缀...
    local op=$1 n=$2 tag=$3
    shift 3
    SRV=("ib_${op}_lat" -d rxe0 -x 1 -F -s 2 -n "$n")
    CLI=("ib_${op}_lat" -d rxe1 -x 1 -F -s 2 -n "$n" "$IP")
    pingpong "$OUT/pt-$op-$n$tag" "$@"
}

MODES=" ${IR_MODES:-client server both strace} "
for op in send write; do
    for n in "$N1" "$N2"; do
        for p in ${IR_SIDES:-ours pt}; do
            if [[ $MODES == *" client "* ]]; then
                "$p" "$op" "$n" "" env -- "${CG[@]}" --callgrind-out-file="$OUT/$p-$op-$n.cg"
            fi
            if [[ $MODES == *" server "* ]]; then
                "$p" "$op" "$n" .srv "${CG[@]}" --callgrind-out-file="$OUT/$p-$op-$n.srv.cg" -- env
            fi
            if [[ $MODES == *" both "* ]]; then   # 两端都慢：等的一端空转很多圈，一圈的指令数才量得出来
                "$p" "$op" "$n" .both "${CG[@]}" --callgrind-out-file="$OUT/$p-$op-$n.both.srv.cg" -- \
                    "${CG[@]}" --callgrind-out-file="$OUT/$p-$op-$n.both.cg"
            fi
            if [[ $MODES == *" strace "* ]]; then
                "$p" "$op" "$n" .st env -- strace -c -f -o "$OUT/$p-$op-$n.strace"
            fi
        done
    done
done
# 两边的 inline 设置（本项目的表头、perftest 自己的表头；rxe 上两边都是 0，比的是同一件事）：OUT/inline.txt，也打印出来
: >"$OUT/inline.txt"
for op in send write; do
    for tag in "" .srv .both .st; do
        c=$OUT/ours-$op-$N1$tag.c.log p=$OUT/pt-$op-$N1$tag.c.log
        if [[ -s $c && -s $p ]]; then
            inline_note "$c" "$p" "${op}_lat" 2 >>"$OUT/inline.txt"
            break
        fi
    done
done
cat "$OUT/inline.txt"
ls "$OUT"
