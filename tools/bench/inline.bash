# shellcheck shell=bash
# tools/bench/inline.bash - 两边的 inline 设置，从各自的日志里读（ir.sh、compare.sh 用 source 引入）：
#   本项目：表头的“旋钮: … --inline N …”（中英文都有 “--inline N” 这几个字），消息 ≤ N 字节时 WR 带 IBV_SEND_INLINE；
#   perftest：它自己表头的 “Max inline data : N[B]”，消息 ≤ N 字节时它就 inline（perftest_parameters.h 的 DEF_INLINE_*：
#   不给 -I 时由设备定，ConnectX 上的延迟测试 write 220、RC send 236、UD send 188 字节；Debian 的 perftest 不认识 rxe，是 0）。
# 两边都是 0 时比的是同一件事（rxe 上就是这样）；在 ConnectX 上要给本项目 --inline，否则 perftest 的小消息少读一次内存。

# ours_inline 日志：本项目的 --inline 值（没有这一行时为空）
ours_inline() { grep -o -- '--inline [0-9][0-9]*' "$1" 2>/dev/null | head -n 1 | awk '{ print $2 }'; }

# pt_inline 日志：perftest 表头的 Max inline data（字节；没有这一行时为空）
pt_inline() { sed -n 's/.*Max inline data *: *\([0-9][0-9]*\).*/\1/p' "$1" 2>/dev/null | head -n 1; }

# inline_note 本项目日志 perftest日志 测试名 大小：一行 key=value（和 BENCH_RESULT 一样不分语言），两边的上限、这个大小 inline 没有：
#   INLINE test=send_lat size=2 ours_inline=0 ours_inlined=no perftest_max_inline=0 perftest_inlined=no（读不到的写 ?）
inline_note() {
    local o p s=$4
    o=$(ours_inline "$1") p=$(pt_inline "$2")
    echo "INLINE test=$3 size=$s ours_inline=${o:-?} ours_inlined=$(inlined "$o" "$s") perftest_max_inline=${p:-?} perftest_inlined=$(inlined "$p" "$s")"
}

# inlined 上限 大小：yes | no | ?（上限读不到）
inlined() {
    if [[ -z $1 ]]; then echo '?'; elif (($2 <= $1)); then echo yes; else echo no; fi
}
