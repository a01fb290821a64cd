# tools/lib/listen.bash - 实验室里的工具脚本共用：等本机 TCP 端口进入 LISTEN（被 tools/bench/compare.sh、tools/loss-vs-tcp/run.sh source）
#
# wait_listen 端口：端口用十进制写（18515），读 /proc/net/tcp 和 tcp6（perftest 可能只监听在 IPv6 上），
# 15 秒内没等到就在标准错误上打印一句警告、返回 1；调用者照常往下跑（客户端连不上会自己报错，那一次运行记为失败）。
wait_listen() {
    local hex i
    printf -v hex ':%04X 0\\{8,32\\}:0000 0A' "$1"
    for ((i = 0; i < 150; i++)); do
        grep -qs "$hex" /proc/net/tcp /proc/net/tcp6 && return 0
        sleep 0.1
    done
    echo "# 警告: 15 秒内没有进程监听 TCP 端口 $1" >&2
    return 1
}
