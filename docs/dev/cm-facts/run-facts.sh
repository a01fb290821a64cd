#!/usr/bin/env bash
# docs/dev/cm-facts/run-facts.sh —— 在 Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）测 librdmacm 的行为，
# 是 docs/dev/cm-facts/FACTS.md 的来源。参考资料，不属于 make test。
#
# 宿主机上:   docs/dev/cm-facts/run-facts.sh [single|two-vms|all] [节…]（默认 all；单机可只跑某几节，输出文件名带上节名）
#   编译 cmprobe（build/cm-facts/cmprobe），每种拓扑启动一次实验室，把 stdout 存到
#   docs/dev/cm-facts/lab-single.log / lab-two-vms.log（lab/run 自己的进度信息在 stderr）。
# 虚拟机里（由 lab/run 调用）: run-facts.sh --in-vm single|two-vms
#
# 约定: 每个实验以 "### A.x 标题" 开头；命令以 "$ " 开头，后面是它的输出和 "rc=N"。
# 后台运行的一端（服务端）的输出在它结束后整体打印，每行前缀 "srv| "。
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 1
PROBE=build/cm-facts/cmprobe
SYNC=logs/cm-facts-sync

build_probe() {
    mkdir -p build/cm-facts
    cc -O2 -Wall -Wextra -o "$PROBE" docs/dev/cm-facts/cmprobe.c -lrdmacm -libverbs
}

if [[ ${1:-} != --in-vm ]]; then
    what=${1:-all}
    case $what in single | two-vms | all) ;; *)
        echo "用法: $0 [single|two-vms|all] [节…]   （单机的节: a1 a6 arp a2 a3 a4 a5 a7 b；两台: base a7 cut hang norxe；默认全部）" >&2
        exit 2
        ;;
    esac
    shift || true
    export CMF_SECTIONS="${*:-all}"
    suffix=""
    if [[ $CMF_SECTIONS != all ]]; then suffix=-${CMF_SECTIONS// /-}; fi
    build_probe || exit 1
    rc=0
    if [[ $what == single || $what == all ]]; then
        LAB_PASSENV=CMF_SECTIONS lab/run bash docs/dev/cm-facts/run-facts.sh --in-vm single \
            >"docs/dev/cm-facts/lab-single$suffix.log" || rc=$?
        echo "单机: 退出码 $rc，输出在 docs/dev/cm-facts/lab-single$suffix.log" >&2
    fi
    if [[ $what == two-vms || $what == all ]]; then
        rm -rf "$SYNC"
        mkdir -p "$SYNC"
        LAB_PASSENV=CMF_SECTIONS LAB_TOPOLOGY=two-vms lab/run bash docs/dev/cm-facts/run-facts.sh --in-vm two-vms \
            >"docs/dev/cm-facts/lab-two-vms$suffix.log" || rc=$?
        rm -rf "$SYNC"
        echo "两台虚拟机: 退出码 $rc，输出在 docs/dev/cm-facts/lab-two-vms$suffix.log" >&2
    fi
    exit "$rc"
fi

# =====================================================================
# 以下在虚拟机里运行（root）
# =====================================================================
MODE=${2:-single}
T=$(mktemp -d)
P=$PROBE

section() {
    echo
    echo "### $*"
}

# run 命令… —— 打印命令，运行（最多 120 秒），打印退出码
run() {
    local rc=0
    echo "\$ $*"
    timeout "${RUN_TIMEOUT:-120}" "$@" 2>&1 || rc=$?
    echo "rc=$rc"
}

# 等文件里出现某个字符串（最多 $3 秒，默认 20）
wait_for() {
    local f=$1 pat=$2 n=$((${3:-20} * 10)) i
    for ((i = 0; i < n; i++)); do
        if [[ -f $f ]] && grep -qF -- "$pat" "$f"; then return 0; fi
        sleep 0.1
    done
    echo "（等待 '$pat' 超时: $f）"
    return 1
}

# 后台启动服务端: srv_start 参数…（输出在 $T/srv.log）
srv_start() {
    echo "\$ $P listen $* &"
    : >"$T/srv.log"
    timeout 200 "$P" listen "$@" >"$T/srv.log" 2>&1 &
    SRV_PID=$!
    wait_for "$T/srv.log" "LISTEN" 20 || true
}

# 等服务端结束并打印它的输出
srv_end() {
    local rc=0
    wait "$SRV_PID" || rc=$?
    sed 's/^/srv| /' "$T/srv.log"
    echo "srv| rc=$rc"
}

# 单机实验室里的第二块网卡: veth x0 (10.99.0.2/24，没有 RDMA 设备)，对端 x1 放进 netns nsx (10.99.0.1)，
# 只为回答 ARP（rxe 不认 netns，但这里不需要 rxe）
setup_x0() {
    ip link add x0 type veth peer name x1
    ip addr add 10.99.0.2/24 dev x0
    ip link set x0 up
    ip netns add nsx
    ip link set x1 netns nsx
    ip -n nsx addr add 10.99.0.1/24 dev x1
    ip -n nsx link set x1 up
    ip -n nsx link set lo up
    echo "x0: $(ip -4 -o addr show dev x0 | awk '{print $4}')，x1 (netns nsx): 10.99.0.1/24；rdma link:"
    rdma link show
}

# strace 里和 /dev/infiniband/rdma_cm 有关的系统调用，看 errno 是内核给的还是 librdmacm 自己的
strace_cm() {
    echo "\$ strace -f -e trace=openat,write,socket,sendto,mknodat $*  （只显示 rdma_cm / uverbs / NETLINK_RDMA / 失败的调用）"
    strace -f -e trace=openat,write,socket,sendto,mknodat "$@" 2>&1 |
        grep -E 'rdma_cm|uverbs|infiniband|NETLINK_RDMA|sendto|mknod|= -1|^\[\+' |
        grep -vE 'write\(1,|\.driver|libnl|locale|ld\.so|/lib/' | head -30
}

# 要运行的节（CMF_SECTIONS，空格分隔；默认全部）
want() { [[ " ${CMF_SECTIONS:-all} " == *" all "* || " ${CMF_SECTIONS:-all} " == *" $1 "* ]]; }

mod_state() {
    local m
    for m in "$@"; do
        if [[ -d /sys/module/$m ]]; then echo "/sys/module/$m 存在"; else echo "/sys/module/$m 不存在"; fi
    done
}

single_a1() {
    section "A.1 rdma_bind_addr: 有 rxe 的地址、没有 rxe 的网卡上的地址、没有任何网卡有的地址"
    setup_x0
    run "$P" bind 10.11.0.1
    run "$P" bind 10.11.0.2
    run "$P" bind 10.99.0.2
    strace_cm "$P" bind 10.99.0.2
    run "$P" bind 10.99.0.77
    strace_cm "$P" bind 10.99.0.77
    run "$P" bind 0.0.0.0
    run "$P" bind 127.0.0.1
    section "A.1 rdma_resolve_addr 带源地址 10.99.0.2（内部先 bind，同步失败）"
    run "$P" resolve -s 10.99.0.2 10.99.0.1
    section "A.1 rdma_resolve_addr 不带源地址，目的 10.99.0.1（路由走 x0，ARP 能通，但 x0 上没有 RDMA 设备）"
    run "$P" resolve 10.99.0.1
    section "A.1 rdma_listen 绑在 10.99.0.2 / rping -s -a 10.99.0.2"
    run "$P" listen -b 10.99.0.2
    run rping -s -a 10.99.0.2 -C 1 -v
    section "A.1 librdmacm 自己的 ENODEV (1): libibverbs 一个设备也列不出来（/etc/libibverbs.d 换成空目录 = 没有 rxe 用户态驱动）"
    mkdir -p "$T/empty"
    echo "\$ unshare -m: mount --bind 空目录 /etc/libibverbs.d; $P bind 10.11.0.1"
    unshare -m sh -c "mount --bind '$T/empty' /etc/libibverbs.d && '$P' bind 10.11.0.1; echo rc=\$?" 2>&1
    section "A.1 librdmacm 自己的 ENODEV (2): 内核按地址选了 rxe0，但本进程打不开 /dev/infiniband/uverbs0（容器只给了 uverbs1）"
    mkdir -p "$T/ib"
    cp -a /dev/infiniband/rdma_cm /dev/infiniband/uverbs1 "$T/ib/"
    echo "\$ unshare -m: mount --bind 只有 rdma_cm、uverbs1 的目录 /dev/infiniband; $P bind 10.11.0.1 / 10.11.0.2"
    unshare -m sh -c "mount --bind '$T/ib' /dev/infiniband && ls /dev/infiniband && '$P' bind 10.11.0.1; echo rc=\$?; '$P' bind 10.11.0.2; echo rc=\$?" 2>&1
    unshare -m sh -c "mount --bind '$T/ib' /dev/infiniband && strace -f -e trace=openat,write '$P' bind 10.11.0.1 2>&1 | grep -E 'rdma_cm|uverbs|= -1|^\[\+' | grep -vE 'write\(1,|\.driver|/lib/|locale' | head -20" 2>&1
}

single_a6() {
    section "A.6 设备选择: 带源地址 10.11.0.2 / 不带源地址（目的地址是本机的）"
    run "$P" resolve -s 10.11.0.2 10.11.0.1
    run "$P" resolve 10.11.0.1
    run "$P" resolve 10.11.0.2
    run "$P" resolve -s 10.11.0.1 10.11.0.2
    section "A.6 不带源地址真的连 10.11.0.1（会是 rxe0 自己连自己吗？）"
    srv_start -b 10.11.0.1 -p 20061
    run "$P" connect -p 20061 10.11.0.1
    srv_end
}

single_arp() {
    section "A.6 附: ARP 表项是冷的时候 rdma_resolve_addr 要多久（ip neigh flush 之后）"
    ip neigh flush dev veth1
    run "$P" resolve -s 10.11.0.2 -t 2000 10.11.0.1
    ip neigh flush dev veth1
    run "$P" resolve -s 10.11.0.2 -t 5000 10.11.0.1
    run "$P" resolve -s 10.11.0.2 -t 5000 10.11.0.1
    ip neigh flush dev veth1
    ip neigh show dev veth1
    echo "\$ ping -c 1 -I 10.11.0.2 10.11.0.1（先让 ARP 表项变热）"
    ping -c 1 -W 2 -I 10.11.0.2 10.11.0.1 >/dev/null 2>&1; echo "rc=$?"
    ip neigh show dev veth1
    run "$P" resolve -s 10.11.0.2 -t 5000 10.11.0.1
}

single_a2() {
    section "A.2 没有人监听的端口（地址 10.11.0.1 上有 rxe0）"
    run "$P" connect -s 10.11.0.2 -p 20099 10.11.0.1
    section "A.2 有监听，但监听在 10.11.0.1:20098，客户端连 20099"
    srv_start -b 10.11.0.1 -p 20098 -e 3
    run "$P" connect -s 10.11.0.2 -p 20099 10.11.0.1
    srv_end
}

single_a3() {
    section "A.3 rdma_resolve_addr 到同网段里不存在的 10.11.0.9"
    run "$P" resolve -s 10.11.0.2 -t 2000 10.11.0.9
    run "$P" resolve -t 2000 10.11.0.9
    run "$P" resolve -s 10.11.0.2 -t 500 10.11.0.9
    section "A.3 不同网段、没有路由的地址 192.0.2.1"
    run "$P" resolve -s 10.11.0.2 -t 2000 192.0.2.1
}

single_a4() {
    section "A.4 建立后客户端被 SIGKILL（2 s 后自杀）: 服务端何时收到 DISCONNECTED"
    srv_start -b 10.11.0.1 -p 20041 -w 20
    run "$P" connect -s 10.11.0.2 -p 20041 -k 2 10.11.0.1
    srv_end
    section "A.4 建立后服务端被 SIGKILL（2 s 后自杀）: 客户端何时收到 DISCONNECTED"
    srv_start -b 10.11.0.1 -p 20042 -k 2
    run "$P" connect -s 10.11.0.2 -p 20042 -w 20 10.11.0.1
    srv_end
    section "A.4 外部 kill -9 客户端进程"
    srv_start -b 10.11.0.1 -p 20043 -w 20
    echo "\$ $P connect -s 10.11.0.2 -p 20043 -w 60 10.11.0.1 &   （建立后 kill -9）"
    "$P" connect -s 10.11.0.2 -p 20043 -w 60 10.11.0.1 >"$T/cli.log" 2>&1 &
    local cpid=$!
    wait_for "$T/cli.log" "客户端: 1/1" 30 || true
    sleep 1
    echo "kill -9 $cpid at CLOCK_REALTIME $(date +%s.%3N)"
    kill -9 "$cpid"
    wait "$cpid" 2>/dev/null
    sed 's/^/cli| /' "$T/cli.log"
    srv_end
}

single_a5() {
    section "A.5 private data: rdma_connect 依次试 57、60、255、56 字节"
    srv_start -b 10.11.0.1 -p 20051
    run "$P" connect -s 10.11.0.2 -p 20051 -c 57,60,255,56 10.11.0.1
    srv_end
    section "A.5 rdma_connect 0 字节: 服务端看到的 private_data_len"
    srv_start -b 10.11.0.1 -p 20052
    run "$P" connect -s 10.11.0.2 -p 20052 -c 0 10.11.0.1
    srv_end
    section "A.5 rdma_accept 196 字节"
    srv_start -b 10.11.0.1 -p 20053 -a 196
    run "$P" connect -s 10.11.0.2 -p 20053 10.11.0.1
    srv_end
    section "A.5 rdma_accept 197 字节"
    srv_start -b 10.11.0.1 -p 20054 -a 197 -e 10
    run "$P" connect -s 10.11.0.2 -p 20054 -e 10 10.11.0.1
    srv_end
    section "A.5 rdma_accept 255 字节"
    srv_start -b 10.11.0.1 -p 20055 -a 255 -e 10
    run "$P" connect -s 10.11.0.2 -p 20055 -e 10 10.11.0.1
    srv_end
}

single_a7() {
    section "A.7 4 个 rdma_cm_id 连同一个监听端口，rdma_create_qp（-q cm）"
    srv_start -b 10.11.0.1 -p 20071 -n 4
    run "$P" connect -s 10.11.0.2 -p 20071 -n 4 10.11.0.1
    srv_end
    section "A.7 4 个 rdma_cm_id，ibv_create_qp + conn_param.qp_num，rdma_init_qp_attr + ibv_modify_qp（-q verbs）"
    srv_start -b 10.11.0.1 -p 20072 -n 4 -q verbs
    run "$P" connect -s 10.11.0.2 -p 20072 -n 4 -q verbs 10.11.0.1
    srv_end
    section "A.7 混合: 服务端 -q cm，客户端 -q verbs"
    srv_start -b 10.11.0.1 -p 20073 -n 1
    run "$P" connect -s 10.11.0.2 -p 20073 -n 1 -q verbs 10.11.0.1
    srv_end
    section "A.7 服务端监听 0.0.0.0（不绑定设备）: 子 id 的设备"
    srv_start -p 20074 -n 2
    run "$P" connect -s 10.11.0.2 -p 20074 -n 2 10.11.0.1
    srv_end
}

single_b() {
    local mp
    section "B rdma_ucm 没有加载时（rmmod rdma_ucm）: librdmacm 经 NETLINK_RDMA 让内核自动加载它"
    run rmmod rdma_ucm
    ls -l /dev/infiniband/
    mod_state rdma_cm rdma_ucm
    strace_cm "$P" bind 10.11.0.1
    mod_state rdma_ucm
    ls -l /dev/infiniband/
    section "B 内核不能自动加载模块时（/proc/sys/kernel/modprobe 换成 /bin/false，相当于容器里或没有这个模块）"
    read -r mp </proc/sys/kernel/modprobe
    echo "原来的 /proc/sys/kernel/modprobe: $mp"
    run rmmod rdma_ucm
    echo /bin/false >/proc/sys/kernel/modprobe
    mod_state rdma_ucm
    run "$P" bind 10.11.0.1
    strace_cm "$P" bind 10.11.0.1
    run rping -s -a 10.11.0.1 -C 1 -v
    run ucmatose -b 10.11.0.1 -C 1
    echo "$mp" >/proc/sys/kernel/modprobe
    section "B rmmod rdma_cm（rdma_ucm 不在时）之后 modprobe rdma_ucm 把两个都带回来"
    run rmmod rdma_cm
    mod_state rdma_cm rdma_ucm
    run modprobe rdma_ucm
    mod_state rdma_cm rdma_ucm
    ls -l /dev/infiniband/
    run "$P" bind 10.11.0.1
}

single() {
    echo "# 单机实验室: rxe0 在 veth0 (10.11.0.1)，rxe1 在 veth1 (10.11.0.2)；内核 $(uname -r)；节: ${CMF_SECTIONS:-all}"
    echo "# librdmacm: $(dpkg-query -W -f='${Version}' librdmacm1 2>/dev/null)"
    rdma link show
    ls -l /dev/infiniband/
    mod_state rdma_cm rdma_ucm ib_cm iw_cm ib_uverbs
    if want a1; then single_a1; fi
    if want a6; then single_a6; fi
    if want arp; then single_arp; fi
    if want a2; then single_a2; fi
    if want a3; then single_a3; fi
    if want a4; then single_a4; fi
    if want a5; then single_a5; fi
    if want a7; then single_a7; fi
    if want b; then single_b; fi
}

# ---------- 两台虚拟机: 经共享的项目目录里的标记文件同步 ----------
flag() { : >"$SYNC/$1"; }
await() {
    local i n=$((${2:-120} * 10))
    for ((i = 0; i < n; i++)); do
        [[ -e $SYNC/$1 ]] && return 0
        sleep 0.1
    done
    echo "（等待标记 $1 超时）"
    return 1
}

# 两台虚拟机的节（CMF_SECTIONS）: base = A.1/A.6/A.2/A.3/A.4（含“两个方向都丢弃 4791 后 kill”），
# a7 = 4 个 id，cut = 幸存者一侧只丢弃入方向（DREQ 丢失）后再发 SEND，norxe = 对端没有 RDMA 设备，
# hang = 被 kill 的一侧丢弃出方向 4791（进程卡在内核里多久）
two_vm0() {
    echo "# VM0: eth0 10.11.0.1 + rxe0；内核 $(uname -r)；节: ${CMF_SECTIONS:-all}"
    rdma link show
    if want base; then
        section "A.1 VM0 bind"
        run "$P" bind 10.11.0.1
        run "$P" bind 10.11.0.2
        flag a1-vm0

        section "A.4 VM0 服务端 -w 20；VM1 的客户端建立 2 s 后 SIGKILL"
        srv_start -b 10.11.0.1 -p 20041 -w 20 -e 60
        flag srv41
        srv_end
        section "A.4 VM0 服务端建立 2 s 后 SIGKILL；VM1 的客户端 -w 20"
        srv_start -b 10.11.0.1 -p 20042 -k 2 -e 60
        flag srv42
        srv_end
        section "A.4 网络断开: VM1 先丢弃 UDP 4791（两个方向）再 SIGKILL 客户端；VM0 服务端等 40 s"
        srv_start -b 10.11.0.1 -p 20043 -w 40 -e 60
        flag srv43
        srv_end
    fi
    if want a7; then
        section "A.7 VM0 服务端 4 个连接 -q verbs"
        srv_start -b 10.11.0.1 -p 20072 -n 4 -q verbs -e 120
        flag srv72
        srv_end
    fi
    if want cut; then
        section "A.4 DREQ 丢失: VM0（幸存者）丢弃入方向 UDP 4791，VM1 的客户端建立 5 s 后 SIGKILL，VM0 12 s 后恢复；VM0 等到 25 s 再发 SEND"
        srv_start -b 10.11.0.1 -p 20044 -w 25 -S -e 120
        flag srv44
        wait_for "$T/srv.log" "服务端: 1/1" 120 || true
        nft add table inet cmf
        nft add chain inet cmf in '{ type filter hook input priority 0; }'
        nft add rule inet cmf in udp dport 4791 drop
        echo "VM0: nft 丢弃入方向 UDP 4791，CLOCK_REALTIME $(date +%s.%3N)"
        sleep 12
        nft delete table inet cmf
        echo "VM0: 恢复，CLOCK_REALTIME $(date +%s.%3N)"
        srv_end
    fi
    if want hang; then
        section "A.4 被 kill 的一侧（VM1）丢弃出方向 UDP 4791: VM0 服务端等 60 s"
        srv_start -b 10.11.0.1 -p 20045 -w 60 -e 120
        flag srv45
        srv_end
    fi
    if want norxe; then
        await vm1-before-norxe 300
        section "A.2 对端没有 RDMA 设备: VM0 rdma link delete rxe0"
        run rdma link delete rxe0
        rdma link show
        flag norxe
        await vm1-norxe-done 300
        run rdma link add rxe0 type rxe netdev eth0
        rdma link show
    fi
    flag done-vm0
    await done-vm1 120
}

# /proc/PID/status 的 State 行（进程不在了为 gone）
proc_state() {
    local line
    PSTATE=gone
    while read -r line; do
        if [[ $line == State:* ]]; then PSTATE=${line#State:}; fi
    done <"/proc/$1/status" 2>/dev/null
    return 0
}

two_vm1() {
    echo "# VM1: eth0 10.11.0.2 + rxe0；内核 $(uname -r)；节: ${CMF_SECTIONS:-all}"
    rdma link show
    if want base; then
        section "A.1 VM1 bind（10.99.0.2 在没有 RDMA 设备的 veth x0 上）"
        setup_x0
        run "$P" bind 10.11.0.2
        run "$P" bind 10.11.0.1
        run "$P" bind 10.99.0.2
        run "$P" resolve 10.99.0.1
        await a1-vm0 60

        section "A.6 VM1 设备选择"
        run "$P" resolve 10.11.0.1
        run "$P" resolve -s 10.11.0.2 10.11.0.1

        section "A.2 VM1 连 VM0 上没有人监听的端口 20099"
        run "$P" connect -p 20099 10.11.0.1
        run "$P" connect -p 20099 10.11.0.1

        section "A.3 VM1 rdma_resolve_addr 到不存在的 10.11.0.9"
        run "$P" resolve -t 2000 10.11.0.9

        section "A.4 VM1 客户端建立 2 s 后 SIGKILL"
        await srv41
        run "$P" connect -p 20041 -k 2 10.11.0.1
        section "A.4 VM1 客户端 -w 20（VM0 服务端 2 s 后 SIGKILL）"
        await srv42
        run "$P" connect -p 20042 -w 20 10.11.0.1
        section "A.4 网络断开后 kill"
        await srv43
        echo "\$ $P connect -p 20043 -k 4 10.11.0.1 &"
        timeout 100 "$P" connect -p 20043 -k 4 10.11.0.1 >"$T/cli.log" 2>&1 &
        local cpid=$!
        wait_for "$T/cli.log" "客户端: 1/1" 30 || true
        nft add table inet cmf
        nft add chain inet cmf out '{ type filter hook output priority 0; }'
        nft add chain inet cmf in '{ type filter hook input priority 0; }'
        nft add rule inet cmf out udp dport 4791 drop
        nft add rule inet cmf in udp dport 4791 drop
        echo "VM1: nft 丢弃 UDP 4791（两个方向），CLOCK_REALTIME $(date +%s.%3N)"
        wait "$cpid"
        echo "VM1: 客户端退出（SIGKILL），CLOCK_REALTIME $(date +%s.%3N)"
        sed 's/^/cli| /' "$T/cli.log"
        sleep 10
        nft delete table inet cmf
        echo "VM1: 恢复 UDP 4791，CLOCK_REALTIME $(date +%s.%3N)"
    fi
    if want a7; then
        section "A.7 VM1 4 个 rdma_cm_id -q verbs"
        await srv72
        run "$P" connect -p 20072 -n 4 -q verbs 10.11.0.1
    fi
    if want cut; then
        section "A.4 DREQ 丢失: VM1 客户端建立 5 s 后 SIGKILL"
        await srv44
        run "$P" connect -p 20044 -k 5 10.11.0.1
        echo "VM1: 客户端已退出，CLOCK_REALTIME $(date +%s.%3N)"
    fi
    if want hang; then
        section "A.4 VM1 丢弃出方向 UDP 4791 后客户端被 SIGKILL: 进程状态"
        await srv45
        echo "\$ $P connect -p 20045 -k 3 10.11.0.1 &"
        "$P" connect -p 20045 -k 3 10.11.0.1 >"$T/cli.log" 2>&1 &
        local hpid=$! i last=""
        wait_for "$T/cli.log" "客户端: 1/1" 60 || true
        nft add table inet cmf
        nft add chain inet cmf out '{ type filter hook output priority 0; }'
        nft add rule inet cmf out udp dport 4791 drop
        echo "VM1: nft 丢弃出方向 UDP 4791，CLOCK_REALTIME $(date +%s.%3N)"
        for ((i = 0; i < 25; i++)); do
            proc_state "$hpid"
            if [[ $PSTATE != "$last" ]]; then echo "  +${i} s: pid $hpid State:$PSTATE"; last=$PSTATE; fi
            sleep 1
        done
        nft delete table inet cmf
        echo "VM1: 恢复出方向 UDP 4791，CLOCK_REALTIME $(date +%s.%3N)"
        for ((i = 0; i < 40; i++)); do
            proc_state "$hpid"
            if [[ $PSTATE != "$last" ]]; then echo "  恢复后 +${i} s: pid $hpid State:$PSTATE"; last=$PSTATE; fi
            [[ $PSTATE == gone || $PSTATE == *zombie* ]] && break
            sleep 1
        done
        sed 's/^/cli| /' "$T/cli.log"
        dmesg | grep -c cm_destroy_id_wait_timeout | sed 's/^/dmesg 里 cm_destroy_id_wait_timeout 的行数: /'
        dmesg | grep cm_destroy_id_wait_timeout | sed -n '1p;$p'
    fi
    if want norxe; then
        flag vm1-before-norxe
        await norxe 300
        section "A.2 VM1 连一个没有 RDMA 设备的对端（VM0 删掉了 rxe0）"
        RUN_TIMEOUT=260 run "$P" connect -p 20099 -e 200 10.11.0.1
        flag vm1-norxe-done
    fi
    flag done-vm1
    await done-vm0 300
}

case $MODE in
    single) single ;;
    two-vms)
        if [[ ${LAB_VM:-} == 0 ]]; then two_vm0; else two_vm1; fi
        ;;
esac
rm -rf "$T"
exit 0
