#!/usr/bin/env bash
# tools/bench/ab.sh [OUT] - 一次开机里的 A/B：每条用户态指令在乒乓里值多少纳秒、每次读时钟值多少，在实验室里运行：
#   lab/run tools/bench/ab.sh
# 2 字节的 send_lat、write_lat，AB_REPS 次（默认 5）交替运行四种：本项目照常（base）、客户端每次迭代多做已知条数的
# 指令（burn：LD_PRELOAD tools/bench/abshim.c，AB_BURN 遍，默认 40）、两端的 clock_gettime 换成 rdtsc（tsc）、perftest。
# AB_REPS/AB_BURN/AB_ITERS 经 lab/run 传要 LAB_PASSENV。约 2 分钟。写 OUT/ab.csv（test,variant,rep,t_min_us,t_typical_us）、OUT/ab-ir.txt（一遍 burn 的指令数，callgrind 数）和
# OUT/nsir.txt（tools/bench/nsir.c：普通 C 代码、空 CQ 上的 ibv_poll_cq、clock_gettime、rdtsc 各多少纳秒）。
# 汇总：tools/bench/ab.py OUT
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=${1:-logs/ab}
REPS=${AB_REPS:-5} BURN=${AB_BURN:-40} N=${AB_ITERS:-500}
IP=10.11.0.1
mkdir -p "$OUT"
. tools/lib/listen.bash
cc -O2 -shared -fPIC -o "$OUT/abshim.so" tools/bench/abshim.c -ldl
SHIM=$PWD/$OUT/abshim.so

# 一遍 burn 的指令数：date 调用一次 clock_gettime，AB_BURN=0 和 1000 之差 / 1000
ir_of() {
    AB_BURN=$1 LD_PRELOAD=$SHIM valgrind --tool=callgrind --callgrind-out-file=/dev/null date 2>&1 | awk '/Collected/ {print $NF}'
}
a=$(ir_of 0) b=$(ir_of 1000)
printf "burn_ir_per_rep %d\nburn_reps %d\n" $(((b - a) / 1000)) "$BURN" >"$OUT/ab-ir.txt"

res() { awk -v k="$2" '/^BENCH_RESULT /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]==k)v=a[2]}} END{print v}' "$1"; }

ours() {  # ours OP VARIANT REP
    local op=$1 v=$2 rep=$3 sp log="$OUT/ours-$1-$2-$3"
    local es=() ec=()
    case $v in
        burn) ec=(AB_BURN="$BURN" LD_PRELOAD="$SHIM") ;;
        tsc) es=(AB_TSC=1 LD_PRELOAD="$SHIM") ec=(AB_TSC=1 LD_PRELOAD="$SHIM") ;;
    esac
    env "${es[@]}" timeout 120 build/rdma_server -d rxe0 -q 1 --bench lat --op "$op" --size 2 --iters "$N" -t 60 \
        >"$log.s.log" 2>&1 &
    sp=$!
    wait_listen 18515 || true
    env "${ec[@]}" timeout 120 build/rdma_client "$IP" -d rxe1 -q 1 --bench lat --op "$op" --size 2 --iters "$N" -t 60 \
        >"$log.c.log" 2>&1 || true
    wait "$sp" || true
    echo "${op}_lat,$v,$rep,$(res "$log.c.log" t_min_us),$(res "$log.c.log" t_typical_us)" >>"$OUT/ab.csv"
}

pt() {  # pt OP REP
    local op=$1 rep=$2 sp log="$OUT/pt-$1-$2"
    timeout 120 "ib_${op}_lat" -d rxe0 -x 1 -F -s 2 -n "$N" >"$log.s.log" 2>&1 &
    sp=$!
    wait_listen 18515 || true
    timeout 120 "ib_${op}_lat" -d rxe1 -x 1 -F -s 2 -n "$N" "$IP" >"$log.c.log" 2>&1 || true
    wait "$sp" || true
    # perftest 的结果行：#bytes #iterations t_min t_max t_typical ...
    awk -v t="${op}_lat" -v r="$rep" '$1 == 2 && NF >= 5 { row = t ",perftest," r "," $3 "," $5 } END { print row }' \
        "$log.c.log" >>"$OUT/ab.csv"
}

: >"$OUT/ab.csv"
for ((rep = 1; rep <= REPS; rep++)); do
    for op in send write; do
        for v in base burn tsc; do ours "$op" "$v" "$rep"; done
        pt "$op" "$rep"
    done
done
# 同一段代码在虚拟机里直接跑（nsir：计时 K 次）和在 callgrind 下数指令（K1、K2 次之差）；宿主机上也可以直接跑 nsir work
# 比一比（宿主机没有 rxe，只有 work、clock、tsc）
cc -O2 -o "$OUT/nsir" tools/bench/nsir.c -libverbs
{
    echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
    for m in work poll clock tsc; do
        for _ in 1 2 3; do "$OUT/nsir" "$m" 200000 rxe0; done
    done
    for m in work poll; do
        for k in 20000 40000; do
            echo "ir $m $k $(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$OUT/nsir" "$m" "$k" rxe0 2>&1 |
                awk '/Collected/ {print $NF}')"
        done
    done
} >"$OUT/nsir.txt"
cat "$OUT/ab-ir.txt" "$OUT/nsir.txt"
sort "$OUT/ab.csv"
