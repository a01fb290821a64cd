#!/usr/bin/env bats
# cm.bats - --cm（librdmacm 建连）在单机实验室里：服务端 0.0.0.0（请求到达 10.11.0.1 → rxe0），
# 客户端 -d rxe1 / --src 10.11.0.2（源地址决定 rxe1）。六种操作 × 8 个QP（--cq poll/event 轮流）、交互模式、
# 连接过程的输出（CM 事件、rdma_init_qp_attr、读回的 QP 状态），以及各种失败：没人监听（REJECTED）、
# 地址所在网卡没有 RDMA 设备（ENODEV）、地址解析超时、只有一端用 --cm、两端 -q/--op 不同、对端消失；
# 最后在 valgrind 里和用 ASan+UBSan 版本（make asan）把成功和失败路径再各跑一遍。

# 变量 SLOG/CLOG/SPID/SRC/CRC 由 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    no_cleanup_warnings "${SLOG:-}" "${CLOG:-}"
}


# --cm 下成功的一次运行：清理完整（控制QP、数据QP、CQ、MR、PD、cm_id、事件通道），设备上下文归 librdmacm
assert_cm_cleanup() {
    local f
    for f in "$SLOG" "$CLOG"; do
        has "$f" '已销毁控制QP'
        has "$f" '已释放PD（ibv_dealloc_pd）'
        has "$f" '设备上下文归 librdmacm（--cm）'
        has "$f" '已关闭CM事件通道（rdma_destroy_event_channel）'
        grep -qE '^已销毁 [0-9]+ 个QP（ibv_destroy_qp）$' "$f" || { echo "$f: 没有销毁数据QP"; show_logs; return 1; }
        grep -qE '^已销毁 [0-9]+ 个 cm_id（rdma_destroy_id）$' "$f" || { echo "$f: 没有销毁 cm_id"; show_logs; return 1; }
    done
}

assert_ok_cm() {
    if [[ $SRC != 0 || $CRC != 0 ]]; then
        show_logs
        return 1
    fi
    assert_cm_cleanup
}

# 地址 10.99.0.2 在一块没有 rxe 的网卡 x0 上（veth 对 x0/x1）
add_plain_nic() {
    ip link show x0 >/dev/null 2>&1 && return 0
    ip link add x0 type veth peer name x1
    ip addr add 10.99.0.2/24 dev x0
    ip link set x0 up
    ip link set x1 up
}

# 4 个QP（配 --cq event）在 tests/lab/combos.bats 里
# 1 个QP 在两台虚拟机之间测（63-two-vms-cm.t），4 个QP 在 combos.bats（--cm × --cq event）
# --cq poll 和 event 轮流（--cm × --cq event 也就在这里；16 个QP 的 --cm 在 ASan 的用例里）
@test "cm: every operation with data checks at 8 QPs, --cq poll and event in turn" {
    local op size cq=event
    for op in $(data_ops); do
        size=(--size 4K)
        [[ $op == fetch_add || $op == cmp_swap ]] && size=()
        cq=$([[ $cq == poll ]] && echo event || echo poll)
        cm_pair --op "$op" -q 8 "${size[@]}" --iters 2 --cq "$cq" -t 20
        assert_ok_cm
        has "$CLOG" "全部 2 轮 × 8 个QP 完成并校验通过"
        if [[ $cq == event ]]; then has "$CLOG" '完成通道'; fi
    done
}

@test "cm: the output shows the CM events, rdma_init_qp_attr and the queried QP states; the address decides the device" {
    start_server --cm -q 2 --op write --qp-state all -t 20
    run_client "$LAB_IP0" --cm --src "$LAB_IP1" -q 2 --op write --qp-state all -t 20
    wait_server
    assert_ok_cm
    [[ $(<"$READY") == "ready cm 18515 "[0-9]* ]] || { echo "就绪标志不对: $(<"$READY")"; return 1; }
    cp "$SLOG" logs/cm-server.log 2>/dev/null || true
    cp "$CLOG" logs/cm-client.log 2>/dev/null || true
    # 设备由地址决定：服务端请求到达 10.11.0.1 → rxe0；客户端源地址 10.11.0.2 → rxe1
    has "$SLOG" 'rdma_bind_addr(0.0.0.0:18515): 成功，通配地址，还没有设备'
    has "$SLOG" 'CM 按地址选出的设备: rxe0 端口 1'
    has "$CLOG" 'rdma_resolve_addr(): 本端 10.11.0.2:'
    has "$CLOG" 'CM 按地址选出的设备: rxe1 端口 1'
    has "$CLOG" '→ 索引 1   0000:0000:0000:0000:0000:ffff:0a0b:0002  RoCE v2, IPv4 10.11.0.2'
    # 事件
    has "$SLOG" 'CM事件: RDMA_CM_EVENT_CONNECT_REQUEST'
    has "$SLOG" 'CM事件: RDMA_CM_EVENT_ESTABLISHED'
    has "$CLOG" 'CM事件: RDMA_CM_EVENT_ADDR_RESOLVED'
    has "$CLOG" 'CM事件: RDMA_CM_EVENT_ROUTE_RESOLVED'
    [[ $(grep -c 'CM事件: RDMA_CM_EVENT_CONNECT_RESPONSE' "$CLOG") == 3 ]] || { echo "客户端应有 3 个 CONNECT_RESPONSE（控制 + 2 个QP）"; show_logs; return 1; }
    [[ $(grep -c 'CM事件: RDMA_CM_EVENT_ESTABLISHED' "$SLOG") == 3 ]] || { echo "服务端应有 3 个 ESTABLISHED"; show_logs; return 1; }
    # 被动方 INIT 的 CM 属性是 0xe（6.2 起的内核 0x30e：多两个 FLUSH 位，程序说出它们的名字），主动方是 0；都改成本操作需要的
    if kernel_since_6_2; then
        has "$SLOG" 'port_num=1 pkey_index=0 qp_access_flags=0x30e'
        has "$SLOG" 'Linux 6.2 起内核的 CM 还给被动方 RDMA FLUSH 的两个权限位 0x100、0x200'
    else
        has "$SLOG" 'port_num=1 pkey_index=0 qp_access_flags=0xe'
    fi
    has "$CLOG" 'port_num=1 pkey_index=0 qp_access_flags=0x0'
    has "$SLOG" 'qp_access_flags 改成本操作需要的 REMOTE_WRITE'
    has "$CLOG" 'rdma_init_qp_attr(RTR): qp_attr_mask=0x129181'
    has "$CLOG" 'rdma_init_qp_attr(RTS): qp_attr_mask=0x12e01'
    # 读回：两端的 dest_qp_num 互为对方的 QPN，rq_psn 是对方的 sq_psn
    local sq cq
    sq=$(grep -m1 -oE 'QP\[0\]: qp_num=0x[0-9a-f]+' "$SLOG" | grep -oE '0x[0-9a-f]+')
    cq=$(grep -m1 -oE 'QP\[0\]: qp_num=0x[0-9a-f]+' "$CLOG" | grep -oE '0x[0-9a-f]+')
    grep -qE "dest_qp_num=$cq" "$SLOG" || { echo "服务端 QP[0] 的 dest_qp_num 不是客户端的 $cq"; show_logs; return 1; }
    grep -qE "dest_qp_num=$sq" "$CLOG" || { echo "客户端 QP[0] 的 dest_qp_num 不是服务端的 $sq"; show_logs; return 1; }
    has "$CLOG" '状态摘要（ibv_query_qp 读回）: QP[0]=RTS QP[1]=RTS'
    has "$SLOG" '状态摘要（ibv_query_qp 读回）: QP[0]=RTS QP[1]=RTS'
    has "$SLOG" 'qp_state=RTS  port=1  access=REMOTE_WRITE'
    has "$CLOG" "timeout=$(cm_rts_timeout)  retry_cnt=6  rnr_retry=7"
    # READ/原子深度：客户端报自己设备的上限，服务端取它和自己上限的较小者，CM 协商后 rdma_init_qp_attr 给出同样的值
    has "$CLOG" 'conn_param: initiator_depth=128 responder_resources=128（READ/原子深度）'
    has "$SLOG" '= min(本端 max_qp_init_rd_atom 128, 请求里的 initiator_depth 128)'
    has "$CLOG" 'max_dest_rd_atomic=128 min_rnr_timer='
    has "$SLOG" 'rnr_retry=7  max_rd_atomic=128'
    has "$CLOG" 'CM 接管了 TCP 模式的: 步骤1-4'
    has "$CLOG" '同步点: 双方QP都已进入RTS（控制QP）'
    has "$CLOG" 'MR: addr=0x'
}

# 服务端在 rdma_accept 之前转 RTR/RTS：rdma_init_qp_attr 给的是连接请求里客户端的深度（rxe 128），
# 服务端QP里必须是协商后的值。rxe 两端都是 128 分不出来，所以用测试版的程序（build/test/，tests/plugins/cm_rd_atom.c）
# 把服务端设备自己的两个上限压到 16，再读回每个QP
@test "cm: the server's QPs get the negotiated READ/atomic depths, not the request's (read back, server capped at 16)" {
    SERVER=$TEST_SERVER ROCE_TEST_CM_RD_ATOM=16 start_server --cm -q 2 --op read --qp-state all -t 20
    run_client "$LAB_IP0" --cm --src "$LAB_IP1" -q 2 --op read --qp-state all -t 20
    wait_server
    assert_ok_cm
    has "$CLOG" 'conn_param: initiator_depth=128 responder_resources=128（READ/原子深度）'
    has "$SLOG" 'conn_param: initiator_depth=16 responder_resources=16（READ/原子深度）'
    local f n
    for f in "$SLOG" "$CLOG"; do
        # 读回（ibv_query_qp）的行：两个空格分隔；RTR 后和 RTS 后各 2 个QP
        n=$(grep -cE 'max_dest_rd_atomic=[0-9]+  min_rnr_timer=' "$f")
        ((n >= 4)) || { echo "$f: 读回的 max_dest_rd_atomic 只有 $n 行"; show_logs; return 1; }
        if grep -E 'max_dest_rd_atomic=[0-9]+  min_rnr_timer=' "$f" | grep -vq 'max_dest_rd_atomic=16  '; then
            echo "$f: 读回的 max_dest_rd_atomic 不是协商的 16:"; grep -E 'max_dest_rd_atomic=[0-9]+  min' "$f"; return 1
        fi
        n=$(grep -cE 'rnr_retry=[0-9]+  max_rd_atomic=16$' "$f")
        ((n >= 2)) || { echo "$f: 读回的 max_rd_atomic=16 只有 $n 行:"; grep -E 'max_rd_atomic=' "$f"; return 1; }
        if grep -E 'rnr_retry=[0-9]+  max_rd_atomic=' "$f" | grep -vq 'max_rd_atomic=16$'; then
            echo "$f: 读回的 max_rd_atomic 不是协商的 16"; return 1
        fi
    done
    has "$SLOG" 'max_dest_rd_atomic 改成协商后的 16（rdma_init_qp_attr 给的 128 是连接请求里客户端的值）'
    has "$SLOG" 'max_rd_atomic 改成协商后的 16（rdma_init_qp_attr 给的 128 是连接请求里客户端的值）'
    has "$CLOG" "全部 1 轮 × 2 个QP 完成并校验通过"
}

@test "cm: interactive mode over a pipe" {
    start_server --cm --interactive -q 2 -t 20
    run_client_stdin 'hello cm\nq\n' "$LAB_IP0" --cm -d "$LAB_DEV1" --interactive -q 2 -t 20
    wait_server
    assert_ok_cm
    has "$SLOG" '[服务端内存] 消息#1: hello cm'
    has "$SLOG" '收到 q，服务端结束'
    has "$CLOG" 'RDMA READ 读回: hello cm'
}

# --cm 的数据QP的转换和 TCP 模式一样经过插桩的接缝（connect/cm_qps.c 的 cm_modify）：--trace 记下每个QP的 INIT/RTR/RTS，
# --inject qp-access 在服务端的 INIT 之前改掉属性（rdma_init_qp_attr 给的之上），客户端的 WRITE 被服务端网卡拒绝
modify_events_ok() {  # modify_events_ok TRACE文件：QP 0 和 1 各有一个成功的 INIT、RTR、RTS（控制QP不算）
    local q st n
    for q in 0 1; do
        for st in INIT RTR RTS; do
            n=$(grep -c "\"call\":\"ibv_modify_qp\",\"ok\":true,\"res\":{\"qp\":$q,\"qpn\":[0-9]*,\"state\":\"$st\"}" "$1" || true)
            [[ $n == 1 ]] || { echo "$1: QP[$q] 的 ibv_modify_qp($st) 事件有 $n 个（应该 1 个）"; return 1; }
        done
    done
}

@test "cm: the data QPs' state changes raise the same modify events as TCP: --trace records them, --inject qp-access acts on INIT" {
    local st="$BATS_TEST_TMPDIR/s.jsonl" ct="$BATS_TEST_TMPDIR/c.jsonl"
    start_server --cm -q 2 --op write --iters 1 -t 20 --trace "$st"
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 --op write --iters 1 -t 20 --trace "$ct"
    wait_server
    assert_ok_cm
    modify_events_ok "$st" || { show_logs; return 1; }
    modify_events_ok "$ct" || { show_logs; return 1; }
    start_server --cm -q 2 --op write --iters 1 -t 10 --inject qp-access
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 --op write --iters 1 -t 10
    wait_server
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    [[ $(grep -c '故障注入(--inject qp-access)' "$SLOG") == 1 ]] || { echo "注入的说明应该只有一行"; show_logs; return 1; }
    # 规范（和 6.1、6.12 的 rxe）：对端的请求被当成无效请求，REM_INV_REQ_ERR；5.10 的 rxe 不回 NAK，重传后 RETRY_EXC_ERR（docs/GALLERY.md）
    grep -qE '状态=(REM_INV_REQ_ERR|remote invalid request error|RETRY_EXC_ERR|transport retry counter exceeded)' "$CLOG" || { show_logs; return 1; }
}

# 改 RTR/RTS 属性的三种注入（qpn、psn、rnr-retry0）在 --cm 下也生效：数据QP是程序自己建的，librdmacm 不碰它
# （rdma_connect/rdma_accept/rdma_establish 只在 id->qp 上改QP，librdmacm/cma.c 的 ucma_modify_qp_rtr/rts），
# 插件在 cm_modify 的 HOOK_MODIFY 里改 rdma_init_qp_attr 给的属性。看到的和 TCP 模式一样（tests/gallery/check.py 的 expect）：
# qpn → 客户端 RETRY_EXC_ERR；psn → 客户端 RETRY_EXC_ERR、服务端 out_of_seq_request +1；rnr-retry0 + late-recv → RNR_RETRY_EXC_ERR。
# --ack-timeout 14（TCP 模式的默认）：CM 给的 19 要重传约 15 秒才结束
@test "cm: --inject qpn, psn and rnr-retry0 act on the CM's RTR/RTS attributes with the same completion errors as TCP" {
    local good wrong
    start_server --cm -q 1 --op write --iters 1 -t 20
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 1 --op write --iters 1 -t 20 --ack-timeout 14 --inject qpn --qp-state all
    wait_server
    [[ $CRC == 1 && $SRC == 1 ]] || { show_logs; return 1; }
    # 说出来的“对的号”是服务端 QP[0] 真的QP号（CM 的 REP 给的），用的是它 ^ 0x800000
    good=$(grep -m1 -oE 'QP\[0\]: QP号 0x[0-9a-f]{6}' "$SLOG" | grep -oE '0x[0-9a-f]{6}')
    [[ -n $good ]] || { show_logs; return 1; }
    printf -v wrong '0x%06x' $((good ^ 0x800000))
    has "$CLOG" "故障注入(--inject qpn): QP[0] 的 dest_qp_num 故意用 $wrong（对端的QP号是 $good）"
    grep -qE "dest_qp_num=$wrong  " "$CLOG" || { echo "客户端读回的 dest_qp_num 不是 $wrong"; show_logs; return 1; }
    grep -qE '状态=(RETRY_EXC_ERR|transport retry counter exceeded)' "$CLOG" || { show_logs; return 1; }

    start_server --cm -q 1 --op write --iters 1 -t 20 --counters
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 1 --op write --iters 1 -t 20 --ack-timeout 14 --inject psn
    wait_server
    [[ $CRC == 1 && $SRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '故障注入(--inject psn): QP[0] 的 sq_psn 故意用'
    grep -qE '状态=(RETRY_EXC_ERR|transport retry counter exceeded)' "$CLOG" || { show_logs; return 1; }
    grep -qE '^  out_of_seq_request +\+1 ' "$SLOG" || { echo "服务端的 out_of_seq_request 没有 +1"; show_logs; return 1; }

    start_server --cm -q 1 --op send --iters 1 -t 20 --inject late-recv
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 1 --op send --iters 1 -t 20 --inject rnr-retry0 --qp-state all
    wait_server
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '故障注入(--inject rnr-retry0): rnr_retry 故意设成 0'
    grep -qE 'rnr_retry=0 ' "$CLOG" || { echo "客户端读回的 rnr_retry 不是 0"; show_logs; return 1; }
    grep -qE '状态=(RNR_RETRY_EXC_ERR|RNR retry counter exceeded)' "$CLOG" || { show_logs; return 1; }
}

@test "cm: nobody listening: REJECTED (status 8) at once, hint, exit 1" {
    local t0=$SECONDS
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 -t 20
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    (( SECONDS - t0 < 15 )) || { echo "太慢: $((SECONDS - t0)) 秒"; return 1; }
    has "$CLOG" 'RDMA_CM_EVENT_REJECTED，status=8 = IB_CM_REJ_INVALID_SERVICE_ID'
    has "$CLOG" '它也用了 --cm 吗'
}

@test "cm: address nobody has: ADDR_ERROR ETIMEDOUT within the resolve timeout, exit 1" {
    local t0=$SECONDS
    run_client 10.11.0.9 --cm -d "$LAB_DEV1" -t 5
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    (( SECONDS - t0 < 15 )) || { echo "太慢: $((SECONDS - t0)) 秒"; return 1; }
    has "$CLOG" 'RDMA_CM_EVENT_ADDR_ERROR（status=-110'
    has "$CLOG" '没有主机回答 10.11.0.9 的 ARP'
}

@test "cm: address on a NIC without an RDMA device: rdma_bind_addr / rdma_resolve_addr ENODEV with the real cause" {
    add_plain_nic
    start_server --cm --src 10.99.0.2 -t 5
    wait_server
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '错误: rdma_bind_addr() 失败: No such device (errno=19)'
    has "$SLOG" '地址 10.99.0.2 在网卡 x0 上没有 RDMA 设备'
    has "$SLOG" 'rdma link add rxe_x0 type rxe netdev x0'
    cp "$SLOG" logs/cm-enodev.log 2>/dev/null || true
    run_client "$LAB_IP0" --cm --src 10.99.0.2 -t 5
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '错误: rdma_resolve_addr() 失败: No such device (errno=19)'
    # 对照：本机没有的地址是 EADDRNOTAVAIL，不是 ENODEV
    start_server --cm --src 10.99.0.77 -t 5
    wait_server
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '(errno=99)'
    has "$SLOG" '本机没有地址 10.99.0.77'
    # 同一个地址，给 x0 建上 rxe 之后就能绑定
    rdma link add rxe_x0 type rxe netdev x0
    start_server --cm --src 10.99.0.2 --accept-timeout 2 -t 5
    wait_server
    rdma link delete rxe_x0
    has "$SLOG" '地址所在的设备是'
    has "$SLOG" '设备 rxe_x0'
}

@test "cm: --cm on one side only: a clear error on both sides within the timeouts" {
    # 服务端 TCP、客户端 --cm：客户端 REJECTED；服务端等 TCP 超时
    # （不管谁先超时，两边都一定失败：TCP 服务端没有 CM 监听，CM 服务端没有 TCP 监听，所以超时取短的）
    start_server -d "$LAB_DEV0" --accept-timeout 3 -t 3
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -t 3
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '它也用了 --cm 吗（不带 --cm 的服务端只监听 TCP）'
    has "$SLOG" '等待客户端连接超时'
    has "$SLOG" '--cm'
    # 服务端 --cm、客户端 TCP：客户端 TCP 被拒；服务端等 CM 请求超时
    start_server --cm --accept-timeout 3 -t 3
    run_client "$LAB_IP0" -d "$LAB_DEV1" -t 2
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '等客户端的连接请求超时'
    has "$SLOG" '它也用了 --cm 吗（不带 --cm 的客户端连的是 TCP 端口）'
    has "$CLOG" '--cm'
}

@test "cm: different -q or --op: the server rejects with the reason, both sides exit 1" {
    start_server --cm -q 4 -t 5
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 -t 5
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" '错误: 客户端要 2 个QP，本端 4 个'
    has "$CLOG" '服务端拒绝了连接：QP数量不一致（服务端 4 个，本端 2 个）'
    start_server --cm --op write -t 5
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" --op read -t 5
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '服务端拒绝了连接：操作不一致（服务端 --op write，本端 --op read）'
}

@test "cm: a second client while the server is busy: rejected at once with the reason, the session goes on" {
    local apid alog="$BATS_TEST_TMPDIR/client-a.log" fifo="$BATS_TEST_TMPDIR/a-stdin" fd arc=0 t0
    # 客户端 A 在交互模式里等键盘（这里是一个 FIFO）：服务端在等 A 的消息，顺便看 CM 事件通道。
    # B 这时来连，它的 CONNECT_REQUEST 就在那里被取到：应立即被拒绝（不是等到服务端退出），A 的会话照常完成
    start_server --cm --interactive -q 1 -t 30
    mkfifo "$fifo"
    timeout 60 "$CLIENT" "$LAB_IP0" --cm -d "$LAB_DEV1" --interactive -q 1 -t 30 <"$fifo" >"$alog" 2>&1 &
    apid=$!
    exec {fd}>"$fifo"
    wait_for "$alog" '发送>' 30
    t0=$SECONDS
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" --interactive -q 1 -t 20 </dev/null
    (( SECONDS - t0 < 10 )) || { echo "B 等了 $((SECONDS - t0)) 秒才失败（应立即被拒绝）"; show_logs; return 1; }
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" '服务端拒绝了连接：它正在服务另一个客户端'
    printf 'hello\nq\n' >&"$fd"
    exec {fd}>&-
    wait "$apid" || arc=$?
    wait_server
    [[ $arc == 0 && $SRC == 0 ]] || { echo "A rc=$arc"; cat "$alog"; show_logs; return 1; }
    has "$SLOG" '注意: 又来了一个连接请求'
    has "$SLOG" 'hello'
    # 被拒绝的 cm_id 当场销毁；最后销毁的是自己的 1 个数据QP + 控制连接 + 监听的 cm_id
    has "$SLOG" '已销毁 3 个 cm_id（rdma_destroy_id）'
}

# 一个客户端建连的中途（它的 rdma_connect 之间隔 3 秒：测试版的程序，tests/plugins/cm_connect_gap.c）又来两个客户端：
# 一个 -q 不同、一个参数完全相同。服务端只拒绝它们（会话号不同），第一个客户端照常建连、传完数据
@test "cm: clients arriving during another client's setup (other -q, same -q) are refused alone; the first session completes" {
    start_server --cm -q 2 --op write -t 30
    local alog=$BATS_TEST_TMPDIR/a.log apid arc=0 i
    ROCE_TEST_CM_CONNECT_GAP_MS=3000 timeout 90 "$TEST_CLIENT" "$LAB_IP0" --cm --src "$LAB_IP1" -q 2 --op write -t 30 >"$alog" 2>&1 &
    apid=$!
    wait_for "$SLOG" '会话号 0x' 30
    has "$SLOG" '↑ 控制连接'
    run_client "$LAB_IP0" --cm --src "$LAB_IP1" -q 4 --op write -t 10
    [[ $CRC == 1 ]] || { cat "$CLOG"; return 1; }
    has "$CLOG" '服务端拒绝了连接：它正在服务另一个客户端'
    run_client "$LAB_IP0" --cm --src "$LAB_IP1" -q 2 --op write -t 10
    [[ $CRC == 1 ]] || { cat "$CLOG"; return 1; }
    has "$CLOG" '服务端拒绝了连接：它正在服务另一个客户端'
    wait "$apid" || arc=$?
    wait_server
    [[ $SRC == 0 && $arc == 0 ]] || { echo "第一个客户端 $arc，服务端 $SRC"; cat "$alog"; show_logs; return 1; }
    has "$alog" "全部 1 轮 × 2 个QP 完成并校验通过"
    local n
    n=$(grep -c '它不属于本端正在服务（或正在建连）的客户端' "$SLOG")
    ((n >= 2)) || { echo "服务端只拒绝了 $n 个请求"; cat "$SLOG"; return 1; }
    [[ $(grep -c '会话号 0x' "$SLOG") == 1 ]] || { echo "服务端开了不止一个会话"; cat "$SLOG"; return 1; }
}

@test "cm: the peer vanishing: DISCONNECTED, message and exit 1 within the timeout" {
    local cpid t0
    # 客户端在交互模式里被 SIGKILL：服务端收到 DISCONNECTED
    start_server --cm --interactive -q 1 -t 20
    CLOG="$BATS_TEST_TMPDIR/client.log"
    sleep 60 | timeout 90 "$CLIENT" "$LAB_IP0" --cm -d "$LAB_DEV1" --interactive -q 1 -t 20 >"$CLOG" 2>&1 &
    wait_for "$CLOG" '发送>' 30
    cpid=$(pgrep -x rdma_client)
    t0=$SECONDS
    kill -9 "$cpid"
    wait_server
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    (( SECONDS - t0 < 10 )) || { echo "太慢: $((SECONDS - t0)) 秒"; return 1; }
    has "$SLOG" 'CM事件: RDMA_CM_EVENT_DISCONNECTED'
    has "$SLOG" '客户端断开了连接（没有发送 q）'
    # 服务端被 SIGKILL 时客户端正在等同步消息：服务端每发一个同步消息就停 30 秒（测试版的程序，tests/plugins/sync_delay.c），
    # 客户端发完 SEND 后在控制QP上等 ACK，这时杀掉服务端，客户端应收到 DISCONNECTED
    SERVER=$TEST_SERVER ROCE_TEST_SYNC_DELAY_MS=30000 start_server --cm -q 2 -t 60
    CLOG="$BATS_TEST_TMPDIR/client.log"
    timeout 90 "$CLIENT" "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 -t 60 >"$CLOG" 2>&1 &
    cpid=$!
    wait_for "$CLOG" '数据传输' 30
    sleep 1
    t0=$SECONDS
    kill -9 "$(child_pid "$SPID")"
    CRC=0
    wait "$cpid" || CRC=$?
    wait_server
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    (( SECONDS - t0 < 10 )) || { echo "太慢: $((SECONDS - t0)) 秒"; return 1; }
    has "$CLOG" 'CM事件: RDMA_CM_EVENT_DISCONNECTED'
    has "$CLOG" '时对端断开了连接（RDMA_CM_EVENT_DISCONNECTED）'
}

# bats test_tags=memcheck
@test "cm valgrind: success and failure paths (pair, nobody listening, ENODEV) run clean under valgrind" {
    use_valgrind
    cm_pair --op write -q 4 --size 4K --iters 2 -t 60
    assert_ok_cm
    no_valgrind_reports "$SLOG" "$CLOG"
    # 失败路径：客户端没人监听（REJECTED），服务端地址所在网卡没有 RDMA 设备（ENODEV）。
    # （两端都失败的 -q 不一致在下一个用例（ASan）里；valgrind 在 TCG 里每启动一次要十几秒）
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -t 20
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    has "$CLOG" 'RDMA_CM_EVENT_REJECTED'
    no_valgrind_reports "$CLOG"
    add_plain_nic
    start_server --cm --src 10.99.0.2 -t 20
    wait_server
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    has "$SLOG" 'rdma_bind_addr() 失败: No such device'
    no_valgrind_reports "$SLOG"
}

@test "cm asan: success and failure paths under ASan+UBSan are clean" {
    [[ -x build/asan/rdma_server && -x build/asan/rdma_client ]] || { echo "先 make asan" >&2; return 1; }
    local SERVER=build/asan/rdma_server CLIENT=build/asan/rdma_client
    local ASAN_DIR="$BATS_TEST_TMPDIR/sanitizer" f
    mkdir -p "$ASAN_DIR"
    export ASAN_OPTIONS="log_path=$ASAN_DIR/asan:detect_leaks=1:exitcode=86:abort_on_error=0"
    export UBSAN_OPTIONS="log_path=$ASAN_DIR/ubsan:print_stacktrace=1:halt_on_error=1"
    cm_pair --op write -q 16 --size 4K --iters 2 -t 60
    assert_ok_cm
    cm_pair --op "$(kop fetch_add)" -q 4 --iters 2 -t 60
    assert_ok_cm
    start_server --cm --interactive -q 2 -t 60
    run_client_stdin 'asan\nq\n' "$LAB_IP0" --cm -d "$LAB_DEV1" --interactive -q 2 -t 60
    wait_server
    assert_ok_cm
    # 失败路径：没人监听、-q 不一致（拒绝）、ENODEV、解析超时
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -t 20
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    start_server --cm -q 4 -t 20
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" -q 2 -t 20
    wait_server
    [[ $SRC == 1 && $CRC == 1 ]] || { show_logs; return 1; }
    add_plain_nic
    start_server --cm --src 10.99.0.2 -t 20
    wait_server
    [[ $SRC == 1 ]] || { show_logs; return 1; }
    run_client 10.11.0.9 --cm -d "$LAB_DEV1" -t 5
    [[ $CRC == 1 ]] || { show_logs; return 1; }
    for f in "$ASAN_DIR"/*; do
        [[ -e $f ]] || continue
        echo "sanitizer 报告 $f:"
        cat "$f"
        return 1
    done
}
