#!/usr/bin/env bash
# tests/61-two-vms-exercises.t - make exercise 的 PEER=（学习者自己的两台虚拟机）在实验室的两台虚拟机里（TAP，一次开机）
#   1. VM1 的检查打印了要在另一台上运行的参照对端命令，并说出哪些诊断弱一些
#   2. VM0 照那条命令跑的服务端和 VM1 的检查（REF=1：程序自己的函数）都通过
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
echo "1..2"
if ! make -s all >/dev/null || ! make -s exercise-objs >/dev/null || ! python3 exercises/check/exercise.py build 3 --ref >/dev/null; then
    echo "Bail out! build failed"; exit 1
fi
out=$(EXERCISE_STATE=/tmp/ex-two-vms-state.json LAB_QUIET=1 LAB_TOPOLOGY=two-vms LAB_PASSENV=EXERCISE_STATE lab/run bash tests/lab/exercise-peer.sh 2>&1)
want='build/rdma_server --op send -q 2 --qp-state all --counters -t 8'
if [[ $out == *"$want"* && $out == *"没有抓包"* ]]; then echo "ok 1 - PEER= prints the peer's command and what is weaker"; else echo "not ok 1 - PEER= prints the peer's command and what is weaker"; fi
if [[ $out == *"RESULT vm0 rc=0"* && $out == *"RESULT vm1 rc=0"* && $out == *"✓ 通过"* ]]; then
    echo "ok 2 - the reference server on VM0 and the check on VM1 both pass"
else
    echo "not ok 2 - the reference server on VM0 and the check on VM1 both pass"
    printf '%s\n' "$out" | tail -30 | sed 's/^/# /'
fi
