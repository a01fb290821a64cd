#!/usr/bin/env bash
# tests/21-names.t - 注释和文档里点名的本项目的文件和函数都还在（TAP，宿主机，1 秒）
#   改名或删掉一个文件、一个函数之后，src/ 的注释和仓库里的 .md 不能还说旧名字（比如删掉的 qp_state.c、post_srq_receive）。
#   怎么分“本项目的”和“别的项目的”名字、允许的别的项目的名字：tests/docs/check-names.py 开头、tests/docs/names-foreign.txt
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
echo "1..1"
out=$(python3 tests/docs/check-names.py)
rc=$?
if ((rc == 0)); then
    echo "ok 1 - every file and function that a comment in src/ or a document names exists"
else
    echo "not ok 1 - names in comments or documents that no longer exist ($(printf '%s\n' "$out" | wc -l))"
    printf '%s\n' "$out" | sed 's/^/#   /'
fi
