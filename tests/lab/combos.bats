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


# 等设备端口 1 的 sent_pkts（rxe 的 hw_counters）从现在起再涨 N 个包，最多 S 秒
until_sent() {  # until_sent 设备 包数 秒
    local f="/sys/class/infiniband/$1/ports/1/hw_counters/sent_pkts" base now i
    base=$(<"$f")
    for ((i = 0; i < $3 * 10; i++)); do
        now=$(<"$f")
        ((now - base >= $2)) && return 0
        sleep 0.1
    done
    echo "$3 秒内 $1 只发了 $((now - base)) 个包（要 $2 个）"
    return 1
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

# 两个 trace 的 HELLO 事件带着第 3 版的三个字段：发出的一端报的是自己设备的 max_qp_rd_atom、max_qp_init_rd_atom
# （ibv_devinfo -v，大于 255 记作 255）和 GID 类型（rxe 只有 RoCE v2 条目：2），收到的一端记下的和对端发出的相同
trace_hello_v3() {  # trace_hello_v3 服务端trace 服务端设备 客户端trace 客户端设备
    local caps=() f
    for f in "$2" "$4"; do
        caps+=("$(ibv_devinfo -v -d "$f" | awk '/max_qp_rd_atom:/ { a = $2 } /max_qp_init_rd_atom:/ { b = $2 } END { print a "," b }')")
    done
    python3 - "$1" "${caps[0]}" "$3" "${caps[1]}" <<'PYEOF'
import json, sys
hello = {}
for path, caps in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    rd, init = (min(255, int(v)) for v in caps.split(","))
    ev = {e["ev"]: e["hello"] for e in map(json.loads, open(path)) if e.get("msg") == "HELLO"}
    assert set(ev) == {"ctrl_send", "ctrl_recv"}, f"{path}: HELLO 事件 {sorted(ev)}"
    sent = ev["ctrl_send"]
    want = {"rd_atom": rd, "init_rd_atom": init, "gid_type": 2}
    got = {k: sent.get(k) for k in want}
    assert got == want, f"{path}: 发出的 HELLO {got}，设备和 GID 表说 {want}"
    hello[path] = ev
s, c = hello[sys.argv[1]], hello[sys.argv[3]]
for a, b, what in ((s["ctrl_recv"], c["ctrl_send"], "服务端收到的"), (c["ctrl_recv"], s["ctrl_send"], "客户端收到的")):
    for k in ("rd_atom", "init_rd_atom", "gid_type", "flags"):
        assert a.get(k) == b.get(k), f"{what} {k}={a.get(k)}，对端发出的是 {b.get(k)}"
print(f"# HELLO v3 字段: 服务端发 {[s['ctrl_send'][k] for k in ('rd_atom', 'init_rd_atom', 'gid_type')]}，"
      f"客户端发 {[c['ctrl_send'][k] for k in ('rd_atom', 'init_rd_atom', 'gid_type')]}", file=sys.stderr)
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
    # HELLO 事件的 rd_atom、init_rd_atom、gid_type（--cm 时是 CM 用的那个 GID 条目的类型）
    trace_hello_v3 "$ts" "$LAB_DEV0" "$tc" "$LAB_DEV1"
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
    local wall cpid t0 dt stopped
    # 1 MiB × 200 次 WRITE 在 TCG 下要好几秒（约 40 MB/s），比 -t 2 长：服务端程序在计时期间只是等客户端的 DONE，
    # 客户端每 -t/3 发一个心跳（SYNC_ALIVE），服务端每收到一个就重新计时。
    # --tx-depth 4：客户端每等一个完成也以 -t 为限。默认的 bw 窗口（128 个在途、每 16 个 WR 要一个完成）时一个完成代表
    # 16 MiB，机器忙、TCG 只剩几 MB/s 时 2 秒内等不到（见过“轮询CQ超时（2 秒内只收到 0/1 个完成）”）；
    # 4 个在途、每个 WR 都要完成时一个完成只代表 1 MiB，-t 量的就只是对端还在不在，不是机器有多快
    start_server --bench bw --op write -q 1 --size 1M --iters 200 --tx-depth 4 -t 2
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench bw --op write -q 1 --size 1M --iters 200 --tx-depth 4 -t 2
    wait_server
    ok_both
    wall=$(sed -n 's/^BENCH_RESULT .* wall_s=\([0-9.]*\).*/\1/p' "$CLOG")
    awk -v w="$wall" 'BEGIN { exit !(w > 2.0) }' || { echo "计时只有 ${wall}s，不比 -t 长：这个用例没测到东西"; return 1; }
    # 延迟的 READ 也是（服务端网卡应答，服务端程序只等 DONE）：心跳在两个样本之间发，不在任何样本里。
    # 64 KiB × 2400（和以前的 1 MiB × 150 一样多的字节）：一个样本就是一次 READ，机器忙时 1 MiB 的应答（1024 个包）
    # 在 ACK 超时（67 ms）里到不齐，请求方重发、响应方从头再答，见过 RETRY_EXC_ERR 和服务端 2 秒没等到心跳；
    # 64 个包的应答在忙的时候也远在 67 ms 之内
    start_server --bench lat --op read -q 1 --size 64K --iters 2400 -t 2
    run_client "$LAB_IP0" -d "$LAB_DEV1" --bench lat --op read -q 1 --size 64K --iters 2400 -t 2
    wait_server
    ok_both
    wall=$(sed -n 's/^BENCH_RESULT .* wall_s=\([0-9.]*\).*/\1/p' "$CLOG")
    awk -v w="$wall" 'BEGIN { exit !(w > 2.0) }' || { echo "READ 延迟计时只有 ${wall}s，不比 -t 长：这个用例没测到东西"; return 1; }
    # 客户端在计时循环里被 SIGSTOP（进程还在、连接还开着、心跳停了）：服务端在 -t 之内放弃，不是等到天荒地老。
    # 机器忙的时候（TCG）每一步都慢，所以不按固定的秒数猜进度，而是等看得见的事：表头打印了、客户端的设备真的在发
    # （表头之后 rxe1 的 sent_pkts 涨了 25 条 1 MiB 消息的包数：21 条预热已经过去，它在计时循环里），
    # 停住之后量到服务端的日志里出现超时那一句为止（服务端之后的拆除和退出不算进“发现”的时间）
    start_server --bench bw --op write -q 1 --size 1M --iters 100000 --tx-depth 4 -t 2
    CLOG="$BATS_TEST_TMPDIR/client.log"
    timeout 60 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --bench bw --op write -q 1 --size 1M --iters 100000 --tx-depth 4 -t 2 >"$CLOG" 2>&1 &
    cpid=$!
    stopped=$(child_pid "$cpid")
    wait_for "$CLOG" 'BW peak[MB/sec]' 60 || { show_logs; return 1; }
    until_sent "$LAB_DEV1" $((25 * 1024)) 60 || { show_logs; return 1; }
    t0=$EPOCHREALTIME
    kill -STOP "$stopped"
    wait_for "$SLOG" '错误: 等待对端的同步消息超时（2 秒' 30 || { kill -9 "$stopped"; show_logs; return 1; }
    dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    wait_server
    kill -9 "$stopped"
    awk -v d="$dt" 'BEGIN { exit !(d < 8) }' || { echo "服务端过了 ${dt} 秒才发现"; show_logs; return 1; }
    echo "# 停住客户端之后 ${dt} 秒服务端报超时" >&3
    [[ $SRC == 1 ]] || { show_logs; return 1; }
}
