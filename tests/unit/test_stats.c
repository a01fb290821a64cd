/* test_stats.c - 基准统计（stats.c）对照手算的值 */
#include "unit.h"

#include <stdlib.h>

#include "runs/stats.h"

/*
 * 按 perftest 的 print_report_lat 手算（stats.h）：排序，丢掉最大的 2 个，m = n - 2。
 * 10 个样本 1..10（乱序给出）：m = 8，计入 1..8：
 *   中位数 = (4+5)/2 = 4.5；平均 4.5；总体方差 = Σ(x-4.5)²/8 = 42/8 = 5.25 → 标准差 2.2912878
 *   t_max = delta[8] = 9（第二大）；p99 下标 ceil(0.99×8)=ceil(7.92)=8 → 9；p99.9 下标 ceil(7.992)=8 → 9
 */
static void latency_even(void **state)
{
	double us[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
	struct lat_stats s;

	(void)state;
	lat_compute(us, 10, &s);
	assert_true(s.t_min == 1 && s.t_max == 9 && s.t_max_all == 10);
	assert_true(s.t_typical == 4.5);
	assert_true(s.t_avg == 4.5);
	assert_true(fabs(s.t_stdev - 2.2912878) < 1e-6);
	assert_true(s.p99 == 9 && s.p999 == 9);
}

/*
 * 奇数个计入：{2, 4, 4, 4, 5, 5, 7, 9, 100}：n = 9，m = 7，计入 {2,4,4,4,5,5,7}：中位数 = delta[3] = 4；平均 31/7；
 *   t_max = delta[7] = 9；p99 下标 ceil(6.93) = 7 → 9。
 * 1000 个样本 0..999：m = 998，计入 0..997：p99 = 下标 ceil(988.02) = 989 → 989，p99.9 = 下标 ceil(997.002) = 998 → 998，
 *   t_max = delta[998] = 998，中位数 (498+499)/2 = 498.5，平均 498.5，标准差 sqrt((998²-1)/12)（0..m-1 的总体标准差）
 */
static void latency_odd_and_percentiles(void **state)
{
	double us[] = { 100, 2, 4, 4, 4, 5, 5, 7, 9 };
	static double big[1000];
	struct lat_stats s;

	(void)state;
	lat_compute(us, 9, &s);
	assert_true(s.t_typical == 4);
	assert_true(fabs(s.t_avg - 31.0 / 7) < 1e-9);
	assert_true(s.t_max == 9 && s.p99 == 9 && s.p999 == 9 && s.t_min == 2);
	for (int i = 0; i < 1000; i++)
		big[i] = 999 - i;
	lat_compute(big, 1000, &s);
	assert_true(s.p99 == 989 && s.p999 == 998 && s.t_max == 998 && s.t_min == 0);
	assert_true(s.t_typical == 498.5 && s.t_avg == 498.5);
	assert_true(fabs(s.t_stdev - sqrt((998.0 * 998.0 - 1) / 12)) < 1e-9);
	assert_true(stats_percentile(big, 1000, 998, 0.5) == 499);
	lat_compute(big, 0, &s);
	assert_true(s.t_max == 0 && s.t_typical == 0);
}

/*
 * 1000 个 40 µs 里有一次 5 ms 的停顿（比如被调度出去）：perftest 把最大的 2 个丢掉，
 * 所以 t_avg = 40、t_stdev = 0、t_max = 40、99.9% = 40，只有“全部样本”的统计会被这一次拉走
 * （用全部样本的话 t_avg = (999×40 + 5000)/1000 = 44.96，t_max = 5000，99.9% = 5000）
 */
static void latency_one_stall_dropped(void **state)
{
	static double us[1000];
	struct lat_stats s;

	(void)state;
	for (int i = 0; i < 1000; i++)
		us[i] = i == 500 ? 5000 : 40;
	lat_compute(us, 1000, &s);
	assert_true(s.t_avg == 40 && s.t_max == 40 && s.t_stdev == 0);
	assert_true(s.t_max_all == 5000);   /* 我们自己的列：真正的最大值还看得到 */
	assert_true(s.t_min == 40 && s.t_typical == 40 && s.p99 == 40 && s.p999 == 40);
	assert_true(lat_measure_count(1000) == 998);
}

/*
 * 样本太少（n ≤ 2：丢掉 2 个就什么也不剩）：不丢，m = n，t_max 是最大值。
 *   {3, 1}：t_min 1、t_max 3、中位数 2、平均 2、标准差 1、p99 下标 ceil(1.98) = 2 超出 → 最后一个 3。{7}：全是 7。
 * n = 3 已经按规则丢：{5, 1, 9} → m = 1，计入 {1}：中位数/平均 1、标准差 0，t_max = delta[1] = 5，p99 = delta[ceil(0.99)] = 5
 */
static void latency_few_samples(void **state)
{
	double two[] = { 3, 1 }, one[] = { 7 }, three[] = { 5, 1, 9 };
	struct lat_stats s;

	(void)state;
	assert_true(lat_measure_count(2) == 2 && lat_measure_count(1) == 1 && lat_measure_count(3) == 1);
	lat_compute(two, 2, &s);
	assert_true(s.t_min == 1 && s.t_max == 3 && s.t_typical == 2 && s.t_avg == 2 && s.t_stdev == 1);
	assert_true(s.p99 == 3 && s.p999 == 3);
	lat_compute(one, 1, &s);
	assert_true(s.t_min == 7 && s.t_max == 7 && s.t_typical == 7 && s.t_avg == 7 && s.t_stdev == 0 && s.p999 == 7);
	lat_compute(three, 3, &s);
	assert_true(s.t_min == 1 && s.t_typical == 1 && s.t_avg == 1 && s.t_stdev == 0);
	assert_true(s.t_max == 5 && s.p99 == 5 && s.p999 == 5 && s.t_max_all == 9);
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
	assert_true(fabs(bw_peak_mbps(posted, done, 4, 1048576) - 1.5) < 1e-9);
	assert_true(bw_peak_mbps(posted, done, 0, 1048576) == 0);
}

/* 峰值的逐对定义（perftest 的两重循环），拿来对照 bw_peak_mbps */
static double peak_by_pairs(const double *posted, const double *done, size_t n, size_t size)
{
	double best = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++) {
			double t = (done[j] - posted[i]) / (double)(j - i + 1);

			if (t > 0 && (best == 0 || t < best))
				best = t;
		}
	return best > 0 ? (double)size / best / 1048576.0 : 0;
}

/*
 * bw_peak_mbps 不是两重循环（stats.c：上凸包 + 每批只看最后一个完成），结果必须和逐对比较一模一样：
 * 200 条随机时间线，投递一批批（同一时刻投几个）、完成一批批（同一时刻取出几个），第 k 个完成不早于第 k 个投递
 */
static void bandwidth_peak_same_as_all_pairs(void **state)
{
	static double posted[400], done[400];
	unsigned seed = 37;

	(void)state;
	for (int run = 0; run < 200; run++) {
		size_t n = 1 + (size_t)(run * 7 % 400);
		double t = 0, d = 0;

		for (size_t k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			if (k == 0 || (seed >> 16) % 4 != 0)   /* 约 1/4 和前一个同一时刻投递 */
				t += (double)((seed >> 8) % 1000) * 1e-7;
			posted[k] = t;
		}
		for (size_t k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			if (k == 0 || (seed >> 16) % 3 != 0 || d <= posted[k])   /* 约 1/3 和前一个一批取出 */
				d = (d > posted[k] ? d : posted[k]) + (double)(1 + (seed >> 8) % 5000) * 1e-7;
			done[k] = d;
		}
		{
			double want = peak_by_pairs(posted, done, n, 65536), got = bw_peak_mbps(posted, done, n, 65536);

			assert_true(fabs(got - want) <= 1e-12 * want);
		}
	}
}

/* perftest 的规则：每个QP的 iters ≤ 20000 就算峰值，不管有几个QP（16 个QP × 20000 = 32 万个 WR 也算） */
static void bandwidth_peak_rule_per_qp(void **state)
{
	(void)state;
	assert_true(bw_peak_wanted(20000) && bw_peak_wanted(1) && !bw_peak_wanted(20001));
}

/*
 * 32 万个 WR（16 个QP × 20000，新规则下要算峰值）：每 1 µs 投递一批 16 个，第 b 批在 (b+2) µs 一起完成。
 * 每条最少用时的一段是全部：n 条从 0 到 20001 µs。两重循环要比 5×10^10 对（几分钟），这里一眨眼
 */
static void bandwidth_peak_large_is_fast(void **state)
{
	size_t n = 16 * 20000;
	double *posted = malloc(n * sizeof(double)), *done = malloc(n * sizeof(double));

	(void)state;
	assert_non_null(posted);
	assert_non_null(done);
	for (size_t k = 0; k < n; k++) {
		posted[k] = (double)(k / 16) * 1e-6;
		done[k] = (double)(k / 16 + 1) * 1e-6 + 1e-6;
	}
	/* 最好的一段：从第一批投递到最后一批完成，n 条用 (n/16 + 1) µs */
	{
		double want = 65536.0 * (double)n / ((double)(n / 16 + 1) * 1e-6) / 1048576.0;

		assert_true(fabs(bw_peak_mbps(posted, done, n, 65536) - want) < 1e-9 * want);
	}
	free(posted);
	free(done);
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
	bw_figures_of(&tl, 1048576, &f);
	assert_true(tl.n_posted == 4 && tl.n_done == 4);
	assert_true(f.secs == 2.0 && f.msgs == 4.0);
	assert_true(f.avg_mbps == 2.0);
	assert_true(fabs(f.rate_mpps - 0.000002) < 1e-15);
	assert_true(fabs(f.peak_mbps - 2.0) < 1e-9);
	/* 没有数组（WR 太多）：照样数、照样有平均，峰值 0 */
	bw_tl_post(&nt, 0, 6, 5.0);
	bw_tl_done(&nt, 0, 6, 7.0);
	bw_figures_of(&nt, 1048576, &f);
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
	bw_figures_of(&tl, 65536, &f);
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
	cmocka_unit_test(latency_one_stall_dropped),
	cmocka_unit_test(latency_few_samples),
	cmocka_unit_test(bandwidth_peak_same_as_all_pairs),
	cmocka_unit_test(bandwidth_peak_rule_per_qp),
	cmocka_unit_test(bandwidth_peak_large_is_fast),
};
const size_t stats_tests_count = COUNT_OF(stats_tests);
