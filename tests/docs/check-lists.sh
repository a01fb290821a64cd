#!/usr/bin/env bash
# tests/docs/check-lists.sh - 文档里会跟着代码变的几张列表只写在一处，而且和代码一致（tests/26-host-docs.t 调用）
#
# 列表都在 docs/OPTIONS.md，夹在 <!-- list: 名字 --> 和 <!-- /list --> 之间:
#   1. -h 的每个长选项都在 docs/OPTIONS.md 里（参数表没有漏项）
#   2. inject: 种类和两个角色的 -h 列出的一样，“哪一端”和哪个角色的 -h 列出它一致；
#      所有文档里出现的 `--inject 种类` 都是真的种类；引用“未知的故障注入”这句话时，种类和程序现在打印的一样
#   3. must-match: 两端必须一致的选项 = src/control/wire.h 里 HELLO 比较的字段（op、num_qp、size、iters、offset）
#      + flags 每一位对应的选项（wire.h 的布局注释）+ --cm；别的文档不再自己列一遍（一行里列出 3 个以上
#      这些选项又说“必须相同/必须一致/must match”的，算又列了一遍；`-q/--op/--size` 这样用 / 连起来的也算）
#   4. HELLO 的 flags: 文档里写的“已定义的位/已定义的只有 0x..”= wire.h 里 WIRE_FLAG_* 的并集
#   5. 参数表的“默认”列 = 两个角色的 -h 里写的默认值（“默认 N”“默认 auto”“词（默认）”）
# 用法: tests/docs/check-lists.sh 文档…   问题打印到 stdout，有问题时退出 1
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OPT=docs/OPTIONS.md
WIRE=src/control/wire.h
bad=0
err() { echo "$*"; bad=1; }

# list_block 名字 —— docs/OPTIONS.md 里这个列表的内容
list_block() {
    awk -v n="$1" '$0 == "<!-- list: " n " -->" { on = 1; next } on && $0 == "<!-- /list -->" { exit } on' "$OPT"
}

for p in build/rdma_server build/rdma_client; do
    [[ -x $p ]] || { err "$p 不存在：先 make"; exit 1; }
done
build/rdma_server -h >/tmp/check-lists-srv.$$ 2>&1
build/rdma_client -h >/tmp/check-lists-cli.$$ 2>&1
trap 'rm -f /tmp/check-lists-*.$$' EXIT
SRV=/tmp/check-lists-srv.$$ CLI=/tmp/check-lists-cli.$$

# ---------- 1. 每个长选项都在参数表里 ----------
while read -r o; do
    grep -qE -- "${o}([^a-z-]|\$)" "$OPT" || err "$OPT 没有介绍 -h 里的选项 $o"
done < <(grep -ohE -- '--[a-z][a-z-]+' "$SRV" "$CLI" | sort -u)

# ---------- 2. --inject 的种类 ----------
inj_of() { grep -oE -- '^ +--inject [a-z0-9-]+' "$1" | awk '{ print $2 }' | sort -u; }
mapfile -t srv_k < <(inj_of "$SRV")
mapfile -t cli_k < <(inj_of "$CLI")
((${#srv_k[@]} > 0 && ${#cli_k[@]} > 0)) || err "-h 里找不到 --inject 的种类"
declare -A role=()
for k in "${srv_k[@]}"; do role[$k]=服务端; done
for k in "${cli_k[@]}"; do if [[ ${role[$k]:-} == 服务端 ]]; then role[$k]=发数据的一方; else role[$k]=客户端; fi; done
declare -A listed=()
while IFS='|' read -r _ kind who _; do
    kind=$(tr -d ' `' <<<"$kind") who=$(tr -d ' ' <<<"$who")
    [[ $kind == 种类 || $kind == -* || -z $kind ]] && continue
    listed[$kind]=1
    if [[ -z ${role[$kind]:-} ]]; then err "$OPT 的 inject 列表有 '$kind'，两个角色的 -h 都没有这种"
    elif [[ $who != "${role[$kind]}" ]]; then err "$OPT: --inject $kind 写的是「$who」，按 -h 应当是「${role[$kind]}」"; fi
done < <(list_block inject)
for k in "${!role[@]}"; do [[ -n ${listed[$k]:-} ]] || err "$OPT 的 inject 列表缺 -h 里的 '$k'"; done
# 文档里提到的每个 --inject 种类都存在
for d in "$@"; do
    while IFS=: read -r ln k; do
        k=${k#--inject }
        [[ $k == KIND || -n ${role[$k]:-} ]] || err "$d:$ln: --inject $k 不是程序的种类（-h: ${!role[*]}）"
    done < <(grep -noE -- '--inject [a-z][a-z0-9-]*' "$d")
done
# 引用“未知的故障注入”时，种类和程序打印的一样
real=$(build/rdma_client 10.11.0.1 --inject nope --dry-run 2>&1 | sed -nE "s/.*未知的故障注入: 'nope'（可选 (.*)）.*/\1/p")
[[ -n $real ]] || err "build/rdma_client --inject nope 没有打印「未知的故障注入: 'nope'（可选 …）」"
for d in "$@"; do
    while IFS=: read -r ln q; do
        [[ $q == "$real" ]] || err "$d:$ln: 引用的「未知的故障注入」列的是（可选 $q），程序打印的是（可选 $real）"
    done < <(grep -noE "未知的故障注入: '[^']*'（可选 [^）]*）" "$d" | sed -E "s/^([0-9]+):.*（可选 (.*)）$/\1:\2/")
done

# ---------- 3. 两端必须一致的选项 ----------
# HELLO 的布局注释（wire.h 开头）: 比较的字段各对应一个选项；flags 那几行的每个 --选项 是一位
want=(--cm)
declare -A field=([op]=--op [num_qp]=-q [size]=--size [iters]=--iters [offset]=--offset)
for f in "${!field[@]}"; do
    grep -qE "^ \*[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+${f}[[:space:]]" "$WIRE" || err "$WIRE 的 HELLO 布局里没有字段 $f"
    want+=("${field[$f]}")
done
mapfile -t flagopt < <(awk '/^ \*[[:space:]]+7[[:space:]]+1[[:space:]]+flags/ { on = 1 } on && /^ \*[[:space:]]+[0-9]+[[:space:]]+[0-9]+[[:space:]]+num_qp/ { exit } on' "$WIRE" \
    | grep -oE -- '--[a-z][a-z-]*' | sort -u)
((${#flagopt[@]} >= 1)) || err "$WIRE 的 flags 注释里找不到选项"
want+=("${flagopt[@]}")
mapfile -t want < <(printf '%s\n' "${want[@]}" | sort -u)
# shellcheck disable=SC2016  # 反引号是 Markdown 的，不是命令替换
mapfile -t have < <(list_block must-match | grep -oE -- '`-{1,2}[a-z][a-z-]*`' | tr -d '`' | sort -u)
if [[ $(printf '%s\n' "${want[@]}") != "$(printf '%s\n' "${have[@]}")" ]]; then
    err "$OPT 的「两端必须一致」列表: ${have[*]}；按 $WIRE（HELLO 的字段和 flags）+ --cm 应当是: ${want[*]}"
fi
# 帮助里标了“两端必须一致”的选项都在列表里
while read -r o; do
    printf '%s\n' "${want[@]}" | grep -qxF -- "$o" || err "-h 说 $o 两端必须一致，$OPT 的列表里没有"
done < <(grep -hE '^ +(-[a-z], )?--[a-z-]+ .*两端必须一致' "$SRV" "$CLI" | sed -E 's/^ +(-[a-z], )?(--[a-z-]+).*/\2/' | sort -u | sed 's/^--num-qp$/-q/')
# 别的文档不再自己列一遍
for d in "$@"; do
    [[ $d == "$OPT" ]] && continue
    while IFS= read -r line; do
        # 反引号里的每一段按 / 和 、 再分开（`-q/--op/--size` 算三个），每一段的第一个词是选项
        # shellcheck disable=SC2016  # 反引号是 Markdown 的
        n=$(grep -oE '`[^`]+`' <<<"$line" | tr -d '`' | sed 's#/#\n#g; s/、/\n/g' | awk '{ print $1 }' | sort -u |
            grep -cxF -f <(printf '%s\n' "${want[@]}") || true)
        ((n >= 3)) && err "$d: 又列了一遍两端必须一致的选项（链到 $OPT#两端必须一致的选项）: $line"
    done < <(grep -E '必须相同|必须一致|must match' "$d")
done

# ---------- 4. HELLO flags 的已定义位 ----------
mask=0
while read -r v; do mask=$((mask | v)); done < <(sed -nE 's/^#define WIRE_FLAG_[A-Z_]+[[:space:]]+(0x[0-9a-fA-F]+)$/\1/p' "$WIRE")
hex=$(printf '0x%02x' "$mask")
((mask > 0)) || err "$WIRE 里找不到 WIRE_FLAG_* 的值"
grep -q "已定义的位是 $hex" "$OPT" || err "$OPT 没有写 HELLO flags 已定义的位是 $hex"
for d in "$@"; do
    while IFS=: read -r ln v; do
        [[ $v == "$hex" ]] || err "$d:$ln: 写的已定义位是 $v，$WIRE 里是 $hex"
    done < <(grep -noE '已定义的(只有|位是) 0x[0-9a-f]+|defined bits are (only )?0x[0-9a-f]+' "$d" | sed -E 's/^([0-9]+):.* (0x[0-9a-f]+)$/\1:\2/')
done
# ---------- 5. 参数表的“默认”列和 -h 一致 ----------
# -h 的每个选项（续行接在后面）里第一个“默认 数字/auto”或“词（默认）”是它的默认值；参数表里列出这个选项的那一行，
# “默认”列的第 i 项（按“、”分开，和第一列的第 i 个选项对应）要以它开头（bw/lat 各有默认的写成 “bw 128 / lat 16”，含它即可）。
# -h 里说不出一个值的（“默认自动选择…”、“默认看 LANGUAGE…”）不比；--inject 的各行不比
h_defaults() {  # h_defaults -h的文件 —— 每个选项一行: 选项<TAB>默认值
    awk '/^ +(-[a-z], )?--[a-z]/ { if (o != "") print o "\t" t; o = $0; sub(/^ +(-[a-z], )?/, "", o); sub(/ .*/, "", o); t = $0; next }
         /^ {20,}[^ -]/ && o != "" { t = t $0; next }
         { if (o != "") print o "\t" t; o = "" }
         END { if (o != "") print o "\t" t }' "$1" |
        while IFS=$'\t' read -r o t; do
            [[ $o == --inject ]] && continue
            t=$(sed -E 's/^ *(-[a-z], )?--[a-z-]+( [^ ]+)? +//' <<<"$t")
            v=$(grep -oE '默认 ([0-9]+|auto)' <<<"$t" | head -1 | sed 's/^默认 //')
            if [[ -z $v && $t == *（默认）* ]]; then
                v=${t%%（默认）*}; v=${v##*[：|]}; v=$(grep -oE '[a-z_]+' <<<"$v" | head -1)
            fi
            [[ -n $v ]] && printf '%s\t%s\n' "$o" "$v"
        done
}
# 参数表：选项<TAB>默认列里对应的那一项
# shellcheck disable=SC2016  # 反引号是 Markdown 的
awk '/^## 参数表/ { on = 1; next } on && /^## / { exit } on && /^\| `-/ { gsub(/\\\|/, "/"); print }' "$OPT" |
    while IFS='|' read -r _ opts _ def _; do
        IFS='、' read -r -a oa <<<"$opts"
        IFS='、' read -r -a da <<<"$def"
        for i in "${!oa[@]}"; do
            d=$(tr -d '`' <<<"${da[$i]:-}" | sed -E 's/^ +| +$//g')
            grep -oE -- '--[a-z][a-z-]*' <<<"${oa[$i]}" | while read -r o; do printf '%s\t%s\n' "$o" "$d"; done
        done
    done >/tmp/check-lists-def.$$
while IFS=$'\t' read -r o v; do
    cell=$(awk -F'\t' -v o="$o" '$1 == o { print $2; exit }' /tmp/check-lists-def.$$)
    if [[ -z $cell ]]; then err "$OPT 的参数表里 $o 的「默认」列是空的，-h 说默认 $v"
    elif [[ $cell != "$v"* && ! $cell =~ (^|[^0-9a-z])$v([^0-9a-z]|$) ]]; then err "$OPT 的参数表里 $o 的默认是「$cell」，-h 说默认 $v"; fi
done < <({ h_defaults "$SRV"; h_defaults "$CLI"; } | sort -u)

exit "$bad"
