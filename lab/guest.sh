#!/usr/bin/env bash
# lab/guest.sh：在虚拟机里、chroot 进宿主根目录后由 bash 运行（lab/run 每次复制到 9p 共享的临时目录 /run/lab）
# 注意：TCG 下 fork 很慢，检查只用 shell 内建命令。
set -u
S=/run/lab
# shellcheck source=/dev/null  # lab/run 写的配置（LAB_ROLE、CMD …）
. $S/config
# /run/lab/bin 在最前：modprobe 包装（模块在缓存的内核树里，不在宿主的 /lib/modules）
export PATH=/run/lab/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root USER=root LOGNAME=root
unset TERM
# 单机模式：CMD 的 stdout/stderr 分开；双机模式：合并到一个文件
if [[ $LAB_ROLE == single ]]; then OUT=$S/out ERR=$S/err; else OUT=$S/out ERR=$S/out; fi

finish() { printf '%s\n' "$1" >$S/status; exit 0; }
broken() { printf 'lab: lab broken: %s\n' "$*" >>"$ERR"; echo "lab: lab broken: $*"; finish 125; }
nap() { sleep "$1"; }

# 把 IPv4 地址转成 sysfs 里 IPv4-mapped GID 的写法
mapped_gid() {
    local a b c d
    IFS=. read -r a b c d <<<"$1"
    printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d"
}

# 检查：设备存在、端口 ACTIVE、GID 1 是 IPv4-mapped 的 RoCE v2
check_dev() {
    local dev=$1 ip=$2 p=/sys/class/infiniband/$1/ports/1 st="" gid="" typ="" i
    [[ -d $p ]] || broken "device $dev missing"
    for ((i = 0; i < 50; i++)); do
        read -r st <"$p/state" || true
        [[ $st == *ACTIVE* ]] && break
        nap 0.1
    done
    [[ $st == *ACTIVE* ]] || broken "$dev port 1 not ACTIVE (state: $st)"
    read -r gid <"$p/gids/1" || true
    [[ $gid == "$(mapped_gid "$ip")" ]] || broken "$dev GID 1 is '$gid', expected ::ffff:$ip"
    read -r typ <"$p/gid_attrs/types/1" || true
    [[ $typ == "RoCE v2" ]] || broken "$dev GID 1 type is '$typ', expected 'RoCE v2'"
}

setsys() { printf '%s\n' "$2" >"/proc/sys/$1" || broken "cannot set $1"; }

# 内核卡死的看门狗（lab/README“见过两次的挂起”）：内核一报 soft lockup / RCU stall，就把完整的内核日志
# （控制台的 loglevel 不显示的调用栈也在里面）和所有 CPU 的调用栈（sysrq l）存进 $S/softlockup，再立即重启
# （qemu 带 -no-reboot，于是直接退出）。lab/run 把它打印出来并复制到 logs/；测试马上失败，不再干等到超时。
watch_lockup() {
    local rec
    while IFS= read -r rec; do
        [[ $rec == *"soft lockup"* || $rec == *"self-detected stall"* ]] || continue
        nap 3
        echo l >/proc/sysrq-trigger
        nap 2
        dmesg >$S/softlockup 2>&1
        printf '\nlab: the guest kernel reported: %s -- kernel log saved, restarting the VM\n' "$rec" >/dev/console
        echo b >/proc/sysrq-trigger
    done < <(dmesg -w 2>/dev/null)
}
watch_lockup &
# 两个 CPU 都卡住时上面的看门狗也跑不了（mutation 30 里见过：rdma_server 和 sleep 各占一个 CPU，4 分钟后还在）：
# 让内核自己在 soft lockup / RCU stall 时 panic（panic 打印的调用栈不受控制台 loglevel 限制）并立刻重启（qemu 带 -no-reboot，退出），
# lab/run 从控制台日志里把这一段打印出来
setsys kernel/softlockup_panic 1
setsys kernel/softlockup_all_cpu_backtrace 1
setsys kernel/panic_on_rcu_stall 1
setsys kernel/panic -1

# ---------- 网络与 rxe ----------
# 加大每 CPU 的接收积压队列（默认 1000 个包）。TCG 下 CPU 慢，多个QP同时传大消息时
# 队列会溢出丢包（dmesg: "rdma_rxe: Failed sending ACK"）；实测 6.1 的 rxe 在这种丢包后
# 偶尔让 4 个QP并发的 1 MiB RDMA READ 以“成功”完成却没有写入数据（15 次里 1~7 次，
# 程序的逐字节校验会报出来）。调到 10000 后 30 次 0 失败、0 丢包。
setsys net/core/netdev_max_backlog 10000
case $LAB_ROLE in
single)
    # veth 两端都在初始 netns（6.1 的 rxe 不支持 netns），策略路由让流量真正经过 veth
    ip -batch - <<'EOF' || broken "ip setup failed"
link set lo up
link add veth0 type veth peer name veth1
addr add 10.11.0.1/24 dev veth0
addr add 10.11.0.2/24 dev veth1
link set veth0 up
link set veth1 up
rule add pref 10 iif veth0 lookup local
rule add pref 11 iif veth1 lookup local
rule add pref 20 from 10.11.0.1 to 10.11.0.2 lookup 100
rule add pref 21 from 10.11.0.2 to 10.11.0.1 lookup 100
rule add pref 100 lookup local
rule del pref 0 lookup local
route add 10.11.0.2/32 dev veth0 table 100
route add 10.11.0.1/32 dev veth1 table 100
EOF
    for i in all veth0 veth1; do
        setsys "net/ipv4/conf/$i/rp_filter" 0
        setsys "net/ipv4/conf/$i/accept_local" 1
    done
    if [[ $LAB_RXE == rxe ]]; then
        rdma -b - <<'EOF' || broken "rdma link add failed"
link add rxe0 type rxe netdev veth0
link add rxe1 type rxe netdev veth1
EOF
        check_dev rxe0 10.11.0.1
        check_dev rxe1 10.11.0.2
    fi
    ;;
vm0|vm1)
    n=${LAB_ROLE#vm}
    myip=10.11.0.$((n + 1))
    ip -batch - <<EOF || broken "ip setup failed"
link set lo up
addr add $myip/24 dev eth0
link set eth0 up
EOF
    # 和两台真实的虚拟机一样：每台一块 eth0、一个 rxe0（README 的 Soft-RoCE 配置命令）
    # LAB_RXE=none：不建设备，学习者按 README 自己 modprobe rdma_rxe、rdma link add
    if [[ $LAB_RXE == rxe ]]; then
        rdma link add rxe0 type rxe netdev eth0 || broken "rdma link add rxe0 failed"
        check_dev rxe0 "$myip"
    fi
    export LAB_VM=$n
    # 两台共享的同步目录（lab/run 的 $SCRATCH/sync）：场景脚本放“就绪”标记，等对端就绪而不是估时间（tests/lab/peer.bash）
    if [[ -n ${LAB_SYNC_TAG:-} ]]; then
        if ! { mkdir -p /run/lab-sync && mount -t 9p -o trans=virtio,version=9p2000.L "$LAB_SYNC_TAG" /run/lab-sync; }; then
            broken "cannot mount the shared sync directory ($LAB_SYNC_TAG)"
        fi
        export LAB_SYNC=/run/lab-sync
    fi
    ;;
esac

# LAB_NETEM（make … NETEM="loss 1%"）：RoCE 链路两个方向的出口上各挂一个 netem。limit 给得很大，
# 丢掉的包就都是 netem 按参数丢的，不是它自己的队列满了（默认 limit 只有 1000 个包）
if [[ -n ${LAB_NETEM:-} ]]; then
    modprobe sch_netem || broken "modprobe sch_netem failed"
    if [[ $LAB_ROLE == single ]]; then netem_devs=(veth0 veth1); else netem_devs=(eth0); fi
    for d in "${netem_devs[@]}"; do
        # shellcheck disable=SC2086  # LAB_NETEM 是几个词（lab/run 检查过字符）
        tc qdisc replace dev "$d" root netem limit 1000000 $LAB_NETEM || broken "tc netem on $d failed: $LAB_NETEM"
    done
    printf 'lab: netem on %s: %s\n' "${netem_devs[*]}" "$LAB_NETEM" >>"$ERR"
fi

if [[ -n ${LAB_VM:-} ]]; then
    export LAB_DEV0=rxe0 LAB_DEV1=rxe0
else
    export LAB_DEV0=rxe0 LAB_DEV1=rxe1
fi
export LAB_IP0=10.11.0.1 LAB_IP1=10.11.0.2
# shellcheck source=/dev/null  # LAB_PASSENV 传进来的环境变量
[[ -f $S/env ]] && . $S/env
ulimit -l unlimited || broken "ulimit -l unlimited failed"
# libibverbs 在每个进程第一次 ibv_get_device_list 时 dlopen /etc/libibverbs.d 里列出的全部 provider（Debian 有 17 个），
# TCG 下这要 ~240 毫秒（ibv_devices 450 → 210 ms）；实验室里只有 rxe 设备，别的 provider 什么也匹配不上，
# 所以在虚拟机自己的挂载表里（宿主不受影响）把这个目录换成只有 rxe.driver 的一份。程序的行为不变，只是启动快了；
# make test 里有上千次进程启动。要看全部 provider 的样子：虚拟机里 umount /etc/libibverbs.d
if [[ -f /etc/libibverbs.d/rxe.driver ]]; then
    if ! { mkdir -p /tmp/.lab-libibverbs.d && cp /etc/libibverbs.d/rxe.driver /tmp/.lab-libibverbs.d/ &&
        mount --bind /tmp/.lab-libibverbs.d /etc/libibverbs.d; }; then
        broken "cannot narrow /etc/libibverbs.d to rxe"
    fi
fi
cd "$LAB_PROJ" || broken "cannot cd to $LAB_PROJ"
unset OLDPWD

# 等 TCP 端口 $1 在本机进入 LISTEN（读 /proc/net/tcp*，不 fork）
wait_listen() {
    local hex line i f
    printf -v hex ':%04X ' "$1"
    for ((i = 0; i < 150; i++)); do
        for f in /proc/net/tcp /proc/net/tcp6; do
            while read -r line; do
                [[ $line == *"$hex"* && $line == *" 0A "* ]] && return 0
            done <"$f"
        done
        nap 0.2
    done
    return 1
}

# ---------- --shell：串口上的交互式 root shell ----------
if [[ $LAB_SHELL == 1 ]]; then
    export LAB_PROJ LAB_RXE LAB_ROLE
    TERM=$LAB_TERM
    [[ -e /usr/share/terminfo/${TERM:0:1}/$TERM || -e /lib/terminfo/${TERM:0:1}/$TERM ]] || TERM=xterm
    export TERM
    read -r rows cols <<<"$LAB_SIZE"
    stty rows "$rows" cols "$cols" </dev/ttyS0 2>/dev/null
    # setsid -c：新会话，ttyS0 成为控制终端 → 作业控制（& fg jobs）和 Ctrl-C 都在虚拟机里生效
    setsid -c -w bash --rcfile $S/shellrc -i <>/dev/ttyS0 >&0 2>&0
    finish 0
fi

# ---------- --selftest：ibv_rc_pingpong rxe0 <-> rxe1 ----------
if [[ $LAB_SELFTEST == 1 ]]; then
    # 双机时每次往返约 50 ms（TCG + socket 网卡），所以只跑 100 次
    PP_ITERS=-n1000
    [[ $LAB_ROLE == single ]] || PP_ITERS=-n100
    case $LAB_ROLE in
    single)
        ibv_rc_pingpong -d rxe0 -g 1 $PP_ITERS >$S/pp-server 2>&1 &
        spid=$!
        wait_listen 18515 || { kill $spid; broken "selftest: ibv_rc_pingpong server did not listen"; }
        ibv_rc_pingpong -d rxe1 -g 1 $PP_ITERS 10.11.0.1 >$S/pp-client 2>&1
        crc=$?
        wait $spid
        src=$?
        ;;
    vm0)
        ibv_rc_pingpong -d rxe0 -g 1 $PP_ITERS >$S/pp-server 2>&1 &
        spid=$!
        # 开始监听后告诉 VM1（两台共享的目录）：VM1 不用估时间
        wait_listen 18515 && [[ -n ${LAB_SYNC:-} ]] && : >"$LAB_SYNC/vm0.selftest-ready"
        wait $spid
        src=$? crc=0
        : >$S/pp-client
        ;;
    vm1)
        # 等 VM0 的服务端开始监听（就绪文件，上限 180 秒）；下面的重试只是兜底
        if [[ -n ${LAB_SYNC:-} ]]; then
            for ((i = 0; i < 900; i++)); do [[ -e $LAB_SYNC/vm0.selftest-ready ]] && break; nap 0.2; done
        fi
        for ((i = 0; i < 60; i++)); do
            # two-vms 里每台只有自己的 rxe0
            ibv_rc_pingpong -d rxe0 -g 1 $PP_ITERS 10.11.0.1 >$S/pp-client 2>&1 && break
            grep -q "Couldn't connect" $S/pp-client || break
            nap 1
        done
        grep -q ' iters in ' $S/pp-client
        crc=$? src=0
        : >$S/pp-server
        ;;
    esac
    # 把 ibv_rc_pingpong 的输出作为 TAP 注释（# 开头）附在 stdout 上
    {
        if [[ -s $S/pp-server ]]; then
            echo "# selftest: ibv_rc_pingpong server (-d rxe0 -g 1 $PP_ITERS)"
            while IFS= read -r line; do echo "#   $line"; done <$S/pp-server
        fi
        if [[ -s $S/pp-client ]]; then
            echo "# selftest: ibv_rc_pingpong client (-d $LAB_DEV1 -g 1 $PP_ITERS 10.11.0.1)"
            while IFS= read -r line; do echo "#   $line"; done <$S/pp-client
        fi
    } >>"$OUT"
    if ((src != 0 || crc != 0)); then
        printf 'lab: selftest FAILED (server %s, client %s)\n' "$src" "$crc" >>"$ERR"
        finish 1
    fi
    echo "selftest: ibv_rc_pingpong OK (${LAB_ROLE})" >>"$OUT"
    mapfile -d '' -t argv <$S/argv
    ((${#argv[@]})) || finish 0
fi

# ---------- 运行 CMD ----------
mapfile -d '' -t argv <$S/argv
cmd=${argv[0]}
if [[ $cmd == */* ]]; then
    if [[ ! -e $cmd ]]; then
        printf 'lab: command not found in guest: %s\n' "$cmd" >>"$ERR"; finish 127
    elif [[ ! -x $cmd || -d $cmd ]]; then
        printf 'lab: command not executable in guest: %s\n' "$cmd" >>"$ERR"; finish 126
    fi
elif ! type -t -- "$cmd" >/dev/null; then
    printf 'lab: command not found in guest: %s\n' "$cmd" >>"$ERR"; finish 127
fi
echo "lab-guest: running CMD"
"${argv[@]}" </dev/null >>"$OUT" 2>>"$ERR"
finish $?
