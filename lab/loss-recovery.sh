#!/usr/bin/env bash
# lab/loss-recovery.sh - 链路上的损伤在真实 rxe 上是什么样子（make loss-recovery，不在 make test 里；docs/LOSS-RECOVERY.md 的“每种损伤”一节）
#
#   lab/loss-recovery.sh [OUT]            宿主机上：开一台单机实验室虚拟机跑全部场景，再汇总（默认 OUT=logs/loss-recovery）
#   lab/loss-recovery.sh --guest OUT      虚拟机里：每个场景挂 netem → 在 veth0 上抓包 → 一对 --counters 的程序 → 拆 netem
#
# 每个场景写 OUT/NAME-server.log、OUT/NAME-client.log（两端的控制台，含 --counters 的块）、OUT/NAME.pcap（只存前 128 字节）、
# OUT/NAME.tc（两块 veth 上 netem 的 tc -s 统计：丢了几个、重复了几个）。最后 tools/loss-recovery/summary.py 读这些文件，
# 写 OUT/summary.txt（每个场景一行：退出码、rxe 计数、线上的包、NAK、重发）和 OUT/gbn.dat，gnuplot 画 OUT/gbn.svg
# （每丢一个请求包要多发几个包，按消息大小）。
#
# 拓扑：rxe0 在 veth0（10.11.0.1，服务端），rxe1 在 veth1（10.11.0.2，客户端）。netem 挂在出口上：veth1 的出口是
# 客户端 → 服务端（请求），veth0 的出口是服务端 → 客户端（ACK/NAK）。只在 veth0 上抓：两个方向的包都经过它，
# 抓到的是过了 netem 之后真的在线上的包（veth0 出口的 netem 丢掉的包不会出现在抓包里）。
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} != --guest ]]; then
    OUT=${1:-logs/loss-recovery}
    mkdir -p "$OUT"
    rm -f "$OUT"/*.log "$OUT"/*.pcap "$OUT"/*.tc
    LAB_TOPOLOGY=single lab/run bash lab/loss-recovery.sh --guest "$OUT"
    python3 tools/loss-recovery/summary.py "$OUT"
    exit 0
fi

OUT=$2
SNAP=128
modprobe sch_netem

netem() {  # netem DEV 参数...（空参数 = 拆掉）
    local dev=$1
    shift
    tc qdisc del dev "$dev" root 2>/dev/null || true
    (($#)) || return 0
    tc qdisc add dev "$dev" root netem limit 1000000 "$@"
}

# 抓包写进虚拟机的 /tmp（tmpfs），不直接写经 9p 的项目目录：TCG 下 tcpdump 每个包都刷一次 9p 就跟不上，
# 收到 SIGINT 时内核缓冲里还没读的包就丢了（1 MiB 的消息实测只存下十分之一，而 tcpdump 说 0 dropped）。
# 停之前等文件 1 秒不再变大（最多 60 秒），再 SIGINT，最后拷到 OUT
capture_start() {
    tcpdump -i veth0 -s "$SNAP" -B 16384 --immediate-mode -n -Z root -w "/tmp/$1.pcap" udp port 4791 2>"/tmp/$1.tcpdump" &
    TPID=$!
    for ((i = 0; i < 100; i++)); do grep -q 'listening on' "/tmp/$1.tcpdump" && return 0; sleep 0.1; done
    echo "impair: tcpdump 没有开始监听 veth0" >&2
    return 1
}
capture_stop() {
    local size=-1 now
    for ((i = 0; i < 60; i++)); do
        sleep 1
        now=$(stat -c %s "/tmp/$1.pcap")
        ((now == size)) && break
        size=$now
    done
    kill -INT "$TPID"
    wait "$TPID" || true
    cp "/tmp/$1.pcap" "$OUT/$1.pcap"
    grep -E 'packets (captured|received by filter|dropped by kernel)' "/tmp/$1.tcpdump" | tr '\n' ' ' | sed 's/^/impair: tcpdump: /; s/$/\n/'
}

# scenario NAME 'veth1 的 netem' 'veth0 的 netem' 两端的参数...（服务端和客户端都加 --counters）
scenario() {
    local name=$1 up=$2 down=$3 src=0 crc=0 spid ready=/tmp/impair.ready
    shift 3
    # shellcheck disable=SC2086  # netem 的参数是几个词
    netem veth1 $up
    # shellcheck disable=SC2086
    netem veth0 $down
    rm -f "$ready"
    capture_start "$name"
    build/rdma_server -d "$LAB_DEV0" --counters --ready-file "$ready" "$@" >"$OUT/$name-server.log" 2>&1 &
    spid=$!
    for ((i = 0; i < 300; i++)); do [[ -s $ready ]] && break; sleep 0.1; done
    build/rdma_client "$LAB_IP0" -d "$LAB_DEV1" --counters "$@" >"$OUT/$name-client.log" 2>&1 || crc=$?
    wait "$spid" || src=$?
    capture_stop "$name"
    { echo "veth1 (client->server): ${up:-none}"; tc -s qdisc show dev veth1
      echo "veth0 (server->client): ${down:-none}"; tc -s qdisc show dev veth0; } >"$OUT/$name.tc"
    netem veth1
    netem veth0
    echo "$src $crc" >"$OUT/$name.rc"
    printf 'impair: %-14s server %s client %s  (veth1: %s; veth0: %s)\n' "$name" "$src" "$crc" "${up:-none}" "${down:-none}"
}

# perftest 在同样的高丢包下：它把 retry_cnt 设成 7，rxe 把 7 当成无限（rxe_comp.c：retry_cnt != 7 才减一），
# 所以它不会以 RETRY_EXC_ERR 结束，只会一直重发；timeout 20 秒后杀掉（退出码 124）。计数直接读 sysfs（perftest 没有 --counters）
hw() {  # hw DEV 计数名
    cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"
}
perftest_highloss() {
    local name=perftest-highloss src=0 crc=0 spid c
    netem veth1 loss 50%
    netem veth0 loss 50%
    for c in completer_retry_err retry_exceeded_err; do echo "before $c $(hw "$LAB_DEV1" "$c")"; done >"$OUT/$name-client.log"
    timeout 20 ib_write_bw -d "$LAB_DEV0" -x 1 -F -s 1024 -n 40 >"$OUT/$name-server.log" 2>&1 &
    spid=$!
    sleep 2
    timeout 20 ib_write_bw -d "$LAB_DEV1" -x 1 -F -s 1024 -n 40 "$LAB_IP0" >>"$OUT/$name-client.log" 2>&1 || crc=$?
    wait "$spid" || src=$?
    sleep 0.1
    for c in completer_retry_err retry_exceeded_err; do echo "after $c $(hw "$LAB_DEV1" "$c")"; done >>"$OUT/$name-client.log"
    netem veth1
    netem veth0
    printf 'impair: %-14s server %s client %s  (loss 50%% both ways; 124 = killed by timeout 20)\n' "$name" "$src" "$crc"
}

W=(--op write -q 1 -t 20)
# 1. 没有损伤：基线
scenario base-4k "" "" "${W[@]}" --size 4K --iters 200
scenario base-64k "" "" "${W[@]}" --size 64K --iters 40
scenario base-1m "" "" "${W[@]}" --size 1M --iters 4
# 2. 请求方向丢 1%：序列 NAK + 立即重发；go-back-N 每丢一个包多发几个（按消息大小）
scenario loss-4k "loss 1%" "" "${W[@]}" --size 4K --iters 200
scenario loss-64k "loss 1%" "" "${W[@]}" --size 64K --iters 40
scenario loss-1m "loss 1%" "" "${W[@]}" --size 1M --iters 4
# 3. 只丢应答（ACK 方向 20%）：没有 NAK，只能等超时（timeout=14 ≈ 64 ms）再整条消息重发
scenario ackloss "" "loss 20%" "${W[@]}" --size 4K --iters 50
# 4. 两个方向都丢 50%：连续 7 次（第 1 次 + retry_cnt=6 次重发）没有进展 → RETRY_EXC_ERR
scenario highloss "loss 50%" "loss 50%" "${W[@]}" --size 1K --iters 40 -t 10
perftest_highloss
# --ack-timeout 0 = 不用定时器：应答丢了就没人重发（只有 NAK 才让请求方重发），程序自己的轮询超时（-t 3）先到
scenario ackloss-to0 "" "loss 30%" "${W[@]}" --size 4K --iters 10 -t 3 --ack-timeout 0
# 5. 乱序（要有延迟：没被选中的包晚 5 ms）：没有丢包，照样有序列 NAK 和重发；消息长了，连续的 NAK 会用完 retry_cnt
scenario reorder-4k "reorder 25% delay 5ms" "" "${W[@]}" --size 4K --iters 50
scenario reorder-64k "reorder 25% delay 5ms" "" "${W[@]}" --size 64K --iters 20
# 6. 延迟 100 ms（两个方向，往返 ≥ 200 ms）× --ack-timeout：16 ≈ 268 ms 够；14 ≈ 67 ms 假超时（重复的请求）；
#    12 ≈ 16.8 ms、10 ≈ 4.2 ms（rxe 取 1 个 jiffy = 4 ms）在应答回来之前超时 7 次 → RETRY_EXC_ERR
for to in 16 14 12 10; do
    scenario "delay-to$to" "delay 100ms" "delay 100ms" "${W[@]}" --size 4K --iters 5 --ack-timeout "$to"
done
# 同样的延迟，--cm（控制QP用 CM 的 timeout，数据QP换成 --ack-timeout）和 --bench bw（4 个QP）
scenario cm-to12 "delay 100ms" "delay 100ms" --cm --op write -q 1 --size 4K --iters 5 -t 20 --ack-timeout 12
scenario bench-to14 "delay 20ms" "delay 20ms" --bench bw --op write -q 4 --size 4K --iters 50 -t 20 --ack-timeout 14
# 7. 重复 10%（请求方向）：响应方数 duplicate_request，重发 ACK
scenario dup "duplicate 10%" "" "${W[@]}" --size 64K --iters 20
echo "impair: 写在 $OUT/"
