#!/usr/bin/awk -f
# consistency.awk - 每一行 BENCH_RESULT 的数字和它自己的计数、时间对得上吗（tests/lab/bench.bats 用）
#
#   bw : bw_avg_MBps   = size × iters × qps / wall_s / 2^20
#        msg_rate_Mpps = iters × qps / wall_s / 10^6
#        峰值是某一段里每条消息的最短平均用时，整个窗口也是一段，所以 peak ≥ avg
#        （上限没法定：机器忙时计时循环会停顿，真正的峰值可以是平均的十几倍）
#   wall_s 只打印到微秒：窗口很短时（--sweep --iters 4）这一舍入本身就有千分之几，容差里算上它
#   lat: t_min ≤ t_typical、t_avg、p99 ≤ p99.9 ≤ t_max；t_stdev ≥ 0；
#        每次的延迟加起来就是窗口：t_avg 只平均了去掉最大 2 个之后的 m = iters - 2 个（perftest 的定义，iters ≤ 2 时不丢），
#        丢掉的两个是 t_max（第二大）和 t_max_all_us（最大，我们自己的字段），所以
#        (t_avg × m + t_max + t_max_all) × (read 1，其余 2：单程 = 往返/2) = wall_s；t_max ≤ t_max_all
# 用法: awk -f tools/bench/consistency.awk 日志...   每个不一致打印一行，有不一致时退出码 1；没有 BENCH_RESULT 也算失败
function rel_ok(got, want, rel, abs) {
    return (got - want <= rel * want + abs) && (want - got <= rel * want + abs)
}
function bad(msg) {
    printf "不一致: %s\n  行: %s\n", msg, $0
    nbad++
}
/^BENCH_RESULT / {
    delete f
    for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    nres++
    n = f["iters"] * f["qps"]
    w = f["wall_s"] + 0
    if (!(w > 0)) { bad("wall_s 应为正数"); next }
    tol = 0.002 + 0.0000005 / w
    if ("bw_avg_MBps" in f) {
        want = f["size"] * n / w / 1048576
        if (!rel_ok(f["bw_avg_MBps"], want, tol, 0.002))
            bad(sprintf("bw_avg_MBps=%s，按 size×iters×qps/wall_s 应为 %.3f", f["bw_avg_MBps"], want))
        want = n / w / 1e6
        if (!rel_ok(f["msg_rate_Mpps"], want, tol, 0.000002))
            bad(sprintf("msg_rate_Mpps=%s，按 iters×qps/wall_s 应为 %.6f", f["msg_rate_Mpps"], want))
        p = f["bw_peak_MBps"] + 0
        a = f["bw_avg_MBps"] + 0
        if (p > 0 && p < a * 0.998 - 0.002)
            bad(sprintf("bw_peak_MBps=%s 小于 bw_avg_MBps=%s", f["bw_peak_MBps"], f["bw_avg_MBps"]))
        next
    }
    mn = f["t_min_us"] + 0; mx = f["t_max_us"] + 0; ty = f["t_typical_us"] + 0; av = f["t_avg_us"] + 0
    p99 = f["p99_us"] + 0; p999 = f["p999_us"] + 0
    if (!(mn > 0 && mn <= ty && ty <= mx && mn <= av && av <= mx && mn <= p99 && p99 <= p999 && p999 <= mx && ty <= p99))
        bad("应有 0 < t_min ≤ t_typical ≤ p99 ≤ p99.9 ≤ t_max 且 t_min ≤ t_avg ≤ t_max")
    if (!(f["t_stdev_us"] + 0 >= 0))
        bad("t_stdev_us 应 ≥ 0")
    mxa = f["t_max_all_us"] + 0
    if (!(mx <= mxa))
        bad("应有 t_max ≤ t_max_all（t_max 是第二大的样本）")
    half = f["test"] ~ /^read_/ ? 1 : 2
    m = f["iters"] > 2 ? f["iters"] - 2 : f["iters"]
    want = (av * m + (f["iters"] > 2 ? mx + mxa : 0)) * half / 1e6
    if (!rel_ok(want, w, 0.002, 0.000002 + 0.0005 * f["iters"] * half / 1e6))
        bad(sprintf("(t_avg_us × (iters-2) + t_max_us + t_max_all_us) × %d = %.6f 秒，wall_s=%s", half, want, f["wall_s"]))
}
END {
    if (nres == 0) { print "没有 BENCH_RESULT 行"; exit 1 }
    exit nbad > 0
}
