/*
 * tools/bench/nsir.c MODE K [DEV] - 计时一段代码跑 K 次，打印每次多少纳秒（tools/bench/ir.sh 用它量
 * “一条客户机指令在 TCG 里多少纳秒”：同一段代码的指令数由 callgrind 数，时间在虚拟机里直接跑）。
 *   work  像计时循环里“圈外的工作”的普通 C 代码：填一个发送 WR 和 SGE、检查、记一个环形队列的槽、
 *         把 WR 拷进队列（64 字节），和 lat_req/post_send/sq_account 是同一类指令（读写内存、分支、调用）
 *   poll  对一个空 CQ 调 ibv_poll_cq（要 DEV，如 rxe0）：驱动的用户态代码，带自旋锁
 *   clock clock_gettime(CLOCK_MONOTONIC)（计时循环每次迭代读一次）
 *   tsc   rdtsc（perftest 的 get_cycles）
 * 不是项目的一部分，只在测量时编译：cc -O2 -o nsir tools/bench/nsir.c -libverbs
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>
#include <infiniband/verbs.h>

struct ring {
	struct ibv_send_wr slot[16];
	unsigned head, used;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#include "burn_wr.h"   /* build()：每次现填一个 WR */

__attribute__((noinline)) static int post(struct ring *r, const struct ibv_send_wr *wr)
{
	if (wr->num_sge < 1 || wr->sg_list->length > 4096 || r->used >= 16)
		return -1;
	memcpy(&r->slot[r->head], wr, sizeof(*wr));
	r->head = (r->head + 1) % 16;
	r->used++;
	return 0;
}

static int work(long n)
{
	static char buf[64];
	struct ring r = { .head = 0 };
	struct ibv_send_wr wr;
	struct ibv_sge sge;

	for (long k = 0; k < n; k++) {
		build(&wr, &sge, buf, k);
		if (post(&r, &wr) != 0)
			return -1;
		r.used--;   /* 完成马上还槽 */
	}
	return (int)r.head;
}

static int poll_empty(long n, const char *dev)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	struct ibv_wc wc;
	int got = 0;

	for (int i = 0; l != NULL && l[i] != NULL; i++)
		if (strcmp(ibv_get_device_name(l[i]), dev) == 0)
			ctx = ibv_open_device(l[i]);
	struct ibv_cq *cq = ctx != NULL ? ibv_create_cq(ctx, 16, NULL, NULL, 0) : NULL;

	if (cq == NULL) {
		fprintf(stderr, "nsir: 打不开设备 %s 或建不了 CQ\n", dev);
		exit(1);
	}
	double t0 = now();

	for (long k = 0; k < n; k++)
		got += ibv_poll_cq(cq, 1, &wc);
	printf("poll %ld %.1f ns\n", n, (now() - t0) * 1e9 / (double)n);
	return got;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	volatile uint64_t sink = 0;

	if (argc < 3 || n <= 0) {
		fprintf(stderr, "用法: nsir work|poll|clock|tsc K [DEV]\n");
		return 2;
	}
	if (strcmp(argv[1], "poll") == 0)
		return poll_empty(n, argc > 3 ? argv[3] : "rxe0") != 0;
	double t0 = now();

	if (strcmp(argv[1], "work") == 0)
		sink = (uint64_t)work(n);
	else if (strcmp(argv[1], "clock") == 0)
		for (long k = 0; k < n; k++)
			sink += (uint64_t)(now() * 1e6);
	else
		for (long k = 0; k < n; k++)
			sink += __rdtsc();
	printf("%s %ld %.1f ns\n", argv[1], n, (now() - t0) * 1e9 / (double)n);
	return sink == 1;   /* 让编译器留下循环 */
}
