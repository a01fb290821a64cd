# shellcheck shell=bash disable=SC2034  # GT_*、PP_* 等变量是给调用方的结果
# gid_rule.sh —— GID 选择规则的唯一 shell 实现，show_gids.sh 和 diagnose.sh 都 source 它。
#
# 规则必须与 C 程序一致（src/verbs/gid.c 的 gid_score / gid_choose / gid_find_ipv4，src/verbs/route_lookup.c）:
#
#   1. 自动选择（不带 -g）: 只看非空条目;
#        得分 = (类型为 "RoCE v2" ? 4 : 0)
#             + (IPv4 映射地址 ::ffff:a.b.c.d ? 2 : (不是链路本地 fe80::/10 ? 1 : 0))
#      得分最高者胜出; 同分取索引最小的。索引大于 255 的条目不选（sgid_index 只有 8 位，见 src/verbs/gid.h）。
#   2. 通往对端 IP: 问内核路由（ip route get IP），得到出口网卡和源地址;
#      要用的是出口网卡上、地址等于源地址的 RoCE v2 IPv4 GID（同一地址有多条时取索引最小的；同样不超过 255）。
#      单机实验（两块网卡各有一个 rxe，策略路由让报文走 veth）时内核对 IP 答 local …… dev lo，
#      这时再按“从本机另一个 RDMA 地址出发”查一次（ip route get IP from 源地址）。
#
# 这个文件只定义函数，source 时不执行任何命令。
# 给人看的几个标签（类型未知、ip 的报错说明）是 bash 的 $"…"，在 source（解析）时翻译:
# 调用方要先选好界面语言（diagnose.sh / show_gids.sh 开头的“界面语言”一段）再 source 它。
# 逐槽位的循环只用 bash 内建命令: qemu/TCG 实验虚拟机里 fork 很慢，而 rxe 的 GID 表有 1024 个槽位。
# 只有 gr_route_get 会运行外部命令（ip，命令名取自 GR_IP_CMD，默认 ip）。
# 可以在 set -euo pipefail 下使用: 函数只在说明里写了的情况下返回非 0。

GR_ZERO_GID=0000:0000:0000:0000:0000:0000:0000:0000

# gr_classify GID（小写、完整的 8 组 4 位十六进制）
#   GR_IPV4        IPv4 映射地址的点分十进制，否则为空
#   GR_ADDR_SCORE  地址部分得分: IPv4 映射 2, 非链路本地 1, 链路本地 0
#   GR_ADDR_KIND   ipv4 / global / linklocal
gr_classify() {
    local g=$1
    GR_IPV4=""
    if [[ $g =~ ^0000:0000:0000:0000:0000:ffff:([0-9a-f]{2})([0-9a-f]{2}):([0-9a-f]{2})([0-9a-f]{2})$ ]]; then
        GR_IPV4="$((16#${BASH_REMATCH[1]})).$((16#${BASH_REMATCH[2]})).$((16#${BASH_REMATCH[3]})).$((16#${BASH_REMATCH[4]}))"
        GR_ADDR_SCORE=2
        GR_ADDR_KIND=ipv4
    elif [[ $g =~ ^([0-9a-f]{4}): ]] && (((16#${BASH_REMATCH[1]} & 0xffc0) == 0xfe80)); then
        GR_ADDR_SCORE=0
        GR_ADDR_KIND=linklocal
    else
        GR_ADDR_SCORE=1
        GR_ADDR_KIND=global
    fi
}

# gr_score GID TYPE —— 一个非空条目的得分，结果在 GR_SCORE（同时设置 gr_classify 的变量）
gr_score() {
    gr_classify "$1"
    GR_SCORE=$GR_ADDR_SCORE
    if [[ $2 == "RoCE v2" ]]; then GR_SCORE=$((GR_SCORE + 4)); fi
}

# gr_type_label 类型（sysfs gid_attrs/types 的原文）—— 给人看的名字，show_gids.sh 和 diagnose.sh 共用
#   GR_TYPE_SHORT  v2 / v1 / ?（读不到）/ 原文
#   GR_TYPE_NAME   RoCE v2 / RoCE v1 / 类型未知 / 类型 原文
gr_type_label() {
    case $1 in
        "RoCE v2") GR_TYPE_SHORT=v2 GR_TYPE_NAME="RoCE v2" ;;
        "IB/RoCE v1") GR_TYPE_SHORT=v1 GR_TYPE_NAME="RoCE v1" ;;
        "") GR_TYPE_SHORT="?" GR_TYPE_NAME=$"类型未知" ;;
        *) GR_TYPE_SHORT=$1 GR_TYPE_NAME=$"类型 $1" ;;
    esac
}

# gr_scan_port 端口目录（…/ports/N）
# 按索引升序读出所有非空条目（不限于前 16 个），结果在平行数组里（下标 k = 0,1,2…）:
#   GT_IDX GID 索引; GT_GID GID（小写）; GT_TYPE gid_attrs/types（读不到为空）;
#   GT_NDEV gid_attrs/ndevs; GT_IPV4 IPv4 映射地址; GT_KIND ipv4/global/linklocal; GT_SCORE 得分
# 以及自动选择: GT_BEST = 胜出条目的 k（没有非空条目为 -1），GT_BEST_SCORE 它的得分。
gr_scan_port() {
    local pdir=$1 f i gid type ndev
    local -a idx_set=()
    GT_IDX=() GT_GID=() GT_TYPE=() GT_NDEV=() GT_IPV4=() GT_KIND=() GT_SCORE=()
    GT_BEST=-1 GT_BEST_SCORE=-1
    for f in "$pdir"/gids/*; do
        i=${f##*/}
        if [[ $i =~ ^(0|[1-9][0-9]*)$ ]]; then idx_set[i]=1; fi
    done
    # 稀疏数组的下标按数字升序遍历
    for i in "${!idx_set[@]}"; do
        # 热循环: 直接 read（gids 文件总是可读），空槽位用字符串比较判断，
        # 不调用函数、不用正则，TCG 下 1024 个槽位也很快
        gid=""
        read -r gid <"$pdir/gids/$i" || true
        # 空槽位: 空字符串或全 0
        if [[ -z $gid || $gid == "$GR_ZERO_GID" ]]; then continue; fi
        gid=${gid,,}
        # 真实 sysfs 里读空槽位或异常条目的 types/ndevs 会 EINVAL: 读不到就是空
        type=""
        { read -r type <"$pdir/gid_attrs/types/$i"; } 2>/dev/null || true
        ndev=""
        { read -r ndev <"$pdir/gid_attrs/ndevs/$i"; } 2>/dev/null || true
        gr_score "$gid" "$type"
        GT_IDX+=("$i")
        GT_GID+=("$gid")
        GT_TYPE+=("$type")
        GT_NDEV+=("$ndev")
        GT_IPV4+=("$GR_IPV4")
        GT_KIND+=("$GR_ADDR_KIND")
        GT_SCORE+=("$GR_SCORE")
        # 严格大于: 同分时保留索引更小的（遍历是升序）
        # 索引 > 255 不参与自动选择: sgid_index 只有 8 位（src/verbs/gid.h 的 GID_AUTO_MAX_INDEX）
        if ((GR_SCORE > GT_BEST_SCORE && i <= 255)); then
            GT_BEST=$((${#GT_IDX[@]} - 1))
            GT_BEST_SCORE=$GR_SCORE
        fi
    done
    return 0
}

# gr_route_parse "ip route get 的输出" —— 纯函数，只看第一行
#   RT_TYPE  unicast / local / broadcast / unreachable …（ip 在行首写出的路由类型，没写就是 unicast）
#   RT_DST RT_DEV RT_SRC RT_VIA  目的地址、出口网卡、源地址、网关（没有为空）
#   RT_LOCAL 1 = 目的地址是本机自己的地址（类型 local 或出口是 lo），否则为空
#   RT_LINE  第一行原文（给用户看的证据）
# 例: "10.11.0.1 via 10.11.0.254 dev eth0 src 10.11.0.2 uid 0"
#     "local 10.11.0.1 dev lo table local src 10.11.0.1 uid 0"
gr_route_parse() {
    local -a w=()
    local k=0
    RT_TYPE=unicast RT_DST="" RT_DEV="" RT_SRC="" RT_VIA="" RT_LOCAL=""
    RT_LINE=${1%%$'\n'*}
    # 去掉行尾空白（ip 的输出行尾有空格）
    RT_LINE=${RT_LINE%"${RT_LINE##*[![:space:]]}"}
    read -r -a w <<<"$RT_LINE" || true
    if ((${#w[@]} == 0)); then return 0; fi
    case ${w[0]} in
        local | broadcast | multicast | anycast | unreachable | blackhole | prohibit | throw | nat | unicast)
            RT_TYPE=${w[0]}
            k=1
            ;;
    esac
    RT_DST=${w[k]:-}
    for ((k = k + 1; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            dev) RT_DEV=${w[k + 1]:-} ;;
            src) RT_SRC=${w[k + 1]:-} ;;
            via)
                RT_VIA=${w[k + 1]:-}
                # "via inet 10.0.0.1" 的写法
                if [[ $RT_VIA == inet ]]; then RT_VIA=${w[k + 2]:-}; fi
                ;;
            *) continue ;;
        esac
        k=$((k + 1))
    done
    if [[ $RT_TYPE == local || $RT_DEV == lo ]]; then RT_LOCAL=1; fi
    return 0
}

# gr_route_get 目的IP [源IP] —— 运行一次 "ip route get 目的IP [from 源IP]"
# 成功返回 0 并设置 gr_route_parse 的变量; 失败（ip 报错，或回答里没有出口网卡）返回 1，
# RT_ERR 是 ip 的报错（第一行）或说明。
# RT_CMD 是运行的命令（给用户看的证据）。
gr_route_get() {
    local out rc=0
    local -a cmd=("${GR_IP_CMD:-ip}" route get "$1")
    if [[ -n ${2:-} ]]; then cmd+=(from "$2"); fi
    RT_CMD="ip route get $1${2:+ from $2}"
    RT_ERR=""
    out=$("${cmd[@]}" 2>&1) || rc=$?
    if ((rc != 0)) || [[ -z $out ]]; then
        RT_ERR=${out%%$'\n'*}
        if [[ -z $RT_ERR ]]; then RT_ERR=$"ip 没有输出 (退出码 $rc)"; fi
        gr_route_parse ""
        return 1
    fi
    gr_route_parse "$out"
    if [[ -z $RT_DEV ]]; then
        RT_ERR=$"回答里没有出口网卡: $RT_LINE"
        return 1
    fi
    return 0
}

# gr_scan_all SYSFS根目录 —— 扫描所有设备的所有端口，非空条目放进平行数组（下标 k）:
#   PG_DEV PG_PORT PG_IDX PG_GID PG_TYPE PG_NDEV PG_IPV4
# 以及 PG_PORTS=("设备/端口" …)（所有端口，包括 GID 表为空的）。
gr_scan_all() {
    local root=$1 d p pn k dev
    local -a ports
    PG_DEV=() PG_PORT=() PG_IDX=() PG_GID=() PG_TYPE=() PG_NDEV=() PG_IPV4=() PG_PORTS=()
    for d in "$root"/*; do
        [[ -d $d ]] || continue
        dev=${d##*/}
        ports=()
        for p in "$d"/ports/*; do
            pn=${p##*/}
            if [[ $pn =~ ^(0|[1-9][0-9]*)$ ]]; then ports[pn]=$pn; fi
        done
        for pn in "${ports[@]}"; do
            PG_PORTS+=("$dev/$pn")
            gr_scan_port "$d/ports/$pn"
            for k in "${!GT_IDX[@]}"; do
                PG_DEV+=("$dev")
                PG_PORT+=("$pn")
                PG_IDX+=("${GT_IDX[k]}")
                PG_GID+=("${GT_GID[k]}")
                PG_TYPE+=("${GT_TYPE[k]}")
                PG_NDEV+=("${GT_NDEV[k]}")
                PG_IPV4+=("${GT_IPV4[k]}")
            done
        done
    done
    return 0
}

# gr_find_v4 网卡 IPv4 —— 在 PG_* 里找网卡上、地址为 IPv4 的 RoCE v2 条目（第一个，
# 即设备名顺序下索引最小的）。结果在 GR_MATCH（PG 下标，没有为 -1）。
gr_find_v4() {
    local k
    GR_MATCH=-1
    for k in "${!PG_IDX[@]}"; do
        if [[ ${PG_TYPE[k]} == "RoCE v2" && ${PG_IPV4[k]} == "$2" && ${PG_NDEV[k]} == "$1" ]] && ((PG_IDX[k] <= 255)); then
            GR_MATCH=$k
            return 0
        fi
    done
    return 0
}

# gr_peer_path SYSFS根目录 对端IP —— 客户端通往对端会走哪条路、用哪个 GID（规则 2）
# 先调用 gr_scan_all，再问路由。结果:
#   PP_MODE   route  = 普通情况: 路由走网卡 PP_DEV、源地址 PP_SRC（网关 PP_VIA）
#             single = 单机实验: 对端地址是本机的（内核答 local），但本机另一个 RDMA 地址
#                      PP_SRC 按策略路由经它自己的网卡 PP_DEV 通往对端
#             local  = 对端地址是本机自己的地址，且没有别的网卡通往它（克隆虚拟机/NAT 重复地址，或本机回环）
#             none   = 没有路由（RT_ERR 是 ip 的报错）
#   PP_MATCH  要用的 GID 条目（PG 下标），没有为 -1
#   PP_OWNER  对端地址所在的本机 GID 条目（PG 下标，单机实验里是“服务端”的设备），没有为 -1
#   PP_OWNER_NDEV  对端地址所在的本机网卡（来自 PP_OWNER），可能为空
#   PP_ROUTE_CMD / PP_ROUTE_LINE  第一次查询 "ip route get 对端" 和它的回答（单机实验时是 local …）
gr_peer_path() {
    local root=$1 peer=$2 k src saved
    local -A tried=()
    PP_MODE=none PP_DEV="" PP_SRC="" PP_VIA="" PP_MATCH=-1 PP_OWNER=-1 PP_OWNER_NDEV=""
    PP_ROUTE_CMD="ip route get $peer" PP_ROUTE_LINE=""
    gr_scan_all "$root"
    gr_route_get "$peer" || return 0
    PP_ROUTE_LINE=$RT_LINE
    if [[ -z $RT_LOCAL ]]; then
        PP_MODE=route PP_DEV=$RT_DEV PP_SRC=$RT_SRC PP_VIA=$RT_VIA
        gr_find_v4 "$PP_DEV" "$PP_SRC"
        PP_MATCH=$GR_MATCH
        return 0
    fi
    # 对端地址是本机的: 它属于哪个 RDMA 设备
    for k in "${!PG_IDX[@]}"; do
        if [[ ${PG_TYPE[k]} == "RoCE v2" && ${PG_IPV4[k]} == "$peer" ]]; then
            PP_OWNER=$k
            PP_OWNER_NDEV=${PG_NDEV[k]}
            break
        fi
    done
    PP_MODE=local
    saved="$RT_TYPE|$RT_DST|$RT_DEV|$RT_SRC|$RT_VIA|$RT_LOCAL|$RT_CMD|$RT_LINE"
    # 单机实验: 从本机其他网卡上的 RoCE v2 IPv4 地址出发，路由是否经那块网卡（而不是 lo）通往对端
    for k in "${!PG_IDX[@]}"; do
        src=${PG_IPV4[k]}
        [[ ${PG_TYPE[k]} == "RoCE v2" && -n $src && $src != "$peer" ]] || continue
        [[ ${PG_NDEV[k]} != "$PP_OWNER_NDEV" && -z ${tried[$src]:-} ]] || continue
        tried[$src]=1
        if gr_route_get "$peer" "$src" && [[ -z $RT_LOCAL && $RT_DEV == "${PG_NDEV[k]}" ]]; then
            PP_MODE=single PP_DEV=$RT_DEV PP_SRC=$src PP_VIA=$RT_VIA
            gr_find_v4 "$PP_DEV" "$PP_SRC"
            PP_MATCH=$GR_MATCH
            return 0
        fi
    done
    # 恢复成 "ip route get 对端" 的回答（给调用方显示证据）
    IFS='|' read -r RT_TYPE RT_DST RT_DEV RT_SRC RT_VIA RT_LOCAL RT_CMD RT_LINE <<<"$saved"
    RT_ERR=""
    return 0
}
