/*
 * stats.h - 基准测试（--bench）的纯统计：延迟分布、带宽、消息速率（不碰 verbs，可单元测试）
 *
 * 定义与 perftest 的报告一致，学习者可以逐行对比：
 *   t_typical = 中位数（个数为偶数时取中间两个的平均）
 *   t_avg     = 算术平均；t_stdev = 总体标准差 sqrt(Σ(x-avg)²/n)
 *   p99/p99.9 = 升序排列后下标 floor(p×n) 的那个值（超出则取最后一个）
 *   MB/sec    = 字节/秒 ÷ 2^20（perftest 的 MB 是 MiB）
 *   MsgRate   = 消息数/秒 ÷ 10^6（Mpps）
 */
#ifndef ROCE_STATS_H
#define ROCE_STATS_H

#include <stddef.h>

struct lat_stats {
	double t_min, t_max, t_typical, t_avg, t_stdev, p99, p999;   /* 微秒 */
};

/* 排序（升序）后算出全部延迟统计；n == 0 时全部为 0 */
void lat_compute(double *us, size_t n, struct lat_stats *s);
/* 已排序数组里的百分位（p 在 0..1 之间） */
double stats_percentile(const double *sorted, size_t n, double p);

/* 平均带宽：bytes 字节用了 secs 秒，单位 MB/sec（2^20 字节） */
double bw_mbps(double bytes, double secs);
/* 消息速率：msgs 条消息用了 secs 秒，单位 Mpps */
double msg_rate_mpps(double msgs, double secs);

/*
 * 峰值带宽（perftest 的 BW peak）：第 i 个 WR 投递时刻 posted[i]、完成时刻 completed[i]（秒）；
 * 取所有 i ≤ j 里“每条消息平均用时” (completed[j] - posted[i]) / (j - i + 1) 的最小值，
 * 再用 size 字节除以它。n 超过 max_n 时不算（O(n²)，返回 0，与 perftest 的 noPeak 一样）。
 */
double bw_peak_mbps(const double *posted, const double *completed, size_t n, size_t size, size_t max_n);

#endif
