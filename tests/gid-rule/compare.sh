#!/usr/bin/env bash
# tests/gid-rule/compare.sh PICK [N] - 同一张 GID 表交给 C 的规则（PICK = build/tests/gid_pick，src/verbs/gid.c）和
# shell 的规则（scripts/gid_rule.sh），比较两边选中的索引：规则 1（自动选择）和规则 2 的后半（地址是某个 IPv4 的 RoCE v2 条目）。
# 表：几张手写的（平局、只有 v1、只有链路本地、稀疏的大索引、空表……）加 N 张随机的（固定种子，可重现）。
# 每张表一行结果写到标准输出；有分歧时打印那张表并以 1 退出。
set -euo pipefail
PICK=$1
N=${2:-200}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/gid_rule.sh
source "$REPO/scripts/gid_rule.sh"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ZERO=0000:0000:0000:0000:0000:0000:0000:0000

# new_table：清空端口目录；add IDX GID TYPE：加一个条目（网卡都是 eth0）
new_table() {
    rm -rf "$WORK/port"
    mkdir -p "$WORK/port/gids" "$WORK/port/gid_attrs/types" "$WORK/port/gid_attrs/ndevs"
    TABLE=()
}
add() {
    echo "$2" >"$WORK/port/gids/$1"
    echo "$3" >"$WORK/port/gid_attrs/types/$1"
    echo eth0 >"$WORK/port/gid_attrs/ndevs/$1"
    TABLE+=("$1 $2 $3")
}
v4() { printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$1" "$2" "$3" "$4"; }

bad=0 tables=0
compare() {
    local name=$1 ip=${2:-} c s
    tables=$((tables + 1))
    c=$("$PICK" "$WORK/port")
    gr_scan_port "$WORK/port"
    if ((GT_BEST < 0)); then s=-1; else s=${GT_IDX[GT_BEST]}; fi
    if [[ $c != "$s" ]]; then
        echo "分歧（规则 1）$name: C 选 $c，shell 选 $s；表:"; printf '  %s\n' "${TABLE[@]}"; bad=1
    fi
    [[ -n $ip ]] || return 0
    c=$("$PICK" "$WORK/port" "$ip")
    PG_IDX=("${GT_IDX[@]}") PG_TYPE=("${GT_TYPE[@]}") PG_IPV4=("${GT_IPV4[@]}") PG_NDEV=("${GT_NDEV[@]}")
    gr_find_v4 eth0 "$ip"
    if ((GR_MATCH < 0)); then s=-1; else s=${PG_IDX[GR_MATCH]}; fi
    if [[ $c != "$s" ]]; then
        echo "分歧（规则 2，地址 $ip）$name: C 选 $c，shell 选 $s；表:"; printf '  %s\n' "${TABLE[@]}"; bad=1
    fi
}

# ---- 手写的表 ----
new_table; compare "空表"
new_table; add 0 fe80:0000:0000:0000:0000:00ff:fe00:0001 "IB/RoCE v1"; add 1 fe80:0000:0000:0000:0000:00ff:fe00:0001 "RoCE v2"
add 2 "$(v4 10 11 0 1)" "IB/RoCE v1"; add 3 "$(v4 10 11 0 1)" "RoCE v2"; compare "rxe 的典型表" 10.11.0.1
new_table; add 0 fe80:0000:0000:0000:0000:00ff:fe00:0001 "IB/RoCE v1"; add 5 "$(v4 10 0 0 7)" "IB/RoCE v1"; compare "只有 v1" 10.0.0.7
new_table; add 1 fe80:0000:0000:0000:0000:00ff:fe00:0001 "RoCE v2"; add 0 fe80:0000:0000:0000:0000:00ff:fe00:0002 "RoCE v2"; compare "只有链路本地，平局取小索引"
new_table; add 1000 "$(v4 192 168 1 9)" "RoCE v2"; add 999 "$(v4 192 168 1 8)" "RoCE v2"; add 7 2001:0db8:0000:0000:0000:0000:0000:0001 "RoCE v2"
compare "稀疏的大索引，两个 IPv4 平局" 192.168.1.9
new_table; add 300 "$(v4 10 3 3 3)" "RoCE v2"; add 0 fe80:0000:0000:0000:0000:00ff:fe00:0001 "RoCE v2"; compare "索引 300 的 IPv4 不选（sgid_index 8 位）" 10.3.3.3
new_table; add 255 "$(v4 10 3 3 4)" "RoCE v2"; add 256 "$(v4 10 3 3 5)" "RoCE v2"; compare "255 可选，256 不可选" 10.3.3.5
new_table; add 2 2001:0db8:0000:0000:0000:0000:0000:0001 "RoCE v2"; add 3 "$(v4 10 1 1 1)" "IB/RoCE v1"; compare "全局 IPv6 v2 对 IPv4 v1" 10.1.1.1
new_table; add 4 "$ZERO" "RoCE v2"; add 6 "$(v4 10 2 2 2)" "RoCE v2"; compare "全 0 的槽位不算" 10.2.2.2

# ---- 随机的表（固定种子）----
RANDOM=2411
types=("RoCE v2" "IB/RoCE v1")
for ((t = 0; t < N; t++)); do
    new_table
    declare -A used=()
    for ((e = 0; e < 1 + RANDOM % 6; e++)); do
        idx=$((RANDOM % 5 == 0 ? 250 + RANDOM % 12 : RANDOM % 20))
        [[ -z ${used[$idx]:-} ]] || continue
        used[$idx]=1
        case $((RANDOM % 4)) in
            0) gid=fe80:0000:0000:0000:0000:00ff:fe00:$(printf '%04x' $((RANDOM % 4))) ;;
            1) gid=2001:0db8:0000:0000:0000:0000:0000:$(printf '%04x' $((RANDOM % 4))) ;;
            2) gid=$ZERO ;;
            *) gid=$(v4 10 0 0 $((RANDOM % 3))) ;;
        esac
        add "$idx" "$gid" "${types[RANDOM % 2]}"
    done
    unset used
    compare "随机表 $t" "10.0.0.$((RANDOM % 3))"
done
echo "$tables 张表，C（src/verbs/gid.c）和 shell（scripts/gid_rule.sh）的选择$( ((bad)) && echo 有分歧 || echo 全部一致)"
exit "$bad"
