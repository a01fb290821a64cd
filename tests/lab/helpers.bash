# helpers.bash - 实验室测试的公共函数（在 lab/run 启动的虚拟机里由 bats 加载）
# 约定：服务端在 rxe0 (10.11.0.1)，客户端在 rxe1，连 10.11.0.1。

SERVER=build/rdma_server
CLIENT=build/rdma_client
# 测试版的程序（make 的 build/test/）：同样的代码，多链接 tests/plugins/ 的测试插件（tests/plugins/test_plugins.h：每个插件一个 ROCE_TEST_ 环境变量）
# shellcheck disable=SC2034  # 用在 ops.bats、cm.bats
TEST_SERVER=build/test/rdma_server
# shellcheck disable=SC2034
TEST_CLIENT=build/test/rdma_client
: "${LAB_DEV0:=rxe0}" "${LAB_DEV1:=rxe1}" "${LAB_IP0:=10.11.0.1}"

# 子 bash 里的 nap：睡 0.1 秒而不 fork sleep（在一个没人写的管道上 read -t）。用法：bash -c "$NAP"'...; nap; ...'
# shellcheck disable=SC2016  # 在子 bash 里展开
NAP='exec {NAP_FD}<> <(:); nap() { read -rt 0.1 -u "$NAP_FD" || :; }
'

# 服务端的就绪标志：--ready-file $READY，开始等客户端时（listen/rdma_listen 之后）服务端写一行
# "ready tcp|cm PORT PID"。测试等这个文件，不去认控制台上的中文
new_ready_file() {
    READY_N=$((${READY_N:-0} + 1))
    READY="$BATS_TEST_TMPDIR/ready.$READY_N"
    [[ ! -e $READY ]] || rm -f "$READY"   # 一般不存在：省一次 fork
}
# wait_ready PID 秒：$READY 出现了返回 0；进程已经退出（错误用例）也返回 0；超时返回 1。
# 等待的循环在子 bash 里（见 NAP）：bats 给测试进程装了 DEBUG trap，测试里（连同这些函数）每条命令在 TCG 里要十几毫秒，
# 每 0.1 秒一圈的等待在 trap 下每圈多花几十毫秒、还 fork 一个 sleep，和正在启动的程序抢虚拟机的 CPU
wait_ready() {
    bash -c "$NAP"'
        for ((i = 0; i < $2 * 10; i++)); do
            [[ -s $1 ]] && exit 0
            kill -0 "$3" 2>/dev/null || exit 0
            nap
        done
        exit 1' _ "$READY" "$2" "$1"
}

# 后台启动服务端，输出写入 $BATS_TEST_TMPDIR/server.log，等到它开始监听
start_server() {
    SLOG="$BATS_TEST_TMPDIR/server.log"
    new_ready_file
    timeout "${CMD_TIMEOUT:-120}" "$SERVER" --ready-file "$READY" "$@" >"$SLOG" 2>&1 &
    SPID=$!
    wait_ready "$SPID" "${START_WAIT:-30}" && return 0
    echo "服务端 ${START_WAIT:-30} 秒内没有开始监听" >&2
    cat "$SLOG" >&2
    return 1
}

# 等服务端退出，退出码放进 SRC
wait_server() {
    SRC=0
    wait "$SPID" || SRC=$?
    SPID=
}

# 运行客户端，输出写入 $BATS_TEST_TMPDIR/client.log，退出码放进 CRC
run_client() {
    CLOG="$BATS_TEST_TMPDIR/client.log"
    CRC=0
    timeout "${CMD_TIMEOUT:-120}" "$CLIENT" "$@" >"$CLOG" 2>&1 || CRC=$?
}

# 客户端的标准输入来自 $1（printf %b 解释 \n），其余参数照传（交互模式用）
run_client_stdin() {
    local input=$1
    shift
    CLOG="$BATS_TEST_TMPDIR/client.log"
    CRC=0
    printf '%b' "$input" | timeout "${CMD_TIMEOUT:-120}" "$CLIENT" "$@" >"$CLOG" 2>&1 || CRC=$?
}

# 不是本项目的对端：连上已启动的服务端，发一个 HTTP 请求，等服务端退出（SRC）
http_peer() {
    local fd
    exec {fd}<>"/dev/tcp/$LAB_IP0/18515"
    # printf 按行分几次 write；服务端读完头就拒绝并关连接，后面的 write 可能遇到 RST，这不算失败
    { printf 'GET / HTTP/1.0\r\nHost: x\r\nUser-Agent: test-test-test\r\n\r\n' >&"$fd"; } 2>/dev/null || true
    wait_server
    exec {fd}>&-
}

# 打印两边日志（断言失败时 bats 会显示）
show_logs() {
    echo "----- server (rc=${SRC:-?}) -----"
    cat "${SLOG:-/dev/null}" 2>/dev/null || true
    echo "----- client (rc=${CRC:-?}) -----"
    cat "${CLOG:-/dev/null}" 2>/dev/null || true
}

# 服务端 + 客户端跑完一对；两边参数相同部分放在 "$@"
run_pair() {
    start_server -d "$LAB_DEV0" "$@"
    run_client "$LAB_IP0" -d "$LAB_DEV1" "$@"
    wait_server
}

# UD 带宽的一对，服务端晚 200 毫秒才投递接收（--inject late-recv：这期间到达的消息真的被丢掉）；两端参数相同部分放在 "$@"
ud_bw_late_recv_pair() {
    start_server -d "$LAB_DEV0" --qp ud --bench bw --op send --inject late-recv "$@"
    run_client "$LAB_IP0" -d "$LAB_DEV1" --qp ud --bench bw --op send "$@"
    wait_server
}

# --cm 的一对：服务端监听 0.0.0.0，客户端 -d rxe1（源地址决定设备）；两端参数相同部分放在 "$@"
cm_pair() {
    start_server --cm "$@"
    run_client "$LAB_IP0" --cm -d "$LAB_DEV1" "$@"
    wait_server
}

# 程序本身的 PID（$SPID 等是外面 timeout 的 PID；给 timeout 发 SIGSTOP 停不住程序）
child_pid() {  # child_pid 外层PID
    local i pid
    for ((i = 0; i < 50; i++)); do
        pid=$(pgrep -P "$1" | head -n1)
        [[ -n $pid ]] && { echo "$pid"; return 0; }
        sleep 0.1
    done
    echo "找不到 $1 的子进程" >&2
    return 1
}

# 等文件里出现某个固定字符串（最多 $3 秒）；没等到就说出来，并打印那个文件
wait_for() {  # wait_for 文件 字符串 秒（按行找固定字符串，同 contains；循环在子 bash 里，见 wait_ready）
    bash -c "$NAP"'
        printf -v nl "\n"
        IFS=$nl
        for ((i = 0; i < $3 * 10; i++)); do
            mapfile -t l 2>/dev/null <"$1" && [[ $nl${l[*]}$nl == *"$2"* ]] && exit 0
            nap
        done
        exit 1' _ "$@" && return 0
    echo "$3 秒内 $1 里没出现: $2"
    cat "$1"
    return 1
}

kill_server() {
    if [[ -n "${SPID:-}" ]]; then
        kill "$SPID" 2>/dev/null || true
        wait "$SPID" 2>/dev/null || true
    fi
}

assert_ok_pair() {
    if [[ $SRC != 0 || $CRC != 0 ]]; then
        show_logs
        return 1
    fi
    assert_full_cleanup "$SLOG"
    assert_full_cleanup "$CLOG"
}

# 成功的一次运行：清理步骤完整（QP、CQ、MR、PD、设备、设备列表全部释放），没有任何 ibv_* 清理警告。
# 例如漏了 ibv_destroy_qp，ibv_destroy_cq 就会以 EBUSY 失败并打印“警告: ibv_destroy_cq() 失败”。
# （一次 awk 做完全部检查：TCG 里每 fork 一个 grep 都要几十毫秒）
assert_full_cleanup() {
    local problems
    problems=$(awk '
        BEGIN { n = split("^已销毁 [0-9]+ 个QP（ibv_destroy_qp）$|^已销毁CQ（ibv_destroy_cq）$|^已注销MR（ibv_dereg_mr）$|" \
                          "^已释放PD（ibv_dealloc_pd）$|^已关闭设备（ibv_close_device）$|^已释放设备列表（ibv_free_device_list）$", want, "|") }
        /警告: ibv_/ { print "清理警告: " $0 }
        { for (i = 1; i <= n; i++) if ($0 ~ want[i]) seen[i] = 1 }
        END { for (i = 1; i <= n; i++) if (!seen[i]) print "没找到清理步骤: " want[i] }
    ' "$1")
    if [[ -n $problems ]]; then
        echo "$1:"
        echo "$problems"
        show_logs
        return 1
    fi
}

# contains 文件 字符串：文件里有一行含有这个固定字符串（和 grep -qF 一样按行；字符串里没有换行）。0 有，1 没有，2 读不了。
# 不 fork：bats 的每个用例里有几十次这样的检查，TCG 里每个 grep 的 fork+exec 约 0.1 s（负载高时 0.5 s），
# 在实验室里量过：20 次 grep 10.4 s，20 次 contains 1.7 s（负载 12）。命令条数也要少：bats 的 DEBUG trap 让每条命令都贵
contains() {
    local IFS=$'\n' lines
    mapfile -t lines <"$1" || return 2
    [[ $'\n'"${lines[*]}"$'\n' == *"$2"* ]]
}

# 任何一次运行（成功或失败）：都不能有 ibv_* 的清理警告
no_cleanup_warnings() {
    local f
    for f in "$@"; do
        [[ -f $f ]] || continue
        if contains "$f" '警告: ibv_'; then
            grep -F '警告: ibv_' "$f"
            echo "$f 里有 ibv_* 清理警告（资源没有按逆序释放？）"
            show_logs
            return 1
        fi
    done
}

# 测试需要的工具：本地缺了就跳过，CI 里（CI=true）缺了就是失败，不能悄悄跳过
need_tool() {
    command -v "$1" >/dev/null && return 0
    if [[ -n ${CI:-} ]]; then
        echo "CI 里缺少测试需要的工具 $1（lab/setup 应该装好它）" >&2
        return 1
    fi
    skip "$1 not installed"
}

# 之后的 start_server/run_client/cm_pair… 都在 valgrind 里运行程序：SERVER/CLIENT 换成包装脚本。
# 有内存错误或确定的泄漏（definitely lost）时 valgrind 让程序以 99 退出，报告（==PID== 开头的行）留在各自的日志里。
# 只报确定的泄漏：librdmacm 把它打开的设备上下文留在自己的全局表里直到进程结束，valgrind 算作 “possibly lost”，
# 那不是我们的泄漏（--cm 的 cm_id、事件通道、PD… 都由程序自己释放，日志里有每一步）。
# TCG 里 valgrind 启动要十几秒，所以等服务端开始监听的时间也放宽（START_WAIT）。
use_valgrind() {
    need_tool valgrind || return 1
    local w
    for w in server client; do
        printf '#!/bin/sh\nexec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite %s "$@"\n' \
            "$PWD/build/rdma_$w" >"$BATS_TEST_TMPDIR/vg-$w"
        chmod +x "$BATS_TEST_TMPDIR/vg-$w"
    done
    SERVER=$BATS_TEST_TMPDIR/vg-server CLIENT=$BATS_TEST_TMPDIR/vg-client START_WAIT=150 CMD_TIMEOUT=300
}

# 日志里不能有 valgrind 的报告（--quiet 时 valgrind 只在有问题时才打印 ==PID== 行）
no_valgrind_reports() {
    local f
    for f in "$@"; do
        if grep -E '^==[0-9]+== ' "$f"; then
            echo "$f 里有 valgrind 报告"
            show_logs
            return 1
        fi
    done
}

# 两个 rxe 设备的 RNR NAK 计数之和（发送 + 收到），放进 RNR。
# 正确的程序总是先投递接收再让对端发送，计数不变。（用 read 内建命令，不 fork）
rnr_count() {
    local f v
    RNR=0
    for f in /sys/class/infiniband/rxe*/ports/1/hw_counters/{rcvd_rnr_err,send_rnr_err}; do
        read -r v <"$f"
        RNR=$((RNR + v))
    done
}

# 断言 RNR 计数从 $1 起没有变化
assert_no_rnr() {
    local before=$1
    rnr_count
    if [[ $RNR != "$before" ]]; then
        echo "RNR NAK 计数从 $before 变成了 $RNR：有 SEND/WRITE_IMM 在对端投递接收之前就到了（被 rnr_retry 重试掩盖）"
        show_logs
        return 1
    fi
}

# 文件中必须包含（固定字符串）
has() {
    if ! contains "$1" "$2"; then
        echo "在 $1 中没找到: $2"
        show_logs
        return 1
    fi
}

# ---- 内核版本（docs/KERNELS.md）----
# 运行的内核早于 6.1：rxe 不执行原子操作，对错误的 rkey 也不回 NAK，两者都以 RETRY_EXC_ERR 结束
rxe_before_6_1() {
    local major minor
    IFS=. read -r major minor _ <<<"$(uname -r)"
    ((major < 6 || (major == 6 && minor < 1)))
}
# 6.12 起的 rxe（实测 6.12：用 SRQ 的 QP 改到 ERR 后发 IBV_EVENT_QP_LAST_WQE_REACHED；5.10、6.1 不发）
rxe_since_6_12() {
    local major minor
    IFS=. read -r major minor _ <<<"$(uname -r)"
    ((major > 6 || (major == 6 && minor >= 12)))
}
# 运行的内核是 6.2 或更新：内核的 CM 给被动方的 INIT 权限多两个 RDMA FLUSH 位（0x30e，不是 0xe）
kernel_since_6_2() {
    local major minor
    IFS=. read -r major minor _ <<<"$(uname -r)"
    ((major > 6 || (major == 6 && minor >= 2)))
}
# 内核的 CM 给主动方 RTS 的 timeout（本地 ACK 超时的指数）：5.10、6.1 上 19，6.12 上 17（docs/KERNELS.md；
# 6.1 与 6.12 之间没有测过，按 6.12 算）
cm_rts_timeout() {
    local major minor
    IFS=. read -r major minor _ <<<"$(uname -r)"
    if ((major > 6 || (major == 6 && minor >= 12))); then echo 17; else echo 19; fi
}
# 循环“每种带数据检查的操作”时用：早于 6.1 的内核上不含原子操作（那里的断言在 ops.bats 的 fetch_add/cmp_swap 用例）
data_ops() {
    if rxe_before_6_1; then echo send write read write_imm; else echo send write read write_imm fetch_add cmp_swap; fi
}
# 单个操作：早于 6.1 的内核上原子操作换成 write（用例别的部分照样检查）
kop() {
    if [[ $1 == fetch_add || $1 == cmp_swap ]] && rxe_before_6_1; then echo write; else echo "$1"; fi
}
# 早于 6.1 的内核上 rxe 自己造成的 RETRY_EXC_ERR：状态，以及点名内核和实测范围的提示（src/verbs/kernel_note.c）
assert_rxe_kernel_note() {
    has "$1" '状态=transport retry counter exceeded (12)'
    has "$1" "提示(内核): 这台机器运行的内核是 $(uname -r)。"
    has "$1" '实测于 5.10（Debian 11）；6.1、6.12 上原子操作成功，错误的 rkey 得到 REM_ACCESS_ERR；5.10 与 6.1 之间的内核没有测试。'
}
