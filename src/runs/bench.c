/*
 * bench.c - 基准测试（--bench lat|bw）：像 perftest 的 ib_*_lat / ib_*_bw 那样量数据面
 *
 * 每个消息大小（--sweep 时 2 B .. 8 MiB 逐个翻倍）：
 *   准备数据 → TCP 同步（计时之外）→ 预热（不计）→ 计时循环（不走TCP、不打印、不校验）
 *   → TCP 同步 → 校验一次数据 → 打印 perftest 样式的表格 + 一行 BENCH_RESULT（给脚本解析）
 *
 * 延迟（客户端主动，服务端应答；第 k 次用 QP[k % num_qp]）：
 *   write: 乒乓。各自把消息 RDMA WRITE 到对端，最后一个字节是本次的“戳”；对端盯着自己内存里
 *          这个字节变成新值，就知道整条消息到了，再写回。注意：这依赖 rxe 和 mlx5 按地址顺序放置一条 WRITE 的数据
 *          （perftest 也依赖它）；IB 规范并不保证最后一个字节最后落地，规范只保证完成（或后面的 SEND/立即数）之后数据全部可见。
 *          单程延迟 = 往返时间 / 2（与 ib_write_lat 相同）。
 *   send : 乒乓。两边都预先投递接收；收到 RECV 完成再回一个 SEND。单程延迟 = 往返 / 2。
 *   write_imm: 和 send 一样乒乓，只是数据 RDMA WRITE 进对端内存，立即数消耗对端的一个接收请求、产生 RECV 完成。
 *   read : 客户端 RDMA READ，等到完成为止；延迟 = 整个往返（与 ib_read_lat 相同，不除以 2）。
 * 带宽（客户端主动）：先预热并等它全部完成，再从空队列开始计时（窗口 = 第一个计时 WR 投递到最后一个完成）；
 *   每个QP最多 --tx-depth 个 WR 在途，每 --signal 个要一个完成，
 *   一次 ibv_post_send 投递 --post-list 个，完成按批取出；send/write_imm 时服务端保持接收队列是满的。
 * --qp ud（只有 send，像 ib_send_lat/ib_send_bw -c UD）：每个 WR 带地址句柄和对端 QP 号，接收缓冲区前面多 40 字节 GRH，
 *   --sweep 只扫到路径MTU。UD 没有流控：带宽测试里服务端来不及补投接收时消息被丢掉、发送方照样成功，
 *   所以客户端的表是“发出去的速率”，服务端数收到多少、丢了多少（bw_server_ud）。
 */
#include "runs/bench.h"
#include "runs/bench_run.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "console/clock.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "control/ctrl.h"
#include "verbs/datapath.h"
#include "cli/op_table.h"
#include "runs/payload.h"
#include "verbs/sq_account.h"
#include "verbs/wc_check.h"
#include "runs/stats.h"
#include "verbs/ud.h"

#define BATCH        64        /* 一次 ibv_poll_cq 最多取的完成数 */

/* 有的缓冲区可能一条消息也没收到（--srq：由 SRQ 决定用哪个；UD：消息可能被丢掉），校验时跳过它们 */
static int may_stay_empty(const struct rdma_conn *c)
{
	return c->srq != NULL || c->ah != NULL;
}

/*
 * 用不用 IBV_SEND_INLINE 看 --inline（要的值），不看驱动写回的 max_inline_data：驱动会向上取整
 * （rxe 把 0 变成 16，mlx5 取到 WQE 放得下的大小），用写回的值的话 --inline 0 也会 inline 小消息
 */
static int use_inline(struct run *r)
{
	uint32_t want = r->c->opt->inline_size;

	return want > 0 && r->size <= want && r->c->opt->op != OP_READ;
}

/* 接收缓冲区的块数：--srq 时 SRQ 的，否则每个QP一块 */
static int recv_slots(const struct rdma_conn *c)
{
	return c->srq != NULL ? srq_area_count(c) : c->num_qp;
}

/*
 * 第一个大小之前把接收队列填满（之后每收到一个就补一个）：每个QP recv_wr 个。
 * --srq 时 R 区每块一个（srq_bufs 个，不超过 SRQ 的深度）；只有 1 个QP时（没有 R 区）投 SRQ 的深度个，都用 A 区那一块
 */
static int fill_recvs(struct run *r)
{
	struct rdma_conn *c = r->c;

	if (c->srq != NULL) {
		uint32_t n = c->srq_bufs > 0 && c->srq_bufs < c->srq_depth ? c->srq_bufs : c->srq_depth;

		for (uint32_t k = 0; k < n; k++)
			if (repost_recv(r, c->srq_bufs > 0 ? (int)k : (int)(k % (uint32_t)c->num_qp)) != 0)
				return -1;
		return 0;
	}
	for (int i = 0; i < c->num_qp; i++)
		for (uint32_t k = 0; k < c->caps.recv_wr; k++)
			if (repost_recv(r, i) != 0)
				return -1;
	return 0;
}

static struct send_req lat_req(struct run *r, int qp)
{
	struct rdma_conn *c = r->c;
	enum ibv_wr_opcode op = c->opt->op == OP_SEND ? IBV_WR_SEND :
				c->opt->op == OP_READ ? IBV_WR_RDMA_READ :
				c->opt->op == OP_WRITE_IMM ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
	struct send_req q = { .opcode = op, .local = area_b(c, qp), .len = (uint32_t)r->size,
			      .remote_addr = c->remote.addr + (uint64_t)qp * c->remote.slot };

	q.inline_data = use_inline(r);
	if (c->ah != NULL) {   /* UD：目的地在 WR 里（QP[i] 发给对端的 QP[i]） */
		q.ah = c->ah;
		q.remote_qpn = c->remote.qp[qp].qpn;
	}
	return q;
}

/* 对端只是等 DONE 时发心跳（ctrl_heartbeat 自己每 -t/3 才真发一个）：只在空等的慢路径上调用 */
static int keep_alive(struct rdma_conn *c)
{
	return peer_waits(c) ? ctrl_heartbeat(&c->ctrl) : 0;
}

/* ---------- 带宽 ---------- */

/*
 * 投递 QP qp 上的一批：窗口没满、还有剩余，一次最多 post_list 个；返回投了几个。
 * WR 是计时之前建好的那 post_list 个（build_wrs），这里只改每个都不同的：wr_id 里的序号 k（找回投递时刻）、
 * 要不要完成（每 signal_every 个以及这一段的最后一个 end-1 要）、链表在第 n 个断开
 */
static int bw_post(struct run *r, int qp, long *posted, long completed, long end)
{
	struct rdma_conn *c = r->c;
	const struct options *o = c->opt;
	struct ibv_send_wr *wr = &r->swr[(size_t)qp * (size_t)o->post_list], *bad = NULL;
	long room = (long)o->tx_depth - (*posted - completed), left = end - *posted;
	int n = (int)(room < left ? room : left), rc;

	if (n > o->post_list)
		n = o->post_list;
	if (n <= 0)
		return 0;
	for (int j = 0; j < n; j++) {
		long k = *posted + j;

		wr[j].wr_id = WRID(qp, k);
		wr[j].send_flags = r->send_flags | ((k + 1) % o->signal_every == 0 || k == end - 1 ? IBV_SEND_SIGNALED : 0);
		wr[j].next = j + 1 < n ? &wr[j + 1] : NULL;
	}
	if (!sq_account_fits(&c->sq[qp], (uint32_t)n))
		return bench_sq_full(r, qp, wr, n);
	bw_tl_post(&r->tl, *posted, n, now_sec());
	rc = ibv_post_send(c->qp[qp], wr, &bad);
	if (rc != 0)
		return bench_post_failed(qp, rc, n, bad != NULL && bad >= wr && bad < wr + n ? (int)(bad - wr) : 0);
	for (int j = 0; j < n; j++) {
		sq_account_post(&c->sq[qp], (wr[j].send_flags & IBV_SEND_SIGNALED) != 0);
		if (r->traced)
			hook_data(c, HOOK_POST_SEND, qp, c->qp[qp]->qp_num, &wr[j]);
	}
	*posted += n;
	return n;
}

/* 把 QP qp 的窗口填满（像 perftest 一样先投满再去取完成） */
static int bw_fill(struct run *r, int qp, long *posted, long completed, long end)
{
	int n;

	while ((n = bw_post(r, qp, posted, completed, end)) > 0)
		;
	return n;
}

/* 客户端：每个QP投递序号 from..end-1 的 WR，按窗口投递、按批取完成，直到全部完成 */
static int bw_client(struct run *r, long from, long end)
{
	struct rdma_conn *c = r->c;
	long posted[MAX_QP], completed[MAX_QP], finished = 0;
	struct ibv_wc wcs[BATCH];
	long long deadline = 0;
	unsigned spins = 0;
	double every = c->opt->timeout_ms / 3000.0, next_alive = peer_waits(c) ? now_sec() + every : HUGE_VAL;

	for (int i = 0; i < c->num_qp; i++)
		posted[i] = completed[i] = from;
	while (finished < c->num_qp) {
		long before = 0, after = 0;
		double t;
		int n;

		for (int i = 0; i < c->num_qp; i++) {
			before += posted[i];
			if (bw_fill(r, i, &posted[i], completed[i], end) != 0)
				return -1;
			after += posted[i];
		}
		n = poll_cq_batch(c, wcs, BATCH);
		if (n < 0)
			return -1;
		t = n > 0 ? now_sec() : 0;
		/* 对端只是等 DONE（WRITE/READ）：每 -t/3 一个心跳，用取到完成时本来就读的时刻判断，不为它另读时钟 */
		if (n > 0 && t >= next_alive) {
			if (ctrl_heartbeat(&c->ctrl) != 0)
				return -1;
			next_alive = t + every;
		}
		for (int k = 0; k < n; k++) {
			int i = wrid_qp(wcs[k].wr_id);
			long upto = (long)wrid_seq(wcs[k].wr_id) + 1;   /* 选择性通知：它之前的 WR 也都完成了 */

			bw_tl_done(&r->tl, completed[i], upto, t);
			completed[i] = upto;
			finished += upto == end;
		}
		/* 只有窗口满了（或全投完了）才等：还能投的时候睡下去，未通知的 WR 不会带来任何事件 */
		if (n > 0 || after > before) {
			spins = deadline = 0;
		} else if (wait_cq_due(c, &spins) && (keep_alive(c) != 0 ||
			   wait_cq(c, lazy_deadline(c, &deadline), &spins, (int)finished, c->num_qp) != 0)) {
			return -1;
		}
	}
	return 0;
}

/* 带宽的服务端：取出 CQ 里现有的接收完成，每个数进 *got、记下收到消息的缓冲区、马上补投一个接收；返回取到几个（出错 -1） */
static int take_recvs(struct run *r, long *got)
{
	struct ibv_wc wcs[BATCH];
	int n = poll_cq_batch(r->c, wcs, BATCH);

	for (int k = 0; k < n; k++) {
		(*got)++;
		r->landed[recv_slot_of(r->c, wcs[k].wr_id)] = 1;
		if (repost_recv(r, recv_slot_of(r->c, wcs[k].wr_id)) != 0)
			return -1;
	}
	return n;
}

/*
 * send 的服务端：收 count 个 / QP，每收到一个马上补投一个接收，接收队列一直是满的。
 * 一批完成可能比还差的多（预热的最后一批里混着计时的第一批）：多收的记在 *extra 里，算进下一段
 */
static int bw_server_recv(struct run *r, long count, long *extra)
{
	struct rdma_conn *c = r->c;
	long want = count * c->num_qp, got = *extra;
	long long deadline = 0;
	unsigned spins = 0;

	while (got < want) {
		int n = take_recvs(r, &got);

		if (n < 0)
			return -1;
		if (n > 0) {
			spins = deadline = 0;   /* 有进展：超时从下一次空等起算（lazy_deadline） */
		} else if (wait_cq_due(c, &spins) &&
			   wait_cq(c, lazy_deadline(c, &deadline), &spins, (int)got, (int)want) != 0) {
			return -1;
		}
	}
	*extra = got - want;
	return 0;
}

/*
 * UD 的 send 带宽，服务端：不能等“收齐”——接收队列空着时到达的消息已经被丢掉了，永远不会来。
 * 收到齐了就停；否则等到客户端在控制平面上发来 DONE（它的最后一个 WR 已经完成），再把还在路上的取完
 * （CQ 连续 UD_DRAIN_MS 毫秒没有新完成），最后数一数丢了多少。预热和计时的消息一起数（服务端分不开它们）
 */
#define UD_DRAIN_MS 200

static int bw_server_ud(struct run *r)
{
	struct rdma_conn *c = r->c;
	long want = ud_sent(r);
	long long deadline = now_ms() + c->opt->timeout_ms, quiet_until = -1;

	/* 插桩要求晚投的接收（prepare 里 HOOK_RECVS 的 later；--inject late-recv，只有 --qp ud --bench bw 的服务端可以）：现在投 */
	if (r->recvs_later && (hook_before(c, HOOK_RECVS_LATE, NULL, -1, 0, NULL), fill_recvs(r) != 0))
		return -1;
	r->cpu0 = cpu_s();
	r->t0 = now_sec();
	while (r->received < want) {
		int n = take_recvs(r, &r->received), peer;

		if (n < 0)
			return -1;
		if (n > 0) {
			deadline = now_ms() + c->opt->timeout_ms;
			if (quiet_until >= 0)
				quiet_until = now_ms() + UD_DRAIN_MS;
			continue;
		}
		if (quiet_until >= 0) {
			if (now_ms() >= quiet_until)
				break;
		} else if ((peer = ctrl_poll_peer(&c->ctrl, 0)) != 0) {
			if (peer < 0)
				return -1;
			quiet_until = now_ms() + UD_DRAIN_MS;   /* 客户端发完了（或断开了：之后的 DONE 同步会说） */
		} else if (now_ms() > deadline) {
			con_error(_("UD 带宽: %d 秒内没有收到新消息，客户端也没说发完了（已收到 %ld/%ld）\n"
				    CON_HINT "客户端还在运行吗？两端的 --size/--iters/-q 一致吗？\n"),
				  c->opt->timeout_ms / 1000, r->received, want);
			return -1;
		}
		if (wait_cq_briefly(c, 10) != 0)
			return -1;
	}
	r->t1 = now_sec();
	r->cpu1 = cpu_s();
	return 0;
}

/*
 * 先预热（每个QP warm 个 WR，全部完成、队列排空），再计时（每个QP iters 个，从空队列开始，和 perftest 一样）。
 * 窗口 = 第一个计时 WR 投递到最后一个完成（时间线记下的 t0、t1），数的正好是窗口里的 WR
 */
static int bw_loop(struct run *r)
{
	struct rdma_conn *c = r->c;
	long end = r->warm + r->iters;
	int rc;

	if (is_server(c) && !op_info(c->opt->op)->server_recv)
		return 0;   /* WRITE/READ：服务端程序不参与；SEND/WRITE_IMM：服务端收、补投接收 */
	if (is_server(c) && c->ah != NULL)
		return bw_server_ud(r);
	if (is_server(c)) {
		long extra = 0;

		if (bw_server_recv(r, r->warm, &extra) != 0)
			return -1;
		r->cpu0 = cpu_s();
		r->t0 = now_sec();
		rc = bw_server_recv(r, r->iters, &extra);
		r->t1 = now_sec();
		r->cpu1 = cpu_s();
		return rc;
	}
	if (bw_client(r, 0, r->warm) != 0)
		return -1;
	r->cpu0 = cpu_s();
	rc = bw_client(r, r->warm, end);
	r->cpu1 = cpu_s();
	r->t0 = r->tl.t0;
	r->t1 = r->tl.t1;
	return rc;
}

/* ---------- 准备、校验、报告 ---------- */

/* 发送数据的一方：send/write 是客户端（lat 时两边都发），read 是服务端 */
static const char *data_source(struct rdma_conn *c)
{
	return c->opt->op == OP_READ ? "server" : "client";
}

static int prepare(struct run *r)
{
	struct rdma_conn *c = r->c;
	const char *me = is_server(c) ? "server" : "client";

	memset(c->buf, 0, c->buf_len);
	for (int i = 0; i < c->num_qp; i++) {
		/* READ 的数据源是服务端的 A 区（对端可访问区）；其余是本端 B 区 */
		uint8_t *src = c->opt->op == OP_READ ? area_a(c, i) : area_b(c, i);

		payload_fill(src, r->size, me, (uint32_t)i, 0);
	}
	if (r->first && op_info(c->opt->op)->server_recv && (c->opt->bench == BENCH_LAT || is_server(c))) {
		struct hook_recvs hr = { .area = NULL };

		hook_before(c, HOOK_RECVS, NULL, -1, 0, &hr);   /* 插桩可以要求晚一点投（bw_server_ud 里投） */
		r->recvs_later = hr.later;
		return hr.later ? 0 : fill_recvs(r);
	}
	return 0;
}

/*
 * 缓冲区 got 是不是某个QP发来的消息（size 字节，比前 n 个）：没有 SRQ 时必须是 QP[i] 的；--srq 时消息落在哪个缓冲区
 * 由 SRQ 决定，哪个QP的都算（i 是缓冲区号）。不是的话 want 里留下 QP[i]（--srq 时 QP[0]）的内容（报错时和它比）
 */
static int matches_sender(struct rdma_conn *c, const uint8_t *got, uint8_t *want, size_t size, size_t n,
			  const char *from, int i)
{
	int first = c->srq != NULL ? 0 : i, last = c->srq != NULL ? c->num_qp - 1 : i;

	for (int j = first; j <= last; j++) {
		payload_fill(want, size, from, (uint32_t)j, 0);
		if (memcmp(got, want, n) == 0)
			return 1;
	}
	payload_fill(want, size, from, (uint32_t)(c->srq != NULL ? 0 : i), 0);   /* --srq：i 是缓冲区号，和 QP[0] 的比 */
	return 0;
}

/* 计时之后校验一次：收到数据的一方看最后一次到达的内容（write lat 的最后一个字节是戳，不比） */
static int verify_after(struct run *r)
{
	struct rdma_conn *c = r->c;
	int srv = is_server(c), lat = c->opt->bench == BENCH_LAT, op = c->opt->op;
	int receiver = op == OP_READ ? !srv : (lat || srv);
	const char *from = lat && op != OP_READ ? (srv ? "client" : "server") : data_source(c);
	size_t n = r->size - (op == OP_WRITE && lat ? 1 : 0);
	uint8_t *want;

	if (!receiver)
		return 0;
	want = malloc(r->size);
	if (want == NULL)
		return -1;
	/* --srq：看 SRQ 的每块接收缓冲区（哪个QP的消息都算）；否则每个QP一块 */
	for (int i = 0; i < (c->srq != NULL ? recv_slots(c) : c->num_qp); i++) {
		uint8_t *got = op == OP_READ ? area_b(c, i) : c->srq != NULL ? srq_area(c, i) : recv_payload(c, i);

		/* --srq：SRQ 按投递的顺序发接收请求，消息少于缓冲区数时有的缓冲区一直没用上；UD：可能全被丢了 */
		if ((may_stay_empty(c) && !r->landed[i]) || matches_sender(c, got, want, r->size, n, from, i))
			continue;
		for (size_t b = 0; b < n; b++) {
			if (got[b] != want[b]) {
				if (c->srq != NULL)
					con_error(_("SRQ 的接收缓冲区 %d 计时后的数据校验失败：偏移 %zu 是 0x%02x，应为 0x%02x（和 QP[0] 的消息比）\n"
						    CON_HINT "基准测试只在计时之后校验一次；数据不对说明地址/长度不对，"
						    "或者两个在途的接收共用了一块缓冲区\n"), i, b, got[b], want[b]);
				else
					con_error(_("QP[%d] 计时后的数据校验失败：偏移 %zu 是 0x%02x，应为 0x%02x\n"
						    CON_HINT "基准测试只在计时之后校验一次；数据不对说明地址/长度/rkey 不对\n"),
						  i, b, got[b], want[b]);
				free(want);
				return -1;
			}
		}
	}
	free(want);
	return 0;
}

/* ---------- 计时之前建好的 WR ---------- */

/*
 * 发送 WR：lat 每个QP一个，bw 每个QP post_list 个（一条链表的位置），内容来自 lat_req（操作、地址、长度、inline、UD 的目的地）；
 * 计时循环里只改“要不要完成”，bw 另改 wr_id 里的序号和链表在哪里断开
 */
static int build_send_wrs(struct run *r)
{
	struct rdma_conn *c = r->c;
	int per = c->opt->bench == BENCH_BW ? c->opt->post_list : 1;
	size_t n = (size_t)c->num_qp * (size_t)per;

	r->swr = calloc(n, sizeof(*r->swr));
	r->ssge = calloc(n, sizeof(*r->ssge));
	if (r->swr == NULL || r->ssge == NULL)
		return -1;
	for (int qp = 0; qp < c->num_qp; qp++) {
		struct send_req q = lat_req(r, qp);

		for (int j = 0; j < per; j++)
			build_wr(c, qp, &q, &r->swr[(size_t)qp * (size_t)per + (size_t)j],
				 &r->ssge[(size_t)qp * (size_t)per + (size_t)j]);
	}
	r->send_flags = (int)(r->swr[0].send_flags & ~(unsigned)IBV_SEND_SIGNALED);
	r->sig_all = c->opt->op == OP_READ || c->opt->signal_every == 1;
	r->traced = hook_on(c);
	return 0;
}

/* 接收 WR：每块接收缓冲区一个（没有 SRQ 时每个QP一块，A 区；--srq 时 SRQ 的每块），wr_id = 块号，长度 = 一块 */
static int build_recv_wrs(struct run *r)
{
	struct rdma_conn *c = r->c;
	int n = recv_slots(c);

	r->rwr = calloc((size_t)n, sizeof(*r->rwr));
	r->rsge = calloc((size_t)n, sizeof(*r->rsge));
	if (r->rwr == NULL || r->rsge == NULL)
		return -1;
	for (int b = 0; b < n; b++) {
		r->rsge[b] = (struct ibv_sge){ .addr = (uintptr_t)(c->srq != NULL ? srq_area(c, b) : area_a(c, b)),
					       .length = (uint32_t)c->slot, .lkey = c->mr->lkey };
		r->rwr[b] = (struct ibv_recv_wr){ .wr_id = c->srq != NULL ? wrid_srq(b) : WRID(b, 0), .sg_list = &r->rsge[b], .num_sge = 1 };
	}
	return 0;
}

static int alloc_run(struct run *r)
{
	size_t n = (size_t)r->iters * (size_t)r->c->num_qp;

	r->landed = calloc((size_t)recv_slots(r->c), 1);
	if (r->landed == NULL || build_send_wrs(r) != 0 || build_recv_wrs(r) != 0)
		return -1;
	if (r->c->opt->bench == BENCH_LAT) {
		r->t = calloc((size_t)r->iters + 1, sizeof(*r->t));
		return r->t == NULL ? -1 : 0;
	}
	r->tl.warm = r->warm;
	if (!bw_peak_wanted(r->iters))
		return 0;   /* 和 perftest 一样：每个QP的 iters 超过 20000 时不算峰值（报 0），不管有几个QP */
	r->tl.cap = n;
	r->tl.posted = calloc(n, sizeof(double));
	r->tl.done = calloc(n, sizeof(double));
	return r->tl.posted == NULL || r->tl.done == NULL ? -1 : 0;
}

static void free_run(struct run *r)
{
	free(r->t);
	free(r->landed);
	free(r->tl.posted);
	free(r->tl.done);
	free(r->swr);
	free(r->ssge);
	free(r->rwr);
	free(r->rsge);
}

/* 一个大小：准备 → 同步 → 预热 + 计时 → 同步 → 校验 → 报告 */
static int bench_size(struct rdma_conn *c, size_t size, uint32_t idx)
{
	struct run r = { .c = c, .size = size, .iters = c->opt->iters, .warm = warmup_count(c->opt->iters),
			 .first = idx == 1 };
	struct hook_size hs = { .size = size, .suffix = r.ctr, .len = sizeof(r.ctr) };   /* 插桩（--counters）在计时循环之外的前后 */
	int rc = -1;

	if (alloc_run(&r) != 0 || prepare(&r) != 0)
		goto out;
	hook_before(c, HOOK_BENCH_SIZE, NULL, -1, 0, &hs);
	if (ctrl_sync_send(&c->ctrl, SYNC_TAG(SYNC_READY, idx)) != 0 ||
	    ctrl_sync_wait(&c->ctrl, SYNC_TAG(SYNC_READY, idx)) != 0)
		goto out;
	if ((c->opt->bench == BENCH_LAT ? lat_loop(&r) : bw_loop(&r)) != 0)
		goto out;
	if (ctrl_sync_send(&c->ctrl, SYNC_TAG(SYNC_DONE, idx)) != 0 ||
	    ctrl_sync_wait(&c->ctrl, SYNC_TAG(SYNC_DONE, idx)) != 0)
		goto out;
	if (verify_after(&r) != 0)
		goto out;
	rc = 0;
out:
	hook_after(c, HOOK_BENCH_SIZE, rc, &hs);   /* 失败时也说（插件放下前后之间自用的东西，不报告） */
	if (rc == 0)
		bench_report(&r);
	free_run(&r);
	return rc;
}

/* --sweep 的最大消息：RC 8 MiB；UD 是路径MTU */
static size_t sweep_top(const struct rdma_conn *c)
{
	return c->ah != NULL ? wire_mtu_bytes(c->path_mtu) : SWEEP_MAX_SIZE;
}

int run_bench(struct rdma_conn *c)
{
	const struct options *o = c->opt;
	uint32_t idx = 1;

	step_title(&c->watch, &c->step, _("基准测试: --bench %s --op %s，%d 个QP"), bench_name(o->bench), op_name(o->op), c->num_qp);
	bench_explain_before(c);
	if (bench_reports_table(c))
		bench_print_header(c);
	if (!o->sweep)
		return bench_size(c, o->size, idx) == 0 ? (bench_explain_after(c), 0) : -1;
	if (c->ah != NULL)
		con_printf(_("UD: --sweep 只扫到路径MTU %u 字节（UD 不分段，一条消息一个包）\n"), wire_mtu_bytes(c->path_mtu));
	for (size_t s = SWEEP_MIN_SIZE; s <= sweep_top(c); s *= 2, idx++)
		if (bench_size(c, s, idx) != 0)
			return -1;
	bench_explain_after(c);
	return 0;
}
