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
/* size 字节的消息；峰值在记录的个数超过 peak_max_n 或没有数组时为 0 */
void bw_figures_of(const struct bw_timeline *tl, size_t size, size_t peak_max_n, struct bw_figures *f);

#endif
