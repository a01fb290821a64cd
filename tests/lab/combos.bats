#!/usr/bin/env bats
# combos.bats - 不同功能的选项组合在真实 rdma_rxe 上（docs/OPTIONS.md 的“选项怎样组合”表里的“可以”）：
# --cm × --bench、--cm × --trace、--bench × --cq event × --trace、
# 多客户端 × --cq event × --trace。--cm × --cq event × 每种操作在 cm.bats 里（poll、event 轮流）；各功能自己的细节在 cm.bats、bench.bats、trace、many.bats 里。

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}


ok_both() {
    if [[ $SRC != 0 || $CRC != 0 ]]; then
        show_logs
        return 1
    fi
    has "$SLOG" '服务端正常结束'
    has "$CLOG" '客户端正常结束'
}

# trace 文件每行都是 JSON，含有给定事件类型至少 N 个
trace_has() {  # trace_has 文件 事件 最少个数
    python3 - "$@" <<'PYEOF'
import json, sys
path, ev, least = sys.argv[1], sys.argv[2], int(sys.argv[3])
events = [json.loads(line) for line in open(path)]
n = sum(1 for e in events if e["ev"] == ev)
assert n >= least, f"{path}: {ev} 只有 {n} 个（要 ≥ {least}）"
assert events[-1]["ev"] == "end" and events[-1]["exit"] == 0, events[-1]
PYEOF
}

# 每个QP的第一个 post_send 的 psn_first 等于它 RTS 时读回的 sq_psn（--cm 时是 CM 定的起始PSN，不是 0）
trace_psn_starts() {  # trace_psn_starts 文件
    python3 - "$1" <<'PYEOF'
import json, sys
path = sys.argv[1]
events = [json.loads(line) for line in open(path)]
rts, first = {}, {}
for e in events:
    if e["ev"] == "qp_state" and e["state"] == "RTS":
        rts.setdefault(e["qp"], e["attr"]["sq_psn"])
    if e["ev"] == "post_send":
        first.setdefault(e["qp"], e["psn_first"])
assert first, f"{path}: 没有 post_send"
for qp, psn in first.items():
    assert qp in rts, f"{path}: QP[{qp}] 没有 RTS 的 qp_state"
    assert psn == rts[qp], f"{path}: QP[{qp}] 第一个 post_send 的 psn_first={psn}，RTS 的 sq_psn={rts[qp]}"
PYEOF
}

@test "--cm × --bench lat (write) and bw (send), with --cq event and --ack-timeout on the bw run" {
    cm_pair --bench lat --op write -q 1 --size 64 --iters 200 -t 30
    ok_both
    has "$CLOG" 'BENCH_RESULT'
    has "$CLOG" 't_typical'
    cm_pair --bench bw --op send -q 2 --size 4K --iters 400 --cq event -t 30 --ack-timeout 15
    ok_both
    has "$CLOG" 'BENCH_RESULT'
    # --ack-timeout 替换 rdma_init_qp_attr 给的 timeout（数据QP），读回的就是它
    has "$CLOG" 'timeout 改成 --ack-timeout 给的 15'
    has "$SLOG" 'timeout=15  retry_cnt=6'
}

@test "--cm × --trace: both traces are valid and have the work requests and completions" {
    local ts="$BATS_TEST_TMPDIR/s.jsonl" tc="$BATS_TEST_TMPDIR/c.jsonl"
    start_server --cm --op write -q 2 --size 2K --iters 2 --trace "$ts"
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" --op write -q 2 --size 2K --iters 2 --trace "$tc"
    wait_server
    ok_both
    trace_has "$tc" post_send 4
    trace_has "$tc" wc 4
    trace_has "$ts" qp_state 2
    # PSN 从 CM 定的起始PSN 数起（tools/trace/render 靠 psn_first 把包对上 WR）
    trace_psn_starts "$tc"
}

@test "--bench × --cq event × --trace: the timed loop runs, the trace has every WR" {
    local ts="$BATS_TEST_TMPDIR/s.jsonl" tc="$BATS_TEST_TMPDIR/c.jsonl"
    start_server -d "$LAB_DEV0" --bench bw --op write -q 1 --size 4K --iters 300 --cq event --trace "$ts"
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench bw --op write -q 1 --size 4K --iters 300 --cq event --trace "$tc"
    wait_server
    ok_both
    has "$CLOG" 'BENCH_RESULT'
    trace_has "$tc" post_send 300
}

@test "many clients × --cq event × --trace × --ack-timeout: two clients at once, each with its own ops and ACK timeout" {
    local ts="$BATS_TEST_TMPDIR/s.jsonl" c1 c2 rc1=0 rc2=0
    SLOG="$BATS_TEST_TMPDIR/server.log"
    new_ready_file
    timeout 300 "$SERVER" -d "$LAB_DEV0" --clients 2 --parallel 2 --cq event --trace "$ts" --ack-timeout 11 --ready-file "$READY" >"$SLOG" 2>&1 &
    SPID=$!
    wait_ready "$SPID" 60
    timeout 120 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --cq event --op read -q 3 --iters 2 -t 30 --ack-timeout 9 >"$BATS_TEST_TMPDIR/c1.log" 2>&1 &
    c1=$!
    timeout 120 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --cq event --op "$(kop fetch_add)" -q 2 --iters 2 -t 30 >"$BATS_TEST_TMPDIR/c2.log" 2>&1 &
    c2=$!
    wait "$c1" || rc1=$?
    wait "$c2" || rc2=$?
    wait_server
    [[ $SRC == 0 && $rc1 == 0 && $rc2 == 0 ]] || { cat "$SLOG" "$BATS_TEST_TMPDIR"/c?.log; return 1; }
    has "$SLOG" '接受了 2 个客户端：成功 2 个，失败 0 个'
    trace_has "$ts" qp_state 5
    # --ack-timeout 只管本端：服务端的每个会话 11，客户端 1 给了 9，客户端 2 没给（默认 14）
    has "$SLOG" 'timeout=11  retry_cnt=6'
    has "$BATS_TEST_TMPDIR/c1.log" 'timeout=9  retry_cnt=6'
    has "$BATS_TEST_TMPDIR/c2.log" 'timeout=14  retry_cnt=6'
}

@test "-t does not cut a long run: the waiting side gets heartbeats while the peer works (bench bw and lat read longer than -t), and notices a stopped peer within -t" {
    local wall cpid t0 stopped
    # 1 MiB × 200 次 WRITE 在 TCG 下要好几秒（约 40 MB/s），比 -t 2 长：服务端程序在计时期间只是等客户端的 DONE，
    # 客户端每 -t/3 发一个心跳（SYNC_ALIVE），服务端每收到一个就重新计时
    start_server --bench bw --op write -q 1 --size 1M --iters 200 -t 2
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench bw --op write -q 1 --size 1M --iters 200 -t 2
    wait_server
    ok_both
    wall=$(sed -n 's/^BENCH_RESULT .* wall_s=\([0-9.]*\).*/\1/p' "$CLOG")
    awk -v w="$wall" 'BEGIN { exit !(w > 2.0) }' || { echo "计时只有 ${wall}s，不比 -t 长：这个用例没测到东西"; return 1; }
    # 延迟的 READ 也是（服务端网卡应答，服务端程序只等 DONE）：心跳在两个样本之间发，不在任何样本里
    start_server --bench lat --op read -q 1 --size 1M --iters 150 -t 2
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench lat --op read -q 1 --size 1M --iters 150 -t 2
    wait_server
    ok_both
    wall=$(sed -n 's/^BENCH_RESULT .* wall_s=\([0-9.]*\).*/\1/p' "$CLOG")
    awk -v w="$wall" 'BEGIN { exit !(w > 2.0) }' || { echo "READ 延迟计时只有 ${wall}s，不比 -t 长：这个用例没测到东西"; return 1; }
    # 客户端在计时循环里被 SIGSTOP（进程还在、连接还开着、心跳停了）：服务端在 -t 之内放弃，不是等到天荒地老
    start_server --bench bw --op write -q 1 --size 1M --iters 100000 -t 2
    CLOG="$BATS_TEST_TMPDIR/client.log"
    timeout 60 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --bench bw --op write -q 1 --size 1M --iters 100000 -t 2 >"$CLOG" 2>&1 &
    cpid=$!
    for ((i = 0; i < 300; i++)); do grep -q 'BW peak' "$CLOG" 2>/dev/null && break; sleep 0.1; done
    sleep 3
    stopped=$(child_pid "$cpid")
    t0=$SECONDS
    kill -STOP "$stopped"
    wait_server
    kill -9 "$stopped"
    (( SECONDS - t0 < 8 )) || { echo "服务端过了 $((SECONDS - t0)) 秒才发现"; show_logs; return 1; }
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '错误: 等待对端的同步消息超时（2 秒'
}
