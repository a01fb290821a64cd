#!/usr/bin/env bats
# many.bats - 多客户端服务端（--clients / --parallel）在真实 rdma_rxe 上：隔离、不泄漏、信号收尾
# （在 lab/run 里运行，tests/39-lab-bench.t）

# 变量 SLOG/SPID/SRC 由本文件和 helpers.bash 的函数设置和读取（shellcheck 看不到）
# shellcheck disable=SC2030,SC2031,SC2034,SC2153
load helpers

teardown() {
    kill_server
    # 用例中途失败时，后台的客户端还在：杀掉它们，免得它们连上下一个用例的服务端
    local pid
    for pid in "${CPID[@]}"; do kill "$pid" 2>/dev/null || true; done
    no_cleanup_warnings "${SLOG:-}" "$BATS_TEST_TMPDIR"/c*.log
}

# 后台启动多客户端服务端，等到它开始接待（步骤6 之后）
start_many() {
    SLOG="$BATS_TEST_TMPDIR/server.log"
    new_ready_file
    timeout "${CMD_TIMEOUT:-300}" "$SERVER" -d "$LAB_DEV0" --ready-file "$READY" "$@" >"$SLOG" 2>&1 &
    SPID=$!
    wait_ready "$SPID" 60 && [[ -s $READY ]] && return 0
    echo "服务端没有开始接待客户端"
    cat "$SLOG"
    return 1
}

# 客户端 N 在后台运行，输出写入 cN.log；wait_clients 等它们（不等服务端）并把退出码写进 cN.rc
declare -A CPID=()
client_bg() {  # client_bg N 参数...（默认 -t 30：TCG 里十几个会话同时跑很慢；后面的 -t 覆盖它）
    local n=$1
    shift
    timeout 300 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" -t 30 "$@" >"$BATS_TEST_TMPDIR/c$n.log" 2>&1 &
    CPID[$n]=$!
}

wait_clients() {
    local n rc
    for n in "${!CPID[@]}"; do
        rc=0
        wait "${CPID[$n]}" || rc=$?
        echo "$rc" >"$BATS_TEST_TMPDIR/c$n.rc"
    done
    CPID=()
}

# 文件中必须有一行匹配正则（grep -E）；没有时打印文件
has_re() {
    grep -qE -- "$2" "$1" && return 0
    echo "在 $1 中没有匹配: $2"
    cat "$1"
    return 1
}

client_rc() {
    if [[ ! -f $BATS_TEST_TMPDIR/c$1.rc ]]; then
        echo "客户端 $1 没有退出码（wait_clients 没等它？）" >&2
        return 1
    fi
    cat "$BATS_TEST_TMPDIR/c$1.rc"
}

# 服务端进程（不是外面的 timeout）的 fd 数、VmRSS(kB)、以及全部 rxe 设备上的 rdma 资源计数
snapshot() {  # snapshot PID → 输出 "fds rss pd cq qp mr"
    local pid=$1 fds rss
    fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 | wc -l)
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
    rdma resource show | awk -v fds="$fds" -v rss="$rss" '
        { for (i = 1; i < NF; i++) if ($i ~ /^(pd|cq|qp|mr)$/) n[$i] += $(i + 1) }
        END { print fds, rss, n["pd"] + 0, n["cq"] + 0, n["qp"] + 0, n["mr"] + 0 }'
}

@test "8 clients at once with data checks, plus garbage, stalled and mismatched clients: the good ones succeed" {
    # 13 个连接：9 个正常（各种操作、QP 数、大小，每个 3 轮）+ 乱码 + 不说话 + 参数不一致 + 交互模式
    # （传输中被杀的客户端在下一个用例里）
    start_many --clients 13 --parallel 13 --iters 3 -t 8 --accept-timeout 120
    client_bg 1 --op send -q 1 --iters 3
    client_bg 2 --op write -q 4 --size 4096 --iters 3
    client_bg 3 --op read -q 2 --size 2048 --iters 3
    client_bg 4 --op write_imm -q 3 --iters 3
    client_bg 5 --op "$(kop fetch_add)" -q 2 --iters 3
    client_bg 6 --op "$(kop cmp_swap)" -q 1 --iters 3
    client_bg 7 --op send -q 16 --size 1K --iters 3
    client_bg 8 --op write -q 1 --size 64K --iters 3
    # 乱码：不是我们的 HELLO
    # bash 的 printf 按行分几次 write：服务端读完头 48 字节就拒绝并关连接，后面几次 write 可能遇到 RST，这不算失败
    exec {junk}<>"/dev/tcp/$LAB_IP0/18515"
    { printf 'GET / HTTP/1.0\r\nHost: x\r\nUser-Agent: garbage-garbage-garbage\r\n\r\n' >&"$junk"; } 2>/dev/null || true
    # 连上了却一句话也不说（握手卡住）：服务端这个会话 -t 秒后超时
    exec {mute}<>"/dev/tcp/$LAB_IP0/18515"
    # --iters 与服务端明确给的 3 不一致
    client_bg 9 --op send --iters 5
    client_bg 10 --op write -q 2 --size 64K --iters 3
    # 交互模式的客户端：多客户端服务端不做交互，握手时两端都报不一致
    client_bg 11 --interactive --iters 3
    wait_clients
    for n in 1 2 3 4 5 6 7 8; do
        [[ $(client_rc $n) == 0 ]] || { echo "客户端 $n 失败"; cat "$BATS_TEST_TMPDIR/c$n.log"; cat "$SLOG"; return 1; }
        has "$BATS_TEST_TMPDIR/c$n.log" '客户端正常结束'
    done
    [[ $(client_rc 9) == 1 ]]
    has "$BATS_TEST_TMPDIR/c9.log" '远端轮数(3)与本端不匹配(5)'
    [[ $(client_rc 11) == 1 ]]
    has "$BATS_TEST_TMPDIR/c11.log" '两端的 --op/--interactive 必须相同'
    # 不说话的连接要一直开着，直到服务端的这个会话在 -t 秒后报超时（客户端们跑得快时，提前关掉就成了“对端关闭”）
    wait_for "$SLOG" '等待对端的连接信息头超时' 30
    exec {junk}>&- {mute}>&-
    wait_server
    cp "$SLOG" logs/many-clients-server.log      # README 里交错输出的来源
    [[ $SRC == 1 ]] || { echo "服务端退出码 $SRC（有失败的会话应为 1）"; cat "$SLOG"; return 1; }
    has "$SLOG" '接受了 13 个客户端：成功 9 个，失败 4 个'
    has "$SLOG" '对端发来的连接信息无效'
    has "$SLOG" '远端轮数(5)与本端不匹配(3)'
    # 每个成功的客户端在服务端都有自己的前缀、自己从步骤7开始的编号和自己的清理
    local ok
    ok=$(grep -c '^\[客户端[0-9]* [0-9.]*\] 本客户端正常结束$' "$SLOG")
    [[ $ok == 9 ]] || { echo "本客户端正常结束: $ok 行"; cat "$SLOG"; return 1; }
    [[ $(grep -c '\] ========== 步骤7: TCP连接（控制平面）：主线程已 accept' "$SLOG") == 13 ]]
    # 交错的输出里每一行要么是主线程的，要么整行属于一个客户端（前缀只在行首出现一次）
    if grep -n '.\[客户端[0-9]* [0-9.]*\] ' "$SLOG"; then
        echo "有一行里出现了两个前缀（行被交错打断）"
        return 1
    fi
    # 设备和 PD 只有一份，最后释放
    [[ $(grep -c '已释放PD（ibv_dealloc_pd）' "$SLOG") == 1 ]]
    [[ $(grep -c 'PD 已分配' "$SLOG") == 1 ]]
}

# 大端的 n 字节整数，写成 printf %b 认识的 \xHH 转义，接在变量 H 后面（be 字节数 值）。
# 不用 $(...)：TCG 里每个子 shell 约 60 ms，一个 HELLO 要几十个，7 个 HELLO 就是十几秒（hostile 在一个子 bash 里调用它）
be() {
    local n=$1 v=$2 i x
    for ((i = n - 1; i >= 0; i--)); do
        printf -v x '\\x%02x' $(((v >> (8 * i)) & 255))
        H+=$x
    done
}

# 一个格式正确的 HELLO（src/control/wire.h 的布局，第 3 版），转义后放进 H：hello op flags size iters addr rkey slot offset
# num_qp=1、mtu=3（1024）、max_qp_rd_atom/max_qp_init_rd_atom 都是 16、GID 类型 2（RoCE v2）；QP 条目 qpn 0x11、psn 1、lid 0、gid ::ffff:10.11.0.2（rxe1 的地址：
# 服务端的 RTR 能成功，坏字段才真的会被用到）
hello() {
    local i a b c d
    IFS=. read -r a b c d <<<"10.11.0.2"
    H=RCV2
    be 2 "${HELLO_VERSION:-3}"; be 1 "$1"; be 1 "$2"; be 4 1; be 4 3; be 4 "$3"; be 4 "$4"
    be 8 "$5"; be 4 "$6"; be 4 "$7"; be 4 "$8"
    # 第 1 版的头没有这 4 个字节（HELLO_VERSION=1：旧程序的 HELLO）
    [[ ${HELLO_VERSION:-3} == 1 ]] || { be 1 16; be 1 16; be 1 2; be 1 0; }
    be 4 0x11; be 4 1; be 2 0; be 2 0
    for ((i = 0; i < 10; i++)); do H+='\x00'; done
    H+='\xff\xff'
    be 1 "$a"; be 1 "$b"; be 1 "$c"; be 1 "$d"
}

# 连上服务端，发一个 HELLO，等服务端把这个会话收尾（第 $1 个客户端），再关连接。
# HELLO 先写进文件再用 cat 一次写出：bash 的 printf 在 0x0a 字节处分成两次 write（strace 看得到），
# 服务端拒绝后关了连接，后一段可能写失败；服务端拒绝得多快不该让测试失败
hostile() {  # hostile 第几个客户端 hello的参数...
    local n=$1 fd f="$BATS_TEST_TMPDIR/hello$1.bin"
    shift
    # 在子 bash 里拼：bats 的 DEBUG trap 下每条命令都贵（一个 HELLO 约 200 条），子进程不继承 trap
    bash -c "$(declare -f be hello)"'
        HELLO_VERSION=$1
        shift
        hello "$@"
        printf "%b" "$H"' _ "${HELLO_VERSION:-3}" "$@" >"$f"
    exec {fd}<>"/dev/tcp/$LAB_IP0/18515"
    cat "$f" >&"$fd" || true
    wait_for "$SLOG" "客户端$n $LAB_IP0 的会话结束" 30 || { exec {fd}>&-; return 1; }
    exec {fd}>&-
}

@test "hostile but well-formed HELLOs: each rejected naming the field and its limit; the server survives and serves the next client" {
    # 每个 HELLO 都能通过解码（魔数、版本、num_qp、op、mtu、QP号都对），只有一个字段是坏的
    start_many --clients 8 --parallel 2 -t 5
    # fetch_add 的目标字在槽外 256 MiB 处（issue 22 里的段错误）
    hostile 1 4 0 8 3 0x7f0000000000 0x1234 64 0x10000000
    # fetch_add 的目标字没按 8 字节对齐
    hostile 2 4 0 8 3 0x7f0000000000 0x1234 64 4
    # write 的消息大小是 0
    hostile 3 1 0 0 3 0x7f0000000000 0x1234 0 0
    # flags 里有没定义的位
    hostile 4 0 0x80 64 3 0 0 0 0
    # 轮数 0
    hostile 5 0 0 64 0 0 0 0 0
    # 旧版本（第 1 版，头短 4 字节）的程序
    HELLO_VERSION=1 hostile 6 0 0 64 3 0 0 0 0
    # fetch_add 的 offset 对齐了，MR 的地址 addr 却没有：目标字 addr + i×slot + offset 不按 8 字节对齐
    hostile 7 4 0 8 3 0x7f0000000004 0x1234 64 0
    client_bg 8 --op fetch_add -q 2 --iters 3
    wait_clients
    wait_server
    [[ $(client_rc 8) == 0 ]] || { cat "$BATS_TEST_TMPDIR/c8.log" "$SLOG"; return 1; }
    [[ $SRC == 1 ]] || { echo "服务端退出码 $SRC（应为 1：有失败的会话；139 = 段错误）"; cat "$SLOG"; return 1; }
    has "$SLOG" '接受了 8 个客户端：成功 1 个，失败 7 个'
    has_re "$SLOG" '^\[客户端1 [0-9.]*\] 错误: 对端发来的连接信息无效: offset=268435456 .*0\.\.56'
    has_re "$SLOG" '^\[客户端2 [0-9.]*\] 错误: 对端发来的连接信息无效: offset=4 .*8 字节对齐'
    has_re "$SLOG" '^\[客户端3 [0-9.]*\] 错误: 对端发来的连接信息无效: size=0 '
    has_re "$SLOG" '^\[客户端4 [0-9.]*\] 错误: 对端发来的连接信息无效: flags=0x80 '
    has_re "$SLOG" '^\[客户端5 [0-9.]*\] 错误: 对端发来的连接信息无效: iters=0 '
    has_re "$SLOG" '^\[客户端6 [0-9.]*\] 错误: 对端发来的连接信息无效: 协议版本不一致：对端是第 1 版，本端是第 3 版'
    has_re "$SLOG" '^\[客户端7 [0-9.]*\] 错误: 对端发来的连接信息无效: addr=0x7f0000000004 不行：原子操作的目标字必须按 8 字节对齐'
    # 坏的 HELLO 在创建任何资源之前就被拒绝
    [[ $(grep -c 'MR 已注册' "$SLOG") == 1 ]] || { grep 'MR 已注册' "$SLOG"; return 1; }
}

@test "a client killed mid-transfer ends only its own session; the others finish" {
    start_many --clients 3 --parallel 3 -t 5
    client_bg 1 --op write -q 2 --size 1M --iters 400
    wait_for "$BATS_TEST_TMPDIR/c1.log" '数据传输' 60
    client_bg 2 --op send -q 4 --iters 3
    client_bg 3 --op read -q 1 --iters 3
    sleep 1
    pkill -KILL -f -- '--iters 400'
    wait_clients
    [[ $(client_rc 2) == 0 && $(client_rc 3) == 0 ]] || { cat "$BATS_TEST_TMPDIR"/c*.log "$SLOG"; return 1; }
    wait_server
    [[ $SRC == 1 ]]
    has "$SLOG" '接受了 3 个客户端：成功 2 个，失败 1 个'
    has "$SLOG" '[客户端1 '
    has_re "$SLOG" '^\[客户端1 [0-9.]*\] 本客户端失败'
    has_re "$SLOG" '^\[客户端1 [0-9.]*\] 已销毁 2 个QP'
}

# make test 里跑 SOAK_SESSIONS=25 个（约 15 秒）；make soak 跑 200 个
@test "sequential sessions (200 in make soak): no growth in fds or rdma resources, RSS within 10% after the first 10" {
    local total=${SOAK_SESSIONS:-18} pid before after i
    start_many --clients 0 --parallel 1
    pid=$(child_pid "$SPID")
    for ((i = 1; i <= total; i++)); do
        timeout 60 "$CLIENT" "$LAB_IP0" -d "$LAB_DEV1" -q 4 --op write --size 4K >"$BATS_TEST_TMPDIR/seq.log" 2>&1 ||
            { echo "第 $i 个客户端失败"; cat "$BATS_TEST_TMPDIR/seq.log"; return 1; }
        # 下一个客户端之前，等服务端把这个会话收尾（join）
        wait_for "$SLOG" "客户端$i 10.11.0.1 的会话结束" 30 >/dev/null
        if ((i == 10)); then before=$(snapshot "$pid"); fi
    done
    after=$(snapshot "$pid")
    echo "# 第10个之后: fds rss pd cq qp mr = $before" >&3
    echo "# 第${total}个之后: fds rss pd cq qp mr = $after" >&3
    read -r f1 r1 pd1 cq1 qp1 mr1 <<<"$before"
    read -r f2 r2 pd2 cq2 qp2 mr2 <<<"$after"
    [[ $f2 -le $f1 && $pd2 -le $pd1 && $cq2 -le $cq1 && $qp2 -le $qp1 && $mr2 -le $mr1 ]] ||
        { echo "资源增长: $before → $after"; return 1; }
    ((r2 * 10 <= r1 * 11)) || { echo "RSS 从 $r1 kB 涨到 $r2 kB（超过 10%）"; return 1; }
    kill -INT "$pid"
    wait_server
    [[ $SRC == 0 ]] || { tail -20 "$SLOG"; return 1; }
    has "$SLOG" '收到 SIGINT：不再接受新的客户端'
    has "$SLOG" "接受了 $total 个客户端：成功 $total 个，失败 0 个"
}

@test "SIGTERM during transfers: stop accepting, grace period, abort, release everything, exit 1" {
    start_many --clients 0 --parallel 4 -t 3
    local pid
    pid=$(child_pid "$SPID")
    client_bg 1 --op write -q 2 --size 1M --iters 1000 -t 3
    client_bg 2 --op send -q 4 --size 64K --iters 5000 -t 3
    wait_for "$BATS_TEST_TMPDIR/c1.log" '数据传输' 60
    wait_for "$BATS_TEST_TMPDIR/c2.log" '数据传输' 60
    kill -TERM "$pid"
    wait_server
    wait_clients
    [[ $SRC == 1 ]] || { cat "$SLOG"; return 1; }
    has "$SLOG" '收到 SIGTERM：不再接受新的客户端；正在服务的 2 个最多再等 3 秒'
    has "$SLOG" '宽限期到了：中止还在跑的 2 个会话'
    has "$SLOG" '接受了 2 个客户端：成功 0 个，失败 2 个'
    # 两个客户端几乎同时连上，谁是“客户端1”由 accept 的先后决定
    has_re "$SLOG" '^\[客户端[12] [0-9.]*\] 已销毁 2 个QP'
    has_re "$SLOG" '^\[客户端[12] [0-9.]*\] 已销毁 4 个QP'
    has "$SLOG" '已释放PD（ibv_dealloc_pd）'
    # 两个客户端都以清楚的错误结束，不会卡住
    [[ $(client_rc 1) == 1 && $(client_rc 2) == 1 ]]
    # 服务端退出后，新的连接被拒绝
    if timeout 5 bash -c "exec 3<>/dev/tcp/$LAB_IP0/18515" 2>/dev/null; then
        echo "服务端退出后还能连上 18515"
        return 1
    fi
}

@test "SIGINT with nobody connected: exit 0 with a summary" {
    start_many --clients 0
    kill -INT "$(child_pid "$SPID")"
    wait_server
    [[ $SRC == 0 ]] || { cat "$SLOG"; return 1; }
    has "$SLOG" '收到 SIGINT'
    has "$SLOG" '接受了 0 个客户端：成功 0 个，失败 0 个'
    has "$SLOG" '服务端正常结束'
}

# bats test_tags=memcheck
@test "valgrind: a many-clients server with a good, a garbage and a vanishing client runs clean" {
    need_tool valgrind
    local vg=(valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
    SLOG="$BATS_TEST_TMPDIR/server.log"
    new_ready_file
    timeout 300 "${vg[@]}" "$SERVER" -d "$LAB_DEV0" --clients 3 --parallel 2 -t 60 --ready-file "$READY" >"$SLOG" 2>&1 &
    SPID=$!
    wait_ready "$SPID" 120
    client_bg 1 --op write -q 4 --iters 2 -t 60
    wait_clients
    exec {junk}<>"/dev/tcp/$LAB_IP0/18515"
    printf 'not a hello, not at all, definitely garbage bytes....' >&"$junk"
    exec {junk}>&-
    client_bg 3 --op read -q 2 --iters 100000 -t 60
    wait_for "$BATS_TEST_TMPDIR/c3.log" '数据传输' 120
    pkill -KILL -f -- '--iters 100000 -t 60' || true
    wait_clients
    wait_server
    [[ $(client_rc 1) == 0 ]] || { cat "$BATS_TEST_TMPDIR/c1.log" "$SLOG"; return 1; }
    [[ $SRC == 1 ]] || { cat "$SLOG"; return 1; }
    if grep -q 'Invalid read\|Invalid write\|definitely lost\|uninitialised' "$SLOG"; then
        cat "$SLOG"
        return 1
    fi
    has "$SLOG" '接受了 3 个客户端：成功 1 个，失败 2 个'
}

@test "--trace with two clients at once: one file, every session event carries its client number" {
    local t="$BATS_TEST_TMPDIR/server-trace.jsonl"
    start_many --clients 2 --parallel 2 --trace "$t"
    client_bg 1 --op write -q 2 --size 2K --iters 2
    client_bg 2 --op send -q 3 --iters 2
    wait_clients
    wait_server
    [[ $SRC == 0 && $(client_rc 1) == 0 && $(client_rc 2) == 0 ]] || { cat "$SLOG"; return 1; }
    # 每行都是完整的 JSON（两个线程的行没有交错）；两个会话的事件各自带 conn，数得上各自的 QP
    python3 - "$t" <<'PYEOF'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
by_conn = {}
for e in events:
    by_conn.setdefault(e.get("conn", 0), []).append(e)
assert set(by_conn) == {0, 1, 2}, sorted(by_conn)
qps = {c: {e["qp"] for e in by_conn[c] if e["ev"] == "qp_state"} for c in (1, 2)}
assert sorted(len(v) for v in qps.values()) == [2, 3], qps
for c in (1, 2):
    steps = [e["n"] for e in by_conn[c] if e["ev"] == "step"]
    assert steps and steps[0] == 7, (c, steps[:3])
# 每个会话自己数 PSN（trace 插件每条连接一份的状态）：每个QP第一个 post_send 的 psn_first 是这个会话 RTS 时读回的 sq_psn，
# 之后每个接着前一个数（加它的 npkts，模 2^24）。send 的服务端每轮回发，write 的服务端不发
sent = {}
for c in (1, 2):
    rts, nxt = {}, {}
    for e in by_conn[c]:
        if e["ev"] == "qp_state" and e["state"] == "RTS":
            rts.setdefault(e["qp"], e["attr"]["sq_psn"])
        if e["ev"] == "post_send":
            want = nxt.get(e["qp"], rts.get(e["qp"]))
            assert e["psn_first"] == want, (c, e["qp"], e["psn_first"], want)
            nxt[e["qp"]] = (e["psn_first"] + e["npkts"]) & 0xFFFFFF
            sent[c] = sent.get(c, 0) + 1
assert sum(sent.values()) >= 6, ("服务端 send 的会话应该回发 3 个QP × 2 轮", sent)
print("# events:", {c: len(v) for c, v in by_conn.items()}, "post_send:", sent)
PYEOF
}
