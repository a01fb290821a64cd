#!/usr/bin/env bats
# show_gids.sh / diagnose.sh 在真实 Soft-RoCE 实验室里的测试（由 lab/run 在虚拟机里以 root 运行）。
# 实验室: rxe0 在 veth0 (10.11.0.1)，rxe1 在 veth1 (10.11.0.2)，同一个 netns，
#         table 100 + 策略路由让 10.11.0.1 <-> 10.11.0.2 的报文真正走 veth。
# 每个“故意弄坏”的测试在 teardown 里恢复实验室，并等到它重新健康，后面的测试才看到好的环境。
# 最后一个测试用 ibv_rc_pingpong 验证恢复后 RDMA 真的还能通。

bats_require_minimum_version 1.5.0

DEV0=${LAB_DEV0:-rxe0}
DEV1=${LAB_DEV1:-rxe1}
IP0=${LAB_IP0:-10.11.0.1}
IP1=${LAB_IP1:-10.11.0.2}
IF0=veth0
IF1=veth1
IB=/sys/class/infiniband

setup_file() {
    cd "$BATS_TEST_DIRNAME/../.." || return 1
    # 记下实验室的初始状态，恢复时用
    ip -4 -o addr show dev "$IF0" >"$BATS_FILE_TMPDIR/addr0"
    ip -4 route show table 100 >"$BATS_FILE_TMPDIR/table100"
    [ -s "$BATS_FILE_TMPDIR/addr0" ]
}

setup() {
    cd "$BATS_TEST_DIRNAME/../.." || return 1
    RESTORE=()
}

teardown() {
    if ((${#RESTORE[@]} > 0)); then
        lab_restore "${RESTORE[@]}"
    fi
}

# 记下 teardown 时要执行的恢复命令
on_teardown() {
    RESTORE+=("$1")
}

# 注意: bats 给测试进程装了 DEBUG trap，TCG 下测试函数里的每条命令都很贵（50 次循环约 2 秒）。
# 所以循环、等待都放进一个子 bash 里跑（子进程不继承 trap），断言尽量一条命令完成。

# 子 bash 脚本: 恢复（执行给定命令 + 补回 table 100 路由）并等待实验室健康。
# 健康 = 两个 rxe 都在、端口 ACTIVE、GID 索引1 是各自的 IPv4，table 100 路由与开始时一致。
# 网卡 down 或删掉最后一个地址时，内核会删掉经过它的 IPv4 路由（包括 table 100 的），所以要补回。
# shellcheck disable=SC2016  # 单引号里的 $ 是子 bash 的
LAB_RESTORE_SCRIPT='
    dev0=$1 ip0=$2 dev1=$3 ip1=$4 table=$5
    shift 5
    for cmd in "$@"; do
        echo "恢复: $cmd"
        eval "$cmd" || true
    done
    if (($# > 0)); then
        while read -r line; do
            # shellcheck disable=SC2086
            [[ -n $line ]] && ip route replace $line table 100
        done <"$table"
    fi
    healthy() {
        local d ip hex s g a b c e
        for d in "$dev0:$ip0" "$dev1:$ip1"; do
            ip=${d#*:} d=${d%%:*}
            IFS=. read -r a b c e <<<"$ip"
            printf -v hex "%02x%02x:%02x%02x" "$a" "$b" "$c" "$e"
            s="" g=""
            { read -r s <"/sys/class/infiniband/$d/ports/1/state"; } 2>/dev/null || return 1
            [[ $s == *ACTIVE* ]] || return 1
            { read -r g <"/sys/class/infiniband/$d/ports/1/gids/1"; } 2>/dev/null || return 1
            [[ $g == "0000:0000:0000:0000:0000:ffff:$hex" ]] || return 1
        done
        [[ "$(ip -4 route show table 100)" == "$(<"$table")" ]]
    }
    for ((i = 0; i < 200; i++)); do
        healthy && exit 0
        sleep 0.1
    done
    echo "实验室 20 秒内没有恢复健康" >&2
    ./show_gids.sh >&2
    ip -4 route show table 100 >&2
    exit 1
'
lab_restore() {
    bash -c "$LAB_RESTORE_SCRIPT" _ "$DEV0" "$IP0" "$DEV1" "$IP1" "$BATS_FILE_TMPDIR/table100" "$@"
}
wait_healthy() {
    lab_restore
}

# wait_until 'bash 条件'：最多等 10 秒
wait_until() {
    bash -c 'for ((i = 0; i < 100; i++)); do eval "$1" && exit 0; sleep 0.1; done; exit 1' _ "$1"
}

NL=$'\n'

@test "健康的实验室: show_gids 列出 rxe0/rxe1 的 IPv4 v2 GID，标记索引1，退出 0" {
    wait_healthy
    run --separate-stderr ./show_gids.sh
    echo "$output"
    [ "$status" -eq 0 ]
    [[ ${lines[0]} == DEV*PORT*INDEX*GID*IPv4*VER*DEV ]]
    # 整行匹配（多行字符串里用 (^|换行) ... (换行|$) 锚定）
    local v4gid='0000:0000:0000:0000:0000:ffff:[0-9a-f]{4}:[0-9a-f]{4}'
    local re0="(^|$NL)$DEV0 +1 +1 +$v4gid +$IP0 +v2 +$IF0 +<== 自动选择($NL|\$)"
    local re1="(^|$NL)$DEV1 +1 +1 +$v4gid +$IP1 +v2 +$IF1 +<== 自动选择($NL|\$)"
    local rell="(^|$NL)$DEV0 +1 +0 +fe80:[0-9a-f:]{34} +v2 +$IF0($NL|\$)"
    [[ $output =~ $re0 ]]
    [[ $output =~ $re1 ]]
    [[ $output =~ $rell ]]
    [[ $output == *"自动选择: $DEV0 端口1 → GID索引1 (RoCE v2, IPv4 $IP0)  用法: -g 1"* ]]
    [[ $output == *"自动选择: $DEV1 端口1 → GID索引1 (RoCE v2, IPv4 $IP1)  用法: -g 1"* ]]
    [[ ${lines[-1]} =~ ^n_gids_found=([0-9]+)$ ]]
    ((BASH_REMATCH[1] >= 4))
    [ -z "$stderr" ]
}

@test "健康的实验室: diagnose 全部通过，退出 0，两个设备都是 -g 1" {
    wait_healthy
    run ./diagnose.sh
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output != *"[失败]"* ]]
    [[ $output == *"[通过] 找到 RDMA 设备: $DEV0 $DEV1"* ]]
    [[ $output == *"[通过] $DEV0 端口1 状态: 4: ACTIVE，物理状态: 5: LinkUp"* ]]
    [[ $output == *"[通过] RoCE v2 IPv4 GID: 索引 1 = 0000:0000:0000:0000:0000:ffff:0a0b:0001 ($IP0) → 使用 -g 1"* ]]
    [[ $output == *"($IP1) → 使用 -g 1"* ]]
    [[ $output == *"[通过] active_mtu 1024（网卡 $IF0 MTU 1500"* ]]
    [[ ${lines[-1]} == "结论: "* ]]
}

@test "英文（issue 28）: 健康的实验室里 diagnose.sh --lang en 和 LANG=en_US.UTF-8 的 show_gids.sh —— 关键行是英文，一个汉字都没有，退出 0" {
    wait_healthy
    run ./diagnose.sh --lang en
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output != *"[FAIL]"* ]]
    [[ $output == *"[PASS] found RDMA devices: $DEV0 $DEV1"* ]]
    [[ $output == *"($IP0) → use -g 1"* ]]
    [[ $output == *"($IP1) → use -g 1"* ]]
    [[ ${lines[-1]} == "Result: "* ]]
    if grep -nP '[\x{4e00}-\x{9fff}]' <<<"$output"; then echo "Chinese in English diagnose.sh"; return 1; fi
    # 这台虚拟机没有生成 en_US.UTF-8（和一台新的 Debian 一样）：照样是英文
    LANG=en_US.UTF-8 run --separate-stderr ./show_gids.sh
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"<== auto-selected"* ]]
    [[ $output == *"auto-selected: $DEV0 port 1 → GID index 1 (RoCE v2, IPv4 $IP0)  use: -g 1"* ]]
    if grep -nP '[\x{4e00}-\x{9fff}]' <<<"$output"; then echo "Chinese in English show_gids.sh"; return 1; fi
}

@test "坏掉: rdma link delete rxe0 → diagnose rxe0 指出设备不存在并给出 rdma link add，退出 1" {
    rdma link delete "$DEV0"
    on_teardown "rdma link add $DEV0 type rxe netdev $IF0"
    run ./diagnose.sh "$DEV0"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] RDMA 设备 $DEV0 不存在"* ]]
    [[ $output == *"现有 RDMA 设备: $DEV1"* ]]
    [[ $output == *"[通过] 内核模块 rdma_rxe 已加载"* ]]
    # veth1 已经被 rxe1 占用，所以应该猜 veth0
    [[ $output == *"修复: sudo rdma link add $DEV0 type rxe netdev $IF0"* ]]
    run --separate-stderr ./show_gids.sh "$DEV0"
    [ "$status" -eq 1 ]
    [[ $stderr == *"设备 '$DEV0' 不存在"*"$DEV1"* ]]
}

@test "坏掉: 删除全部 rxe 设备 → 两个脚本都报没有 RDMA 设备，退出非零" {
    rdma link delete "$DEV0"
    on_teardown "rdma link add $DEV0 type rxe netdev $IF0"
    rdma link delete "$DEV1"
    on_teardown "rdma link add $DEV1 type rxe netdev $IF1"
    run ./diagnose.sh
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有任何 RDMA 设备"* ]]
    [[ $output == *"[通过] 内核模块 rdma_rxe 已加载"* ]]
    [[ $output =~ 修复:\ sudo\ rdma\ link\ add\ rxe0\ type\ rxe\ netdev\ veth[01] ]]
    run --separate-stderr ./show_gids.sh
    [ "$status" -eq 1 ]
    [[ $stderr == *"没有找到任何 RDMA 设备"*"rdma link add rxe0 type rxe netdev"* ]]
}

@test "坏掉: ip link set veth0 down → 端口不是 ACTIVE，修复 ip link set veth0 up，退出 1" {
    ip link set "$IF0" down
    on_teardown "ip link set $IF0 up"
    wait_until "! grep -q ACTIVE $IB/$DEV0/ports/1/state"
    run ./diagnose.sh
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] $DEV0 端口1 不是 ACTIVE: 状态 1: DOWN"* ]]
    [[ $output == *"原因: 绑定的网卡 $IF0 没有 UP"* ]]
    # veth1 的对端是 veth0: rxe1 也不 ACTIVE，修复同样指向 veth0
    [[ $output == *"$IF1 是 veth，对端 $IF0 没有 UP"* ]]
    [[ $output == *"  1. sudo ip link set $IF0 up"* ]]
    [[ $output != *"ip link set $IF1 up"* ]]
}

@test "坏掉: 删除 veth0 的 IPv4 地址 → 没有 IPv4 GID，修复 ip addr add，退出 1" {
    local cidr
    read -r _ _ _ cidr _ <"$BATS_FILE_TMPDIR/addr0"
    [[ $cidr == "$IP0"/* ]]
    ip addr del "$cidr" dev "$IF0"
    on_teardown "ip addr add $cidr dev $IF0"
    wait_until "! grep -q :ffff: $IB/$DEV0/ports/1/gids/1"
    run ./diagnose.sh "$DEV0"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 网卡 $IF0 没有 IPv4 地址"* ]]
    [[ $output == *"[失败] $DEV0 端口1 没有 RoCE v2 的 IPv4 GID"* ]]
    [[ $output == *"自动选择的是索引 0 = fe80:"* ]]
    [[ $output == *"修复: sudo ip addr add <IP地址>/24 dev $IF0"* ]]
    run ./show_gids.sh "$DEV0"
    [ "$status" -eq 0 ]
    [[ $output == *"→ GID索引0 (RoCE v2, 链路本地 fe80::)  用法: -g 0  注意: 没有 RoCE v2 的 IPv4 GID"* ]]
}

@test "坏掉: ulimit -l 64 → diagnose 报 memlock 太低并给出修复，退出 1" {
    run bash -c 'ulimit -l 64 && exec ./diagnose.sh'
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] memlock 软限制只有 64 KiB"* ]]
    [[ $output == *"/etc/security/limits.conf"* ]]
    [[ $output == *"失败: 1 "* ]]
}

@test "恢复之后: 实验室健康，diagnose 退出 0，ibv_rc_pingpong rxe0<->rxe1 能通" {
    wait_healthy
    run ./diagnose.sh
    [ "$status" -eq 0 ]
    command -v ibv_rc_pingpong >/dev/null || skip "没有 ibv_rc_pingpong"
    timeout 60 ibv_rc_pingpong -d "$DEV0" -g 1 -n 20 >"$BATS_TEST_TMPDIR/srv.log" 2>&1 &
    local spid=$!
    sleep 1
    run timeout 60 ibv_rc_pingpong -d "$DEV1" -g 1 -n 20 "$IP0"
    local src=0
    wait "$spid" || src=$?
    echo "client: $output"
    cat "$BATS_TEST_TMPDIR/srv.log"
    [ "$status" -eq 0 ]
    [ "$src" -eq 0 ]
    [[ $output == *"20 iters"* ]]
}
