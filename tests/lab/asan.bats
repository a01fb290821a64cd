#!/usr/bin/env bats
# asan.bats - 用 ASan+UBSan 版本（make asan → build/asan/）在真实 rdma_rxe 上跑一遍：
# 六种操作 × 1 和 16 个QP、交互模式，以及主要的失败路径。任何 sanitizer 报告（越界、释放后使用、
# 泄漏、未定义行为）都写进 $ASAN_DIR，每个用例结束时必须为空。valgrind 抓不到栈/全局变量越界和 UB。

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

SERVER=build/asan/rdma_server
CLIENT=build/asan/rdma_client

setup() {
    [[ -x $SERVER && -x $CLIENT ]] || { echo "没有 $SERVER / $CLIENT：先 make asan" >&2; return 1; }
    ASAN_DIR="$BATS_TEST_TMPDIR/sanitizer"
    mkdir -p "$ASAN_DIR"
    # 报告写文件（不混进程序输出）；detect_leaks=1：退出时检查泄漏
    export ASAN_OPTIONS="log_path=$ASAN_DIR/asan:detect_leaks=1:exitcode=86:abort_on_error=0"
    export UBSAN_OPTIONS="log_path=$ASAN_DIR/ubsan:print_stacktrace=1:halt_on_error=1"
}

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}

# 没有任何 sanitizer 报告
no_reports() {
    local f
    for f in "$ASAN_DIR"/*; do
        [[ -e $f ]] || continue
        echo "sanitizer 报告 $f:"
        cat "$f"
        show_logs
        return 1
    done
}

# 每种操作一次，QP 数轮流是 16 和 1（两种都覆盖，又不把每种操作跑两遍）
@test "asan: every operation, 16 or 1 QPs in turn, both sides clean" {
    local op q=1 size
    for op in $(data_ops); do
        size=(--size 4K)
        [[ $op == fetch_add || $op == cmp_swap ]] && size=()
        q=$((q == 1 ? 16 : 1))
        run_pair --op "$op" -q "$q" "${size[@]}" --iters 2 -t 60
        assert_ok_pair
        has "$CLOG" "全部 2 轮 × $q 个QP 完成并校验通过"
        no_reports
    done
}

# RC 之外（docs/QP-TYPES.md）：UD 的地址句柄和 GRH 偏移、SRQ 的缓冲区号 ↔ QP 号和异步事件
@test "asan: UD (4 QPs) and SRQ (16 QPs, limit event), UD benchmarks (bw with drops, lat --sweep), both sides clean" {
    run_pair --qp ud --op send -q 4 --size 1000 --iters 2 -t 60
    assert_ok_pair
    has "$SLOG" "全部 2 轮 × 4 个QP 完成并校验通过"
    no_reports
    run_pair --srq --op send -q 16 --size 512 --iters 2 -t 60
    assert_ok_pair
    has "$SLOG" "异步事件: SRQ limit reached"
    no_reports
    # UD 的基准测试：带宽的服务端数丢包（晚投递接收，真的丢），延迟走 --sweep 到路径MTU
    ud_bw_late_recv_pair -q 2 --size 512 --iters 300 -t 60
    assert_ok_pair
    has "$SLOG" "BENCH_UD_RECV size=512 sent=662 "
    no_reports
    run_pair --qp ud --bench lat --op send -q 2 --sweep --iters 3 -t 60
    assert_ok_pair
    has "$CLOG" "BENCH_RESULT test=send_lat size=1024 "
    no_reports
}

@test "asan: interactive mode over a pipe, clean" {
    start_server -d "$LAB_DEV0" --interactive -q 2 -t 60
    run_client_stdin 'hello\nq\n' "$LAB_IP0" -d "$LAB_DEV1" --interactive -q 2 -t 60
    wait_server
    assert_ok_pair
    has "$SLOG" '收到 q，服务端结束'
    no_reports
}

@test "asan: failure paths (wrong rkey, mismatched QPs, garbage peer, unknown device, accept timeout) clean" {
    start_server -d "$LAB_DEV0" --op write -q 16 -t 20
    run_client "$LAB_IP0" -d "$LAB_DEV1" --op write -q 16 -t 20 --inject rkey
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    if rxe_before_6_1; then assert_rxe_kernel_note "$CLOG"; else has "$CLOG" '状态=remote access error (10)'; fi
    no_reports

    start_server -d "$LAB_DEV0" -q 4 -t 20
    run_client "$LAB_IP0" -d "$LAB_DEV1" -q 2 -t 20
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '远端QP数量(2)与本端不匹配(4)'
    no_reports

    start_server -d "$LAB_DEV0" -t 20
    http_peer
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '魔数不对'
    no_reports

    run_client "$LAB_IP0" -d mlx5_9
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    no_reports

    run timeout 120 "$SERVER" -d "$LAB_DEV0" --op read -q 16 --accept-timeout 1
    [[ $status == 1 && $output == *'已销毁 16 个QP'* ]] || { echo "$output"; return 1; }
    no_reports
}

@test "asan: server killed mid-transfer, the client's error path is clean" {
    start_server -d "$LAB_DEV0" --op send --size 4K --iters 1000000 -t 5
    CLOG="$BATS_TEST_TMPDIR/client.log"
    CRC=0
    timeout 120 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --op send --size 4K --iters 1000000 -t 5 >"$CLOG" 2>&1 &
    local cpid=$! i
    for ((i = 0; i < 600; i++)); do grep -q '第2轮' "$CLOG" && break; sleep 0.1; done
    pkill -9 -x rdma_server    # 杀服务端进程本身（$SPID 是外面的 timeout）
    wait "$SPID" 2>/dev/null || true
    SPID=
    wait "$cpid" || CRC=$?
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '客户端失败退出'
    no_reports
}

@test "asan: a planted heap overflow is reported (the check can fail)" {
    # 证明这套检查真的会报警：tests/33-lab-asan.t 在宿主机上编译了一个堆越界的小程序，
    # 用同样的 ASAN_OPTIONS/UBSAN_OPTIONS 运行，报告必须出现在 $ASAN_DIR 里，no_reports 必须失败。
    # （ASan 和 UBSan 共用一个运行时，log_path 以后解析的 UBSAN_OPTIONS 为准，所以文件叫 ubsan.PID）
    run build/asan/planted-overflow
    [[ $status == 86 ]] || { echo "status=$status $output"; return 1; }
    grep -q 'heap-buffer-overflow' "$ASAN_DIR"/*
    run no_reports
    [[ $status == 1 ]]
}
