#!/usr/bin/env bash
# tests/verbs-check/lab-run.sh - 在实验室虚拟机里（lab/run 之下）让两边都在 verbs-check 下运行，再 --pair 判断两边。
#   bash tests/verbs-check/lab-run.sh OUTDIR CASE...
# CASE：rc | rc-nogrh | ud | srq（rdma-core 的 ibv_*_pingpong）；ours（默认的一对）；ours-cm（--cm：经 librdmacm）；inject:KIND（我们的程序带 --inject KIND）；
#       bench（--bench lat 的中位延迟，有和没有 verbs-check 交替 VC_BENCH_RUNS 次（默认 5），每次的中位数和 t_min，最后一行汇总两边的比）
# 每个 CASE 在 OUTDIR/CASE/ 里留下：s.err、c.err（两边的输出和一边的发现）、pair.out（--pair 的发现）、rc（两边和 pair 的退出码）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OUT=$1
shift
VC=build/verbs-check
DEV0=${LAB_DEV0:-rxe0} DEV1=${LAB_DEV1:-rxe1} IP0=${LAB_IP0:-10.11.0.1}

wait_port() {
    local i
    [[ $1 == cm ]] && { sleep 5; return 0; }   # RDMA CM 的端口不在 ss 里：给服务端几秒
    for ((i = 0; i < 300; i++)); do
        [[ -n $(ss -Hltn "sport = :$1") ]] && return 0
        sleep 0.1
    done
    return 1
}

# 服务端命令、客户端命令（各一个数组的字符串，用 eval 展开）
pair_run() {
    local d=$1 port=$2 scmd=$3 ccmd=$4 src crc prc
    mkdir -p "$d/logs"
    eval "timeout 120 $VC --log $d/logs -- $scmd" >"$d/s.out" 2>"$d/s.err" &
    local spid=$!
    wait_port "$port" || echo "server did not listen on $port" >>"$d/s.err"
    eval "timeout 120 $VC --log $d/logs -- $ccmd" >"$d/c.out" 2>"$d/c.err"
    crc=$?
    wait "$spid"
    src=$?
    timeout 60 $VC --pair "$d/logs" >"$d/pair.out" 2>&1
    prc=$?
    echo "server=$src client=$crc pair=$prc" >"$d/rc"
}

for c in "$@"; do
    d=$OUT/$c
    rm -rf "$d"
    mkdir -p "$d"
    case $c in
    rc) pair_run "$d" 18515 "ibv_rc_pingpong -d $DEV0 -g 1 -n 20" "ibv_rc_pingpong -d $DEV1 -g 1 -n 20 $IP0" ;;
    rc-nogrh) pair_run "$d" 18515 "ibv_rc_pingpong -d $DEV0 -n 5" "ibv_rc_pingpong -d $DEV1 -n 5 $IP0" ;;
    ud) pair_run "$d" 18515 "ibv_ud_pingpong -d $DEV0 -g 1 -n 20" "ibv_ud_pingpong -d $DEV1 -g 1 -n 20 $IP0" ;;
    srq) pair_run "$d" 18515 "ibv_srq_pingpong -d $DEV0 -g 1 -n 20" "ibv_srq_pingpong -d $DEV1 -g 1 -n 20 $IP0" ;;
    ours) pair_run "$d" 18515 "build/rdma_server -d $DEV0 -t 20" "build/rdma_client $IP0 -d $DEV1 -t 20" ;;
    # --cm：服务端听 0.0.0.0（同 tests/lab/cm.bats；-d rxe0 绑在 10.11.0.1 上时单机实验室里请求被拒），CM 端口不是 TCP 端口
    ours-cm) pair_run "$d" cm "build/rdma_server -t 20 --cm" "build/rdma_client $IP0 -d $DEV1 -t 20 --cm" ;;
    inject:*)
        k=${c#inject:} sopt="" copt=""
        case $k in
        rkey) copt="--op write --inject rkey" sopt="--op write" ;;
        mr-access | qp-access) sopt="--op write --inject $k" copt="--op write" ;;
        small-recv | flush) sopt="--inject $k" ;;
        late-recv) sopt="--inject late-recv" ;;
        rnr-retry0) sopt="--inject late-recv" copt="--inject rnr-retry0" ;;
        *) copt="--inject $k" ;;
        esac
        # 服务端 -t 8：qpn/psn 时客户端的包到不了服务端的 QP，服务端等完成要等满 -t（客户端几秒内就 RETRY_EXC_ERR）
        pair_run "$d" 18515 "build/rdma_server -d $DEV0 -t 8 $sopt" "build/rdma_client $IP0 -d $DEV1 -t 20 $copt" ;;
    bench)
        # 有和没有 verbs-check 交替 VC_BENCH_RUNS 次（默认 5）：TCG 下一次的中位数会在几十 µs 和几 ms 两档之间跳
        # （两个忙等的程序占着虚拟机的两个 vCPU，rxe 在内核里的活要等调度，HZ=250），一次比不出来；比法见最后的汇总行
        for run in $(seq 1 "${VC_BENCH_RUNS:-5}"); do
            for mode in plain vc; do
                pre=""
                [[ $mode == vc ]] && pre="$VC --log $d/logs-$run --"
                timeout 120 build/rdma_server -d "$DEV0" -t 30 --bench lat >"$d/$mode-$run-s.out" 2>&1 &
                spid=$!
                wait_port 18515
                eval "timeout 120 $pre build/rdma_client $IP0 -d $DEV1 -t 30 --bench lat" >"$d/$mode-$run-c.out" 2>&1
                wait "$spid"
            done
        done ;;
    esac
done

# bench 的汇总：每一边各次中位数的中位数、t_min 的中位数和两边的比（在 verbs-check 下 / 没有）；
# 几 ms 那一档（中位数 > 1000 µs）的次数另说，它们也算在中位数里（不挑）
bench_summary() {
    python3 - "$1" <<'PY'
import glob, re, statistics, sys
def col(mode, key):
    return [float(re.search(key + r"=([0-9.]+)", open(f).read()).group(1))
            for f in sorted(glob.glob("%s/%s-*-c.out" % (sys.argv[1], mode)))
            if re.search(key + r"=", open(f).read())]
p, v = col("plain", "t_typical_us"), col("vc", "t_typical_us")
pm, vm = col("plain", "t_min_us"), col("vc", "t_min_us")
if not p or not v:
    print("bench            summary: missing results"); sys.exit()
slow = lambda xs: sum(1 for x in xs if x > 1000)
print("bench            summary: median of medians plain %.1f us, vc %.1f us, ratio %.2f; t_min %.1f / %.1f us, ratio %.2f; "
      "runs in the ms mode: plain %d/%d, vc %d/%d" % (statistics.median(p), statistics.median(v),
      statistics.median(v) / statistics.median(p), statistics.median(pm), statistics.median(vm),
      statistics.median(vm) / statistics.median(pm), slow(p), len(p), slow(v), len(v)))
PY
}

# 每个 CASE 一行：两边和 --pair 的退出码、--pair 给出的发现（id 字段）
for c in "$@"; do
    d=$OUT/$c
    if [[ $c == bench ]]; then
        for f in "$d"/plain-*-c.out "$d"/vc-*-c.out; do
            printf '%-16s %-6s t_typical %s us, t_min %s us\n' "$c" "$(basename "$f" -c.out)" \
                "$(sed -n 's/.*t_typical_us=\([0-9.]*\).*/\1/p' "$f")" "$(sed -n 's/.*t_min_us=\([0-9.]*\).*/\1/p' "$f")"
        done
        bench_summary "$d"
        continue
    fi
    printf '%-16s %s  %s\n' "$c" "$(cat "$d/rc")" \
        "$(grep -ho '^verbs-check: \(错误\|警告\|error\|warning\) [^ ]* [^ ]*' "$d/pair.out" "$d/s.err" "$d/c.err" |
            cut -d' ' -f3,4 | sort -u | tr '\n' ' ')"
done
