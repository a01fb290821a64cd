#!/usr/bin/env bash
# tests/36-lab-docs.t - 文档里的输出摘录就是程序现在的真实输出（实验室，TAP 输出，约 1.5 分钟）
#   1. 在实验室里重跑全部配方（tests/docs/update-excerpts.sh --run），屏蔽易变值后，
#      四个文档里的每段摘录与重新截取的一致（--check）
#   2. tests/docs/key-sentences.txt 里的每句讲解都逐字出现在真实运行的日志里
#   3-6. README 开头的实验室几行由普通用户 learner 在他自己的克隆里原样运行（tests/lab/learner.sh：lab/setup --check、
#      属于 root 的文件时 make 给出的修复命令、make demo、make exercise 的一次检查；两次开机，负载 14 时 139 秒）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
UPDATE=tests/docs/update-excerpts.sh
T=$(mktemp)
trap 'rm -f "$T"' EXIT
echo "1..6"

if EXCERPTS_REUSE_PATHS=1 "$UPDATE" --run >"$T" 2>&1 && "$UPDATE" --check >>"$T" 2>&1; then
    echo "ok 1 - every excerpt in the four documents equals a fresh lab run (PSN/QPN/keys/addresses/fe80/times masked)"
else
    echo "not ok 1 - every excerpt in the four documents equals a fresh lab run (PSN/QPN/keys/addresses/fe80/times masked)"
    grep -v '^recipe ' "$T" | sed 's/^/# /'
fi

bad=0
: >"$T"
count=0
while IFS=$'\t' read -r log sentence; do
    [[ -z $log || $log == \#* ]] && continue
    count=$((count + 1))
    if [[ ! -f logs/excerpts/$log ]]; then
        echo "没有日志 logs/excerpts/$log" >>"$T"
        bad=1
    elif ! grep -qF -- "$sentence" "logs/excerpts/$log"; then
        echo "logs/excerpts/$log 里没有: $sentence" >>"$T"
        bad=1
    fi
done <tests/docs/key-sentences.txt
((count >= 10)) || { echo "key-sentences.txt 只有 $count 句" >>"$T"; bad=1; }
if ((bad == 0)); then
    echo "ok 2 - all $count key teaching sentences appear verbatim in real runs"
else
    echo "not ok 2 - all $count key teaching sentences appear verbatim in real runs"
    sed 's/^/# /' "$T"
fi

# 3-6. 普通用户在自己的克隆里（以 root 运行时；不是 root 时跳过）
tests/lab/learner.sh 3
