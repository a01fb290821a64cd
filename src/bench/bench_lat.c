/*
 * bench_lat.c - --bench lat 的计时循环：乒乓（send、write、write_imm）或 READ，一次一个 WR 在途
 *
 * 快的办法和 perftest 一样（docs/bench/README.md 的“计时循环里做什么”）：
 *   - 每个QP的发送 WR 和它的 SGE 在计时之前建好（bench.c 的 build_wrs），循环里只改必须改的：
 *     要不要完成（--signal N 时）、write 的“戳”（缓冲区最后一个字节，不在 WR 里）；接收 WR 也建好，原样补投；
 *   - 每次迭代只读一次时钟（这一次的开始时刻）；超时的期限等到真的空等了 SPIN_CHECK 圈才去读时钟定下来；
 *   - 计时的样本里不碰控制平面：对端只是等 DONE 时（READ），心跳放在两个样本之间，那一段从时间轴上拿掉。
 * 教学程序多做、而且在计时循环里照做的：每个完成的状态都检查（错了打印状态和提示），发送队列按硬件规则记账
 * （sq_account.h：槽只由同一个QP上后来的 signaled 完成释放），--trace 的挂钩；数据在计时之后校验一次（bench.c）。
 */
#include "bench/bench_run.h"
#include "base/i18n.h"

#include <math.h>

#include "base/clock.h"
#include "base/conout.h"
#include "control/ctrl.h"
#include "verbs/datapath.h"
#include "pure/sq_account.h"
#include "verbs/wc_check.h"
#include "ud/ud.h"

#define LAT_BATCH 4   /* 一次 ibv_poll_cq 最多取的完成数：乒乓里同时最多一个发送完成和一个接收完成 */
/* 投递和取完成内联进 lat_once：每次迭代少几次函数调用的进出（callgrind 数过，docs/bench/README.md） */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static volatile uint8_t *stamp_at(struct rdma_conn *c, int qp, size_t size)
{
	return area_a(c, qp) + size - 1;
}

/* 第 k 次（从 0 数）的戳：同一个QP上相邻两次一定不同，且不为 0（缓冲区初值） */
static uint8_t stamp_of(struct rdma_conn *c, long k)
{
	return (uint8_t)((k / c->num_qp) % 255 + 1);
}

static int spin_for_stamp(struct rdma_conn *c, int qp, size_t size, uint8_t want)
{
	volatile uint8_t *p = stamp_at(c, qp, size);
	long long deadline = 0;
	unsigned n = 0;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want) {
		if (++n % SPIN_CHECK == 0 && lazy_deadline(c, &deadline) < now_ms()) {
			con_error(_("QP[%d] 等对端的 RDMA WRITE 超时（内存里的戳一直不是 %u）\n"
				    CON_HINT "对端还在运行吗？两端的 --size/--iters 一致吗？\n"), qp, want);
			return -1;
		}
	}
	return 0;
}

/*
 * 一个完成是不是平常的样子：状态成功，wr_id 和 qp_num 对得上本端的QP（和 datapath.c 的 check_wc 同样的条件）。
 * 不是的话交给 reap_wcs：它打印状态和提示（或对不上的地方）并返回 -1
 */
static inline int wc_usual(const struct rdma_conn *c, const struct ibv_wc *wc)
{
	int i = wrid_qp(wc->wr_id);

	if (wc->status != IBV_WC_SUCCESS)
		return 0;
	if (wrid_is_srq(wc->wr_id))
		return srq_recv_is_ours(c, wc);
	return i < c->num_qp && wc->qp_num == c->qp[i]->qp_num;
}

/*
 * 一个完成：状态、发送队列的记账（发送完成释放这个QP最老的在途 signaled WR 和它之前的槽）；
 * 接收完成记下“有一条消息到了”，马上原样补投那个接收 WR（接收队列一直是满的）
 */
ALWAYS_INLINE static int take_wc(struct run *r, struct ibv_wc *wc, int *sent)
{
	struct rdma_conn *c = r->c;
	int usual = wc_usual(c, wc);

	/* 不平常的完成走 reap_wcs：它打印原因并返回 -1（条件和它的检查相同；万一返回 0，它也已经记过账） */
	if (!usual && reap_wcs(c, wc, 1) != 0)
		return -1;
	if (usual && r->traced)
		hook_data(c, HOOK_WC, wrid_qp(wc->wr_id), wc->qp_num, wc);
	if (!(wc->opcode & IBV_WC_RECV)) {
		(*sent)++;
		/* 记账错了（这个QP没有在途的 signaled WR）：再走一遍 reap_wcs，它打印这条规则并返回 -1 */
		return !usual || sq_account_complete(&c->sq[wrid_qp(wc->wr_id)]) == 0 ? 0 : reap_wcs(c, wc, 1);
	}
	r->recv_ready++;
	r->landed[recv_slot_of(c, wc->wr_id)] = 1;
	return repost_recv(r, recv_slot_of(c, wc->wr_id));
}

/*
 * 一次 poll 取到的 n 个完成（n > 0）。不内联：tools/bench/cgfuncs.py 按它的调用次数数“取到了东西的 poll”，
 * 从空转里分出来（代价是每次取到东西多一次函数调用的进出）
 */
__attribute__((noinline)) static int took_wcs(struct run *r, struct ibv_wc *wcs, int n, int *sent)
{
	for (int k = 0; k < n; k++)
		if (take_wc(r, &wcs[k], sent) != 0)
			return -1;
	return 0;
}

/*
 * need_sent：收掉自己刚发出的那个（要了完成的）WR 的完成；need_recv：等到对端的一条消息（RECV 完成）。
 * 共享CQ里 SEND 和 RECV 的完成先后不定，所以先到的 RECV 记在 recv_ready 里，不会丢
 */
ALWAYS_INLINE static int reap(struct run *r, int need_sent, int need_recv)
{
	struct rdma_conn *c = r->c;
	struct ibv_wc wcs[LAT_BATCH];
	long long deadline = 0;
	int sent = 0;
	unsigned spins = 0;

	while ((need_sent && !sent) || (need_recv && r->recv_ready == 0)) {
		int n = ibv_poll_cq(c->cq, LAT_BATCH, wcs);

		if (n < 0)
			return poll_cq_failed(n);
		if (n > 0 && took_wcs(r, wcs, n, &sent) != 0)
			return -1;
		/* 空转的一圈只有 ibv_poll_cq 和这一句（event 模式每圈都去睡；poll 模式每 SPIN_CHECK 圈看一次超时） */
		if (n == 0 && (c->channel != NULL || ++spins % SPIN_CHECK == 0) &&
		    wait_cq(c, lazy_deadline(c, &deadline), &spins, sent + (int)r->recv_ready, need_sent + need_recv) != 0)
			return -1;
	}
	if (need_recv)
		r->recv_ready--;
	return 0;
}

/*
 * 延迟里的选择性通知（--signal N，默认 1 = 和 perftest 的 ib_*_lat 一样每次都要完成）：SEND/WRITE 在每个QP上
 * 每 N 个（以及这个QP的最后一个）才要完成——按QP数，因为槽位只由同一个QP上的完成释放（sq_account.h）。
 * 乒乓本身已经说明对端收到了，不必每次都等自己的发送完成；少生成、少取一个 WC。
 * 不要完成的 WR 占着发送队列的槽，直到后面一个要了完成的 WR 完成才一起释放，所以 signal_every ≤ tx_depth。
 * READ 每次都要完成：读回的数据到了，只有它的完成能告诉我们。
 */
static int lat_signaled(struct run *r, long k)
{
	struct rdma_conn *c = r->c;

	return c->opt->op == OP_READ || lat_wr_signaled(k, c->num_qp, c->opt->signal_every, r->warm + r->iters);
}

/* 投递 QP qp 建好的那个 WR：只改“要不要完成”；先按硬件规则数槽位，投了再记账 */
ALWAYS_INLINE static int lat_post(struct run *r, int qp, int sig)
{
	struct rdma_conn *c = r->c;
	struct ibv_send_wr *wr = &r->swr[qp], *bad = NULL;
	int rc;

	wr->send_flags = r->send_flags | (sig ? IBV_SEND_SIGNALED : 0);
	if (!sq_account_fits(&c->sq[qp], 1))
		return bench_sq_full(r, qp, wr, 1);
	rc = ibv_post_send(c->qp[qp], wr, &bad);
	if (rc != 0)
		return bench_post_failed(qp, rc, 1, 0);
	sq_account_post(&c->sq[qp], sig);
	if (r->traced)
		hook_data(c, HOOK_POST_SEND, qp, c->qp[qp]->qp_num, wr);
	return 0;
}

/*
 * 一次乒乓（或一次 READ）：k 是总序号（含预热）。
 * 不内联：tools/bench/cgfuncs.py 按它的调用次数数迭代、按它的包含开销数一次迭代的指令
 */
__attribute__((noinline)) static int lat_once(struct run *r, long k)
{
	struct rdma_conn *c = r->c;
	int qp = c->num_qp == 1 ? 0 : (int)(k % c->num_qp), srv = is_server(c), sig = r->sig_all || lat_signaled(r, k);
	uint8_t st;

	if (c->opt->op == OP_READ)
		return lat_post(r, qp, 1) == 0 ? reap(r, 1, 0) : -1;
	/* 剩下 SEND 和 WRITE_IMM：对端的 RECV 完成说明消息到了（WRITE_IMM 的数据直接写进对端内存，只消耗一个接收请求） */
	if (c->opt->op == OP_WRITE) {
		st = stamp_of(c, k);
		if (srv && spin_for_stamp(c, qp, r->size, st) != 0)
			return -1;
		area_b(c, qp)[r->size - 1] = st;
		if (lat_post(r, qp, sig) != 0)
			return -1;
		if (!srv && spin_for_stamp(c, qp, r->size, st) != 0)
			return -1;
		return sig ? reap(r, 1, 0) : 0;
	}
	if (srv && reap(r, 0, 1) != 0)
		return -1;
	if (lat_post(r, qp, sig) != 0)
		return -1;
	return reap(r, sig, !srv);
}

/* 乒乓停了：UD 时多说一句“消息可能被丢了”（和 op_rounds.c 的普通模式一样） */
static int lat_failed(struct rdma_conn *c)
{
	if (c->ah != NULL)
		ud_explain_missing();
	return -1;
}

/*
 * 心跳（对端只是等 DONE 时，每 -t/3 一个）放在两个样本之间：now 是上一个样本的结束时刻，心跳之后重新读时钟，
 * 中间这一段加进 *paused，之后记下的时刻都减去它——所以它不在任何样本里，也不在计时窗口（wall_s）里
 */
static int beat_between(struct run *r, double now, double *paused, double *next)
{
	double after;

	if (ctrl_heartbeat(&r->c->ctrl) != 0)
		return -1;
	after = now_sec();
	*paused += after - now;
	*next = after + r->c->opt->timeout_ms / 3000.0;
	return 0;
}

/*
 * 预热 warm 次、计时 iters 次（同一个循环，预热的不记时刻）。每次迭代读一次时钟：这一次的开始时刻，
 * 也是上一次的结束时刻（样本 = 相邻两个时刻之差，和 perftest 的 tposted 一样）
 */
int lat_loop(struct run *r)
{
	struct rdma_conn *c = r->c;
	double paused = 0, now, next_alive = HUGE_VAL;
	long total = r->warm + r->iters;

	if (is_server(c) && c->opt->op == OP_READ)
		return 0;   /* READ：服务端网卡应答，服务端程序什么也不做 */
	if (peer_waits(c))
		next_alive = now_sec() + c->opt->timeout_ms / 3000.0;
	for (long k = 0; k < total; k++) {
		if (k == r->warm)
			r->cpu0 = cpu_s();
		now = now_sec();
		if (now >= next_alive && beat_between(r, now, &paused, &next_alive) != 0)
			return -1;
		if (k >= r->warm)
			r->t[k - r->warm] = now - paused;
		if (lat_once(r, k) != 0)
			return lat_failed(c);
	}
	r->t[r->iters] = r->t1 = now_sec() - paused;
	r->cpu1 = cpu_s();
	r->t0 = r->t[0];   /* 窗口 = 各次延迟加起来的那一段（BENCH_RESULT 的 wall_s） */
	return 0;
}
