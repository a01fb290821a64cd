#!/usr/bin/env bash
# diagnose.sh —— RoCEv2 (Soft-RoCE / rxe) 环境诊断
#
# 逐项检查，每项打印 [通过] / [失败] / [警告] / [跳过]、证据，
# 失败时给出可以直接复制执行的修复命令；最后汇总。
# 诊断本身不需要 root（读取防火墙规则除外，非 root 时跳过该项并说明）。
#
# 退出码: 0 没有失败项（允许有警告）; 1 发现问题; 2 用法错误
#
# 界面语言: 默认中文；--lang en 或 LANG=en_US.UTF-8 等（规则同 C 程序）时英文，[PASS]/[FAIL]/[WARN]/[SKIP]。
# 给人看的句子都写成 bash 的 $"…"，译文在 po/sh/en.po（po/sh/extract 抽取，make locale 编译），
# 做法见下面“界面语言”一段。加句子时也写成 $"…"，再运行 po/sh/extract 并翻译（tests/unit/scripts-i18n.bats 会查）。
#
# 环境变量 RDMA_SYSFS_ROOT 可以指向伪造的 sysfs 目录（单元测试用），
# 默认 /sys/class/infiniband；NET_SYSFS_ROOT 同理（默认 /sys/class/net），
# RDMA_VERBS_SYSFS_ROOT（默认 /sys/class/infiniband_verbs）、MODULE_SYSFS_ROOT（默认 /sys/module）、
# KERNEL_MODULES_ROOT（默认 /lib/modules）、RDMA_DEV_ROOT（默认 /dev/infiniband）也一样；
# LIBIBVERBS_ROOT 放在 rxe 用户态驱动的路径前面（默认空，即 /usr/lib/…、/etc/libibverbs.d/…）；
# PROC_LIMITS_FILE（默认 /proc/self/limits）让测试假装别的 memlock 限制；
# KERNEL_RELEASE（默认 /proc/sys/kernel/osrelease 的内容）和 OS_RELEASE_FILE（默认 /etc/os-release）
# 让测试假装是别的内核、别的发行版。
# 外部命令（ip、ping、nft……）都经 find_cmd 在 PATH 里找，测试可以在 PATH 前面放假的。
# 不用进程替换 <(...)：实验虚拟机里没有 /dev/fd。
#
# 结构: 每项检查是一个 check_* 函数，main 按节调用它们；解析命令输出的 fw_parse_* /
# parse_neigh 是纯函数（输入文本，输出结论），单元测试可以 source 本脚本直接调用它们
# （source 时不运行 main）。GID 的选择规则在 scripts/gid_rule.sh，与 show_gids.sh 共用。
#
# 不用 set -e: 诊断脚本要在某项命令失败后继续检查其余项目，
# 每个可能失败的命令都显式判断了返回值。
set -uo pipefail

SYSFS_ROOT=${RDMA_SYSFS_ROOT:-/sys/class/infiniband}
NET_SYSFS=${NET_SYSFS_ROOT:-/sys/class/net}
# ib_uverbs 创建的 class 目录: libibverbs 打不开它时 ibv_get_device_list() 报 errno 38 (ENOSYS)
VERBS_SYSFS=${RDMA_VERBS_SYSFS_ROOT:-/sys/class/infiniband_verbs}
MODULE_SYSFS=${MODULE_SYSFS_ROOT:-/sys/module}
KMOD_ROOT=${KERNEL_MODULES_ROOT:-/lib/modules}
OS_RELEASE=${OS_RELEASE_FILE:-/etc/os-release}
# 资源限制（memlock），测试用别的文件假装别的限制
LIMITS_FILE=${PROC_LIMITS_FILE:-/proc/self/limits}
# libibverbs 的 rxe 用户态驱动（/usr/lib/*/libibverbs/librxe-rdmav*.so、/etc/libibverbs.d/rxe.driver）前面加的目录（测试用，默认空）
IBV_ROOT=${LIBIBVERBS_ROOT:-}
# librdmacm 经 $RDMA_DEV/rdma_cm（rdma_ucm 模块创建的字符设备）和内核的 RDMA CM 通信
RDMA_DEV=${RDMA_DEV_ROOT:-/dev/infiniband}
PROG=${0##*/}
TCP_PORT=18515
ROCE_UDP_PORT=4791
PEER_IP=""
CM_ADDR=""
# memlock 至少这么多 KiB 才算通过（64 MiB）；低于 MEMLOCK_FAIL_KB 算失败（1 MiB）
MEMLOCK_MIN_KB=65536
MEMLOCK_FAIL_KB=1024
# README 的例子最多注册这么多 KiB: -q 1 --size 1M 的 MR 是 2 × QP数 × 消息大小 = 2 MiB
# （src/rdma_common.c 的 buf_len）；默认的 -q 4 --size 64 只有 512 字节。软限制不低于它时，memlock 的修复是可选的
MEMLOCK_README_KB=2048
# rxe 从网卡 MTU 里扣掉的头部长度（RXE_MAX_HDR_LENGTH）
RXE_HDR_BYTES=80
# 一个满负载 RoCE v2 报文的 IP 包比 active_mtu 多出的字节:
# IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + ICRC 4（RDMA WRITE First/Only 带立即数时最大）
ROCE_IP_OVERHEAD=64
# ping 的 IP 包比 -s 多出的字节: IPv4 20 + ICMP 8
PING_OVERHEAD=28

# ---------- 共享的 GID 规则（scripts/gid_rule.sh，与 show_gids.sh 同一份）----------
gid_rule_dir() {
    local src=${BASH_SOURCE[0]}
    # 经符号链接调用时找到真正的脚本位置（只在是链接时才 fork readlink）
    if [[ -L $src ]]; then src=$(readlink -f "$src"); fi
    SCRIPT_DIR=.
    if [[ $src == */* ]]; then SCRIPT_DIR=${src%/*}; fi
}
gid_rule_dir
# 界面语言（scripts/ui_lang.sh，几个脚本共用，规则与 C 程序的 src/console/i18n.c 相同）：必须在 source gid_rule.sh 和
# 定义带 $"…" 的函数之前，因为 bash 在解析时就翻译 $"…"；英文时可能把脚本重新 exec 一次（见 scripts/ui_lang.sh）
# shellcheck source=scripts/ui_lang.sh
if [[ -r $SCRIPT_DIR/scripts/ui_lang.sh ]]; then
    source "$SCRIPT_DIR/scripts/ui_lang.sh"
    ui_lang_start "$SCRIPT_DIR" "${BASH_SOURCE[0]}" "$@"
fi
if [[ ! -r $SCRIPT_DIR/scripts/gid_rule.sh ]]; then
    echo $"错误: 找不到 $SCRIPT_DIR/scripts/gid_rule.sh（$PROG 要和项目的 scripts/ 目录放在一起运行）" >&2
    exit 1
fi
# shellcheck source=scripts/gid_rule.sh
source "$SCRIPT_DIR/scripts/gid_rule.sh"

usage() {
    printf '%s\n' $"用法: $PROG [-h|--help] [--lang zh|en] [--port N] [--peer IP] [--cm-addr IP] [设备]

检查 RoCEv2 / Soft-RoCE 环境，给出问题和修复命令。
  设备        只检查这个 RDMA 设备，例如 rxe0（默认检查全部）
  --port N    检查 TCP 端口 N 是否空闲（默认 $TCP_PORT，程序交换连接信息用）
  --peer IP   另外检查通往对端 IPv4 地址 IP 的路径（两台都要运行: 服务端上填客户端的地址，客户端上填服务端的）
  --cm-addr IP  另外检查 librdmacm 能不能用本机地址 IP（rdma_bind_addr / rdma_listen /
              rdma_resolve_addr 的源地址）: 它要在某个 RDMA 设备的 GID 表里，否则 ENODEV
  --lang zh|en  输出用哪种语言（默认看 LANGUAGE、LC_ALL、LC_MESSAGES、LANG: en 开头是英文，其它都是中文）
  -h, --help  显示本帮助

检查项目: 工具、RDMA 设备/内核模块、ib_uverbs（ibv_get_device_list 的 errno 38）、
          librdmacm 的内核接口（rdma_cm / rdma_ucm 模块、$RDMA_DEV/rdma_cm）、
          端口状态、网卡 IPv4 地址、
          RoCE v2 IPv4 GID 及索引 (-g N)、MTU、memlock 限制、TCP 端口、
          UDP $ROCE_UDP_PORT 防火墙（读规则要 root: sudo ./$PROG；普通用户运行时这一项是 [跳过]，不是 [通过]）。
--peer 时另有一节 7. 对端: 路由（出口网卡、源地址）、对端地址是不是本机自己的
          （克隆虚拟机 / VirtualBox NAT 的重复地址）、出口网卡上有没有 ACTIVE 的 RDMA 设备
          和带源地址的 RoCE v2 GID（-d/-g）、建在别的网卡上的 RDMA 设备、ping、
          邻居 (ARP)、路径 MTU（ping -M do）、出方向防火墙和 firewalld。
          单机实验（对端地址是本机另一块网卡的，策略路由让报文走那块网卡）会说明并照常检查。
--cm-addr 时另有一节 8. RDMA CM 地址: 地址在哪块网卡上、哪个 RDMA 设备的 GID 表里有它
          （rdma_bind_addr 选设备的规则），没有时解释 ENODEV / EADDRNOTAVAIL 的由来。
退出码: 0 全部通过（允许警告）; 1 发现问题; 2 用法错误"
}

# --lang 的值: zh 或 en（语言已经在开头按它选好了，这里只检查）
check_lang_arg() {
    [[ $1 == zh || $1 == en ]] || die_usage $"--lang 无效: '$1'（可选 zh、en）"
}

die_usage() {
    echo $"错误: $*" >&2
    echo $"运行 '$PROG --help' 查看用法" >&2
    exit 2
}

# 点分十进制 IPv4，每段 0-255
is_ipv4() {
    local a b c d
    [[ $1 =~ ^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$ ]] || return 1
    a=${BASH_REMATCH[1]} b=${BASH_REMATCH[2]} c=${BASH_REMATCH[3]} d=${BASH_REMATCH[4]}
    ((10#$a <= 255 && 10#$b <= 255 && 10#$c <= 255 && 10#$d <= 255))
}

# ---------- 参数 ----------
parse_args() {
    want_dev=""
    while (($# > 0)); do
        case $1 in
            -h | --help)
                usage
                exit 0
                ;;
            --port)
                (($# >= 2)) || die_usage $"--port 需要一个端口号"
                TCP_PORT=$2
                shift
                ;;
            --port=*) TCP_PORT=${1#--port=} ;;
            --peer)
                (($# >= 2)) || die_usage $"--peer 需要对端的 IPv4 地址"
                PEER_IP=$2
                shift
                ;;
            --peer=*) PEER_IP=${1#--peer=} ;;
            --cm-addr)
                (($# >= 2)) || die_usage $"--cm-addr 需要一个本机的 IPv4 地址"
                CM_ADDR=$2
                shift
                ;;
            --cm-addr=*) CM_ADDR=${1#--cm-addr=} ;;
            --lang)
                (($# >= 2)) || die_usage $"--lang 需要 zh 或 en"
                check_lang_arg "$2"
                shift
                ;;
            --lang=*) check_lang_arg "${1#--lang=}" ;;
            --)
                shift
                if (($# > 0)); then
                    [[ -z $want_dev ]] || die_usage $"只能指定一个设备"
                    want_dev=$1
                    shift
                fi
                (($# == 0)) || die_usage $"参数太多: $*"
                break
                ;;
            -*) die_usage $"未知选项: $1" ;;
            *)
                [[ -z $want_dev ]] || die_usage $"只能指定一个设备（多余的参数: $1）"
                want_dev=$1
                ;;
        esac
        shift
    done
    if ! [[ $TCP_PORT =~ ^[1-9][0-9]{0,4}$ ]] || ((TCP_PORT > 65535)); then
        die_usage $"端口号必须是 1-65535 之间的整数: '$TCP_PORT'"
    fi
    if [[ $want_dev == */* || $want_dev == . || $want_dev == .. ]]; then
        die_usage $"设备名不合法: '$want_dev'"
    fi
    if [[ -n $PEER_IP ]] && ! is_ipv4 "$PEER_IP"; then
        die_usage $"--peer 需要点分十进制的 IPv4 地址（主机名请先用 getent hosts 解析）: '$PEER_IP'"
    fi
    if [[ -n $CM_ADDR ]] && ! is_ipv4 "$CM_ADDR"; then
        die_usage $"--cm-addr 需要点分十进制的 IPv4 地址: '$CM_ADDR'"
    fi
}

# ---------- 输出与计数 ----------
N_PASS=0
N_FAIL=0
N_WARN=0
N_SKIP=0
FIXES=()
OPTFIXES=()

pass() {
    N_PASS=$((N_PASS + 1))
    echo $"[通过]" "$*"
}
fail() {
    N_FAIL=$((N_FAIL + 1))
    echo $"[失败]" "$*"
}
warn() {
    N_WARN=$((N_WARN + 1))
    echo $"[警告]" "$*"
}
skip() {
    N_SKIP=$((N_SKIP + 1))
    echo $"[跳过]" "$*"
}
# 缩进的说明行（证据 / 原因）
note() {
    echo "       $*"
}
# 修复命令: 打印并记入汇总（相同命令只记一次）
fix() {
    local f
    echo "      " $"修复:" "$*"
    for f in "${FIXES[@]}"; do
        [[ $f == "$*" ]] && return 0
    done
    FIXES+=("$*")
}
# 可选的修复: 打印并记入汇总里单独的“可选”一栏（不在“按顺序执行”的清单里）
optfix() {
    echo "      " $"可选:" "$*"
    OPTFIXES+=("$*")
}
section() {
    echo
    echo "== $* =="
}

# 在 PATH 里找命令，结果在 CMD_PATH。只用内建命令：实验虚拟机 (TCG) 里每次 fork/exec 都很贵
find_cmd() {
    local d
    local -a dirs=()
    CMD_PATH=""
    IFS=: read -ra dirs <<<"$PATH"
    for d in "${dirs[@]}"; do
        if [[ -n $d && -x $d/$1 && ! -d $d/$1 ]]; then
            CMD_PATH=$d/$1
            return 0
        fi
    done
    return 1
}
have() {
    find_cmd "$1"
}

# 读文件第一行到 LINE；失败时为空（只用内建命令）
read_line() {
    LINE=""
    { read -r LINE <"$1"; } 2>/dev/null || true
}

# ---------- GID 自动选择（规则在 scripts/gid_rule.sh，与 C 程序、show_gids.sh 一致）----------
# 结果放在 CH_* 变量里，CH_IDX=-1 表示没有非空条目。
choose_gid() {
    local k
    gr_scan_port "$1"
    CH_IDX=-1 CH_SCORE=-1 CH_GID="" CH_TYPE="" CH_IPV4="" CH_NDEV="" CH_NONEMPTY=${#GT_IDX[@]}
    CH_FIRST_NDEV=""
    for k in "${!GT_NDEV[@]}"; do
        if [[ -n ${GT_NDEV[k]} ]]; then
            CH_FIRST_NDEV=${GT_NDEV[k]}
            break
        fi
    done
    if ((GT_BEST >= 0)); then
        k=$GT_BEST
        CH_IDX=${GT_IDX[k]} CH_SCORE=${GT_SCORE[k]} CH_GID=${GT_GID[k]} CH_TYPE=${GT_TYPE[k]}
        CH_IPV4=${GT_IPV4[k]} CH_NDEV=${GT_NDEV[k]}
    fi
    return 0
}

# ---------- 网卡相关 ----------
# 列出某网卡的 IPv4 地址（CIDR），结果在 NET_V4 数组。
# 第一次调用时运行一次 'ip -4 -o addr show'，之后用缓存
ALL_V4=""
ALL_V4_DONE=""
netdev_ipv4() {
    local ifname=$1 line
    NET_V4=()
    have ip || return 0
    if [[ -z $ALL_V4_DONE ]]; then
        ALL_V4=$("$CMD_PATH" -4 -o addr show 2>/dev/null)
        ALL_V4_DONE=1
    fi
    while read -r line; do
        # 形如 "3: veth0    inet 10.11.0.1/24 scope global veth0\ ..."
        if [[ $line =~ ^[0-9]+:[[:space:]]+([^[:space:]]+)[[:space:]]+inet[[:space:]]+([0-9.]+/[0-9]+) ]] &&
            [[ ${BASH_REMATCH[1]} == "$ifname" ]]; then
            NET_V4+=("${BASH_REMATCH[2]}")
        fi
    done <<<"$ALL_V4"
    return 0
}

# 所有设备/端口的 active_mtu（一次 ibv_devinfo），结果在 DEVINFO_MTU["设备/端口"]
declare -A DEVINFO_MTU=()
DEVINFO_DONE=""
load_devinfo() {
    local line out hca="" port=""
    [[ -z $DEVINFO_DONE ]] || return 0
    DEVINFO_DONE=1
    have ibv_devinfo || return 0
    out=$("$CMD_PATH" 2>/dev/null)
    while read -r line; do
        if [[ $line =~ ^hca_id:[[:space:]]+([^[:space:]]+) ]]; then
            hca=${BASH_REMATCH[1]}
        elif [[ $line =~ ^port:[[:space:]]+([0-9]+) ]]; then
            port=${BASH_REMATCH[1]}
        elif [[ $line =~ ^active_mtu:[[:space:]]+([0-9]+) && -n $hca && -n $port ]]; then
            DEVINFO_MTU[$hca/$port]=${BASH_REMATCH[1]}
        fi
    done <<<"$out"
    return 0
}

# 猜一个可以绑定 rxe 的网卡: 默认路由的网卡，否则第一个 UP、非 lo、有 IPv4 的网卡；
# 已经被某个 RDMA 设备占用的网卡不选。结果在 GUESS_IF（猜不到为 "<网卡名>"）
guess_netdev() {
    local line cand d f out
    local -A bound=()
    GUESS_IF=""
    for d in "$SYSFS_ROOT"/*/ports/*/gid_attrs/ndevs; do
        for f in "$d"/0 "$d"/1; do
            read_line "$f"
            if [[ -n $LINE ]]; then bound[$LINE]=1; fi
        done
    done
    if have rdma; then
        out=$("$CMD_PATH" link show 2>/dev/null)
        while read -r line; do
            if [[ $line =~ netdev[[:space:]]+([^[:space:]]+) ]]; then bound[${BASH_REMATCH[1]}]=1; fi
        done <<<"$out"
    fi
    if have ip; then
        out=$("$CMD_PATH" -4 route show default 2>/dev/null)
        while read -r line; do
            if [[ $line =~ [[:space:]]dev[[:space:]]+([^[:space:]]+) ]]; then
                cand=${BASH_REMATCH[1]}
                if [[ -z ${bound[$cand]:-} ]]; then
                    GUESS_IF=$cand
                    return 0
                fi
            fi
        done <<<"$out"
        out=$("$CMD_PATH" -4 -o addr show up 2>/dev/null)
        while read -r line; do
            # 形如 "2: veth0    inet 10.11.0.1/24 ..."
            if [[ $line =~ ^[0-9]+:[[:space:]]+([^[:space:]]+)[[:space:]]+inet[[:space:]] ]]; then
                cand=${BASH_REMATCH[1]}
                [[ $cand == lo ]] && continue
                if [[ -z ${bound[$cand]:-} ]]; then
                    GUESS_IF=$cand
                    return 0
                fi
            fi
        done <<<"$out"
    fi
    GUESS_IF=$"<网卡名>"
    return 0
}

# 根据 ifindex 找网卡名（veth 对端用），结果在 PEER_NAME
ifname_by_index() {
    local want=$1 f
    PEER_NAME=""
    for f in "$NET_SYSFS"/*/ifindex; do
        read_line "$f"
        if [[ $LINE == "$want" ]]; then
            PEER_NAME=${f%/ifindex}
            PEER_NAME=${PEER_NAME##*/}
            return 0
        fi
    done
    return 0
}

# 网卡是否 administratively UP（flags 的 IFF_UP 位）
netdev_admin_up() {
    read_line "$NET_SYSFS/$1/flags"
    [[ $LINE =~ ^0x[0-9a-fA-F]+$ ]] && (((LINE & 1) == 1))
}

# $1 = 网卡 MTU；IB_MTU = rxe 会使用的 active_mtu（不超过 MTU−头部 的最大 IB MTU，至少 256）
ib_mtu_for() {
    local avail=$(($1 - RXE_HDR_BYTES)) m
    IB_MTU=256
    for m in 4096 2048 1024 512; do
        if ((avail >= m)); then
            IB_MTU=$m
            return 0
        fi
    done
    return 0
}

# 一个端口绑定的网卡: 先看 GID 表里的 ndevs（需要先 choose_gid），再问 rdma link show。
# 结果在 PORT_IF（不知道为空）和 PORT_IF_SRC（从哪里知道的）
port_netdev() {
    local rl
    PORT_IF=${CH_NDEV:-$CH_FIRST_NDEV}
    PORT_IF_SRC="gid_attrs/ndevs"
    if [[ -z $PORT_IF ]] && have rdma; then
        rl=$("$CMD_PATH" link show "$1/$2" 2>/dev/null)
        if [[ $rl =~ netdev[[:space:]]+([^[:space:]]+) ]]; then
            PORT_IF=${BASH_REMATCH[1]}
            PORT_IF_SRC="rdma link show"
        fi
    fi
    return 0
}

# =====================================================================
# 1. 工具
# =====================================================================
check_tools() {
    local t
    for t in ibv_devices ibv_devinfo; do
        if have "$t"; then
            pass $"工具 $t: $CMD_PATH"
        else
            warn $"找不到工具 $t（诊断可以继续，但建议安装以便手动验证）"
            fix "sudo apt-get install ibverbs-utils"
        fi
    done
    if have rdma; then
        pass $"工具 rdma: $CMD_PATH"
    else
        warn $"找不到工具 rdma（用来创建/删除 rxe 设备）"
        fix "sudo apt-get install iproute2"
    fi
    if ! have ip; then
        warn $"找不到工具 ip，无法检查网卡地址"
        fix "sudo apt-get install iproute2"
    fi
}

# =====================================================================
# 2. RDMA 设备
# =====================================================================
# sysfs 里的全部 RDMA 设备，结果在 all_devs
list_rdma_devices() {
    local d
    all_devs=()
    if [[ -d $SYSFS_ROOT ]]; then
        for d in "$SYSFS_ROOT"/*; do
            if [[ -d $d ]]; then all_devs+=("${d##*/}"); fi
        done
    fi
}

# 有 rxe 设备（或要检查 rxe）时，检查 libibverbs 的 rxe 用户态驱动
check_rxe_provider() {
    local f found=""
    for f in "$IBV_ROOT"/usr/lib/*/libibverbs/librxe-rdmav*.so "$IBV_ROOT"/usr/lib64/libibverbs/librxe-rdmav*.so "$IBV_ROOT"/usr/lib/libibverbs/librxe-rdmav*.so; do
        if [[ -e $f ]]; then
            found=$f
            break
        fi
    done
    if [[ -n $found && -e $IBV_ROOT/etc/libibverbs.d/rxe.driver ]]; then
        pass $"libibverbs 的 rxe 用户态驱动: $found"
    else
        fail $"缺少 libibverbs 的 rxe 用户态驱动（ibv_get_device_list 会找不到 rxe 设备）"
        local drv=$"不存在"
        if [[ -e $IBV_ROOT/etc/libibverbs.d/rxe.driver ]]; then drv=$"存在"; fi
        note $"证据: librxe-rdmav*.so ${found:-不存在}, /etc/libibverbs.d/rxe.driver $drv"
        fix "sudo apt-get install ibverbs-providers"
    fi
}

# 当前内核版本，结果在 KV
kernel_release() {
    KV=${KERNEL_RELEASE:-}
    if [[ -n $KV ]]; then return 0; fi
    read_line /proc/sys/kernel/osrelease
    KV=$LINE
    if [[ -z $KV ]]; then KV=$(uname -r); fi
}

# 没有设备时: 检查 rdma_rxe 模块，并给出创建命令。
# 要做的修复留在 RXE_MOD_FIX（已加载时为空），check_uverbs 没有设备时引用它
RXE_MOD_FIX=""
check_rxe_module() {
    local mod_found="" f
    kernel_release
    RXE_MOD_FIX=""
    if [[ -d $MODULE_SYSFS/rdma_rxe ]]; then
        pass $"内核模块 rdma_rxe 已加载 ($MODULE_SYSFS/rdma_rxe)"
        return 0
    fi
    if have modinfo && modinfo rdma_rxe >/dev/null 2>&1; then
        mod_found=$(modinfo -F filename rdma_rxe 2>/dev/null)
    else
        for f in "$KMOD_ROOT/$KV"/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko*; do
            if [[ -e $f ]]; then mod_found=$f; fi
        done
    fi
    if [[ -n $mod_found ]]; then
        fail $"内核模块 rdma_rxe 可用但没有加载"
        note $"证据: ${mod_found}（$MODULE_SYSFS/rdma_rxe 不存在）"
        RXE_MOD_FIX="sudo modprobe rdma_rxe"
    else
        rxe_module_missing
    fi
    fix "$RXE_MOD_FIX"
}

# 发行版的 ID（/etc/os-release 的 ID=，如 ubuntu、debian），结果在 OS_ID
os_id() {
    local line
    OS_ID=""
    while IFS= read -r line; do
        if [[ $line == ID=* ]]; then OS_ID=${line#ID=}; OS_ID=${OS_ID//\"/}; fi
    done 2>/dev/null <"$OS_RELEASE" || true
}

# 当前内核没有 rdma_rxe: 按内核变种和发行版说出原因和修复，修复命令留在 RXE_MOD_FIX。
# 内核变种是版本号之后的部分: 6.8.0-45-generic → generic，5.15.0-1019-kvm → kvm，6.1.0-56-cloud-amd64 → cloud-amd64。
# 不带 rdma_rxe 的变种: Debian 12 的 cloud-amd64（量过: linux-image-6.1.0-56-cloud-amd64 里有 ib_core、mlx5，
# 没有 rdma_rxe.ko）；Ubuntu 的 kvm（精简镜像用，没有 linux-modules-extra 包；没在实验室验证）。
rxe_module_missing() {
    local flavour="" generic
    os_id
    if [[ $KV =~ ^[0-9.]+-[0-9]+-(.+)$ ]]; then flavour=${BASH_REMATCH[1]}; fi
    fail $"当前内核 ($KV) 没有 rdma_rxe 模块（Soft-RoCE 不可用）"
    note $"证据: modinfo rdma_rxe 失败，$KMOD_ROOT/$KV 下也没有 rdma_rxe.ko（modprobe rdma_rxe 报 Module rdma_rxe not found in directory $KMOD_ROOT/$KV）"
    case $flavour in
        kvm | cloud-amd64 | cloud-arm64)
            # 只装通用内核不够：GRUB（Debian 和 Ubuntu 的 grub-mkconfig）默认启动 dpkg --compare-versions 最大的内核，
            # 6.1.0-56-cloud-amd64 比 6.1.0-56-amd64 大，5.15.0-1019-kvm 比 5.15.0-91-generic 大；所以连同元包删掉这个变种
            # （Debian 的做法在原版 Debian 12 的云内核镜像上经 GRUB 重启验证过，tests/stock/cloud.sh；Ubuntu 的没有验证）
            generic=linux-image-generic meta=linux-image-kvm
            if [[ $flavour == cloud-* ]]; then generic=linux-image-${flavour#cloud-} meta=linux-image-$flavour; fi
            note $"原因: 这是 -$flavour 内核变种（云镜像、精简镜像常用），它不带 rdma_rxe，也没有能补装它的包"
            note $"修复: 装通用内核，并删掉 -$flavour 内核和它的元包，再重启（只装不删时 GRUB 仍然默认启动 -$flavour 内核：它的版本号更大），然后 modprobe rdma_rxe"
            RXE_MOD_FIX="sudo apt-get install -y $generic && sudo DEBIAN_FRONTEND=noninteractive apt-get purge -y $meta 'linux-image-*-$flavour' && sudo reboot"
            ;;
        *)
            if [[ $OS_ID == debian ]]; then
                note $"原因: Debian 的通用内核（linux-image-amd64）自带 rdma_rxe；正在运行的内核不是它，或它的模块目录不完整"
                RXE_MOD_FIX="sudo apt-get install linux-image-amd64 && sudo reboot"
            else
                note $"Ubuntu 的 rdma_rxe 在 linux-modules-extra-$KV 包里，默认没装；Debian 的 linux-image 自带。"
                note $"升级内核并重启以后，新内核要再装一次这个包（包名跟着 uname -r 变）。"
                RXE_MOD_FIX="sudo apt-get install linux-modules-extra-$KV && sudo modprobe rdma_rxe"
            fi
            ;;
    esac
    note $"容器里无法加载内核模块，需要在宿主机或虚拟机里做。"
}

# rxe 设备不保存: 提示每次开机都要重新创建，并给出开机自动创建的 systemd 单元（每次运行只说一次）
# rxe_not_persistent 设备名 网卡名
REBOOT_NOTED=""
rxe_not_persistent() {
    local dev=$1 ifname=$2 unit
    [[ -z $REBOOT_NOTED ]] || return 0
    REBOOT_NOTED=1
    unit=/etc/systemd/system/$dev.service
    note $"注意: rxe 设备重启后就没有了（rdma link add 不写任何配置文件），每次开机都要重新执行上面的 rdma link add"
    note $"开机自动创建 $dev（systemd 单元，设置一次即可；rdma link add 会自动加载 rdma_rxe）:"
    note "  printf '%s\n' '[Unit]' 'After=network-online.target' 'Wants=network-online.target' '[Service]' 'Type=oneshot' 'RemainAfterExit=yes' 'ExecStart=rdma link add $dev type rxe netdev $ifname' '[Install]' 'WantedBy=multi-user.target' | sudo tee $unit >/dev/null"
    note "  sudo systemctl daemon-reload && sudo systemctl enable $dev.service"
    note $"详见 TROUBLESHOOTING.md「重启后 rxe 设备消失」"
}

# libibverbs 经 $VERBS_SYSFS（ib_uverbs 模块创建，每个设备一个 uverbsN）找设备:
# 打不开这个目录时 ibv_get_device_list() 返回 NULL，errno 38 (ENOSYS, Function not implemented)。
# 较新的 rdma-core 先经 netlink 列设备，ib_core 在而 ib_uverbs 不在时是一个设备也列不出来。
# 两种真实原因: 内核里根本没有 RDMA；或者 RDMA 设备在（$SYSFS_ROOT）但 ib_uverbs 没加载
# （硬件网卡的机器没装 rdma-core 时常见: 它的 udev 规则负责加载 ib_uverbs；rdma_rxe 依赖 ib_uverbs，会把它带上）
check_uverbs() {
    local d names=""
    if [[ -d $VERBS_SYSFS ]]; then
        for d in "$VERBS_SYSFS"/uverbs*; do
            [[ -d $d ]] || continue
            read_line "$d/ibdev"
            names+="${names:+, }${d##*/}${LINE:+ → $LINE}"
        done
        pass $"用户态 verbs 接口 $VERBS_SYSFS 存在（ib_uverbs 已加载）: ${names:-还没有 uverbs 设备}"
        return 0
    fi
    if [[ -d $MODULE_SYSFS/ib_uverbs ]]; then
        fail $"ib_uverbs 已加载 ($MODULE_SYSFS/ib_uverbs)，但看不到 $VERBS_SYSFS: ibv_get_device_list() 会失败，errno 38 (ENOSYS)"
        note $"通常是在容器里，/sys 没有完整挂载（sysfs 是宿主机的一部分视图）"
        fix $"在宿主机或虚拟机里运行；容器要带上宿主机的 /sys/class/infiniband_verbs 和 /dev/infiniband"
    elif ((${#all_devs[@]} > 0)); then
        fail $"内核模块 ib_uverbs 没有加载: 有 RDMA 设备 (${all_devs[*]})，但没有 $VERBS_SYSFS"
        note $"后果: 程序的 ibv_get_device_list() 失败，errno 38 (ENOSYS, Function not implemented)；较新的 rdma-core 则是一个设备也列不出来"
        note $"证据: $MODULE_SYSFS/ib_uverbs 不存在，$VERBS_SYSFS 不存在"
        note $"常见于硬件网卡 (mlx5 等) 的机器没装 rdma-core: 它的 udev 规则负责加载 ib_uverbs（rdma_rxe 依赖 ib_uverbs，用 rxe 时一般会自动加载）"
        fix "sudo modprobe ib_uverbs"
        fix $"sudo apt-get install rdma-core  # 它的 udev 规则让 ib_uverbs 开机自动加载"
    else
        fail $"没有 $VERBS_SYSFS，也没有 RDMA 设备: 内核里还没有 RDMA（rdma_rxe / ib_uverbs 都没加载）"
        note $"后果: 程序的 ibv_get_device_list() 失败，errno 38 (ENOSYS, Function not implemented)"
        note $"证据: $MODULE_SYSFS/ib_uverbs 不存在，$VERBS_SYSFS 不存在，$SYSFS_ROOT 为空或不存在"
        if [[ -n $RXE_MOD_FIX ]]; then
            note $"先让内核有 Soft-RoCE（见上面 rdma_rxe 一项），modprobe rdma_rxe 会把 ib_uverbs 一起加载"
            fix "$RXE_MOD_FIX"
        else
            # rdma_rxe 已加载（上面检查过）却没有 ib_uverbs: 单独加载它
            fix "sudo modprobe ib_uverbs"
        fi
    fi
}

# librdmacm（rping、ucmatose、--cm 模式）经 $RDMA_DEV/rdma_cm 和内核的 RDMA CM 通信:
# 这个字符设备由 rdma_ucm 模块创建，rdma_ucm 依赖 rdma_cm（连接管理器本身，建在 IB CM / iWARP CM 之上）。
# 本项目现在的程序用 TCP 交换 QP 信息，不需要它，所以这里只有警告，没有失败。
# 实测（docs/dev/cm-facts/FACTS.md）: rdma_ucm 没加载时，librdmacm（rdma-core ≥ v27，内核 ≥ 5.3）经 NETLINK_RDMA
# 询问字符设备，内核按别名 rdma-client-rdma_cm 自动加载 rdma_ucm；只有内核不能加载模块时
# （容器里、模块文件不在、自动加载被禁用）rdma_create_event_channel() 才失败。
# rdma-core 的 udev 规则（rdma-ulp-modules.rules → rdma-load-modules@rdma.service）在出现 RDMA 设备时
# 加载 /etc/rdma/modules/rdma.conf 里列出的模块，其中就有 rdma_ucm。
check_rdma_cm() {
    local ucm="" cm="" mods f mod_found=""
    if [[ -d $MODULE_SYSFS/rdma_ucm ]]; then ucm=1; fi
    if [[ -d $MODULE_SYSFS/rdma_cm ]]; then cm=1; fi
    if [[ -e $RDMA_DEV/rdma_cm ]]; then
        if [[ -n $ucm && -n $cm ]]; then
            mods=$"rdma_cm、rdma_ucm 已加载"
        else
            mods=$"$MODULE_SYSFS 里没有 rdma_cm / rdma_ucm，应是编进了内核"
        fi
        pass $"librdmacm 的内核接口: $mods，$RDMA_DEV/rdma_cm 存在（rping、--cm 模式经它建立连接）"
        return 0
    fi
    if [[ -n $ucm ]]; then
        warn $"rdma_ucm 已加载，但没有 $RDMA_DEV/rdma_cm: librdmacm 程序（rping、ucmatose、--cm 模式）打不开 RDMA CM"
        note $"通常是在容器里（没有把 $RDMA_DEV/rdma_cm 交给容器），或者 /dev 不是 devtmpfs"
        fix $"在宿主机或虚拟机里运行；容器要加 --device $RDMA_DEV/rdma_cm"
        return 0
    fi
    if ((${#all_devs[@]} == 0)); then
        skip $"librdmacm 的内核接口（rdma_ucm、$RDMA_DEV/rdma_cm）: 还没有 RDMA 设备，先解决上面的问题"
        return 0
    fi
    kernel_release
    # modinfo，或 modprobe 的空运行（实验虚拟机里只有 modprobe 认得缓存的内核树），或直接找 .ko
    if have modinfo && modinfo rdma_ucm >/dev/null 2>&1; then
        mod_found=1
    elif have modprobe && "$CMD_PATH" -n -q rdma_ucm >/dev/null 2>&1; then
        mod_found=1
    else
        for f in "$KMOD_ROOT/$KV"/kernel/drivers/infiniband/core/rdma_ucm.ko*; do
            if [[ -e $f ]]; then mod_found=1; fi
        done
    fi
    local also=""
    if [[ -z $cm ]]; then also=$"（rdma_cm 也没有）"; fi
    warn $"内核模块 rdma_ucm 没有加载$also，没有 $RDMA_DEV/rdma_cm"
    note $"librdmacm 程序（rping、ucmatose、--cm 模式）要经 $RDMA_DEV/rdma_cm 建立连接；不带 --cm 的 rdma_server/rdma_client 用 TCP 交换 QP 信息，不需要它"
    note $"较新的 librdmacm 第一次调用时会让内核自动加载 rdma_ucm；内核不能加载模块时（容器里、模块不在）rdma_create_event_channel() 失败，errno 2 (ENOENT)，rping 打印 failed to create RDMA CM event channel: No such file or directory"
    note $"rdma-core 的 udev 规则在出现 RDMA 设备时（开机、rdma link add）加载 /etc/rdma/modules/rdma.conf 里的 rdma_ucm；没装 rdma-core 就要自己 modprobe"
    if [[ -z $mod_found ]]; then
        note $"证据: modinfo rdma_ucm 失败，$KMOD_ROOT/$KV 下也没有 rdma_ucm.ko（当前内核 $KV 没有这个模块）"
    fi
    fix $"sudo modprobe rdma_ucm  # 会把 rdma_cm 一起加载"
    fix $"sudo apt-get install rdma-core  # 它的 udev 规则让 rdma_ucm 开机自动加载"
    return 0
}

# 要检查的设备（全部或 want_dev），结果在 devs
check_rdma_devices() {
    local d
    devs=()
    if [[ -n $want_dev ]]; then
        if [[ -d $SYSFS_ROOT/$want_dev ]]; then
            devs=("$want_dev")
            pass $"RDMA 设备 $want_dev 存在 ($SYSFS_ROOT/$want_dev)"
        else
            fail $"RDMA 设备 $want_dev 不存在"
            note $"证据: 现有 RDMA 设备: ${all_devs[*]:-无}"
            check_rxe_module
            guess_netdev
            fix "sudo rdma link add $want_dev type rxe netdev $GUESS_IF"
            rxe_not_persistent "$want_dev" "$GUESS_IF"
        fi
    elif ((${#all_devs[@]} == 0)); then
        fail $"没有任何 RDMA 设备（$SYSFS_ROOT 不存在或为空）"
        check_rxe_module
        guess_netdev
        note $"rxe 设备要绑定到一块有 IPv4 地址的网卡上（猜测: $GUESS_IF）"
        fix "sudo rdma link add rxe0 type rxe netdev $GUESS_IF"
        rxe_not_persistent rxe0 "$GUESS_IF"
    else
        devs=("${all_devs[@]}")
        pass $"找到 RDMA 设备: ${all_devs[*]}"
    fi
    for d in "${devs[@]}" "${want_dev:-}"; do
        if [[ $d == rxe* ]]; then
            check_rxe_provider
            break
        fi
    done
}

# =====================================================================
# 3. 每个设备/端口
# =====================================================================
# check_port_state 设备 端口 端口目录 网卡（可能为空）
check_port_state() {
    local dev=$1 port=$2 pdir=$3 ifname=$4 state phys iflink
    read_line "$pdir/state"
    state=$LINE
    read_line "$pdir/phys_state"
    phys=$LINE
    if [[ $state == *ACTIVE* ]]; then
        pass $"$dev 端口$port 状态: ${state}，物理状态: ${phys:-未知}"
        return 0
    fi
    fail $"$dev 端口$port 不是 ACTIVE: 状态 ${state:-未知}，物理状态 ${phys:-未知}"
    if [[ -z $ifname ]]; then
        note $"原因: 找不到绑定的网卡（运行 'rdma link show' 查看 netdev）"
        fix $"sudo ip link set <网卡名> up"
    elif [[ ! -e $NET_SYSFS/$ifname ]]; then
        note $"原因: 绑定的网卡 $ifname 不存在了"
        fix $"sudo rdma link delete $dev && sudo rdma link add $dev type rxe netdev <网卡名>"
    elif ! netdev_admin_up "$ifname"; then
        note $"原因: 绑定的网卡 $ifname 没有 UP (ip link set ... down)"
        fix "sudo ip link set $ifname up"
    else
        read_line "$NET_SYSFS/$ifname/operstate"
        note $"原因: 网卡 $ifname 已 UP 但没有载波 (operstate: ${LINE:-未知})"
        read_line "$NET_SYSFS/$ifname/iflink"
        iflink=$LINE
        read_line "$NET_SYSFS/$ifname/ifindex"
        if [[ -n $iflink && $iflink != "$LINE" ]]; then
            ifname_by_index "$iflink"
            if [[ -n $PEER_NAME ]] && ! netdev_admin_up "$PEER_NAME"; then
                note $"$ifname 是 veth，对端 $PEER_NAME 没有 UP"
                fix "sudo ip link set $PEER_NAME up"
            else
                fix $"检查 $ifname 的网线/交换机/对端 (ip link show $ifname)"
            fi
        else
            fix $"检查 $ifname 的网线/交换机/对端 (ip link show $ifname)"
        fi
    fi
}

# check_ipv4_address 设备 端口 网卡（可能为空）—— 结果也留在 NET_V4 里给 check_ipv4_gid 用
check_ipv4_address() {
    local dev=$1 port=$2 ifname=$3
    NET_V4=()
    if [[ -n $ifname ]]; then
        netdev_ipv4 "$ifname"
        if ((${#NET_V4[@]} > 0)); then
            pass $"网卡 $ifname 有 IPv4 地址: ${NET_V4[*]}"
        elif ! have ip; then
            skip $"没有 ip 命令，无法检查网卡 $ifname 的 IPv4 地址"
        else
            fail $"网卡 $ifname 没有 IPv4 地址（RoCE v2 的 IPv4 GID 来自网卡地址）"
            note $"证据: 'ip -4 -o addr show dev $ifname' 没有输出"
            fix $"sudo ip addr add <IP地址>/24 dev $ifname"
        fi
    else
        fail $"不知道 $dev 端口$port 绑定的网卡，无法检查 IPv4 地址"
        fix $"rdma link show  # 查看 netdev，然后: sudo ip addr add <IP地址>/24 dev <网卡名>"
    fi
}

# check_ipv4_gid 设备 端口 网卡 显示用的网卡名 —— 用 choose_gid 的 CH_* 和 NET_V4
check_ipv4_gid() {
    local dev=$1 port=$2 ifname=$3 shown_if=$4 match a tdesc
    if ((CH_IDX >= 0 && CH_SCORE == 6)); then
        pass $"RoCE v2 IPv4 GID: 索引 $CH_IDX = $CH_GID ($CH_IPV4) → 使用 -g $CH_IDX"
        if ((${#NET_V4[@]} > 0)); then
            match=""
            for a in "${NET_V4[@]}"; do
                if [[ ${a%/*} == "$CH_IPV4" ]]; then match=1; fi
            done
            if [[ -z $match ]]; then
                warn $"GID 里的 IPv4 ($CH_IPV4) 不是网卡 $ifname 当前的地址 (${NET_V4[*]})"
                fix "sudo rdma link delete $dev && sudo rdma link add $dev type rxe netdev $shown_if"
            fi
        fi
    else
        if ((CH_IDX < 0)); then
            fail $"$dev 端口$port 的 GID 表是空的（共 0 个有效条目）"
        else
            gr_type_label "$CH_TYPE"
            tdesc=$GR_TYPE_NAME
            fail $"$dev 端口$port 没有 RoCE v2 的 IPv4 GID（有效条目 $CH_NONEMPTY 个）"
            note $"证据: 程序自动选择的是索引 $CH_IDX = $CH_GID ($tdesc)，跨网段/两台机器通信会失败 (QP INIT→RTR 报 EINVAL)"
        fi
        if ((${#NET_V4[@]} == 0)); then
            fix $"sudo ip addr add <IP地址>/24 dev $shown_if"
        else
            note $"网卡有 IPv4 地址 (${NET_V4[*]})，但 GID 表里没有对应条目"
            fix "sudo rdma link delete $dev && sudo rdma link add $dev type rxe netdev $shown_if"
        fi
    fi
    note $"完整 GID 表: ./show_gids.sh $dev $port"
}

# check_mtu 设备 端口 网卡（可能为空）
check_mtu() {
    local dev=$1 port=$2 ifname=$3 nmtu expect active why
    if [[ -n $ifname && -e $NET_SYSFS/$ifname/mtu ]]; then
        read_line "$NET_SYSFS/$ifname/mtu"
        nmtu=$LINE
        ib_mtu_for "$nmtu"
        expect=$IB_MTU
        load_devinfo
        active=${DEVINFO_MTU[$dev/$port]:-}
        why=$"网卡 $ifname MTU $nmtu − $RXE_HDR_BYTES 字节头部 = $((nmtu - RXE_HDR_BYTES)) → 不超过它的最大 IB MTU 是 $expect"
        if ((expect < 1024)); then
            warn $"网卡 $ifname 的 MTU 只有 $nmtu，RoCE 的 active_mtu 只能是 ${active:-$expect}"
            note $"$why；IB MTU 只能取 256/512/1024/2048/4096，小 MTU 会降低性能，两端 MTU 不一致时连接会出问题"
            fix "sudo ip link set $ifname mtu 1500"
        elif [[ -n $active ]]; then
            if [[ $dev == rxe* && $active != "$expect" ]]; then
                warn $"active_mtu $active 与按网卡 MTU 推算的 $expect 不一致"
                note $"$why；可能网卡 MTU 在创建 rxe 之后改过"
            else
                pass $"active_mtu $active（$why）"
            fi
        else
            pass $"网卡 $ifname MTU $nmtu（$why；ibv_devinfo 不可用或没给出 active_mtu，这是推算值）"
        fi
    elif [[ -n $ifname ]]; then
        skip $"读不到网卡 $ifname 的 MTU ($NET_SYSFS/$ifname/mtu)"
    fi
}

# check_port 设备 端口 —— 一个端口的全部检查
check_port() {
    local dev=$1 port=$2 pdir=$SYSFS_ROOT/$1/ports/$2 ifname nd
    section $"3. 设备 $dev 端口 $port"
    choose_gid "$pdir"
    port_netdev "$dev" "$port"
    ifname=$PORT_IF
    if [[ -n $ifname ]]; then
        note $"绑定的网卡: $ifname（来自 $PORT_IF_SRC）"
    fi
    check_port_state "$dev" "$port" "$pdir" "$ifname"
    check_ipv4_address "$dev" "$port" "$ifname"
    nd=$"<网卡名>"
    check_ipv4_gid "$dev" "$port" "$ifname" "${ifname:-$nd}"
    check_mtu "$dev" "$port" "$ifname"
}

# check_device 设备 —— 按端口号顺序检查每个端口
check_device() {
    local dev=$1 p pn
    local -a ports=()
    for p in "$SYSFS_ROOT/$dev"/ports/*; do
        pn=${p##*/}
        if [[ $pn =~ ^[0-9]+$ ]]; then ports[pn]=$pn; fi
    done
    if ((${#ports[@]} == 0)); then
        section $"3. 设备 $dev"
        fail $"设备 $dev 没有端口 ($SYSFS_ROOT/$dev/ports 为空)"
        fix $"sudo rdma link delete $dev  # 然后重新创建: sudo rdma link add $dev type rxe netdev <网卡名>"
        return 0
    fi
    for pn in "${ports[@]}"; do
        check_port "$dev" "$pn"
    done
}

# =====================================================================
# 4. memlock
# =====================================================================
# 注册内存 (ibv_reg_mr) 要锁定页面，受 RLIMIT_MEMLOCK 限制:
#   unlimited 或 >= 64 MiB → 通过; 1 MiB ~ 64 MiB → 警告（本项目的小缓冲区够用，
#   perftest 大消息/多 QP 可能不够）; < 1 MiB → 失败（很多老系统默认 64 KiB，注册会 ENOMEM）

# 软/硬限制（KiB 或 unlimited），结果在 ml_soft / ml_hard
read_memlock() {
    local line
    ml_soft="" ml_hard=""
    # 从 /proc/self/limits 读（字节），不用 $(ulimit -l) 以免 fork；读不到再退回 ulimit
    if [[ -r $LIMITS_FILE ]]; then
        while read -r line; do
            if [[ $line =~ ^Max\ locked\ memory[[:space:]]+([0-9]+|unlimited)[[:space:]]+([0-9]+|unlimited) ]]; then
                ml_soft=${BASH_REMATCH[1]}
                ml_hard=${BASH_REMATCH[2]}
            fi
        done <"$LIMITS_FILE"
        if [[ $ml_soft =~ ^[0-9]+$ ]]; then ml_soft=$((ml_soft / 1024)); fi
        if [[ $ml_hard =~ ^[0-9]+$ ]]; then ml_hard=$((ml_hard / 1024)); fi
    fi
    if [[ -z $ml_soft || -z $ml_hard ]]; then
        ml_soft=$(ulimit -S -l)
        ml_hard=$(ulimit -H -l)
    fi
}
ml_ok() { [[ $1 == unlimited ]] || { [[ $1 =~ ^[0-9]+$ ]] && (($1 >= MEMLOCK_MIN_KB)); }; }
# memlock_fixes fix|optfix
memlock_fixes() {
    local how=$1
    if ((EUID == 0)); then
        note $"当前是 root（有 CAP_IPC_LOCK，内核不强制该限制），但普通用户运行程序时会受限"
    fi
    $how $"echo '* soft memlock unlimited' | sudo tee -a /etc/security/limits.conf && echo '* hard memlock unlimited' | sudo tee -a /etc/security/limits.conf  # 重新登录生效"
    note $"limits.conf 管不到 systemd --user 启动的进程（桌面的终端）：那里要在 /etc/systemd/user.conf 设 DefaultLimitMEMLOCK=infinity"
    if ml_ok "$ml_hard"; then
        $how $"ulimit -l unlimited   # 只对当前 shell 有效"
    else
        note $"硬限制 ($ml_hard) 也太低，普通用户不能自己调高（ulimit -l 会报 Operation not permitted）"
    fi
}
check_memlock() {
    local unit
    read_memlock
    if ml_ok "$ml_soft"; then
        unit=""
        if [[ $ml_soft != unlimited ]]; then unit=" KiB"; fi
        pass $"memlock 软限制: $ml_soft$unit（硬限制: $ml_hard）"
    elif [[ $ml_soft =~ ^[0-9]+$ ]] && ((ml_soft >= MEMLOCK_README_KB)); then
        warn $"memlock 软限制 $ml_soft KiB（< $((MEMLOCK_MIN_KB / 1024)) MiB）: README 的例子最多注册 $((MEMLOCK_README_KB / 1024)) MiB，够用；更大的 --size × -q 或 perftest 可能 ENOMEM"
        note $"证据: ulimit -l = $ml_soft, ulimit -H -l = $ml_hard"
        memlock_fixes optfix
    elif [[ $ml_soft =~ ^[0-9]+$ ]] && ((ml_soft >= MEMLOCK_FAIL_KB)); then
        warn $"memlock 软限制 $ml_soft KiB: README 的例子最多注册 $((MEMLOCK_README_KB / 1024)) MiB，-q 1 --size 1M 可能 ENOMEM"
        note $"证据: ulimit -l = $ml_soft, ulimit -H -l = $ml_hard"
        memlock_fixes fix
    else
        fail $"memlock 软限制只有 $ml_soft KiB（< $((MEMLOCK_FAIL_KB / 1024)) MiB），注册内存 (ibv_reg_mr) 会失败 (ENOMEM)"
        note $"证据: ulimit -l = $ml_soft, ulimit -H -l = $ml_hard"
        memlock_fixes fix
    fi
}

# =====================================================================
# 5. TCP 端口
# =====================================================================
check_tcp_port() {
    local hexport found="" proc_ok="" f laddr st pid listeners line
    # 先读 /proc/net/tcp{,6}（内建 read，状态 0A = LISTEN）；只有端口被占用时才调用 ss 查进程
    printf -v hexport '%04X' "$TCP_PORT"
    for f in /proc/net/tcp /proc/net/tcp6; do
        [[ -r $f ]] || continue
        proc_ok=1
        while read -r _ laddr _ st _; do
            if [[ $st == 0A && ${laddr##*:} == "$hexport" ]]; then found+=" $laddr"; fi
        done <"$f"
    done
    if [[ -z $proc_ok ]] && have ss; then
        # 没有 /proc/net/tcp 时直接问 ss
        found=$("$CMD_PATH" -Hltn "( sport = :$TCP_PORT )" 2>/dev/null)
    fi
    if [[ -z $found ]]; then
        pass $"TCP 端口 $TCP_PORT 空闲（没有进程在监听）"
        return 0
    fi
    warn $"TCP 端口 $TCP_PORT 已被占用（如果是你自己的服务端正在运行，可以忽略）"
    pid=""
    if have ss; then
        listeners=$("$CMD_PATH" -Hltnp "( sport = :$TCP_PORT )" 2>/dev/null)
        while read -r line; do
            [[ -n $line ]] && note $"证据: $line"
        done <<<"$listeners"
        if [[ $listeners =~ pid=([0-9]+) ]]; then pid=${BASH_REMATCH[1]}; fi
    else
        note $"证据: /proc/net/tcp 中的监听地址 (十六进制):$found（安装 iproute2 的 ss 可看到进程）"
    fi
    fix $"换一个端口 (程序的端口参数) 或结束占用的进程: sudo kill ${pid:-<PID>}"
}

# =====================================================================
# 防火墙规则的解析（纯函数: 参数是命令输出的文本，结论打印到 stdout，每行一条）
#   KIND DIR 位置… 规则原文
#   KIND: drop（丢弃/拒绝 UDP 4791）、accept（放行 UDP 4791）、policy（链的默认策略是丢弃）、
#         open（nft：没写 4791、却可能放过它的放行规则，例如按网卡、来源地址、命名集合放行；只放行 lo、已建立的连接、
#         ICMP、TCP 或别的 UDP 端口的规则不算）
#   DIR:  in / out / fwd / other（不是 input/output/forward 的链，方向看谁跳转过来）
# 只认 UDP（或不限协议）的目的端口 4791: 单个端口、范围、集合；tcp 的规则、!= 取反的规则不算。
# =====================================================================

# port_in_list "4791" / "4000-5000" / "4000:5000" / "22,4791" —— 是否包含 ROCE_UDP_PORT
port_in_list() {
    local item lo hi
    local -a items=()
    IFS=, read -r -a items <<<"$1"
    for item in "${items[@]}"; do
        item=${item//[[:space:]\{\}]/}
        if [[ $item =~ ^([0-9]+)[-:]([0-9]+)$ ]]; then
            lo=$((10#${BASH_REMATCH[1]})) hi=$((10#${BASH_REMATCH[2]}))
            if ((lo <= ROCE_UDP_PORT && ROCE_UDP_PORT <= hi)); then return 0; fi
        elif [[ $item =~ ^[0-9]+$ ]] && ((10#$item == ROCE_UDP_PORT)); then
            return 0
        fi
    done
    return 1
}

# 链/钩子名 → 方向
fw_dir_of() {
    case ${1,,} in
        input | prerouting) FW_DIR=in ;;
        output | postrouting) FW_DIR=out ;;
        forward) FW_DIR=fwd ;;
        *) FW_DIR=other ;;
    esac
}

# fw_parse_nft "nft list ruleset 的输出"
# fw_nft_narrow 规则的词…：这条放行规则放不过进来的 UDP 4791 吗（只放行 lo、已建立/相关的连接、ICMP、TCP，或按出口网卡匹配）
fw_nft_narrow() {
    local r=" $* "
    [[ $r == *" udp "* ]] && return 1
    [[ $r == *" iif lo "* || $r == *' iif "lo" '* || $r == *" iifname lo "* || $r == *' iifname "lo" '* ]] && return 0
    # 按出口网卡匹配的规则（ufw 的 ufw-before-output 里的 oifname "lo"）管的是发出去的包，放不过进来的 4791
    [[ $r == *" oif "* || $r == *" oifname "* ]] && return 0
    [[ $r == *" ct state "* && $r != *new* && $r != *untracked* ]] && return 0
    [[ $r == *icmp* || $r == *" tcp "* ]] && return 0
    return 1
}

#   drop|accept|open DIR 族 表 链 规则原文;  policy DIR 族 表 链 policy drop
fw_parse_nft() {
    local line fam="" tbl="" chain="" in_chain="" dir=other depth=0 opens closes j e n vals verdict proto
    local -a w=()
    while IFS= read -r line; do
        opens=${line//[^\{]/}
        closes=${line//[^\}]/}
        w=()
        read -r -a w <<<"$line" || true
        n=${#w[@]}
        if ((n > 0)); then
            if ((depth == 0)) && [[ ${w[0]} == table ]]; then
                fam=${w[1]:-} tbl=${w[2]:-}
                # "table filter {"（省略族名时是 ip）
                if [[ $tbl == "{" || -z $tbl ]]; then tbl=$fam fam=ip; fi
            elif ((depth == 1)); then
                in_chain=""
                if [[ ${w[0]} == chain ]]; then
                    in_chain=1 chain=${w[1]:-} dir=other
                fi
            elif ((depth == 2)) && [[ -n $in_chain ]]; then
                if [[ ${w[0]} == type ]]; then
                    # "type filter hook input priority filter; policy drop;"
                    for ((j = 1; j < n; j++)); do
                        if [[ ${w[j]} == hook ]]; then fw_dir_of "${w[j + 1]:-}" && dir=$FW_DIR; fi
                        if [[ ${w[j]} == policy && ${w[j + 1]:-} == drop* ]]; then
                            echo "policy $dir $fam $tbl $chain policy drop"
                        fi
                    done
                else
                    # 规则: 找 "dport"，看前面的协议、后面的值，再找动作
                    verdict="" vals=""
                    for ((j = 0; j < n; j++)); do
                        case ${w[j]} in
                            drop | reject) [[ -n $verdict ]] || verdict=drop ;;
                            accept) [[ -n $verdict ]] || verdict=accept ;;
                            dport)
                                proto=""
                                if ((j > 0)); then proto=${w[j - 1]}; fi
                                [[ $proto == udp || $proto == th ]] || continue
                                if [[ ${w[j + 1]:-} == "{" ]]; then
                                    # 集合 "{ 4791, 18515 }": 收集到 "}" 为止
                                    for ((e = j + 2; e < n; e++)); do
                                        [[ ${w[e]} == "}" ]] && break
                                        vals+="${w[e]},"
                                    done
                                    j=$e
                                else
                                    # "!=" 取反、"@集合名" 都不认（值不是数字，自然匹配不上）
                                    vals=${w[j + 1]:-}
                                fi
                                ;;
                        esac
                    done
                    if [[ -n $verdict && -n $vals ]] && port_in_list "$vals"; then
                        echo "$verdict $dir $fam $tbl $chain ${w[*]}"
                    elif [[ $verdict == accept && ( -z $vals || $vals =~ [^0-9,:-] ) ]] && ! fw_nft_narrow "${w[@]}"; then
                        # 放行，没写端口（或端口是命名集合 @名字），也不只是 lo/已建立的连接/ICMP/TCP：可能放过 4791
                        echo "open $dir $fam $tbl $chain ${w[*]}"
                    fi
                fi
            fi
        fi
        depth=$((depth + ${#opens} - ${#closes}))
        ((depth >= 0)) || depth=0
    done <<<"$1"
    return 0
}

# fw_parse_iptables "iptables -S [链] 的输出"
#   drop|accept DIR 链 规则原文;  policy DIR 链 -P 链 DROP
fw_parse_iptables() {
    local line chain proto ports target neg j n
    local -a w=()
    while IFS= read -r line; do
        w=()
        read -r -a w <<<"$line" || true
        n=${#w[@]}
        ((n >= 3)) || continue
        chain=${w[1]}
        fw_dir_of "$chain"
        if [[ ${w[0]} == -P ]]; then
            if [[ ${w[2]} == DROP || ${w[2]} == REJECT ]]; then echo "policy $FW_DIR $chain ${w[*]}"; fi
            continue
        fi
        [[ ${w[0]} == -A ]] || continue
        proto="" ports="" target="" neg=""
        for ((j = 2; j < n; j++)); do
            # "! --dport 4791": "!" 只作用于紧跟它的那个选项
            if [[ ${w[j]} == ! ]]; then
                neg=1
                continue
            fi
            case ${w[j]} in
                -p | --protocol) proto=${neg:+!}${w[j + 1]:-} ;;
                --dport | --destination-port | --dports | --destination-ports)
                    if [[ -z $neg ]]; then ports=${w[j + 1]:-}; fi
                    ;;
                -j | --jump) target=${w[j + 1]:-} ;;
            esac
            neg=""
        done
        [[ $proto == udp && -n $ports ]] || continue
        port_in_list "$ports" || continue
        case $target in
            DROP | REJECT) echo "drop $FW_DIR $chain ${w[*]}" ;;
            ACCEPT) echo "accept $FW_DIR $chain ${w[*]}" ;;
        esac
    done <<<"$1"
    return 0
}

# fw_ufw_open ufw status 的一行的词…：这是一条没写端口、放行进来的报文的规则吗
# （"Anywhere  ALLOW IN  10.11.0.2"、"Anywhere on eth1  ALLOW IN  Anywhere"、"10.11.0.1  ALLOW IN  Anywhere"）；
# 写了端口（"22/tcp"）或是应用配置（"OpenSSH"，端口固定，不会是 4791）的不算
fw_ufw_open() {
    local -a w=("$@")
    local j=1
    [[ ${w[0]} == Anywhere || ${w[0]} =~ ^[0-9a-fA-F.:]+(/[0-9]+)?$ ]] || return 1
    [[ ${w[0]} =~ ^[0-9]+$ ]] && return 1   # 只有数字的是端口（"4791  ALLOW IN  Anywhere"）
    [[ ${w[j]:-} == "(v6)" ]] && j=$((j + 1))
    [[ ${w[j]:-} == on ]] && j=$((j + 2))
    [[ ${w[j]:-} == ALLOW || ${w[j]:-} == LIMIT ]] && [[ ${w[j + 1]:-} != OUT ]]
}

# fw_parse_ufw "ufw status [verbose] 的输出"
#   status active|inactive;  policy in|out Default: …;  drop|accept in|out 规则原文;
#   open in 规则原文（放行进来的报文、没写端口：按来源地址、目的地址或网卡放行，可能放过 4791）
fw_parse_ufw() {
    local line spec act dir j n
    local -a w=()
    while IFS= read -r line; do
        if [[ $line =~ ^Status:[[:space:]]*([a-z]+) ]]; then
            echo "status ${BASH_REMATCH[1]}"
            continue
        fi
        if [[ $line == Default:* ]]; then
            # "Default: deny (incoming), allow (outgoing), disabled (routed)"
            if [[ $line =~ (deny|reject)\ \(incoming\) ]]; then echo "policy in $line"; fi
            if [[ $line =~ (deny|reject)\ \(outgoing\) ]]; then echo "policy out $line"; fi
            continue
        fi
        w=()
        read -r -a w <<<"$line" || true
        n=${#w[@]}
        ((n >= 2)) || continue
        # 规则行: "4791/udp  ALLOW IN  Anywhere"、"4791/udp (v6)  DENY OUT  Anywhere (v6)"、
        # "10.11.0.1 4791/udp  ALLOW IN  Anywhere"（ufw allow proto udp to 10.11.0.1 port 4791）
        spec=${w[0]} j=1
        if [[ $spec =~ ^[0-9a-fA-F.:/]+$ && ${w[1]} =~ ^[0-9][0-9,:]*(/[a-z]+)?$ ]]; then spec=${w[1]} j=2; fi
        if fw_ufw_open "${w[@]}"; then
            echo "open in $line"
            continue
        fi
        [[ $spec =~ ^[0-9][0-9,:]*(/udp)?$ ]] || continue
        if [[ ${w[j]} == "(v6)" ]]; then j=$((j + 1)); fi
        # "4791/udp on eth0  ALLOW IN  Anywhere"
        if [[ ${w[j]:-} == on ]]; then j=$((j + 2)); fi
        act=${w[j]:-} dir=in
        if [[ ${w[j + 1]:-} == OUT ]]; then dir=out; fi
        port_in_list "${spec%/udp}" || continue
        case $act in
            DENY | REJECT) echo "drop $dir $line" ;;
            ALLOW | LIMIT) echo "accept $dir $line" ;;
        esac
    done <<<"$1"
    return 0
}

# fw_parse_firewalld "firewall-cmd --list-all 的输出"
#   zone 名字;  target 值;  accept in 规则/端口;  drop in 规则原文;
#   policy in target:值（target 不是 ACCEPT 时，没放行的入站报文会被拒绝）
fw_parse_firewalld() {
    local line first=1 target="" p rich=""
    local -a w=()
    while IFS= read -r line; do
        if [[ -n $first && -n $line ]]; then
            first=""
            read -r -a w <<<"$line" || true
            echo "zone ${w[0]}"
            continue
        fi
        if [[ $line =~ ^[[:space:]]*target:[[:space:]]*([^[:space:]]+) ]]; then
            target=${BASH_REMATCH[1]}
            echo "target $target"
        elif [[ $line =~ ^[[:space:]]*ports:(.*)$ ]]; then
            read -r -a w <<<"${BASH_REMATCH[1]}" || true
            for p in "${w[@]}"; do
                if [[ $p == */udp ]] && port_in_list "${p%/udp}"; then echo "accept in ports $p"; fi
            done
        elif [[ $line =~ ^[[:space:]]*rich\ rules: ]]; then
            rich=1
        elif [[ -n $rich && $line =~ port=\"([0-9:-]+)\"[[:space:]]+protocol=\"udp\" ]] && port_in_list "${BASH_REMATCH[1]}"; then
            line=${line#"${line%%[![:space:]]*}"}
            if [[ $line =~ [[:space:]](drop|reject)([[:space:]]|$) ]]; then
                echo "drop in $line"
            elif [[ $line =~ [[:space:]]accept([[:space:]]|$) ]]; then
                echo "accept in $line"
            fi
        fi
    done <<<"$1"
    case $target in
        ACCEPT) echo "accept in target:ACCEPT" ;;
        "") ;;
        *) echo "policy in target:$target" ;;
    esac
    return 0
}

# 结论里第一条以 $2 开头的行，结果在 FW_LINE（没有为空，返回 1）
fw_first() {
    local line
    FW_LINE=""
    while IFS= read -r line; do
        if [[ $line == "$2"* ]]; then
            FW_LINE=$line
            return 0
        fi
    done <<<"$1"
    return 1
}

# 结论里第一条真会生效的丢弃，结果在 FW_LINE（没有为空，返回 1）。同一条链里（前 $2 个字段相同：方向、链）排在它前面的放行
# 先匹配，报文就过去了：iptables -I、nft insert rule、ufw insert 1 都把放行插在最前面，原来的丢弃规则还在。
# 别的链里的放行不算（nft 的每个 base chain 都要过一遍）。$3 = 只看这个方向（in / out；不给就都看）
fw_first_drop() {
    local line key
    local -a w=()
    local -A accepted=()
    FW_LINE=""
    while IFS= read -r line; do
        read -r -a w <<<"$line" || true
        ((${#w[@]} > $2)) || continue
        [[ -z ${3:-} || ${w[1]} == "$3" ]] || continue
        key="${w[*]:1:$2}"
        case ${w[0]} in
            accept) accepted[$key]=1 ;;
            drop)
                if [[ -z ${accepted[$key]:-} ]]; then
                    FW_LINE=$line
                    return 0
                fi
                ;;
        esac
    done <<<"$1"
    return 1
}

# =====================================================================
# 6. 防火墙 UDP 4791（入方向；nft 的丢弃规则不论在哪个链）
# =====================================================================
check_fw_nft() {
    local rules found fam tb chn ev rc=0
    rules=$(nft list ruleset 2>&1) || rc=$?
    if ((rc != 0)); then
        fw_unread "nft list ruleset" "$rc" "$rules"
        return 0
    fi
    found=$(fw_parse_nft "$rules")
    if fw_first_drop "$found" 4; then
        fail $"nft 规则丢弃/拒绝了 UDP $ROCE_UDP_PORT"
        ev=$(grep -n "dport.*$ROCE_UDP_PORT" <<<"$rules" | head -n 3 | tr '\n' ' ')
        note $"证据: $ev"
        read -r _ _ fam tb chn _ <<<"$FW_LINE"
        fix "sudo nft insert rule $fam $tb $chn udp dport $ROCE_UDP_PORT accept"
    elif fw_first "$found" "policy in " && ! fw_first "$found" "accept "; then
        fw_first "$found" "policy in "
        read -r _ _ fam tb chn _ <<<"$FW_LINE"
        if fw_first "$found" "open in " || fw_first "$found" "open other "; then
            # 有一条没写端口的放行规则（按网卡、来源地址、集合……）：它可能放过 4791，脚本判断不了
            warn $"nft 的 input 链 ($fam $tb $chn) 默认策略是 drop，且没有放行 UDP $ROCE_UDP_PORT 的规则"
            ev=${FW_LINE#open * * * * }
            note $"这条放行规则没写端口，可能放过 RoCE v2 报文，也可能不: $ev"
        else
            # 只放行 lo、已建立的连接、ICMP、别的端口：对端发来的 4791 一定被丢弃（已建立的连接也不算：ACK 发往 4791，不是回程的端口）
            fail $"nft 的 input 链 ($fam $tb $chn) 默认策略是 drop，且没有放行 UDP $ROCE_UDP_PORT 的规则"
            note $"对端发来的 RoCE v2 报文会被丢弃，程序以 RETRY_EXC_ERR (transport retry counter exceeded) 失败"
        fi
        fix "sudo nft insert rule $fam $tb $chn udp dport $ROCE_UDP_PORT accept"
    else
        pass $"nft 规则没有拦截 UDP $ROCE_UDP_PORT"
    fi
}

check_fw_iptables() {
    local rules found ev rc=0
    rules=$(iptables -S INPUT 2>&1) || rc=$?
    if ((rc != 0)); then
        fw_unread "iptables -S INPUT" "$rc" "$rules"
        return 0
    fi
    found=$(fw_parse_iptables "$rules")
    if fw_first_drop "$found" 2 in; then
        fail $"iptables INPUT 链丢弃/拒绝了 UDP $ROCE_UDP_PORT"
        ev=$(grep -E -- "--dport $ROCE_UDP_PORT\b" <<<"$rules" | head -n 1)
        note $"证据: $ev"
        fix "sudo iptables -I INPUT -p udp --dport $ROCE_UDP_PORT -j ACCEPT"
    elif fw_first "$found" "policy in " && ! fw_first "$found" "accept in "; then
        if ev=$(fw_iptables_open "$rules"); then
            warn $"iptables INPUT 默认策略是 DROP，且没有放行 UDP $ROCE_UDP_PORT 的规则"
            note $"这条放行规则没写端口，可能放过 RoCE v2 报文，也可能不: $ev"
        else
            fail $"iptables INPUT 默认策略是 DROP，且没有放行 UDP $ROCE_UDP_PORT 的规则"
            note $"对端发来的 RoCE v2 报文会被丢弃，程序以 RETRY_EXC_ERR (transport retry counter exceeded) 失败"
        fi
        fix "sudo iptables -I INPUT -p udp --dport $ROCE_UDP_PORT -j ACCEPT"
    else
        pass $"iptables INPUT 链没有拦截 UDP $ROCE_UDP_PORT"
    fi
}

# fw_iptables_open "iptables -S INPUT 的输出"：打印第一条没写端口、可能放过 UDP 4791 的 ACCEPT 规则；没有就返回 1
# （只放行 lo、已建立/相关的连接、ICMP、TCP 的不算；跳到别的链的也不算：那些链由别的工具管，比如 ufw 的）
fw_iptables_open() {
    local line r
    while IFS= read -r line; do
        [[ $line == "-A "* && $line == *" -j ACCEPT"* ]] || continue
        r=" $line "
        [[ $r == *" -i lo "* || $r == *" -p tcp "* || $r == *" -p icmp "* || $r == *" -p ipv6-icmp "* || $r == *" --dport "* ]] && continue
        [[ $r == *" --ctstate "* || $r == *" --state "* ]] && [[ $r != *NEW* && $r != *UNTRACKED* ]] && continue
        echo "$line"
        return 0
    done <<<"$1"
    return 1
}

check_fw_ufw() {
    local st found rc=0
    st=$(ufw status verbose 2>&1) || rc=$?
    if ((rc != 0)); then
        fw_unread "ufw status verbose" "$rc" "$st"
        return 0
    fi
    found=$(fw_parse_ufw "$st")
    if ! fw_first "$found" "status active"; then
        pass $"ufw 未启用"
    elif fw_first_drop "$found" 1 in; then
        fail $"ufw 的规则拦截了 UDP $ROCE_UDP_PORT"
        note $"证据: ${FW_LINE#drop in }"
        fix "sudo ufw insert 1 allow $ROCE_UDP_PORT/udp"
    elif fw_first "$found" "accept in "; then
        pass $"ufw 已启用，并放行了 UDP $ROCE_UDP_PORT"
    elif ! fw_first "$found" "policy in "; then
        pass $"ufw 已启用，默认放行进来的报文"
    elif fw_first "$found" "open in "; then
        warn $"ufw 已启用、默认拒绝进来的报文，且没有放行 UDP $ROCE_UDP_PORT 的规则"
        note $"这条放行规则没写端口，可能放过 RoCE v2 报文，也可能不: ${FW_LINE#open in }"
        fix "sudo ufw allow $ROCE_UDP_PORT/udp && sudo ufw allow $TCP_PORT/tcp"
    else
        fail $"ufw 已启用、默认拒绝进来的报文，且没有放行 UDP $ROCE_UDP_PORT 的规则"
        note $"对端发来的 RoCE v2 报文会被丢弃，程序以 RETRY_EXC_ERR (transport retry counter exceeded) 失败"
        fix "sudo ufw allow $ROCE_UDP_PORT/udp && sudo ufw allow $TCP_PORT/tcp"
    fi
}

# firewalld 在运行：区域的 ports、rich rule 和 target 决定进来的 4791 能不能过
check_fw_firewalld() {
    local found zone
    found=$(fw_parse_firewalld "$(firewall-cmd --list-all 2>/dev/null)")
    zone=""
    if fw_first "$found" "zone "; then zone=${FW_LINE#zone }; fi
    if fw_first "$found" "drop in "; then
        fail $"firewalld（区域 ${zone:-?}）的规则丢弃/拒绝了 UDP $ROCE_UDP_PORT"
        note $"证据: ${FW_LINE#drop in }"
        fix "sudo firewall-cmd --remove-rich-rule='${FW_LINE#drop in }' && sudo firewall-cmd --add-port=$ROCE_UDP_PORT/udp"
    elif fw_first "$found" "accept in "; then
        pass $"firewalld（区域 ${zone:-?}）放行了 UDP $ROCE_UDP_PORT（${FW_LINE#accept in }）"
    else
        fail $"firewalld 在运行（区域 ${zone:-?}），没有放行 UDP $ROCE_UDP_PORT: 对端发来的 RoCE v2 报文会被拒绝"
        if fw_first "$found" "policy in "; then note $"证据: ${FW_LINE#policy in }，ports 里没有 $ROCE_UDP_PORT/udp"; fi
        fix "sudo firewall-cmd --add-port=$ROCE_UDP_PORT/udp && sudo firewall-cmd --permanent --add-port=$ROCE_UDP_PORT/udp"
    fi
}

# 谁在管防火墙（README 第 5 步的顺序）：ufw 启用了就是 ufw，否则 firewalld 在运行就是 firewalld，否则是 nft/iptables 的规则本身。
# ufw、firewalld 把自己的规则写进 nftables（Debian 12、Ubuntu 的 iptables 是 iptables-nft），nft/iptables 看到的是它们生成的表：
# 这时只按它们自己的规则判断，修复也用它们的命令（往它们的表里插 nft/iptables 规则，它们重载时就没了）。结果在 FW_BOSS
# （第 6 节和 --peer 的第 7 节都要用：只问一次，firewall-cmd 每次要一秒左右）
FW_BOSS=""
fw_in_charge() {
    [[ -n $FW_BOSS ]] && return 0
    FW_BOSS=rules
    if have_fw ufw && [[ $(ufw status 2>/dev/null) == "Status: active"* ]]; then
        FW_BOSS=ufw
    elif have_fw firewall-cmd && [[ $(firewall-cmd --state 2>/dev/null) == running ]]; then
        FW_BOSS=firewalld
    fi
}

# iptables 是 iptables-nft（规则就在 nftables 里）且 nft 也在：它的规则 nft 已经读过，不再读一遍
fw_iptables_is_nft() {
    have_fw nft && [[ $(iptables -V 2>/dev/null) == *nf_tables* ]]
}

# 读不出规则（不是 root、容器里没有 CAP_NET_ADMIN……）：说“没有检查”，不能算通过
# fw_unread 命令 退出码 输出
fw_unread() {
    local first=${3%%$'\n'*}
    skip $"没能读取防火墙规则（$1 退出码 $2: $first），没有检查 UDP $ROCE_UDP_PORT"
    note $"用 root 再运行一次: sudo ./$PROG${PEER_IP:+ --peer $PEER_IP}"
}
# 防火墙工具在 PATH 里，或者在普通用户的 PATH 没有的 /usr/sbin、/sbin 里（Debian 的普通用户就是这样）
# （FW_SBIN_DIRS 让测试换掉这两个目录）
have_fw() {
    local d
    have "$1" && return 0
    for d in ${FW_SBIN_DIRS-/usr/sbin /sbin}; do
        [[ -x $d/$1 ]] && return 0
    done
    return 1
}
# 普通用户读不了规则: 说没有检查、怎样用 sudo 运行（不给“通过”）
fw_need_root() {
    skip $"没有检查防火墙: 读 nft/iptables/ufw 的规则要 root（找到: $*），普通用户读不到，不能算通过"
    note $"用 sudo 再运行一次: sudo ./$PROG${PEER_IP:+ --peer $PEER_IP}"
}
check_firewall_udp_4791() {
    local t
    local -a fw_tools=()
    for t in nft iptables ufw; do
        if have_fw "$t"; then fw_tools+=("$t"); fi
    done
    if ((${#fw_tools[@]} == 0)); then
        skip $"没有 nft/iptables/ufw，跳过防火墙检查（没有主机防火墙工具，通常也就没有规则）"
    elif ((EUID != 0)); then
        fw_need_root "${fw_tools[*]}"
    else
        fw_in_charge
        case $FW_BOSS in
            ufw)
                note $"ufw 已启用，由它管防火墙：nft/iptables 里的规则是 ufw 生成的，按 ufw 的规则判断，修复也用 ufw"
                check_fw_ufw
                ;;
            firewalld)
                note $"firewalld 在运行，由它管防火墙：nft 里的规则是 firewalld 生成的，按它的区域判断，修复也用 firewall-cmd"
                check_fw_firewalld
                ;;
            *)
                for t in "${fw_tools[@]}"; do
                    case $t in
                        nft) check_fw_nft ;;
                        iptables) if fw_iptables_is_nft; then note $"iptables 是 iptables-nft：它的规则就在上面 nft 读到的规则集里"; else check_fw_iptables; fi ;;
                        ufw) check_fw_ufw ;;
                    esac
                done
                ;;
        esac
    fi
}

# =====================================================================
# 7. 对端（--peer IP）: 客户端通往服务端的路径
# =====================================================================
# 路径上的状态（各 check_peer_* 之间传递）
PEER_DEV="" PEER_PORT="" PEER_IDX="" PEER_PING_OK="" PEER_PATH_OK=""
PING_CMD=()
PING_KIND=""

# parse_neigh "ip neigh show … 的输出" —— 纯函数，看第一行
#   NEIGH_STATE  最后一个词（REACHABLE/STALE/DELAY/PROBE/PERMANENT/NOARP/FAILED/INCOMPLETE），没有表项为空
#   NEIGH_LLADDR MAC 地址（没有为空）
parse_neigh() {
    local -a w=()
    local j
    NEIGH_STATE="" NEIGH_LLADDR=""
    read -r -a w <<<"$1" || true
    ((${#w[@]} > 0)) || return 0
    NEIGH_STATE=${w[-1]}
    for ((j = 0; j < ${#w[@]}; j++)); do
        if [[ ${w[j]} == lladdr ]]; then NEIGH_LLADDR=${w[j + 1]:-}; fi
    done
    return 0
}

# 本机的 “设备/端口” 在哪些网卡上（GID 表的 ndevs，GID 表为空时问 rdma link show），
# 结果在 KEY_NDEVS（空格分隔，不知道为空）。需要先 gr_scan_all。
key_netdevs() {
    local key=$1 k rl
    local -A seen=()
    KEY_NDEVS=""
    for k in "${!PG_IDX[@]}"; do
        if [[ ${PG_DEV[k]}/${PG_PORT[k]} == "$key" && -n ${PG_NDEV[k]} && -z ${seen[${PG_NDEV[k]}]:-} ]]; then
            seen[${PG_NDEV[k]}]=1
            KEY_NDEVS+="${KEY_NDEVS:+ }${PG_NDEV[k]}"
        fi
    done
    if [[ -z $KEY_NDEVS ]] && have rdma; then
        rl=$("$CMD_PATH" link show "$key" 2>/dev/null)
        if [[ $rl =~ netdev[[:space:]]+([^[:space:]]+) ]]; then KEY_NDEVS=${BASH_REMATCH[1]}; fi
    fi
    return 0
}

# 没被占用的 rxe 设备名（rxe0、rxe1……），结果在 FREE_RXE
free_rxe_name() {
    local n=0
    while [[ -e $SYSFS_ROOT/rxe$n ]]; do n=$((n + 1)); done
    FREE_RXE=rxe$n
}

# 一个本机地址的 CIDR（找不到为 地址/<前缀>），结果在 ADDR_CIDR
addr_cidr() {
    local ip=$1 ifname=$2 a
    ADDR_CIDR=$"$ip/<前缀>"
    [[ -n $ifname ]] || return 0
    netdev_ipv4 "$ifname"
    for a in "${NET_V4[@]}"; do
        if [[ ${a%/*} == "$ip" ]]; then ADDR_CIDR=$a; fi
    done
    return 0
}

# 路由: 出口网卡和源地址；对端地址是本机的 → 单机实验 或 重复地址
check_peer_route() {
    local owner="" k cidr
    if ! have ip; then
        fail $"没有 ip 命令，无法查询去往 $PEER_IP 的路由"
        fix "sudo apt-get install iproute2"
        gr_scan_all "$SYSFS_ROOT"
        PP_MODE=none
        return 0
    fi
    GR_IP_CMD=$CMD_PATH
    gr_peer_path "$SYSFS_ROOT" "$PEER_IP"
    if ((PP_OWNER >= 0)); then
        k=$PP_OWNER
        owner=$"${PG_DEV[k]} 端口${PG_PORT[k]} 的 GID 索引 ${PG_IDX[k]}"
    fi
    case $PP_MODE in
        none)
            fail $"没有去往 $PEER_IP 的路由: $RT_ERR"
            note $"证据: $RT_CMD"
            note $"本机没有哪块网卡的网段包含 $PEER_IP，也没有能到它的网关；或者 IP 写错了"
            fix $"sudo ip addr add <与 $PEER_IP 同网段的地址>/24 dev <网卡名>  # 或加路由: sudo ip route add $PEER_IP via <网关>"
            ;;
        route)
            PEER_PATH_OK=1
            pass $"路由: 去往 $PEER_IP 走网卡 $PP_DEV，源地址 ${PP_SRC:-（没有）}${PP_VIA:+，经网关 $PP_VIA}"
            note $"证据: $RT_CMD → $RT_LINE"
            ;;
        single)
            PEER_PATH_OK=1
            pass $"单机实验: $PEER_IP 是本机网卡 ${PP_OWNER_NDEV:-?}（${owner:-不是 RDMA 设备的地址}）的地址，本机的 ${PG_DEV[PP_MATCH]} 经网卡 $PP_DEV（源地址 $PP_SRC）通往它"
            note $"证据: $PP_ROUTE_CMD → $PP_ROUTE_LINE"
            note $"证据: $RT_CMD → $RT_LINE（策略路由）"
            note $"这是在一台机器上用两块网卡模拟两台主机（本项目的 qemu 实验室就是这样），不是错误；"
            note $"下面按 $PP_SRC → $PEER_IP 这条路检查。真有两台机器时，对端地址不应该是本机的。"
            ;;
        local)
            fail $"$PEER_IP 是本机自己的地址（内核路由答 local … dev lo），报文根本不会离开这台机器"
            note $"证据: $RT_CMD → $RT_LINE"
            if [[ -n $owner ]]; then note $"这个地址在本机网卡 $PP_OWNER_NDEV 上（$owner）"; fi
            note $"常见原因 1: 克隆的虚拟机保留了同一个静态 IP —— 两台机器地址相同，各自都以为对端就是自己"
            note $"常见原因 2: VirtualBox 的 NAT 网卡给每台虚拟机都分配 10.0.2.15，虚拟机之间不能经 NAT 网卡互通；"
            note $"           给两台虚拟机各加一块仅主机 (host-only) 或内部网络网卡，rxe 建在那块网卡上，用它的地址"
            if [[ $PEER_IP == 10.0.2.15 ]]; then note $"（$PEER_IP 正是 VirtualBox NAT 给每台虚拟机的默认地址）"; fi
            note $"如果你是有意在同一台机器上做回环自测（服务端和客户端用同一个 RDMA 设备），可以忽略这一项"
            addr_cidr "$PEER_IP" "$PP_OWNER_NDEV"
            cidr=$ADDR_CIDR
            fix $"在其中一台机器上换一个不重复的地址: sudo ip addr del $cidr dev ${PP_OWNER_NDEV:-<网卡名>} && sudo ip addr add <新地址>/${cidr#*/} dev ${PP_OWNER_NDEV:-<网卡名>}"
            ;;
    esac
}

# 通往对端的源地址不在出口网卡上任何 RDMA 设备的 GID 表里: librdmacm 会怎么报（规则见第 8 节 check_cm_addr）
cm_enodev_note() {
    [[ -n $PP_SRC ]] || return 0
    note $"librdmacm（rping、--cm 模式）在这里报 ENODEV: rdma_resolve_addr 之后 RDMA_CM_EVENT_ADDR_ERROR status -19；带源地址时 rdma_resolve_addr/rdma_bind_addr($PP_SRC) 直接返回 ENODEV（详见 --cm-addr $PP_SRC）"
}

# 出口网卡上的 ACTIVE RDMA 设备，和地址为源地址的 RoCE v2 GID
check_peer_rdma_device() {
    local k key state on_dev="" auto
    if ((PP_MATCH >= 0)); then
        k=$PP_MATCH
        key=${PG_DEV[k]}/${PG_PORT[k]}
        read_line "$SYSFS_ROOT/${PG_DEV[k]}/ports/${PG_PORT[k]}/state"
        state=$LINE
        if [[ $state != *ACTIVE* ]]; then
            fail $"${PG_DEV[k]} 端口${PG_PORT[k]} 在网卡 $PP_DEV 上，但端口不是 ACTIVE（状态 ${state:-未知}）"
            fix "sudo ip link set $PP_DEV up"
            return 0
        fi
        PEER_DEV=${PG_DEV[k]} PEER_PORT=${PG_PORT[k]} PEER_IDX=${PG_IDX[k]}
        pass $"通往 $PEER_IP 的 RDMA 设备: $PEER_DEV 端口$PEER_PORT（网卡 $PP_DEV，$state），RoCE v2 GID 索引 $PEER_IDX = ${PG_GID[k]} ($PP_SRC) → 客户端用 -d $PEER_DEV -g $PEER_IDX"
        gr_scan_port "$SYSFS_ROOT/$PEER_DEV/ports/$PEER_PORT"
        if ((GT_BEST >= 0)) && [[ ${GT_IDX[GT_BEST]} != "$PEER_IDX" ]]; then
            auto=${GT_IDX[GT_BEST]}
            note $"注意: 按自动选择规则（不带 -g）$PEER_DEV 会用索引 $auto（${GT_IPV4[GT_BEST]:-${GT_GID[GT_BEST]}}），通往 $PEER_IP 要用 -g $PEER_IDX"
        fi
        return 0
    fi
    # 出口网卡上有设备，但没有带源地址的 RoCE v2 GID？
    for key in "${PG_PORTS[@]}"; do
        key_netdevs "$key"
        if [[ " $KEY_NDEVS " == *" $PP_DEV "* ]]; then
            on_dev=$key
            break
        fi
    done
    if [[ -n $on_dev ]]; then
        fail $"${on_dev%/*} 端口${on_dev#*/} 建在网卡 $PP_DEV 上，但没有地址为 ${PP_SRC:-（路由没给出源地址）} 的 RoCE v2 GID"
        note $"证据: ./show_gids.sh ${on_dev%/*} ${on_dev#*/}"
        cm_enodev_note
        if [[ -z $PP_SRC ]]; then
            fix $"sudo ip addr add <IP地址>/24 dev $PP_DEV"
        else
            fix "sudo rdma link delete ${on_dev%/*} && sudo rdma link add ${on_dev%/*} type rxe netdev $PP_DEV"
        fi
        return 0
    fi
    free_rxe_name
    fail $"没有建在网卡 $PP_DEV 上的 RDMA 设备: 去往 $PEER_IP 的报文从 $PP_DEV 发出，RDMA 设备必须建在 $PP_DEV 上"
    if ((${#PG_PORTS[@]} == 0)); then
        note $"本机没有任何 RDMA 设备"
    else
        note $"现有 RDMA 设备都在别的网卡上（见下一项）"
    fi
    cm_enodev_note
    fix "sudo rdma link add $FREE_RXE type rxe netdev $PP_DEV"
    rxe_not_persistent "$FREE_RXE" "$PP_DEV"
}

# 建在不通往对端的网卡上的 RDMA 设备（“选错网卡”的陷阱）
check_peer_wrong_nic() {
    local key dev port n_wrong=0 owner_key=""
    if ((PP_OWNER >= 0)); then owner_key=${PG_DEV[PP_OWNER]}/${PG_PORT[PP_OWNER]}; fi
    for key in "${PG_PORTS[@]}"; do
        dev=${key%/*} port=${key#*/}
        key_netdevs "$key"
        [[ -n $KEY_NDEVS ]] || continue
        [[ " $KEY_NDEVS " != *" $PP_DEV "* ]] || continue
        if [[ $PP_MODE == single && $key == "$owner_key" ]]; then
            note $"$dev 端口$port（网卡 $KEY_NDEVS）是 $PEER_IP 自己的设备，即单机实验里服务端的那一端"
            continue
        fi
        n_wrong=$((n_wrong + 1))
        warn $"$dev 端口$port 建在网卡 $KEY_NDEVS 上，这块网卡不通往 $PEER_IP（路由走 $PP_DEV）"
        note $"用 $dev 的程序连不上 $PEER_IP: RoCE 报文会从 $KEY_NDEVS 发出，QP 进入 RTR/RTS 后超时 (errno=110)"
        if [[ -n $PEER_DEV ]]; then
            note $"程序必须用另一个设备: -d $PEER_DEV（建在 $PP_DEV 上），不要用 $dev"
            fix $"运行程序时加 -d $PEER_DEV"
        else
            note $"先让 $PP_DEV 上有可用的 RDMA 设备（见上一项的修复），然后程序用 -d 指定它，不要用 $dev"
        fi
    done
    if ((n_wrong == 0 && ${#PG_PORTS[@]} > 0)); then
        pass $"没有建在别的网卡上的 RDMA 设备（不会误用不通往 $PEER_IP 的设备）"
    fi
}

# 找 ping；busybox 的 ping 也行（但它不支持 -M do）
find_ping() {
    PING_CMD=() PING_KIND=""
    if have ping; then
        PING_CMD=("$CMD_PATH") PING_KIND=ping
    elif have busybox; then
        PING_CMD=("$CMD_PATH" ping) PING_KIND=busybox
    fi
}

# ping_peer 额外参数… —— 有界的 ping（-c 1/2 -W 1），源地址固定为路径的源地址；
# 退出码是 ping 的，输出最后一行在 PING_LAST
ping_peer() {
    local out rc=0
    local -a src=()
    if [[ -n $PP_SRC ]]; then src=(-I "$PP_SRC"); fi
    out=$("${PING_CMD[@]}" "$@" -W 1 "${src[@]}" "$PEER_IP" 2>&1) || rc=$?
    PING_LAST=${out##*$'\n'}
    PING_SHOWN="ping $* -W 1 ${src[*]}${src[*]:+ }$PEER_IP"
    return "$rc"
}

check_peer_ping() {
    find_ping
    if [[ -z $PING_KIND ]]; then
        skip $"没有 ping 命令，跳过连通性检查"
        fix "sudo apt-get install iputils-ping"
        return 0
    fi
    if ping_peer -c 2; then
        PEER_PING_OK=1
        pass $"ping $PEER_IP 通（$PING_SHOWN）"
        return 0
    fi
    fail $"ping $PEER_IP 不通（$PING_SHOWN）"
    note $"证据: ${PING_LAST:-没有输出}"
    note $"可能原因: 路由不对（见上面的路由）、对端或中间的防火墙丢弃 ICMP、IP 写错了或对端没开机"
    note $"ping 不通不一定说明 RoCE 不通（有的网络只挡 ICMP），但多数情况下是两台机器之间的路径有问题"
    fix $"确认对端地址（在对端运行 ip -4 addr）和路由（ip route get $PEER_IP），检查两端防火墙是否放行 ICMP 和 UDP $ROCE_UDP_PORT"
}

# 邻居 (ARP): 对端（同网段）或网关
check_peer_neigh() {
    local target=${PP_VIA:-$PEER_IP} out
    have ip || return 0
    out=$("$CMD_PATH" neigh show "$target" dev "$PP_DEV" 2>/dev/null)
    out=${out%%$'\n'*}
    out=${out%"${out##*[![:space:]]}"}
    parse_neigh "$out"
    case $NEIGH_STATE in
        "")
            skip $"邻居表里没有 $target（网卡 $PP_DEV）的表项${PEER_PING_OK:+（点对点/NOARP 网卡没有 ARP）}"
            ;;
        FAILED | INCOMPLETE)
            fail $"邻居 (ARP): 解析不到 $target 的 MAC 地址（$NEIGH_STATE），二层不通"
            note $"证据: ip neigh show $target dev $PP_DEV → $out"
            note $"对端${PP_VIA:+（这里是网关 $PP_VIA）}不在 $PP_DEV 所在的二层网段（两台虚拟机的网卡接在不同的虚拟网络上？）、没开机，或者 IP 写错了"
            fix $"确认两台机器的网卡接在同一个网络（同一个交换机/虚拟网络）后: sudo ip neigh flush dev $PP_DEV && ping -c 1 $target"
            ;;
        *)
            pass $"邻居 (ARP): $target 在网卡 $PP_DEV 上是 $NEIGH_STATE${NEIGH_LLADDR:+（MAC $NEIGH_LLADDR）}"
            ;;
    esac
}

# 路径 MTU: 满负载的 RoCE 报文（不能分片）能不能到对端
check_peer_path_mtu() {
    local active="" nmtu size m fits="" evidence
    if [[ -n $PEER_DEV ]]; then
        load_devinfo
        active=${DEVINFO_MTU[$PEER_DEV/$PEER_PORT]:-}
    fi
    if [[ -z $active && -e $NET_SYSFS/$PP_DEV/mtu ]]; then
        read_line "$NET_SYSFS/$PP_DEV/mtu"
        nmtu=$LINE
        if [[ $nmtu =~ ^[0-9]+$ ]]; then
            ib_mtu_for "$nmtu"
            active=$IB_MTU
        fi
    fi
    if [[ -z $active ]]; then
        skip $"不知道 active_mtu（没有 ibv_devinfo，也读不到网卡 $PP_DEV 的 MTU），跳过路径 MTU 检查"
        return 0
    fi
    size=$((active + ROCE_IP_OVERHEAD - PING_OVERHEAD))
    if [[ $PING_KIND == busybox ]]; then
        skip $"busybox 的 ping 不支持 -M do，跳过路径 MTU 检查；装 iputils-ping 后手动: ping -M do -s $size -c 1 $PEER_IP"
        return 0
    elif [[ $PING_KIND != ping ]]; then
        skip $"没有 ping，跳过路径 MTU 检查；手动: ping -M do -s $size -c 1 $PEER_IP"
        return 0
    fi
    if [[ -z $PEER_PING_OK ]]; then
        skip $"小包 ping 都不通，跳过路径 MTU 检查"
        return 0
    fi
    if ping_peer -M "do" -s "$size" -c 1; then
        pass $"路径 MTU: $((size + PING_OVERHEAD)) 字节的 IP 包不分片能到 $PEER_IP（active_mtu $active + $ROCE_IP_OVERHEAD 字节 RoCE 头部）"
        return 0
    fi
    evidence=$PING_LAST
    for m in 2048 1024 512 256; do
        ((m < active)) || continue
        if ping_peer -M "do" -s $((m + ROCE_IP_OVERHEAD - PING_OVERHEAD)) -c 1; then
            fits=$m
            break
        fi
    done
    fail $"路径 MTU 太小: $((size + PING_OVERHEAD)) 字节的 IP 包到不了 $PEER_IP，小包能到（ping -M do -s $size 失败）"
    note $"证据: ${evidence:-没有输出}"
    note $"RoCE 报文不能分片: 负载 active_mtu $active 的报文 = IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + $active + ICRC 4 = $((active + ROCE_IP_OVERHEAD)) 字节，"
    note $"路径上 MTU 更小的一跳（隧道/VPN/虚拟交换机）会把它丢掉: 小消息能通，大消息重传到超时"
    if [[ -n $fits ]]; then
        note $"能通过的最大 RoCE MTU 是 $fits（$((fits + ROCE_IP_OVERHEAD)) 字节的 IP 包能到）"
        note $"网卡 MTU 在 $((fits + RXE_HDR_BYTES))..$((2 * fits + RXE_HDR_BYTES - 1)) 之间时 rxe 的 active_mtu 是 $fits（两端的程序取较小的一端）"
        fix $"sudo ip link set $PP_DEV mtu $((fits + RXE_HDR_BYTES))  # 对端的网卡也一样；rxe 的 active_mtu 随之变成 $fits"
    else
        note $"连 256 字节负载的 RoCE 报文（$((256 + ROCE_IP_OVERHEAD)) 字节的 IP 包）都到不了"
        fix $"检查两端之间的隧道/VPN/虚拟交换机的 MTU (tracepath $PEER_IP)"
    fi
}

# 出方向的防火墙（入方向和 firewalld 见第 6 节）；只查管事的那一个（fw_in_charge）
check_peer_firewall() {
    local t
    local -a tools=()
    for t in nft iptables ufw firewall-cmd; do
        if have_fw "$t"; then tools+=("$t"); fi
    done
    if ((${#tools[@]} == 0)); then
        skip $"没有 nft/iptables/ufw/firewall-cmd，跳过防火墙检查"
        return 0
    fi
    if ((EUID != 0)); then
        fw_need_root "${tools[*]}"
        return 0
    fi
    note $"RoCE v2 两个方向的报文都发往 UDP $ROCE_UDP_PORT；这里查出方向，入方向见第 6 节"
    fw_in_charge
    case $FW_BOSS in
        ufw) check_out_ufw ;;
        firewalld) pass $"firewalld 默认放行发出去的报文（出方向不查；入方向见第 6 节）" ;;
        *)
            for t in "${tools[@]}"; do
                case $t in
                    nft) check_out_nft ;;
                    iptables) fw_iptables_is_nft || check_out_iptables ;;
                    ufw) ;;
                    firewall-cmd) pass $"firewalld 没有运行" ;;
                esac
            done
            ;;
    esac
}

check_out_nft() {
    local rules found fam tb chn
    rules=$(nft list ruleset 2>&1) || { fw_unread "nft list ruleset" "$?" "$rules"; return 0; }
    found=$(fw_parse_nft "$rules")
    if fw_first_drop "$found" 4; then
        note $"nft 丢弃 UDP $ROCE_UDP_PORT 的规则已在第 6 节报告"
    elif fw_first "$found" "policy out " && ! fw_first "$found" "accept out "; then
        # 上面的 fw_first "accept out " 没找到时把 FW_LINE 清空了：再取一次 policy 那一行
        fw_first "$found" "policy out "
        read -r _ _ fam tb chn _ <<<"$FW_LINE"
        warn $"nft 的 output 链 ($fam $tb $chn) 默认策略是 drop，且没有放行发往 UDP $ROCE_UDP_PORT 的规则"
        fix "sudo nft insert rule $fam $tb $chn udp dport $ROCE_UDP_PORT accept"
    else
        pass $"nft 出方向没有拦截 UDP $ROCE_UDP_PORT"
    fi
}

check_out_iptables() {
    local rules found
    rules=$(iptables -S OUTPUT 2>&1) || { fw_unread "iptables -S OUTPUT" "$?" "$rules"; return 0; }
    found=$(fw_parse_iptables "$rules")
    if fw_first_drop "$found" 2 out; then
        fail $"iptables OUTPUT 链丢弃/拒绝了发往 UDP $ROCE_UDP_PORT 的报文（出方向）"
        note $"证据: ${FW_LINE#drop out OUTPUT }"
        fix "sudo iptables -I OUTPUT -p udp --dport $ROCE_UDP_PORT -j ACCEPT"
    elif fw_first "$found" "policy out " && ! fw_first "$found" "accept out "; then
        warn $"iptables OUTPUT 默认策略是 DROP，且没有放行发往 UDP $ROCE_UDP_PORT 的规则"
        fix "sudo iptables -I OUTPUT -p udp --dport $ROCE_UDP_PORT -j ACCEPT"
    else
        pass $"iptables OUTPUT 链没有拦截 UDP $ROCE_UDP_PORT"
    fi
}

check_out_ufw() {
    local rules found
    rules=$(ufw status verbose 2>&1) || { fw_unread "ufw status verbose" "$?" "$rules"; return 0; }
    found=$(fw_parse_ufw "$rules")
    if fw_first_drop "$found" 1 out; then
        fail $"ufw 的规则拦截了发往 UDP $ROCE_UDP_PORT 的报文（出方向）"
        note $"证据: ${FW_LINE#drop out }"
        fix "sudo ufw allow out $ROCE_UDP_PORT/udp"
    elif fw_first "$found" "policy out " && ! fw_first "$found" "accept out "; then
        warn $"ufw 出方向默认拒绝，且没有放行发往 UDP $ROCE_UDP_PORT 的规则"
        fix "sudo ufw allow out $ROCE_UDP_PORT/udp"
    else
        pass $"ufw 出方向没有拦截 UDP $ROCE_UDP_PORT"
    fi
}

check_peer() {
    check_peer_route
    if [[ -n $PEER_PATH_OK ]]; then
        check_peer_rdma_device
        check_peer_wrong_nic
        check_peer_ping
        check_peer_neigh
        check_peer_path_mtu
    else
        skip $"RDMA 设备、ping、邻居 (ARP)、路径 MTU: 先解决上面的路由问题"
    fi
    check_peer_firewall
}

# =====================================================================
# 8. RDMA CM 地址（--cm-addr IP）: rdma_bind_addr 按源地址选设备的规则
# =====================================================================
# 内核 drivers/infiniband/core/cma.c（6.1）: rdma_bind_addr(id, IP)
#   1. cma_translate_addr → rdma_translate_ip: 找到地址 IP 所在的网卡；本机没有这个地址 → -EADDRNOTAVAIL (99)
#   2. cma_acquire_dev_by_src_ip: 逐个 RDMA 设备/端口调 cma_validate_port → rdma_find_gid_by_port，
#      找 GID = ::ffff:IP、类型 = 端口的默认类型（RoCE 是 RoCE v2）、网卡 = 第 1 步的网卡 的条目；
#      一个都没有 → -ENODEV (19)。端口状态不看。
# rdma_resolve_addr(src=IP) 和 rdma_listen 先做同样的 bind，所以同样失败；不给源地址时按路由得到源地址，
# 在 RDMA_CM_EVENT_ADDR_ERROR 里报 status -19。实测见 docs/dev/cm-facts/FACTS.md A.1。
# 0.0.0.0 和 127.0.0.0/8 不选设备（cma_any_addr），bind 成功，id->verbs 为 NULL。
# 结果: CMA_OWNER（地址所在的网卡）、CMA_MATCH（PG 下标，-1 = 没有）

# 地址所在的网卡（ip -4 -o addr show 的缓存），结果在 CMA_OWNER（没有为空）
addr_owner() {
    local ip=$1 line
    CMA_OWNER=""
    netdev_ipv4 lo
    while read -r line; do
        if [[ $line =~ ^[0-9]+:[[:space:]]+([^[:space:]]+)[[:space:]]+inet[[:space:]]+([0-9.]+)/ ]] &&
            [[ ${BASH_REMATCH[2]} == "$ip" ]]; then
            CMA_OWNER=${BASH_REMATCH[1]}
            return 0
        fi
    done <<<"$ALL_V4"
    return 0
}

check_cm_addr() {
    local ip=$CM_ADDR k key others="" other_types=""
    CMA_OWNER="" CMA_MATCH=-1
    if [[ $ip == 0.0.0.0 || $ip == 127.* ]]; then
        pass $"$ip 是通配/回环地址: rdma_bind_addr 成功但不选 RDMA 设备（id->verbs 为 NULL，实测）"
        note $"rdma_listen 在这种地址上监听所有 RDMA 设备，每个连接请求的新 id 用收到请求的那个设备；要固定设备就绑定 RDMA 网卡上的地址"
        return 0
    fi
    if ! have ip; then
        skip $"没有 ip 命令，查不到 $ip 在哪块网卡上"
        fix "sudo apt-get install iproute2"
        return 0
    fi
    addr_owner "$ip"
    gr_scan_all "$SYSFS_ROOT"
    if [[ -z $CMA_OWNER ]]; then
        fail $"本机没有哪块网卡有地址 $ip: rdma_bind_addr($ip) 会失败，errno 99 (EADDRNOTAVAIL, Cannot assign requested address)，不是 ENODEV"
        note $"证据: ip -4 -o addr show 里没有 $ip"
        note $"rdma_listen 绑在它上面、rdma_resolve_addr 用它做源地址，也是同一个错误；地址写错了，或者是对端的地址"
        fix $"用本机 RDMA 网卡上的地址（ip -4 -o addr show；./show_gids.sh 的 IPv4 列）"
        return 0
    fi
    gr_find_v4 "$CMA_OWNER" "$ip"
    CMA_MATCH=$GR_MATCH
    if ((CMA_MATCH >= 0)); then
        k=$CMA_MATCH
        pass $"rdma_bind_addr($ip) 会选 ${PG_DEV[k]} 端口${PG_PORT[k]}: 地址在网卡 $CMA_OWNER 上，RoCE v2 GID 索引 ${PG_IDX[k]} = ${PG_GID[k]}"
        note $"rdma_resolve_addr(src=$ip) 和绑在 $ip 上的 rdma_listen 也用这个设备（librdmacm 里 id->verbs 就是它）"
        return 0
    fi
    # 没有匹配: 找出同一地址的别的条目（类型不是 RoCE v2 / 网卡不同）和现有设备在哪些网卡上
    for k in "${!PG_IDX[@]}"; do
        if [[ ${PG_IPV4[k]} == "$ip" ]]; then
            other_types+=$"${other_types:+；}${PG_DEV[k]} 端口${PG_PORT[k]} 索引 ${PG_IDX[k]}（${PG_TYPE[k]:-类型未知}，网卡 ${PG_NDEV[k]:-?}）"
        fi
    done
    for key in "${PG_PORTS[@]}"; do
        key_netdevs "$key"
        others+=$"${others:+、}${key%/*} 端口${key#*/}（网卡 ${KEY_NDEVS:-?}）"
    done
    fail $"$ip 在网卡 $CMA_OWNER 上，但没有哪个 RDMA 设备的 GID 表里有它: rdma_bind_addr($ip) 会失败，errno 19 (ENODEV, No such device)"
    note $"原因链（内核 drivers/infiniband/core/cma.c）: rdma_bind_addr → cma_translate_addr 找到地址所在的网卡 $CMA_OWNER →"
    note $"  cma_acquire_dev_by_src_ip 在每个 RDMA 设备/端口的 GID 表里找 ::ffff:$ip（类型 RoCE v2、网卡 $CMA_OWNER）→ 一个都没有 → -ENODEV"
    note $"同一个原因: rdma_listen 绑在 $ip、rdma_resolve_addr(src=$ip) 立刻返回 ENODEV；不给源地址而路由走 $CMA_OWNER 时，rdma_resolve_addr 之后收到 RDMA_CM_EVENT_ADDR_ERROR，status -19"
    if [[ -n $other_types ]]; then
        note $"GID 表里有这个地址，但不符合条件: $other_types（rdma_cm 对 RoCE 默认用 RoCE v2，网卡也必须是 $CMA_OWNER）"
    fi
    if [[ -n $others ]]; then
        note $"现有 RDMA 设备: $others —— 没有一个建在 $CMA_OWNER 上并带着这个地址"
    else
        note $"本机没有任何 RDMA 设备"
    fi
    if [[ " ${PG_NDEV[*]} " == *" $CMA_OWNER "* ]]; then
        for key in "${PG_PORTS[@]}"; do
            key_netdevs "$key"
            if [[ " $KEY_NDEVS " == *" $CMA_OWNER "* ]]; then
                fix $"sudo rdma link delete ${key%/*} && sudo rdma link add ${key%/*} type rxe netdev $CMA_OWNER  # 重建后 GID 表按网卡现在的地址生成"
                return 0
            fi
        done
    fi
    free_rxe_name
    fix $"sudo rdma link add $FREE_RXE type rxe netdev $CMA_OWNER  # 或者让程序改用已有 RDMA 设备所在网卡的地址"
    return 0
}

# =====================================================================
# 总结
# =====================================================================
print_summary() {
    local f n=0
    echo
    echo $"========== 总结 =========="
    echo $"通过: $N_PASS  警告: $N_WARN  失败: $N_FAIL  跳过: $N_SKIP"
    if ((${#FIXES[@]} > 0)); then
        echo $"建议按顺序执行的修复:"
        for f in "${FIXES[@]}"; do
            n=$((n + 1))
            echo "  $n. $f"
        done
    fi
    if ((${#OPTFIXES[@]} > 0)); then
        echo $"可选（README 的例子用不到）:"
        for f in "${OPTFIXES[@]}"; do
            echo "  - $f"
        done
    fi
    if ((N_FAIL > 0)); then
        echo $"结论: 发现 $N_FAIL 个问题，请按上面的顺序修复后重新运行 ./$PROG"
        return 1
    fi
    # 跳过的项没有检查过（例如普通用户读不了防火墙）：不能说“全部通过”
    if ((N_WARN > 0 && N_SKIP > 0)); then
        echo $"结论: 没有发现阻塞性问题（有 $N_WARN 个警告；$N_SKIP 项没有检查，见上面的 [跳过]）"
    elif ((N_WARN > 0)); then
        echo $"结论: 没有发现阻塞性问题（有 $N_WARN 个警告）"
    elif ((N_SKIP > 0)); then
        echo $"结论: 检查了的项都通过；$N_SKIP 项没有检查（见上面的 [跳过]），不算全部通过"
    else
        echo $"结论: 全部检查通过"
    fi
    return 0
}

main() {
    local dev
    parse_args "$@"
    echo $"RoCEv2 环境诊断  (sysfs: $SYSFS_ROOT, TCP 端口: $TCP_PORT${PEER_IP:+, 对端: $PEER_IP}${CM_ADDR:+, CM 地址: $CM_ADDR})"

    section $"1. 工具"
    check_tools

    section $"2. RDMA 设备"
    list_rdma_devices
    check_rdma_devices
    check_uverbs
    check_rdma_cm

    # 3. 每个设备/端口（每个端口一节）
    for dev in "${devs[@]}"; do
        check_device "$dev"
    done

    section $"4. 锁定内存限制 (ulimit -l)"
    check_memlock

    section $"5. TCP 端口 $TCP_PORT（交换连接信息）"
    check_tcp_port

    section $"6. 防火墙 (RoCE v2 使用 UDP $ROCE_UDP_PORT)"
    check_firewall_udp_4791

    if [[ -n $PEER_IP ]]; then
        section $"7. 对端 $PEER_IP（--peer: 从本机通往它的路径）"
        check_peer
    fi

    if [[ -n $CM_ADDR ]]; then
        section $"8. RDMA CM 地址 $CM_ADDR（--cm-addr: librdmacm 用它做源地址时选哪个 RDMA 设备）"
        check_cm_addr
    fi

    print_summary
}

# source 本脚本（单元测试调用纯函数）时不运行 main
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
    exit $?
fi
