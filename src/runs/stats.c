/*
 * stats.c - 基准测试的纯统计（定义见 stats.h）
 */
#include "runs/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

size_t lat_measure_count(size_t n)
{
	return n > LAT_MEASURE_TAIL ? n - LAT_MEASURE_TAIL : n;
}

double stats_percentile(const double *sorted, size_t n, size_t m, double p)
{
	size_t k;

	if (n == 0)
		return 0;
	k = (size_t)ceil((double)m * p);   /* perftest: iters_99 = ceil(measure_cnt * 0.99) */
	return sorted[k < n ? k : n - 1];
}

/* 前 m 个的中位数（perftest 的 get_median） */
static double median(const double *sorted, size_t m)
{
	if (m % 2 == 1)
		return sorted[m / 2];
	return (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
}

void lat_compute(double *us, size_t n, struct lat_stats *s)
{
	double sum = 0, sq = 0;
	size_t m = lat_measure_count(n);

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	qsort(us, n, sizeof(*us), cmp_double);
	/* 平均、标准差、中位数只用计入的 m 个（最大的 2 个不算） */
	for (size_t i = 0; i < m; i++)
		sum += us[i];
	s->t_avg = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		sq += (us[i] - s->t_avg) * (us[i] - s->t_avg);
	s->t_stdev = sqrt(sq / (double)m);
	s->t_min = us[0];
	s->t_max = us[m < n ? m : n - 1];   /* perftest 的 delta[measure_cnt]：第二大的样本 */
	s->t_max_all = us[n - 1];           /* 我们自己的：真正的最大值 */
	s->t_typical = median(us, m);
	s->p99 = stats_percentile(us, n, m, 0.99);
	s->p999 = stats_percentile(us, n, m, 0.999);
}

double bw_mbps(double bytes, double secs)
{
	return secs > 0 ? bytes / secs / 1048576.0 : 0;
}

double msg_rate_mpps(double msgs, double secs)
{
	return secs > 0 ? msgs / secs / 1e6 : 0;
}

/* 第 i 个投递到第 j 个完成之间每条消息的平均用时 */
static double per_msg(const double *posted, const double *completed, size_t i, size_t j)
{
	return (completed[j] - posted[i]) / (double)(j - i + 1);
}

/*
 * 点 a、b、c = (下标, 投递时刻)：c 在直线 ab 上或上方时为真（b 不在上凸包上）
 */
static int not_below(const double *posted, size_t a, size_t b, size_t c)
{
	return ((double)(b - a)) * (posted[c] - posted[a]) - (posted[b] - posted[a]) * ((double)(c - a)) >= 0;
}

/*
 * 为什么不用两重循环（perftest 是 O(n²)，所以它在 iters > 20000 时不算）：
 *   把每个投递画成点 P_i = (i, posted[i])，把第 j 个完成画成点 Q_j = (j + 1, completed[j])，
 *   (completed[j] - posted[i]) / (j - i + 1) 就是 P_i 到 Q_j 的斜率。对固定的 j，所有 P_i（i ≤ j）都在 Q_j 左边，
 *   斜率最小的那个点一定在这些点的“上凸包”上（过 Q_j、斜率最小的直线要让所有点都在它下方，它切在上凸包上），
 *   沿着上凸包斜率先减后增，二分就找到它。i 从左到右加入，上凸包用单调栈维护。
 *   另外一批里一起取出的完成时刻相同，同样的分子下 j 越大分母越大，所以只看每批的最后一个 j（perftest 按 cq_mod 跳着取 j 也是这个意思）。
 *   结果与两重循环逐对比较完全相同（tests/unit/test_stats.c 在随机时间线上对照）。
 */
double bw_peak_mbps(const double *posted, const double *completed, size_t n, size_t size)
{
	size_t *hull, h = 0;
	double best = 0;

	if (n == 0)
		return 0;
	hull = malloc(n * sizeof(*hull));
	if (hull == NULL)
		return 0;
	for (size_t j = 0; j < n; j++) {
		size_t lo = 0, hi;
		double t;

		while (h >= 2 && not_below(posted, hull[h - 2], hull[h - 1], j))
			h--;
		hull[h++] = j;
		if (j + 1 < n && completed[j + 1] == completed[j])
			continue;   /* 同一批：看这批的最后一个 */
		hi = h - 1;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (per_msg(posted, completed, hull[mid + 1], j) < per_msg(posted, completed, hull[mid], j))
				lo = mid + 1;
			else
				hi = mid;
		}
		t = per_msg(posted, completed, hull[lo], j);
		if (t > 0 && (best == 0 || t < best))
			best = t;
	}
	free(hull);
	return best > 0 ? bw_mbps((double)size, best) : 0;
}

int bw_peak_wanted(long iters)
{
	return iters <= BW_PEAK_MAX_ITERS;
}

void bw_tl_post(struct bw_timeline *tl, long first, int n, double t)
{
	for (long k = first; k < first + n; k++) {
		if (k < tl->warm)
			continue;
		if (tl->n_posted == 0)
			tl->t0 = t;
		if (tl->posted != NULL && tl->n_posted < tl->cap)
			tl->posted[tl->n_posted] = t;
		tl->n_posted++;
	}
}

void bw_tl_done(struct bw_timeline *tl, long from, long upto, double t)
{
	for (long k = from; k < upto; k++) {
		if (k < tl->warm)
			continue;
		if (tl->done != NULL && tl->n_done < tl->cap)
			tl->done[tl->n_done] = t;
		tl->n_done++;
		tl->t1 = t;
	}
}

void bw_figures_of(const struct bw_timeline *tl, size_t size, struct bw_figures *f)
{
	size_t n = tl->n_done < tl->n_posted ? tl->n_done : tl->n_posted;

	memset(f, 0, sizeof(*f));
	if (tl->n_done == 0)
		return;
	f->secs = tl->t1 - tl->t0;
	f->msgs = (double)tl->n_done;
	f->avg_mbps = bw_mbps(f->msgs * (double)size, f->secs);
	f->rate_mpps = msg_rate_mpps(f->msgs, f->secs);
	if (tl->posted != NULL && tl->done != NULL && n <= tl->cap)
		f->peak_mbps = bw_peak_mbps(tl->posted, tl->done, n, size);
}
