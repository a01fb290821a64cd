#!/usr/bin/env bash
# tests/mutation/run.sh - 变异检查（make mutation；很慢，不在 make test 里）
#
# tests/mutation/*.patch 每个文件是一个“故意的错误”（mutant）：开头几行注释
#     # mutant: 说明
#     # run: 在副本根目录执行的命令（可以有多行；任何一条退出码非 0、或输出里有 TAP 的 “not ok” 行
#            = 这个错误被测试抓住了。TAP 的 .t 文件有失败时也可能以 0 退出，所以两样都看）
# 后面是 diff -u 格式的补丁。对每个补丁：把当前工作树复制到一个临时目录，打补丁，编译，
# 依次运行 run 命令，最后打印一张表：caught / MISSED / STALE（补丁打不上：代码重构过，
# 请更新这个补丁）/ NOBUILD（打了补丁编译不过：这个补丁本身有问题）。
# 退出码：全部 caught 为 0，否则 1。
#
# 用法: tests/mutation/run.sh [补丁名的子串...]      例如 tests/mutation/run.sh race mtu
# 副本放在 ${MUTATION_DIR:-/var/tmp/rocev2-mutation}（不能在 /tmp 下：实验室虚拟机里 /tmp 是另一个 tmpfs）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
REPO=$PWD
WORK=${MUTATION_DIR:-/var/tmp/rocev2-mutation}
LOGS=$REPO/logs/mutation

patches=()
for p in tests/mutation/*.patch; do
    if (($# == 0)); then patches+=("$p"); continue; fi
    for want in "$@"; do [[ $p == *"$want"* ]] && { patches+=("$p"); break; }; done
done
((${#patches[@]})) || { echo "没有匹配的补丁" >&2; exit 2; }

mkdir -p "$LOGS"
rows=()
bad=0
for p in "${patches[@]}"; do
    name=$(basename "$p" .patch)
    what=$(sed -n 's/^# mutant: //p' "$p")
    mapfile -t runs < <(sed -n 's/^# run: //p' "$p")
    log=$LOGS/$name.log
    start=$SECONDS
    echo "=== $name: $what" >&2
    # 新的副本：git 跟踪的文件 + 还没提交的改动（不含 build/ logs/）
    rm -rf "$WORK"
    mkdir -p "$WORK"
    git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$WORK"
    mkdir -p "$WORK/logs"
    if ! patch -d "$WORK" -p1 --dry-run -s <"$p" >"$log" 2>&1; then
        result=STALE
    elif ! patch -d "$WORK" -p1 -s <"$p" >>"$log" 2>&1 || ! make -C "$WORK" -s all unit >>"$log" 2>&1; then
        result=NOBUILD
    else
        result=MISSED
        for cmd in "${runs[@]}"; do
            echo "\$ $cmd" >>"$log"
            out=$(mktemp)
            rc=0
            (cd "$WORK" && bash -c "$cmd") >"$out" 2>&1 || rc=$?
            cat "$out" >>"$log"
            if [[ $rc != 0 ]] || grep -q '^not ok' "$out"; then
                result=caught
            fi
            rm -f "$out"
            [[ $result == caught ]] && break
        done
    fi
    [[ $result == caught ]] || bad=1
    rows+=("$(printf '| %s | %s | %s | %ss |' "$name" "$what" "$result" "$((SECONDS - start))")")
    echo "    → $result（日志 $log）" >&2
done
rm -rf "$WORK"

echo "| mutant | what | result | time |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
exit "$bad"
