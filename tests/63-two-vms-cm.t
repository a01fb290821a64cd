#!/usr/bin/env bash
# --cm（librdmacm 建连）在两台虚拟机之间：六种操作 × 1 个QP（16 个QP 在 cm.bats、4 个在 combos.bats 的 --cm × --cq event）、交互模式、对端消失、没人监听，TAP 输出。
# 场景和断言在 tests/lab/cm-two-vms.sh 里（两台虚拟机里都运行它），这里把 RESULT 行变成 TAP（一次启动）。
# 同一次启动的最后：verbs-check 在两台上（issue 57，vc-*：tests/lab/verbs-check-two-vms.sh）。
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
out=$(mktemp)
trap 'rm -f "$out"' EXIT
want=(server-ops-1 client-ops-1
      server-interactive client-interactive vanish no-listener
      vc-rc-server vc-rc vc-pair vc-wrong-gid-server vc-wrong-gid)
echo "1..${#want[@]}"
LAB_TOPOLOGY=two-vms lab/run tests/lab/cm-two-vms.sh >"$out" 2>&1
results_to_tap "$out" 0 "${want[@]}"
