#!/usr/bin/env bash
# tests/verbs-check/two-vms-wrong-nic.sh - verbs-check 的 gid.wrong_ndev 在两台虚拟机上一个真的“rxe 建错网卡”上
# （和 tests/lab/two-vms-paths.sh 的 wrong-nic 同样的做法：VM1 的 rxe0 建在不通往服务端的第二块网卡 x0 上）。
#   LAB_TOPOLOGY=two-vms lab/run bash tests/verbs-check/two-vms-wrong-nic.sh OUTDIR
# VM0：ibv_rc_pingpong -g 1 服务端（rxe0 在 eth0 上），在 verbs-check 下。VM1：ibv_rc_pingpong -d rxe0 -g 1 客户端，
# 在 verbs-check 下；它的 GID 10.99.0.2 在 x0 上，内核从 10.99.0.2 到 10.11.0.1 的路由走 eth0。
# 输出在 OUTDIR/vm0、OUTDIR/vm1；VM1 最后打印一行 “RESULT wrong-ndev ok|fail …”。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OUT=$1/vm${LAB_VM:-0}
VC=build/verbs-check
rm -rf "$OUT"
mkdir -p "$OUT/logs"
# shellcheck source=tests/lab/peer.bash
. tests/lab/peer.bash

if [[ ${LAB_VM:-} == 0 ]]; then
    timeout 120 $VC --lang en --log "$OUT/logs" -- ibv_rc_pingpong -d rxe0 -g 1 -n 1 -p 18540 >"$OUT/s.out" 2>"$OUT/s.err" &
    spid=$!
    if listen_wait 18540 "$spid" 90; then
        peer_ready listen-18540
        peer_wait client-done 150
    else
        peer_abort "VM0: ibv_rc_pingpong did not listen on 18540"
    fi
    kill "$spid" 2>/dev/null
    wait "$spid"
    peer_done
    exit 0
fi

rxe_on_wrong_nic
ip route get 10.11.0.1 from 10.99.0.2 >"$OUT/route.out" 2>&1
need_peer listen-18540 wrong-ndev
timeout 90 $VC --lang en --log "$OUT/logs" -- ibv_rc_pingpong -d rxe0 -g 1 -n 1 -p 18540 10.11.0.1 >"$OUT/c.out" 2>"$OUT/c.err"
rc=$?
peer_ready client-done
if grep -q '^verbs-check: error gid.wrong_ndev ' "$OUT/c.err"; then
    echo "RESULT wrong-ndev ok client exit $rc: $(grep -A1 '^verbs-check: error gid.wrong_ndev ' "$OUT/c.err" | tail -1)"
else
    echo "RESULT wrong-ndev fail client exit $rc, no gid.wrong_ndev"
    sed 's/^/    | /' "$OUT/c.err"
fi
peer_done
