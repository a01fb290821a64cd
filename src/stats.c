/*
 * stats.c - 基准测试的纯统计（定义见 stats.h）
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_percentile(const double *sorted, size_t n, double p)
{
	size_t k;

	if (n == 0)
		return 0;
	k = (size_t)(p * (double)n);
	return sorted[k < n ? k : n - 1];
}

static double median(const double *sorted, size_t n)
{
	if (n % 2 == 1)
		return sorted[n / 2];
	return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

void lat_compute(double *us, size_t n, struct lat_stats *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	qsort(us, n, sizeof(*us), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += us[i];
	s->t_avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (us[i] - s->t_avg) * (us[i] - s->t_avg);
	s->t_stdev = sqrt(sq / (double)n);
	s->t_min = us[0];
	s->t_max = us[n - 1];
	s->t_typical = median(us, n);
	s->p99 = stats_percentile(us, n, 0.99);
	s->p999 = stats_percentile(us, n, 0.999);
}

double bw_mbps(double bytes, double secs)
{
	return secs > 0 ? bytes / secs / 1048576.0 : 0;
}

double msg_rate_mpps(double msgs, double secs)
{
	return secs > 0 ? msgs / secs / 1e6 : 0;
}

double bw_peak_mbps(const double *posted, const double *completed, size_t n, size_t size, size_t max_n)
{
	double best = 0;

	if (n == 0 || n > max_n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i; j < n; j++) {
			double t = (completed[j] - posted[i]) / (double)(j - i + 1);

			if (t > 0 && (best == 0 || t < best))
				best = t;
		}
	}
	return best > 0 ? bw_mbps((double)size, best) : 0;
}
