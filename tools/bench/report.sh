#!/usr/bin/env bash
# report.sh [--lang zh|en] - 把 compare.sh 的 raw.csv / cq.csv / knobs.csv 变成 results.csv、results.md 和两张图（gnuplot，宿主机上运行）
# 语言和程序一样（src/console/i18n.c）：--lang zh|en 优先；否则看 LANGUAGE（冒号分隔的列表，第一个 en*/zh* 说了算）、
# 再看 LC_ALL、LC_MESSAGES、LANG 里第一个设了的：以 en 开头是英文，别的都是中文。英文的句子来自
# build/locale/en/LC_MESSAGES/rocev2-learn-tools.mo（po/tools/en.po，make locale）；没有它或没有 gettext 命令时照旧是中文。
# 图的标题和坐标轴本来就是英文，两种语言一样。
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${BENCH_OUT:-logs/bench}

# ---------- 语言（scripts/ui_lang.sh：和 diagnose.sh 等共用的规则）----------
usage() { echo "usage: tools/bench/report.sh [--lang zh|en]" >&2; exit 2; }
lang_arg=
while (($#)); do
    case $1 in
        --lang) lang_arg=${2:-}; shift 2 || shift ;;
        --lang=*) lang_arg=${1#--lang=}; shift ;;
        *) usage ;;
    esac
done
case $lang_arg in "" | zh | en) ;; *) usage ;; esac
# shellcheck source=scripts/ui_lang.sh
source scripts/ui_lang.sh
ui_lang_pick ${lang_arg:+--lang "$lang_arg"}
REPORT_LANG=$UI_LANG
MO=build/locale/en/LC_MESSAGES/rocev2-learn-tools.mo
if [[ $REPORT_LANG == en ]] && { [[ ! -f $MO ]] || ! command -v gettext >/dev/null; }; then
    echo "report.sh: $MO or the gettext command is missing (make locale; apt-get install gettext-base): the report stays Chinese" >&2
    REPORT_LANG=zh
fi
# t "中文"：这句话在报告的语言里（英文时查 po/tools/en.po 的译文；C.UTF-8 一定有，gettext 在它下面才理 LANGUAGE）
t() {
    if [[ $REPORT_LANG == en && -n $1 ]]; then
        LANGUAGE=en LC_ALL=C.UTF-8 TEXTDOMAINDIR=$PWD/build/locale gettext -d rocev2-learn-tools -- "$1"
    else
        printf '%s' "$1"
    fi
}

# results.csv：ours/perftest 是中位数，ratio = ours / perftest（缺值时留空）；然后是两边的范围（最小、最大）和重复次数
awk -F, 'BEGIN { print "test,size,metric,ours,perftest,ratio,ours_min,ours_max,perftest_min,perftest_max,reps" }
    { r = ($4 != "" && $5 != "" && $5 + 0 > 0) ? sprintf("%.3f", $4 / $5) : ""
      print $1 "," $2 "," $3 "," $4 "," $5 "," r "," $6 "," $7 "," $8 "," $9 "," $10 }' \
    "$OUT/raw.csv" >"$OUT/results.csv"

{
    echo "# make bench: RoCEv2 learn --bench vs perftest"
    echo
    t "同一次实验室开机、同一对 rxe（rxe0 ↔ rxe1，TCG 虚拟机），同样的大小和轮数，交替运行。"; echo
    t "ratio = ours / perftest（延迟越小越好，带宽越大越好）。cpu_s = 客户端整个进程的 user+sys（含建连）。"; echo
    t "每一格都是交替重复的中位数（reps 次，每次的值在 reps.csv）；括号里是范围（最小..最大）：安静时单次能差到 2 倍，宿主机忙时（别的虚拟机抢 CPU）整次运行会落进毫秒级，差上百倍——范围很宽的格子别信，找安静的时候重跑。"; echo
    echo
    echo "| test | size | metric | ours (min..max) | perftest (min..max) | ratio | reps |"
    echo "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
    tail -n +2 "$OUT/results.csv" | awk -F, '{ printf "| %s | %s | %s | %s (%s..%s) | %s (%s..%s) | %s | %s |\n", $1, $2, $3, $4, $7, $8, $5, $9, $10, $6, $11 }'
    if [[ -s $OUT/inline.txt ]]; then   # compare.sh 每格一行（tools/bench/inline.bash 的 inline_note）
        echo
        t "## 两边的 inline 设置（本项目表头的 --inline，perftest 自己表头的 Max inline data；都是 no 才是同一种量法）"; echo
        echo
        echo '```'
        cat "$OUT/inline.txt"
        echo '```'
    fi
    echo
    t "## --cq poll 与 --cq event（计时循环内的 CPU 时间，BENCH_CPU）"; echo
    echo
    echo "| test | size | side | metric | poll | event |"
    echo "| --- | ---: | --- | --- | ---: | ---: |"
    tail -n +2 "$OUT/cq.csv" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
    if [[ -s $OUT/knobs.csv ]]; then
        echo
        t "## 旋钮（本项目，只改一个设置；默认 --tx-depth 128 --signal 16）"; echo
        echo
        echo "| test | size | setting | BW average (MB/s) | MsgRate (Mpps) | cpu_s |"
        echo "| --- | ---: | --- | ---: | ---: | ---: |"
        # setting 一列是 compare.sh 写的中文说明（knob 的第 3 个参数）：英文时逐个翻译
        tail -n +2 "$OUT/knobs.csv" | while IFS=, read -r f1 f2 f3 f4 f5 f6 || [[ -n $f1 ]]; do
            printf '| %s | %s | %s | %s | %s | %s |\n' "$f1" "$f2" "$(t "$f3")" "$f4" "$f5" "$f6"
        done
    fi
} >"$OUT/results.md"

# 图：延迟（t_typical）和带宽（BW average）随大小变化，两条线 ours / perftest
plot() {  # plot 指标 文件名 标题 y轴 [y 也用对数刻度]
    local data="$OUT/$2.dat" ylog=${5:-}
    # 线的名字: send_bw → send，send_bw+srq → send+srq，send_lat+ud → send+ud
    awk -F, -v m="$1" '$3 == m { op = $1; sub(/_(lat|bw)/, "", op); print op, $2, $4, $5 }' "$OUT/results.csv" >"$data"
    # 只测了延迟（或只测了带宽，BENCH_CELLS）时另一张图没有点：不画（gnuplot 会以 “x range is invalid” 失败）
    if [[ ! -s $data ]]; then
        rm -f "$OUT/$2.svg"
        return 0
    fi
    gnuplot <<GP
set terminal svg size 900,500 dynamic noenhanced
set output "$OUT/$2.svg"
set title "$3"
set logscale x 2
${ylog:+set logscale y 10}
set xtics ("2" 2, "64" 64, "1K" 1024, "4K" 4096, "64K" 65536, "1M" 1048576, "8M" 8388608)
set xlabel "message size [bytes]"
set ylabel "$4"
set key outside right
set grid
plot for [op in "send write read send+srq send+ud"] "$data" using (strcol(1) eq op ? \$2 : 1/0):3 with linespoints title op." ours", \
     for [op in "send write read send+srq send+ud"] "$data" using (strcol(1) eq op ? \$2 : 1/0):4 with linespoints dashtype 2 title op." perftest"
GP
}
# 延迟从十几 µs 到几十 ms：y 用对数刻度，小消息才看得见
plot t_typical_us latency "latency (t_typical, one way; read = round trip)" "usec (log scale)" ylog
plot bw_avg_MBps bandwidth "bandwidth (BW average)" "MB/sec (2^20)"
echo "$(t "写好了:") $OUT/results.csv $OUT/results.md $OUT/latency.svg $OUT/bandwidth.svg"
