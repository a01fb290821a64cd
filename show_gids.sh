#!/usr/bin/env bash
# show_gids.sh —— 列出 RDMA 设备的 GID 表（类似 Mellanox 的 show_gids）
#
# 只读 sysfs，不需要 root，也不需要 OFED。
# 每一行: 设备 端口 索引 GID IPv4 版本(v1/v2) 网卡
# 并标出本项目程序在每个端口上会“自动选择”的 GID 索引，告诉你该传哪个 -g N。
#
# --peer IP 时再标出客户端通往 IP 会用的条目（路由的出口网卡 + 源地址 → 那个地址的 RoCE v2 GID）。
#
# 自动选择规则和“通往对端”的规则（必须与 C 程序保持一致）在 scripts/gid_rule.sh，
# diagnose.sh 用的是同一份:
#   只看非空条目; 得分 = (类型为 "RoCE v2" ? 4 : 0)
#                      + (IPv4 映射地址 ? 2 : (不是链路本地 fe80::/10 ? 1 : 0))
#   得分最高者胜出; 同分取索引最小的。
#
# 注意: 在 qemu/TCG 实验环境里 fork 很慢，rxe 的 GID 表有 1024 个槽位，
# 所以逐槽位的循环里只用 bash 内建命令（read、glob、[[ ]]、算术），不启动子进程。
#
# 界面语言: 默认中文；--lang en 或 LANG=en_US.UTF-8 等时英文（做法同 diagnose.sh，见下面“界面语言”一段，
# 译文在 po/sh/en.po）。表头和 n_gids_found=N 两种语言都一样。
#
# 环境变量 RDMA_SYSFS_ROOT 可以指向一个伪造的 sysfs 目录（单元测试用），
# 默认 /sys/class/infiniband。

set -euo pipefail

SYSFS_ROOT=${RDMA_SYSFS_ROOT:-/sys/class/infiniband}
PROG=${0##*/}

# ---------- 共享的 GID 规则（scripts/gid_rule.sh）----------
SCRIPT_SRC=${BASH_SOURCE[0]}
# 经符号链接调用时找到真正的脚本位置（只在是链接时才 fork readlink）
if [[ -L $SCRIPT_SRC ]]; then SCRIPT_SRC=$(readlink -f "$SCRIPT_SRC"); fi
SCRIPT_DIR=.
if [[ $SCRIPT_SRC == */* ]]; then SCRIPT_DIR=${SCRIPT_SRC%/*}; fi
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

# shellcheck disable=SC1111  # 正文里的中文引号“”
usage() {
    printf '%s\n' $"用法: $PROG [-h|--help] [--lang zh|en] [--peer IP] [设备 [端口]]

列出 RDMA 设备的 GID 表（只读 sysfs: $SYSFS_ROOT）。
  设备     只显示这个设备，例如 rxe0
  端口     只显示这个端口，例如 1（需要同时给出设备）
  --peer IP   再标出客户端通往对端 IPv4 地址 IP 会用的条目（\"<== 通往 IP\"）:
              ip route get IP 给出出口网卡和源地址，要用的是那块网卡上、地址为源地址的
              RoCE v2 GID（-d 设备 -g 索引）；没有这样的条目时明确说出来
  --lang zh|en  输出用哪种语言（默认看 LANGUAGE、LC_ALL、LC_MESSAGES、LANG: en 开头是英文，其它都是中文）
  -h, --help  显示本帮助

输出列: DEV PORT INDEX GID IPv4 VER DEV
  - 只列出非空（不全为 0）的 GID 条目
  - IPv4 列: GID 是 IPv4 映射地址 (::ffff:a.b.c.d) 时显示点分十进制
  - VER 列: v2 = RoCE v2, v1 = IB/RoCE v1
  - \"<== 自动选择\" 标出程序不带 -g 时会用的条目
  - \"<== 通往 IP\" 标出 --peer IP 时通往 IP 要用的条目
表格之后每个端口一行“自动选择”说明（--peer 时再加一行“通往 IP”说明），最后一行 n_gids_found=N。

退出码: 0 正常; 1 没有 RDMA 设备 / 设备或端口不存在; 2 用法错误"
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

# ---------- 参数 ----------
want_dev=""
want_port=""
peer=""
positional=()
while (($# > 0)); do
    case $1 in
        -h | --help)
            usage
            exit 0
            ;;
        --peer)
            (($# >= 2)) || die_usage $"--peer 需要对端的 IPv4 地址"
            peer=$2
            shift
            ;;
        --peer=*) peer=${1#--peer=} ;;
        --lang)
            (($# >= 2)) || die_usage $"--lang 需要 zh 或 en"
            check_lang_arg "$2"
            shift
            ;;
        --lang=*) check_lang_arg "${1#--lang=}" ;;
        --)
            shift
            positional+=("$@")
            break
            ;;
        -*) die_usage $"未知选项: $1" ;;
        *) positional+=("$1") ;;
    esac
    shift
done
if ((${#positional[@]} > 2)); then
    die_usage $"参数太多: ${positional[*]}"
fi
if ((${#positional[@]} >= 1)); then
    want_dev=${positional[0]}
fi
if ((${#positional[@]} == 2)); then
    want_port=${positional[1]}
    if ! [[ $want_port =~ ^[1-9][0-9]*$ ]]; then
        die_usage $"端口号必须是正整数: '$want_port'"
    fi
fi
if [[ $want_dev == */* || $want_dev == . || $want_dev == .. ]]; then
    die_usage $"设备名不合法: '$want_dev'"
fi
if [[ -n $peer ]]; then
    if ! [[ $peer =~ ^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$ ]] ||
        ((10#${BASH_REMATCH[1]} > 255 || 10#${BASH_REMATCH[2]} > 255 ||
            10#${BASH_REMATCH[3]} > 255 || 10#${BASH_REMATCH[4]} > 255)); then
        die_usage $"--peer 需要点分十进制的 IPv4 地址: '$peer'"
    fi
fi

# ---------- 找设备 ----------
no_device_hint() {
    printf '%s\n' $"错误: 没有找到任何 RDMA 设备（$SYSFS_ROOT 不存在或为空）。
  Soft-RoCE 的做法:
    sudo modprobe rdma_rxe
    sudo rdma link add rxe0 type rxe netdev <网卡名>    # 例如 eth0，用 'ip -br link' 查看
  然后再运行: ./$PROG
  更完整的检查请运行: ./diagnose.sh" >&2
}

all_devs=()
if [[ -d $SYSFS_ROOT ]]; then
    for d in "$SYSFS_ROOT"/*; do
        if [[ -d $d ]]; then all_devs+=("${d##*/}"); fi
    done
fi
if ((${#all_devs[@]} == 0)); then
    no_device_hint
    exit 1
fi

devs=()
if [[ -n $want_dev ]]; then
    if [[ ! -d $SYSFS_ROOT/$want_dev ]]; then
        echo $"错误: 设备 '$want_dev' 不存在。现有的 RDMA 设备: ${all_devs[*]}" >&2
        exit 1
    fi
    devs=("$want_dev")
    if [[ -n $want_port && ! -d $SYSFS_ROOT/$want_dev/ports/$want_port ]]; then
        have_ports=""
        for p in "$SYSFS_ROOT/$want_dev"/ports/*; do
            if [[ -d $p ]]; then have_ports+=" ${p##*/}"; fi
        done
        echo $"错误: 设备 $want_dev 没有端口 $want_port。现有端口:${have_ports:- 无}" >&2
        exit 1
    fi
else
    devs=("${all_devs[@]}")
fi

# ---------- 工具函数（全部是内建命令，不 fork）----------

# 地址类型的中文说明（GR_ADDR_KIND / GR_IPV4 来自 gr_classify）
addr_desc() {
    case $1 in
        ipv4) ADDR_DESC="IPv4 $2" ;;
        linklocal) ADDR_DESC=$"链路本地 fe80::" ;;
        *) ADDR_DESC=$"IPv6 全局地址" ;;
    esac
}

print_row() {
    # DEV PORT INDEX GID IPv4 VER DEV [标记]
    local mark=${8:-}
    if [[ -n $mark ]]; then
        printf '%-7s %-7s %-7s %-39s %-15s %-7s %-7s %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$mark"
    else
        printf '%-7s %-7s %-7s %-39s %-15s %-7s %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7"
    fi
}

# ---------- --peer: 通往对端的条目（规则 2，scripts/gid_rule.sh）----------
# 结果: PEER_KEY = "设备 端口 索引"（没有匹配为空），PEER_OWNER_KEY 单机实验里对端自己的条目，
# PEER_LINE 表格后的说明行
PEER_KEY=""
PEER_OWNER_KEY=""
PEER_LINE=""
resolve_peer() {
    local k
    if ! command -v "${GR_IP_CMD:-ip}" >/dev/null 2>&1; then
        PEER_LINE=$"通往 $peer: 无法判断（没有 ip 命令，装 iproute2）"
        return 0
    fi
    gr_peer_path "$SYSFS_ROOT" "$peer"
    if ((PP_MATCH >= 0)); then
        k=$PP_MATCH
        PEER_KEY="${PG_DEV[k]} ${PG_PORT[k]} ${PG_IDX[k]}"
        PEER_LINE=$"通往 $peer: 路由走网卡 $PP_DEV，源地址 $PP_SRC → ${PG_DEV[k]} 端口${PG_PORT[k]} GID索引${PG_IDX[k]} (RoCE v2, IPv4 $PP_SRC)  用法: -d ${PG_DEV[k]} -g ${PG_IDX[k]}"
        if [[ $PP_MODE == single ]]; then
            PEER_LINE+=$"  （单机实验: $peer 是本机网卡 ${PP_OWNER_NDEV:-?} 的地址，策略路由让 $PP_SRC 经 $PP_DEV 通往它）"
            if ((PP_OWNER >= 0)); then
                k=$PP_OWNER
                PEER_OWNER_KEY="${PG_DEV[k]} ${PG_PORT[k]} ${PG_IDX[k]}"
            fi
        fi
        return 0
    fi
    case $PP_MODE in
        none)
            PEER_LINE=$"通往 $peer: 没有匹配的条目 —— 没有去往 $peer 的路由（$RT_ERR）。"
            ;;
        local)
            PEER_LINE=$"通往 $peer: 没有匹配的条目 —— $peer 是本机自己的地址（ip route get 答 local … dev lo），报文不会离开这台机器；"
            PEER_LINE+=$"两台机器的地址重复了吗（克隆的虚拟机、VirtualBox NAT 的 10.0.2.15）？"
            ;;
        *)
            PEER_LINE=$"通往 $peer: 没有匹配的条目 —— 路由走网卡 $PP_DEV，源地址 ${PP_SRC:-（没有）}，但没有哪个 RDMA 设备在 $PP_DEV 上有这个地址的 RoCE v2 GID"
            PEER_LINE+=$"（RDMA 设备要建在 $PP_DEV 上: sudo rdma link add rxeN type rxe netdev $PP_DEV）。"
            ;;
    esac
    PEER_LINE+=$"  详细检查: ./diagnose.sh --peer $peer"
    return 0
}
if [[ -n $peer ]]; then
    resolve_peer
fi

# ---------- 主循环 ----------
print_row DEV PORT INDEX GID IPv4 VER DEV
print_row --- ---- ----- --- ------------ --- ---

n_found=0
summary=()
port_seen=0

for dev in "${devs[@]}"; do
    dev_dir=$SYSFS_ROOT/$dev
    # 端口号按数字排序: 用稀疏数组的下标（bash 按升序遍历）
    port_set=()
    for p in "$dev_dir"/ports/*; do
        pn=${p##*/}
        if [[ $pn =~ ^(0|[1-9][0-9]*)$ ]]; then port_set[pn]=1; fi
    done
    if [[ -n $want_port ]]; then
        # 端口是否存在已在前面检查过
        port_set=()
        port_set[want_port]=1
    fi

    for port in "${!port_set[@]}"; do
        port_seen=$((port_seen + 1))
        # 读出本端口所有非空条目，并算出自动选择（gr_scan_port，规则见 scripts/gid_rule.sh）
        gr_scan_port "$dev_dir/ports/$port"

        for k in "${!GT_IDX[@]}"; do
            gr_type_label "${GT_TYPE[k]}"
            ver=$GR_TYPE_SHORT
            mark=""
            if ((k == GT_BEST)); then
                mark=$"<== 自动选择"
            fi
            if [[ -n $PEER_KEY && "$dev $port ${GT_IDX[k]}" == "$PEER_KEY" ]]; then
                mark+="${mark:+ }"$"<== 通往 $peer"
            elif [[ -n $PEER_OWNER_KEY && "$dev $port ${GT_IDX[k]}" == "$PEER_OWNER_KEY" ]]; then
                mark+="${mark:+ }"$"<== $peer 本身（单机实验的对端）"
            fi
            print_row "$dev" "$port" "${GT_IDX[k]}" "${GT_GID[k]}" "${GT_IPV4[k]}" \
                "$ver" "${GT_NDEV[k]}" "$mark"
        done
        n_found=$((n_found + ${#GT_IDX[@]}))

        if ((GT_BEST < 0)); then
            summary+=($"自动选择: $dev 端口$port → 无 (该端口没有有效的 GID: 绑定的网卡可能没有 UP 或没有 IP 地址，程序将无法建立连接；请运行 ./diagnose.sh $dev)")
        else
            k=$GT_BEST
            gr_type_label "${GT_TYPE[k]}"
            best_ver=$GR_TYPE_NAME
            addr_desc "${GT_KIND[k]}" "${GT_IPV4[k]}"
            line=$"自动选择: $dev 端口$port → GID索引${GT_IDX[k]} ($best_ver, $ADDR_DESC)  用法: -g ${GT_IDX[k]}"
            if ((GT_BEST_SCORE < 4)); then
                line+=$"  注意: 没有 RoCE v2 的 GID，只能用 RoCE v1"
            elif ((GT_BEST_SCORE < 6)); then
                line+=$"  注意: 没有 RoCE v2 的 IPv4 GID；给网卡配置 IPv4 地址后会出现 (::ffff:a.b.c.d)"
            fi
            summary+=("$line")
        fi
    done
done

if ((port_seen == 0)); then
    echo $"警告: 所选设备没有任何端口目录 (ports/*)" >&2
fi

echo
for line in "${summary[@]}"; do
    echo "$line"
done
if [[ -n $PEER_LINE ]]; then
    echo "$PEER_LINE"
fi
echo "n_gids_found=$n_found"
