#!/usr/bin/env bash
# tests/trace/capture-fixtures.sh - 在实验室里真实运行一组场景，重新生成 tests/trace/fixtures/
#
#   tests/trace/capture-fixtures.sh [NAME...]   宿主机上运行：编译、启动一次实验室虚拟机跑完所有（或列出的）场景、
#                                              解码抓包、生成 v1 trace，写进 tests/trace/fixtures/
#   tests/trace/capture-fixtures.sh --convert [NAME...]   只重新转换 logs/trace-fixtures/raw 里已经抓到的文件
#   （内部）--in-vm NAME...                     在虚拟机里：逐个场景抓包 + 运行服务端/客户端
#   （内部）--pair NAME                         在虚拟机里：一个场景的服务端和客户端（由 tools/trace/capture 运行）
#
# 程序从 HEAD 的一份干净副本编译（logs/trace-fixtures/head），不受工作区里正在改的 src/ 影响；
# rnr 和 wrap 两个场景用打了补丁的副本（logs/trace-fixtures/patched）：
#   tests/mutation/04-ready-before-recv.patch  服务端先发 READY 再投递接收，配合 ROCE_TEST_SYNC_DELAY_MS（测试版的程序 build/test/）
#                                              让客户端的 SEND 先到 → RNR NAK 和重传
#   tests/trace/fixture-psn.patch              TRACE_FIXTURE_PSN 固定起始 PSN → 24 位 PSN 回绕
# 程序支持 --trace 时用它写的真实 trace；还不支持时由 tests/trace/log2trace.py 从带时间戳的控制台输出
# 转换（见 tests/trace/fixtures/README.md）。控制台输出每行前面是读到它的时刻（见 stamp）。抓包只抓 veth0（-s 128：所有 RoCE 头都在，文件小）。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

WORK=logs/trace-fixtures
RAW=$WORK/raw
FIX=tests/trace/fixtures

# 名字|程序副本|服务端环境变量|客户端环境变量|两端共同的参数|只给客户端的参数
SCENARIOS=(
    "write|head|||-q 2 --op write --size 2K --iters 2|"
    "read|head|||-q 2 --op read --size 3K --iters 1|"
    "send|head|||-q 2 --op send --size 1500 --iters 1|"
    "write_imm|head|||-q 1 --op write_imm --size 2K --iters 1|"
    "fetch_add|head|||-q 1 --op fetch_add --iters 2|"
    "cmp_swap|head|||-q 1 --op cmp_swap --iters 1|"
    "rkey|head|||-q 1 --op write --size 2K --iters 1|--inject rkey"
    "rnr|patched|ROCE_TEST_SYNC_DELAY_MS=50||-q 1 --op send --size 64 --iters 1|"
    "wrap|patched||TRACE_FIXTURE_PSN=0xfffffe|-q 1 --op write --size 4K --iters 2|"
)

scenario() {  # scenario NAME → 设置 S_BUILD S_SENV S_CENV S_ARGS S_CARGS
    local s
    for s in "${SCENARIOS[@]}"; do
        if [[ ${s%%|*} == "$1" ]]; then
            IFS='|' read -r _ S_BUILD S_SENV S_CENV S_ARGS S_CARGS <<<"$s"
            return 0
        fi
    done
    echo "capture-fixtures: 没有场景 $1" >&2
    return 1
}

# 控制台输出的每一行加上读到它的时刻：stamp FILE 建一个 FIFO /tmp/$(basename FILE).fifo，后台的 perl 从 FIFO 读、
# 每行前面写上 Time::HiRes 的 UNIX 时间和一个 TAB，写进 FILE。perl 先启动、阻塞在打开 FIFO 上，程序一写就读到
# （nice -10：TCG 下也能马上排上 CPU）。试过的别的办法：管道接 python（启动要一秒，前面的行全挤在同一时刻）、
# bash 的 read（一次读一个字节，输出一多就落后几百毫秒）、strace -ttt（每个 write 停一次，程序慢到
# RNR 的场景都不再发生）
stamp() {
    local fifo=/tmp/${1##*/}.fifo     # FIFO 放在 tmpfs 上（项目目录在虚拟机里是 9p）
    rm -f "$fifo"
    mkfifo "$fifo"
    # shellcheck disable=SC2016  # perl 的变量
    nice -n -10 perl -MTime::HiRes=time -e '
        open(my $in, "<", $ARGV[0]) or die "$ARGV[0]: $!";
        open(my $out, ">", $ARGV[1]) or die "$ARGV[1]: $!";
        while (my $l = <$in>) { printf $out "%.6f\t%s", time, $l; }
        close $out;' "$fifo" "$1" </dev/null &
}

# ---------- 虚拟机里：一个场景的服务端 + 客户端 ----------
pair() {
    local name=$1 bin trace_s=() trace_c=() senv=() cenv=() src=0 crc=0 spid
    scenario "$name"
    bin=$WORK/$S_BUILD/build
    # 同步消息的延迟是测试插件（tests/plugins/sync_delay.c），只在测试版的程序里（build/test/）
    [[ $S_SENV$S_CENV == *ROCE_TEST_SYNC_DELAY_MS* ]] && bin=$bin/test
    read -r -a args <<<"$S_ARGS"
    read -r -a cargs <<<"$S_CARGS"
    [[ -n $S_SENV ]] && senv=("$S_SENV")
    [[ -n $S_CENV ]] && cenv=("$S_CENV")
    if "$bin/rdma_server" -h 2>&1 | grep -q -- '--trace'; then
        trace_s=(--trace "$RAW/$name.server.jsonl")
        trace_c=(--trace "$RAW/$name.client.jsonl")
    fi
    # 同一时刻的实时时钟和 CLOCK_MONOTONIC（/proc/uptime），log2trace.py 用它们算出 t_mono
    local up real
    read -r up _ </proc/uptime
    real=$EPOCHREALTIME
    local sfifo=/tmp/$name.server.log.fifo cfifo=/tmp/$name.client.log.fifo
    stamp "$RAW/$name.server.log"
    stamp "$RAW/$name.client.log"
    # stdbuf：输出进了 FIFO 也按行刷出，每行的时间戳才准
    env "${senv[@]}" stdbuf -oL -eL "$bin/rdma_server" -d "$LAB_DEV0" -t 20 --qp-state all \
        "${args[@]}" "${trace_s[@]}" >"$sfifo" 2>&1 &
    spid=$!
    env "${cenv[@]}" stdbuf -oL -eL "$bin/rdma_client" "$LAB_IP0" -d "$LAB_DEV1" -t 20 --qp-state all \
        "${args[@]}" "${cargs[@]}" "${trace_c[@]}" >"$cfifo" 2>&1 || crc=$?
    wait "$spid" || src=$?
    wait      # 两个 perl
    rm -f "$sfifo" "$cfifo"
    printf '{"name":"%s","server_args":"%s","client_args":"%s","server_env":"%s","client_env":"%s","server_exit":%d,"client_exit":%d,"realtime_at":%s,"uptime_at":%s,"server_ready_before_recv":%s}\n' \
        "$name" "-d $LAB_DEV0 -t 20 --qp-state all $S_ARGS" \
        "$LAB_IP0 -d $LAB_DEV1 -t 20 --qp-state all $S_ARGS${S_CARGS:+ $S_CARGS}" "$S_SENV" "$S_CENV" \
        "$src" "$crc" "$real" "$up" "$([[ $S_BUILD == patched ]] && echo true || echo false)" >"$RAW/$name.meta.json"
    echo "pair $name: 服务端退出码 $src，客户端退出码 $crc"
}

in_vm() {
    local name
    mkdir -p "$RAW"
    for name in "$@"; do
        scenario "$name"
        echo "=== $name"
        tools/trace/capture -i veth0 -s 128 -w "$RAW/$name.pcap" -- bash "$0" --pair "$name" || true
        tail -n 1 "$RAW/$name.server.log" "$RAW/$name.client.log" || true
    done
}

# ---------- 宿主机 ----------
build_copy() {  # build_copy DIR [PATCH...]
    local dir=$1 p
    shift
    rm -rf "$dir"
    mkdir -p "$dir"
    git archive HEAD src Makefile | tar -x -C "$dir"
    for p in "$@"; do
        patch -d "$dir" -p1 -s <"$p"
    done
    make -C "$dir" -s all >/dev/null
}

host() {
    local names=("$@") name
    if ((${#names[@]} == 0)); then
        for name in "${SCENARIOS[@]}"; do names+=("${name%%|*}"); done
    fi
    for name in "${names[@]}"; do scenario "$name"; done
    echo "capture-fixtures: 编译 HEAD 的副本和打补丁的副本" >&2
    build_copy "$WORK/head"
    build_copy "$WORK/patched" tests/mutation/04-ready-before-recv.patch tests/trace/fixture-psn.patch
    rm -rf "$RAW"
    mkdir -p "$RAW" "$FIX"
    LAB_QUIET=1 lab/run bash "$0" --in-vm "${names[@]}"
    convert "${names[@]}"
}

# 抓到的原始文件（$RAW）→ tests/trace/fixtures/；只想重新转换时: --convert [NAME...]
convert() {
    local names=("$@") name
    if ((${#names[@]} == 0)); then
        for name in "${SCENARIOS[@]}"; do names+=("${name%%|*}"); done
    fi
    mkdir -p "$FIX"
    for name in "${names[@]}"; do
        [[ -s $RAW/$name.pcap ]] || { echo "capture-fixtures: $name 没有抓到包" >&2; exit 1; }
        cp "$RAW/$name.pcap" "$FIX/$name.pcap"
        tools/trace/decode -o "$FIX/$name.packets.jsonl" "$RAW/$name.pcap"
        cp "$RAW/$name.server.log" "$FIX/$name.server.log"
        cp "$RAW/$name.client.log" "$FIX/$name.client.log"
        cp "$RAW/$name.meta.json" "$FIX/$name.meta.json"
        if [[ -s $RAW/$name.server.jsonl && -s $RAW/$name.client.jsonl ]]; then
            cp "$RAW/$name.server.jsonl" "$FIX/$name.server.jsonl"
            cp "$RAW/$name.client.jsonl" "$FIX/$name.client.jsonl"
        else
            python3 tests/trace/log2trace.py --meta "$FIX/$name.meta.json" \
                --server "$FIX/$name.server.log" --client "$FIX/$name.client.log" --out "$FIX/$name"
        fi
        echo "$name: $(wc -l <"$FIX/$name.packets.jsonl") 个包"
    done
}

case ${1:-} in
    --in-vm) shift; in_vm "$@" ;;
    --pair) pair "$2" ;;
    --convert) shift; convert "$@" ;;
    *) host "$@" ;;
esac
