#!/usr/bin/env bash
# tests/16-host-messages.t - 错误和提示只经消息层打印（TAP，宿主机，不到 1 秒）
# 每个错误经 con_error（或 verbs_error/verbs_error_qp）、每个提示经 con_error 里的 CON_HINT 或 con_hint 打印，
# 它们同时把（错误，提示）交给 trace；手写的 “错误: ”“提示: ” 前缀绕过了这一层，trace 里就少一个错误（issue 24）。
# 只有 src/console/conout.c（消息层本身）可以写这两个前缀。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
echo "1..1"
bad=$(grep -rn --include='*.c' '"[^"]*\(错误\|提示\): ' src | grep -v '^src/console/conout\.c:')
if [[ -z $bad ]]; then
    echo "ok 1 - every error and hint in src/ goes through con_error/con_hint/verbs_error (no hand-written prefix)"
else
    echo "not ok 1 - errors or hints printed by hand, bypassing the message layer (and the trace):"
    printf '%s\n' "$bad" | sed 's/^/#   /'
fi
