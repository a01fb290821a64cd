# tests/lab/peer.bash - 两台虚拟机的场景脚本之间“等对端就绪”，不靠估计的时间窗口（被 tests/lab/*.sh source）
#
# lab/run（LAB_TOPOLOGY=two-vms）给两台一个共享目录 $LAB_SYNC（9p）。每台在里面放自己的标记文件：
#   vmN.<名字>   “我这边的 <名字> 好了”（例如 listen-18531：服务端已经在 18531 端口监听）
#   vmN.abort    “我放弃了”，内容是失败的那一步；对端正在等的任何标记都立刻失败，并说出这一步
#   vmN.done     “我的脚本走完了”；对端再等什么都等不到了，立刻失败
# 每次等待都有一个写明的上限（秒，默认 PEER_BOUND=180）：TCG 下两个核都被占满时一切慢 2–3 倍，
# 上限只是兜底；真正的失败（对端放弃、对端结束、对端的虚拟机退出——lab/run 几秒内就停掉另一台）都是立刻的。
# 等待只用 shell 内建的 read -t 计时（TCG 下每次 fork 约 60 ms），不 fork sleep。

PEER_BOUND=${PEER_BOUND:-180}
: "${LAB_SYNC:?只在 two-vms 实验室里用（lab/run 设置 LAB_SYNC）}"
: "${LAB_VM:?只在 two-vms 实验室里用（lab/run 设置 LAB_VM）}"
PEER_VM=$((1 - LAB_VM))
PEER_WHY=""
# 一个永远读不到数据的管道：read -t 在上面等够时间就返回，代替 sleep
exec {PEER_NAPFD}<> <(:)

peer_nap() { read -r -t "$1" -u "$PEER_NAPFD" _ || true; }

# peer_ready 名字：告诉对端“名字”好了
peer_ready() { : >"$LAB_SYNC/vm$LAB_VM.$1"; }

# peer_abort 步骤：告诉对端我在这一步放弃了（对端的等待立刻失败）
peer_abort() { printf '%s\n' "$1" >"$LAB_SYNC/vm$LAB_VM.abort"; }

# peer_done：我的脚本走完了（放在脚本最后）
peer_done() { : >"$LAB_SYNC/vm$LAB_VM.done"; }

# peer_wait 名字 [上限秒]：等对端的“名字”。0 = 好了；1 = 超过上限；2 = 对端放弃了或已经走完。
# 失败时 PEER_WHY 是一句说明（带上限和对端的情况），调用者把它写进 RESULT 行
peer_wait() {
    local name=$1 bound=${2:-$PEER_BOUND} i f=$LAB_SYNC/vm$PEER_VM
    for ((i = 0; i < bound * 5; i++)); do
        [[ -e $f.$name ]] && return 0
        if [[ -e $f.abort ]]; then
            PEER_WHY="VM$PEER_VM 在「$(<"$f.abort")」这一步放弃了，不会有 $name"
            return 2
        fi
        if [[ -e $f.done ]]; then
            PEER_WHY="VM$PEER_VM 的脚本已经走完，没有给出 $name"
            return 2
        fi
        peer_nap 0.2
    done
    PEER_WHY="VM$PEER_VM 在 ${bound}s 内没有给出 $name（上限 PEER_BOUND）"
    return 1
}

# listen_wait 端口 [pid] [上限秒]：等本机 TCP 端口进入 LISTEN（读 /proc/net/tcp*，不 fork）；
# 给了 pid 而它先退出了就返回 1
listen_wait() {
    local hex line f i bound=${3:-$PEER_BOUND}
    printf -v hex ':%04X ' "$1"
    for ((i = 0; i < bound * 10; i++)); do
        for f in /proc/net/tcp /proc/net/tcp6; do
            while read -r line; do
                [[ $line == *"$hex"* && $line == *" 0A "* ]] && return 0
            done <"$f"
        done
        [[ -n ${2:-} ]] && ! kill -0 "$2" 2>/dev/null && return 1
        peer_nap 0.1
    done
    return 1
}

# serve 端口 日志 命令...：后台启动服务端（命令是 rdma_server，末尾加上 --ready-file：它在 listen/rdma_listen 之后
# 原子地写出共享目录里的 vmN.listen-端口，对端就等这个文件）。SERVE_PID 是它的 pid。
# 服务端没开始监听就退出了、或上限内没监听：告诉对端放弃（对端的等待立刻失败），返回 1
serve() {
    local port=$1 log=$2 ready i
    shift 2
    ready=$LAB_SYNC/vm$LAB_VM.listen-$port
    "$@" --ready-file "$ready" >"$log" 2>&1 </dev/null &
    SERVE_PID=$!
    for ((i = 0; i < PEER_BOUND * 10; i++)); do
        [[ -e $ready ]] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || break
        peer_nap 0.1
    done
    peer_abort "VM$LAB_VM 的服务端没有在端口 $port 上开始监听（$*）"
    return 1
}

# serve_wait：等 SERVE_PID 结束，返回它的退出码；对端在这期间放弃了（vmN.abort）就立刻停掉服务端，返回 2（PEER_WHY 说明）
serve_wait() {
    local f=$LAB_SYNC/vm$PEER_VM
    while kill -0 "$SERVE_PID" 2>/dev/null; do
        if [[ -e $f.abort ]]; then
            PEER_WHY="VM$PEER_VM 在「$(<"$f.abort")」这一步放弃了，停掉等它的服务端"
            kill "$SERVE_PID" 2>/dev/null
            wait "$SERVE_PID" 2>/dev/null
            return 2
        fi
        peer_nap 0.2
    done
    wait "$SERVE_PID"
}

# need_peer 名字 步骤：等对端的“名字”；等不到就打印 “RESULT 步骤 fail …”（说出等的是什么、上限、对端的情况），
# 告诉对端放弃，脚本结束（后面的步骤没有结果：TAP 里第一个失败的就是这一步）
need_peer() {
    peer_wait "$1" && return 0
    echo "RESULT $2 fail 等待对端就绪失败: $PEER_WHY"
    peer_abort "$2（VM$LAB_VM 等 $1）"
    exit 0
}

# rxe_on_wrong_nic：这台虚拟机的 rxe0 改建在第二块网卡 x0（10.99.0.2/24，一对 veth 的一端，不通往对端）上，
# 等到它的 RoCE v2 GID（索引 1）出现（上限 5 秒）。“rxe 建错网卡”的场景：tests/lab/two-vms-paths.sh、tests/verbs-check/two-vms-wrong-nic.sh
rxe_on_wrong_nic() {
    local i
    ip link add x0 type veth peer name x1
    ip addr add 10.99.0.2/24 dev x0
    ip link set x0 up
    ip link set x1 up
    rdma link delete rxe0
    rdma link add rxe0 type rxe netdev x0
    for ((i = 0; i < 50; i++)); do [[ -e /sys/class/infiniband/rxe0/ports/1/gids/1 ]] && break; peer_nap 0.1; done
}
