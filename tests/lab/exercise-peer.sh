#!/usr/bin/env bash
# tests/lab/exercise-peer.sh - 两台虚拟机里的 make exercise PEER=（tests/61-two-vms-exercises.t）：
#   VM0 跑检查打印的参照对端命令（加 --ready-file），VM1 跑 exercise.py run 3 --ref --peer 10.11.0.1（宿主机已编好）
set -uo pipefail
# shellcheck source=tests/lab/peer.bash
source tests/lab/peer.bash
if [[ $LAB_VM == 0 ]]; then
    rm -f /tmp/ex-ready
    build/rdma_server --op send -q 2 --qp-state all --counters -t 8 --ready-file /tmp/ex-ready >/tmp/vm0.out 2>&1 &
    srv=$!
    for ((k = 0; k < 300; k++)); do [[ -s /tmp/ex-ready ]] && break; kill -0 "$srv" 2>/dev/null || break; peer_nap 0.1; done
    if [[ -s /tmp/ex-ready ]]; then peer_ready listen; else peer_abort "server start"; fi
    wait "$srv"
    echo "RESULT vm0 rc=$?"
    sed 's/^/# vm0: /' /tmp/vm0.out | tail -5
else
    if peer_wait listen; then
        python3 exercises/check/exercise.py run 3 --ref --peer 10.11.0.1 2>&1 | tee /tmp/vm1.out | sed 's/^/# vm1: /'
        echo "RESULT vm1 rc=${PIPESTATUS[0]}"
    else
        echo "RESULT vm1 rc=99 $PEER_WHY"
    fi
fi
peer_done
