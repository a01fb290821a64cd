#!/usr/bin/env bash
# tests/lab/stock-silence.sh - 量一次（不在任何 make 目标里；lab/stock-run tests/lab/stock-silence.sh，plain 变体）：
# TCP 18515 通、UDP 4791 被丢时，ibv_rc_pingpong 和 ib_send_bw（perftest，从软件源的磁盘装）各自沉默多久。
# VM1（客户端）的 input 丢弃 UDP 4791；每个工具最多等 SILENCE_CAP（默认 180）秒。每一行输出带上距客户端启动的秒数。
set -uo pipefail
P=${LAB_PROJ_RO:?只在 lab/stock-run 里运行}
VM=${LAB_VM:?}
# shellcheck source=tests/lab/peer.bash
. "$P/tests/lab/peer.bash"
OUT=/tmp/silence
mkdir -p "$OUT"
# shellcheck source=tests/lab/stock-common.bash
. "$P/tests/lab/stock-common.bash"
CAP=${SILENCE_CAP:-180}
stock_setup "network-vm$VM" || exit 0
stock_mirror || exit 0
if ! { DEBIAN_FRONTEND=noninteractive apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y perftest; } >"$OUT/apt.log" 2>&1; then
    echo "RESULT perftest-vm$VM fail"
    cat "$OUT/apt.log"
fi
modprobe rdma_rxe && rdma link add rxe0 type rxe netdev "$NIC"
echo "SILENCE vm$VM: rxe0 on $NIC, $(ibv_devices | tail -n +3 | tr -s ' ' | tr '\n' ' ')"
if [[ $VM == 1 ]]; then
    nft -f - <<'NFT'
table inet silence {
    chain input {
        type filter hook input priority 0;
        udp dport 4791 drop
    }
}
NFT
    echo "SILENCE vm1: nft drops incoming UDP 4791 (TCP 18515 open)"
fi
stamp() { local t0=$1 line; while IFS= read -r line; do printf '[%6.1f s] %s\n' "$(( (${EPOCHREALTIME/./} - t0) / 100000 ))e-1" "$line"; done; }
run_one() {  # run_one 名字 服务端命令 客户端命令
    local name=$1 t0 rc
    if [[ $VM == 0 ]]; then
        timeout "$((CAP + 60))" bash -c "$2" >"$OUT/$name-server.log" 2>&1 &
        SERVE_PID=$!
        listen_wait 18515 "$SERVE_PID" || { echo "SILENCE $name: server did not listen"; return; }
        peer_ready "$name-listen"
        wait "$SERVE_PID"
        rc=$?
        echo "SILENCE $name server: exit $rc (124 = killed by timeout $((CAP + 60)) s)"
        sed 's/^/    server| /' "$OUT/$name-server.log"
    else
        need_peer "$name-listen" "$name"
        t0=${EPOCHREALTIME/./}
        { timeout "$CAP" bash -c "$3" 2>&1; echo "EXIT $?"; } | stamp "$t0" >"$OUT/$name-client.log"
        echo "SILENCE $name client: $(tail -n 1 "$OUT/$name-client.log") after cap $CAP s (EXIT 124 = still running when timeout killed it)"
        sed 's/^/    client| /' "$OUT/$name-client.log"
    fi
    peer_ready "$name-done"
    need_peer "$name-done" "$name"
}
# stdbuf -oL：像在终端里一样按行输出（管道里是全缓冲，被 timeout 杀掉时 local/remote address 那几行就丢了；2026-11-27 那次就是这样）
run_one pingpong "stdbuf -oL ibv_rc_pingpong -d rxe0 -g 1" "stdbuf -oL ibv_rc_pingpong -d rxe0 -g 1 10.11.0.1"
run_one send_bw "stdbuf -oL ib_send_bw -d rxe0 -x 1" "stdbuf -oL ib_send_bw -d rxe0 -x 1 10.11.0.1"
peer_done
exit 0
