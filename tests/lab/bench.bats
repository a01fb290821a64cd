#!/usr/bin/env bats
# bench.bats - --bench lat|bw 与 --cq event 在真实 rdma_rxe 上（tests/59-lab-bench.t，一次开机）：
# 每种基准形式都跑通、计时后的数据校验通过、表格与 BENCH_RESULT 可解析且数字为正（不断言快慢）；
# --cq event 下普通模式的每种操作（4 个QP，两端都在 valgrind 里，没有任何报告）；两端设置不一致时两边都报错。

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}

# BENCH_RESULT 行里 key 的值（最后一行）
field() {  # field 文件 key
    awk -v k="$2" '/^BENCH_RESULT /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]==k)v=a[2]}} END{print v}' "$1"
}

# 数字 > 0
positive() {  # positive 名字 值
    if ! awk -v v="$2" 'BEGIN{exit !(v+0 > 0)}'; then
        echo "$1 应为正数，实际是 '$2'"
        show_logs
        return 1
    fi
}

# 一个基准形式：两端成功、清理完整、表头和一行数据、BENCH_RESULT 的数字为正、两端都报 CPU
check_bench() {  # [SIZE=字节] check_bench lat|bw OP QP数 [更多参数]
    local mode=$1 op=$2 q=$3 size=${SIZE:-4096}
    shift 3
    run_pair --bench "$mode" --op "$op" -q "$q" --size "$size" --iters 200 -t 30 "$@"
    assert_ok_pair
    has "$CLOG" "BENCH_RESULT test=${op}_$mode size=$size iters=200 qps=$q"
    has "$SLOG" "BENCH_CPU side=server size=$size"
    has "$CLOG" "BENCH_CPU side=client size=$size"
    if [[ $mode == lat ]]; then
        has "$CLOG" ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]'
        positive t_min_us "$(field "$CLOG" t_min_us)"
        positive t_typical_us "$(field "$CLOG" t_typical_us)"
        positive p999_us "$(field "$CLOG" p999_us)"
    else
        has "$CLOG" ' #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]'
        positive bw_avg_MBps "$(field "$CLOG" bw_avg_MBps)"
        positive msg_rate_Mpps "$(field "$CLOG" msg_rate_Mpps)"
    fi
    positive cpu_s "$(field "$CLOG" cpu_s)"
}

# make test 的时间有限：lat 用 1 个QP、bw 用 4 个QP（16 个QP 在旋钮用例里）
@test "bench lat: send, write, read, write_imm at 1 QP; tables parse, numbers positive, data checked after the loop" {
    for op in send write read write_imm; do check_bench lat "$op" 1; done
    has "$CLOG" '不测什么: 建连、注册内存、TCP 同步、打印和数据校验都在计时之外'
}

@test "bench bw: send, write, read, write_imm at 4 QPs (window, selective signaling, batch polling)" {
    for op in send write read write_imm; do check_bench bw "$op" 4; done
    has "$CLOG" '旋钮: --tx-depth 128（每个QP在途 WR 上限）--signal 16'
}

@test "bench knobs and --cq event: inline, post list, signal every N, 16 QPs; event mode reports CPU on both sides" {
    SIZE=64 check_bench lat send 1 --inline 128
    has "$CLOG" 'max_inline_data=128'
    check_bench bw write 16 --tx-depth 32 --signal 8 --post-list 4
    check_bench bw send 2 --cq event
    has "$SLOG" 'BENCH_CPU side=server size=4096 cq=event'
    check_bench lat write 1 --cq event
    has "$CLOG" 'cq=event'
}

@test "bench --sweep: every size from 2 B to 8 MiB, one row each" {
    run_pair --bench bw --op write -q 1 --sweep --iters 4 -t 60
    assert_ok_pair
    [[ $(grep -c '^BENCH_RESULT test=write_bw' "$CLOG") == 23 ]] || { show_logs; return 1; }
    has "$CLOG" 'BENCH_RESULT test=write_bw size=2 '
    has "$CLOG" 'BENCH_RESULT test=write_bw size=8388608 '
}


@test "mismatch: --bench lat vs bw, --bench vs none, --cq poll vs event fail on both sides with a clear message" {
    start_server -d "$LAB_DEV0" --bench lat -t 10
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench bw -t 10
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '远端是 --bench bw，本端是 --bench lat：两端的 --bench/--sweep 必须相同'
    has "$CLOG" '远端是 --bench lat，本端是 --bench bw'
    start_server -d "$LAB_DEV0" -t 10
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench lat -t 10
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '远端是 --bench lat，本端是 不是基准测试'
    start_server -d "$LAB_DEV0" --cq event -t 10
    run_client "$LAB_IP0" -d "$LAB_DEV1" -t 10
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '远端 --cq poll，本端 --cq event：两端的 --cq 必须相同'
    has "$CLOG" '远端 --cq event，本端 --cq poll'
}

@test "--cq event, normal mode: every operation at 4 QPs under valgrind (no reports); channel created, armed, events acked before the CQ is destroyed" {
    use_valgrind
    # 服务端只启动一次（--clients 6：每个客户端一种操作，服务端没给的 --op/--size 听客户端的），客户端两个一批。
    # valgrind 在 TCG 里启动一次要十来秒：一对一对地跑（12 次启动）要两分半，这样是 7 次、两个两个地并行
    SLOG="$BATS_TEST_TMPDIR/server.log"
    local ops
    read -ra ops <<<"$(data_ops)"   # 早于 6.1 的内核上没有原子操作（helpers.bash）
    timeout 300 "$SERVER" -d "$LAB_DEV0" --clients "${#ops[@]}" --parallel 2 --cq event -q 4 --iters 3 -t 60 >"$SLOG" 2>&1 &
    SPID=$!
    local i op rc pids=() size
    for ((i = 0; i < 1500; i++)); do grep -q '接待' "$SLOG" && break; sleep 0.1; done
    for ((i = 0; i < ${#ops[@]}; i += 2)); do
        pids=()
        for op in "${ops[@]:i:2}"; do
            size=(--size 4096)
            [[ $op == fetch_add || $op == cmp_swap ]] && size=()   # 原子操作固定 8 字节
            timeout 300 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --cq event --op "$op" -q 4 --iters 3 "${size[@]}" -t 60 \
                >"$BATS_TEST_TMPDIR/c-$op.log" 2>&1 &
            pids+=($!)
        done
        for op in "${ops[@]:i:2}"; do
            rc=0
            wait "${pids[0]}" || rc=$?
            pids=("${pids[@]:1}")
            CLOG=$BATS_TEST_TMPDIR/c-$op.log
            [[ $rc == 0 ]] || { echo "客户端 --op $op 退出码 $rc"; show_logs; return 1; }
            no_valgrind_reports "$CLOG"
            has "$CLOG" "全部 3 轮 × 4 个QP 完成并校验通过"
        done
    done
    wait_server
    [[ $SRC == 0 ]] || { echo "服务端退出码 $SRC"; cat "$SLOG"; return 1; }
    no_valgrind_reports "$SLOG"
    has "$SLOG" "接受了 ${#ops[@]} 个客户端：成功 ${#ops[@]} 个，失败 0 个"
    # send 的客户端一定要睡下去等（对端的回复要过一会儿才到），讲解只在第一个事件时打印一次
    CLOG=$BATS_TEST_TMPDIR/c-send.log
    has "$CLOG" '完成通道已创建（ibv_create_comp_channel）: fd='
    has "$CLOG" '已武装 CQ（ibv_req_notify_cq, solicited_only=0）'
    has "$CLOG" '[完成通道] poll() 等到 fd'
    has "$CLOG" '先武装、后取空'
    has "$CLOG" '已销毁完成通道（ibv_destroy_comp_channel，共收到'
    has "$SLOG" '已销毁完成通道（ibv_destroy_comp_channel，共收到'
}

@test "make bench in miniature (tools/bench/compare.sh + report.sh, write_lat and write_bw at 64 B, the knobs on write_bw 64 B): results.csv parses, ours and perftest positive, knob table, plots written" {
    need_tool ib_write_lat
    need_tool gnuplot
    local out="$BATS_TEST_TMPDIR/bench"
    BENCH_OUT=$out BENCH_SIZES=64 BENCH_TESTS="write_lat write_bw" BENCH_LAT_ITERS=100 BENCH_CQ_SIZES=64 \
        BENCH_REPEAT=2 BENCH_KNOB_TESTS=write_bw BENCH_KNOB_SIZES=64 tools/bench/compare.sh >"$BATS_TEST_TMPDIR/compare.log" 2>&1 || { cat "$BATS_TEST_TMPDIR/compare.log"; return 1; }
    BENCH_OUT=$out tools/bench/report.sh
    [[ $(head -n1 "$out/results.csv") == "test,size,metric,ours,perftest,ratio" ]] || { head -n1 "$out/results.csv"; return 1; }
    awk -F, 'NR > 1 && !($4 + 0 > 0 && $5 + 0 > 0 && $6 + 0 > 0) { print "不是正数: " $0; bad = 1 } END { exit bad }' "$out/results.csv"
    [[ $(grep -c '^write_lat,64,' "$out/results.csv") == 4 && $(grep -c '^write_bw,64,' "$out/results.csv") == 3 ]]
    # 重复 2 次：reps.csv 每个指标 2 行，results.csv 里是它们的中位数（一行）
    [[ $(grep -c '^write_lat,64,t_typical_us,' "$out/reps.csv") == 2 ]]
    # 计时循环内的 CPU：客户端一定在干活；write_bw 的服务端不参与，是 0
    awk -F, 'NR > 1 && $3 == "client" && $4 == "cpu_s" && !($5 + 0 > 0 && $6 + 0 > 0) { print "cq.csv: " $0; bad = 1 } END { exit bad }' "$out/cq.csv"
    has "$out/results.md" '| write_bw | 64 | bw_avg_MBps |'
    # 旋钮：6 行（默认、--signal 100/1、--post-list 16、--tx-depth 16、--inline 64），每行带宽为正
    [[ $(tail -n +2 "$out/knobs.csv" | wc -l) == 6 ]] || { cat "$out/knobs.csv"; return 1; }
    awk -F, 'NR > 1 && !($4 + 0 > 0) { print "knobs.csv: " $0; bad = 1 } END { exit bad }' "$out/knobs.csv"
    has "$out/results.md" '| write_bw | 64 | --post-list 16 |'
    [[ -s $out/latency.svg && -s $out/bandwidth.svg ]]
}
