#!/usr/bin/env bash
# compare.sh - make bench 的实验室部分（在 lab/run 启动的虚拟机里运行，一次开机）：
# 同一对 rxe（服务端 rxe0，客户端 rxe1），同样的大小和轮数，本项目的 --bench 与 perftest 交替运行，
# 把每一行结果写进 $OUT/raw.csv（test,size,metric,ours,perftest），再比较 --cq poll 与 --cq event 的 CPU 时间（$OUT/cq.csv）。
# 报告（results.csv / results.md / 图）由 tools/bench/report.sh 在宿主机上生成。
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${BENCH_OUT:-logs/bench}
read -r -a SIZES <<<"${BENCH_SIZES:-2 64 1024 4096 65536 1048576}"
read -r -a TESTS <<<"${BENCH_TESTS:-send_lat write_lat read_lat send_bw write_bw read_bw send_lat+srq send_bw+srq send_lat+ud send_bw+ud}"
SERVER=build/rdma_server
CLIENT=build/rdma_client
D0=${LAB_DEV0:-rxe0} D1=${LAB_DEV1:-rxe1} IP=${LAB_IP0:-10.11.0.1}
mkdir -p "$OUT/logs"
: >"$OUT/raw.csv"

# 轮数：延迟固定；带宽按大小减少，让每次运行在 TCG 里只要几秒
iters_for() {  # iters_for test size
    # 延迟：大消息一次乒乓在 TCG 里要上百毫秒（1 MiB × 500 次就要 4 分钟），所以少做几次
    if [[ $1 == *_lat || $1 == *_lat+* ]]; then
        if (($2 >= 1048576)); then echo 20; elif (($2 >= 65536)); then echo 100; else echo "${BENCH_LAT_ITERS:-500}"; fi
        return
    fi
    if (($2 >= 1048576)); then echo 64; elif (($2 >= 65536)); then echo 256; else echo 1000; fi
}

# wait_listen 端口：等服务端开始监听（tools/lib/listen.bash）
# shellcheck source=tools/lib/listen.bash
. tools/lib/listen.bash
# inline_note：两边的 inline 设置（本项目的表头、perftest 自己的表头），每格第一次写一行进 $OUT/inline.txt，也打印出来
# shellcheck source=tools/bench/inline.bash
. tools/bench/inline.bash
: >"$OUT/inline.txt"

# 整个进程的 CPU 时间（user+sys，秒），来自 /usr/bin/time
cpu_of() { awk '{printf "%.3f", $1 + $2}' "$1"; }

# 测试名后面的 +srq（例如 send_bw+srq）：两端都用一个共享接收队列，本项目 --srq、perftest --use-srq；
# +ud（例如 send_lat+ud）：UD QP，本项目 --qp ud、perftest -c UD（消息不超过路径MTU，见下面的 UD_MAX）
base_of() { local b=${1%+srq}; echo "${b%+ud}"; }
ours_extra() { case $1 in *+srq) echo --srq ;; *+ud) echo --qp ud ;; esac; }
perf_extra() { case $1 in *+srq) echo --use-srq ;; *+ud) echo -c UD ;; esac; }
# UD 不分段：一条消息最多一个路径MTU（实验室的 veth MTU 1500 → rxe 的 active_mtu 1024），更大的格子跳过
UD_MAX=${BENCH_UD_MAX:-1024}

ours() {  # ours test size iters [更多参数]；结果放在 $OUT/logs/ours-*.log
    local t=$1 s=$2 n=$3 b op mode tag
    b=$(base_of "$1") op=${b%_*} mode=${b#*_}
    shift 3
    tag="ours-$t-$s${1:+-event}"   # 另外的参数只有 --cq event（下面的 poll/event 对比）
    # shellcheck disable=SC2046  # ours_extra 输出零个、一个或两个词
    set -- $(ours_extra "$t") "$@"
    timeout 300 "$SERVER" -d "$D0" -q 1 --bench "$mode" --op "$op" --size "$s" --iters "$n" -t 60 "$@" \
        >"$OUT/logs/$tag.server.log" 2>&1 &
    local sp=$!
    wait_listen 18515 || true
    /usr/bin/time -f '%U %S' -o "$OUT/logs/$tag.time" timeout 300 "$CLIENT" "$IP" -d "$D1" -q 1 --bench "$mode" \
        --op "$op" --size "$s" --iters "$n" -t 60 "$@" >"$OUT/logs/$tag.client.log" 2>&1 || true
    wait "$sp" || true
    LAST="$OUT/logs/$tag.client.log"
}

perf() {  # perf test size iters；结果行放在 PROW。没有结果行（机器很忙时偶尔连不上）就再跑一次
    local t=$1 s=$2 n=$3 tag="perftest-$1-$2" try sp b x
    b=$(base_of "$t") x=$(perf_extra "$t")
    for try in 1 2; do
        # shellcheck disable=SC2086  # $x 是零个、一个或两个词
        timeout 120 "ib_$b" -d "$D0" -x 1 -F -s "$s" -n "$n" $x >"$OUT/logs/$tag.server.log" 2>&1 &
        sp=$!
        wait_listen 18515 || true
        # shellcheck disable=SC2086
        /usr/bin/time -f '%U %S' -o "$OUT/logs/$tag.time" timeout 120 "ib_$b" -d "$D1" -x 1 -F -s "$s" -n "$n" $x "$IP" \
            >"$OUT/logs/$tag.client.log" 2>&1 || true
        wait "$sp" || true
        PROW=$(awk -v s="$s" '$1 == s && NF >= 5 { row = $0 } END { print row }' "$OUT/logs/$tag.client.log")
        PTIME="$OUT/logs/$tag.time"
        [[ -n $PROW ]] && return 0
        echo "# perftest ib_$t size=$s 第 $try 次没有结果行（$OUT/logs/$tag.client.log）" >&2
    done
}

# 本项目 BENCH_RESULT 里的一个值
res() { awk -v k="$2" '/^BENCH_RESULT /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]==k)v=a[2]}} END{print v}' "$1"; }

# 每次重复的一行进 reps.csv，最后按 (test,size,metric) 取两边各自的中位数写进 raw.csv
row() { echo "$1,$2,$3,$4,$5" >>"$OUT/reps.csv"; }
: >"$OUT/reps.csv"

# TCG 虚拟机里同一个测量每次能差到 2 倍（调度），所以每一格都交替重复 BENCH_REPEAT 次（默认 3，至少 3 次才有中位数），
# 报中位数和范围（最小..最大）
REPEAT=${BENCH_REPEAT:-3}

# 要测的格子：BENCH_CELLS="send_lat:64 write_bw:65536" 只测这几个；不给时是 BENCH_TESTS × BENCH_SIZES
CELLS=()
if [[ -n ${BENCH_CELLS:-} ]]; then
    read -r -a CELLS <<<"$BENCH_CELLS"
else
    for t in "${TESTS[@]}"; do
        for s in "${SIZES[@]}"; do
            if [[ $t == *+ud ]] && ((s > UD_MAX)); then continue; fi
            CELLS+=("$t:$s")
        done
    done
fi

for cell in "${CELLS[@]}"; do
    t=${cell%%:*} s=${cell#*:}
    n=$(iters_for "$t" "$s")
    for ((rep = 1; rep <= REPEAT; rep++)); do
        echo "# $t size=$s iters=$n (第 $rep 次)"
        # 交替：一次本项目、一次 perftest
        ours "$t" "$s" "$n"
        awk -f tools/bench/consistency.awk "$LAST" >&2 || echo "# 警告: $LAST 的 BENCH_RESULT 和它自己的计数、时间对不上" >&2
        perf "$t" "$s" "$n"
        if ((rep == 1)); then inline_note "$LAST" "$OUT/logs/perftest-$t-$s.client.log" "$t" "$s" | tee -a "$OUT/inline.txt"; fi
        if [[ $(base_of "$t") == *_lat ]]; then
            # perftest 延迟行：#bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
            read -r -a p <<<"${PROW:-}"
            row "$t" "$s" t_min_us "$(res "$LAST" t_min_us)" "${p[2]:-}"
            row "$t" "$s" t_typical_us "$(res "$LAST" t_typical_us)" "${p[4]:-}"
            row "$t" "$s" t_avg_us "$(res "$LAST" t_avg_us)" "${p[5]:-}"
            row "$t" "$s" p99_us "$(res "$LAST" p99_us)" "${p[7]:-}"
        else
            # perftest 带宽行：#bytes #iterations BW_peak BW_average MsgRate
            read -r -a p <<<"${PROW:-}"
            row "$t" "$s" bw_avg_MBps "$(res "$LAST" bw_avg_MBps)" "${p[3]:-}"
            row "$t" "$s" msg_rate_Mpps "$(res "$LAST" msg_rate_Mpps)" "${p[4]:-}"
        fi
        row "$t" "$s" cpu_s "$(cpu_of "${LAST%.client.log}.time")" "$(cpu_of "$PTIME")"
    done
done
# raw.csv：test,size,metric,ours,perftest（两边各自的中位数，偶数个时取中间两个的平均；空值不算），
# 后面是范围 ours_min,ours_max,perftest_min,perftest_max 和重复次数 reps
awk -F, '
    function median(list,    a, n, i, j, t) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        if (n == 0) return ""
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { k = $1 "," $2 "," $3; if (!(k in seen)) { seen[k] = 1; order[++m] = k }
      reps[k]++
      if ($4 != "" && $4 != "inf") o[k] = o[k] " " $4
      if ($5 != "" && $5 != "inf" && $5 + 0 > 0) p[k] = p[k] " " $5 }
    function lo(list,    a, n, i, v) { n = split(list, a, " "); v = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < v + 0) v = a[i]; return v }
    function hi(list,    a, n, i, v) { n = split(list, a, " "); v = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > v + 0) v = a[i]; return v }
    END { for (i = 1; i <= m; i++) { k = order[i]
            print k "," median(o[k]) "," median(p[k]) "," lo(o[k]) "," hi(o[k]) "," lo(p[k]) "," hi(p[k]) "," reps[k] } }' \
    "$OUT/reps.csv" >"$OUT/raw.csv"

# --cq poll 与 --cq event：同样的测量，比较计时循环内两端的 CPU 时间（BENCH_CPU）
echo "test,size,side,metric,poll,event" >"$OUT/cq.csv"
for t in ${BENCH_CQ_TESTS:-send_lat write_bw}; do
    for s in ${BENCH_CQ_SIZES-64 65536}; do
        n=$(iters_for "$t" "$s")
        ours "$t" "$s" "$n"
        pc=$LAST
        ours "$t" "$s" "$n" --cq event
        ec=$LAST
        for side in client server; do
            f1=$pc f2=$ec
            [[ $side == server ]] && { f1=${pc%.client.log}.server.log; f2=${ec%.client.log}.server.log; }
            c1=$(awk '/^BENCH_CPU /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]=="cpu_s")v=a[2]}} END{print v}' "$f1")
            c2=$(awk '/^BENCH_CPU /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]=="cpu_s")v=a[2]}} END{print v}' "$f2")
            echo "$t,$s,$side,cpu_s,$c1,$c2" >>"$OUT/cq.csv"
        done
        m=$([[ $t == *_lat ]] && echo t_typical_us || echo bw_avg_MBps)
        echo "$t,$s,client,$m,$(res "$pc" "$m"),$(res "$ec" "$m")" >>"$OUT/cq.csv"
    done
done
# 旋钮：同一个带宽测量，只改一个设置，看 BW average 怎么变（$OUT/knobs.csv）。
# 默认 = --tx-depth 128 --signal 16；perftest 的默认是 tx-depth 128、每 100 个 WR 一个完成（CQ moderation）
echo "test,size,setting,bw_avg_MBps,msg_rate_Mpps,cpu_s" >"$OUT/knobs.csv"
knob() {  # knob test size 说明 [参数...]
    local t=$1 s=$2 what=$3 n
    shift 3
    n=$(iters_for "$t" "$s")
    ours "$t" "$s" "$n" "$@"
    echo "$t,$s,$what,$(res "$LAST" bw_avg_MBps),$(res "$LAST" msg_rate_Mpps),$(cpu_of "${LAST%.client.log}.time")" >>"$OUT/knobs.csv"
}
# BENCH_KNOBS：只跑其中几个（make test 里的缩小版只跑 default post-list）
KNOBS=${BENCH_KNOBS:-default signal100 signal1 post-list tx-depth inline}
has_knob() { [[ " $KNOBS " == *" $1 "* ]]; }
for t in ${BENCH_KNOB_TESTS-write_bw send_bw}; do
    for s in ${BENCH_KNOB_SIZES:-64 4096 65536}; do
        if has_knob default; then knob "$t" "$s" "默认（--signal 16）"; fi
        if has_knob signal100; then knob "$t" "$s" "--signal 100（perftest 的 CQ moderation）" --signal 100; fi
        if has_knob signal1; then knob "$t" "$s" "--signal 1（每个 WR 都要完成）" --signal 1; fi
        if has_knob post-list; then knob "$t" "$s" "--post-list 16" --post-list 16; fi
        if has_knob tx-depth; then knob "$t" "$s" "--tx-depth 16" --tx-depth 16; fi
        if has_knob inline && ((s <= 64)); then knob "$t" "$s" "--inline 64" --inline 64; fi
    done
done
echo "# done"
