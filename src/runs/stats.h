/*
 * stats.h - 基准测试（--bench）的纯统计：延迟分布、带宽、消息速率（不碰 verbs，可单元测试）
 *
 * 延迟的列与 perftest v4.5-0.17 的 print_report_lat（perftest_parameters.c）逐行对应，学习者可以对照：
 *   样本 = 相邻两次开始时刻的差（n 个；我们 iters+1 个时刻给 n = iters 个，perftest 的 iters 个时刻给 iters-1 个）；
 *   升序排列后丢掉最大的 LAT_MEASURE_TAIL（2）个，
 *   m = n - 2 个“计入的样本”delta[0..m-1]：
 *   t_min     = delta[0]
 *   t_max     = delta[m]（丢掉的两个之外最大的那个 = 全部样本里第二大的；不是真正的最大值）
 *   t_typical = delta[0..m-1] 的中位数（m 为偶数时取中间两个的平均）
 *   t_avg     = delta[0..m-1] 的算术平均；t_stdev = 总体标准差 sqrt(Σ(x-avg)²/m)
 *   p99/p99.9 = delta[ceil(m×0.99)] / delta[ceil(m×0.999)]（下标按 m 算，取的是已排序的全部样本）
 *   与 perftest 的两处不同（都是 perftest 把数字截断了，我们保留准确值）：
 *     perftest 以 CPU 周期（整数）求中位数，(a+b)/2 是整数除法；我们用微秒的 double，不截断。
 *     perftest 4.5-0.17 的标准差里 temp_var、pow_var 是 int（avg-x 先截成整数微秒再平方），
 *     离散小于 1 µs 时它报 0；我们用准确值。较新的 perftest 没有改：linux-rdma/perftest 的 26.04.17
 *     （以及其后的 00b55b6，2026-07）perftest_parameters.c（perftest 仓库的 src 目录）的 print_report_lat 里两者仍是 int。
 *   t_max_all = 全部样本的最大值：不是 perftest 的列，是我们自己加的（只在 BENCH_RESULT 里），
 *               有了它，丢掉的两个 = t_max + t_max_all，各次加起来 = t_avg×m + t_max + t_max_all 还是整个计时窗口
 *   样本太少：n ≤ 2 时丢掉两个就什么也不剩了（perftest 会读到数组外面）：这时不丢，m = n，t_max = 最大值。
 *
 *   MB/sec    = 字节/秒 ÷ 2^20（perftest 的 MB 是 MiB）
 *   MsgRate   = 消息数/秒 ÷ 10^6（Mpps）
 *   BW peak   = 见 bw_peak_mbps；perftest 的规则：每个QP的计时 WR 数 iters 超过 BW_PEAK_MAX_ITERS 时不算（报 0）
 */
#ifndef ROCE_STATS_H
#define ROCE_STATS_H

#include <stddef.h>

#define LAT_MEASURE_TAIL  2        /* 排序后丢掉的最大样本个数（perftest 的 LAT_MEASURE_TAIL） */
#define BW_PEAK_MAX_ITERS 20000    /* perftest：iters > 20000 时不算峰值（noPeak），与QP数无关 */

struct lat_stats {
	double t_min, t_max, t_typical, t_avg, t_stdev, p99, p999;   /* 微秒，perftest 的定义 */
	double t_max_all;   /* 我们自己的（perftest 不报）：全部样本里真正最大的那个，BENCH_RESULT 的 t_max_all_us */
};

/* 排序（升序）后按上面的定义算出全部延迟统计（us 被排序）；n == 0 时全部为 0 */
void lat_compute(double *us, size_t n, struct lat_stats *s);
/* 丢掉尾巴后计入的样本数 m：n > LAT_MEASURE_TAIL 时 n - 2，否则 n（样本太少，不丢） */
size_t lat_measure_count(size_t n);
/* 已排序的 n 个样本、计入 m 个时的百分位（p 在 0..1 之间）：下标 ceil(p×m)，超出则取最后一个 */
double stats_percentile(const double *sorted, size_t n, size_t m, double p);

/* 平均带宽：bytes 字节用了 secs 秒，单位 MB/sec（2^20 字节） */
double bw_mbps(double bytes, double secs);
/* 消息速率：msgs 条消息用了 secs 秒，单位 Mpps */
double msg_rate_mpps(double msgs, double secs);

/*
 * 峰值带宽（perftest 的 BW peak）：第 i 个 WR 投递时刻 posted[i]、完成时刻 completed[i]（秒）；
 * 取所有 i ≤ j 里“每条消息平均用时” (completed[j] - posted[i]) / (j - i + 1) 的最小值，
 * 再用 size 字节除以它。结果和两重循环逐对比较完全一样，只是更快（O(n log n)，见 stats.c），
 * 所以 iters ≤ BW_PEAK_MAX_ITERS 时 16 个QP 的 32 万个 WR 也能算。n == 0 返回 0
 */
double bw_peak_mbps(const double *posted, const double *completed, size_t n, size_t size);
/* 这个 iters（每个QP的计时 WR 数）要不要算峰值：perftest 的规则 iters ≤ BW_PEAK_MAX_ITERS */
int bw_peak_wanted(long iters);

/*
 * 带宽测量的时间线（perftest 的 tposted[]/tcompleted[]）：所有QP的投递和完成都按发生的先后记在
 * 同一个序列里（第 k 个投递、第 k 个完成），不按QP分段——峰值把下标当成时间顺序。
 * 每个QP的前 warm 个 WR 是预热：不记、不数、不开窗口。计时窗口 = 第一个计时 WR 投递的时刻 t0
 * 到最后一个计时 WR 完成的时刻 t1；窗口里数的消息就是这里记下的完成个数，时间和个数说的是同一件事。
 */
struct bw_timeline {
	long warm;              /* 每个QP的前 warm 个 WR（序号 0..warm-1）是预热 */
	double *posted, *done;  /* 第 k 个计时 WR 的投递/完成时刻（秒），容量 cap；NULL = 太多，不记 */
	size_t cap;
	size_t n_posted, n_done; /* 计时 WR 的投递/完成个数（数组满了或为 NULL 也照数） */
	double t0, t1;          /* 计时窗口：第一个计时 WR 投递 / 最近一个计时 WR 完成 */
};
/* 一次 ibv_post_send 在某个QP上投递了序号 first..first+n-1 的 WR，时刻 t */
void bw_tl_post(struct bw_timeline *tl, long first, int n, double t);
/* 某个QP上序号 from..upto-1 的 WR 完成了（选择性通知：一个完成代表它和它之前的），时刻 t */
void bw_tl_done(struct bw_timeline *tl, long from, long upto, double t);

/* 从时间线算出的报告数字 */
struct bw_figures {
	double secs;            /* 窗口长度 t1 - t0（BENCH_RESULT 的 wall_s） */
	double msgs;            /* 窗口里完成的计时 WR 个数 */
	double avg_mbps, rate_mpps, peak_mbps;
};
/* size 字节的消息；没有数组（bw_peak_wanted 说不算）时峰值为 0 */
void bw_figures_of(const struct bw_timeline *tl, size_t size, struct bw_figures *f);

#endif
