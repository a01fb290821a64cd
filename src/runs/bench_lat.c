/*
 * bench_lat.c - --bench lat 的计时循环：乒乓（send、write、write_imm）或 READ，一次一个 WR 在途
 *
 * 这个循环是一课：perftest 为了快做了什么，这里照做了什么、多做了什么、多做的每一样花多少（docs/bench/README.md 的
 * “计时循环是一课”，每一样都量过）。和 perftest 一样：
 *   - 每个QP的发送 WR 和它的 SGE 在计时之前建好（bench.c 的 build_wrs），循环里只改必须改的：
 *     要不要完成（--signal N 时）、write 的“戳”（缓冲区最后一个字节，不在 WR 里）；接收 WR 也建好，原样补投；
 *   - 每次迭代只读一次时钟（这一次的开始时刻），记整数纳秒，换算在循环之后；超时的期限等到真的空等了 SPIN_CHECK 圈
 *     才去读时钟定下来（lazy_deadline）；
 *   - 一次迭代的每一步都内联在一个循环（lat_steps）里，和 perftest 的 run_iter_lat_* 一样没有每次迭代的函数调用；
 *     每个QP要用的在循环前取好（struct lat_lane），轮到哪个QP、这次的戳用计数器往下数。
 * 教学程序多做、而且在计时循环里照做的（每一样都是最便宜的形式）：每个完成的状态、wr_id、qp_num 都核对（错了打印状态
 * 和提示），发送队列按硬件规则记账（每个QP一个计数器，lane_fits），心跳（READ 时对端只是等 DONE）放在两个样本之间、
 * 不在样本里，--trace 的挂钩；数据在计时之后校验一次（bench.c）。
 */
#include "runs/bench_run.h"
#include "console/i18n.h"

#include <stdint.h>

#include "console/clock.h"
#include "console/conout.h"
#include "control/ctrl.h"
#include "verbs/datapath.h"
#include "verbs/sq_account.h"
#include "verbs/wc_check.h"
#include "verbs/ud.h"

#define LAT_BATCH 4   /* 一次 ibv_poll_cq 最多取的完成数：乒乓里同时最多一个发送完成和一个接收完成 */
/* 一次迭代的每一步都内联进 lat_steps：每次迭代没有函数调用的进出（callgrind 数过，docs/dev/bench-records.md） */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * 一个QP在计时循环里每次都要用的，计时之前取好（perftest 也是在循环之前定好 WR 和要盯、要写的那两个字节的地址）：
 * 循环里每调用一次 verbs，编译器都得假定内存可能变了，经 r->c->... 的指针链读的要重读一遍，取好放在栈上的就不必。
 * 这个QP发送队列的账也在这里（最便宜的形式，见 lane_fits），lat_steps 结束时写回 c->sq（lane_put_back）
 */
struct lat_lane {
	struct ibv_qp *qp;
	struct ibv_send_wr *wr;        /* 建好的发送 WR（bench.c 的 build_send_wrs） */
	uint64_t wr_id;                /* 这个QP的发送 WR 和接收 WR 共用的 wr_id（WRID(q, 0) = q）：平常的完成正是它 */
	uint32_t qpn;                  /* 这个QP的号：平常的完成的 qp_num 正是它 */
	uint32_t cap;                  /* 发送队列的深度（创建QP时要的 max_send_wr） */
	uint64_t posted, freed;        /* 投递过的 WR、槽已释放的 WR（从头数）：占着 posted − freed 个槽 */
	int sig_out;                   /* 有没有在途的 signaled WR（乒乓里最多一个） */
	const volatile uint8_t *seen;  /* write：对端写来的戳（本端 A 区这条消息的最后一个字节） */
	uint8_t *stamp;                /* write：要写过去的戳（本端 B 区的同一个位置，RDMA WRITE 把它放进对端 A 区） */
};

/*
 * 发送队列的账，硬件的规则（sq_account.h）：一个 WR 的槽只有在同一个QP上它本身或它之后的一个 signaled WR 的完成
 * 被取出之后才释放。带宽的窗口里同时有很多 signaled WR 在途，要按顺序记下它们的位置（sq_account 的环）；
 * 乒乓里一个 signaled WR 投出去之后，先等到它的完成才投下一个（write_step、send_step 的 reap(…, sig, …)），
 * 所以同一个QP上最多一个在途，而且它就是最后投递的那个：它的完成释放到 posted 为止。同一条规则，一个计数器就够了
 */
ALWAYS_INLINE static int lane_fits(const struct lat_lane *ln)
{
	return ln->posted - ln->freed < ln->cap;
}

ALWAYS_INLINE static void lane_post(struct lat_lane *ln, int sig)
{
	ln->posted++;
	ln->sig_out |= sig;
}

/* 取到这个QP的一个发送完成：它和它之前的槽全部释放。返回 -1 = 没有在途的 signaled WR（记账错了） */
ALWAYS_INLINE static int lane_complete(struct lat_lane *ln)
{
	if (!ln->sig_out)
		return -1;
	ln->freed = ln->posted;
	ln->sig_out = 0;
	return 0;
}

/* lat_steps 开始时从 c->sq 取账；结束时、说明一个错误之前写回去（下一个大小、sq_room_error 的说明都看 c->sq） */
static void lane_take(struct lat_lane *ln, const struct sq_account *a)
{
	ln->cap = a->cap;
	ln->posted = a->posted;
	ln->freed = a->freed;
	ln->sig_out = a->n_sig != 0;
}

static void lane_put_back(const struct lat_lane *ln, struct sq_account *a)
{
	a->posted = ln->posted;
	a->freed = ln->freed;
	a->n_sig = ln->sig_out ? 1 : 0;
	if (ln->sig_out)
		a->sig[a->head] = ln->posted - 1;   /* 在途的那个 signaled WR 是最后投递的 */
}

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
 * 不平常的完成（状态不是成功，或 wr_id/qp_num 对不上本端的QP）：交给普通模式的 reap_wcs，它打印状态和提示
 * （或对不上的地方）并返回 -1。两处的条件相同，它万一返回 0（认这个完成），也照样停下来说清楚
 */
static int odd_wc(struct run *r, struct ibv_wc *wc)
{
	if (reap_wcs(r->c, wc, 1) != 0)
		return -1;
	con_error(_("计时循环认不出的完成（wr_id=%llu，qp_num=0x%06x），普通模式的检查却认它\n"
		    CON_HINT "两处检查的条件应该相同；这是程序的错误\n"),
		  (unsigned long long)wc->wr_id, wc->qp_num);
	return -1;
}

/* 发送完成来了，账上却没有在途的 signaled WR：把账写回 c->sq，reap_wcs 照普通模式的记账说明这条规则并返回 -1 */
static int sq_rule_broken(struct run *r, const struct lat_lane *ln, int qp, struct ibv_wc *wc)
{
	lane_put_back(ln, &r->c->sq[qp]);
	return reap_wcs(r->c, wc, 1) != 0 ? -1 : odd_wc(r, wc);
}

/*
 * 一个完成。平常的：状态成功，wr_id 的低 8 位说出是哪个QP（WRID），它的 wr_id 和 qp_num 正是那个QP取好的那一对
 * ——各比一次（和 datapath.c 的 check_wc 同样的条件）。那个QP通常就是轮到的这个；服务端取自己的发送完成时，客户端
 * 下一个QP的消息可能已经先到了，所以按 wr_id 找，不认定是轮到的这个。--srq 时接收的 wr_id 是 SRQ 的标记 + 缓冲区号，
 * 对不上那一对，才另外核对（srq 在循环之前定好，平常的路上不看它）。
 * 发送完成还那个QP的槽；接收完成记下“有一条消息到了”，马上原样补投那个接收 WR（接收队列一直是满的）
 */
ALWAYS_INLINE static int take_wc(struct run *r, struct lat_lane *lanes, int nqp, int srq, struct ibv_wc *wc, int *sent)
{
	int i = wrid_qp(wc->wr_id), b;

	if (wc->status != IBV_WC_SUCCESS ||
	    !(i < nqp && wc->wr_id == lanes[i].wr_id ? wc->qp_num == lanes[i].qpn : srq && srq_recv_is_ours(r->c, wc)))
		return odd_wc(r, wc);
	if (r->traced)
		hook_data(r->c, HOOK_WC, i, wc->qp_num, wc);
	if (!(wc->opcode & IBV_WC_RECV)) {
		(*sent)++;
		return lane_complete(&lanes[i]) == 0 ? 0 : sq_rule_broken(r, &lanes[i], i, wc);
	}
	b = srq ? wrid_srq_buf(wc->wr_id) : i;   /* 补投哪块缓冲区（recv_slot_of） */
	r->recv_ready++;
	r->landed[b] = 1;
	return repost_recv(r, b);
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
ALWAYS_INLINE static int reap(struct run *r, struct lat_lane *lanes, int nqp, int srq, int need_sent, int need_recv)
{
	struct ibv_wc wcs[LAT_BATCH];
	long long deadline = 0;
	int sent = 0;
	unsigned spins = 0;

	while ((need_sent && !sent) || (need_recv && r->recv_ready == 0)) {
		int n = ibv_poll_cq(r->c->cq, LAT_BATCH, wcs);

		for (int i = 0; i < n; i++)
			if (take_wc(r, lanes, nqp, srq, &wcs[i], &sent) != 0)
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
ALWAYS_INLINE static int lat_post(struct run *r, struct lat_lane *ln, int qp, int sig)
{
	struct ibv_send_wr *bad = NULL;
	int rc;

	ln->wr->send_flags = r->send_flags | (sig ? IBV_SEND_SIGNALED : 0);
	if (!lane_fits(ln)) {
		lane_put_back(ln, &r->c->sq[qp]);   /* 说明（sq_room_error）看 c->sq */
		return bench_sq_full(r, qp, ln->wr, 1);
	}
	rc = ibv_post_send(ln->qp, ln->wr, &bad);
	if (rc != 0)
		return bench_post_failed(qp, rc, 1, 0);
	lane_post(ln, sig);
	if (r->traced)
		hook_data(r->c, HOOK_POST_SEND, qp, ln->qpn, ln->wr);
	return 0;
}

/* 一次 write 乒乓（轮到 QP qp）：服务端先等客户端的戳，写回同一个戳；客户端写了再等服务端写回。st 是这一次的戳 */
ALWAYS_INLINE static int write_step(struct run *r, struct lat_lane *lanes, int nqp, int qp, int sig, uint8_t st, int srv)
{
	struct lat_lane *ln = &lanes[qp];

	if (srv && spin_for_stamp(r->c, qp, ln->seen, st) != 0)
		return -1;
	*ln->stamp = st;
	if (lat_post(r, ln, qp, sig) != 0)
		return -1;
	if (!srv && spin_for_stamp(r->c, qp, ln->seen, st) != 0)
		return -1;
	return sig ? reap(r, lanes, nqp, 0, 1, 0) : 0;
}

/*
 * 一次 send（或 write_imm）乒乓（轮到 QP qp）：服务端先等到客户端的消息再回；客户端发了再等服务端的回复。
 * 对端的 RECV 完成说明消息到了（WRITE_IMM 的数据直接写进对端内存，只消耗一个接收请求）
 */
ALWAYS_INLINE static int send_step(struct run *r, struct lat_lane *lanes, int nqp, int qp, int srq, int sig, int srv)
{
	if (srv && reap(r, lanes, nqp, srq, 0, 1) != 0)
		return -1;
	if (lat_post(r, &lanes[qp], qp, sig) != 0)
		return -1;
	return reap(r, lanes, nqp, srq, sig, !srv);
}

/* 乒乓停了：UD 时多说一句“消息可能被丢了”（和 op_rounds.c 的普通模式一样） */
static int lat_failed(struct rdma_conn *c)
{
	if (c->ah != NULL)
		ud_explain_missing();
	return -1;
}

/* 心跳的间隔：-t 的三分之一，纳秒 */
static int64_t beat_every_ns(const struct rdma_conn *c)
{
	return (int64_t)c->opt->timeout_ms * 1000000 / 3;
}

/*
 * 心跳（对端只是等 DONE 时，每 -t/3 一个）放在两个样本之间：now 是上一个样本的结束时刻，调用者已经用心跳之前的
 * r->paused 把它记下（t[k] = now − paused）；心跳之后重新读时钟，中间这一段 D 加进 r->paused，之后记下的时刻都减去它。
 * 这一次的开始时刻是 after，after − (paused + D) = now − paused，正是已经记下的 t[k]——所以 D 不在任何样本里，
 * 也不在计时窗口（wall_s）里。次序不能反：先加 D 再记 t[k]，上一个样本就少了 D、这一个多了 D（D 比一个样本长时样本为负）
 */
static int beat_between(struct run *r, int64_t now)
{
	int64_t after;

	if (ctrl_heartbeat(&r->c->ctrl) != 0)
		return -1;
	after = now_ns();
	r->paused += after - now;
	r->next_alive = after + beat_every_ns(r->c);
	return 0;
}

/*
 * 第 k 到 end-1 次（k 是总序号，含预热），每次一个乒乓（或一次 READ），开始时刻（纳秒）依次记进 t[]。
 * 一次迭代在这里做的每一样都是它最便宜的形式（每一样的代价量过，docs/bench/README.md 的“计时循环是一课”）：
 *   - 时钟：每次迭代读一次（这一次的开始时刻，也是上一次的结束时刻；样本 = 相邻两个时刻之差，和 perftest 的 tposted
 *     一样），记整数纳秒，换算在循环之后；
 *   - 心跳：一次整数比较（只有对端只是等 DONE 时才会到点，别的时候期限是 INT64_MAX）；
 *   - 轮到哪个QP、这一次的戳：计数器往下数（每个QP轮过一遍，戳加一），不做除法；
 *   - 发送队列的账：每个QP一个计数器比深度（lane_fits），硬件的规则；
 *   - 每个完成：状态、wr_id、qp_num 对着这个QP取好的值各比一次（take_wc），错了打印状态和提示；
 *   - --trace：一个字段（r->traced）的判断。
 * 延迟里的选择性通知（--signal N，默认 1 = 和 perftest 的 ib_*_lat 一样每次都要完成，sig_all）：SEND/WRITE 在每个QP上
 * 每 N 个（以及这个QP的最后一个）才要完成（lat_wr_signaled）——按QP数，因为槽位只由同一个QP上的完成释放（sq_account.h）。
 * 乒乓本身已经说明对端收到了，不必每次都等自己的发送完成；少生成、少取一个 WC。不要完成的 WR 占着发送队列的槽，
 * 直到后面一个要了完成的 WR 完成才一起释放，所以 signal_every ≤ tx_depth。READ 每次都要完成：读回的数据到了，只有它的完成能说明。
 */
static int lat_steps(struct run *r, long k, long end, int64_t *t)
{
	struct rdma_conn *c = r->c;
	const int nqp = c->num_qp, op = c->opt->op, sig_all = r->sig_all, srv = is_server(c), srq = c->srq != NULL;
	const int every = c->opt->signal_every;
	const long total = r->warm + r->iters;
	struct lat_lane lanes[MAX_QP];
	int qp = (int)(k % nqp), rc = 0;
	uint8_t st = stamp_of(c, k);

	for (int q = 0; q < nqp; q++) {
		lanes[q] = (struct lat_lane){ .qp = c->qp[q], .wr = &r->swr[q], .wr_id = WRID(q, 0), .qpn = c->qp[q]->qp_num,
					      .seen = area_a(c, q) + r->size - 1, .stamp = area_b(c, q) + r->size - 1 };
		lane_take(&lanes[q], &c->sq[q]);
	}
	for (; k < end && rc == 0; k++, t++) {
		int64_t now = now_ns();
		int sig = sig_all || lat_wr_signaled(k, nqp, every, total);

		*t = now - r->paused;   /* 先记下：上一个样本在 now 结束（心跳之前的 paused，见 beat_between） */
		if (now >= r->next_alive && beat_between(r, now) != 0)
			rc = -1;
		else if (op == OP_WRITE)
			rc = write_step(r, lanes, nqp, qp, sig, st, srv);
		else if (op == OP_READ)
			rc = lat_post(r, &lanes[qp], qp, 1) != 0 ? -1 : reap(r, lanes, nqp, 0, 1, 0);
		else
			rc = send_step(r, lanes, nqp, qp, srq, sig, srv);
		if (++qp == nqp) {
			qp = 0;
			st = st == 255 ? 1 : (uint8_t)(st + 1);
		}
	}
	for (int q = 0; q < nqp; q++)
		lane_put_back(&lanes[q], &c->sq[q]);
	return rc != 0 ? lat_failed(c) : 0;
}

/*
 * 预热 warm 次、计时 iters 次，lat_steps 各一段：预热记下的时刻随后被计时的覆盖（warm ≤ iters + 1，t 有 iters+1 个）。
 * 记下的是整数纳秒；计时窗口换算成秒在这里，样本换算成微秒在 bench_report.c——都在循环之后
 */
int lat_loop(struct run *r)
{
	struct rdma_conn *c = r->c;

	if (is_server(c) && c->opt->op == OP_READ)
		return 0;   /* READ：服务端网卡应答，服务端程序什么也不做 */
	r->paused = 0;
	r->next_alive = peer_waits(c) ? now_ns() + beat_every_ns(c) : INT64_MAX;
	if (lat_steps(r, 0, r->warm, r->t) != 0)
		return -1;
	r->cpu0 = cpu_s();
	if (lat_steps(r, r->warm, r->warm + r->iters, r->t) != 0)
		return -1;
	r->t[r->iters] = now_ns() - r->paused;
	r->cpu1 = cpu_s();
	r->t0 = (double)r->t[0] / 1e9;   /* 窗口 = 各次延迟加起来的那一段（BENCH_RESULT 的 wall_s） */
	r->t1 = (double)r->t[r->iters] / 1e9;
	return 0;
}
