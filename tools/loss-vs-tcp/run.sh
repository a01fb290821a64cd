#!/usr/bin/env bash
# run.sh - make loss-vs-tcp 的实验室部分（lab/run 启动的单机虚拟机里运行，一次开机）：
# 同一条 veth 链路上，丢包率 LOSSY_LOSSES（%）逐个设成 netem（两个方向、limit 很大），每个丢包率下
# 本项目的 --bench bw、perftest 的 ib_write_bw、TCP（iperf3）轮流各跑一次，重复 LOSSY_REPS 轮。
# 每次运行前后读 rxe0/rxe1 的 hw_counters、两条 veth 的 netem 统计（tc -s qdisc）、veth 和 lo 的包数、
# /proc/net/snmp 的 TCP RetransSegs，一次运行一行写进 $OUT/reps.csv；表格和图由 tools/loss-vs-tcp/report.sh 在宿主机上做。
# 失败的运行（RETRY_EXC_ERR、超时、没有结果行）也是一行数据，不中止。
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${LOSSY_OUT:-logs/loss-vs-tcp}
read -r -a LOSSES <<<"${LOSSY_LOSSES:-0 0.01 0.1 0.5 1 2}"
REPS=${LOSSY_REPS:-5}
TCP_SECS=${LOSSY_TCP_SECS:-3}
read -r -a TOOLS <<<"${LOSSY_TOOLS:-ours perftest iperf3}"
SIZE=65536           # 一条消息 64 KiB = 64 个包（rxe 的路径MTU 1024）
PKTS_PER_MSG=64
D0=${LAB_DEV0:-rxe0} D1=${LAB_DEV1:-rxe1} IP0=${LAB_IP0:-10.11.0.1} IP1=${LAB_IP1:-10.11.0.2}
mkdir -p "$OUT/logs"
START=$SECONDS

# 轮数随丢包率减少：go-back-N 下 2% 的吞吐量只剩百分之几，固定的轮数会让一次运行要几分钟
iters_for() {
    case $1 in
        0 | 0.01 | 0.1) echo 256 ;;
        0.5) echo 128 ;;
        1) echo 64 ;;
        *) echo 32 ;;
    esac
}

# wait_listen 端口（十进制）：等本机 TCP 端口开始监听（tools/lib/listen.bash）
# shellcheck source=tools/lib/listen.bash
. tools/lib/listen.bash

# ---------- 链路：netem 两个方向；TCP 的一个 skb 只许一个段 ----------
# TCP 总是交出 GSO 的大 skb（几个到几十个段），分段发生在 qdisc 之后：netem 丢一个 skb 就一次丢掉好几个段，
# 丢包次数只有按包算的几分之一（第一次量时 2% 下 TCP 的 netem 丢包只有包数的 0.27%）。gso_max_segs 1 让 TCP 每个 skb
# 只装一个段，netem 和 rxe 的包一样按包丢（rxe 本来就是一个包一个 skb）
modprobe sch_netem
for d in veth0 veth1; do ip link set dev "$d" gso_max_segs 1; done
set_loss() {
    local d
    for d in veth0 veth1; do tc qdisc replace dev "$d" root netem limit 1000000 loss "$1%"; done
}

# ---------- 一次快照：S[名字]=值 ----------
declare -A S
CTRS=(sent_pkts rcvd_pkts completer_retry_err rcvd_seq_err duplicate_request out_of_seq_request retry_exceeded_err)
snap() {
    local dev c v d line
    S=()
    for dev in "$D0" "$D1"; do
        for c in "${CTRS[@]}"; do
            v=0
            read -r v <"/sys/class/infiniband/$dev/ports/1/hw_counters/$c" || v=0
            S[$dev.$c]=$v
        done
    done
    for d in veth0 veth1 lo; do
        read -r v <"/sys/class/net/$d/statistics/tx_packets"
        S[$d.tx]=$v
    done
    for d in veth0 veth1; do
        # "Sent 123 bytes 4 pkt (dropped 5, overlimits 0 requeues 0)"
        line=$(tc -s qdisc show dev "$d")
        [[ $line =~ Sent\ [0-9]+\ bytes\ ([0-9]+)\ pkt\ \(dropped\ ([0-9]+) ]] || BASH_REMATCH=(x 0 0)
        S[$d.nsent]=${BASH_REMATCH[1]} S[$d.ndrop]=${BASH_REMATCH[2]}
    done
    while read -r line; do
        if [[ $line == Tcp:\ [0-9]* ]]; then
            read -r -a a <<<"$line"
            S[tcp.retrans]=${a[12]}   # Tcp: 的第 13 列是 RetransSegs（/proc/net/snmp 的表头行）
        fi
    done </proc/net/snmp
}
declare -A B
save_before() { B=(); local k; for k in "${!S[@]}"; do B[$k]=${S[$k]}; done; }
delta() { echo $((S[$1] - B[$1])); }

# 一次运行的结局：ok；WC 的 RETRY_EXC_ERR（ibv_wc_status_str 的原话，两个程序都这样打印）；超时；别的退出码
status_of() {  # status_of 客户端日志 退出码（用 MBPS）
    if (($2 != 0)) && grep -q -e 'transport retry counter exceeded' -e 'Failed status 12:' "$1"; then STATUS=RETRY_EXC_ERR
    elif (($2 == 124)); then STATUS=timeout
    elif (($2 != 0)) || [[ -z $MBPS ]]; then STATUS="exit$2"
    else STATUS=ok; fi
}

# ---------- 三个工具，各跑一次；结果放在 MBPS、STATUS、WALL ----------
run_ours() {  # run_ours tag iters
    local tag=$1 n=$2 sp rc=0 t0=$SECONDS
    timeout 120 build/rdma_server -d "$D0" -q 1 --bench bw --op write --size "$SIZE" --iters "$n" -t 60 \
        >"$OUT/logs/$tag.server.log" 2>&1 &
    sp=$!
    wait_listen 18515 || true
    timeout 120 build/rdma_client "$IP0" -d "$D1" -q 1 --bench bw --op write --size "$SIZE" --iters "$n" -t 60 \
        --counters >"$OUT/logs/$tag.client.log" 2>&1 || rc=$?
    wait "$sp" || true
    WALL=$((SECONDS - t0))
    MBPS=$(awk '/^BENCH_RESULT /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]=="bw_avg_MBps")v=a[2]}} END{print v}' \
        "$OUT/logs/$tag.client.log")
    # 本项目自己数的包：BENCH_RESULT 的 ctr_sent_pkts（客户端 = 请求方，rxe1），含预热
    CTR_SENT=$(awk '/^BENCH_RESULT /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]=="ctr_sent_pkts")v=a[2]}} END{print v}' \
        "$OUT/logs/$tag.client.log")
    MSGS=$((n + n / 10 + 1))   # 计时的 n 条 + 预热 n/10+1 条（src/runs/bench.c warmup_count）
    status_of "$OUT/logs/$tag.client.log" "$rc"
}

run_perftest() {  # run_perftest tag iters
    local tag=$1 n=$2 sp rc=0 t0=$SECONDS row
    timeout 120 ib_write_bw -d "$D0" -x 1 -F -s "$SIZE" -n "$n" >"$OUT/logs/$tag.server.log" 2>&1 &
    sp=$!
    wait_listen 18515 || true
    timeout 120 ib_write_bw -d "$D1" -x 1 -F -s "$SIZE" -n "$n" "$IP0" >"$OUT/logs/$tag.client.log" 2>&1 || rc=$?
    wait "$sp" || true
    WALL=$((SECONDS - t0))
    # 带宽行：#bytes #iterations BW_peak BW_average MsgRate
    row=$(awk -v s="$SIZE" '$1 == s && NF >= 5 { r = $4 } END { print r }' "$OUT/logs/$tag.client.log")
    MBPS=$row CTR_SENT='' MSGS=$n
    status_of "$OUT/logs/$tag.client.log" "$rc"
}

run_iperf3() {  # run_iperf3 tag：客户端绑 10.11.0.2，按策略路由（pref 21）经 veth1 → veth0，不走 lo
    local tag=$1 sp rc=0 t0=$SECONDS
    timeout 60 iperf3 -s -1 -B "$IP0" -p 5201 >"$OUT/logs/$tag.server.log" 2>&1 &
    sp=$!
    wait_listen 5201 || true
    timeout 60 iperf3 -c "$IP0" -B "$IP1" -p 5201 -t "$TCP_SECS" -J >"$OUT/logs/$tag.client.json" 2>&1 || rc=$?
    wait "$sp" || true
    WALL=$((SECONDS - t0))
    MBPS=$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print("%.3f" % (d["end"]["sum_received"]["bits_per_second"] / 8 / 2**20))' "$OUT/logs/$tag.client.json" 2>/dev/null || true)
    CTR_SENT='' MSGS=''
    if ((rc == 124)); then STATUS=timeout; elif [[ -z $MBPS ]]; then STATUS="exit$rc"; else STATUS=ok; fi
}

# reps.csv 的一行：
#   resent：RDMA = 请求方（rxe1）sent_pkts 的差 − 消息数 × 64（该发的包）= 重发的包；TCP = RetransSegs 的差
#   retries：RDMA = rxe1 completer_retry_err（回退重发的次数）；TCP 空
#   seq_naks：rxe1 rcvd_seq_err（收到的 PSN 序列错误 NAK）；dup：rxe0 duplicate_request；oos：rxe0 out_of_seq_request
#   netem_drop：两条 veth 上 netem 丢掉的包；fwd_pkts：veth1 发出的包（客户端 → 服务端：数据）；
#   rev_pkts：veth0 发出的包（服务端 → 客户端：ACK）；lo_pkts：lo 发出的包（TCP 要是走了 lo，这里会是几万）
echo "loss,tool,rep,status,MBps,resent,retries,seq_naks,dup,oos,netem_drop,fwd_pkts,rev_pkts,lo_pkts,req_sent_pkts,ours_ctr_sent_pkts,msgs,wall_s" \
    >"$OUT/reps.csv"
record() {  # record loss tool rep
    local sent resent="" retries="" dup oos
    sent=$(delta "$D1.sent_pkts")
    if [[ $2 == iperf3 ]]; then
        resent=$(delta tcp.retrans)
    else
        [[ -n $MSGS ]] && resent=$((sent - MSGS * PKTS_PER_MSG))
        retries=$(delta "$D1.completer_retry_err")
    fi
    dup=$(delta "$D0.duplicate_request") oos=$(delta "$D0.out_of_seq_request")
    echo "$1,$2,$3,$STATUS,$MBPS,$resent,$retries,$(delta "$D1.rcvd_seq_err"),$dup,$oos,$(($(delta veth0.ndrop) + $(delta veth1.ndrop))),$(delta veth1.tx),$(delta veth0.tx),$(delta lo.tx),$sent,$CTR_SENT,$MSGS,$WALL" \
        >>"$OUT/reps.csv"
    echo "# loss=$1% $2 #$3: $STATUS ${MBPS:-?} MB/s, resent=$resent, netem_drop=$(($(delta veth0.ndrop) + $(delta veth1.ndrop))), veth1→veth0 $(delta veth1.tx) pkts, veth0→veth1 $(delta veth0.tx) pkts, lo_pkts=$(delta lo.tx), ${WALL}s"
}

# 证据：开始和结束时 netem 与网卡的统计原样存下（veth 的包数随 RoCE 和 TCP 都在涨，lo 的几乎不动）
show_links() {
    echo "===== $1 ====="
    tc -s qdisc show dev veth0
    tc -s qdisc show dev veth1
    ip -s link show dev veth0
    ip -s link show dev veth1
    ip -s link show dev lo
    ip -d link show dev veth1 | grep -o 'gso_max_size [0-9]* gso_max_segs [0-9]*'
    ip rule show
    ip route get "$IP0" from "$IP1"
}

set_loss 0
show_links "start (netem loss 0%)" >"$OUT/links.txt"
for loss in "${LOSSES[@]}"; do
    set_loss "$loss"
    n=$(iters_for "$loss")
    for ((rep = 1; rep <= REPS; rep++)); do
        for tool in "${TOOLS[@]}"; do
            tag="$tool-loss$loss-$rep"
            snap; save_before
            case $tool in
                ours) run_ours "$tag" "$n" ;;
                perftest) run_perftest "$tag" "$n" ;;
                iperf3) run_iperf3 "$tag" ;;
            esac
            snap
            record "$loss" "$tool" "$rep"
        done
    done
done
show_links "end (netem loss ${LOSSES[-1]}%)" >>"$OUT/links.txt"
set_loss 0
echo "# done in $((SECONDS - START)) s (guest clock)"
echo "$((SECONDS - START))" >"$OUT/guest_seconds"
