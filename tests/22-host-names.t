#!/usr/bin/env bash
# tests/22-host-names.t - 名字（TAP，宿主机，1 秒）
#   1. 注释和文档里点名的本项目的文件和函数都还在：改名或删掉一个文件、一个函数之后，src/ 的注释和仓库里的 .md 不能还说旧名字
#      （比如删掉的 qp_state.c、post_srq_receive）。怎么分“本项目的”和“别的项目的”名字、允许的别的项目的名字：
#      tests/docs/check-names.py 开头、tests/docs/names-foreign.txt
#   2. tests/ 顶层的 .t 文件名是 NN-层-内容.t，编号不重样，层和编号段对得上：10–29 host（宿主机，make check）、
#      30–59 lab（一台虚拟机）、60–69 two-vms（两台虚拟机）、70–79 stock（原版 Debian 镜像）
#   3. TAP 的小工具只有一份：shell 的 ok/pass/notok/plan/diag/tap_lines 只在 tests/lib/tap.bash 里定义（tests/、lab/、
#      tools/、.ci/ 下都不许再写一份），Python 的 check 只在 tests/lib/tap.py 里；自己数 TAP 项目（n=$((n + 1))）的 .t 都用 tap.bash
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
. tests/lib/tap.bash
plan 3

out=$(python3 tests/docs/check-names.py)
if [[ -z $out ]]; then
    pass "every file and function that a comment in src/ or a document names exists"
else
    notok "names in comments or documents that no longer exist ($(printf '%s\n' "$out" | wc -l))" "$out"
fi

bad=()
declare -A seen
for f in tests/*.t; do
    b=${f#tests/}
    if [[ ! $b =~ ^([0-9]{2})-(host|lab|two-vms|stock)-[a-z0-9][a-z0-9-]*\.t$ ]]; then
        bad+=("$b: 不是 NN-(host|lab|two-vms|stock)-内容.t"); continue
    fi
    num=${BASH_REMATCH[1]} tier=${BASH_REMATCH[2]}
    [[ -n ${seen[$num]:-} ]] && bad+=("$b: 编号 $num 和 ${seen[$num]} 重了")
    seen[$num]=$b
    case $tier in
        host) lo=10 hi=29 ;; lab) lo=30 hi=59 ;; two-vms) lo=60 hi=69 ;; stock) lo=70 hi=79 ;;
    esac
    ((10#$num >= lo && 10#$num <= hi)) || bad+=("$b: $tier 的编号应在 $lo–$hi")
done
if ((${#bad[@]} == 0)); then
    pass "tests/*.t: ${#seen[@]} files named NN-tier-what.t, numbers unique, tier matches its number range"
else
    notok "tests/*.t names" "${bad[@]}"
fi

# 定义：行首（可以缩进）的 ok() { / pass() / notok() / plan()，或 def check(cond
mapfile -t copies < <(git ls-files -co --exclude-standard tests lab tools .ci | grep -v -e '^tests/lib/tap\.bash$' -e '^tests/lib/tap\.py$' |
    xargs grep -nE '^\s*((function\s+)?(ok|pass|notok|not_ok|plan|tap|tap_lines|diag)\s*\(\)|def (check|ok)\(cond)' 2>/dev/null)
mapfile -t unshared < <(grep -lE 'n=\$\(\(n \+ 1\)\)' tests/*.t | xargs -r grep -L 'tests/lib/tap.bash')
if ((${#copies[@]} + ${#unshared[@]} == 0)); then
    pass "one TAP helper per language: ok/pass/notok/plan/diag/tap_lines only in tests/lib/tap.bash, check() only in tests/lib/tap.py; every .t that counts its own items sources tap.bash"
else
    notok "TAP helper copies (use tests/lib/tap.bash / tests/lib/tap.py)" "${copies[@]}" \
        "${unshared[@]/#/counts its own TAP items without tests/lib/tap.bash: }"
fi
tap_ok
