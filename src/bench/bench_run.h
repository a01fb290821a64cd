/*
 * bench_run.h - bench.c 和 bench_report.c 共用：一个大小的一次测量（struct run）和几个小判断（不是公开接口）
 */
#ifndef ROCE_BENCH_RUN_H
#define ROCE_BENCH_RUN_H

#include <stdio.h>

#include "types/rdma_types.h"
#include "bench/stats.h"

/* 一个大小的一次测量：计时循环里要用的一切（循环外分配好） */
struct run {
	struct rdma_conn *c;
	size_t size;
	long warm, iters;           /* 预热次数、计时次数 */
	double *t;                  /* lat：每次的开始时刻（iters+1 个） */
	struct bw_timeline tl;      /* bw：计时 WR 的投递/完成时刻，按发生顺序（stats.h） */
	double t0, t1, cpu0, cpu1;  /* 计时循环的墙钟与 CPU 时间（bw 客户端 = 时间线的窗口） */
	long recv_ready;            /* send 延迟：已到达、还没被乒乓用掉的消息数 */
	int first;                  /* 第一个大小：接收队列要先填满（之后一直保持满） */
	uint8_t *landed;            /* 收到过消息的接收缓冲区（按 wr_id 里的号，recv_slots 个）：--srq、UD 时只校验它们 */
	long received;              /* UD 带宽的服务端：收到的消息数（预热 + 计时） */
	char ctr[1024];             /* --counters：这个大小前后的计数差值，BENCH_RESULT 的后缀（ctr_hook.c） */
};

static inline int is_server(const struct rdma_conn *c) { return c->opt->role == ROLE_SERVER; }

static inline const char *test_name(const struct options *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s_%s", op_name(o->op), bench_name(o->bench));
	return buf;
}

/* 客户端在这个大小上发出的消息数：每个QP 预热 + 计时 */
static inline long ud_sent(const struct run *r)
{
	return (r->warm + r->iters) * r->c->num_qp;
}

/* 预热次数：计时次数的十分之一加一，最多 1000（bench.c 测量、bench_report.c 说明时都用它） */
static inline long warmup_count(long iters)
{
	long w = iters / 10 + 1;

	return w > 1000 ? 1000 : w;
}

/* 打印（bench_report.c）：测量前后的说明、表头、每个大小一行 + BENCH_RESULT、服务端的 UD 收到数、本端的 CPU */
void bench_explain_before(struct rdma_conn *c);
void bench_explain_after(struct rdma_conn *c);
void bench_print_header(struct rdma_conn *c);
int bench_reports_table(const struct rdma_conn *c);
void bench_report(struct run *r);

#endif
