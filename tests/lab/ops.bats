#!/usr/bin/env bats
# ops.bats - 单边操作、原子操作、多轮与交互模式（在 lab/run 里运行，真实 rdma_rxe）

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}

# 一个操作 × QP数 × 大小 × 3 轮：两端都成功，且都报告全部校验通过；
# 全程没有 RNR NAK（接收方总是先投递接收、再让发送方发）。测试版的程序（build/test/，tests/plugins/sync_delay.c）按
# ROCE_TEST_SYNC_DELAY_MS 让两端每发出一个同步消息就停 30 ms：若 READY 在投递接收之前发出，对端的 SEND 必定先到，RNR 计数一定增加
check_op() {
    local op=$1 nqp=$2 size=$3 rnr
    rnr_count
    rnr=$RNR
    SERVER=$TEST_SERVER CLIENT=$TEST_CLIENT ROCE_TEST_SYNC_DELAY_MS=30 run_pair --op "$op" -q "$nqp" --size "$size" --iters 3 -t 30
    assert_ok_pair
    has "$CLOG" "全部 3 轮 × $nqp 个QP 完成并校验通过"
    has "$SLOG" "全部 3 轮 × $nqp 个QP 完成并校验通过"
    assert_no_rnr "$rnr"
}

# 每种操作三组：1 个QP × 1 B（最小的消息），4 个QP × 4 KiB（多QP、多于一个包），4 个QP × 1 MiB（1024 个包）
check_op_set() {
    check_op "$1" 1 1
    check_op "$1" 4 4096
    check_op "$1" 4 1M
}

# --inject payload：发送数据的一方在第1轮发出前改坏 QP[0] 中间的一个字节；
# 接收数据的一方校验失败并说出偏移，两端都以 1 退出
check_corrupt() {  # check_corrupt OP 注入的一方(server|client) 校验的一方的日志里要有的词
    local op=$1 who=$2 sargs=() cargs=()
    if [[ $who == server ]]; then sargs=(--inject payload); else cargs=(--inject payload); fi
    start_server -d "$LAB_DEV0" --op "$op" -q 2 --size 4K --iters 2 -t 10 "${sargs[@]}"
    run_client "$LAB_IP0" -d "$LAB_DEV1" --op "$op" -q 2 --size 4K --iters 2 -t 10 "${cargs[@]}"
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    local injector=$CLOG checker=$SLOG
    if [[ $who == server ]]; then injector=$SLOG; checker=$CLOG; fi
    has "$injector" '故障注入(--inject payload): 第1轮 QP[0] 偏移 2048 的字节'
    has "$checker" "错误: QP[0] 第1轮$3校验失败：第一个不同的字节在偏移 2048"
    has "$checker" '4096 字节中共 1 字节不对'
}

@test "send: 1 QP × 1 B, 4 QPs × 4 KiB and 1 MiB, 3 rounds, every byte verified" {
    check_op_set send
    has "$SLOG" "QP[3] 第3轮收到: 1048576 字节校验通过"
    has "$SLOG" '消息 1048576 字节 > 路径MTU 1024：网卡把它切成 1024 个包发出'
}

@test "write: passive side sees no completion, then finds the data in its memory" {
    check_op_set write
    has "$SLOG" 'RDMA WRITE 不消耗接收请求、不产生完成事件'
    has "$SLOG" 'QP[3] 第3轮内存中的数据: 1048576 字节校验通过 "[client QP3 round3]'
    has "$SLOG" '权限=LOCAL_WRITE|REMOTE_WRITE'
    has "$CLOG" '权限=0（无）'
}

@test "read: client reads the server's buffer and verifies it" {
    check_op_set read
    has "$CLOG" 'QP[3] 第3轮读到: 1048576 字节校验通过 "[server QP3 round3]'
    has "$SLOG" '权限=REMOTE_READ'
    # READ 深度来自两端设备的上限（HELLO 里交换），不是以前固定的 4：rxe 的 max_qp_rd_atom/max_qp_init_rd_atom 都是 128
    has "$CLOG" 'max_qp_rd_atom=128 max_qp_init_rd_atom=128'
    has "$CLOG" '这里 max_rd_atomic=128 = min(本端 max_qp_init_rd_atom 128, 对端 max_qp_rd_atom 128)'
    has "$SLOG" 'max_dest_rd_atomic=128 是本端同时为对端处理的 READ/原子请求数 = min(本端 max_qp_rd_atom 128, 对端 max_qp_init_rd_atom 128)'
    # 读回的 QP 属性就是设置的值（rxe 不把它调小）
    has "$CLOG" 'rnr_retry=7  max_rd_atomic=128'
    has "$SLOG" 'max_dest_rd_atomic=128  min_rnr_timer=12'
}

@test "write_imm: the receiver gets a completion carrying the immediate value" {
    check_op_set write_imm
    has "$SLOG" 'QP[3] 完成: RECV_RDMA_WITH_IMM imm_data=0x00030003（第3轮, QP3）byte_len=1048576'
}

# 接收方的两种校验：SEND 收到的、READ 读到的（WRITE 的“内存中的数据”走同一个 verify()）；
# 完成错误（rkey、接收缓冲区太小……）在故障画廊里，每个内核都查（tests/38-lab-trace.t）
@test "injected payload corruption: the receiver's byte check names the offset; both exit 1 (send, read); --inject inline at a size the driver inlines is refused" {
    check_corrupt send client '收到'
    check_corrupt read server '读到'
    # --inject inline 的消息不比驱动取整后的 max_inline_data 大时什么也演示不了（rxe 把要的 0 取整成 16）：
    # 建 QP 后就拒绝并说出上限，不用连服务端
    run_client "$LAB_IP0" -d "$LAB_DEV1" --op send --size 16 --inject inline -t 5
    [[ $CRC == 1 ]] || { cat "$CLOG"; return 1; }
    grep -qE '^错误: --inject inline 要 --size 大于 [0-9]+：驱动把 max_inline_data 取整成了 [0-9]+（要的是 0），$' "$CLOG" \
        || { cat "$CLOG"; return 1; }
    has "$CLOG" '不超过它的 inline WR 会被驱动接受，看不到任何错误'
}

# 早于 6.1 的内核（实测 5.10）：rxe 不执行原子操作，客户端 RETRY_EXC_ERR，提示点名内核（docs/KERNELS.md）
atomic_fails_on_old_rxe() {
    run_pair --op "$1" -q 1 --iters 1 -t 10
    [[ $CRC == 1 && $SRC == 1 ]] || { show_logs; return 1; }
    assert_rxe_kernel_note "$CLOG"
}

@test "fetch_add: returned originals and the final value equal the expected sums (before 6.1: RETRY_EXC_ERR and the kernel hint)" {
    if rxe_before_6_1; then atomic_fails_on_old_rxe fetch_add; return; fi
    for q in 1 4; do
        run_pair --op fetch_add -q "$q" --iters 5
        assert_ok_pair
    done
    has "$CLOG" 'QP[3] 第5轮 FETCH_ADD +4: 返回原值 4000016（正确），远端现在是 4000020'
    has "$SLOG" 'QP[3] 目标字: 初值 4000000 → 终值 4000020'
    has "$CLOG" '服务端确认：目标字的终值正确'
}

@test "cmp_swap: a matching compare succeeds, a stale compare fails and leaves memory alone (before 6.1: RETRY_EXC_ERR and the kernel hint)" {
    if rxe_before_6_1; then atomic_fails_on_old_rxe cmp_swap; return; fi
    for q in 1 4; do
        run_pair --op cmp_swap -q "$q" --iters 3 --offset 8
        assert_ok_pair
    done
    has "$CLOG" 'QP[1] 第3轮 CAS(比较 2000002, 交换 2000003): 原值 2000002 → 成功；CAS(比较 2001002, 交换 0): 原值 2000003 ≠ 比较值 → 失败，远端不变'
    has "$SLOG" 'QP[1] 目标字: 初值 2000000 → 终值 2000003'
}

@test "interactive session driven by a pipe: server shows each line, q ends both" {
    local rnr
    rnr_count
    rnr=$RNR
    start_server -d "$LAB_DEV0" --interactive -q 2
    run_client_stdin 'hello\nworld\nq\n' "$LAB_IP0" -d "$LAB_DEV1" --interactive -q 2
    wait_server
    assert_ok_pair
    has "$SLOG" '[服务端内存] 消息#1: hello'
    has "$SLOG" '[服务端内存] 消息#2: world'
    has "$SLOG" '[服务端内存] 消息#3: q'
    has "$SLOG" '收到 q，服务端结束'
    has "$CLOG" '已通过 QP[0] RDMA WRITE 6 字节到服务端'
    has "$CLOG" '已通过 QP[1] RDMA WRITE 6 字节到服务端'
    has "$CLOG" 'RDMA READ 读回: world'
    assert_no_rnr "$rnr"
}

@test "interactive race forced: server waits 300 ms after each ACK, still sees every line and quits only on q" {
    # ROCE_TEST_SYNC_DELAY_MS 是测试版程序的延迟（build/test/，tests/plugins/sync_delay.c）：每发一个同步消息停 300 ms。
    # 客户端收到 ACK 后立即写下一行。服务端若在 ACK 之后才比较文本，看到的已是下一行（这里是 q），
    # 就会在处理消息#2 时提前退出、永远不 ACK #3——每次都会，不再是七次里一次。
    SERVER=$TEST_SERVER ROCE_TEST_SYNC_DELAY_MS=300 start_server -d "$LAB_DEV0" --interactive -q 2
    run_client_stdin 'hello\nworld\nq\n' "$LAB_IP0" -d "$LAB_DEV1" --interactive -q 2
    wait_server
    assert_ok_pair
    has "$SLOG" '[服务端内存] 消息#2: world'
    has "$SLOG" '[服务端内存] 消息#3: q'
    has "$SLOG" '收到 q，服务端结束'
    has "$CLOG" 'RDMA READ 读回: q'
}

@test "interactive: the server keeps its QP until the client has read back q (client waits 1 s before each READ)" {
    # ROCE_TEST_READ_DELAY_MS 是测试版程序的延迟（build/test/，tests/plugins/read_delay.c）：客户端 WRITE 完成后停 1 s 再 READ。
    # 服务端若看到 q 就拆 QP，客户端最后的 READ 没人应答，以 RETRY_EXC_ERR 结束（机器忙时偶尔会这样）
    start_server -d "$LAB_DEV0" --interactive
    CLIENT=$TEST_CLIENT ROCE_TEST_READ_DELAY_MS=1000 run_client_stdin 'hello\nq\n' "$LAB_IP0" -d "$LAB_DEV1" --interactive
    wait_server
    assert_ok_pair
    has "$CLOG" 'RDMA READ 读回: q'
    has "$SLOG" '收到 q，服务端结束'
}

@test "interactive: stdin closed early counts as q, both exit 0" {
    start_server -d "$LAB_DEV0" --interactive
    run_client_stdin 'only line\n' "$LAB_IP0" -d "$LAB_DEV1" --interactive
    wait_server
    assert_ok_pair
    has "$CLOG" '标准输入已结束(EOF)，按 q 处理'
    has "$SLOG" '[服务端内存] 消息#1: only line'
    has "$SLOG" '收到 q，服务端结束'
}

@test "server killed mid-transfer: client reports it and exits 1 within seconds" {
    start_server -d "$LAB_DEV0" --op write --size 4K --iters 1000000 -t 10
    CLOG="$BATS_TEST_TMPDIR/client.log"
    CRC=0
    timeout 60 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --op write --size 4K --iters 1000000 -t 10 >"$CLOG" 2>&1 &
    local cpid=$!
    wait_for "$CLOG" '第2轮' 30
    # 模拟服务端机器突然消失：SIGKILL 服务端进程本身（不给它任何清理的机会）
    pkill -9 -x rdma_server
    wait "$SPID" 2>/dev/null || true
    SPID=
    SECONDS=0
    wait "$cpid" || CRC=$?
    [[ $CRC == 1 ]] || { echo "client rc=$CRC"; show_logs; return 1; }
    ((SECONDS < 30))
    has "$CLOG" '错误:'
    has "$CLOG" '客户端失败退出'
}

@test "bad operation arguments are refused before any verbs call" {
    run "$CLIENT" "$LAB_IP0" --size 0
    [[ $status == 2 && $output == *'消息大小无效'* ]]
    run "$CLIENT" "$LAB_IP0" --iters 0
    [[ $status == 2 && $output == *'轮数无效'* ]]
    run "$CLIENT" "$LAB_IP0" --op fetch_add --offset 4
    [[ $status == 2 && $output == *'未按 8 字节对齐'* ]]
    # 256 MiB 超过 rxe 端口的 max_msg_sz（8 MiB）：步骤3之后就拒绝，不创建 PD/MR
    # （“超过物理内存的一半”在 rxe 上走不到：8 MiB × 16 个QP 才 128 MiB；由单元测试 limits_memory 证明）
    run "$SERVER" -d "$LAB_DEV0" --size 256M -q 16
    [[ $status == 1 && $output == *'max_msg_sz=8388608'* ]]
    [[ $output != *'ibv_alloc_pd'* && $output != *'ibv_reg_mr'* ]]
}

# 两个 rxe 设备的几个计数之和（重传、PSN 不对、重复的请求）
resend_counters() {
    local c f v n=0
    for c in completer_retry_err rcvd_seq_err out_of_seq_request duplicate_request; do
        for f in /sys/class/infiniband/rxe*/ports/1/hw_counters/"$c"; do
            [[ -r $f ]] || continue
            read -r v <"$f"
            n=$((n + v))
        done
    done
    echo "$n"
}

# 链路上丢包（tc netem，和 make demo NETEM="loss 2%" 是同一个 qdisc）：RC 照样把每个字节送到（两端退出 0、数据校验通过），
# 代价是重传——rxe 的计数动了。用例自己在两个方向上挂 netem，结束时拆掉（不影响后面的用例）
@test "netem loss 2% on the link: RC still delivers every byte (write 4 QPs × 64 KiB × 4), and rxe's resend counters move (sysfs and --counters)" {
    local before after
    modprobe sch_netem
    tc qdisc replace dev veth0 root netem limit 1000000 loss 2%
    tc qdisc replace dev veth1 root netem limit 1000000 loss 2%
    before=$(resend_counters)
    run_pair --op write -q 4 --size 64K --iters 4 -t 30 --counters
    after=$(resend_counters)
    tc qdisc del dev veth0 root
    tc qdisc del dev veth1 root
    assert_ok_pair
    has "$CLOG" "全部 4 轮 × 4 个QP 完成并校验通过"
    ((after > before)) || { echo "丢包 2% 时重传/PSN 计数没动（$before → $after）"; return 1; }
    # 程序自己的 --counters 也说出来了（哪一端的哪一个动了）
    cat "$SLOG" "$CLOG" | grep -qE '^  (completer_retry_err|rcvd_seq_err|out_of_seq_request|duplicate_request) +\+[1-9]' \
        || { echo "--counters 没有打印动了的重传/PSN 计数"; grep -A12 '端口计数' "$SLOG" "$CLOG"; return 1; }
    echo "# resend counters $before -> $after" >&3
}

# --ack-timeout（RTS 的 timeout 指数）在延迟下：两个方向各 20 ms（往返 ≥ 40 ms），默认的 14（≈67 ms，rxe 取 16 个 jiffy = 64 ms）
# 几乎不重发；10（≈4.2 ms，rxe 取 1 个 jiffy = 4 ms）在应答回来之前就超时，重发的计数多得多（docs/LOSS-RECOVERY.md 量过：10 轮 35 对 5）。
# 只比较两次，不要求具体的数；小的那次可能用完 retry_cnt（RETRY_EXC_ERR），也算——要的是计数动得更多、QP 里读回的真是 10
@test "--ack-timeout under netem delay 20ms: a small exponent (10) resends far more than the default (14); the value read back from the QP is the one set" {
    local before mid after src0 crc0 dlog=$BATS_TEST_TMPDIR/default-client.log
    modprobe sch_netem
    tc qdisc replace dev veth0 root netem limit 1000000 delay 20ms
    tc qdisc replace dev veth1 root netem limit 1000000 delay 20ms
    before=$(resend_counters)
    run_pair --op write -q 1 --size 4K --iters 6 -t 20
    mid=$(resend_counters)
    src0=$SRC crc0=$CRC
    cp "$CLOG" "$dlog"
    run_pair --op write -q 1 --size 4K --iters 6 -t 20 --ack-timeout 10
    after=$(resend_counters)
    # 先拆掉 netem 再判断：失败时也不留给后面的用例
    tc qdisc del dev veth0 root
    tc qdisc del dev veth1 root
    [[ $src0 == 0 && $crc0 == 0 ]] || { echo "默认的 timeout 在延迟 20 ms 下失败了（$src0/$crc0）"; cat "$dlog"; return 1; }
    has "$dlog" "全部 6 轮 × 1 个QP 完成并校验通过"
    has "$dlog" 'timeout=14  retry_cnt=6'
    has "$CLOG" '设置: sq_psn=<本端PSN> timeout=10 retry_cnt=6'
    has "$CLOG" '4.096us×2^10≈4.2ms'
    has "$CLOG" 'timeout=10  retry_cnt=6'
    [[ $CRC == 0 ]] || has "$CLOG" 'transport retry counter exceeded'
    echo "# resend counters: default $((mid - before)), --ack-timeout 10: $((after - mid)) (client exit $CRC)" >&3
    ((after - mid > mid - before)) || { echo "--ack-timeout 10 没有比默认重发得多（$((mid - before)) 对 $((after - mid))）"; show_logs; return 1; }
}
