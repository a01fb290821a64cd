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

void bw_figures_of(const struct bw_timeline *tl, size_t size, size_t peak_max_n, struct bw_figures *f)
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
		f->peak_mbps = bw_peak_mbps(tl->posted, tl->done, n, size, peak_max_n);
}
