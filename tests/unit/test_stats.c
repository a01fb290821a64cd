/* test_stats.c - 基准统计（stats.c）对照手算的值 */
#include "unit.h"

#include "stats.h"

/* 10 个样本 1..10（乱序给出）：
 *   中位数 = (5+6)/2 = 5.5；平均 5.5；总体方差 = Σ(x-5.5)²/10 = 82.5/10 = 8.25 → 标准差 2.8722813
 *   p99 下标 floor(0.99×10)=9 → 10；p99.9 下标 floor(9.99)=9 → 10 */
static void latency_even(void **state)
{
	double us[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
	struct lat_stats s;

	(void)state;
	lat_compute(us, 10, &s);
	assert_true(s.t_min == 1 && s.t_max == 10);
	assert_true(s.t_typical == 5.5);
	assert_true(s.t_avg == 5.5);
	assert_true(fabs(s.t_stdev - 2.8722813) < 1e-6);
	assert_true(s.p99 == 10 && s.p999 == 10);
}

/* 奇数个：{2, 4, 4, 4, 5, 5, 7, 9, 100}：中位数 = 第5个 = 5；平均 140/9；
 * 1000 个样本 0..999 时：p99 = 下标 990 → 990，p99.9 = 下标 999 → 999，中位数 (499+500)/2 */
static void latency_odd_and_percentiles(void **state)
{
	double us[] = { 100, 2, 4, 4, 4, 5, 5, 7, 9 };
	static double big[1000];
	struct lat_stats s;

	(void)state;
	lat_compute(us, 9, &s);
	assert_true(s.t_typical == 5);
	assert_true(fabs(s.t_avg - 140.0 / 9) < 1e-9);
	for (int i = 0; i < 1000; i++)
		big[i] = 999 - i;
	lat_compute(big, 1000, &s);
	assert_true(s.p99 == 990 && s.p999 == 999 && s.t_typical == 499.5);
	assert_true(stats_percentile(big, 1000, 0.5) == 500);
	lat_compute(big, 0, &s);
	assert_true(s.t_max == 0 && s.t_typical == 0);
}

/* 1 MiB × 100 条用 2 秒：50 MB/sec（MB = 2^20）；100 条 / 2 秒 = 50 条/秒 = 0.00005 Mpps；
 * 3,000,000 条用 1.5 秒 = 2 Mpps */
static void bandwidth_and_rate(void **state)
{
	(void)state;
	assert_true(bw_mbps(100.0 * 1048576, 2.0) == 50.0);
	assert_true(fabs(bw_mbps(1e6, 1.0) - 0.95367431640625) < 1e-12);
	assert_true(msg_rate_mpps(3e6, 1.5) == 2.0);
	assert_true(fabs(msg_rate_mpps(100, 2) - 0.00005) < 1e-15);
	assert_true(bw_mbps(1, 0) == 0 && msg_rate_mpps(1, 0) == 0);
}

/* 4 个 WR，每个 1 MiB：投递 0,0,0,0 秒；完成 1,1.5,2,4 秒。
 *   (i,j) 的每条平均：(0,0)=1 (0,1)=0.75 (0,2)=0.6667 (0,3)=1 (1,1)=1.5 (1,2)=1 (2,2)=2 ... 最小 2/3 秒
 *   峰值 = 1 MiB / (2/3 秒) = 1.5 MB/sec；n 超过 max_n 时返回 0 */
static void bandwidth_peak(void **state)
{
	double posted[] = { 0, 0, 0, 0 }, done[] = { 1, 1.5, 2, 4 };

	(void)state;
	assert_true(fabs(bw_peak_mbps(posted, done, 4, 1048576, 100) - 1.5) < 1e-9);
	assert_true(bw_peak_mbps(posted, done, 4, 1048576, 3) == 0);
}

/*
 * 计时窗口不含预热（议题 22 第 1 条）：1 个QP，预热 2 个（序号 0、1），计时 4 个，每个 1 MiB。
 *   预热：t=0 投递 0、1，t=1 完成（不记）。计时：t=10 一次投递 2..5，t=11 完成 2、3，t=12 完成 4、5。
 *   窗口 = 12 - 10 = 2 秒，窗口里 4 条：平均 4 MiB / 2 秒 = 2 MB/sec，消息速率 4/2/10^6 = 0.000002 Mpps。
 *   峰值：投递 {10,10,10,10}，完成 {11,11,12,12}，每条最少 (11-10)/2 = (12-10)/4 = 0.5 秒 → 2 MB/sec。
 *   （窗口从预热开始算的话是 12 秒、0.333 MB/sec）
 */
static void bandwidth_window_skips_warmup(void **state)
{
	double posted[4], done[4];
	struct bw_timeline tl = { .warm = 2, .posted = posted, .done = done, .cap = 4 };
	struct bw_timeline nt = { .warm = 2 };
	struct bw_figures f;

	(void)state;
	bw_tl_post(&tl, 0, 2, 0.0);
	bw_tl_done(&tl, 0, 2, 1.0);
	bw_tl_post(&tl, 2, 4, 10.0);
	bw_tl_done(&tl, 2, 4, 11.0);
	bw_tl_done(&tl, 4, 6, 12.0);
	bw_figures_of(&tl, 1048576, 100, &f);
	assert_true(tl.n_posted == 4 && tl.n_done == 4);
	assert_true(f.secs == 2.0 && f.msgs == 4.0);
	assert_true(f.avg_mbps == 2.0);
	assert_true(fabs(f.rate_mpps - 0.000002) < 1e-15);
	assert_true(fabs(f.peak_mbps - 2.0) < 1e-9);
	/* 没有数组（WR 太多）：照样数、照样有平均，峰值 0 */
	bw_tl_post(&nt, 0, 6, 5.0);
	bw_tl_done(&nt, 0, 6, 7.0);
	bw_figures_of(&nt, 1048576, 100, &f);
	assert_true(f.secs == 2.0 && f.msgs == 4.0 && f.avg_mbps == 2.0 && f.peak_mbps == 0);
}

/*
 * 4 个QP 的峰值（议题 22 第 2 条）：像 bw_fill 那样，每个QP在 t=0 一次投递自己的 25 个 64 KiB 的 WR；
 * 完成轮流到达：全局第 k 个完成（QP k%4 的第 k/4 个）在 (k+1)·dt，dt = 65536 / (61·2^20) 秒，即 61 MB/sec。
 * 按发生顺序记：投递全是 0，完成[j] = (j+1)·dt，每条最少 dt → 峰值 61 MB/sec，平均 100 条 / 100·dt = 61 MB/sec。
 * （按QP分段记的话，QP3 的第 0 个（4·dt）排在下标 75，峰值算成 76/4 × 61 ≈ 1159 MB/sec）
 */
static void bandwidth_peak_four_qps_in_time_order(void **state)
{
	static double posted[100], done[100];
	struct bw_timeline tl = { .warm = 0, .posted = posted, .done = done, .cap = 100 };
	double dt = 65536.0 / (61.0 * 1048576.0);
	struct bw_figures f;

	(void)state;
	for (int qp = 0; qp < 4; qp++)
		bw_tl_post(&tl, 0, 25, 0.0);
	for (int k = 0; k < 100; k++)
		bw_tl_done(&tl, k / 4, k / 4 + 1, (k + 1) * dt);
	bw_figures_of(&tl, 65536, 20000, &f);
	assert_true(f.msgs == 100);
	assert_true(fabs(f.avg_mbps - 61.0) < 1e-6);
	assert_true(fabs(f.peak_mbps - 61.0) < 1e-6);
}

const struct CMUnitTest stats_tests[] = {
	cmocka_unit_test(bandwidth_window_skips_warmup),
	cmocka_unit_test(bandwidth_peak_four_qps_in_time_order),
	cmocka_unit_test(latency_even),
	cmocka_unit_test(latency_odd_and_percentiles),
	cmocka_unit_test(bandwidth_and_rate),
	cmocka_unit_test(bandwidth_peak),
};
const size_t stats_tests_count = COUNT_OF(stats_tests);
