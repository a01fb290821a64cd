/*
 * bench_lat.c - --bench lat 的计时循环：乒乓（send、write、write_imm）或 READ，一次一个 WR 在途
 *
 * 快的办法和 perftest 一样（docs/bench/README.md 的“计时循环里做什么”）：
 *   - 每个QP的发送 WR 和它的 SGE 在计时之前建好（bench.c 的 build_wrs），循环里只改必须改的：
 *     要不要完成（--signal N 时）、write 的“戳”（缓冲区最后一个字节，不在 WR 里）；接收 WR 也建好，原样补投；
 *   - 每次迭代只读一次时钟（这一次的开始时刻）；超时的期限等到真的空等了 SPIN_CHECK 圈才去读时钟定下来；
 *   - 计时的样本里不碰控制平面：对端只是等 DONE 时（READ），心跳放在两个样本之间，那一段从时间轴上拿掉；
 *   - 一次迭代的每一步都内联在一个循环（lat_steps）里，和 perftest 的 run_iter_lat_* 一样没有每次迭代的函数调用；
 *     每个QP要用的在循环前取好（struct lat_lane），轮到哪个QP、这次的戳用计数器往下数。
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
/* 一次迭代的每一步都内联进 lat_steps：每次迭代没有函数调用的进出（callgrind 数过，docs/bench/README.md） */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * 一个QP在计时循环里每次都要用的，计时之前取好（perftest 也是在循环之前定好 WR 和要盯、要写的那两个字节的地址）：
 * 循环里每调用一次 verbs，编译器都得假定内存可能变了，经 r->c->... 的指针链读的要重读一遍，取好放在栈上的就不必
 */
struct lat_lane {
	struct ibv_qp *qp;
	struct ibv_send_wr *wr;        /* 建好的发送 WR（bench.c 的 build_send_wrs） */
	struct sq_account *sq;         /* 这个QP发送队列的账 */
	const volatile uint8_t *seen;  /* write：对端写来的戳（本端 A 区这条消息的最后一个字节） */
	uint8_t *stamp;                /* write：要写过去的戳（本端 B 区的同一个位置，RDMA WRITE 把它放进对端 A 区） */
};

/* 第 k 次（从 0 数，含预热）的戳：同一个QP上相邻两次一定不同，且不为 0（缓冲区初值）。lat_steps 只在开头算一次，之后用计数器 */
static uint8_t stamp_of(const struct rdma_conn *c, long k)
{
	return (uint8_t)((k / c->num_qp) % 255 + 1);
}

static int stamp_timeout(int qp, uint8_t want)
{
	con_error(_("QP[%d] 等对端的 RDMA WRITE 超时（内存里的戳一直不是 %u）\n"
		    CON_HINT "对端还在运行吗？两端的 --size/--iters 一致吗？\n"), qp, want);
	return -1;
}

/* 盯着内存里的戳，直到它变成 want；每 SPIN_CHECK 圈才看一次超时（期限到那时才定，lazy_deadline） */
ALWAYS_INLINE static int spin_for_stamp(struct rdma_conn *c, int qp, const volatile uint8_t *p, uint8_t want)
{
	long long deadline = 0;
	unsigned n = 0;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != want)
		if (++n % SPIN_CHECK == 0 && lazy_deadline(c, &deadline) < now_ms())
			return stamp_timeout(qp, want);
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
 * CQ 是空的：event 模式去睡（wait_cq），poll 模式每 SPIN_CHECK 圈看一次超时，其余的圈马上回去再 poll。
 * 不内联：它不在取到完成的路上；tools/bench/cgfuncs.py 按它的调用次数数空 poll（每次迭代的工作里要减掉空转）
 */
__attribute__((noinline)) static int cq_empty(struct run *r, unsigned *spins, long long *deadline, int got, int want)
{
	struct rdma_conn *c = r->c;

	if (c->channel == NULL && ++*spins % SPIN_CHECK != 0)
		return 0;
	return wait_cq(c, lazy_deadline(c, deadline), spins, got, want);
}

/*
 * need_sent：收掉自己刚发出的那个（要了完成的）WR 的完成；need_recv：等到对端的一条消息（RECV 完成）。
 * 共享CQ里 SEND 和 RECV 的完成先后不定，所以先到的 RECV 记在 recv_ready 里，不会丢
 */
ALWAYS_INLINE static int reap(struct run *r, int need_sent, int need_recv)
{
	struct ibv_wc wcs[LAT_BATCH];
	long long deadline = 0;
	int sent = 0;
	unsigned spins = 0;

	while ((need_sent && !sent) || (need_recv && r->recv_ready == 0)) {
		int n = ibv_poll_cq(r->c->cq, LAT_BATCH, wcs);

		for (int i = 0; i < n; i++)
			if (take_wc(r, &wcs[i], &sent) != 0)
				return -1;
		if (n < 0)
			return poll_cq_failed(n);
		if (n == 0 && cq_empty(r, &spins, &deadline, sent + (int)r->recv_ready, need_sent + need_recv) != 0)
			return -1;
	}
	if (need_recv)
		r->recv_ready--;
	return 0;
}

/* 投递 QP qp（ln 是它取好的那些）建好的那个 WR：只改“要不要完成”；先按硬件规则数槽位，投了再记账 */
ALWAYS_INLINE static int lat_post(struct run *r, const struct lat_lane *ln, int qp, int sig)
{
	struct ibv_send_wr *bad = NULL;
	int rc;

	ln->wr->send_flags = r->send_flags | (sig ? IBV_SEND_SIGNALED : 0);
	if (!sq_account_fits(ln->sq, 1))
		return bench_sq_full(r, qp, ln->wr, 1);
	rc = ibv_post_send(ln->qp, ln->wr, &bad);
	if (rc != 0)
		return bench_post_failed(qp, rc, 1, 0);
	sq_account_post(ln->sq, sig);
	if (r->traced)
		hook_data(r->c, HOOK_POST_SEND, qp, ln->qp->qp_num, ln->wr);
	return 0;
}

/* 一次 write 乒乓：服务端先等客户端的戳，写回同一个戳；客户端写了再等服务端写回。st 是这一次的戳 */
ALWAYS_INLINE static int write_step(struct run *r, const struct lat_lane *ln, int qp, int sig, uint8_t st, int srv)
{
	if (srv && spin_for_stamp(r->c, qp, ln->seen, st) != 0)
		return -1;
	*ln->stamp = st;
	if (lat_post(r, ln, qp, sig) != 0)
		return -1;
	if (!srv && spin_for_stamp(r->c, qp, ln->seen, st) != 0)
		return -1;
	return sig ? reap(r, 1, 0) : 0;
}

/*
 * 一次 send（或 write_imm）乒乓：服务端先等到客户端的消息再回；客户端发了再等服务端的回复。
 * 对端的 RECV 完成说明消息到了（WRITE_IMM 的数据直接写进对端内存，只消耗一个接收请求）
 */
ALWAYS_INLINE static int send_step(struct run *r, const struct lat_lane *ln, int qp, int sig, int srv)
{
	if (srv && reap(r, 0, 1) != 0)
		return -1;
	if (lat_post(r, ln, qp, sig) != 0)
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
 * 心跳（对端只是等 DONE 时，每 -t/3 一个）放在两个样本之间：now 是上一个样本的结束时刻，调用者已经用心跳之前的
 * r->paused 把它记下（t[k] = now − paused）；心跳之后重新读时钟，中间这一段 D 加进 r->paused，之后记下的时刻都减去它。
 * 这一次的开始时刻是 after，after − (paused + D) = now − paused，正是已经记下的 t[k]——所以 D 不在任何样本里，
 * 也不在计时窗口（wall_s）里。次序不能反：先加 D 再记 t[k]，上一个样本就少了 D、这一个多了 D（D 比一个样本长时样本为负）
 */
static int beat_between(struct run *r, double now)
{
	double after;

	if (ctrl_heartbeat(&r->c->ctrl) != 0)
		return -1;
	after = now_sec();
	r->paused += after - now;
	r->next_alive = after + r->c->opt->timeout_ms / 3000.0;
	return 0;
}

/*
 * 第 k 到 end-1 次（k 是总序号，含预热），每次一个乒乓（或一次 READ），开始时刻依次记进 t[]。
 * 每次迭代读一次时钟：这一次的开始时刻，也是上一次的结束时刻（样本 = 相邻两个时刻之差，和 perftest 的 tposted 一样）。
 * 轮到哪个QP、这一次的戳用计数器往下数（每个QP轮过一遍，戳加一），循环里不做除法。
 * 延迟里的选择性通知（--signal N，默认 1 = 和 perftest 的 ib_*_lat 一样每次都要完成，sig_all）：SEND/WRITE 在每个QP上
 * 每 N 个（以及这个QP的最后一个）才要完成（lat_wr_signaled）——按QP数，因为槽位只由同一个QP上的完成释放（sq_account.h）。
 * 乒乓本身已经说明对端收到了，不必每次都等自己的发送完成；少生成、少取一个 WC。不要完成的 WR 占着发送队列的槽，
 * 直到后面一个要了完成的 WR 完成才一起释放，所以 signal_every ≤ tx_depth。READ 每次都要完成：读回的数据到了，只有它的完成能说明。
 */
static int lat_steps(struct run *r, long k, long end, double *t)
{
	struct rdma_conn *c = r->c;
	const int nqp = c->num_qp, op = c->opt->op, sig_all = r->sig_all, srv = is_server(c);
	struct lat_lane lanes[MAX_QP];
	int qp = (int)(k % nqp), rc;
	uint8_t st = stamp_of(c, k);

	for (int q = 0; q < nqp; q++)
		lanes[q] = (struct lat_lane){ .qp = c->qp[q], .wr = &r->swr[q], .sq = &c->sq[q],
					      .seen = area_a(c, q) + r->size - 1, .stamp = area_b(c, q) + r->size - 1 };
	for (; k < end; k++, t++) {
		const struct lat_lane *ln = &lanes[qp];
		double now = now_sec();
		int sig = sig_all || lat_wr_signaled(k, nqp, c->opt->signal_every, r->warm + r->iters);

		*t = now - r->paused;   /* 先记下：上一个样本在 now 结束（心跳之前的 paused，见 beat_between） */
		if (now >= r->next_alive && beat_between(r, now) != 0)
			return -1;
		rc = op == OP_WRITE ? write_step(r, ln, qp, sig, st, srv) :
		     op == OP_READ ? (lat_post(r, ln, qp, 1) == 0 ? reap(r, 1, 0) : -1) : send_step(r, ln, qp, sig, srv);
		if (rc != 0)
			return lat_failed(c);
		if (++qp == nqp) {
			qp = 0;
			st = st == 255 ? 1 : (uint8_t)(st + 1);
		}
	}
	return 0;
}

/*
 * 预热 warm 次、计时 iters 次，lat_steps 各一段：预热记下的时刻随后被计时的覆盖（warm ≤ iters + 1，t 有 iters+1 个）
 */
int lat_loop(struct run *r)
{
	struct rdma_conn *c = r->c;

	if (is_server(c) && c->opt->op == OP_READ)
		return 0;   /* READ：服务端网卡应答，服务端程序什么也不做 */
	r->paused = 0;
	r->next_alive = peer_waits(c) ? now_sec() + c->opt->timeout_ms / 3000.0 : HUGE_VAL;
	if (lat_steps(r, 0, r->warm, r->t) != 0)
		return -1;
	r->cpu0 = cpu_s();
	if (lat_steps(r, r->warm, r->warm + r->iters, r->t) != 0)
		return -1;
	r->t[r->iters] = r->t1 = now_sec() - r->paused;
	r->cpu1 = cpu_s();
	r->t0 = r->t[0];   /* 窗口 = 各次延迟加起来的那一段（BENCH_RESULT 的 wall_s） */
	return 0;
}
