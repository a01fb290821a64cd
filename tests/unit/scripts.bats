#!/usr/bin/env bats
# 单元测试: show_gids.sh 和 diagnose.sh
# 在 $BATS_TEST_TMPDIR 里搭伪造的 sysfs 树（RDMA_SYSFS_ROOT / NET_SYSFS_ROOT /
# RDMA_VERBS_SYSFS_ROOT / MODULE_SYSFS_ROOT）和 /dev/infiniband（RDMA_DEV_ROOT），
# 不需要虚拟机，也不需要 RDMA 内核支持。

bats_require_minimum_version 1.5.0

# mk_port、add_gid、伪造的 ip/ping、fake_route、fake_netdev（scripts-i18n.bats 也用）
load fake-env

setup() {
    REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
    SG=$REPO/show_gids.sh
    DG=$REPO/diagnose.sh
    # 伪造的 sysfs 有上千个小文件: 优先放在 tmpfs (/dev/shm)，磁盘上的 /tmp 慢得多
    if [[ -d /dev/shm && -w /dev/shm ]]; then
        FAKE=$(mktemp -d /dev/shm/scripts-bats.XXXXXX)/ib
    else
        FAKE=$BATS_TEST_TMPDIR/ib
    fi
    mkdir -p "$FAKE"
    export RDMA_SYSFS_ROOT=$FAKE
    # 默认 ib_uverbs 已加载: 有 infiniband_verbs 目录和 /sys/module/ib_uverbs（errno 38 的测试再删掉它们）
    VERBS=${FAKE%/ib}/infiniband_verbs
    MODS=${FAKE%/ib}/module
    mkdir -p "$VERBS" "$MODS/ib_uverbs"
    echo 6 >"$VERBS/abi_version"
    # 默认 librdmacm 的内核接口也在: rdma_cm、rdma_ucm 已加载，有 /dev/infiniband/rdma_cm（RDMA_DEV_ROOT）
    DEVIB=${FAKE%/ib}/dev-infiniband
    mkdir -p "$MODS/rdma_cm" "$MODS/rdma_ucm" "$DEVIB"
    : >"$DEVIB/rdma_cm"
    export RDMA_VERBS_SYSFS_ROOT=$VERBS MODULE_SYSFS_ROOT=$MODS RDMA_DEV_ROOT=$DEVIB
}

teardown() {
    if [[ $FAKE == /dev/shm/scripts-bats.* ]]; then rm -rf "${FAKE%/ib}"; fi
}

ZERO=0000:0000:0000:0000:0000:0000:0000:0000



# add_empty DEV PORT FROM TO  —— 空槽位 [FROM, TO)
# 真实 sysfs 读空槽位的 types/ndevs 会 EINVAL；这里用目录代替文件，读它同样会失败。
# 循环放在子 bash 里跑: bats 的 DEBUG trap 会让测试进程里的大循环非常慢。
add_empty() {
    bash -c '
        d=$1 dirs=()
        for ((i = $2; i < $3; i++)); do
            echo "$4" >"$d/gids/$i"
            dirs+=("$d/gid_attrs/types/$i" "$d/gid_attrs/ndevs/$i")
        done
        if ((${#dirs[@]} > 0)); then mkdir -p "${dirs[@]}"; fi
    ' _ "$FAKE/$1/ports/$2" "$3" "$4" "$ZERO"
}

# rxe 风格: 0 = fe80 链路本地 v2, 1 = ::ffff:IPv4 v2, 其余 1022 个空槽位
fx_rxe() {
    local dev=${1:-rxe0} ndev=${2:-veth0} v4hex=${3:-0a0b:0001}
    mk_port "$dev" 1
    add_gid "$dev" 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" "$ndev"
    add_gid "$dev" 1 1 "0000:0000:0000:0000:0000:ffff:$v4hex" "RoCE v2" "$ndev"
    add_empty "$dev" 1 2 1024
}

# mlx5 风格: 0/1 链路本地 v1/v2, 2/3 IPv4 v1/v2
fx_mlx5() {
    mk_port mlx5_0 1
    add_gid mlx5_0 1 0 fe80:0000:0000:0000:0202:c9ff:fe00:0001 "IB/RoCE v1" eth1
    add_gid mlx5_0 1 1 fe80:0000:0000:0000:0202:c9ff:fe00:0001 "RoCE v2" eth1
    add_gid mlx5_0 1 2 0000:0000:0000:0000:0000:ffff:c0a8:0105 "IB/RoCE v1" eth1
    add_gid mlx5_0 1 3 0000:0000:0000:0000:0000:ffff:c0a8:0105 "RoCE v2" eth1
    add_empty mlx5_0 1 4 256
}

# 只有 IPv6: 链路本地 + 全局地址
fx_ipv6() {
    mk_port rxe0 1
    add_gid rxe0 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" veth0
    add_gid rxe0 1 1 2001:0db8:0000:0000:0000:0000:0000:0001 "RoCE v2" veth0
    add_empty rxe0 1 2 64
}

# 全部为空
fx_empty() {
    mk_port rxe0 1
    add_empty rxe0 1 0 1024
}

# IPv4 条目在索引 20（前面是空槽位）
fx_idx20() {
    mk_port rxe0 1
    add_gid rxe0 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" veth0
    add_empty rxe0 1 1 20
    add_gid rxe0 1 20 0000:0000:0000:0000:0000:ffff:0a0b:0001 "RoCE v2" veth0
    add_empty rxe0 1 21 128
}

# 取 show_gids 输出里 INDEX 列等于 $2 的那一行（设备 $1）
row_of() {
    local dev=$1 idx=$2 line d p i
    while read -r line; do
        read -r d p i _ <<<"$line"
        if [[ $d == "$dev" && $i == "$idx" ]]; then
            echo "$line"
            return 0
        fi
    done <<<"$output"
    return 1
}

# show_gids 输出里被标记为自动选择的 "设备:索引" 列表
marked() {
    local line
    while read -r line; do
        if [[ $line == *"<== 自动选择"* ]]; then
            read -r d _ i _ <<<"$line"
            printf '%s:%s\n' "$d" "$i"
        fi
    done <<<"$output"
}

# memlock 低于 1 MiB 时 diagnose 一定失败；这类环境里跳过“应当退出 0”的断言
memlock_ok() {
    local l
    l=$(ulimit -l)
    [[ $l == unlimited ]] || ((l >= 1024))
}

# diagnose 选出的 GID 索引（通过行 "使用 -g N" 或失败行 "自动选择的是索引 N"）
dg_choice() {
    if [[ $output =~ 使用\ -g\ ([0-9]+) ]]; then
        echo "${BASH_REMATCH[1]}"
    elif [[ $output =~ 自动选择的是索引\ ([0-9]+) ]]; then
        echo "${BASH_REMATCH[1]}"
    else
        echo none
    fi
}

# show_gids 选出的索引
sg_choice() {
    if [[ $output =~ →\ GID索引([0-9]+) ]]; then
        echo "${BASH_REMATCH[1]}"
    else
        echo none
    fi
}

# ===================== show_gids.sh =====================

@test "show_gids: rxe 风格 —— 表头、列、IPv4、v2、标记索引1、n_gids_found=2" {
    fx_rxe
    run --separate-stderr "$SG"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "DEV     PORT    INDEX   GID                                     IPv4            VER     DEV" ]
    [ "${lines[1]}" = "---     ----    -----   ---                                     ------------    ---     ---" ]
    [ "${lines[2]}" = "rxe0    1       0       fe80:0000:0000:0000:5c5b:28ff:fe89:206d                 v2      veth0" ]
    [ "${lines[3]}" = "rxe0    1       1       0000:0000:0000:0000:0000:ffff:0a0b:0001 10.11.0.1       v2      veth0   <== 自动选择" ]
    [ "$(marked)" = "rxe0:1" ]
    [[ $output == *"自动选择: rxe0 端口1 → GID索引1 (RoCE v2, IPv4 10.11.0.1)  用法: -g 1"* ]]
    [ "${lines[-1]}" = "n_gids_found=2" ]
    [ -z "$stderr" ]
}

@test "show_gids: 1024 个槽位都扫描，空槽位 (types 读失败) 不报错" {
    fx_rxe
    add_gid rxe0 1 1023 0000:0000:0000:0000:0000:ffff:0a0b:0063 "RoCE v2" veth0
    run --separate-stderr "$SG" rxe0
    [ "$status" -eq 0 ]
    row=$(row_of rxe0 1023)
    [[ $row == *"0000:0000:0000:0000:0000:ffff:0a0b:0063 10.11.0.99 "* ]]
    [ "${lines[-1]}" = "n_gids_found=3" ]
    [ -z "$stderr" ]
}

@test "show_gids: mlx5 风格 —— v1/v2 都列出，自动选择索引3" {
    fx_mlx5
    run "$SG"
    [ "$status" -eq 0 ]
    read -r d p i g ip v n <<<"$(row_of mlx5_0 0)"
    [ "$d $p $i $g $ip $v" = "mlx5_0 1 0 fe80:0000:0000:0000:0202:c9ff:fe00:0001 v1 eth1" ]
    read -r d p i g ip v n <<<"$(row_of mlx5_0 2)"
    [ "$ip $v $n" = "192.168.1.5 v1 eth1" ]
    read -r d p i g ip v n m <<<"$(row_of mlx5_0 3)"
    [ "$ip $v $n $m" = "192.168.1.5 v2 eth1 <== 自动选择" ]
    [ "$(marked)" = "mlx5_0:3" ]
    [[ $output == *"自动选择: mlx5_0 端口1 → GID索引3 (RoCE v2, IPv4 192.168.1.5)  用法: -g 3"* ]]
    [ "${lines[-1]}" = "n_gids_found=4" ]
}

@test "show_gids: 只有 IPv6 —— 选全局地址，IPv4 列为空，并提示没有 IPv4 GID" {
    fx_ipv6
    run "$SG"
    [ "$status" -eq 0 ]
    [ "$(marked)" = "rxe0:1" ]
    [ "${lines[3]}" = "rxe0    1       1       2001:0db8:0000:0000:0000:0000:0000:0001                 v2      veth0   <== 自动选择" ]
    [[ $output == *"GID索引1 (RoCE v2, IPv6 全局地址)  用法: -g 1  注意: 没有 RoCE v2 的 IPv4 GID"* ]]
    [ "${lines[-1]}" = "n_gids_found=2" ]
}

@test "show_gids: 全部为空 —— 没有行、没有标记、n_gids_found=0" {
    fx_empty
    run "$SG"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 4 ]
    [ -z "$(marked)" ]
    [[ ${lines[2]} == "自动选择: rxe0 端口1 → 无 "* ]]
    [ "${lines[3]}" = "n_gids_found=0" ]
}

@test "show_gids: 索引20 的 IPv4 条目也能找到（不会停在 16）" {
    fx_idx20
    run "$SG" rxe0 1
    [ "$status" -eq 0 ]
    [[ $(row_of rxe0 20) == *"10.11.0.1 "*"v2"*"<== 自动选择" ]]
    [[ $output == *"→ GID索引20 (RoCE v2, IPv4 10.11.0.1)  用法: -g 20"* ]]
    [ "${lines[-1]}" = "n_gids_found=2" ]
}

@test "show_gids: 评分规则 —— v2 链路本地 (4) 胜过 v1 IPv4 (2)；同分取最小索引" {
    mk_port rxe0 1
    add_gid rxe0 1 0 0000:0000:0000:0000:0000:ffff:0a00:0001 "IB/RoCE v1" eth0
    add_gid rxe0 1 1 fe80:0000:0000:0000:0000:0000:0000:0001 "RoCE v2" eth0
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:0000:0000:0000:0002 "RoCE v2" eth1
    add_gid rxe1 1 1 0000:0000:0000:0000:0000:ffff:0a00:0002 "RoCE v2" eth1
    add_gid rxe1 1 2 0000:0000:0000:0000:0000:ffff:0a00:0003 "RoCE v2" eth1
    # 只有 v1: 链路本地 (0) < IPv4 (2)
    mk_port rxe2 1
    add_gid rxe2 1 0 fe80:0000:0000:0000:0000:0000:0000:0003 "IB/RoCE v1" eth2
    add_gid rxe2 1 1 0000:0000:0000:0000:0000:ffff:0a00:0004 "IB/RoCE v1" eth2
    run "$SG"
    [ "$status" -eq 0 ]
    [ "$(marked | tr '\n' ' ')" = "rxe0:1 rxe1:1 rxe2:1 " ]
    [[ $output == *"自动选择: rxe2 端口1 → GID索引1 (RoCE v1, IPv4 10.0.0.4)  用法: -g 1  注意: 没有 RoCE v2 的 GID"* ]]
    [ "${lines[-1]}" = "n_gids_found=7" ]
}

@test "show_gids: fe80::/10 整段都算链路本地 (febf:: 也是)；fec0:: 不是" {
    mk_port rxe0 1
    add_gid rxe0 1 0 febf:0000:0000:0000:0000:0000:0000:0001 "RoCE v2" eth0
    add_gid rxe0 1 1 fec0:0000:0000:0000:0000:0000:0000:0001 "RoCE v2" eth0
    run "$SG"
    [ "$(marked)" = "rxe0:1" ]
}

@test "show_gids: 读不到类型的非空条目显示 ? 且不按 v2 计分" {
    mk_port rxe0 1
    add_gid rxe0 1 0 fe80:0000:0000:0000:0000:0000:0000:0001 "RoCE v2" eth0
    echo 0000:0000:0000:0000:0000:ffff:0a00:0009 >"$FAKE/rxe0/ports/1/gids/1"
    run --separate-stderr "$SG"
    [ "$status" -eq 0 ]
    read -r d p i g ip v n <<<"$(row_of rxe0 1)"
    [ "$ip $v" = "10.0.0.9 ?" ]
    [ "$(marked)" = "rxe0:0" ]
    [ -z "$stderr" ]
}

@test "show_gids: 端口和索引按数字排序 (2 在 10 之前)" {
    mk_port rxe0 1
    mk_port rxe0 2
    mk_port rxe0 10
    add_gid rxe0 10 0 fe80:0000:0000:0000:0000:0000:0000:000a "RoCE v2" eth0
    add_gid rxe0 2 10 fe80:0000:0000:0000:0000:0000:0000:0010 "RoCE v2" eth0
    add_gid rxe0 2 2 fe80:0000:0000:0000:0000:0000:0000:0002 "RoCE v2" eth0
    add_gid rxe0 1 0 fe80:0000:0000:0000:0000:0000:0000:0001 "RoCE v2" eth0
    run "$SG"
    [ "$status" -eq 0 ]
    order=""
    for l in "${lines[@]:2:4}"; do
        read -r _ p i _ <<<"$l"
        order+="$p/$i "
    done
    [ "$order" = "1/0 2/2 2/10 10/0 " ]
}

@test "show_gids: DEV 和 PORT 过滤" {
    fx_rxe rxe0 veth0 0a0b:0001
    fx_rxe rxe1 veth1 0a0b:0002
    run "$SG" rxe1
    [ "$status" -eq 0 ]
    [[ $output != *rxe0* ]]
    [ "$(marked)" = "rxe1:1" ]
    run "$SG" rxe1 1
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "n_gids_found=2" ]
    run --separate-stderr "$SG" rxe1 2
    [ "$status" -eq 1 ]
    [[ $stderr == *"设备 rxe1 没有端口 2"*"现有端口: 1"* ]]
    [ -z "$output" ]
}

@test "show_gids: 设备不存在 → 非零退出并列出现有设备" {
    fx_rxe rxe0
    fx_mlx5
    run --separate-stderr "$SG" rxe7
    [ "$status" -eq 1 ]
    [[ $stderr == "错误: 设备 'rxe7' 不存在。现有的 RDMA 设备: mlx5_0 rxe0" ]]
}

@test "show_gids: 没有任何 RDMA 设备 → 非零退出并提示加载 rdma_rxe / rdma link add" {
    run --separate-stderr "$SG"
    [ "$status" -eq 1 ]
    [[ $stderr == "错误: 没有找到任何 RDMA 设备（$FAKE 不存在或为空）。"* ]]
    [[ $stderr == *"modprobe rdma_rxe"* ]]
    [[ $stderr == *"rdma link add rxe0 type rxe netdev"* ]]
    RDMA_SYSFS_ROOT=$BATS_TEST_TMPDIR/does-not-exist run --separate-stderr "$SG"
    [ "$status" -eq 1 ]
    [[ $stderr == *"没有找到任何 RDMA 设备"* ]]
}

@test "show_gids: 用法 —— -h 成功，错误选项/参数返回 2" {
    run "$SG" -h
    [ "$status" -eq 0 ]
    [[ ${lines[0]} == "用法: show_gids.sh"* ]]
    run "$SG" --help
    [ "$status" -eq 0 ]
    fx_rxe
    run "$SG" --bogus
    [ "$status" -eq 2 ]
    [[ $output == *"未知选项: --bogus"* ]]
    run "$SG" rxe0 1 extra
    [ "$status" -eq 2 ]
    run "$SG" rxe0 abc
    [ "$status" -eq 2 ]
    [[ $output == *"端口号必须是正整数"* ]]
    run "$SG" ../etc
    [ "$status" -eq 2 ]
}

# ===================== diagnose.sh =====================

@test "diagnose: 健康的伪造设备 (绑定 lo) → 各项通过，使用 -g 1" {
    fx_rxe rxe0 lo 7f00:0001
    run "$DG" --port 1
    [[ $output == *"[通过] 找到 RDMA 设备: rxe0"* ]]
    [[ $output == *"[通过] rxe0 端口1 状态: 4: ACTIVE，物理状态: 5: LinkUp"* ]]
    [[ $output == *"[通过] 网卡 lo 有 IPv4 地址: 127.0.0.1/8"* ]]
    [[ $output == *"[通过] RoCE v2 IPv4 GID: 索引 1 = 0000:0000:0000:0000:0000:ffff:7f00:0001 (127.0.0.1) → 使用 -g 1"* ]]
    [[ $output == *"[通过] TCP 端口 1 空闲（没有进程在监听）"* ]]
    [[ $output != *"[失败]"* ]] || ! memlock_ok
    [[ ${lines[-1]} == 结论:* ]]
    if memlock_ok; then [ "$status" -eq 0 ]; fi
}

@test "diagnose: 自动选择与 show_gids 一致 (rxe/mlx5/IPv6/索引20/全空)" {
    for fx in fx_rxe fx_mlx5 fx_ipv6 fx_idx20 fx_empty; do
        rm -rf "$FAKE"
        mkdir -p "$FAKE"
        "$fx"
        run "$SG"
        want=$(sg_choice)
        run "$DG" --port 1
        got=$(dg_choice)
        echo "$fx: show_gids=$want diagnose=$got"
        [ "$want" = "$got" ]
    done
}

@test "diagnose: 只有 IPv6 GID → 失败，说明没有 RoCE v2 IPv4 GID，退出 1" {
    fx_ipv6
    run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] rxe0 端口1 没有 RoCE v2 的 IPv4 GID（有效条目 2 个）"* ]]
    [[ $output == *"自动选择的是索引 1 = 2001:0db8:0000:0000:0000:0000:0000:0001 (RoCE v2)"* ]]
}

@test "diagnose: 端口 DOWN 且网卡没有 UP → 给出 ip link set <网卡> up" {
    mk_port rxe0 1 "1: DOWN" "3: Disabled"
    add_gid rxe0 1 0 0000:0000:0000:0000:0000:ffff:0a0b:0001 "RoCE v2" veth0
    mkdir -p "$BATS_TEST_TMPDIR/net/veth0"
    echo 0x1002 >"$BATS_TEST_TMPDIR/net/veth0/flags"
    echo 1500 >"$BATS_TEST_TMPDIR/net/veth0/mtu"
    NET_SYSFS_ROOT=$BATS_TEST_TMPDIR/net run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] rxe0 端口1 不是 ACTIVE: 状态 1: DOWN，物理状态 3: Disabled"* ]]
    [[ $output == *"原因: 绑定的网卡 veth0 没有 UP"* ]]
    [[ $output == *"修复: sudo ip link set veth0 up"* ]]
    # 汇总里的第一条修复就是它
    [[ $output == *"建议按顺序执行的修复:"$'\n'"  1. sudo ip link set veth0 up"* ]]
}

@test "diagnose: veth 对端没有 UP → 修复命令指向对端" {
    mk_port rxe1 1 "1: DOWN" "2: Polling"
    add_gid rxe1 1 0 0000:0000:0000:0000:0000:ffff:0a0b:0002 "RoCE v2" veth1
    local n=$BATS_TEST_TMPDIR/net
    mkdir -p "$n/veth0" "$n/veth1"
    echo 0x1002 >"$n/veth0/flags"
    echo 3 >"$n/veth0/ifindex"
    echo 2 >"$n/veth0/iflink"
    echo 0x1003 >"$n/veth1/flags"
    echo 2 >"$n/veth1/ifindex"
    echo 3 >"$n/veth1/iflink"
    echo lowerlayerdown >"$n/veth1/operstate"
    NET_SYSFS_ROOT=$n run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"网卡 veth1 已 UP 但没有载波 (operstate: lowerlayerdown)"* ]]
    [[ $output == *"veth1 是 veth，对端 veth0 没有 UP"* ]]
    [[ $output == *"修复: sudo ip link set veth0 up"* ]]
}

@test "diagnose: 网卡 MTU 太小 → 警告并解释 IB MTU" {
    fx_rxe rxe0 lo 7f00:0001
    mkdir -p "$BATS_TEST_TMPDIR/net/lo"
    echo 0x9 >"$BATS_TEST_TMPDIR/net/lo/flags"
    echo 576 >"$BATS_TEST_TMPDIR/net/lo/mtu"
    NET_SYSFS_ROOT=$BATS_TEST_TMPDIR/net run "$DG" --port 1
    [[ $output == *"[警告] 网卡 lo 的 MTU 只有 576，RoCE 的 active_mtu 只能是 256"* ]]
    [[ $output == *"576 − 80 字节头部 = 496"* ]]
    [[ $output == *"修复: sudo ip link set lo mtu 1500"* ]]
}

@test "diagnose: memlock 太低 (ulimit -l 64) → 失败，给出 limits.conf 修复，退出 1" {
    fx_rxe rxe0 lo 7f00:0001
    run bash -c 'ulimit -l 64 && exec "$0" --port 1' "$DG"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] memlock 软限制只有 64 KiB"* ]]
    [[ $output == *"* soft memlock unlimited"*"* hard memlock unlimited"*"limits.conf"* ]]
}

@test "diagnose: memlock 8 MiB（Debian 的默认）够 README 的例子 → 修复只在“可选”一栏；1.5 MiB → 在按顺序的清单里" {
    fx_rxe rxe0 lo 7f00:0001
    run bash -c 'ulimit -S -l 8192 && exec "$0" --port 1' "$DG"
    [[ $output == *"[警告] memlock 软限制 8192 KiB（< 64 MiB）: README 的例子最多注册 2 MiB，够用；更大的 --size × -q 或 perftest 可能 ENOMEM"* ]]
    # 总结: limits.conf 只在“可选”一栏，不在“建议按顺序执行的修复”里
    local ordered=${output#*========== 总结 ==========}
    ordered=${ordered%%可选（README 的例子用不到）:*}
    [[ $output == *"可选（README 的例子用不到）:"*"- echo '* soft memlock unlimited'"* ]]
    [[ $ordered != *"memlock"* ]]
    run bash -c 'ulimit -S -l 1536 && exec "$0" --port 1' "$DG"
    [[ $output == *"[警告] memlock 软限制 1536 KiB: README 的例子最多注册 2 MiB"* ]]
    [[ $output == *"建议按顺序执行的修复:"*"* soft memlock unlimited"* ]]
    [[ $output != *"可选（README 的例子用不到）:"* ]]
    # unlimited → 通过，没有 memlock 的修复（调高硬限制要 CAP_SYS_RESOURCE，容器里的 root 也没有：用假的 /proc/self/limits）
    printf '%s\n' "Limit                     Soft Limit           Hard Limit           Units" \
        "Max locked memory         unlimited            unlimited            bytes" >"$BATS_TEST_TMPDIR/limits"
    PROC_LIMITS_FILE=$BATS_TEST_TMPDIR/limits run "$DG" --port 1
    [[ $output == *"[通过] memlock 软限制: unlimited（硬限制: unlimited）"* ]]
    [[ $output != *"memlock unlimited"* ]]
}

@test "diagnose: 读不出防火墙规则时不说“通过” —— nft 失败 → 跳过并给出 sudo；普通用户（nft 只在 /usr/sbin）→ 要 root" {
    [ "$EUID" -eq 0 ] || skip "要 root: 假装 root 下 nft 失败，再切换到 nobody"
    fx_rxe rxe0 lo 7f00:0001
    local bin=${FAKE%/ib}/sbin
    mkdir -p "$bin"
    # 像容器里没有 CAP_NET_ADMIN 的 root: nft 读不出规则、退出 1、什么也不打印到 stdout
    printf '%s\n' '#!/usr/bin/env bash' 'echo "Error: Could not process rule: Operation not permitted" >&2' 'exit 1' >"$bin/nft"
    chmod +x "$bin/nft"
    PATH=$bin:$PATH FW_SBIN_DIRS=$bin run "$DG" --port 1
    [[ $output != *"[通过] nft"* ]]
    [[ $output == *"[跳过] 没能读取防火墙规则（nft list ruleset 退出码 1: Error: Could not process rule: Operation not permitted），没有检查 UDP 4791"* ]]
    [[ $output == *"用 root 再运行一次: sudo ./diagnose.sh"* ]]
    # 跳过的项没有查过：结论要说出来（原版 Debian 上 learner 不加 sudo 运行时，以前最后一行是“全部检查通过”；tests/stock/drills.sh）
    [[ ${lines[-1]} == "结论: "*"1 项没有检查"* ]]
    # 普通用户: Debian 的普通用户 PATH 里没有 /usr/sbin，nft 在那里（这里用 FW_SBIN_DIRS 指向假的 sbin）
    [[ $FAKE == /dev/shm/* ]] || skip "伪造 sysfs 不在 /dev/shm，nobody 可能无权进入它的上级目录"
    command -v runuser >/dev/null || skip "没有 runuser"
    chmod -R a+rX "${FAKE%/ib}"
    run runuser -u nobody -- env RDMA_SYSFS_ROOT="$FAKE" FW_SBIN_DIRS="$bin" PATH=/usr/local/bin:/usr/bin:/bin \
        bash "$DG" --port 1 --peer 127.0.0.1
    [[ $output != *"[通过] nft"* ]]
    [[ $output != *"跳过防火墙检查（没有主机防火墙工具"* ]]
    [[ $output == *"[跳过] 没有检查防火墙: 读 nft/iptables/ufw 的规则要 root（找到: nft），普通用户读不到，不能算通过"* ]]
    [[ $output == *"用 sudo 再运行一次: sudo ./diagnose.sh --peer 127.0.0.1"* ]]
}

@test "diagnose: 没有任何 RDMA 设备 → 失败，给出 rdma link add 命令，退出 1" {
    run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有任何 RDMA 设备"* ]]
    [[ $output =~ 修复:\ sudo\ rdma\ link\ add\ rxe0\ type\ rxe\ netdev\ [^[:space:]]+ ]]
    [[ $output == *"rdma_rxe"* ]]
    [[ $output == *"结论: 发现"* ]]
}

@test "diagnose: 指定的设备不存在 → 失败，列出现有设备，给出 rdma link add <该设备>" {
    fx_rxe rxe0 lo 7f00:0001
    run "$DG" --port 1 rxe5
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] RDMA 设备 rxe5 不存在"* ]]
    [[ $output == *"现有 RDMA 设备: rxe0"* ]]
    [[ $output == *"修复: sudo rdma link add rxe5 type rxe netdev "* ]]
}

@test "diagnose: TCP 端口被占用 → 警告（不算失败）" {
    command -v python3 >/dev/null || skip "需要 python3 来监听端口"
    fx_rxe rxe0 lo 7f00:0001
    python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True)
time.sleep(30)' >"$BATS_TEST_TMPDIR/port" 3>&- &
    local pid=$!
    for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/port" ] && break; sleep 0.1; done
    local port
    port=$(<"$BATS_TEST_TMPDIR/port")
    run "$DG" --port "$port"
    kill "$pid"
    [[ $output == *"[警告] TCP 端口 $port 已被占用"* ]]
    [[ $output == *"证据: "*"$port"* ]]
    [[ $output != *"[失败] TCP"* ]]
}

@test "diagnose: 防火墙 (伪造 nft) —— 规则丢弃 4791 → 失败；policy drop 只放行 lo/已建立/ICMP/TCP → 失败；另有没写端口的放行 → 警告" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_rxe rxe0 lo 7f00:0001
    local bin=$BATS_TEST_TMPDIR/bin
    mkdir -p "$bin"
    cat >"$bin/nft" <<'EOF'
#!/usr/bin/env bash
cat "$FAKE_NFT_RULES"
EOF
    chmod +x "$bin/nft"
    export FAKE_NFT_RULES=$BATS_TEST_TMPDIR/rules
    cat >"$FAKE_NFT_RULES" <<'EOF'
table inet filter {
	chain input {
		type filter hook input priority filter; policy accept;
		udp dport 4791 drop
	}
}
EOF
    PATH=$bin:$PATH run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] nft 规则丢弃/拒绝了 UDP 4791"* ]]
    [[ $output == *"修复: sudo nft insert rule inet filter input udp dport 4791 accept"* ]]
    cat >"$FAKE_NFT_RULES" <<'EOF'
table inet fw {
	chain inbound {
		type filter hook input priority filter; policy drop;
		iif lo accept
		ct state established,related accept
		meta l4proto { icmp, ipv6-icmp } accept
		tcp dport 22 accept
		udp dport 53 accept
	}
}
EOF
    # 原版 Debian 启用 nftables、input policy drop（tests/stock/drills.sh 的 nftdrop）：这些放行规则都放不过对端的 4791 →
    # 失败（就是 RETRY_EXC_ERR 的那一种），结论算进去，退出码 1
    PATH=$bin:$PATH run "$DG" --port 1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] nft 的 input 链 (inet fw inbound) 默认策略是 drop，且没有放行 UDP 4791 的规则"* ]]
    [[ $output == *"RETRY_EXC_ERR"* ]]
    [[ $output == *"修复: sudo nft insert rule inet fw inbound udp dport 4791 accept"* ]]
    [[ $output == *"结论: 发现 "*" 个问题"* ]]
    # 另有一条按网卡放行、没写端口的规则：可能放过 4791，脚本判断不了 → 警告，并指出这条规则
    printf 'table inet fw {\n\tchain inbound {\n\t\ttype filter hook input priority filter; policy drop;\n\t\ttcp dport 22 accept\n\t\tiifname "eth1" accept\n\t}\n}\n' >"$FAKE_NFT_RULES"
    PATH=$bin:$PATH run "$DG" --port 1
    [[ $output == *"[警告] nft 的 input 链 (inet fw inbound) 默认策略是 drop"* ]]
    [[ $output == *'可能放过 RoCE v2 报文，也可能不: iifname "eth1" accept'* ]]
    [[ $output == *"修复: sudo nft insert rule inet fw inbound udp dport 4791 accept"* ]]
    [[ $output != *"[失败] nft 的 input 链"* ]]
    printf 'table inet fw {\n\tchain inbound {\n\t\ttype filter hook input priority filter; policy drop;\n\t\tudp dport 4791 accept\n\t}\n}\n' >"$FAKE_NFT_RULES"
    PATH=$bin:$PATH run "$DG" --port 1
    [[ $output == *"[通过] nft 规则没有拦截 UDP 4791"* ]]
}

@test "diagnose: 用法 —— -h 成功；错误参数返回 2" {
    run "$DG" -h
    [ "$status" -eq 0 ]
    [[ ${lines[0]} == "用法: diagnose.sh"* ]]
    run "$DG" --port abc
    [ "$status" -eq 2 ]
    [[ $output == *"端口号必须是 1-65535"* ]]
    run "$DG" --port 70000
    [ "$status" -eq 2 ]
    run "$DG" --port
    [ "$status" -eq 2 ]
    run "$DG" rxe0 rxe1
    [ "$status" -eq 2 ]
    run "$DG" --nope
    [ "$status" -eq 2 ]
    [[ $output == *"未知选项: --nope"* ]]
}

@test "不需要 root: 普通用户 (nobody) 运行两个脚本都正常" {
    [ "$EUID" -eq 0 ] || skip "需要 root 才能切换到 nobody"
    command -v runuser >/dev/null || skip "没有 runuser"
    [[ $FAKE == /dev/shm/* ]] || skip "伪造 sysfs 不在 /dev/shm，nobody 可能无权进入它的上级目录"
    fx_rxe rxe0 lo 7f00:0001
    chmod -R a+rX "${FAKE%/ib}"
    run runuser -u nobody -- env RDMA_SYSFS_ROOT="$FAKE" bash "$SG"
    [ "$status" -eq 0 ]
    [[ $output == *"→ GID索引1 (RoCE v2, IPv4 127.0.0.1)  用法: -g 1"* ]]
    run runuser -u nobody -- env RDMA_SYSFS_ROOT="$FAKE" bash "$DG" --port 1
    [[ $output == *"使用 -g 1"* ]]
    [[ $output != *"[失败] rxe0"* ]]
    [[ $output != *"Permission denied"* ]]
}

# ===================== 共享的 GID 规则 (scripts/gid_rule.sh) =====================

# 在子 bash 里 source 一个脚本，调用其中的函数: fn_call 脚本 函数 参数…
# （diagnose.sh 被 source 时不运行 main；子 bash 里跑，不把脚本的 set -u 等带进 bats）
fn_call() {
    bash -c 'src=$1 fn=$2; shift 2; source "$src" && "$fn" "$@"' _ "$@"
}

@test "gid_rule: 规则只有一份 —— 两个脚本都 source scripts/gid_rule.sh，自己不再打分" {
    local s
    for s in "$SG" "$DG"; do
        # shellcheck disable=SC2016  # 要找的就是字面的 $SCRIPT_DIR
        grep -q '^source "\$SCRIPT_DIR/scripts/gid_rule.sh"$' "$s"
        # 打分用的 IPv4 映射正则和 "RoCE v2" 加 4 分只在 gid_rule.sh 里
        run grep -c 'ffff:(\[0-9a-f\]{2})' "$s"
        [ "$output" = 0 ]
        run grep -Ec 'score \+ 4|score=\$\(\(score' "$s"
        [ "$output" = 0 ]
    done
    grep -q 'ffff:(\[0-9a-f\]{2})' "$REPO/scripts/gid_rule.sh"
}

@test "gid_rule: C 的规则（src/verbs/gid.c）和 shell 的规则（scripts/gid_rule.sh）对同一批 GID 表选得一样（209 张表）" {
    [[ -x $REPO/build/tests/gid_pick ]] || { echo "build/tests/gid_pick 不存在：先 make unit"; return 1; }
    run "$REPO/tests/gid-rule/compare.sh" "$REPO/build/tests/gid_pick" 200
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"209 张表，C（src/verbs/gid.c）和 shell（scripts/gid_rule.sh）的选择全部一致"* ]]
}

@test "gid_rule: GID 类型的名字只有一份（gr_type_label），三处调用都用它" {
    run bash -c 'source "$1"; for t in "RoCE v2" "IB/RoCE v1" "" "Weird"; do gr_type_label "$t"; echo "$GR_TYPE_SHORT|$GR_TYPE_NAME"; done' _ "$REPO/scripts/gid_rule.sh"
    [ "$output" = $'v2|RoCE v2\nv1|RoCE v1\n?|类型未知\nWeird|类型 Weird' ]
    # 标签不再在脚本里各写一遍
    run grep -c '"IB/RoCE v1")' "$SG" "$DG"
    [[ $output == *"show_gids.sh:0"* && $output == *"diagnose.sh:0"* ]]
}

@test "gid_rule: 从别的目录、经符号链接运行也能找到 scripts/gid_rule.sh" {
    fx_rxe
    ln -s "$SG" "$BATS_TEST_TMPDIR/sg"
    cd "$BATS_TEST_TMPDIR"
    run ./sg
    [ "$status" -eq 0 ]
    [ "$(marked)" = "rxe0:1" ]
    run bash "$SG" rxe0
    [ "$status" -eq 0 ]
}

@test "gid_rule: gr_route_parse —— 网关/本机地址/策略路由/不可达 几种 ip route get 回答" {
    local lib=$REPO/scripts/gid_rule.sh
    run fn_call "$lib" gr_route_parse $'10.0.0.9 via 10.0.0.254 dev eth0 src 10.0.0.1 uid 0 \n    cache '
    [ "$status" -eq 0 ]
    run bash -c 'source "$1"; gr_route_parse "$2"; echo "$RT_TYPE|$RT_DST|$RT_DEV|$RT_SRC|$RT_VIA|$RT_LOCAL"' _ "$lib" \
        $'10.0.0.9 via 10.0.0.254 dev eth0 src 10.0.0.1 uid 0 \n    cache '
    [ "$output" = "unicast|10.0.0.9|eth0|10.0.0.1|10.0.0.254|" ]
    run bash -c 'source "$1"; gr_route_parse "$2"; echo "$RT_TYPE|$RT_DST|$RT_DEV|$RT_SRC|$RT_VIA|$RT_LOCAL"' _ "$lib" \
        'local 10.11.0.1 dev lo table local src 10.11.0.1 uid 0'
    [ "$output" = "local|10.11.0.1|lo|10.11.0.1||1" ]
    run bash -c 'source "$1"; gr_route_parse "$2"; echo "$RT_TYPE|$RT_DST|$RT_DEV|$RT_SRC|$RT_VIA|$RT_LOCAL"' _ "$lib" \
        '10.11.0.1 from 10.11.0.2 dev veth1 table 100 uid 0'
    [ "$output" = "unicast|10.11.0.1|veth1|||" ]
    run bash -c 'source "$1"; gr_route_parse "$2"; echo "$RT_TYPE|$RT_DEV|$RT_LOCAL"' _ "$lib" \
        'unreachable 10.9.9.9 table main uid 0'
    [ "$output" = "unreachable||" ]
}

# ===================== diagnose.sh 的纯函数（喂命令输出的文本）=====================

@test "fw_parse_nft: 丢弃 udp dport 4791 / 放行 4791 / 无关的丢弃 / policy drop / 集合与范围" {
    local rules
    rules=$(
        cat <<'EOF'
table inet filter {
	set allowed {
		type inet_service
		elements = { 4791, 22 }
	}
	chain input {
		type filter hook input priority filter; policy drop;
		udp dport 4791 drop
		tcp dport 22 drop
		tcp dport 4791 drop
		udp dport != 4791 drop
		udp dport { 22, 4000-5000 } counter packets 0 bytes 0 accept
		th dport 4791 reject with icmpx port-unreachable
	}
	chain output {
		type filter hook output priority filter; policy drop;
		udp dport @allowed accept
	}
	chain mine {
		udp dport 4791 drop
	}
}
table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
	}
}
EOF
    )
    run fn_call "$DG" fw_parse_nft "$rules"
    [ "$status" -eq 0 ]
    echo "$output"
    [ "${lines[0]}" = "policy in inet filter input policy drop" ]
    [ "${lines[1]}" = "drop in inet filter input udp dport 4791 drop" ]
    [ "${lines[2]}" = "accept in inet filter input udp dport { 22, 4000-5000 } counter packets 0 bytes 0 accept" ]
    [ "${lines[3]}" = "drop in inet filter input th dport 4791 reject with icmpx port-unreachable" ]
    [ "${lines[4]}" = "policy out inet filter output policy drop" ]
    # 端口是命名集合：可能包含 4791（这里就包含），算“没写端口的放行”
    [ "${lines[5]}" = "open out inet filter output udp dport @allowed accept" ]
    [ "${lines[6]}" = "drop other inet filter mine udp dport 4791 drop" ]
    [ "${#lines[@]}" -eq 7 ]
    # 放行规则分类：只放行 lo / 已建立的连接 / ICMP / TCP / 别的 UDP 端口的不算；按来源地址、new 状态、tcp+udp、光秃秃的 accept 算 open
    run fn_call "$DG" fw_parse_nft $'table inet f {\n\tchain input {\n\t\ttype filter hook input priority 0; policy drop;\n\t\tiifname "lo" accept\n\t\tct state { established, related } accept\n\t\ticmp type echo-request accept\n\t\ttcp dport { 22, 18515 } accept\n\t\tudp sport 67 udp dport 68 accept\n\t\tip saddr 10.11.0.0/24 accept\n\t\tct state new,established accept\n\t\tmeta l4proto { tcp, udp } accept\n\t\tcounter accept\n\t}\n}'
    [ "$status" -eq 0 ]
    echo "$output"
    [ "${lines[0]}" = "policy in inet f input policy drop" ]
    [ "${lines[1]}" = "open in inet f input ip saddr 10.11.0.0/24 accept" ]
    [ "${lines[2]}" = "open in inet f input ct state new,established accept" ]
    [ "${lines[3]}" = "open in inet f input meta l4proto { tcp, udp } accept" ]
    [ "${lines[4]}" = "open in inet f input counter accept" ]
    [ "${#lines[@]}" -eq 5 ]
    # 只有无关的规则 → 没有结论
    run fn_call "$DG" fw_parse_nft $'table inet f {\n\tchain input {\n\t\ttype filter hook input priority 0; policy accept;\n\t\ttcp dport 22 drop\n\t\tudp dport 53 drop\n\t}\n}'
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    run fn_call "$DG" fw_parse_nft ""
    [ -z "$output" ]
}

@test "fw_parse_iptables: 丢弃/放行 4791、OUTPUT 方向、multiport 范围；tcp、! --dport、无关的丢弃不算" {
    local rules
    rules=$(
        cat <<'EOF'
-P INPUT DROP
-P FORWARD ACCEPT
-P OUTPUT ACCEPT
-A INPUT -p udp -m udp --dport 4791 -j DROP
-A INPUT -p udp -m udp ! --dport 4791 -j DROP
-A INPUT -p tcp -m tcp --dport 4791 -j DROP
-A INPUT -p tcp -m tcp --dport 22 -j DROP
-A INPUT -p udp -m multiport --dports 22,4700:4800 -j ACCEPT
-A OUTPUT -p udp -m udp --dport 4791 -j REJECT --reject-with icmp-port-unreachable
EOF
    )
    run fn_call "$DG" fw_parse_iptables "$rules"
    [ "$status" -eq 0 ]
    echo "$output"
    [ "${lines[0]}" = "policy in INPUT -P INPUT DROP" ]
    [ "${lines[1]}" = "drop in INPUT -A INPUT -p udp -m udp --dport 4791 -j DROP" ]
    [ "${lines[2]}" = "accept in INPUT -A INPUT -p udp -m multiport --dports 22,4700:4800 -j ACCEPT" ]
    [ "${lines[3]}" = "drop out OUTPUT -A OUTPUT -p udp -m udp --dport 4791 -j REJECT --reject-with icmp-port-unreachable" ]
    [ "${#lines[@]}" -eq 4 ]
    run fn_call "$DG" fw_parse_iptables $'-P OUTPUT ACCEPT\n-A OUTPUT -p udp -m udp --dport 53 -j DROP'
    [ -z "$output" ]
}

@test "fw_parse_ufw: 状态、默认策略、放行/拦截 4791（含 v6、on 网卡、OUT）；tcp 和别的端口不算" {
    local st
    st=$(
        cat <<'EOF'
Status: active
Logging: on (low)
Default: deny (incoming), deny (outgoing), disabled (routed)
New profiles: skip

To                         Action      From
--                         ------      ----
4791/udp                   ALLOW IN    Anywhere
4791/tcp                   DENY IN     Anywhere
22                         DENY IN     Anywhere
4791/udp (v6)              ALLOW IN    Anywhere (v6)
4791/udp on eth0           DENY OUT    Anywhere
EOF
    )
    run fn_call "$DG" fw_parse_ufw "$st"
    echo "$output"
    [ "${lines[0]}" = "status active" ]
    [ "${lines[1]}" = "policy in Default: deny (incoming), deny (outgoing), disabled (routed)" ]
    [ "${lines[2]}" = "policy out Default: deny (incoming), deny (outgoing), disabled (routed)" ]
    [[ ${lines[3]} == "accept in 4791/udp "*"ALLOW IN"* ]]
    [[ ${lines[4]} == "accept in 4791/udp (v6) "* ]]
    [[ ${lines[5]} == "drop out 4791/udp on eth0 "*"DENY OUT"* ]]
    [ "${#lines[@]}" -eq 6 ]
    run fn_call "$DG" fw_parse_ufw "Status: inactive"
    [ "$output" = "status inactive" ]
}

@test "fw_parse_firewalld: 区域、target、ports 里的 4791/udp、丢弃 4791 的 rich rule；别的端口不算" {
    local la
    la=$(
        cat <<'EOF'
public (active)
  target: default
  icmp-block-inversion: no
  interfaces: eth0
  services: dhcpv6-client ssh
  ports: 18515/tcp 4791/udp
  rich rules: 
	rule family="ipv4" source address="10.0.0.0/8" port port="4791" protocol="udp" drop
	rule family="ipv4" port port="22" protocol="tcp" reject
EOF
    )
    run fn_call "$DG" fw_parse_firewalld "$la"
    echo "$output"
    [ "${lines[0]}" = "zone public" ]
    [ "${lines[1]}" = "target default" ]
    [ "${lines[2]}" = "accept in ports 4791/udp" ]
    [ "${lines[3]}" = 'drop in rule family="ipv4" source address="10.0.0.0/8" port port="4791" protocol="udp" drop' ]
    [ "${lines[4]}" = "policy in target:default" ]
    [ "${#lines[@]}" -eq 5 ]
    run fn_call "$DG" fw_parse_firewalld $'trusted (active)\n  target: ACCEPT\n  ports: 22/tcp\n'
    [ "${lines[-1]}" = "accept in target:ACCEPT" ]
}

@test "parse_neigh: 状态和 MAC" {
    run bash -c 'source "$1"; shift; for l in "$@"; do parse_neigh "$l"; echo "[$NEIGH_STATE|$NEIGH_LLADDR]"; done' _ "$DG" \
        "10.0.0.1 dev eth0 lladdr 52:54:00:12:34:56 REACHABLE" \
        "10.0.0.1 lladdr 52:54:00:12:34:56 router STALE" \
        "10.0.0.9 dev eth0  FAILED" \
        "10.0.0.9 dev eth0 INCOMPLETE" \
        ""
    [ "${lines[0]}" = "[REACHABLE|52:54:00:12:34:56]" ]
    [ "${lines[1]}" = "[STALE|52:54:00:12:34:56]" ]
    [ "${lines[2]}" = "[FAILED|]" ]
    [ "${lines[3]}" = "[INCOMPLETE|]" ]
    [ "${lines[4]}" = "[|]" ]
}

# ===================== --peer（伪造的 ip / ping 放在 PATH 前面）=====================

# 伪造的网络命令: ip 和 ping 的回答来自 $FAKE_IP 目录里的文件，网卡 sysfs 在 $NET_SYSFS_ROOT
mk_fake_net() {
    BIN=$BATS_TEST_TMPDIR/bin
    export FAKE_IP=$BATS_TEST_TMPDIR/ipd
    export NET_SYSFS_ROOT=$BATS_TEST_TMPDIR/net
    mkdir -p "$BIN" "$FAKE_IP" "$NET_SYSFS_ROOT"
    write_fake_net_cmds "$BIN"
}
# 和 fx_rxe 一样，但只有 8 个槽位（--peer 的测试不测大表，省时间）
fx_rxe_small() {
    mk_port "$1" 1
    add_gid "$1" 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" "$2"
    add_gid "$1" 1 1 "0000:0000:0000:0000:0000:ffff:$3" "RoCE v2" "$2"
    add_empty "$1" 1 2 8
}
# 输出里第 7 节（对端）那一段
peer_section() {
    sed -n '/^== 7\. 对端/,/^========== 总结/p' <<<"$output"
}

# 客户端: eth0 10.20.0.1 通往对端 10.20.0.2；veth9 192.168.56.101 是一块不通往对端的网卡
fx_client_net() {
    mk_fake_net
    printf '%s\n' "1: lo    inet 127.0.0.1/8 scope host lo" \
        "2: eth0    inet 10.20.0.1/24 brd 10.20.0.255 scope global eth0" \
        "3: veth9    inet 192.168.56.101/24 scope global veth9" >"$FAKE_IP/addr"
    fake_route "10.20.0.2" "10.20.0.2 dev eth0 src 10.20.0.1 uid 0"
    echo "10.20.0.2 dev eth0 lladdr 52:54:00:12:34:56 REACHABLE" >"$FAKE_IP/neigh_10.20.0.2"
    fake_netdev eth0 1500
    fake_netdev veth9 1500
}

@test "diagnose --peer: 选错网卡 —— 唯一的 RDMA 设备在不通往对端的网卡上 → 退出 1，点名网卡并给出 rdma link add" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[通过] 路由: 去往 10.20.0.2 走网卡 eth0，源地址 10.20.0.1"* ]]
    [[ $output == *"[失败] 没有建在网卡 eth0 上的 RDMA 设备: 去往 10.20.0.2 的报文从 eth0 发出，RDMA 设备必须建在 eth0 上"* ]]
    [[ $output == *"修复: sudo rdma link add rxe1 type rxe netdev eth0"* ]]
    [[ $output == *"[警告] rxe0 端口1 建在网卡 veth9 上，这块网卡不通往 10.20.0.2（路由走 eth0）"* ]]
    [[ $output == *"-d 指定它，不要用 rxe0"* ]]
    [[ $output == *"结论: 发现"* ]]
}

@test "diagnose --peer: 源地址的 GID 在另一块网卡上也不算（GID 必须在路由的出口网卡上）" {
    fx_client_net
    # rxe0 在 veth9 上，却有一条与出口源地址相同的 10.20.0.1 条目（两块网卡配了同一个地址）
    fx_rxe_small rxe0 veth9 0a14:0001
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有建在网卡 eth0 上的 RDMA 设备"* ]]
    [[ $output == *"[警告] rxe0 端口1 建在网卡 veth9 上"* ]]
    PATH=$BIN:$PATH run "$SG" --peer 10.20.0.2
    [[ $output != *"<== 通往"* ]]
    [[ $output == *"通往 10.20.0.2: 没有匹配的条目"* ]]
}

@test "diagnose --peer: 正常 —— 出口网卡上的设备和 GID 索引、另一块网卡上的设备被警告，ping/ARP/路径 MTU 通过" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    # rxe1 在 eth0 上，但 IPv4 条目在索引 3（自动选择也是 3）
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    add_gid rxe1 1 3 0000:0000:0000:0000:0000:ffff:0a14:0001 "RoCE v2" eth0
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [[ $output == *"[通过] 通往 10.20.0.2 的 RDMA 设备: rxe1 端口1（网卡 eth0，4: ACTIVE），RoCE v2 GID 索引 3 = 0000:0000:0000:0000:0000:ffff:0a14:0001 (10.20.0.1) → 客户端用 -d rxe1 -g 3"* ]]
    [[ $output == *"[警告] rxe0 端口1 建在网卡 veth9 上，这块网卡不通往 10.20.0.2（路由走 eth0）"* ]]
    [[ $output == *"程序必须用另一个设备: -d rxe1（建在 eth0 上），不要用 rxe0"* ]]
    [[ $output == *"[通过] ping 10.20.0.2 通（ping -c 2 -W 1 -I 10.20.0.1 10.20.0.2）"* ]]
    [[ $output == *"[通过] 邻居 (ARP): 10.20.0.2 在网卡 eth0 上是 REACHABLE（MAC 52:54:00:12:34:56）"* ]]
    # MTU 1500 → active_mtu 1024 → 1024 + 64 = 1088 字节的 IP 包 = ping -s 1060
    [[ $output == *"[通过] 路径 MTU: 1088 字节的 IP 包不分片能到 10.20.0.2（active_mtu 1024 + 64 字节 RoCE 头部）"* ]]
    grep -qx 'ping -M do -s 1060 -c 1 -W 1 -I 10.20.0.1 10.20.0.2' "$FAKE_IP/calls"
    [[ $(peer_section) != *"[失败]"* ]]
    [[ $output != *"[失败]"* ]] || ! memlock_ok
    if memlock_ok; then [ "$status" -eq 0 ]; fi
    # 每次 ping 都有界: -c 和 -W
    grep -q '^ping ' "$FAKE_IP/calls"
    run bash -c 'grep "^ping " "$1" | grep -vc -- "-c [12] .*-W 1 "' _ "$FAKE_IP/calls"
    [ "$output" = 0 ]
}

@test "diagnose --peer: 对端地址是本机的 (local … dev lo) → 失败，解释克隆虚拟机/NAT 重复地址，退出 1" {
    mk_fake_net
    printf '%s\n' "2: eth0    inet 10.0.2.15/24 scope global eth0" >"$FAKE_IP/addr"
    fake_route "10.0.2.15" "local 10.0.2.15 dev lo table local src 10.0.2.15 uid 0"
    fake_netdev eth0 1500
    fx_rxe_small rxe0 eth0 0a00:020f
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.0.2.15
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 10.0.2.15 是本机自己的地址（内核路由答 local … dev lo），报文根本不会离开这台机器"* ]]
    [[ $output == *"这个地址在本机网卡 eth0 上（rxe0 端口1 的 GID 索引 1）"* ]]
    [[ $output == *"克隆的虚拟机保留了同一个静态 IP"* ]]
    [[ $output == *"VirtualBox 的 NAT 网卡给每台虚拟机都分配 10.0.2.15"* ]]
    [[ $output == *"正是 VirtualBox NAT 给每台虚拟机的默认地址"* ]]
    [[ $output == *"修复: 在其中一台机器上换一个不重复的地址: sudo ip addr del 10.0.2.15/24 dev eth0 && sudo ip addr add <新地址>/24 dev eth0"* ]]
    [[ $output == *"[跳过] RDMA 设备、ping、邻居 (ARP)、路径 MTU: 先解决上面的路由问题"* ]]
    run grep -c '^ping ' "$FAKE_IP/calls"
    [ "$output" = 0 ]
}

@test "diagnose --peer: 单机实验（对端地址在本机另一块网卡上，策略路由）→ 说明不是错误，按 rxe1 检查，不算失败" {
    mk_fake_net
    printf '%s\n' "2: veth0    inet 10.11.0.1/24 scope global veth0" \
        "3: veth1    inet 10.11.0.2/24 scope global veth1" >"$FAKE_IP/addr"
    fake_route "10.11.0.1" "local 10.11.0.1 dev lo table local src 10.11.0.1 uid 0"
    fake_route "10.11.0.1 from 10.11.0.2" "10.11.0.1 from 10.11.0.2 dev veth1 table 100 uid 0"
    echo "10.11.0.1 lladdr 52:54:00:00:00:01 REACHABLE" >"$FAKE_IP/neigh_10.11.0.1"
    fake_netdev veth0 1500
    fake_netdev veth1 1500
    fx_rxe_small rxe0 veth0 0a0b:0001
    fx_rxe_small rxe1 veth1 0a0b:0002
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.11.0.1
    peer_section
    [[ $output == *"[通过] 单机实验: 10.11.0.1 是本机网卡 veth0（rxe0 端口1 的 GID 索引 1）的地址，本机的 rxe1 经网卡 veth1（源地址 10.11.0.2）通往它"* ]]
    [[ $output == *"证据: ip route get 10.11.0.1 → local 10.11.0.1 dev lo"* ]]
    [[ $output == *"证据: ip route get 10.11.0.1 from 10.11.0.2 → 10.11.0.1 from 10.11.0.2 dev veth1 table 100"* ]]
    [[ $output == *"不是错误"* ]]
    [[ $output == *"客户端用 -d rxe1 -g 1"* ]]
    [[ $output == *"rxe0 端口1（网卡 veth0）是 10.11.0.1 自己的设备"* ]]
    [[ $output == *"[通过] ping 10.11.0.1 通（ping -c 2 -W 1 -I 10.11.0.2 10.11.0.1）"* ]]
    [[ $(peer_section) != *"[失败]"* ]]
    [[ $(peer_section) != *"[警告]"* ]]
}

@test "diagnose --peer: 路径 MTU —— 小包通、1088 字节的包不通 → 失败，找出能通过的 RoCE MTU" {
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    echo 1000 >"$FAKE_IP/ping_max"
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[通过] ping 10.20.0.2 通"* ]]
    [[ $output == *"[失败] 路径 MTU 太小: 1088 字节的 IP 包到不了 10.20.0.2，小包能到（ping -M do -s 1060 失败）"* ]]
    [[ $output == *"证据: 1 packets transmitted, 0 received"* ]]
    [[ $output == *"能通过的最大 RoCE MTU 是 512（576 字节的 IP 包能到）"* ]]
    [[ $output == *"修复: sudo ip link set eth0 mtu 592"* ]]
}

@test "diagnose --peer: ping 不通、ARP FAILED → 两项失败；没有路由 → 失败，其余跳过" {
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    echo 0 >"$FAKE_IP/ping_max"
    echo "10.20.0.2 dev eth0  FAILED" >"$FAKE_IP/neigh_10.20.0.2"
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] ping 10.20.0.2 不通（ping -c 2 -W 1 -I 10.20.0.1 10.20.0.2）"* ]]
    [[ $output == *"[失败] 邻居 (ARP): 解析不到 10.20.0.2 的 MAC 地址（FAILED），二层不通"* ]]
    [[ $output == *"修复: 确认两台机器的网卡接在同一个网络"* ]]
    [[ $output == *"[跳过] 小包 ping 都不通，跳过路径 MTU 检查"* ]]
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.99.0.1
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有去往 10.99.0.1 的路由: RTNETLINK answers: Network is unreachable"* ]]
    [[ $output == *"[跳过] RDMA 设备、ping、邻居 (ARP)、路径 MTU: 先解决上面的路由问题"* ]]
    # 看不懂的回答（没有 dev）也当作没有路由，而不是“走网卡 （空）”
    fake_route "10.99.0.2" "10.99.0.2 uid 0"
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.99.0.2
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有去往 10.99.0.2 的路由: 回答里没有出口网卡: 10.99.0.2 uid 0"* ]]
}

@test "diagnose --peer: 防火墙 —— nft 丢弃 udp dport 4791、iptables OUTPUT 丢弃 → 失败并给出修复" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    cat >"$BIN/nft" <<'EOF'
#!/usr/bin/env bash
printf 'table inet filter {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n\t\ttcp dport 22 drop\n\t\tudp dport 4791 drop\n\t}\n}\n'
EOF
    cat >"$BIN/iptables" <<'EOF'
#!/usr/bin/env bash
if [[ $* == "-S OUTPUT" ]]; then
    printf '%s\n' "-P OUTPUT ACCEPT" "-A OUTPUT -p udp -m udp --dport 4791 -j DROP"
else
    printf '%s\n' "-P $2 ACCEPT"
fi
EOF
    chmod +x "$BIN/nft" "$BIN/iptables"
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] nft 规则丢弃/拒绝了 UDP 4791"* ]]
    [[ $output == *"修复: sudo nft insert rule inet filter input udp dport 4791 accept"* ]]
    [[ $(peer_section) == *"nft 丢弃 UDP 4791 的规则已在第 6 节报告"* ]]
    [[ $output == *"[通过] iptables INPUT 链没有拦截 UDP 4791"* ]]
    [[ $output == *"[失败] iptables OUTPUT 链丢弃/拒绝了发往 UDP 4791 的报文（出方向）"* ]]
    [[ $output == *"证据: -A OUTPUT -p udp -m udp --dport 4791 -j DROP"* ]]
    [[ $output == *"修复: sudo iptables -I OUTPUT -p udp --dport 4791 -j ACCEPT"* ]]
}

@test "diagnose: firewalld 在运行就由它判断（第 6 节，不带 --peer 也查）：没放行 4791 → 失败、修复用 firewall-cmd；它生成的 nft 规则不再单独报" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_rxe rxe0 lo 7f00:0001
    local BIN=$BATS_TEST_TMPDIR/bin
    mkdir -p "$BIN"
    # firewalld 的 nft 表：input 链 policy accept、跳到 filter_INPUT……；这里故意放一条 policy drop 的链，它不该被当成“nft 的问题”报出来
    cat >"$BIN/nft" <<'EOF'
#!/usr/bin/env bash
printf 'table inet firewalld {\n\tchain filter_INPUT {\n\t\ttype filter hook input priority filter + 10; policy accept;\n\t\tjump filter_INPUT_ZONES\n\t\treject with icmpx admin-prohibited\n\t}\n}\n'
EOF
    cat >"$BIN/firewall-cmd" <<'EOF'
#!/usr/bin/env bash
case $1 in
    --state) echo running ;;
    --list-all) printf 'public (active)\n  target: default\n  ports: 18515/tcp\n' ;;
esac
EOF
    chmod +x "$BIN/nft" "$BIN/firewall-cmd"
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"firewalld 在运行，由它管防火墙"* ]]
    [[ $output == *"[失败] firewalld 在运行（区域 public），没有放行 UDP 4791"* ]]
    [[ $output == *"修复: sudo firewall-cmd --add-port=4791/udp && sudo firewall-cmd --permanent --add-port=4791/udp"* ]]
    [[ $output != *"nft 规则没有拦截"* && $output != *"nft 的 input 链"* ]]
    # 放行了：通过
    cat >"$BIN/firewall-cmd" <<'EOF'
#!/usr/bin/env bash
case $1 in
    --state) echo running ;;
    --list-all) printf 'public (active)\n  target: default\n  ports: 4791/udp 18515/tcp\n' ;;
esac
EOF
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[通过] firewalld（区域 public）放行了 UDP 4791（ports 4791/udp）"* ]]
    # firewalld 没在运行：回到 nft 的规则本身
    cat >"$BIN/firewall-cmd" <<'EOF'
#!/usr/bin/env bash
[[ $1 == --state ]] && echo "not running"
exit 252
EOF
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output != *"firewalld 在运行"* ]]
    [[ $output == *"[通过] nft 规则没有拦截 UDP 4791"* ]]
}

@test "diagnose: ufw 启用时由它判断（Ubuntu 的样子，规则取自原版 Debian 12 + ufw 的虚拟机）：默认拒绝、没放行 4791 → 失败；没写端口的放行 → 警告；放行了 → 通过" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_rxe rxe0 lo 7f00:0001
    local BIN=$BATS_TEST_TMPDIR/bin
    mkdir -p "$BIN"
    # lab/stock-run --flavour ufw 的 VM 上 ufw status verbose / iptables / nft list ruleset 的输出（节选）：
    # iptables 是 iptables-nft，nft 看到的是 ufw 生成的 ip filter 表
    export FAKE_UFW=$BATS_TEST_TMPDIR/ufw.out
    printf '%s\n' "Status: active" "Logging: on (low)" "Default: deny (incoming), allow (outgoing), disabled (routed)" "New profiles: skip" >"$FAKE_UFW"
    cat >"$BIN/ufw" <<'EOF'
#!/usr/bin/env bash
if [[ $* == status ]]; then grep -v '^Default\|^Logging\|^New' "$FAKE_UFW"; else cat "$FAKE_UFW"; fi
EOF
    cat >"$BIN/iptables" <<'EOF'
#!/usr/bin/env bash
case $* in
    -V) echo "iptables v1.8.9 (nf_tables)" ;;
    *) printf '%s\n' "-P INPUT DROP" "-A INPUT -j ufw-before-logging-input" "-A INPUT -j ufw-before-input" ;;
esac
EOF
    cat >"$BIN/nft" <<'EOF'
#!/usr/bin/env bash
cat <<'R'
# Warning: table ip filter is managed by iptables-nft, do not touch!
table ip filter {
	chain ufw-before-input {
		iifname "lo" counter packets 0 bytes 0 accept
		ct state related,established counter packets 0 bytes 0 accept
		meta l4proto icmp icmp type echo-request counter packets 0 bytes 0 accept
		udp sport 67 udp dport 68 counter packets 0 bytes 0 accept
		counter packets 0 bytes 0 jump ufw-user-input
	}

	chain ufw-before-output {
		oifname "lo" counter packets 0 bytes 0 accept
		ct state related,established counter packets 0 bytes 0 accept
	}

	chain INPUT {
		type filter hook input priority filter; policy drop;
		counter packets 0 bytes 0 jump ufw-before-logging-input
		counter packets 0 bytes 0 jump ufw-before-input
	}
}
R
EOF
    chmod +x "$BIN/ufw" "$BIN/iptables" "$BIN/nft"
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"ufw 已启用，由它管防火墙"* ]]
    [[ $output == *"[失败] ufw 已启用、默认拒绝进来的报文，且没有放行 UDP 4791 的规则"* ]]
    [[ $output == *"RETRY_EXC_ERR"* ]]
    [[ $output == *"修复: sudo ufw allow 4791/udp && sudo ufw allow 1/tcp"* ]]
    # ufw 生成的表不单独报，也不建议往里插 nft/iptables 规则
    [[ $output != *"nft 的 input 链"* && $output != *"iptables INPUT"* && $output != *"sudo nft insert"* && $output != *"sudo iptables -I"* ]]
    # 按来源地址放行、没写端口：可能放过 4791 → 警告，指出这条规则
    printf '%s\n' "" "To                         Action      From" "--                         ------      ----" \
        "22/tcp                     ALLOW IN    Anywhere" "Anywhere                   ALLOW IN    10.20.0.2" >>"$FAKE_UFW"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[警告] ufw 已启用、默认拒绝进来的报文，且没有放行 UDP 4791 的规则"* ]]
    [[ $output == *"可能放过 RoCE v2 报文，也可能不: Anywhere                   ALLOW IN    10.20.0.2"* ]]
    # README 的 ufw 命令之后：通过
    echo "4791/udp                   ALLOW IN    Anywhere" >>"$FAKE_UFW"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[通过] ufw 已启用，并放行了 UDP 4791"* ]]
    # ufw 没启用：回到 nft 的规则本身；ufw 生成的出方向规则里的 oifname "lo" 不算“可能放过 4791 的放行”，
    # iptables-nft 的规则 nft 已经读过，不再读一遍
    printf 'Status: inactive\n' >"$FAKE_UFW"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[失败] nft 的 input 链 (ip filter INPUT) 默认策略是 drop，且没有放行 UDP 4791 的规则"* ]]
    [[ $output != *'oifname "lo"'* ]]
    [[ $output == *"iptables 是 iptables-nft"* && $output != *"iptables INPUT 默认策略"* ]]
    [[ $output == *"[通过] ufw 未启用"* ]]
}

@test "diagnose: iptables（legacy）INPUT 默认 DROP、只放行 lo/已建立/TCP → 失败；另有没写端口的放行 → 警告并指出它" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_rxe rxe0 lo 7f00:0001
    local BIN=$BATS_TEST_TMPDIR/bin
    mkdir -p "$BIN"
    export FAKE_IPT=$BATS_TEST_TMPDIR/ipt.out
    printf '%s\n' "-P INPUT DROP" "-A INPUT -i lo -j ACCEPT" "-A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT" \
        "-A INPUT -p tcp -m tcp --dport 22 -j ACCEPT" "-A INPUT -p udp -m udp --dport 53 -j ACCEPT" >"$FAKE_IPT"
    cat >"$BIN/iptables" <<'EOF'
#!/usr/bin/env bash
case $* in
    -V) echo "iptables v1.8.9 (legacy)" ;;
    *) cat "$FAKE_IPT" ;;
esac
EOF
    chmod +x "$BIN/iptables"
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] iptables INPUT 默认策略是 DROP，且没有放行 UDP 4791 的规则"* ]]
    [[ $output == *"RETRY_EXC_ERR"* ]]
    [[ $output == *"修复: sudo iptables -I INPUT -p udp --dport 4791 -j ACCEPT"* ]]
    echo "-A INPUT -s 10.20.0.0/16 -j ACCEPT" >>"$FAKE_IPT"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[警告] iptables INPUT 默认策略是 DROP，且没有放行 UDP 4791 的规则"* ]]
    [[ $output == *"可能放过 RoCE v2 报文，也可能不: -A INPUT -s 10.20.0.0/16 -j ACCEPT"* ]]
}

@test "diagnose --peer: 没有 ping 时用 busybox 的 ping；它不支持 -M do，路径 MTU 跳过并给出手动命令" {
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    # PATH 里只有伪造的命令: ping 改名成 busybox（第一个参数是 applet 名 ping）
    {
        echo '#!/usr/bin/env bash'
        echo 'shift'
        tail -n +2 "$BIN/ping"
    } >"$BIN/busybox"
    chmod +x "$BIN/busybox"
    rm "$BIN/ping"
    ln -s "$BASH" "$BIN/bash"
    ln -s "$(command -v cat)" "$BIN/cat"
    PATH=$BIN run "$BASH" "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [[ $output == *"[通过] ping 10.20.0.2 通（ping -c 2 -W 1 -I 10.20.0.1 10.20.0.2）"* ]]
    [[ $output == *"[跳过] busybox 的 ping 不支持 -M do，跳过路径 MTU 检查；装 iputils-ping 后手动: ping -M do -s 1060 -c 1 10.20.0.2"* ]]
    run grep -c -- '-M' "$FAKE_IP/calls"
    [ "$output" = 0 ]
}

@test "diagnose --peer: 用法 —— --help 里有 --peer；不是 IPv4 返回 2；不带 --peer 没有第 7 节" {
    run "$DG" --help
    [ "$status" -eq 0 ]
    [[ $output == *"--peer IP"* ]]
    run "$DG" --peer
    [ "$status" -eq 2 ]
    run "$DG" --peer host.example
    [ "$status" -eq 2 ]
    [[ $output == *"--peer 需要点分十进制的 IPv4 地址"* ]]
    run "$DG" --peer 10.0.0.256
    [ "$status" -eq 2 ]
    fx_rxe_small rxe0 lo 7f00:0001
    run "$DG" --port 1
    [[ $output != *"== 7."* ]]
    [[ ${lines[0]} == "RoCEv2 环境诊断  (sysfs: $FAKE, TCP 端口: 1)" ]]
}

# ===================== show_gids.sh --peer =====================

@test "show_gids --peer: 标出通往对端的条目（出口网卡 + 源地址 → RoCE v2 GID）" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    add_gid rxe1 1 1 0000:0000:0000:0000:0000:ffff:0a14:0001 "IB/RoCE v1" eth0
    add_gid rxe1 1 2 0000:0000:0000:0000:0000:ffff:0a14:0001 "RoCE v2" eth0
    PATH=$BIN:$PATH run --separate-stderr "$SG" --peer 10.20.0.2
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $(row_of rxe1 2) == *"10.20.0.1 "*"v2"*"eth0"*"<== 自动选择 <== 通往 10.20.0.2" ]]
    [ "$(grep -c '<== 通往' <<<"$output")" -eq 1 ]
    [[ $(row_of rxe0 1) != *"通往"* ]]
    [[ $output == *"通往 10.20.0.2: 路由走网卡 eth0，源地址 10.20.0.1 → rxe1 端口1 GID索引2 (RoCE v2, IPv4 10.20.0.1)  用法: -d rxe1 -g 2"* ]]
    [ "$(marked | tr '\n' ' ')" = "rxe0:1 rxe1:2 " ]
    [ "${lines[-1]}" = "n_gids_found=5" ]
    [ -z "$stderr" ]
    # 只显示 rxe0 时也照样说出通往对端要用 rxe1
    PATH=$BIN:$PATH run "$SG" --peer 10.20.0.2 rxe0
    [[ $output != *"<== 通往"* ]]
    [[ $output == *"用法: -d rxe1 -g 2"* ]]
}

@test "show_gids --peer: 没有匹配的条目时明确说出来（选错网卡 / 本机地址 / 没有路由），退出 0" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$SG" --peer 10.20.0.2
    [ "$status" -eq 0 ]
    [[ $output != *"<== 通往"* ]]
    [[ $output == *"通往 10.20.0.2: 没有匹配的条目 —— 路由走网卡 eth0，源地址 10.20.0.1，但没有哪个 RDMA 设备在 eth0 上有这个地址的 RoCE v2 GID"* ]]
    [[ $output == *"sudo rdma link add rxeN type rxe netdev eth0"*"详细检查: ./diagnose.sh --peer 10.20.0.2"* ]]
    [ "${lines[-1]}" = "n_gids_found=2" ]
    fake_route "192.168.56.101" "local 192.168.56.101 dev lo table local src 192.168.56.101 uid 0"
    PATH=$BIN:$PATH run "$SG" --peer 192.168.56.101
    [[ $output == *"通往 192.168.56.101: 没有匹配的条目 —— 192.168.56.101 是本机自己的地址"*"克隆的虚拟机"* ]]
    PATH=$BIN:$PATH run "$SG" --peer 10.99.0.1
    [[ $output == *"通往 10.99.0.1: 没有匹配的条目 —— 没有去往 10.99.0.1 的路由（RTNETLINK answers: Network is unreachable）"* ]]
    run "$SG" --peer nope
    [ "$status" -eq 2 ]
}

@test "show_gids --peer: 单机实验 —— 标出通往对端的 rxe1 条目和对端自己的 rxe0 条目" {
    mk_fake_net
    fake_route "10.11.0.1" "local 10.11.0.1 dev lo table local src 10.11.0.1 uid 0"
    fake_route "10.11.0.1 from 10.11.0.2" "10.11.0.1 from 10.11.0.2 dev veth1 table 100 uid 0"
    fx_rxe_small rxe0 veth0 0a0b:0001
    fx_rxe_small rxe1 veth1 0a0b:0002
    PATH=$BIN:$PATH run "$SG" --peer 10.11.0.1
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $(row_of rxe1 1) == *"<== 自动选择 <== 通往 10.11.0.1" ]]
    [[ $(row_of rxe0 1) == *"<== 自动选择 <== 10.11.0.1 本身（单机实验的对端）" ]]
    [[ $output == *"用法: -d rxe1 -g 1  （单机实验: 10.11.0.1 是本机网卡 veth0 的地址，策略路由让 10.11.0.2 经 veth1 通往它）"* ]]
}

# ===================== errno 38 (ib_uverbs) 和重启后 rxe 设备消失 =====================

# 内核里没有 rdma_rxe 模块: modinfo 失败，KERNEL_MODULES_ROOT 下也没有 rdma_rxe.ko
# （不依赖运行测试的机器有没有 rdma_rxe）。结果: $BIN 放在 PATH 前面，KERNEL_MODULES_ROOT 已导出。
# no_rxe_module [发行版ID [内核版本]]: 假装是这个发行版（/etc/os-release 的 ID）和这个 uname -r，默认 Ubuntu 的 generic 内核
no_rxe_module() {
    BIN=$BATS_TEST_TMPDIR/bin
    mkdir -p "$BIN" "$BATS_TEST_TMPDIR/lib-modules"
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modinfo"
    chmod +x "$BIN/modinfo"
    printf 'NAME="%s"\nID=%s\n' "${1:-ubuntu}" "${1:-ubuntu}" >"$BATS_TEST_TMPDIR/os-release"
    export KERNEL_MODULES_ROOT=$BATS_TEST_TMPDIR/lib-modules OS_RELEASE_FILE=$BATS_TEST_TMPDIR/os-release
    export KERNEL_RELEASE=${2:-6.8.0-45-generic}
}

@test "diagnose errno 38 (a): 有 RDMA 设备但没有 infiniband_verbs、ib_uverbs 没加载 → 点名 ib_uverbs 和 errno 38，修复 modprobe ib_uverbs / rdma-core" {
    fx_rxe_small mlx5_0 lo 7f00:0001
    rm -rf "$VERBS" "$MODS/ib_uverbs"
    run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[通过] 找到 RDMA 设备: mlx5_0"* ]]
    [[ $output == *"[失败] 内核模块 ib_uverbs 没有加载: 有 RDMA 设备 (mlx5_0)，但没有 $VERBS"* ]]
    [[ $output == *"ibv_get_device_list() 失败，errno 38 (ENOSYS, Function not implemented)"* ]]
    [[ $output == *"没装 rdma-core"* ]]
    [[ $output == *"修复: sudo modprobe ib_uverbs"$'\n'"       修复: sudo apt-get install rdma-core"* ]]
    [[ $output == *"建议按顺序执行的修复:"$'\n'"  1. sudo modprobe ib_uverbs"$'\n'"  2. sudo apt-get install rdma-core"* ]]
    # 不是“内核没有 RDMA”那一种
    [[ $output != *"linux-modules-extra"* ]]
    [[ $output != *"也没有 RDMA 设备"* ]]
    # ib_uverbs 已加载，却看不到 infiniband_verbs（容器里 /sys 不完整）
    mkdir -p "$MODS/ib_uverbs"
    run "$DG" --port 1
    [[ $output == *"[失败] ib_uverbs 已加载 ($MODS/ib_uverbs)，但看不到 $VERBS: ibv_get_device_list() 会失败，errno 38 (ENOSYS)"$'\n'"       通常是在容器里"* ]]
}

@test "diagnose errno 38 (b): 什么都没有 → 内核里没有 RDMA，修复 linux-modules-extra + modprobe rdma_rxe，而不是 modprobe ib_uverbs" {
    rm -rf "$VERBS" "$MODS/ib_uverbs"
    no_rxe_module
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 没有 $VERBS，也没有 RDMA 设备: 内核里还没有 RDMA（rdma_rxe / ib_uverbs 都没加载）"* ]]
    [[ $output == *"后果: 程序的 ibv_get_device_list() 失败，errno 38 (ENOSYS, Function not implemented)"* ]]
    [[ $output =~ 修复:\ sudo\ apt-get\ install\ linux-modules-extra-[^[:space:]]+\ \&\&\ sudo\ modprobe\ rdma_rxe ]]
    [[ $output != *"modprobe ib_uverbs"* ]]
    [[ $output != *"rdma-core"* ]]
    # 汇总: 先装模块，再建 rxe0（同一条修复只列一次）
    [[ $output =~ 建议按顺序执行的修复:$'\n'\ \ 1\.\ sudo\ apt-get\ install\ linux-modules-extra-[^$'\n']*$'\n'\ \ 2\.\ sudo\ rdma\ link\ add\ rxe0 ]]
    # rdma_rxe.ko 在（只是没加载）: 只要 modprobe rdma_rxe
    local kv=$KERNEL_RELEASE
    mkdir -p "$KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/sw/rxe"
    : >"$KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.zst"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[失败] 内核模块 rdma_rxe 可用但没有加载"$'\n'"       证据: $KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko.zst（$MODS/rdma_rxe 不存在）"* ]]
    [[ $output == *"[失败] 没有 $VERBS，也没有 RDMA 设备"*"修复: sudo modprobe rdma_rxe"* ]]
    [[ $output != *"linux-modules-extra"* ]]
    # rdma_rxe 已加载、却没有 ib_uverbs: 单独加载 ib_uverbs
    mkdir -p "$MODS/rdma_rxe"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[通过] 内核模块 rdma_rxe 已加载 ($MODS/rdma_rxe)"* ]]
    [[ $output == *"[失败] 没有 $VERBS，也没有 RDMA 设备"*"修复: sudo modprobe ib_uverbs"* ]]
}

@test "diagnose 没有 rdma_rxe（Ubuntu generic）: 说出 modprobe 的原话、修复 linux-modules-extra-<uname -r>，升级内核后要再装一次" {
    rm -rf "$VERBS" "$MODS/ib_uverbs"
    no_rxe_module ubuntu 6.8.0-45-generic
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 当前内核 (6.8.0-45-generic) 没有 rdma_rxe 模块（Soft-RoCE 不可用）"* ]]
    [[ $output == *"Module rdma_rxe not found in directory $KERNEL_MODULES_ROOT/6.8.0-45-generic"* ]]
    [[ $output == *"修复: sudo apt-get install linux-modules-extra-6.8.0-45-generic && sudo modprobe rdma_rxe"* ]]
    [[ $output == *"升级内核并重启以后，新内核要再装一次这个包"* ]]
    [[ $output != *"reboot"* ]]
}

@test "diagnose 没有 rdma_rxe、内核变种不带它（Ubuntu -kvm、Debian -cloud-amd64）: 点名变种，修复装通用内核、删掉变种和元包再重启，不提 linux-modules-extra" {
    rm -rf "$VERBS" "$MODS/ib_uverbs"
    no_rxe_module ubuntu 5.15.0-1019-kvm
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"原因: 这是 -kvm 内核变种（云镜像、精简镜像常用），它不带 rdma_rxe"* ]]
    [[ $output == *"修复: sudo apt-get install -y linux-image-generic && sudo DEBIAN_FRONTEND=noninteractive apt-get purge -y linux-image-kvm 'linux-image-*-kvm' && sudo reboot"* ]]
    [[ $output =~ 建议按顺序执行的修复:$'\n'\ \ 1\.\ sudo\ apt-get\ install\ -y\ linux-image-generic\ \&\& ]]
    [[ $output == *"只装不删时 GRUB 仍然默认启动 -kvm 内核"* ]]
    [[ $output != *"linux-modules-extra"* ]]
    no_rxe_module debian 6.1.0-56-cloud-amd64
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [[ $output == *"原因: 这是 -cloud-amd64 内核变种"* ]]
    # QUICKFIX 第 0 节的 cloud-kernel 块（tests/stock/cloud.sh 在云内核镜像上经 GRUB 重启验证）：装通用内核、删云内核和元包、重启
    [[ $output == *"修复: sudo apt-get install -y linux-image-amd64 && sudo DEBIAN_FRONTEND=noninteractive apt-get purge -y linux-image-cloud-amd64 'linux-image-*-cloud-amd64' && sudo reboot"* ]]
    [[ $output != *"linux-modules-extra"* ]]
    # Debian 的通用内核（-amd64）没有 rdma_rxe：不是 Ubuntu 的包名，换回通用内核
    no_rxe_module debian 6.1.0-56-amd64
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [[ $output == *"修复: sudo apt-get install linux-image-amd64 && sudo reboot"* ]]
    [[ $output != *"linux-modules-extra"* ]]
}

@test "diagnose errno 38: 健康 —— infiniband_verbs 在 → 通过并列出 uverbsN → 设备；ib_uverbs 编进内核（没有 /sys/module/ib_uverbs）也算通过" {
    fx_rxe_small rxe0 lo 7f00:0001
    mkdir -p "$VERBS/uverbs0"
    echo rxe0 >"$VERBS/uverbs0/ibdev"
    run "$DG" --port 1
    [[ $output == *"[通过] 用户态 verbs 接口 $VERBS 存在（ib_uverbs 已加载）: uverbs0 → rxe0"* ]]
    [[ $output != *"errno 38"* ]]
    [[ $output != *"[失败]"* ]] || ! memlock_ok
    rm -rf "$MODS/ib_uverbs"
    run "$DG" --port 1
    [[ $output == *"[通过] 用户态 verbs 接口 $VERBS 存在"* ]]
    [[ $output != *"errno 38"* ]]
}

@test "diagnose: 没有 rxe 设备、有可用网卡 → rdma link add 之外说明重启后会消失，给出开机自动创建的 systemd 单元（只说一次）" {
    fx_client_net
    # 假的 rdma: 没有任何链路（不受运行测试的机器上真实 rxe 的影响）
    printf '#!/bin/sh\nexit 0\n' >"$BIN/rdma"
    chmod +x "$BIN/rdma"
    PATH=$BIN:$PATH run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"修复: sudo rdma link add rxe0 type rxe netdev eth0"$'\n'"       注意: rxe 设备重启后就没有了"* ]]
    [[ $output == *"每次开机都要重新执行上面的 rdma link add"* ]]
    [[ $output == *"sudo systemctl daemon-reload && sudo systemctl enable rxe0.service"* ]]
    [[ $output == *"TROUBLESHOOTING.md「重启后 rxe 设备消失」"* ]]
    # 打印的命令真能写出一个正确的单元文件（把 sudo tee 换成写到临时文件）
    local cmd unit=$BATS_TEST_TMPDIR/rxe0.service
    cmd=$(grep -F "| sudo tee /etc/systemd/system/rxe0.service" <<<"$output")
    cmd=${cmd/"| sudo tee /etc/systemd/system/rxe0.service"/"| tee $unit"}
    eval "$cmd"
    # 和 README 第 4 步写的单元一字不差（README 那一行原样执行，NIC=eth0，写到临时文件）：学习者不会看到两份不同的单元
    local want=$BATS_TEST_TMPDIR/readme.service readme
    readme=$(grep -F '| sudo tee /etc/systemd/system/rxe0.service' "$REPO/README.md")
    [ -n "$readme" ]
    readme=${readme/"| sudo tee /etc/systemd/system/rxe0.service"/">$want"}
    NIC=eth0 eval "$readme"
    diff "$want" "$unit"
    # 指定的设备不存在: 单元用那个名字；加上 --peer（第 7 节也建议 rdma link add）也只说一次
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2 rxe3
    [[ $output == *"ExecStart=rdma link add rxe3 type rxe netdev eth0"* ]]
    [[ $output == *"修复: sudo rdma link add rxe0 type rxe netdev eth0"* ]]
    [ "$(grep -c "重启后就没有了" <<<"$output")" -eq 1 ]
}

# ===================== librdmacm 的内核接口（rdma_cm / rdma_ucm / /dev/infiniband/rdma_cm）=====================

@test "diagnose rdma_cm: 健康 —— rdma_cm、rdma_ucm 已加载，rdma_cm 设备文件在 → 通过；编进内核（没有 /sys/module 条目）也通过" {
    fx_rxe_small rxe0 lo 7f00:0001
    run "$DG" --port 1
    echo "$output"
    [[ $output == *"[通过] librdmacm 的内核接口: rdma_cm、rdma_ucm 已加载，$DEVIB/rdma_cm 存在（rping、--cm 模式经它建立连接）"* ]]
    [[ $output != *"modprobe rdma_ucm"* ]]
    # 在第 2 节里，紧跟 ib_uverbs 那一项
    [[ $output == *"[通过] 用户态 verbs 接口"*$'\n'"[通过] librdmacm 的内核接口"* ]]
    rm -rf "$MODS/rdma_cm" "$MODS/rdma_ucm"
    run "$DG" --port 1
    [[ $output == *"[通过] librdmacm 的内核接口: $MODS 里没有 rdma_cm / rdma_ucm，应是编进了内核，$DEVIB/rdma_cm 存在"* ]]
}

@test "diagnose rdma_cm: rdma_ucm 没加载 → 警告（不是失败），说明 librdmacm 程序要它、会自动加载的条件，修复 modprobe rdma_ucm / rdma-core" {
    fx_rxe_small rxe0 lo 7f00:0001
    rm -rf "$MODS/rdma_ucm" "$DEVIB/rdma_cm"
    run "$DG" --port 1
    echo "$output"
    [[ $output == *"[警告] 内核模块 rdma_ucm 没有加载，没有 $DEVIB/rdma_cm"$'\n'* ]]
    [[ $output == *"librdmacm 程序（rping、ucmatose、--cm 模式）要经 $DEVIB/rdma_cm 建立连接"* ]]
    [[ $output == *"rdma_create_event_channel() 失败，errno 2 (ENOENT)，rping 打印 failed to create RDMA CM event channel: No such file or directory"* ]]
    [[ $output == *"rdma-core 的 udev 规则在出现 RDMA 设备时（开机、rdma link add）加载 /etc/rdma/modules/rdma.conf 里的 rdma_ucm"* ]]
    [[ $output == *"修复: sudo modprobe rdma_ucm  # 会把 rdma_cm 一起加载"$'\n'"       修复: sudo apt-get install rdma-core"* ]]
    [[ $output != *"[失败] 内核模块 rdma_ucm"* ]]
    if memlock_ok; then [ "$status" -eq 0 ]; fi
    # rdma_cm 也没加载: 点出来
    rm -rf "$MODS/rdma_cm"
    run "$DG" --port 1
    [[ $output == *"[警告] 内核模块 rdma_ucm 没有加载（rdma_cm 也没有），没有 $DEVIB/rdma_cm"* ]]
    # 当前内核根本没有 rdma_ucm.ko（modinfo、modprobe -n 都找不到）: 多一行证据
    no_rxe_module
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modprobe"
    chmod +x "$BIN/modprobe"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"证据: modinfo rdma_ucm 失败，$KERNEL_MODULES_ROOT/"*"下也没有 rdma_ucm.ko"* ]]
    local kv=$KERNEL_RELEASE
    mkdir -p "$KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/core"
    : >"$KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/core/rdma_ucm.ko.xz"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[警告] 内核模块 rdma_ucm 没有加载"* ]]
    [[ $output != *"下也没有 rdma_ucm.ko"* ]]
    # 只有 modprobe 认得它（实验虚拟机里的情形）: 也不算没有
    rm -f "$KERNEL_MODULES_ROOT/$kv/kernel/drivers/infiniband/core/rdma_ucm.ko.xz"
    printf '#!/bin/sh\n[ "$*" = "-n -q rdma_ucm" ]\n' >"$BIN/modprobe"
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output == *"[警告] 内核模块 rdma_ucm 没有加载"* ]]
    [[ $output != *"下也没有 rdma_ucm.ko"* ]]
}

@test "diagnose rdma_cm: rdma_ucm 已加载但没有设备文件 → 警告容器；没有任何 RDMA 设备 → 跳过，不建议 modprobe rdma_ucm" {
    fx_rxe_small rxe0 lo 7f00:0001
    rm -f "$DEVIB/rdma_cm"
    run "$DG" --port 1
    echo "$output"
    [[ $output == *"[警告] rdma_ucm 已加载，但没有 $DEVIB/rdma_cm: librdmacm 程序（rping、ucmatose、--cm 模式）打不开 RDMA CM"* ]]
    [[ $output == *"修复: 在宿主机或虚拟机里运行；容器要加 --device $DEVIB/rdma_cm"* ]]
    rm -rf "${FAKE:?}"/* "$MODS/rdma_ucm" "$MODS/rdma_cm"
    run "$DG" --port 1
    [[ $output == *"[跳过] librdmacm 的内核接口（rdma_ucm、$DEVIB/rdma_cm）: 还没有 RDMA 设备，先解决上面的问题"* ]]
    [[ $output != *"modprobe rdma_ucm"* ]]
}

# 输出里第 8 节（--cm-addr）那一段
cm_section() {
    sed -n '/^== 8\. RDMA CM 地址/,/^========== 总结/p' <<<"$output"
}

@test "diagnose --cm-addr: 地址在 RDMA 设备的 GID 表里 → 通过并说出 rdma_bind_addr 会选的设备和 GID 索引" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr 192.168.56.101
    cm_section
    [[ ${lines[0]} == *"CM 地址: 192.168.56.101)" ]]
    [[ $output == *"== 8. RDMA CM 地址 192.168.56.101"* ]]
    [[ $output == *"[通过] rdma_bind_addr(192.168.56.101) 会选 rxe0 端口1: 地址在网卡 veth9 上，RoCE v2 GID 索引 1 = 0000:0000:0000:0000:0000:ffff:c0a8:3865"* ]]
    [[ $(cm_section) != *"[失败]"* ]]
}

@test "diagnose --cm-addr: 地址在没有 RDMA 设备的网卡上 → 失败，ENODEV 的原因链，现有设备在哪块网卡，修复 rdma link add" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr 10.20.0.1
    cm_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 10.20.0.1 在网卡 eth0 上，但没有哪个 RDMA 设备的 GID 表里有它: rdma_bind_addr(10.20.0.1) 会失败，errno 19 (ENODEV, No such device)"* ]]
    [[ $output == *"rdma_bind_addr → cma_translate_addr 找到地址所在的网卡 eth0 →"* ]]
    [[ $output == *"cma_acquire_dev_by_src_ip 在每个 RDMA 设备/端口的 GID 表里找 ::ffff:10.20.0.1（类型 RoCE v2、网卡 eth0）→ 一个都没有 → -ENODEV"* ]]
    [[ $output == *"RDMA_CM_EVENT_ADDR_ERROR，status -19"* ]]
    [[ $output == *"现有 RDMA 设备: rxe0 端口1（网卡 veth9）"* ]]
    [[ $(cm_section) == *"修复: sudo rdma link add rxe1 type rxe netdev eth0"* ]]
}

@test "diagnose --cm-addr: 同一地址的 GID 只有 RoCE v1 或在别的网卡上都不算 → ENODEV；网卡上已有设备时修复是重建它" {
    fx_client_net
    # rxe0 在 eth0 上，但 10.20.0.1 只有 RoCE v1 条目（rdma_cm 默认要 RoCE v2）
    mk_port rxe0 1
    add_gid rxe0 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    add_gid rxe0 1 1 0000:0000:0000:0000:0000:ffff:0a14:0001 "IB/RoCE v1" eth0
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr 10.20.0.1
    cm_section
    [[ $output == *"[失败] 10.20.0.1 在网卡 eth0 上，但没有哪个 RDMA 设备的 GID 表里有它"* ]]
    [[ $output == *"GID 表里有这个地址，但不符合条件: rxe0 端口1 索引 1（IB/RoCE v1，网卡 eth0）"* ]]
    [[ $(cm_section) == *"修复: sudo rdma link delete rxe0 && sudo rdma link add rxe0 type rxe netdev eth0"* ]]
    # 这个地址的 RoCE v2 条目在另一块网卡 veth9 上（两块网卡配了同一个地址）: 也不算
    rm -rf "${FAKE:?}"/*
    fx_rxe_small rxe0 veth9 0a14:0001
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr 10.20.0.1
    [[ $output == *"[失败] 10.20.0.1 在网卡 eth0 上，但没有哪个 RDMA 设备的 GID 表里有它"* ]]
    [[ $output == *"不符合条件: rxe0 端口1 索引 1（RoCE v2，网卡 veth9）"* ]]
}

@test "diagnose --cm-addr: 本机没有的地址 → EADDRNOTAVAIL 不是 ENODEV；0.0.0.0 / 127.0.0.1 → 不选设备" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr 10.99.0.77
    cm_section
    [ "$status" -eq 1 ]
    [[ $output == *"[失败] 本机没有哪块网卡有地址 10.99.0.77: rdma_bind_addr(10.99.0.77) 会失败，errno 99 (EADDRNOTAVAIL, Cannot assign requested address)，不是 ENODEV"* ]]
    [[ $output != *"ENODEV, No such device"* ]]
    for a in 0.0.0.0 127.0.0.1; do
        PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr "$a"
        [[ $output == *"[通过] $a 是通配/回环地址: rdma_bind_addr 成功但不选 RDMA 设备（id->verbs 为 NULL，实测）"* ]]
        [[ $(cm_section) != *"[失败]"* ]]
    done
}

@test "diagnose --cm-addr: 用法 —— --help 里有；不是 IPv4 返回 2；--cm-addr=IP 也行；不带就没有第 8 节" {
    run "$DG" --help
    [ "$status" -eq 0 ]
    [[ $output == *"--cm-addr IP"* ]]
    run "$DG" --cm-addr
    [ "$status" -eq 2 ]
    run "$DG" --cm-addr 10.1.2
    [ "$status" -eq 2 ]
    [[ $output == *"--cm-addr 需要点分十进制的 IPv4 地址: '10.1.2'"* ]]
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --cm-addr=192.168.56.101
    [[ $output == *"[通过] rdma_bind_addr(192.168.56.101) 会选 rxe0"* ]]
    PATH=$BIN:$PATH run "$DG" --port 1
    [[ $output != *"== 8."* ]]
}

@test "diagnose --peer: 出口网卡上没有带源地址的 GID → 说明 librdmacm 会在这里报 ENODEV (ADDR_ERROR status -19)" {
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [[ $output == *"librdmacm（rping、--cm 模式）在这里报 ENODEV: rdma_resolve_addr 之后 RDMA_CM_EVENT_ADDR_ERROR status -19；带源地址时 rdma_resolve_addr/rdma_bind_addr(10.20.0.1) 直接返回 ENODEV（详见 --cm-addr 10.20.0.1）"* ]]
    # 出口网卡上有设备，但没有源地址的 GID（只有 fe80）: 也有这句
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    [[ $output == *"[失败] rxe1 端口1 建在网卡 eth0 上，但没有地址为 10.20.0.1 的 RoCE v2 GID"* ]]
    [[ $output == *"在这里报 ENODEV: rdma_resolve_addr 之后 RDMA_CM_EVENT_ADDR_ERROR status -19"* ]]
    # 设备在出口网卡上、GID 也对: 没有这句
    add_gid rxe1 1 1 0000:0000:0000:0000:0000:ffff:0a14:0001 "RoCE v2" eth0
    PATH=$BIN:$PATH run "$DG" --port 1 --peer 10.20.0.2
    [[ $output != *"在这里报 ENODEV"* ]]
}

# ===================== 每一句判定都有断言（tests/unit/check-verdicts.py 列出判定行，逐句找断言）=====================

@test "diagnose 判定: PATH 里什么都没有（只有 bash、cat）→ 工具的警告、要 ip 的几项跳过或失败、两节防火墙都跳过；rxe 的用户态驱动不在 → 失败" {
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    rm "$BIN/ip" "$BIN/ping"
    ln -s "$BASH" "$BIN/bash"
    ln -s "$(command -v cat)" "$BIN/cat"
    mkdir -p "$BATS_TEST_TMPDIR/no-ibv"
    PATH=$BIN FW_SBIN_DIRS='' LIBIBVERBS_ROOT=$BATS_TEST_TMPDIR/no-ibv run "$BASH" "$DG" --port 1 --peer 10.20.0.2 --cm-addr 10.20.0.1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[警告] 找不到工具 ibv_devices（诊断可以继续，但建议安装以便手动验证）"* ]]
    [[ $output == *"[警告] 找不到工具 ibv_devinfo（诊断可以继续，但建议安装以便手动验证）"* ]]
    [[ $output == *"[警告] 找不到工具 rdma（用来创建/删除 rxe 设备）"* ]]
    [[ $output == *"[警告] 找不到工具 ip，无法检查网卡地址"* ]]
    [[ $output == *"[失败] 缺少 libibverbs 的 rxe 用户态驱动（ibv_get_device_list 会找不到 rxe 设备）"$'\n'"       证据: librxe-rdmav*.so 不存在, /etc/libibverbs.d/rxe.driver 不存在"* ]]
    [[ $output == *"[跳过] 没有 ip 命令，无法检查网卡 eth0 的 IPv4 地址"* ]]
    [[ $output == *"[跳过] 没有 nft/iptables/ufw，跳过防火墙检查（没有主机防火墙工具，通常也就没有规则）"* ]]
    [[ $output == *"[失败] 没有 ip 命令，无法查询去往 10.20.0.2 的路由"* ]]
    [[ $output == *"[跳过] RDMA 设备、ping、邻居 (ARP)、路径 MTU: 先解决上面的路由问题"* ]]
    [[ $output == *"[跳过] 没有 nft/iptables/ufw/firewall-cmd，跳过防火墙检查"* ]]
    [[ $output == *"[跳过] 没有 ip 命令，查不到 10.20.0.1 在哪块网卡上"* ]]
}

@test "diagnose 判定: 工具都在 → 通过；端口的各项 —— 网卡没有 IPv4 地址、GID 的 IPv4 不是网卡现在的地址、active_mtu 和网卡 MTU 对不上、读不到网卡 MTU、不知道网卡、GID 表是空的、设备没有端口；指定的设备存在、没有 active_mtu 时按网卡 MTU 推算" {
    fx_client_net
    # 假的 ibv_devices、rdma（rdma link show 什么也不答：网卡只从 GID 表知道）、ibv_devinfo（回答在 $FAKE_IP/devinfo）
    printf '#!/bin/sh\nexit 0\n' >"$BIN/ibv_devices"
    printf '#!/bin/sh\nexit 0\n' >"$BIN/rdma"
    # shellcheck disable=SC2016  # $FAKE_IP 由假命令自己展开
    printf '#!/bin/sh\ncat "$FAKE_IP/devinfo"\n' >"$BIN/ibv_devinfo"
    chmod +x "$BIN/ibv_devices" "$BIN/rdma" "$BIN/ibv_devinfo"
    local ibv=$BATS_TEST_TMPDIR/ibv
    mkdir -p "$ibv/usr/lib/x86_64-linux-gnu/libibverbs" "$ibv/etc/libibverbs.d"
    : >"$ibv/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so"
    : >"$ibv/etc/libibverbs.d/rxe.driver"
    # rxe0 在 eth0 上: GID 里是 10.20.0.9，eth0 现在是 10.20.0.1；ibv_devinfo 说 active_mtu 4096，eth0 的 MTU 1500 只够 1024
    fx_rxe_small rxe0 eth0 0a14:0009
    printf '%s\n' "hca_id:	rxe0" "	port:	1" "		active_mtu:		4096 (5)" >"$FAKE_IP/devinfo"
    # rxe1 只有空槽位（不知道网卡、GID 表是空的）；rxe2 没有端口；rxe3 在 veth9 上，veth9 没有 mtu 文件
    mk_port rxe1 1
    add_empty rxe1 1 0 4
    mkdir -p "$FAKE/rxe2"
    fx_rxe_small rxe3 veth9 c0a8:3865
    rm "$NET_SYSFS_ROOT/veth9/mtu"
    # rxe4 也在 eth0 上，ibv_devinfo 的 active_mtu 1024 和推算的一样；rxe5 在没有 IPv4 地址的 eth1 上
    fx_rxe_small rxe4 eth0 0a14:0001
    fx_rxe_small rxe5 eth1 0a15:0001
    fake_netdev eth1 1500
    printf '%s\n' "hca_id:	rxe4" "	port:	1" "		active_mtu:		1024 (3)" >>"$FAKE_IP/devinfo"
    PATH=$BIN:$PATH LIBIBVERBS_ROOT=$ibv run "$DG" --port 1
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[通过] 工具 ibv_devices: $BIN/ibv_devices"$'\n'"[通过] 工具 ibv_devinfo: $BIN/ibv_devinfo"$'\n'"[通过] 工具 rdma: $BIN/rdma"* ]]
    [[ $output == *"[通过] libibverbs 的 rxe 用户态驱动: $ibv/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so"* ]]
    [[ $output == *"[警告] GID 里的 IPv4 (10.20.0.9) 不是网卡 eth0 当前的地址 (10.20.0.1/24)"$'\n'"       修复: sudo rdma link delete rxe0 && sudo rdma link add rxe0 type rxe netdev eth0"* ]]
    [[ $output == *"[警告] active_mtu 4096 与按网卡 MTU 推算的 1024 不一致"* ]]
    [[ $output == *"[通过] active_mtu 1024（网卡 eth0 MTU 1500 − 80 字节头部 = 1420 → 不超过它的最大 IB MTU 是 1024）"* ]]
    [[ $output == *"[失败] 不知道 rxe1 端口1 绑定的网卡，无法检查 IPv4 地址"* ]]
    [[ $output == *"[失败] 网卡 eth1 没有 IPv4 地址（RoCE v2 的 IPv4 GID 来自网卡地址）"$'\n'"       证据: 'ip -4 -o addr show dev eth1' 没有输出"* ]]
    [[ $output == *"[失败] rxe1 端口1 的 GID 表是空的（共 0 个有效条目）"* ]]
    [[ $output == *"[失败] 设备 rxe2 没有端口 ($FAKE/rxe2/ports 为空)"* ]]
    [[ $output == *"[跳过] 读不到网卡 veth9 的 MTU ($NET_SYSFS_ROOT/veth9/mtu)"* ]]
    # 只查 rxe0；ibv_devinfo 没给出 active_mtu → 按网卡 MTU 推算
    : >"$FAKE_IP/devinfo"
    PATH=$BIN:$PATH LIBIBVERBS_ROOT=$ibv run "$DG" --port 1 rxe0
    [[ $output == *"[通过] RDMA 设备 rxe0 存在 ($FAKE/rxe0)"* ]]
    [[ $output == *"[通过] 网卡 eth0 MTU 1500（网卡 eth0 MTU 1500 − 80 字节头部 = 1420 → 不超过它的最大 IB MTU 是 1024；ibv_devinfo 不可用或没给出 active_mtu，这是推算值）"* ]]
    [[ $output != *"rxe1"* ]]
}

# 伪造的防火墙工具: 回答来自 $FAKE_FW 目录里的文件（nft、iptables_INPUT、iptables_OUTPUT、iptables_V、ufw、firewalld）
fake_fw_tools() {
    export FAKE_FW=$BATS_TEST_TMPDIR/fw
    mkdir -p "$FAKE_FW"
    cat >"$BIN/nft" <<'F'
#!/usr/bin/env bash
cat "$FAKE_FW/nft" 2>/dev/null
F
    cat >"$BIN/iptables" <<'F'
#!/usr/bin/env bash
case $* in
    -V) cat "$FAKE_FW/iptables_V" ;;
    "-S INPUT" | "-S OUTPUT") cat "$FAKE_FW/iptables_$2" ;;
esac
F
    cat >"$BIN/ufw" <<'F'
#!/usr/bin/env bash
if [[ $* == status ]]; then head -n 1 "$FAKE_FW/ufw"; else cat "$FAKE_FW/ufw"; fi
F
    cat >"$BIN/firewall-cmd" <<'F'
#!/usr/bin/env bash
[[ -f $FAKE_FW/firewalld ]] || { [[ $1 == --state ]] && echo "not running"; exit 252; }
case $1 in
    --state) echo running ;;
    --list-all) cat "$FAKE_FW/firewalld" ;;
esac
F
    chmod +x "$BIN/nft" "$BIN/iptables" "$BIN/ufw" "$BIN/firewall-cmd"
    echo "iptables v1.8.9 (legacy)" >"$FAKE_FW/iptables_V"
    printf '%s\n' "-P INPUT ACCEPT" >"$FAKE_FW/iptables_INPUT"
    printf '%s\n' "-P OUTPUT ACCEPT" >"$FAKE_FW/iptables_OUTPUT"
    echo "Status: inactive" >"$FAKE_FW/ufw"
}

# ufw status verbose 的样子: fake_ufw "Default: 那一行的内容" 规则行…
fake_ufw() {
    printf '%s\n' "Status: active" "Logging: on (low)" "Default: $1" "New profiles: skip" "" \
        "To                         Action      From" "--                         ------      ----" >"$FAKE_FW/ufw"
    shift
    if (($# > 0)); then printf '%s\n' "$@" >>"$FAKE_FW/ufw"; fi
}

@test "diagnose --peer 判定: 两个方向的防火墙 —— nft/iptables/ufw/firewalld 各自的通过、警告、失败；照第一次的修复（插在最前面的放行）做了以后是通过" {
    [ "$EUID" -eq 0 ] || skip "防火墙检查只在 root 下进行"
    fx_client_net
    fx_rxe_small rxe1 eth0 0a14:0001
    fake_fw_tools
    # 1. 规则本身管事（ufw 没启用、firewalld 没运行）: nft 的 output 链 policy drop；iptables（legacy）INPUT 丢弃 4791、OUTPUT 默认 DROP
    printf 'table inet filter {\n\tchain output {\n\t\ttype filter hook output priority filter; policy drop;\n\t}\n}\n' >"$FAKE_FW/nft"
    printf '%s\n' "-P INPUT ACCEPT" "-A INPUT -p udp -m udp --dport 4791 -j DROP" >"$FAKE_FW/iptables_INPUT"
    printf '%s\n' "-P OUTPUT DROP" "-A OUTPUT -o lo -j ACCEPT" >"$FAKE_FW/iptables_OUTPUT"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"[通过] nft 规则没有拦截 UDP 4791"* ]]
    [[ $output == *"[失败] iptables INPUT 链丢弃/拒绝了 UDP 4791"$'\n'"       证据: -A INPUT -p udp -m udp --dport 4791 -j DROP"$'\n'"       修复: sudo iptables -I INPUT -p udp --dport 4791 -j ACCEPT"* ]]
    [[ $output == *"[通过] ufw 未启用"* ]]
    [[ $(peer_section) == *"[警告] nft 的 output 链 (inet filter output) 默认策略是 drop，且没有放行发往 UDP 4791 的规则"$'\n'"       修复: sudo nft insert rule inet filter output udp dport 4791 accept"* ]]
    [[ $(peer_section) == *"[警告] iptables OUTPUT 默认策略是 DROP，且没有放行发往 UDP 4791 的规则"$'\n'"       修复: sudo iptables -I OUTPUT -p udp --dport 4791 -j ACCEPT"* ]]
    [[ $(peer_section) == *"[通过] firewalld 没有运行"* ]]
    # 2. 照上面的修复做了: iptables -I 和 nft insert 把放行插在链的最前面，原来的丢弃规则还在 —— 先放行，报文过得去
    printf 'table inet filter {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n\t\tudp dport 4791 accept\n\t\tudp dport 4791 drop\n\t}\n\tchain output {\n\t\ttype filter hook output priority filter; policy drop;\n\t\tudp dport 4791 accept\n\t}\n}\n' >"$FAKE_FW/nft"
    printf '%s\n' "-P INPUT ACCEPT" "-A INPUT -p udp -m udp --dport 4791 -j ACCEPT" "-A INPUT -p udp -m udp --dport 4791 -j DROP" >"$FAKE_FW/iptables_INPUT"
    printf '%s\n' "-P OUTPUT DROP" "-A OUTPUT -p udp -m udp --dport 4791 -j ACCEPT" "-A OUTPUT -p udp -m udp --dport 4791 -j DROP" >"$FAKE_FW/iptables_OUTPUT"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    echo "$output"
    [[ $output == *"[通过] nft 规则没有拦截 UDP 4791"* ]]
    [[ $output == *"[通过] iptables INPUT 链没有拦截 UDP 4791"* ]]
    [[ $(peer_section) == *"[通过] nft 出方向没有拦截 UDP 4791"* ]]
    [[ $(peer_section) == *"[通过] iptables OUTPUT 链没有拦截 UDP 4791"* ]]
    [[ $output != *"[失败] nft"* && $output != *"[失败] iptables"* ]]
    # 放行在另一张表的链里不算：每个 base chain 都要过一遍，丢弃照样生效
    printf 'table inet a {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n\t\tudp dport 4791 accept\n\t}\n}\ntable inet filter {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n\t\tudp dport 4791 drop\n\t}\n}\n' >"$FAKE_FW/nft"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    [[ $output == *"[失败] nft 规则丢弃/拒绝了 UDP 4791"*"修复: sudo nft insert rule inet filter input udp dport 4791 accept"* ]]
    [[ $(peer_section) == *"nft 丢弃 UDP 4791 的规则已在第 6 节报告"* ]]
    # 3. ufw 启用（由它管）: 默认放行，但有拦截 4791 的规则，进、出两个方向
    fake_ufw "allow (incoming), allow (outgoing), disabled (routed)" \
        "4791/udp                   DENY IN     Anywhere" "4791/udp                   DENY OUT    Anywhere"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    echo "$output"
    [[ $output == *"[失败] ufw 的规则拦截了 UDP 4791"$'\n'"       证据: 4791/udp                   DENY IN     Anywhere"$'\n'"       修复: sudo ufw insert 1 allow 4791/udp"* ]]
    [[ $(peer_section) == *"[失败] ufw 的规则拦截了发往 UDP 4791 的报文（出方向）"$'\n'"       证据: 4791/udp                   DENY OUT    Anywhere"$'\n'"       修复: sudo ufw allow out 4791/udp"* ]]
    # ufw 管事: nft/iptables 的规则不单独判断
    [[ $output != *"] iptables"* && $output != *"] nft"* ]]
    # 照修复做了（ufw insert 1 allow 4791/udp 排在拦截的前面）→ 通过；出方向默认拒绝、没放行 4791 → 警告
    fake_ufw "deny (incoming), deny (outgoing), disabled (routed)" \
        "4791/udp                   ALLOW IN    Anywhere" "4791/udp                   DENY IN     Anywhere"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    echo "$output"
    [[ $output == *"[通过] ufw 已启用，并放行了 UDP 4791"* ]]
    [[ $(peer_section) == *"[警告] ufw 出方向默认拒绝，且没有放行发往 UDP 4791 的规则"$'\n'"       修复: sudo ufw allow out 4791/udp"* ]]
    # 默认放行进来的、也放行出去的，没有进来的规则、出去的拦截前面有放行 → 两个方向都通过
    fake_ufw "allow (incoming), allow (outgoing), disabled (routed)" \
        "4791/udp                   ALLOW OUT   Anywhere" "4791/udp                   DENY OUT    Anywhere"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    [[ $output == *"[通过] ufw 已启用，默认放行进来的报文"* ]]
    [[ $(peer_section) == *"[通过] ufw 出方向没有拦截 UDP 4791"* ]]
    # 4. firewalld 在运行（由它管）: rich rule 拒绝 4791 → 失败，修复先删掉这条 rich rule；出方向 firewalld 默认放行
    echo "Status: inactive" >"$FAKE_FW/ufw"
    printf '%s\n' "public (active)" "  target: default" "  ports: 18515/tcp" "  rich rules: " \
        '	rule family="ipv4" port port="4791" protocol="udp" reject' >"$FAKE_FW/firewalld"
    PATH=$BIN:$PATH FW_SBIN_DIRS=$BIN run "$DG" --port 1 --peer 10.20.0.2
    echo "$output"
    [[ $output == *"[失败] firewalld（区域 public）的规则丢弃/拒绝了 UDP 4791"$'\n'"       证据: rule family=\"ipv4\" port port=\"4791\" protocol=\"udp\" reject"$'\n'"       修复: sudo firewall-cmd --remove-rich-rule='rule family=\"ipv4\" port port=\"4791\" protocol=\"udp\" reject' && sudo firewall-cmd --add-port=4791/udp"* ]]
    [[ $(peer_section) == *"[通过] firewalld 默认放行发出去的报文（出方向不查；入方向见第 6 节）"* ]]
}

@test "diagnose --peer 判定: 出口网卡上的设备端口不是 ACTIVE、不知道 active_mtu → 失败、跳过；没有 ping → 跳过连通性和路径 MTU；邻居表里没有 → 跳过" {
    fx_client_net
    mk_port rxe1 1 "1: DOWN" "3: Disabled"
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    add_gid rxe1 1 1 0000:0000:0000:0000:0000:ffff:0a14:0001 "RoCE v2" eth0
    rm "$NET_SYSFS_ROOT/eth0/mtu"
    PATH=$BIN:$PATH FW_SBIN_DIRS='' run "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [ "$status" -eq 1 ]
    [[ $(peer_section) == *"[失败] rxe1 端口1 在网卡 eth0 上，但端口不是 ACTIVE（状态 1: DOWN）"$'\n'"       修复: sudo ip link set eth0 up"* ]]
    [[ $output == *"[跳过] 不知道 active_mtu（没有 ibv_devinfo，也读不到网卡 eth0 的 MTU），跳过路径 MTU 检查"* ]]
    # 端口好了、MTU 在，但 PATH 里没有 ping（也没有 busybox），邻居表里也没有对端
    echo "4: ACTIVE" >"$FAKE/rxe1/ports/1/state"
    echo 1500 >"$NET_SYSFS_ROOT/eth0/mtu"
    rm "$BIN/ping" "$FAKE_IP/neigh_10.20.0.2"
    ln -s "$BASH" "$BIN/bash"
    ln -s "$(command -v cat)" "$BIN/cat"
    PATH=$BIN FW_SBIN_DIRS='' run "$BASH" "$DG" --port 1 --peer 10.20.0.2
    peer_section
    [[ $output == *"[通过] 没有建在别的网卡上的 RDMA 设备（不会误用不通往 10.20.0.2 的设备）"* ]]
    [[ $output == *"[跳过] 没有 ping 命令，跳过连通性检查"$'\n'"       修复: sudo apt-get install iputils-ping"* ]]
    [[ $output == *"[跳过] 邻居表里没有 10.20.0.2（网卡 eth0）的表项"$'\n'* ]]
    [[ $output == *"[跳过] 没有 ping，跳过路径 MTU 检查；手动: ping -M do -s 1060 -c 1 10.20.0.2"* ]]
}

@test "show_gids 判定: 端口不存在、设备没有端口目录、--peer 时没有 ip 命令、找不到 scripts/gid_rule.sh" {
    fx_rxe_small rxe0 lo 7f00:0001
    mkdir -p "$FAKE/rxe2"
    run --separate-stderr "$SG" rxe0 5
    [ "$status" -eq 1 ]
    [ "$stderr" = "错误: 设备 rxe0 没有端口 5。现有端口: 1" ]
    run --separate-stderr "$SG" rxe2
    [ "$stderr" = "警告: 所选设备没有任何端口目录 (ports/*)" ]
    local bin=$BATS_TEST_TMPDIR/bin
    mkdir -p "$bin"
    ln -s "$BASH" "$bin/bash"
    PATH=$bin run "$BASH" "$SG" --peer 10.20.0.2
    [ "$status" -eq 0 ]
    [ "${lines[-2]}" = "通往 10.20.0.2: 无法判断（没有 ip 命令，装 iproute2）" ]
    mkdir -p "$BATS_TEST_TMPDIR/alone"
    cp "$SG" "$BATS_TEST_TMPDIR/alone/"
    run "$BATS_TEST_TMPDIR/alone/show_gids.sh"
    [ "$status" -eq 1 ]
    [ "$output" = "错误: 找不到 $BATS_TEST_TMPDIR/alone/scripts/gid_rule.sh（show_gids.sh 要和项目的 scripts/ 目录放在一起运行）" ]
}

@test "判定都有断言: diagnose.sh 的每个 pass/warn/fail/skip、show_gids.sh 的每句 错误/警告/注意/自动选择/通往 都有测试断言（tests/unit/check-verdicts.py）；删掉一条断言、或者把它改成 != 就失败" {
    run python3 "$REPO/tests/unit/check-verdicts.py"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ ${lines[0]} =~ ^#\ 判定行:\ diagnose.sh\ [0-9]+\ 个，show_gids.sh\ [0-9]+\ 个；没有断言的\ 0\ 个$ ]]
    # 反证（在副本里）: 去掉断言这一句的行；判定词拆开写，免得这一行自己被当成断言
    local w='[失''败]' msg='iptables INPUT 链丢弃/拒绝了 UDP 4791' copy=$BATS_TEST_TMPDIR/scripts.bats
    grep -vF "$w $msg" "$REPO/tests/unit/scripts.bats" >"$copy"
    run python3 "$REPO/tests/unit/check-verdicts.py" "$copy" "$REPO/tests/unit/scripts-i18n.bats" "$REPO/tests/lab/scripts.bats"
    echo "$output"
    [ "$status" -eq 1 ]
    [[ $output == *"没有测试断言: diagnose.sh:"*" $w iptables INPUT 链丢弃/拒绝了 UDP \$ROCE_UDP_PORT"* ]]
    [ "$(grep -c '^没有测试断言: ' <<<"$output")" -eq 1 ]
    # 否定的断言（!=）不算
    local text
    text=$(<"$REPO/tests/unit/scripts.bats")
    printf '%s\n' "${text//"\$output == *\"$w $msg"/"\$output != *\"$w $msg"}" >"$copy"
    run -1 cmp -s "$copy" "$REPO/tests/unit/scripts.bats"
    run python3 "$REPO/tests/unit/check-verdicts.py" "$copy" "$REPO/tests/unit/scripts-i18n.bats" "$REPO/tests/lab/scripts.bats"
    [ "$status" -eq 1 ]
    [[ $output == *"没有测试断言: diagnose.sh:"*" $w iptables INPUT"* ]]
}

# ===================== 英文界面（--lang en；详细的在 tests/unit/scripts-i18n.bats）=====================

@test "i18n: --lang en 是英文、没有一个汉字（通过和失败的场景）；--lang zh 和默认逐字节相同；--lang fr 退出 2；po/sh/en.po 齐全" {
    make -s -C "$REPO" locale >&2
    local cjk='[\x{3000}-\x{303f}\x{3400}-\x{9fff}\x{ff00}-\x{ffef}]'
    fx_client_net
    fx_rxe_small rxe0 veth9 c0a8:3865
    PATH=$BIN:$PATH run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$DG" --port 1 --peer 10.20.0.2 --lang en
    [ "$status" -eq 1 ]
    [[ $output == *"[PASS] found RDMA devices: rxe0"* ]]
    [[ $output == *"[FAIL] no RDMA device on netdev eth0: "* ]]
    [[ $output == *"       fix: sudo rdma link add rxe1 type rxe netdev eth0"* ]]
    [[ ${lines[-1]} == "Result: problems found: "* ]]
    run -1 env LC_ALL=C.UTF-8 grep -P "$cjk" <<<"$output"
    PATH=$BIN:$PATH run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$SG" --peer 10.20.0.2 --lang en
    [ "$status" -eq 0 ]
    [[ $output == *"<== auto-selected"* ]]
    [[ $output == *"to 10.20.0.2: no matching entry"* ]]
    run -1 env LC_ALL=C.UTF-8 grep -P "$cjk" <<<"$output"
    # --lang zh 盖过 LANG=en_US.UTF-8，和默认的输出逐字节相同
    PATH=$BIN:$PATH run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$DG" --port 1 --peer 10.20.0.2
    local zh=$output
    PATH=$BIN:$PATH run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=en_US.UTF-8 "$DG" --port 1 --peer 10.20.0.2 --lang zh
    [ "$output" = "$zh" ]
    [[ $output == *"[失败] 没有建在网卡 eth0 上的 RDMA 设备"* ]]
    run "$DG" --lang fr
    [ "$status" -eq 2 ]
    run "$SG" --lang
    [ "$status" -eq 2 ]
    run "$REPO/po/sh/extract" --check
    echo "$output"
    [ "$status" -eq 0 ]
}

# tools/bench/cgfuncs.py：本项目的 --bench lat 有预热（iters/10+1 次），每次迭代要按 lat_once 的调用次数算（300/600 轮是
# 331/661 次，差 330），不按 N2-N1=300（那样每个数高 10 %）。两个最小的 callgrind 文件：lat_once 每次 100 条
@test "cgfuncs: 每次迭代按 lat_once 的调用次数算（含预热），不按轮数之差" {
    local n
    for n in 331 661; do
        printf '%s\n' '# callgrind format' 'version: 1' 'positions: instr line' 'events: Ir' \
            'ob=(1) /x/rdma_client' 'fl=(1) ???' 'fn=(1) bench_size' '0x10 0 5' 'cfn=(2) lat_once' \
            "calls=$n 0x100 0" "0x11 0 $((n * 100))" 'fn=(2)' "0x100 0 $((n * 100))" \
            >"$BATS_TEST_TMPDIR/ours-send-$((n == 331 ? 300 : 600)).cg"
    done
    run python3 "$REPO/tools/bench/cgfuncs.py" "$BATS_TEST_TMPDIR/ours-send-300.cg" "$BATS_TEST_TMPDIR/ours-send-600.cg"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"迭代数之差 330"* ]]
    [[ $output == *"100.0 Ir/iter     1.00 calls/iter  lat_once"* ]]
}

# 现在一次迭代全部内联在 lat_steps 里，没有每次迭代调用一次的函数：迭代数 = lat_steps 调用 librxe 的 post_send 的次数
# （每次迭代正好投递一个 WR）。lat_steps 预热和计时各调用一次，每次迭代自己 90 条、post_send 179 条
@test "cgfuncs: 循环内联在 lat_steps 里时，每次迭代按它调用 librxe post_send 的次数算" {
    local n
    for n in 331 661; do
        printf '%s\n' '# callgrind format' 'version: 1' 'positions: instr line' 'events: Ir' \
            'ob=(1) /x/rdma_client' 'fl=(1) ???' 'fn=(1) lat_loop' '0x10 0 5' 'cfn=(2) lat_steps' \
            'calls=2 0x100 0' "0x11 0 $((n * 269))" 'fn=(2)' "0x100 0 $((n * 90))" \
            'cob=(2) /x/librxe-rdmav34.so' 'cfn=(3) 0x0000000000003cc0' "calls=$n 0x3cc0 0" "0x101 0 $((n * 179))" \
            'ob=(2)' 'fn=(3)' "0x3cc0 0 $((n * 179))" \
            >"$BATS_TEST_TMPDIR/ours-write-$((n == 331 ? 300 : 600)).cg"
    done
    run python3 "$REPO/tools/bench/cgfuncs.py" "$BATS_TEST_TMPDIR/ours-write-300.cg" "$BATS_TEST_TMPDIR/ours-write-600.cg"
    echo "$output"
    [ "$status" -eq 0 ]
    [[ $output == *"迭代数之差 330"* ]]
    [[ $output == *"179.0 Ir/iter     1.00 calls/iter  librxe:post_send"* ]]
    [[ $output == *"90.0 Ir/iter     0.00 calls/iter  lat_steps"* ]]
}

# tools/bench/inline.bash（ir.sh、compare.sh 用）：两边的 inline 设置从各自的表头读——本项目 “--inline N”（中英文都认），
# perftest 自己的 “Max inline data : N[B]”；这个大小 inline 没有（≤ 上限）；读不到的写 ?，不猜
@test "inline.bash: both sides' inline setting read from their own headers (ours --inline, perftest Max inline data)" {
    local o=$BATS_TEST_TMPDIR/o.log oe=$BATS_TEST_TMPDIR/oe.log p=$BATS_TEST_TMPDIR/p.log
    printf '旋钮: --signal 1（每个 SEND/WRITE 都等自己的完成）--inline 0（消息 ≤ --inline 时用 IBV_SEND_INLINE；驱动给的 max_inline_data=64）\n' >"$o"
    printf 'Tune: --signal 1 (x) --inline 64 (messages ≤ --inline use IBV_SEND_INLINE; the driver'"'"'s max_inline_data=64)\n' >"$oe"
    printf ' Max inline data : 220[B]\n' >"$p"
    # shellcheck source=tools/bench/inline.bash
    source "$REPO/tools/bench/inline.bash"
    run inline_note "$o" "$p" write_lat 2
    [ "$output" = "INLINE test=write_lat size=2 ours_inline=0 ours_inlined=no perftest_max_inline=220 perftest_inlined=yes" ]
    run inline_note "$oe" "$p" write_lat 256
    [ "$output" = "INLINE test=write_lat size=256 ours_inline=64 ours_inlined=no perftest_max_inline=220 perftest_inlined=no" ]
    run inline_note "$oe" "$BATS_TEST_TMPDIR/none.log" send_lat 64
    [ "$output" = "INLINE test=send_lat size=64 ours_inline=64 ours_inlined=yes perftest_max_inline=? perftest_inlined=?" ]
}
