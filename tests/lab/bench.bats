#!/usr/bin/env bats
# bench.bats - --bench lat|bw 与 --cq event 在真实 rdma_rxe 上（tests/39-lab-bench.t，一次开机）：
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

# 每行 BENCH_RESULT 的数字和它自己的计数、时间对得上（tools/bench/consistency.awk：bw_avg = size×iters×qps/wall_s/2^20 …）
consistent() {  # consistent 日志
    if ! awk -f tools/bench/consistency.awk "$1"; then
        show_logs
        return 1
    fi
}

# trace 里 post_send 事件的个数：全部、inline 的、signaled 的（空格分开）
post_sends() {  # post_sends trace文件
    python3 - "$1" <<'PYEOF'
import json, sys
ev = [e for e in map(json.loads, open(sys.argv[1])) if e["ev"] == "post_send"]
print(len(ev), sum(1 for e in ev if e["inline"]), sum(1 for e in ev if e["signaled"]))
PYEOF
}

# 发送方 rxe 设备的重传次数（hw_counters/completer_retry_err），放进 RETRIES（不用命令替换：TCG 里每次 fork 都慢）
sender_retries() {
    RETRIES=0
    read -r RETRIES 2>/dev/null <"/sys/class/infiniband/$LAB_DEV1/ports/1/hw_counters/completer_retry_err" || :
}

# 刚跑完的一对是不是 6.1 的 rxe 的已知故障（src/verbs/kernel_note.c 的 rxe_srq_retry_note，docs/KERNELS.md）：
# 发送方重传（超时，或 SRQ 被取空后的 RNR NAK）时，接收方收到和原来对不上的包。只认恰好这个样子：内核 6.1、两边都失败、
# 服务端是 SRQ 接收的 LOC_QP_OP_ERR 或 REM_INV_REQ_ERR、客户端是 REM_OP_ERR 或 REM_INV_REQ_ERR、两边都打印了点名它的
# 内核提示、这一次客户端的 rxe1 真的重传过（completer_retry_err 比跑之前大）
rxe_srq_retry_fault() {  # rxe_srq_retry_fault 跑之前的completer_retry_err
    local note
    note="提示(内核): 这台机器运行的内核是 $(uname -r)，本程序的接收走 SRQ"
    sender_retries
    [[ $(uname -r) == 6.1.* && $SRC != 0 && $CRC != 0 ]] && ((RETRIES > $1)) &&
        grep -Eq 'SRQ 的接收（缓冲区 [0-9]+，QP\[[0-9]+\]） 状态=(local QP operation error \(2\)|remote invalid request error \(9\))' "$SLOG" &&
        grep -Eq '状态=remote (operation error \(11\)|invalid request error \(9\))' "$CLOG" &&
        grep -qF "$note" "$SLOG" && grep -qF "$note" "$CLOG"
}

# 一个基准形式：两端成功、清理完整、表头和一行数据、BENCH_RESULT 的数字为正且自洽、两端都报 CPU。
# --srq 时碰上 6.1 的 rxe 的已知故障（rxe_srq_retry_fault）：记一行 TAP 注释，再跑一次，这一次必须通过
# （程序自己的错——接收缓冲区、长度、lkey 不对——每次都出现，再跑照样失败）
check_bench() {  # [SIZE=字节] check_bench lat|bw OP QP数 [更多参数]
    local mode=$1 op=$2 q=$3 size=${SIZE:-4096} retries
    shift 3
    sender_retries
    retries=$RETRIES
    run_pair --bench "$mode" --op "$op" -q "$q" --size "$size" --iters 200 -t 30 "$@"
    if [[ " $* " == *" --srq "* ]] && rxe_srq_retry_fault "$retries"; then
        echo "# 6.1 的 rxe 的已知故障（重传时收到对不上的包；docs/KERNELS.md）：$(grep -h '错误: 工作完成' "$SLOG" "$CLOG" | tr '\n' ' ')；再跑一次" >&3
        run_pair --bench "$mode" --op "$op" -q "$q" --size "$size" --iters 200 -t 30 "$@"
    fi
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
    consistent "$CLOG"
}

# make test 的时间有限：lat 用 1 个QP、bw 用 4 个QP（16 个QP 在旋钮用例里）
@test "bench lat: send, write, read, write_imm at 1 QP; tables parse, numbers positive, data checked after the loop" {
    for op in send write read write_imm; do check_bench lat "$op" 1; done
    has "$CLOG" '不测什么: 建连、注册内存、TCP 同步、打印和数据校验都在计时之外'
}

# 议题 52（高）：READ 延迟的客户端每 -t/3 发一个心跳（服务端程序只是等 DONE），发心跳那一段 D 要从时间轴上拿掉。
# 以前先把 D 加进 paused 再记这一次的开始时刻，上一个样本少了 D（D 比一个 READ 长时为负：t_min = −792.55 µs），下一个多了 D。
# 这里跑得比 -t 长（-t 3：每秒一个心跳；计时窗口至少 2 秒才算测到了几个心跳），最小的样本必须为正、而且和中位数同一个量级
@test "bench lat read over several heartbeats (-t 3): t_min positive and of the order of t_typical (heartbeat not inside a sample)" {
    local tmin ttyp wall
    CMD_TIMEOUT=240 run_pair --bench lat --op read -q 1 --size 64 --iters 60000 -t 3
    assert_ok_pair
    tmin=$(field "$CLOG" t_min_us) ttyp=$(field "$CLOG" t_typical_us) wall=$(field "$CLOG" wall_s)
    echo "# t_min=$tmin t_typical=$ttyp wall_s=$wall" >&3   # 通过时也打印（TAP 的注释行）
    awk -v w="$wall" 'BEGIN{exit !(w >= 2)}' || { echo "计时窗口只有 $wall 秒，不到两个心跳，这个用例没测到东西"; return 1; }
    positive t_min_us "$tmin"
    awk -v a="$tmin" -v b="$ttyp" 'BEGIN{exit !(a >= b / 4)}' || { echo "t_min $tmin 比中位数 $ttyp 的四分之一还小"; show_logs; return 1; }
}

@test "bench bw: send, write, read, write_imm at 4 QPs (window, selective signaling, batch polling)" {
    for op in send write read; do check_bench bw "$op" 4; done
    # --counters（issue 39）：这个大小前后（计时循环之外，含预热）的计数差值在 BENCH_RESULT 末尾：至少 4 个QP × 200 次 × 4 个包
    check_bench bw write_imm 4 --counters
    local sent
    sent=$(field "$CLOG" ctr_sent_pkts)
    awk -v v="$sent" 'BEGIN { exit !(v + 0 >= 3200) }' || { echo "ctr_sent_pkts='$sent'，应至少 3200"; show_logs; return 1; }
    has "$SLOG" '端口计数（--counters）: rxe0 端口 1'
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

@test "bench --srq (issue 26): send lat at 2 QPs and send bw at 4 QPs share one SRQ of the per-QP depth, one buffer per outstanding receive; tables parse, data checked in the buffers that received" {
    check_bench lat send 2 --srq
    has "$SLOG" 'SRQ 已创建: 深度 '
    has "$SLOG" '基准测试: 一个接收队列的深度给全部QP共用，像 perftest --use-srq'
    has "$CLOG" '接收: 一个 SRQ（深度 '
    # 每个在途的接收有自己的缓冲区（issue 37 第 4 条：以前 16 个接收轮流用 2 块，两个QP的消息会落进同一块）
    has "$SLOG" '另有 16 块 × 4096 字节给 SRQ 的接收'
    check_bench bw send 4 --srq
    has "$SLOG" '个QP共用，消息落在哪个缓冲区由 SRQ 决定（像 ib_send_bw --use-srq'
    has "$SLOG" '另有 128 块 × 4096 字节给 SRQ 的接收'
}

# 服务端的 BENCH_UD_RECV：客户端发出 want 条；收到的不多于发出的、至少 min_got 条；丢的 = 差、至少 min_lost 条
ud_recv_counts() {  # ud_recv_counts 说明 want min_got min_lost
    local line sent got lost
    line=$(grep '^BENCH_UD_RECV ' "$SLOG")
    sent=$(sed -E 's/.* sent=([0-9]+).*/\1/' <<<"$line") got=$(sed -E 's/.* received=([0-9]+).*/\1/' <<<"$line")
    lost=$(sed -E 's/.* lost=([0-9]+).*/\1/' <<<"$line")
    echo "# UD bw $1: $line" >&3
    [[ $sent == "$2" && $got -ge $3 && $got -le $2 && $lost == $((sent - got)) && $lost -ge $4 ]] || { show_logs; return 1; }
}

# 议题 26：--qp ud 的基准测试（像 ib_send_lat/ib_send_bw -c UD）。UD 没有流控：带宽的服务端数收到和丢掉的，
# 等客户端在控制平面上说发完了就停（不会等到超时）；--sweep 只扫到路径MTU（实验室 1024 字节：2..1024 是 10 行）
@test "bench --qp ud (issue 26): send lat at 2 QPs, send bw at 4 QPs (poll and --cq event) with the server counting received and lost messages; --sweep stops at the path MTU" {
    SIZE=1024 check_bench lat send 2 --qp ud
    has "$CLOG" 'UD（像 ib_send_lat -c UD）: 每个 WR 带地址句柄和对端 QP 号，接收缓冲区多 40 字节 GRH'
    has "$SLOG" '地址句柄已创建（ibv_create_ah）'
    for cq in poll event; do
        SIZE=1024 check_bench bw send 4 --qp ud --cq "$cq"
        has "$SLOG" 'UD 接收（服务端）: 客户端发出 884 条（预热 + 计时，4 个QP）'
        # 884 = (200 + 预热 21) × 4；至少收到一条（数据校验看的就是它）
        ud_recv_counts "--cq $cq" 884 1 0
    done
    # 丢包真的发生时数得出来：服务端晚 200 毫秒才投递接收，这期间到达的消息被丢掉，两端照样退出 0
    ud_bw_late_recv_pair -q 2 --size 1024 --iters 2000 -t 30
    assert_ok_pair
    has "$SLOG" '故障注入(--inject late-recv): 已告诉客户端“可以发了”，但 200 毫秒后才投递接收'
    has "$SLOG" '到达时接收队列空着的消息被网卡丢掉，发送方不知道（UD 没有流控、没有 RNR）'
    ud_recv_counts late-recv 4402 0 1
    run_pair --bench lat --op send --qp ud -q 1 --sweep --iters 5 -t 60
    assert_ok_pair
    has "$CLOG" 'UD: --sweep 只扫到路径MTU 1024 字节'
    [[ $(grep -c '^BENCH_RESULT test=send_lat' "$CLOG") == 10 ]] || { show_logs; return 1; }
    has "$CLOG" 'BENCH_RESULT test=send_lat size=1024 '
    consistent "$CLOG"
}

@test "bench --sweep: every size from 2 B to 8 MiB, one row each" {
    run_pair --bench bw --op write -q 1 --sweep --iters 4 -t 60
    assert_ok_pair
    [[ $(grep -c '^BENCH_RESULT test=write_bw' "$CLOG") == 23 ]] || { show_logs; return 1; }
    has "$CLOG" 'BENCH_RESULT test=write_bw size=2 '
    has "$CLOG" 'BENCH_RESULT test=write_bw size=8388608 '
    consistent "$CLOG"
}

# 议题 22 第 4 条：延迟的 --signal 按QP数。按全局序号数时 -q 2 --signal 2 的 QP0 永远没有 signaled 的 WR，
# 硬件上第 17 个 WR 就 ENOMEM；rxe 不在乎，所以靠数据面的发送队列记账（sq_account.h）在这里报错
@test "bench lat -q 2 --signal 2 (send, write) and --sweep: every QP gets signaled WRs, the send-queue account (hardware rule) never refuses a post" {
    check_bench lat send 2 --signal 2
    check_bench lat write 2 --signal 2
    run_pair --bench lat --op write -q 2 --signal 2 --sweep --iters 3 -t 60
    assert_ok_pair
    [[ $(grep -c '^BENCH_RESULT test=write_lat' "$CLOG") == 23 ]] || { show_logs; return 1; }
    consistent "$CLOG"
}

# 议题 22 第 7 条：inline 看 --inline（要的值），不看驱动写回的 max_inline_data（rxe 把 0 取整成 16）
@test "bench --inline: with --inline 0 no WR is posted inline (rxe reports max_inline_data 16), with --inline 64 every 8 B WR is (trace)" {
    local tc="$BATS_TEST_TMPDIR/client.jsonl" n
    for inl in 0 64; do
        rm -f "$tc"
        start_server -d "$LAB_DEV0" --bench lat --op send -q 1 --size 8 --iters 20 --inline "$inl" -t 30
        run_client "$LAB_IP0" -d "$LAB_DEV1" --bench lat --op send -q 1 --size 8 --iters 20 --inline "$inl" -t 30 --trace "$tc"
        wait_server
        assert_ok_pair
        read -r -a n <<<"$(post_sends "$tc")"
        echo "--inline $inl: post_send ${n[0]}，inline ${n[1]}"
        ((n[0] >= 20)) || { show_logs; return 1; }
        if ((inl == 0)); then
            ((n[1] == 0)) || { echo "--inline 0 却有 ${n[1]} 个 inline WR"; show_logs; return 1; }
        else
            ((n[1] == n[0])) || { echo "--inline 64 只有 ${n[1]}/${n[0]} 个 inline WR"; show_logs; return 1; }
        fi
    done
}

# 议题 44 B3 和第 2 条：延迟的计时循环每次迭代只读一次时钟（这一次的开始时刻；perftest 读一次 rdtsc），
# 不为心跳、不为算超时另读，心跳的 TCP 写不在样本里。以前 READ 的客户端每个样本里还为心跳（ctrl_heartbeat）读一次时钟。
# 数法：LD_PRELOAD 垫片 tools/bench/clockcount.c 按调用的地方数 clock_gettime，addr2line -i 说出是哪个函数（含内联的）。
# 不算空等的慢路径（wait_cq、spin_for_stamp、lazy_deadline：空转 SPIN_CHECK 圈才读一次，看超时；机器忙时次数不定）
clock_reads() {  # clock_reads 计数文件 程序：不在慢路径上的 clock_gettime 次数（每个调用处一行的明细打印到 stderr）
    # addr2line -a 先打印地址，-f -i 再打印这个地址所在的函数和内联进去的各层（函数名、文件:行 两行一层）
    # shellcheck disable=SC2046  # 地址一个一个地传
    addr2line -a -f -i -e "$2" $(awk '{ print $1 }' "$1") | awk -v counts="$1" '
        BEGIN { while ((getline l < counts) > 0) { split(l, f, " "); n[f[1]] = f[2] } }   # 垫片写的地址和 -a 的一样是 0x%016lx
        /^0x/ { flush(); a = $1; fns = ""; k = 0; next }
        { if (k++ % 2 == 0) fns = fns " " $0 }
        function flush() { if (a == "") return; printf "#   %d ×%s\n", n[a], fns > "/dev/stderr"
                           if (fns !~ / (wait_cq|spin_for_stamp|lazy_deadline)( |$)/) total += n[a] }
        END { flush(); print total + 0 }'
}

@test "bench lat clock reads (send, read): one clock_gettime per iteration in the client, none for heartbeats inside the samples (counting shim)" {
    local so="$BATS_TEST_TMPDIR/clockcount.so" out="$BATS_TEST_TMPDIR/clock.txt" n loop=$((1000 + 101))   # 1000 轮 + 预热 101 次（warmup_count）
    cc -O2 -shared -fPIC -o "$so" tools/bench/clockcount.c -ldl
    for op in send read; do   # write 的循环和 send 是同一个（lat_loop）
        start_server -d "$LAB_DEV0" --bench lat --op "$op" -q 1 --size 64 --iters 1000 -t 30
        CLOG="$BATS_TEST_TMPDIR/client.log" CRC=0
        CLOCKCOUNT_OUT=$out LD_PRELOAD=$so timeout 120 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" \
            --bench lat --op "$op" -q 1 --size 64 --iters 1000 -t 30 >"$CLOG" 2>&1 || CRC=$?
        wait_server
        assert_ok_pair
        n=$(clock_reads "$out" "$CLIENT")
        echo "# $op: 慢路径之外读时钟 $n 次，循环 $loop 次" >&3   # 通过时也打印（TAP 的注释行）
        ((n >= 1000)) || { echo "垫片没数到（LD_PRELOAD 没生效？），这个用例没测到东西"; return 1; }
        # 循环之外（建连、同步、打印）几十次；每次迭代多读一次就是 +1000 以上
        ((n < loop * 3 / 2)) || { echo "$op: 每次迭代读时钟多于一次"; show_logs; return 1; }
    done
}

# 计时循环里也检查每个完成的状态（bench_lat.c 的 take_wc）：READ 延迟中途服务端被杀掉，它的QP没了，
# 客户端的 READ 等不到应答，重传 retry_cnt 次之后得到 RETRY_EXC_ERR 的完成——要报出这个状态，不是当成功的完成往下走
# （send 乒乓里客户端这时在等对端的消息，只会等到超时；READ 每次都在等自己的完成）
@test "bench lat: an error completion in the timed loop is reported with its status (read, server killed mid-run: RETRY_EXC_ERR)" {
    local cpid
    start_server -d "$LAB_DEV0" --bench lat --op read -q 1 --size 64 --iters 1000000 -t 20
    CLOG="$BATS_TEST_TMPDIR/client.log" CRC=0
    timeout 60 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" --bench lat --op read -q 1 --size 64 --iters 1000000 -t 20 >"$CLOG" 2>&1 &
    cpid=$!
    wait_for "$CLOG" 't_min[usec]' 30
    sleep 1
    kill -9 "$(child_pid "$SPID")"
    wait "$cpid" || CRC=$?
    [[ $CRC == 1 ]] || { echo "客户端退出码 $CRC"; show_logs; return 1; }
    has "$CLOG" '工作完成(WC)失败: QP[0] 状态=transport retry counter exceeded'
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

# --cq event 下普通模式的每种操作；在 valgrind 里运行时（make memcheck）日志里不能有报告（没有 valgrind 时没有 ==PID== 行）
cq_event_every_op() {
    # 服务端只启动一次（--clients 6：每个客户端一种操作，服务端没给的 --op/--size 听客户端的），客户端两个一批。
    # 在 valgrind 里（make memcheck）启动一次要十来秒：一对一对地跑（12 次启动）要两分半，这样是 7 次、两个两个地并行
    SLOG="$BATS_TEST_TMPDIR/server.log"
    local ops
    read -ra ops <<<"$(data_ops)"   # 早于 6.1 的内核上没有原子操作（helpers.bash）
    new_ready_file
    timeout 300 "$SERVER" -d "$LAB_DEV0" --clients "${#ops[@]}" --parallel 2 --cq event -q 4 --iters 3 -t 60 --ready-file "$READY" >"$SLOG" 2>&1 &
    SPID=$!
    local i op rc pids=() size
    wait_ready "$SPID" 150
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

@test "--cq event, normal mode: every operation at 4 QPs; channel created, armed, events acked before the CQ is destroyed" {
    cq_event_every_op
}

# bats test_tags=memcheck
@test "memcheck: --cq event, normal mode, every operation at 4 QPs under valgrind (no reports)" {
    use_valgrind
    cq_event_every_op
}

# 今天之前没有任何测试拿基准数字和别的东西比：公式差一个常数倍也能通过。这里本项目与 perftest 在同一对 rxe 上
# 交替各跑 3 次（send_lat 64 B、write_bw 64 KiB），每次的比值取中位数：延迟 0.5–1.8 倍（把往返当单程报会接近 2 倍），
# 带宽 0.4–2.5 倍。延迟比的是两边各自 3 次里最好的 t_min：常数倍的错误它一样看得见；而宿主机上别的虚拟机抢 CPU 时
# 两个程序都会整次运行落进“毫秒级”的状态（两个忙轮询的进程占满客户机的 2 个 CPU，rxe 的内核线程排不上；实测
# ours 和 perftest 的 t_typical 都在 22 µs 和 2–4 ms 之间跳，单次比值 0.016–200 倍），中位数也救不了；
# 3 次里最好的一次几乎总有一次是安静的。每次的比值（t_typical、t_min、带宽）都打印出来。
# 同时是 make bench 的缩小版：results.csv（中位数 + 范围）、cq.csv、旋钮表、图
@test "make bench in miniature vs perftest: send_lat 64 B and write_bw 64 KiB, 3 alternating runs each, ratio within 0.5-1.8x (lat: best t_min of each side, or else the median t_typical ratio) and 0.4-2.5x (bw: median); results.csv with ranges, knob table, plots" {
    need_tool ib_send_lat
    need_tool ib_write_bw
    need_tool gnuplot
    local out="$BATS_TEST_TMPDIR/bench"
    BENCH_OUT=$out BENCH_CELLS="send_lat:64 write_bw:65536" BENCH_LAT_ITERS=200 BENCH_CQ_SIZES=64 \
        BENCH_REPEAT=3 BENCH_KNOB_TESTS=write_bw BENCH_KNOB_SIZES=64 BENCH_KNOBS="default post-list" BENCH_CQ_TESTS=send_lat tools/bench/compare.sh >"$BATS_TEST_TMPDIR/compare.log" 2>&1 || { cat "$BATS_TEST_TMPDIR/compare.log"; return 1; }
    BENCH_OUT=$out tools/bench/report.sh
    if grep -q '警告' "$BATS_TEST_TMPDIR/compare.log"; then cat "$BATS_TEST_TMPDIR/compare.log"; return 1; fi
    [[ $(head -n1 "$out/results.csv") == "test,size,metric,ours,perftest,ratio,ours_min,ours_max,perftest_min,perftest_max,reps" ]] || { head -n1 "$out/results.csv"; return 1; }
    awk -F, 'NR > 1 && !($4 + 0 > 0 && $5 + 0 > 0 && $6 + 0 > 0 && $7 <= $4 && $4 <= $8 && $9 <= $5 && $5 <= $10 && $11 == 3) { print "不对: " $0; bad = 1 } END { exit bad }' "$out/results.csv"
    [[ $(grep -c '^send_lat,64,' "$out/results.csv") == 5 && $(grep -c '^write_bw,65536,' "$out/results.csv") == 3 ]]
    [[ $(grep -c '^send_lat,64,t_typical_us,' "$out/reps.csv") == 3 ]]
    # 每次交替的一对算一个比值，取 3 个的中位数
    ratio_in() {  # ratio_in test,size,metric 下限 上限（比值也写进 TAP 的诊断行，通过时也看得见）
        local msg rc=0
        msg=$(awk -F, -v k="$1" -v lo="$2" -v hi="$3" '
            $1 "," $2 "," $3 == k && $5 + 0 > 0 { r[++n] = $4 / $5 }
            END { if (n != 3) { print k ": 要 3 次，实际 " n; exit 1 }
                  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
                  printf "%s: 比值 %.3f %.3f %.3f，中位数 %.3f（要在 %s..%s）\n", k, r[1], r[2], r[3], r[2], lo, hi
                  exit !(r[2] >= lo && r[2] <= hi) }' "$out/reps.csv") || rc=$?
        echo "# $msg" >&3
        echo "$msg"
        return "$rc"
    }
    # 两边各自 3 次里最小的值之比
    best_ratio_in() {  # best_ratio_in test,size,metric 下限 上限
        local msg rc=0
        msg=$(awk -F, -v k="$1" -v lo="$2" -v hi="$3" '
            $1 "," $2 "," $3 == k && $4 + 0 > 0 && $5 + 0 > 0 { n++; if (n == 1 || $4 < o) o = $4; if (n == 1 || $5 < p) p = $5 }
            END { if (n != 3) { print k ": 要 3 次，实际 " n; exit 1 }
                  printf "%s: 两边各自 3 次里最好的 %s / %s = %.3f（要在 %s..%s）\n", k, o, p, o / p, lo, hi
                  exit !(o / p >= lo && o / p <= hi) }' "$out/reps.csv") || rc=$?
        echo "# $msg" >&3
        echo "$msg"
        return "$rc"
    }
    ratio_in send_lat,64,t_typical_us 0 1000000 || true   # 只打印
    ratio_in send_lat,64,t_min_us 0 1000000 || true       # 只打印
    # 延迟：常数倍的公式错（比如把往返当单程报 = 2 倍）两个量都会出界；TCG 偶尔整次运行落进“慢”的状态，只拖坏其中一个
    # （2026-11-26 的 .ci/run：最好的 t_min 73.6/36.1 = 2.04，同一次的 t_typical 比值中位数 1.20）。两个都出界才算失败
    best_ratio_in send_lat,64,t_min_us 0.5 1.8 || ratio_in send_lat,64,t_typical_us 0.5 1.8
    ratio_in write_bw,65536,bw_avg_MBps 0.4 2.5
    # 计时循环内的 CPU：客户端一定在干活；write_bw 的服务端不参与，是 0
    awk -F, 'NR > 1 && $3 == "client" && $4 == "cpu_s" && !($5 + 0 > 0 && $6 + 0 > 0) { print "cq.csv: " $0; bad = 1 } END { exit bad }' "$out/cq.csv"
    has "$out/results.md" '| write_bw | 65536 | bw_avg_MBps |'
    # 旋钮：缩小版只跑 2 行（默认、--post-list 16；全部 6 个在 make bench 里，各个旋钮本身在上面的 knobs 用例里），每行带宽为正
    [[ $(tail -n +2 "$out/knobs.csv" | wc -l) == 2 ]] || { cat "$out/knobs.csv"; return 1; }
    awk -F, 'NR > 1 && !($4 + 0 > 0) { print "knobs.csv: " $0; bad = 1 } END { exit bad }' "$out/knobs.csv"
    has "$out/results.md" '| write_bw | 64 | --post-list 16 |'
    [[ -s $out/latency.svg && -s $out/bandwidth.svg ]]
}
