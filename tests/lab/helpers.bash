# helpers.bash - 实验室测试的公共函数（在 lab/run 启动的虚拟机里由 bats 加载）
# 约定：服务端在 rxe0 (10.11.0.1)，客户端在 rxe1，连 10.11.0.1。

SERVER=build/rdma_server
CLIENT=build/rdma_client
: "${LAB_DEV0:=rxe0}" "${LAB_DEV1:=rxe1}" "${LAB_IP0:=10.11.0.1}"

# 后台启动服务端，输出写入 $BATS_TEST_TMPDIR/server.log，等到它开始监听
start_server() {
    SLOG="$BATS_TEST_TMPDIR/server.log"
    timeout 120 "$SERVER" "$@" >"$SLOG" 2>&1 &
    SPID=$!
    local i
    for ((i = 0; i < 300; i++)); do
        if grep -q '等待客户端连接' "$SLOG" 2>/dev/null; then return 0; fi
        if ! kill -0 "$SPID" 2>/dev/null; then return 0; fi   # 已经退出（错误用例）
        sleep 0.1
    done
    echo "服务端 30 秒内没有开始监听" >&2
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
    timeout 120 "$CLIENT" "$@" >"$CLOG" 2>&1 || CRC=$?
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
}

# 文件中必须包含（固定字符串）
has() {
    if ! grep -qF -- "$2" "$1"; then
        echo "在 $1 中没找到: $2"
        show_logs
        return 1
    fi
}
