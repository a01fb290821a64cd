# shellcheck shell=bash disable=SC2034  # GT_*、GR_* 等变量是给调用方的结果
# gid_rule.sh —— GID 选择规则的唯一 shell 实现，show_gids.sh 和 diagnose.sh 都 source 它。
#
# 规则必须与 C 程序一致（src/gid.c 的 gid_score / gid_choose）:
#
#   自动选择（不带 -g）: 只看非空条目;
#        得分 = (类型为 "RoCE v2" ? 4 : 0)
#             + (IPv4 映射地址 ::ffff:a.b.c.d ? 2 : (不是链路本地 fe80::/10 ? 1 : 0))
#      得分最高者胜出; 同分取索引最小的。
#
# 这个文件只定义函数，source 时不执行任何命令。
# 逐槽位的循环只用 bash 内建命令: qemu/TCG 实验虚拟机里 fork 很慢，而 rxe 的 GID 表有 1024 个槽位。
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
        if ((GR_SCORE > GT_BEST_SCORE)); then
            GT_BEST=$((${#GT_IDX[@]} - 1))
            GT_BEST_SCORE=$GR_SCORE
        fi
    done
    return 0
}
