#!/usr/bin/env bash
# tests/26-host-docs.t - 文档没有过时（TAP 输出；不需要 root、网络或虚拟机，几秒钟）
# 检查 README.md TROUBLESHOOTING.md QUICKFIX.md QP_STATE_USAGE.md：
#   1. 摘录标记成对、名字都是 tests/docs/update-excerpts.sh 认识的
#   2. 代码块里每条 build/rdma_server / build/rdma_client 命令加 --dry-run 后通过参数检查（退出码 0）；
#      行末标了 “# 错误示例”（英文文档里 “# error example”）的命令必须以退出码 2 被拒绝
#   3. 代码块里 ./diagnose.sh / ./show_gids.sh 用到的每个选项都出现在 --help 里，且不是用法错误（退出码 ≠ 2）
#   4. 用到的每个 make 目标（代码块和 `行内代码`）在 Makefile 里都存在
#   5. 摘录里的每个 “========== 步骤N: … ==========” 标题都是程序能打印的（来自 src/*.c 的 step_title 调用）
#   6. 会跟着代码变的列表只写在 docs/OPTIONS.md 一处，并且和代码一致（tests/docs/check-lists.sh）：-h 的每个长选项都在
#      参数表里；--inject 的种类和每种的角色和 -h 一样，文档里提到的种类都存在；两端必须一致的选项 = src/control/wire.h 的
#      HELLO 比较的字段和 flags + --cm，别的文档不再另列；文档里写的 HELLO flags 已定义位 = WIRE_FLAG_* 的并集；参数表的「默认」列 = -h 写的默认值
#   7. 每个角色的 -h 只列它自己能用的选项：逐个拿来 --dry-run，不能被拒绝成“只用于服务端/客户端”
#   8. 文档之间的相对链接都指向存在的文件和标题锚点（tests/docs/check-links.pl，GitHub 的锚点规则）
#   9. README.md 不超过预算（README_MAX_LINES 行、README_MAX_BYTES 字节）：它是入口，细节放在 docs/；TROUBLESHOOTING.md 是症状索引，
#      不超过 TS_MAX_BYTES（40 KiB：长的讲解放在它所属的页面里）
#  10. README、QUICKFIX、TROUBLESHOOTING 的命令是两台虚拟机的写法：不出现单机实验室的设备名（rxe1，
#      客户端/服务端的 -d rxe0）。只属于单机实验室的代码块前一行标 <!-- lab-only -->；输出摘录不算命令
#  12. docs/README.en.md 里没有中文（链接目标里的中文标题锚点除外）；它的 ##–#### 标题和 README 一一对应（个数、顺序，对照表在
#      这一项里）；README 标了记号的命令块里的每条命令（tests/docs/readme-steps.sh raw）都在它的代码块里
#  11. README 开头（前 60 行）的“没有 RDMA？从这里开始”块：setup、demo、test 三行在代码块里，每行的注释写着量过的时间（秒/分钟），
#      docs/README.en.md 开头同样（s/min）；.ci/run 明确要两样（LAB_KERNEL=all LAB_STOCK=debian12 bash lab/setup，然后 make test）
#  13. README.md 和 QUICKFIX.md 引用的每一句错误（英文的原话，或程序的中文错误经 po/en.po 译成的英文）都在 docs/TROUBLESHOOTING.en.md
#      开头的英文索引里；TROUBLESHOOTING 改成索引之前引用过的每一句错误（tests/docs/error-lines.txt）还在某个学习者页面里；
#      TROUBLESHOOTING 两种语言的正文里引用的每一句错误都在页首的索引里
#      （tests/docs/check-error-index.py，规则写在它开头）
#  14. Makefile 的每条依赖消息 echo "错误: …" >&2 后面紧跟着同一句的英文 echo "error: …" >&2（英文里没有中文）
#  15. docs/QUICKFIX.en.md 和 QUICKFIX.md 同步：没有中文（链接目标除外）；#–#### 标题一一对应（对照表在这一项里）；QUICKFIX
#      的每条命令（代码块里的行、正文里以命令开头的 `行内代码`）都在英文页里；QUICKFIX 引用的每一句错误都在英文页的正文里
#      （tests/docs/check-error-index.py --pair）
#  16. 给学习者的页面（清单 docs/pages.txt 里的 learner；仓库里每个 .md 都要在清单里）没有本项目的 issue 编号、起草和开发时的用语，
#      不链接到 tests/；别的项目的出处（“SPDK 的 issue 1697”、canonical/cloud-init#4066）可以（tests/docs/check-learner-pages.py）
#  17. 学习者页面里会跟着代码变的事实是从代码算出来的那样（tests/docs/check-facts.py，规则写在它开头）：常量名存在、HELLO 的字节数、
#      CQ 的容量、--tx-depth 的上限、rxe 的计数个数、TROUBLESHOOTING 错误表引用的每一句程序印得出、练习的步骤号和真实运行里的步骤一样、
#      脚本里说的 README 的某一节存在、摘录前面说的 make demo 参数就是录它时用的
#  18. 每个学习者页面（清单 docs/pages.txt）和它的英文版同步（tests/docs/check-parity.py，规则写在它开头）：英文版在约定的位置
#      （docs/NAME.en.md；子目录的 README 在旁边），两页开头互相链接，英文页没有中文，标题一一对应，命令一样，引用的错误一样；
#      docs/README.en.md 链接到每一个英文页。脚本生成的数据表（docs/bench/results.md、docs/loss-vs-tcp/results.md）没有英文版
#  19. 代码打印的每个页面链接都能打开，中文和英文两种模式（tests/docs/check-code-links.py）：练习检查的 “参见:/see:”
#      （英文模式经 exercises/check/doclinks.py 换到英文版上）、程序和脚本的文字里提到的页面和「标题」
# 摘录与真实运行是否一致，由实验室里的 tests/36-lab-docs.t 检查（需要虚拟机）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

DOCS=(README.md TROUBLESHOOTING.md QUICKFIX.md QP_STATE_USAGE.md docs/*.md docs/bench/README.md)
UPDATE=tests/docs/update-excerpts.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

. tests/lib/tap.bash
TAP_DIAG=$T/diag  # ok 之后清空；诊断先攒在这里
: >"$T/diag"
echo "1..19"
README_MAX_LINES=300
# 24500：issue 54 把实验室的三行和它们的时间、大小放到了开头（学习者没有 RDMA 时的入口）
README_MAX_BYTES=24500
# 40 KiB：issue 56 把 94.6 KB 的 TROUBLESHOOTING 改成症状索引（开头一张“你看到的那一句 → §”的表，每节 原因/确认/修复）
TS_MAX_BYTES=40960

# 每个文档的每一行打上类别：CODE（代码块内、摘录外）、CODELAB（标了 <!-- lab-only --> 的代码块）、
# EXC（摘录内）、TEXT（其它）。输出：类别<TAB>文件:行号<TAB>内容
classify() {
    awk -v doc="$1" '
        /^<!-- excerpt: / { exc = 1; next }
        /^<!-- \/excerpt -->$/ { exc = 0; next }
        /^<!-- lab-only -->$/ { labnext = 1; next }
        /^[ \t]*```/ { code = !code; lab = code && labnext; labnext = 0; next }
        { kind = exc ? "EXC" : (code ? (lab ? "CODELAB" : "CODE") : "TEXT"); printf "%s\t%s:%d\t%s\n", kind, doc, NR, $0 }
    ' "$1"
}
for d in "${DOCS[@]}"; do
    if [[ -f $d ]]; then classify "$d"; fi
done >"$T/lines"

# 去掉 shell 注释（行首或空白后的 # 起到行尾）
strip_comment() { sed -E 's/(^|[[:space:]])#.*$//' <<<"$1"; }

# ---------- 1. 摘录标记 ----------
bad=0
"$UPDATE" --list >"$T/names" 2>>"$T/diag" || { echo "$UPDATE --list 失败" >>"$T/diag"; bad=1; }
for d in "${DOCS[@]}"; do
    if [[ ! -f $d ]]; then echo "缺少文档 $d" >>"$T/diag"; bad=1; continue; fi
    awk -v doc="$d" '
        /^<!-- excerpt: / { if (open) { printf "%s:%d: 上一个摘录没有闭合\n", doc, NR; e = 1 } open = 1
                            if ($0 !~ /^<!-- excerpt: [A-Za-z0-9_.-]+ -->$/) { printf "%s:%d: 标记格式不对\n", doc, NR; e = 1 }
                            else print "NAME " $3 " " doc ":" NR }
        /^<!-- \/excerpt -->$/ { if (!open) { printf "%s:%d: 多余的 /excerpt\n", doc, NR; e = 1 } open = 0 }
        END { if (open) { printf "%s: 最后一个摘录没有闭合\n", doc; e = 1 } exit e }
    ' "$d" >"$T/marks" || bad=1
    grep -v '^NAME ' "$T/marks" >>"$T/diag"
    while read -r _ name where; do
        grep -qx -- "$name" "$T/names" || { echo "$where: 未知的摘录名 '$name'（$UPDATE 里没有 cut_$name）" >>"$T/diag"; bad=1; }
    done < <(grep '^NAME ' "$T/marks")
done
ok "$bad" "excerpt markers are balanced and every name has a recipe in $UPDATE"

# ---------- 2. rdma_server / rdma_client 命令行 ----------
bad=0
count=0
if [[ ! -x build/rdma_server || ! -x build/rdma_client ]]; then
    echo "build/rdma_server 或 build/rdma_client 不存在：先运行 make" >>"$T/diag"
    bad=1
fi
while IFS=$'\t' read -r kind where line; do
    [[ $kind == CODE* ]] || continue
    rest=$(strip_comment "$line")
    while [[ $rest =~ (^|[[:space:]\'\"\;\&\|\(])(\./)?build/(rdma_server|rdma_client)([^|\;\&\>\<\#\'\"]*)(.*)$ ]]; do
        prog=build/${BASH_REMATCH[3]}
        args=${BASH_REMATCH[4]}
        rest=${BASH_REMATCH[5]}
        count=$((count + 1))
        read -r -a words <<<"$args"
        want=0
        if [[ $line == *'# 错误示例'* || $line == *'# error example'* ]]; then want=2; fi
        [[ -x $prog ]] || continue
        rc=0
        timeout 10 "$prog" "${words[@]}" --dry-run >"$T/out" 2>&1 </dev/null || rc=$?
        if [[ $rc != "$want" ]]; then
            bad=1
            {
                echo "$where: $prog${args% } --dry-run 退出码 $rc，期望 $want"
                echo "    $line"
                sed 's/^/    | /' "$T/out" | tail -3
            } >>"$T/diag"
        fi
    done
done <"$T/lines"
if ((count == 0)); then echo "文档的代码块里一条 rdma_server/rdma_client 命令都没找到" >>"$T/diag"; bad=1; fi
ok "$bad" "all $count rdma_server/rdma_client command lines in code blocks parse (--dry-run exit 0; '# 错误示例' exit 2)"

# ---------- 3. diagnose.sh / show_gids.sh ----------
bad=0
count=0
for s in diagnose.sh show_gids.sh; do
    if ! "./$s" --help >"$T/help-$s" 2>&1; then
        echo "./$s --help 退出码不是 0" >>"$T/diag"
        bad=1
    fi
done
while IFS=$'\t' read -r kind where line; do
    [[ $kind == CODE* ]] || continue
    rest=$(strip_comment "$line")
    while [[ $rest =~ (^|[[:space:]\'\"\;\&\|])\./(diagnose\.sh|show_gids\.sh)([^|\;\&\>\<\#\'\"]*)(.*)$ ]]; do
        s=${BASH_REMATCH[2]}
        args=${BASH_REMATCH[3]}
        rest=${BASH_REMATCH[4]}
        count=$((count + 1))
        read -r -a words <<<"$args"
        for w in "${words[@]}"; do
            if [[ $w == -* ]] && ! grep -qF -- "$w" "$T/help-$s"; then
                echo "$where: ./$s 的选项 '$w' 不在 ./$s --help 里" >>"$T/diag"
                bad=1
            fi
        done
        rc=0
        timeout 60 "./$s" "${words[@]}" >"$T/out" 2>&1 </dev/null || rc=$?
        if [[ $rc == 2 ]]; then
            bad=1
            { echo "$where: ./$s${args% } 是用法错误（退出码 2）:"; sed 's/^/    | /' "$T/out" | head -3; } >>"$T/diag"
        fi
    done
done <"$T/lines"
if ((count == 0)); then echo "文档里一条 ./diagnose.sh / ./show_gids.sh 命令都没找到" >>"$T/diag"; bad=1; fi
ok "$bad" "all $count ./diagnose.sh and ./show_gids.sh invocations use options from their --help and are not usage errors"

# ---------- 4. make 目标 ----------
bad=0
count=0
{
    awk -F'\t' '$1 ~ /^CODE/ { print $2 "\t" $3 }' "$T/lines"
    # 行内代码 `...`
    awk -F'\t' '$1 == "TEXT" { s = $3; while (match(s, /`[^`]+`/)) { print $2 "\t" substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$T/lines"
} >"$T/make-src"
while IFS=$'\t' read -r where text; do
    rest=$(strip_comment "$text")
    while [[ $rest =~ (^|[[:space:]\;\&\(])make([[:space:]]+[^\;\&\|\#\`]*)?(.*)$ ]]; do
        args=${BASH_REMATCH[2]}
        rest=${BASH_REMATCH[3]}
        # 去掉 VAR="带空格的值"
        args=$(sed -E 's/[A-Za-z_][A-Za-z0-9_]*="[^"]*"//g' <<<"$args")
        read -r -a words <<<"$args"
        for w in "${words[@]}"; do
            [[ $w == *=* || $w == -* ]] && continue
            count=$((count + 1))
            if ! grep -qE "^${w}:" Makefile; then
                echo "$where: make $w —— Makefile 里没有目标 '$w'" >>"$T/diag"
                bad=1
            fi
            break
        done
    done
done <"$T/make-src"
if ((count == 0)); then echo "文档里一个 make 目标都没找到" >>"$T/diag"; bad=1; fi
ok "$bad" "all $count make targets used in the documents exist in the Makefile"

# ---------- 5. 步骤标题 ----------
bad=0
count=0
# step_title(trace, 计数器, _("格式")) 或 P_("格式", …) → 正则：转义正则字符，printf 转换（%d %ld %zu %s %u）当作通配
grep -rhoE --include='*.c' 'step_title\([^"]*, P?_\("[^"]*"' src | sed -E 's/^step_title\([^"]*, P?_\("//; s/"$//' \
    | sed -E 's/[][\.*^$+?(){}|]/\\&/g; s/%(l|z|ll)?[dsu]/.*/g' >"$T/titles"
if [[ ! -s $T/titles ]]; then echo "在 src/*.c 里找不到 step_title 调用" >>"$T/diag"; bad=1; fi
while IFS=$'\t' read -r kind where line; do
    [[ $kind == EXC ]] || continue
    if [[ $line =~ ^==========\ 步骤[0-9]+:\ (.*)\ ==========$ ]]; then
        count=$((count + 1))
        if ! grep -qxEf "$T/titles" <<<"${BASH_REMATCH[1]}"; then
            echo "$where: 程序不会打印这个步骤标题: ${BASH_REMATCH[1]}" >>"$T/diag"
            bad=1
        fi
    fi
done <"$T/lines"
if ((count == 0)); then echo "摘录里一个步骤标题都没找到" >>"$T/diag"; bad=1; fi
ok "$bad" "all $count step titles inside excerpts match a step_title() format in src/*.c"

# ---------- 6. 会跟着代码变的列表（docs/OPTIONS.md）和 -h、src/control/wire.h 一致 ----------
bad7=0
tests/docs/check-lists.sh "${DOCS[@]}" >"$T/diag" 2>&1 || bad7=1
ok "$bad7" "the lists in docs/OPTIONS.md (long options and their defaults, --inject kinds and roles, options both sides must match, HELLO flag bits) agree with -h and src/control/wire.h, and no other document keeps its own copy"

# ---------- 7. 每个角色的 -h 只列自己的选项 ----------
# 帮助里一行一个选项：“  -d, --dev NAME  说明” 或 “      --inject rkey  说明”；占位符换成一个合法的值
placeholder_value() {
    case $1 in
        NAME) echo rxe0 ;; OP) echo send ;; BYTES) echo 64 ;; SEC) echo 5 ;;
        N\|auto) echo auto ;; N | N\|all) echo 1 ;; *) echo "$1" ;;
    esac
}
bad8=0
: >"$T/diag8"
for prog in build/rdma_server build/rdma_client; do
    pre=()
    [[ $prog == *client ]] && pre=(10.11.0.1)
    "$prog" -h 2>&1 | grep -E '^ +(-[a-z], )?--[a-z]' >"$T/optlines"
    [[ -s $T/optlines ]] || { echo "$prog -h 里没有选项行" >>"$T/diag8"; bad8=1; }
    while read -r line; do
        line=${line#-?, }
        read -r opt arg _ <<<"$line"
        args=("$opt")
        [[ $arg =~ ^[A-Za-z|]+$ && $arg != 显示本帮助 ]] && args+=("$(placeholder_value "$arg")")
        [[ $opt == --help || $opt == --dry-run ]] && continue
        out=$("$prog" "${pre[@]}" "${args[@]}" --dry-run 2>&1)
        if grep -qE '只用于(服务端|客户端)' <<<"$out"; then
            echo "$prog -h 列出了 ${args[*]}，但它拒绝: $(grep -E '只用于' <<<"$out" | head -1)" >>"$T/diag8"
            bad8=1
        fi
    done <"$T/optlines"
done
cp "$T/diag8" "$T/diag"
ok "$bad8" "each role's -h lists only options that role accepts (checked one by one with --dry-run)"

# ---------- 8. 相对链接 ----------
bad9=0
perl tests/docs/check-links.pl "${DOCS[@]}" lab/README*.md docs/bench/README*.md docs/dev/*.md >"$T/diag" 2>&1 || bad9=1
ok "$bad9" "every relative link in the documents points to an existing file and heading"


# ---------- 9. README 的大小预算 ----------
bad=0
read -r rl rb < <(wc -lc <README.md)
if ((rl > README_MAX_LINES || rb > README_MAX_BYTES)); then
    echo "README.md 有 $rl 行、$rb 字节，预算是 $README_MAX_LINES 行、$README_MAX_BYTES 字节：把细节移到 docs/，README 里留一段话和链接" >>"$T/diag"
    bad=1
fi
tb=$(wc -c <TROUBLESHOOTING.md)
if ((tb > TS_MAX_BYTES)); then
    echo "TROUBLESHOOTING.md 有 $tb 字节，预算是 $TS_MAX_BYTES：它是症状索引，长的讲解移到它所属的页面（FLOW、GALLERY、KERNELS、LOSS-*……），这里留一行和链接" >>"$T/diag"
    bad=1
fi
ok "$bad" "README.md and TROUBLESHOOTING.md stay within their budgets ($rl/$README_MAX_LINES lines, $rb/$README_MAX_BYTES bytes; $tb/$TS_MAX_BYTES bytes)"

# ---------- 10. 两台虚拟机的命令里没有单机实验室的设备名 ----------
# 命令 = 代码块的行（摘录和 <!-- lab-only --> 块除外），以及正文里以命令开头的 `行内代码`。
# 单机实验室里服务端是 rxe0、客户端是 rxe1；两台虚拟机上每台只有自己的 rxe0，不用 -d。
bad=0
count=0
{
    awk -F'\t' '$1 == "CODE" { print $2 "\t" $3 }' "$T/lines"
    awk -F'\t' '$1 == "TEXT" { s = $3; while (match(s, /`[^`]+`/)) { c = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
        if (c ~ /^(sudo )?(\.\/)?(build\/)?(rdma_server|rdma_client|ibv_|ib_|rping|rdma |ucmatose|\.\/diagnose|\.\/show_gids)/) print $2 "\t" c } }' "$T/lines"
} | grep -E '^(README|QUICKFIX|TROUBLESHOOTING|docs/QUICKFIX\.en)\.md:' >"$T/cmds"
while IFS=$'\t' read -r where text; do
    count=$((count + 1))
    cmd=$(strip_comment "$text")
    if [[ $cmd =~ (^|[^[:alnum:]_])rxe1([^[:alnum:]_]|$) ]]; then
        echo "$where: 单机实验室的设备名 rxe1（两台虚拟机上每台只有自己的 rxe0）: $text" >>"$T/diag"
        bad=1
    elif [[ $cmd =~ rdma_(server|client)([^|;&]*[[:space:]])?(-d[[:space:]]*|--dev[[:space:]=]+)rxe0 ]]; then
        echo "$where: 两台虚拟机的命令不用 -d rxe0（程序自己选本机的设备；单机实验室的写法放进 <!-- lab-only --> 块）: $text" >>"$T/diag"
        bad=1
    fi
done <"$T/cmds"
if ((count == 0)); then echo "README/QUICKFIX/TROUBLESHOOTING 里一条命令都没找到" >>"$T/diag"; bad=1; fi
ok "$bad" "all $count commands in README/QUICKFIX (both languages)/TROUBLESHOOTING use the two-VM form (no rxe1, no -d rxe0) outside <!-- lab-only --> blocks"

# ---------- 11. README 开头的实验室三行和它们的时间；.ci/run 明确要内核矩阵和原版镜像 ----------
bad=0
# 每个文档的前 60 行里，代码块中以这条命令开头的一行，注释里要有时间（数字 + 秒/分钟，英文 s/min）
lab_line_timed() {  # 文档 命令 时间的正则
    awk -v want="$2" 'NR > 60 { exit } /^```/ { code = !code; next }
        code { line = $0; cmd = line; sub(/[[:space:]]+#.*$/, "", cmd); if (cmd == want) { print line; exit } }' "$1" >"$T/labline"
    if [[ ! -s $T/labline ]]; then
        echo "$1 的前 60 行的代码块里没有这一行: $2" >>"$T/diag"; return 1
    fi
    sed -E 's/^[^#]*#//' "$T/labline" | grep -qE "$3" && return 0
    echo "$1: 这一行的注释里没有量过的时间: $(cat "$T/labline")" >>"$T/diag"
    return 1
}
for cmd in 'sudo bash lab/setup' 'make demo' 'sudo LAB_KERNEL=all LAB_STOCK=debian12 bash lab/setup && make test'; do
    lab_line_timed README.md "$cmd" '[0-9.]+ ?(秒|分钟)' || bad=1
    lab_line_timed docs/README.en.md "$cmd" '[0-9.]+ ?(s|min)([^a-z]|$)' || bad=1
done
grep -Ev '^[[:space:]]*(#|$|set |cd )' .ci/run | sed -E 's/[[:space:]]*<\/dev\/null$//' >"$T/ci"
if ! printf '%s\n' 'LAB_KERNEL=all LAB_STOCK=debian12 bash lab/setup' 'make test' | cmp -s - "$T/ci"; then
    { echo ".ci/run 没有明确要内核矩阵和原版镜像（LAB_KERNEL=all LAB_STOCK=debian12 bash lab/setup，然后 make test）:"; sed 's/^/    /' "$T/ci"; } >>"$T/diag"
    bad=1
fi
ok "$bad" "README and README.en show the lab's setup, demo and test lines in their first 60 lines, each with its time; .ci/run asks for LAB_KERNEL=all and LAB_STOCK=debian12"

# ---------- 12. 英文入口没有中文，标题和命令和 README 一样 ----------
bad=0
sed -E 's/\]\([^)]*\)/]()/g' docs/README.en.md | grep -nP '[\x{3000}-\x{303f}\x{3400}-\x{9fff}\x{ff00}-\x{ffef}]' >"$T/cjk" || true
if [[ -s $T/cjk ]]; then { echo "docs/README.en.md 里有中文（链接目标之外）:"; sed 's/^/    /' "$T/cjk"; } >>"$T/diag"; bad=1; fi
# 标题一一对应（## 到 ####，个数和顺序）：左边 README.md，右边 docs/README.en.md。英文版多出的两节（只有英文读者需要）写在 EN_ONLY
HEADINGS=(
    '## 目录|## Contents'
    '## 运行一次会发生什么|## What one run does'
    '## 在两台虚拟机上运行|## Two VMs: the real path'
    '### 1. 安装（两台都要）|### 1. Install (both VMs)'
    '### 2. 网络（两台都要，在建 rxe 之前）|### 2. Network (both VMs, before rxe)'
    '#### 从克隆来的两台虚拟机|#### Cloned VMs'
    '### 3. 取代码、编译（两台都要）|### 3. Get the code and build (both VMs)'
    '### 4. 创建 Soft-RoCE 设备（两台都要）|### 4. Create the Soft-RoCE device (both VMs)'
    '### 5. 防火墙（两台都要）|### 5. Firewall (both VMs)'
    '### 6. 运行|### 6. Run'
    '## 没有 RDMA？用实验室|## No RDMA? Use the lab'
    '## 全部参数|## Options'
    '## 更多主题|## More topics'
    '## 出错了怎么办|## What to do when it fails'
    '## 文档导航|## Where to go next'
)
EN_ONLY='^## (Error index \(English\)|Getting English output)$'
printf '%s\n' "${HEADINGS[@]}" | cut -d'|' -f1 >"$T/h-zh-want"
printf '%s\n' "${HEADINGS[@]}" | cut -d'|' -f2 >"$T/h-en-want"
classify README.md | awk -F'\t' '$1 == "TEXT" { print $3 }' | grep -E '^#{2,4} ' >"$T/h-zh"
classify docs/README.en.md | awk -F'\t' '$1 == "TEXT" { print $3 }' | grep -E '^#{2,4} ' | grep -vE "$EN_ONLY" >"$T/h-en"
for l in zh en; do
    if ! diff "$T/h-$l-want" "$T/h-$l" >"$T/hd"; then
        { echo "标题和 tests/26-host-docs.t 的 HEADINGS 对照表不一致（$l；< 表里的，> 文档里的）:"; sed 's/^/    /' "$T/hd"; } >>"$T/diag"; bad=1
    fi
done
# README 标了记号的命令块里的每条命令都在 README.en 的代码块里。比较前两边都去掉行尾的 # 注释、所有的 " --lang en"（英文版的命令
# 都加了它）、多余的空白。例外（英文版的写法不同）写在 EN_CMD_EXCEPT，现在没有
EN_CMD_EXCEPT=()
norm() { sed -E 's/[[:space:]]+#.*$//; s/ --lang en//g; s/[[:space:]]+/ /g; s/^ //; s/ $//' | grep -v '^$' || true; }
awk -F'\t' '$1 == "CODE" && $2 ~ /^docs\/README\.en\.md:/ { print $3 }' "$T/lines" | grep -vE '^[[:space:]]*#' | norm | sort -u >"$T/en-cmds"
while IFS=$'\t' read -r step _; do
    tests/docs/readme-steps.sh raw "$step" | norm | while IFS= read -r c; do
        for x in "${EN_CMD_EXCEPT[@]}"; do [[ $c != "$x" ]] || continue 2; done
        grep -qxF -- "$c" "$T/en-cmds" || echo "README.md 第 $step 块的命令不在 docs/README.en.md 的代码块里: $c"
    done
done < <(tests/docs/readme-steps.sh list) >>"$T/diag"
if grep -q 'docs/README.en.md 的代码块里' "$T/diag"; then bad=1; fi
ok "$bad" "docs/README.en.md has no Chinese outside link targets, README.md's headings one to one and the commands of its marked blocks"

# ---------- 13. README、QUICKFIX 引用的错误都在英文错误索引里 ----------
bad=0
python3 tests/docs/check-error-index.py >"$T/ei" 2>&1 || bad=1
if [[ $bad != 0 ]]; then sed 's/^/    /' "$T/ei" >>"$T/diag"; fi
ok "$bad" "every error README.md and QUICKFIX.md quote is in the English index of docs/TROUBLESHOOTING.en.md, and every line of tests/docs/error-lines.txt is still quoted in a learner page ($(sed -n 's/^# \([0-9]*\) .*/\1/p' "$T/ei") quotes)"

# ---------- 14. Makefile 的依赖消息两种语言都有 ----------
bad=0
# 每一行里的 echo 依次排开；“错误: ”那条的下一条必须是 “error: ”，两条都写到标准错误
grep -oE 'echo "[^"]*"( >&2)?' Makefile | awk '
    prev != "" { p = prev; prev = ""; if ($0 !~ /^echo "error: .*" >&2$/) printf "Makefile: %s 后面不是英文的 echo \"error: …\" >&2，而是: %s\n", p, $0 }
    /^echo "错误: / { n++; if ($0 !~ / >&2$/) printf "Makefile: 没有写到标准错误: %s\n", $0; prev = $0 }
    /^echo "error: / && /[\344-\351]/ { printf "Makefile: 英文消息里有中文: %s\n", $0 }
    END { if (prev != "") printf "Makefile: %s 后面没有英文的一条\n", prev; if (n == 0) print "Makefile 里找不到 echo \"错误: …\""; print "#", n }
' >"$T/mk"
grep -v '^#' "$T/mk" >>"$T/diag" && bad=1
ok "$bad" "each of the Makefile's $(sed -n 's/^# //p' "$T/mk") dependency messages (echo \"错误: …\" >&2) is followed by its English echo \"error: …\" >&2"

# ---------- 15. QUICKFIX 的英文版和中文版同步 ----------
bad=0
EN_QF=docs/QUICKFIX.en.md
sed -E 's/\]\([^)]*\)/]()/g' "$EN_QF" | grep -nP '[\x{3000}-\x{303f}\x{3400}-\x{9fff}\x{ff00}-\x{ffef}]' >"$T/cjk" || true
if [[ -s $T/cjk ]]; then { echo "$EN_QF 里有中文（链接目标之外）:"; sed 's/^/    /' "$T/cjk"; } >>"$T/diag"; bad=1; fi
# shellcheck disable=SC2016  # 标题里的反引号是 Markdown，不是命令替换
QF_HEADINGS=(
    '# 快速修复（QUICKFIX）|# Quick fixes (QUICKFIX)'
    '## 0. 还没有 RDMA 设备：安装和建 rxe 时的错误|## 0. No RDMA device yet: errors while installing and creating rxe'
    '## 1. 运行诊断脚本，按顺序修 `[失败]` 项|## 1. Run the diagnosis script and fix the `[FAIL]` items in order'
    '## 2. 两端都去掉 `-g`，让程序自动选 GID|## 2. Drop `-g` on both sides and let the programs choose the GID'
    '## 3. 两端参数一致|## 3. The same parameters on both sides'
    '## 4. 端口 ACTIVE、网卡有 IPv4 地址|## 4. Port ACTIVE, an IPv4 address on the netdev'
    '## 5. 网络和防火墙：TCP 18515 + UDP 4791|## 5. Network and firewall: TCP 18515 + UDP 4791'
    '## 6. 普通用户：memlock|## 6. Ordinary users: memlock'
    '## 7. 用官方工具交叉验证|## 7. Cross-check with the standard tools'
)
printf '%s\n' "${QF_HEADINGS[@]}" | cut -d'|' -f1 >"$T/qh-zh-want"
printf '%s\n' "${QF_HEADINGS[@]}" | cut -d'|' -f2 >"$T/qh-en-want"
classify QUICKFIX.md | awk -F'\t' '$1 == "TEXT" { print $3 }' | grep -E '^#{1,4} ' >"$T/qh-zh"
classify "$EN_QF" | awk -F'\t' '$1 == "TEXT" { print $3 }' | grep -E '^#{1,4} ' >"$T/qh-en"
for l in zh en; do
    if ! diff "$T/qh-$l-want" "$T/qh-$l" >"$T/hd"; then
        { echo "QUICKFIX 的标题和 tests/26-host-docs.t 的 QF_HEADINGS 对照表不一致（$l；< 表里的，> 文档里的）:"; sed 's/^/    /' "$T/hd"; } >>"$T/diag"; bad=1
    fi
done
# 命令：代码块里的行（# 注释行除外）和正文里以命令开头的 `行内代码`（带中文的除外）；两边都按第 12 项的 norm 规整，中文页的 <对端IP> 当作 <peer IP>
qf_cmds() {  # qf_cmds 文件 → 规整过的命令，一行一条
    {
        awk -F'\t' -v f="$1:" '$1 ~ /^CODE/ && index($2, f) == 1 { print $3 }' "$T/lines" | grep -vE '^[[:space:]]*#'
        awk -F'\t' -v f="$1:" '$1 == "TEXT" && index($2, f) == 1 { s = $3; while (match(s, /`[^`]+`/)) { c = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
            if (c ~ /^(sudo |\.\/|ip |rdma |ibv_|ib_|modprobe |modinfo |ulimit |uname|apt-get |make )/) print c } }' "$T/lines"
    } | sed 's/<对端IP>/<peer IP>/g' | norm | { grep -vP '[\x{3400}-\x{9fff}]' || true; } | sort -u   # 带中文的是引用的错误，下面另查
}
qf_cmds QUICKFIX.md >"$T/qf-zh-cmds"
qf_cmds "$EN_QF" >"$T/qf-en-cmds"
# 英文页里命令可以出现在代码块，也可以在任何 `行内代码` 里
{ cat "$T/qf-en-cmds"; awk -F'\t' -v f="$EN_QF:" '$1 == "TEXT" && index($2, f) == 1 { s = $3; while (match(s, /`[^`]+`/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }' "$T/lines" | norm; } | sort -u >"$T/qf-en-all"
comm -23 "$T/qf-zh-cmds" "$T/qf-en-all" | sed "s|^|QUICKFIX.md 的命令不在 $EN_QF 里: |" >"$T/qf-miss"
if [[ -s $T/qf-miss ]]; then cat "$T/qf-miss" >>"$T/diag"; bad=1; fi
if [[ ! -s $T/qf-zh-cmds ]]; then echo "QUICKFIX.md 里一条命令都没找到" >>"$T/diag"; bad=1; fi
python3 tests/docs/check-error-index.py --pair QUICKFIX.md "$EN_QF" >"$T/qe" 2>&1 || { bad=1; sed 's/^/    /' "$T/qe" >>"$T/diag"; }
ok "$bad" "$EN_QF has no Chinese outside link targets, QUICKFIX.md's headings one to one, its $(wc -l <"$T/qf-zh-cmds") commands and its $(sed -n 's/^# \([0-9]*\) .*/\1/p' "$T/qe") quoted errors"

# ---------- 16. 给学习者的页面只说项目本身 ----------
bad=0
python3 tests/docs/check-learner-pages.py --manifest docs/pages.txt >"$T/lp" 2>&1 || { bad=1; grep -v '^# ' "$T/lp" >>"$T/diag"; }
ok "$bad" "docs/pages.txt lists every .md; its $(sed -n 's/^# \([0-9]*\) .*/\1/p' "$T/lp") learner pages name none of this project's issues, no drafting or development words and link nothing under tests/"

# ---------- 17. 会跟着代码变的事实 ----------
bad=0
python3 tests/docs/check-facts.py >"$T/facts" 2>&1 || { bad=1; grep -v '^# ' "$T/facts" >>"$T/diag"; }
ok "$bad" "facts in the learner pages agree with the code ($(sed -n 's/^# //p' "$T/facts"))"

# ---------- 18. 每个学习者页面和它的英文版同步 ----------
bad=0
python3 tests/docs/check-parity.py --manifest docs/pages.txt >"$T/par" 2>&1 || { bad=1; grep -v '^# ' "$T/par" >>"$T/diag"; }
ok "$bad" "each of the $(sed -n 's/^# \([0-9]*\) .*/\1/p' "$T/par") learner pages in docs/pages.txt has its English twin in step (language links both ways, no Chinese, headings one to one, the same commands and quoted errors), and docs/README.en.md links every twin"

# ---------- 19. 代码打印的页面链接，两种语言 ----------
bad=0
python3 tests/docs/check-code-links.py >"$T/cl" 2>&1 || { bad=1; grep -v '^# ' "$T/cl" >>"$T/diag"; }
ok "$bad" "every page link the code prints resolves in both languages ($(sed -n 's/^# \([0-9]*\) .*/\1/p' "$T/cl") links: exercise 'see:' lines, pages named in po/en.po and po/sh/en.po)"
