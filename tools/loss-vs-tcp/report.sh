#!/usr/bin/env bash
# report.sh - make loss-vs-tcp 的宿主机部分：tools/loss-vs-tcp/run.sh 写的 reps.csv（一次运行一行）→
#   results.csv：每个 (丢包率, 工具) 一行：成功的次数和失败的结局、吞吐量的中位数和范围、
#                相对于这个工具自己在丢包 0 时的中位数、重发的包和 netem 丢掉的包的中位数和范围；
#   results.md：同样的表（docs/LOSS-VS-TCP.md 引用）；lossy.svg：三条线，相对吞吐量随丢包率（gnuplot）。
# 吞吐量的中位数只算成功的运行（RETRY_EXC_ERR、超时的那次没有吞吐量；报 0 MB/s 的算 bw0），失败的次数和结局另列。
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${LOSSY_OUT:-logs/loss-vs-tcp}
[[ -s $OUT/reps.csv ]] || { echo "report.sh: $OUT/reps.csv 不存在或是空的（先 make loss-vs-tcp）" >&2; exit 1; }

awk -F, '
    function sortv(list, a,    n, i, j, t) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n
    }
    function median(list,    a, n) { n = sortv(list, a); if (n == 0) return ""; return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function lo(list,    a, n) { n = sortv(list, a); return n ? a[1] : "" }
    function hi(list,    a, n) { n = sortv(list, a); return n ? a[n] : "" }
    function rel(v, base) { return (v == "" || base == "" || base + 0 == 0) ? "" : sprintf("%.3f", v / base) }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    {
        k = $col["loss"] "," $col["tool"]
        if (!(k in runs)) order[++m] = k
        runs[k]++
        st = $col["status"]
        # perftest 偶尔报 0.00 MB/s 却正常退出：那次它量 CPU 频率失败（日志里有 “Correlation coefficient r^2 … < 0.9”），
        # 算不出时间。这不是吞吐量，记作失败的一种 bw0
        if (st == "ok" && $col["MBps"] + 0 == 0) st = "bw0"
        if (st == "ok") { ok[k]++; bw[k] = bw[k] " " $col["MBps"] }
        else fails[k] = fails[k] (fails[k] == "" ? "" : " ") st
        if ($col["resent"] != "") rs[k] = rs[k] " " $col["resent"]
        nd[k] = nd[k] " " $col["netem_drop"]
        fw[k] = fw[k] " " $col["fwd_pkts"]
        lp[k] = lp[k] " " $col["lo_pkts"]
    }
    END {
        print "loss,tool,runs,ok,failed,MBps,MBps_min,MBps_max,rel,rel_min,rel_max,resent,resent_min,resent_max,netem_drop,fwd_pkts,lo_pkts"
        for (i = 1; i <= m; i++) { k = order[i]; split(k, kt, ","); if (kt[1] + 0 == 0) base[kt[2]] = median(bw[k]) }
        for (i = 1; i <= m; i++) {
            k = order[i]; split(k, kt, ","); b = base[kt[2]]
            med = median(bw[k]); mn = lo(bw[k]); mx = hi(bw[k])
            printf "%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k, runs[k], ok[k], fails[k], med, mn, mx, \
                rel(med, b), rel(mn, b), rel(mx, b), median(rs[k]), lo(rs[k]), hi(rs[k]), median(nd[k]), median(fw[k]), median(lp[k])
        }
    }' "$OUT/reps.csv" >"$OUT/results.csv"

{
    echo "# make loss-vs-tcp: RoCE (ours, perftest) vs TCP (iperf3) on one lossy veth link"
    echo
    echo "| loss % | tool | ok / runs | MB/s median (min..max) | vs own loss 0: median (min..max) | resent pkts median (min..max) | netem drops (median) | data-direction veth pkts (median) | lo pkts (median) |"
    echo "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    tail -n +2 "$OUT/results.csv" | awk -F, '{
        okr = $4 "/" $3 ($5 != "" ? " (" $5 ")" : "")
        bw = ($6 == "" ? "—" : $6 " (" $7 ".." $8 ")")
        r = ($9 == "" ? "—" : $9 " (" $10 ".." $11 ")")
        printf "| %s | %s | %s | %s | %s | %s (%s..%s) | %s | %s | %s |\n", $1, $2, okr, bw, r, $12, $13, $14, $15, $16, $17 }'
} >"$OUT/results.md"

# 图：x 是丢包率（等距的位置 0..n-1，标签是丢包率），y 是相对吞吐量（对数刻度），竖线是范围（最小..最大）。
# 每个工具一个数据文件：同一个文件里别的工具的行（1/0）会把线断开
NPOS=$(awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; n++ } END { print n + 0 }' "$OUT/results.csv")
for tool in ours perftest iperf3; do
    awk -F, -v t="$tool" 'NR > 1 { if (!($1 in pos)) pos[$1] = n++ }
        NR > 1 && $2 == t && $9 != "" {
            off = (t == "ours" ? -0.08 : t == "perftest" ? 0 : 0.08)
            print pos[$1] + off, $9, $10, $11, $1 }' "$OUT/results.csv" >"$OUT/lossy-$tool.dat"
done
XTICS=$(awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; printf "%s\"%s\" %d", (n ? ", " : ""), $1, n; n++ }' "$OUT/results.csv")
gnuplot <<GP
set terminal svg size 900,500 dynamic noenhanced
set output "$OUT/lossy.svg"
set title "RC (ours --bench bw, perftest ib_write_bw: write 64 KiB, 1 QP) vs TCP (iperf3) on one netem veth link"
set xtics ($XTICS)
set xrange [-0.4:$NPOS - 0.6]
set xlabel "netem loss on both directions [%]"
set logscale y 10
set yrange [0.005:2]
set ytics ("0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1)
set ylabel "throughput / own loss-0 median (log scale)"
set key outside right
set grid
plot for [t in "ours perftest iperf3"] "$OUT/lossy-".t.".dat" using 1:2:3:4 with yerrorlines title t
GP
echo "写好了: $OUT/results.csv $OUT/results.md $OUT/lossy.svg"
