/*
 * clock.h - 程序里唯一的时钟：CLOCK_MONOTONIC（不受改系统时间影响），超时、等待和计时都用它
 */
#ifndef ROCE_CLOCK_H
#define ROCE_CLOCK_H

#include <stdint.h>
#include <time.h>

/* 毫秒：超时的截止时刻、等了多久 */
static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 秒（带小数，纳秒精度）：基准测试和数据传输的用时 */
static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 纳秒（整数）：延迟的计时循环每次迭代记一个，循环里只做整数的减法和比较，换算成秒/微秒在循环之后（bench_lat.c） */
static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
