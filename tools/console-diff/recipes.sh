#!/usr/bin/env bash
# tools/console-diff/recipes.sh OUTDIR - 在实验室虚拟机里（lab/run，一次开机）跑 console-diff 的全部配方，
# 每个配方两边的控制台输出（stdout+stderr）写到 OUTDIR/NAME.server.log、NAME.client.log（或 NAME.log），退出码写到 NAME.rc。
# 由 tools/console-diff/run.sh 调用；工作目录是被测版本的临时 git worktree 的根目录（build/ 是那个版本编译出的程序）。
#
# 配方 = 文档摘录的全部配方（tests/docs/update-excerpts.sh 的 in_lab：正常运行的每种操作、交互、UD、SRQ、英文、--counters、
# 参数/配置/控制平面/数据面的错误、rc_pingpong/perftest、弄坏实验室）+ 下面 extra_recipes 的（--cm、--cq event、多客户端、
# --trace、更多 --inject、--bench、拒绝的组合和错误的输入）。extra_recipes 先跑：摘录的配方最后会删地址、关网卡。
set -euo pipefail
# 借用摘录的配方函数（pair/single/fake_peer/wait_listen/in_lab）；被 source 时它只定义函数
# shellcheck source=tests/docs/update-excerpts.sh
. tests/docs/update-excerpts.sh
OUT=${1:?usage: recipes.sh OUTDIR}

# 服务端的就绪标志（--ready-file，不写控制台）：多客户端的服务端不打印 wait_listen 认的那句话
READY_N=0
start_ready() {  # start_ready LOG 服务端参数...：后台启动服务端（PID 在 SPID），等它开始接待客户端或退出（最多 60 秒）
    local log=$1 ready i
    shift
    READY_N=$((READY_N + 1))
    ready=/tmp/console-diff.ready.$READY_N
    rm -f "$ready"
    timeout 120 "$SERVER" --ready-file "$ready" "$@" >"$log" 2>&1 &
    SPID=$!
    for ((i = 0; i < 600; i++)); do
        [[ -s $ready ]] && return 0
        kill -0 "$SPID" 2>/dev/null || return 0
        sleep 0.1
    done
}

# duo NAME "服务端的全部参数" "客户端 10.11.0.1 之后的全部参数" [客户端标准输入的文字]
# 和 pair 一样，只是不替两边加 -d（--cm 的服务端监听 0.0.0.0，设备由地址决定）
duo() {
    local name=$1 sargs cargs src=0 crc=0
    read -r -a sargs <<<"$2"
    read -r -a cargs <<<"$3"
    echo "recipe $name: $SERVER $2 | $CLIENT 10.11.0.1 $3" >&2
    start_ready "$OUT/$name.server.log" "${sargs[@]}"
    if (($# >= 4)); then
        printf '%s' "$4" | timeout 120 "$CLIENT" 10.11.0.1 "${cargs[@]}" >"$OUT/$name.client.log" 2>&1 || crc=$?
    else
        timeout 120 "$CLIENT" 10.11.0.1 "${cargs[@]}" >"$OUT/$name.client.log" 2>&1 </dev/null || crc=$?
    fi
    wait "$SPID" || src=$?
    echo "server=$src client=$crc" >"$OUT/$name.rc"
}

# many NAME "服务端参数" MODE "客户端1的参数" "客户端2的参数"：--clients 2 的服务端和两个客户端；
# MODE=seq 一个跑完再跑下一个，MODE=par 两个同时（服务端的行交错，run.sh 的规整按 [客户端N] 分组）
many() {
    local name=$1 mode=$3 sargs c1 c2 p1 src=0 r1=0 r2=0
    read -r -a sargs <<<"$2"
    read -r -a c1 <<<"$4"
    read -r -a c2 <<<"$5"
    echo "recipe $name: $SERVER -d rxe0 $2 | 2 × $CLIENT ($mode)" >&2
    start_ready "$OUT/$name.server.log" -d rxe0 "${sargs[@]}"
    if [[ $mode == seq ]]; then
        timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${c1[@]}" >"$OUT/$name.client1.log" 2>&1 </dev/null || r1=$?
        timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${c2[@]}" >"$OUT/$name.client2.log" 2>&1 </dev/null || r2=$?
    else
        timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${c1[@]}" >"$OUT/$name.client1.log" 2>&1 </dev/null &
        p1=$!
        timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${c2[@]}" >"$OUT/$name.client2.log" 2>&1 </dev/null || r2=$?
        wait "$p1" || r1=$?
    fi
    wait "$SPID" || src=$?
    echo "server=$src client1=$r1 client2=$r2" >"$OUT/$name.rc"
}

extra_recipes() {
    # ---- RDMA CM（--cm）代替 TCP 交换 ----
    duo cm-send "--cm -q 2 -t 20" "--cm -d rxe1 -q 2 -t 20"
    duo cm-write "--cm -q 2 --op write --size 4K --iters 2 --qp-state all -t 20" "--cm --src 10.11.0.2 -q 2 --op write --size 4K --iters 2 --qp-state all -t 20"
    duo cm-read "--cm -q 1 --op read --size 2K -t 20" "--cm -d rxe1 -q 1 --op read --size 2K -t 20"
    duo cm-interactive "--cm --interactive -q 1 -t 20" "--cm -d rxe1 --interactive -q 1 -t 20" $'hello cm\nq\n'
    duo cm-mismatch-qp "--cm -q 4 -t 5" "--cm -d rxe1 -q 2 -t 5"
    single cm-nobody "$CLIENT" 10.11.0.1 --cm -d rxe1 -q 2 -t 5

    # ---- 等完成的方式、QP 类型、SRQ、ACK 超时 ----
    pair cq-event-send "-q 2 --cq event --iters 2" "-q 2 --cq event --iters 2"
    pair cq-event-write "-q 2 --op write --size 4K --cq event" "-q 2 --op write --size 4K --cq event"
    pair cq-event-ud "-q 1 --qp ud --size 256 --cq event" "-q 1 --qp ud --size 256 --cq event"
    pair srq-event "-q 2 --srq --cq event --iters 2" "-q 2 --srq --cq event --iters 2"
    pair ack-timeout "-q 1 --op write --ack-timeout 16" "-q 1 --op write --ack-timeout 10"
    pair mismatch-cq "--cq event -t 5" "-t 5"

    # ---- 多客户端 ----
    many clients-seq "--clients 2 -q 2" seq "-q 2 --op write --size 1K" "-q 2 --op read --size 2K"
    # 同时的两个客户端参数相同：谁先连上谁就是“客户端1”，两种先后输出一样
    many clients-par "--clients 2 --parallel 2 --iters 2" par "-q 2 --op write_imm --iters 2" "-q 2 --op write_imm --iters 2"

    # ---- --trace（控制台输出应该和不加时一样） ----
    pair trace "-q 2 --op write --size 2K --iters 2 --trace $OUT/trace.server.jsonl" \
        "-q 2 --op write --size 2K --iters 2 --trace $OUT/trace.client.jsonl"
    duo trace-cm "--cm -q 1 --op send --trace $OUT/trace-cm.server.jsonl -t 20" \
        "--cm -d rxe1 -q 1 --op send --trace $OUT/trace-cm.client.jsonl -t 20"

    # ---- 故障注入（rkey、payload 在摘录的配方里） ----
    pair inject-psn "-q 1 --op write -t 3" "-q 1 --op write -t 3 --inject psn"
    pair inject-qpn "-q 1 --op send -t 3" "-q 1 --op send -t 3 --inject qpn"
    pair inject-late-recv "-q 1 --op send -t 5 --inject late-recv" "-q 1 --op send -t 5"
    pair inject-rnr-retry0 "-q 1 --op send -t 5 --inject late-recv" "-q 1 --op send -t 5 --inject rnr-retry0"
    pair inject-small-recv "-q 1 --op send --size 1K -t 3 --inject small-recv" "-q 1 --op send --size 1K -t 3"
    pair inject-flush "-q 2 --op send -t 3 --inject flush" "-q 2 --op send -t 3"
    pair inject-mr-access "-q 1 --op write -t 3 --inject mr-access" "-q 1 --op write -t 3"
    pair inject-qp-access "-q 1 --op write -t 3 --inject qp-access" "-q 1 --op write -t 3"
    pair inject-lkey "-q 1 --op send -t 3" "-q 1 --op send -t 3 --inject lkey"
    pair inject-inline "-q 1 --op send --size 64 -t 3" "-q 1 --op send --size 64 -t 3 --inject inline"
    pair inject-payload-read "-q 1 --op read --size 4K -t 3 --inject payload" "-q 1 --op read --size 4K -t 3"
    # （不放 --qp ud 的 late-recv：客户端的报文在服务端投递接收之前还是之后到，TCG 里两样都有，结果就不同）

    # ---- 基准（数字在规整时换掉，只比较表的样子和文字） ----
    pair bench-lat-send "--bench lat --op send -q 1 --size 64 --iters 200 -t 30" "--bench lat --op send -q 1 --size 64 --iters 200 -t 30"
    pair bench-lat-read-event "--bench lat --op read -q 1 --size 256 --iters 100 --cq event -t 30" \
        "--bench lat --op read -q 1 --size 256 --iters 100 --cq event -t 30"
    pair bench-bw-write "--bench bw --op write -q 2 --size 4K --iters 300 -t 30" "--bench bw --op write -q 2 --size 4K --iters 300 -t 30"
    pair bench-bw-send-knobs "--bench bw --op send -q 2 --size 64 --iters 300 --inline 64 --post-list 4 --signal 8 --counters -t 30" \
        "--bench bw --op send -q 2 --size 64 --iters 300 --inline 64 --post-list 4 --signal 8 --counters -t 30"
    pair bench-srq-lat "--bench lat --op send --srq -q 2 --size 64 --iters 100 -t 30" "--bench lat --op send --srq -q 2 --size 64 --iters 100 -t 30"
    pair bench-ud-bw "--bench bw --op send --qp ud -q 1 --size 64 --iters 200 -t 30" "--bench bw --op send --qp ud -q 1 --size 64 --iters 200 -t 30"
    pair bench-sweep "--bench bw --op write -q 1 --sweep --iters 4 -t 60" "--bench bw --op write -q 1 --sweep --iters 4 -t 60"
    duo bench-cm "--cm --bench lat --op write -q 1 --size 64 --iters 100 -t 30" "--cm -d rxe1 --bench lat --op write -q 1 --size 64 --iters 100 -t 30"
    pair mismatch-bench "--bench lat -t 5" "--bench bw -t 5"

    # ---- 拒绝的组合和错误的输入（参数检查，不开设备） ----
    single refuse-bench-interactive "$CLIENT" 10.11.0.1 -d rxe1 --bench lat --interactive
    single refuse-srq-write "$CLIENT" 10.11.0.1 -d rxe1 --srq --op write
    single refuse-ud-write "$SERVER" -d rxe0 --qp ud --op write
    single refuse-ud-ack-timeout "$CLIENT" 10.11.0.1 -d rxe1 --qp ud --ack-timeout 5
    single refuse-cm-gid "$CLIENT" 10.11.0.1 --cm -g 1
    single refuse-client-late-recv "$CLIENT" 10.11.0.1 -d rxe1 --inject late-recv
    single refuse-bench-inject "$CLIENT" 10.11.0.1 -d rxe1 --bench bw --inject rkey
    single refuse-offset "$CLIENT" 10.11.0.1 -d rxe1 --op fetch_add --offset 12
    single refuse-size "$SERVER" -d rxe0 --size 300M
    single refuse-unknown-option "$CLIENT" 10.11.0.1 --frobnicate
    single refuse-no-ip "$CLIENT"
    single gid-empty-server "$SERVER" -d rxe0 -g 3
    single dry-run-server "$SERVER" -d rxe0 -q 8 --op read --size 64K --cq event --dry-run
    single help-client "$CLIENT" --help
    single help-server "$SERVER" --help
}

mkdir -p "$OUT"
extra_recipes
in_lab
