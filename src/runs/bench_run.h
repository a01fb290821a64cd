/*
 * bench_run.h - bench.c 和 bench_report.c 共用：一个大小的一次测量（struct run）和几个小判断（不是公开接口）
 */
#ifndef ROCE_BENCH_RUN_H
#define ROCE_BENCH_RUN_H

#include <stdio.h>

#include "rdma_common.h"
#include "console/clock.h"
#include "runs/stats.h"
#include "verbs/wc_check.h"

/* 一个大小的一次测量：计时循环里要用的一切（循环外分配好） */
struct run {
	struct rdma_conn *c;
	size_t size;
	long warm, iters;           /* 预热次数、计时次数 */
	int64_t *t;                 /* lat：每次的开始时刻，纳秒（iters+1 个；换算成微秒在循环之后，bench_report.c） */
	int64_t paused, next_alive; /* lat：心跳用掉、从时间轴上拿掉的纳秒；下一个心跳的时刻（bench_lat.c 的 beat_between） */
	struct bw_timeline tl;      /* bw：计时 WR 的投递/完成时刻，按发生顺序（stats.h） */
	double t0, t1, cpu0, cpu1;  /* 计时循环的墙钟与 CPU 时间（bw 客户端 = 时间线的窗口） */
	long recv_ready;            /* send 延迟：已到达、还没被乒乓用掉的消息数 */
	int first;                  /* 第一个大小：接收队列要先填满（之后一直保持满） */
	int recvs_later;            /* 插桩要求第一个大小的接收晚投（HOOK_RECVS 的 later）：bw_server_ud 里同步之后再投 */
	uint8_t *landed;            /* 收到过消息的接收缓冲区（按 wr_id 里的号，recv_slots 个）：--srq、UD 时只校验它们 */
	long received;              /* UD 带宽的服务端：收到的消息数（预热 + 计时） */
	char ctr[1024];             /* 插桩给 BENCH_RESULT 的后缀（HOOK_BENCH_SIZE：--counters 写这个大小前后的计数差值，ctr_hook.c） */
	/* 计时之前建好的 WR（build_wrs），计时循环里只改必须改的字段 */
	struct ibv_send_wr *swr;    /* 发送：lat 每个QP一个；bw 每个QP post_list 个（swr[qp * post_list + j]） */
	struct ibv_sge *ssge;       /* 发送 WR 的 SGE，一一对应 */
	int send_flags;             /* 建好的发送 WR 的标志（inline），“要不要完成”每次另加 */
	int sig_all;                /* lat：每个 WR 都要完成（READ，或 --signal 1），不必每次问 lat_wr_signaled */
	int traced;                 /* 有插件要看每个 WR 和完成（--trace；hook_on，计时之前看一次；循环里每处只看这一个字段） */
	struct ibv_recv_wr *rwr;    /* 接收：每块接收缓冲区一个（recv_slots 个），补投时原样再投 */
	struct ibv_sge *rsge;
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

/*
 * 超时的期限在真的空等了（忙等 SPIN_CHECK 圈，或 --cq event 要睡）时才定：第一次来时读时钟定下 -t 之后的时刻，
 * 之后原样返回。快的时候一次也不来，所以计时循环里不为超时读时钟（*deadline = 0 表示还没定；有进展时调用者清零）
 */
static inline long long lazy_deadline(const struct rdma_conn *c, long long *deadline)
{
	if (*deadline == 0)
		*deadline = now_ms() + c->opt->timeout_ms;
	return *deadline;
}

/* 预热次数：计时次数的十分之一加一，最多 1000（bench.c 测量、bench_report.c 说明时都用它） */
static inline long warmup_count(long iters)
{
	long w = iters / 10 + 1;

	return w > 1000 ? 1000 : w;
}

double cpu_s(void);
int peer_waits(struct rdma_conn *c);
/* 一个接收完成用的是哪块缓冲区（repost_recv 的 b）：--srq 时 wr_id 是标记 + 缓冲区号（wc_check.h），否则是 wr_id 里的 QP 号 */
static inline int recv_slot_of(const struct rdma_conn *c, uint64_t wr_id)
{
	return c->srq != NULL ? wrid_srq_buf(wr_id) : wrid_qp(wr_id);
}

/* 补投失败：说明（和 post_receive 出错时说的一样），返回 -1 */
int bench_recv_failed(struct rdma_conn *c, int b, int rc);

/*
 * 补投一个接收：b 是刚完成的那个接收的 wr_id 里的号。没有 SRQ 时是 QP 号（投回这个QP的接收队列，
 * 这个QP的接收共用 A 区的一块：消息都来自对端的同一个QP，字节一样）；--srq 时是缓冲区号（投回共享的 SRQ，
 * 下一条消息不管从哪个QP来都可能用它；每个在途的接收有自己的一块，见 srq_recv_buffers）。
 * 接收 WR 在计时之前建好（bench.c 的 build_recv_wrs），这里原样再投。内联：计时循环里每收到一条消息一次
 */
static inline int repost_recv(struct run *r, int b)
{
	struct rdma_conn *c = r->c;
	struct ibv_recv_wr *wr = &r->rwr[b], *bad = NULL;
	int rc = c->srq != NULL ? ibv_post_srq_recv(c->srq, wr, &bad) : ibv_post_recv(c->qp[b], wr, &bad);

	if (rc != 0)
		return bench_recv_failed(c, b, rc);
	if (r->traced)
		hook_data(c, HOOK_POST_RECV, b, c->srq != NULL ? 0 : c->qp[b]->qp_num, wr);
	return 0;
}
/* 计时循环的慢路径（bench.c）：发送队列按硬件规则放不下了（说明记账），ibv_post_send 失败（n 个的链表，第 bad_at 个出错） */
int bench_sq_full(struct run *r, int qp, const struct ibv_send_wr *wr, int n);
int bench_post_failed(int qp, int rc, int n, int bad_at);
/* 延迟的预热 + 计时（bench_lat.c） */
int lat_loop(struct run *r);
/* 打印（bench_report.c）：测量前后的说明、表头、每个大小一行 + BENCH_RESULT、服务端的 UD 收到数、本端的 CPU */
void bench_explain_before(struct rdma_conn *c);
void bench_explain_after(struct rdma_conn *c);
void bench_print_header(struct rdma_conn *c);
int bench_reports_table(const struct rdma_conn *c);
void bench_report(struct run *r);

#endif
