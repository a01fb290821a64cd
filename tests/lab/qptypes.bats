#!/usr/bin/env bats
# qptypes.bats - RC 之外：UD（--qp ud）和共享接收队列（--srq），在 lab/run 里运行，真实 rdma_rxe（docs/QP-TYPES.md）

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}

# UD 的一对：两端都成功、数据全部校验；每个接收完成带 GRH，src_qp 是对端的 QP；服务端从 GRH 解出客户端的 IP
check_ud() {
    local nqp=$1 size=$2
    run_pair --qp ud --op send -q "$nqp" --size "$size" --iters 3 -t 20
    assert_ok_pair
    has "$CLOG" "全部 3 轮 × $nqp 个QP 完成并校验通过"
    has "$SLOG" "全部 3 轮 × $nqp 个QP 完成并校验通过"
    has "$SLOG" "创建${nqp}个UD QP ibv_create_qp()"
    has "$SLOG" "设置: port_num=1 pkey_index=0 qkey=0x11111111（UD：没有 qp_access_flags）"
    has "$SLOG" "设置: 只有 qp_state=RTR"
    has "$CLOG" "地址句柄已创建（ibv_create_ah）: is_global=1"
    has "$SLOG" "RoCE v2 over IPv4：前 20 字节不用，后 20 字节是 IPv4 头 → 源 $LAB_IP1，目的 $LAB_IP0"
    has "$CLOG" "RoCE v2 over IPv4：前 20 字节不用，后 20 字节是 IPv4 头 → 源 $LAB_IP0，目的 $LAB_IP1"
    has "$SLOG" "wc.byte_len=$((size + 40))（= 40 字节 GRH + $size 字节消息）"
}

@test "UD send: 1 QP × 64 B and 4 QPs × 1000 B, 3 rounds, every byte verified; AH, Q_Key, GRH decoded to the peer's IP, src_qp checked" {
    check_ud 1 64
    # 把服务端第1轮 QP[0] 的 40 字节留下来：tests/unit/fixtures/grh-rocev2-ipv4.inc 就是这样来的
    awk '/接收缓冲区的前 40 字节/ { getline a; getline b; print a; print b; exit }' "$SLOG" >logs/ud-grh.txt
    check_ud 4 1000
}

@test "UD: a message above the path MTU is refused on both sides after the handshake (exit 1); above 4096 at the command line (exit 2)" {
    run_pair --qp ud --op send -q 1 --size 2048 -t 10
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" "错误: UD 的消息 2048 字节 > 路径MTU 1024 字节：UD 不分段"
    has "$CLOG" "错误: UD 的消息 2048 字节 > 路径MTU 1024 字节：UD 不分段"
    run_client "$LAB_IP0" -d "$LAB_DEV1" --qp ud --size 8192
    [[ $CRC == 2 ]] || { show_logs; return 1; }
    has "$CLOG" "--qp ud 的消息最多 4096 字节"
}

@test "UD late receive: the message is dropped (no RNR NAK, no retry); the sender's completion is a success, the receiver reports it missing with the UD hint" {
    rnr_count
    local rnr=$RNR
    start_server -d "$LAB_DEV0" --qp ud --op send -q 1 --size 64 -t 4 --inject late-recv
    run_client "$LAB_IP0" -d "$LAB_DEV1" --qp ud --op send -q 1 --size 64 -t 4 --trace "$BATS_TEST_TMPDIR/c.jsonl"
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" "错误: 轮询CQ超时（4 秒内只收到 0/1 个完成）"
    has "$SLOG" "UD 没有确认、没有重传、没有 RNR"
    # 客户端的 SEND 完成是成功的（UD 的完成只说明报文发出去了）
    grep -q '"ev":"wc".*"opcode":"SEND","status":"success"' "$BATS_TEST_TMPDIR/c.jsonl" || { cat "$BATS_TEST_TMPDIR/c.jsonl"; return 1; }
    assert_no_rnr "$rnr"
}

@test "mismatch: --qp ud on one side only, or --srq on one side only: both sides fail with a clear message" {
    start_server -d "$LAB_DEV0" --qp ud -t 10
    run_client "$LAB_IP0" -d "$LAB_DEV1" -t 10
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" "远端 --qp rc，本端 --qp ud：两端的 QP 类型必须相同"
    has "$CLOG" "远端 --qp ud，本端 --qp rc：两端的 QP 类型必须相同"
    start_server -d "$LAB_DEV0" -t 10
    run_client "$LAB_IP0" -d "$LAB_DEV1" --srq -t 10
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" "远端用 --srq，本端不用 --srq"
    has "$CLOG" "远端不用 --srq，本端用 --srq"
}

# SRQ：N 个QP的接收都从一个 SRQ 里取；每个完成的 qp_num 说出是哪个QP；第1轮之后 SRQ 限位事件到达
check_srq() {
    local nqp=$1
    run_pair --srq --op send -q "$nqp" --size 512 --iters 2 -t 20
    assert_ok_pair
    has "$SLOG" "全部 2 轮 × $nqp 个QP 完成并校验通过"
    has "$SLOG" "SRQ 已创建: 深度 "
    has "$SLOG" "创建${nqp}个RC QP ibv_create_qp()（接收用 SRQ）"
    has "$SLOG" "SRQ 限位已装上（ibv_modify_srq IBV_SRQ_LIMIT=$nqp）"
    has "$SLOG" "异步事件: SRQ limit reached（SRQ 就是本连接的 SRQ）"
    has "$CLOG" "异步事件: SRQ limit reached（SRQ 就是本连接的 SRQ）"
    has "$SLOG" "已销毁SRQ（ibv_destroy_srq）"
    # 销毁之前：QP 改到 ERR，等 LAST_WQE_REACHED（有上限）；5.10、6.1 的 rxe 不发这个事件，6.12 发（实测）
    local f want=0
    rxe_since_6_12 && want=$nqp
    for f in "$SLOG" "$CLOG"; do
        grep -qE "^用 SRQ 的 $nqp 个QP已改到 ERR（ibv_modify_qp），[0-9]+ ms 内 $want 个收到了 IBV_EVENT_QP_LAST_WQE_REACHED$" "$f" \
            || { echo "$f: LAST_WQE_REACHED 不是 $want 个:"; grep -E 'LAST_WQE|last WQE' "$f"; return 1; }
        [[ $(grep -n 'IBV_EVENT_QP_LAST_WQE_REACHED' "$f" | head -1 | cut -d: -f1) -lt $(grep -n '个QP（ibv_destroy_qp）' "$f" | cut -d: -f1) ]] \
            || { echo "$f: 先销毁了QP 才等事件"; return 1; }
    done
    # 每个QP都从 SRQ 取到过接收
    local i
    for ((i = 0; i < nqp; i++)); do
        grep -q "SRQ: 缓冲区 [0-9]* 的接收请求被 QP\[$i\]" "$SLOG" || { echo "QP[$i] 没有从 SRQ 取到接收"; cat "$SLOG"; return 1; }
    done
}

@test "SRQ: 4 and 16 QPs share one receive queue; every QP's receives come from it (wc.qp_num); the SRQ limit event arrives on the async event fd" {
    check_srq 4
    check_srq 16
}
