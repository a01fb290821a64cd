/*
 * op_rounds.c - 数据面
 *
 * 同步点（控制平面上的小消息，见 ctrl.h）保证“接收方先准备好，发送方再发”：
 *   send      : 服务端投递接收 → READY → 客户端发送 → 服务端校验并回复
 *   write     : 客户端写 → 完成 → DONE → 服务端校验 → ACK
 *   read      : 服务端准备数据 → READY → 客户端读并校验 → DONE
 *   write_imm : 服务端投递接收 → READY → 客户端写(带立即数) → 服务端从完成里得知数据已到
 *   原子操作  : 服务端初始化目标字 → (RTS同步) → 客户端逐轮原子操作 → DONE → 服务端校验终值 → ACK
 */
#include "runs/op_rounds.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <arpa/inet.h>
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
#include "runs/payload.h"
#include "verbs/qp_print.h"
#include "verbs/ud.h"
#include "runs/events.h"
#include "verbs/hints.h"
#include "verbs/wc_check.h"

#define PREVIEW 48

static int is_server(struct rdma_conn *conn) { return conn->opt->role == ROLE_SERVER; }

/* 只详细打印前两轮和最后一轮，避免轮数很多时刷屏（op_rounds.h） */
int verbose(struct rdma_conn *conn, long r)
{
	return r <= 2 || r == conn->opt->iters;
}

static uint64_t remote_slot(struct rdma_conn *conn, int i)
{
	return conn->remote.addr + (uint64_t)i * conn->remote.slot;
}

/* 校验一个QP的数据；出错时打印第一个不同字节的偏移 */
static int verify(struct rdma_conn *conn, int i, long r, const uint8_t *buf,
		  const char *who, const char *what)
{
	size_t len = conn->opt->size;
	long bad = payload_check(buf, len, who, (uint32_t)i, (uint32_t)r);
	char pv[PREVIEW + 1];

	if (bad >= 0) {
		con_error(_("QP[%d] 第%ld轮%s校验失败：第一个不同的字节在偏移 %ld，实际值 0x%02x；%zu 字节中共 %zu 字节不对\n"),
			i, r, what, bad, buf[bad], len, payload_diff_count(buf, len, who, (uint32_t)i, (uint32_t)r));
		con_hint(_("数据被覆盖或地址/长度不对；单边操作请检查 remote_addr 与槽大小\n"));
		return -1;
	}
	if (verbose(conn, r)) {
		payload_preview(buf, len, pv, sizeof(pv));
		con_printf(_("  QP[%d] 第%ld轮%s: %zu 字节校验通过 \"%s%s\"\n"), i, r, what, len, pv,
		       len > PREVIEW ? "..." : "");
	}
	return 0;
}

/* 一个完成符合期望返回 0；否则打印哪个QP、哪里不对（规则在 wc_check.c） */
static int expect_wc(const struct ibv_wc *wc, const struct wc_expect *e)
{
	char why[256];

	if (wc_check(wc, e, why, sizeof(why)) == 0)
		return 0;
	con_error(_("QP[%d] %s\n" CON_HINT "两端的操作/长度/立即数约定不一致，或者数据被截断了\n"),
		wrid_qp(wc->wr_id), why);
	return -1;
}

/* 等待 n 个完成并检查每个完成的 opcode；RDMA READ 的完成还要检查读到的长度（op_rounds.h） */
int wait_wcs(struct rdma_conn *conn, int n, enum ibv_wc_opcode expect, uint32_t read_len)
{
	struct ibv_wc wcs[2 * MAX_QP];
	struct wc_expect e = { .opcode = expect, .check_len = expect == IBV_WC_RDMA_READ, .len = read_len };

	if (poll_completions(conn, n, wcs) != 0)
		return -1;
	for (int k = 0; k < n; k++)
		if (expect_wc(&wcs[k], &e) != 0)
			return -1;
	return 0;
}

/* 第 r 轮 QP[i] 的一个 WR，写进 *req 并返回它：B区是本端的发送源 / READ 的目的地；READ 之外先填好本轮的数据 */
struct send_req *round_req(struct rdma_conn *conn, struct send_req *req, enum ibv_wr_opcode opcode,
				  int i, long r, const char *who)
{
	*req = (struct send_req){
		.opcode = opcode,
		.local = area_b(conn, i),
		.len = (uint32_t)conn->opt->size,
		.remote_addr = remote_slot(conn, i),
		.imm = payload_imm((uint32_t)i, (uint32_t)r),
	};
	if (opcode != IBV_WR_RDMA_READ) {
		payload_fill(req->local, conn->opt->size, who, (uint32_t)i, (uint32_t)r);
		hook_before(conn, HOOK_DATA, NULL, i, r, req->local);   /* 插桩可以改数据（--inject payload） */
	}
	hook_before(conn, HOOK_SEND_REQ, NULL, i, r, req);         /* 插桩可以改 WR（--inject lkey、inline） */
	if (conn->ah != NULL) {   /* --qp ud：目的地写在 WR 里 */
		req->ah = conn->ah;
		req->remote_qpn = conn->remote.qp[i].qpn;
	}
	return req;
}

/* 一个接收要给多少字节：整个槽；插桩可以改（--inject small-recv 改小第1轮 QP[0] 的） */
uint32_t recv_size(struct rdma_conn *conn, int i, long r)
{
	uint32_t len = (uint32_t)conn->slot;

	hook_before(conn, HOOK_RECV_LEN, NULL, i, r, &len);
	return len;
}

/* 每个QP的接收都投了之后：--srq 第1轮说明投到了哪里，并装上 SRQ 的限位（runs/events.c） */
int receives_posted(struct rdma_conn *conn, long r)
{
	if (conn->srq == NULL || r != 1)
		return 0;
	con_printf(_("已往 SRQ 投递 %d 个接收请求（ibv_post_srq_recv，wr_id = SRQ 标记 + 缓冲区号，不是QP号）\n"), conn->num_qp);
	return srq_arm_limit(conn, (uint32_t)conn->num_qp);
}

/* 每个QP投递一个接收，放进 area(conn, i) */
int post_recv_all(struct rdma_conn *conn, uint8_t *(*area)(struct rdma_conn *, int), long r)
{
	for (int i = 0; i < conn->num_qp; i++)
		if (post_receive(conn, i, area(conn, i), recv_size(conn, i, r)) != 0)
			return -1;
	return receives_posted(conn, r);
}

/* 等接收完成时出错：UD 多说一句消息可能被丢掉了（没有重传）；返回 -1 */
int recv_missing(struct rdma_conn *conn)
{
	if (conn->opt->qp_type == QPK_UD)
		ud_explain_missing();
	return -1;
}

/* 接收完成的数据在哪、多长、是哪个QP收到的：UD 的数据前面有 40 字节 GRH；SRQ 的 wr_id 是标记 + 缓冲区号，QP 看 qp_num */
static uint32_t recv_len(const struct rdma_conn *conn)
{
	return (uint32_t)conn->opt->size + (conn->opt->qp_type == QPK_UD ? UD_GRH_LEN : 0);
}

static int recv_buf(const struct rdma_conn *conn, const struct ibv_wc *wc)
{
	return conn->srq != NULL ? wrid_srq_buf(wc->wr_id) : wrid_qp(wc->wr_id);
}

static int recv_qp(struct rdma_conn *conn, const struct ibv_wc *wc, long r)
{
	int b = recv_buf(conn, wc), i;

	if (conn->srq == NULL)
		return b;
	i = qp_index_of(conn, wc->qp_num);
	if (verbose(conn, r))
		con_printf(_("  SRQ: 缓冲区 %d 的接收请求被 QP[%d]（qp_num=0x%06x）取走\n"), b, i, wc->qp_num);
	return i;
}

/* 一个接收完成：长度/标志、UD 的来源和 GRH、数据 */
int check_recv(struct rdma_conn *conn, const struct ibv_wc *wc, long r, const char *who, const char *what)
{
	struct wc_expect e = { .opcode = IBV_WC_RECV, .check_len = 1, .len = recv_len(conn) };
	int b = recv_buf(conn, wc), i = recv_qp(conn, wc, r);

	if (expect_wc(wc, &e) != 0)
		return -1;
	if (conn->opt->qp_type == QPK_UD && ud_check_recv(conn, wc, i, area_a(conn, b), r) != 0)
		return -1;
	return verify(conn, i, r, recv_payload(conn, b), who, what);
}

/*
 * --srq：第1轮的接收用掉之后，SRQ 限位事件应该已经来了（最多再等 1 秒）；之后每一轮不等待地看一眼，
 * 期间到来的其他异步事件（端口掉了、QP 致命错误……）也打印出来
 */
int srq_limit_event(struct rdma_conn *conn, long r)
{
	int seen;

	if (conn->srq == NULL)
		return 0;
	if (r != 1)
		return events_poll(conn, IBV_EVENT_SRQ_LIMIT_REACHED, 0) < 0 ? -1 : 0;
	seen = events_poll(conn, IBV_EVENT_SRQ_LIMIT_REACHED, 1000);
	if (seen < 0)
		return -1;
	if (seen == 0)
		con_printf(_("警告: 1 秒内没有等到 IBV_EVENT_SRQ_LIMIT_REACHED（SRQ 里的接收请求已经少于限位）\n"));
	return 0;
}

int recv_then_ready(struct rdma_conn *conn, long r, uint8_t *(*area)(struct rdma_conn *, int))
{
	struct hook_recvs hr = { .area = area };
	int rc = hook_before(conn, HOOK_RECVS, NULL, -1, r, &hr);

	if (rc != HOOK_PASS)
		return rc;
	/* 直接调 post_receive（不经 post_recv_all）：读的人从 send_round 一步就看到 ibv_post_recv 的那一课 */
	for (int i = 0; i < conn->num_qp; i++)
		if (post_receive(conn, i, area(conn, i), recv_size(conn, i, r)) != 0)
			return -1;
	if (receives_posted(conn, r) != 0)
		return -1;
	return ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_READY, r));
}

/* ---------- SEND / RECV：默认的 --op send 的一轮在驱动程序里（rdma_server.c、rdma_client.c 的 send_round） ---------- */

/* ---------- RDMA WRITE ---------- */

static int write_server_round(struct rdma_conn *conn, long r)
{
	if (r == 1)
		con_printf(_("服务端在这一步不调用任何 verbs：RDMA WRITE 不消耗接收请求、不产生完成事件，\n"
		       "服务端程序完全不参与（硬件网卡直接 DMA 写内存；rxe 下是服务端的内核替它拷贝）。\n"
		       "只能等客户端通过TCP说“写完了”，再去看自己的内存\n"));
	if (ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_DONE, r)) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++)
		if (verify(conn, i, r, area_a(conn, i), "client", _("内存中的数据")) != 0)
			return -1;
	return ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_ACK, r));
}

static int write_client_round(struct rdma_conn *conn, long r)
{
	struct send_req req;

	if (r == 1)
		con_printf(_("RDMA WRITE: 本地数据 → 对端地址 remote_addr（用对端的 rkey 授权），对端不需要投递接收\n"));
	for (int i = 0; i < conn->num_qp; i++)
		if (post_send(conn, i, round_req(conn, &req, IBV_WR_RDMA_WRITE, i, r, "client"), 1) != 0)
			return -1;
	if (wait_wcs(conn, conn->num_qp, IBV_WC_RDMA_WRITE, 0) != 0)
		return -1;
	if (verbose(conn, r))
		con_printf(_("  第%ld轮: %d 个 RDMA WRITE 完成（RC 的完成意味着对端网卡已确认收到）\n"), r, conn->num_qp);
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_DONE, r)) != 0)
		return -1;
	return ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_ACK, r));
}

/* ---------- RDMA READ ---------- */

static int read_server_round(struct rdma_conn *conn, long r)
{
	for (int i = 0; i < conn->num_qp; i++) {
		payload_fill(area_a(conn, i), conn->opt->size, "server", (uint32_t)i, (uint32_t)r);
		hook_before(conn, HOOK_DATA, NULL, i, r, area_a(conn, i));   /* --inject payload（READ 时数据源是服务端） */
	}
	if (r == 1)
		con_printf(_("服务端把数据准备在自己的内存里，然后通过TCP告诉客户端“可以读了”；\n"
		       "之后客户端的 RDMA READ 由服务端网卡直接应答（rxe 下是服务端内核），服务端程序不参与、也没有完成事件\n"));
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0 ||
	    ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_DONE, r)) != 0)
		return -1;
	if (verbose(conn, r))
		con_printf(P_("  第%ld轮: 客户端报告已读完并校验 %d 个QP的数据\n",
				  "  第%ld轮: 客户端报告已读完并校验 %d 个QP的数据\n", conn->num_qp), r, conn->num_qp);
	return 0;
}

static int read_client_round(struct rdma_conn *conn, long r)
{
	struct send_req req;

	if (ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0)
		return -1;
	if (r == 1)
		con_printf(_("RDMA READ: 对端地址 remote_addr → 本地缓冲区；本地 MR 需要 LOCAL_WRITE，对端 MR 需要 REMOTE_READ\n"));
	memset(area_b(conn, 0), 0, conn->slot * (size_t)conn->num_qp);
	for (int i = 0; i < conn->num_qp; i++)
		if (post_send(conn, i, round_req(conn, &req, IBV_WR_RDMA_READ, i, r, NULL), 1) != 0)
			return -1;
	if (wait_wcs(conn, conn->num_qp, IBV_WC_RDMA_READ, (uint32_t)conn->opt->size) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++)
		if (verify(conn, i, r, area_b(conn, i), "server", _("读到")) != 0)
			return -1;
	return ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_DONE, r));
}

/* ---------- RDMA WRITE WITH IMMEDIATE ---------- */

static int imm_server_round(struct rdma_conn *conn, long r)
{
	struct ibv_wc wcs[MAX_QP];

	if (recv_then_ready(conn, r, area_b) != 0)
		return -1;
	if (r == 1)
		con_printf(_("WRITE_WITH_IMM 的数据直接写到 remote_addr，但会消耗对端一个接收请求并产生完成：\n"
		       "服务端因此不用TCP通知就知道“数据到了”，还能从 wc.imm_data 拿到 4 字节立即数\n"));
	if (poll_completions(conn, conn->num_qp, wcs) != 0)
		return -1;
	for (int k = 0; k < conn->num_qp; k++) {
		int i = wrid_qp(wcs[k].wr_id);
		uint32_t imm = ntohl(wcs[k].imm_data);   /* 立即数在线上是网络字节序 */
		struct wc_expect e = { .opcode = IBV_WC_RECV_RDMA_WITH_IMM, .check_len = 1,
				       .len = (uint32_t)conn->opt->size, .check_imm = 1,
				       .imm = payload_imm((uint32_t)i, (uint32_t)r) };

		if (expect_wc(&wcs[k], &e) != 0)
			return -1;
		if (verbose(conn, r))
			con_printf(_("  QP[%d] 完成: RECV_RDMA_WITH_IMM imm_data=0x%08x（第%ld轮, QP%d）byte_len=%u\n"),
			       i, imm, r, i, wcs[k].byte_len);
		if (verify(conn, i, r, area_a(conn, i), "client", _("内存中的数据")) != 0)
			return -1;
	}
	return 0;
}

static int imm_client_round(struct rdma_conn *conn, long r)
{
	struct send_req req;

	if (ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++)
		if (post_send(conn, i, round_req(conn, &req, IBV_WR_RDMA_WRITE_WITH_IMM, i, r, "client"), 1) != 0)
			return -1;
	if (wait_wcs(conn, conn->num_qp, IBV_WC_RDMA_WRITE, 0) != 0)
		return -1;
	if (verbose(conn, r))
		con_printf(_("  第%ld轮: %d 个 RDMA WRITE WITH IMM 完成，立即数 = (轮次<<16)|QP序号\n"), r, conn->num_qp);
	return 0;
}

/* ---------- 原子操作 ---------- */

static uint64_t *atomic_word(struct rdma_conn *conn, int i)
{
	return (uint64_t *)(void *)(area_a(conn, i) + conn->opt->offset);
}

static void atomic_server_prepare(struct rdma_conn *conn)
{
	for (int i = 0; i < conn->num_qp; i++)
		*atomic_word(conn, i) = atomic_initial((uint32_t)i);
	con_printf(_("服务端把每个QP的 8 字节目标字（槽内偏移 %u）初始化为 1000000×(QP序号+1)\n"), conn->opt->offset);
}

static int atomic_server_finish(struct rdma_conn *conn)
{
	long n = conn->opt->iters;

	con_printf(_("原子操作由服务端网卡执行（读-改-写一次完成；rxe 下是服务端内核），服务端程序不参与、没有完成事件；等客户端做完 %ld 轮\n"), n);
	if (ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_DONE, n)) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++) {
		uint64_t init = atomic_initial((uint32_t)i);
		uint64_t expect = conn->opt->op == OP_FETCH_ADD ?
			init + (uint64_t)n * atomic_addend((uint32_t)i) : init + (uint64_t)n;
		uint64_t got = *(volatile uint64_t *)atomic_word(conn, i);

		if (got != expect) {
			con_error(_("QP[%d] 目标字终值 %llu，期望 %llu\n"), i,
				(unsigned long long)got, (unsigned long long)expect);
			return -1;
		}
		con_printf(_("  QP[%d] 目标字: 初值 %llu → 终值 %llu（%s，校验通过）\n"), i,
		       (unsigned long long)init, (unsigned long long)got,
		       conn->opt->op == OP_FETCH_ADD ? _("每轮加 QP序号+1") : _("每轮一次成功的CAS加1"));
	}
	return ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_ACK, n));
}

static int atomic_post_wait(struct rdma_conn *conn, int i, struct send_req *req)
{
	enum ibv_wc_opcode expect = req->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ?
		IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP;

	req->len = 8;
	req->remote_addr = remote_slot(conn, i) + conn->remote.offset;
	/* 原子操作的完成只看 opcode（wait_wcs 只对 RDMA READ 检查长度） */
	return post_send(conn, i, req, 1) == 0 ? wait_wcs(conn, 1, expect, 0) : -1;
}

static int fetch_add_round(struct rdma_conn *conn, long r)
{
	/* 服务端程序在等全部轮次做完（DONE）：轮数很多时要不时告诉它“还在干活” */
	if (ctrl_heartbeat(&conn->ctrl) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++) {
		uint64_t add = atomic_addend((uint32_t)i);
		uint64_t expect = atomic_initial((uint32_t)i) + (uint64_t)(r - 1) * add;
		uint64_t *orig = (uint64_t *)(void *)area_b(conn, i);
		struct send_req req = { .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD, .local = orig,
					.compare_add = add };

		if (atomic_post_wait(conn, i, &req) != 0)
			return -1;
		if (*orig != expect) {
			con_error(_("QP[%d] 第%ld轮 FETCH_ADD 返回原值 %llu，期望 %llu\n"), i, r,
				(unsigned long long)*orig, (unsigned long long)expect);
			return -1;
		}
		if (verbose(conn, r))
			con_printf(_("  QP[%d] 第%ld轮 FETCH_ADD +%llu: 返回原值 %llu（正确），远端现在是 %llu\n"), i, r,
			       (unsigned long long)add, (unsigned long long)*orig,
			       (unsigned long long)(*orig + add));
	}
	return 0;
}

static int cmp_swap_round(struct rdma_conn *conn, long r)
{
	if (ctrl_heartbeat(&conn->ctrl) != 0)   /* 同 fetch_add_round */
		return -1;
	for (int i = 0; i < conn->num_qp; i++) {
		uint64_t cur = atomic_initial((uint32_t)i) + (uint64_t)(r - 1);
		uint64_t *orig = (uint64_t *)(void *)area_b(conn, i);
		struct send_req ok = { .opcode = IBV_WR_ATOMIC_CMP_AND_SWP, .local = orig,
				       .compare_add = cur, .swap = cur + 1 };
		struct send_req miss = { .opcode = IBV_WR_ATOMIC_CMP_AND_SWP, .local = orig + 1,
					 .compare_add = cur + 1000, .swap = 0 };

		if (atomic_post_wait(conn, i, &ok) != 0)
			return -1;
		if (orig[0] != cur) {
			con_error(_("QP[%d] 第%ld轮 CAS(期望 %llu) 应成功，但原值是 %llu\n"), i, r,
				(unsigned long long)cur, (unsigned long long)orig[0]);
			return -1;
		}
		if (atomic_post_wait(conn, i, &miss) != 0)
			return -1;
		if (orig[1] != cur + 1) {
			con_error(_("QP[%d] 第%ld轮 CAS(期望 %llu) 应失败并返回 %llu，实际返回 %llu\n"), i, r,
				(unsigned long long)(cur + 1000), (unsigned long long)(cur + 1),
				(unsigned long long)orig[1]);
			return -1;
		}
		if (verbose(conn, r))
			con_printf(_("  QP[%d] 第%ld轮 CAS(比较 %llu, 交换 %llu): 原值 %llu → 成功；"
			       "CAS(比较 %llu, 交换 0): 原值 %llu ≠ 比较值 → 失败，远端不变\n"), i, r,
			       (unsigned long long)cur, (unsigned long long)(cur + 1),
			       (unsigned long long)orig[0], (unsigned long long)(cur + 1000),
			       (unsigned long long)orig[1]);
	}
	return 0;
}

/* ---------- 调度 ---------- */

typedef int (*round_fn)(struct rdma_conn *conn, long r);

/*
 * 一轮怎么跑：每种操作、每个角色一个函数（操作的其它事实在 op_table.c 的 op_table 里，下标相同）。
 * NULL = 这一端每轮什么都不做（原子操作的服务端：内存由网卡改，服务端只在最后检查结果）。
 */
static const round_fn op_rounds[OP_COUNT][2] = {
	/*               [ROLE_SERVER]        [ROLE_CLIENT] */
	[OP_SEND]      = { NULL,               NULL },   /* 驱动程序自己的 send_round（不经过这张表） */
	[OP_WRITE]     = { write_server_round, write_client_round },
	[OP_READ]      = { read_server_round,  read_client_round },
	[OP_WRITE_IMM] = { imm_server_round,   imm_client_round },
	[OP_FETCH_ADD] = { NULL,               fetch_add_round },
	[OP_CMP_SWAP]  = { NULL,               cmp_swap_round },
};

static int rts_sync(struct rdma_conn *conn)
{
	const char *via = conn->opt->cm ? _("控制QP") : "TCP";

	step_title(&conn->watch, &conn->step, _("同步点: 双方QP都已进入RTS（%s）"), via);
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_RTS, 0)) != 0 ||
	    ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_RTS, 0)) != 0)
		return -1;
	con_printf(_("对端也已到 RTS。此后数据走 RDMA（数据平面），%s 只用来传小小的同步消息\n"), via);
	return 0;
}

static void print_summary(struct rdma_conn *conn, double secs)
{
	const struct options *o = conn->opt;
	double bytes = (double)o->size * (double)o->num_qp * (double)o->iters;

	con_printf(_("全部 %ld 轮 × %d 个QP 完成并校验通过，用时 %.3f 秒"), o->iters, o->num_qp, secs);
	if (!op_is_atomic(o->op) && secs > 0 && bytes >= 1048576.0)
		con_printf(_("，共 %.0f 字节（平均 %.2f MB/s）"), bytes, bytes / secs / 1e6);
	con_printf(_("\n  注意: 这个时间包含每轮的%s同步和校验，不是纯RDMA带宽/延迟；要测性能请用 --bench lat|bw（或 perftest 的 ib_send_bw 等）\n"),
		   o->cm ? _("控制QP") : "TCP");
}

/* 数据面之前（RTS 同步点之后）：UD 的地址句柄，--srq 的异步事件 */
int prepare_plane(struct rdma_conn *conn)
{
	const struct options *o = conn->opt;

	if (o->qp_type == QPK_UD && ud_prepare(conn) != 0)
		return -1;
	if (o->srq && events_setup(conn) != 0)
		return -1;
	if (o->srq)
		conn->release_qps = srq_release_qps;
	return 0;
}

/* 数据面这一步的前后告诉插桩（HOOK_PLANE：--counters 在 RTS 同步点之前（rts_barrier）读端口计数、数据面结束时打印差值，
 * 失败时也打印）；原样返回 rc */
void plane_begin(struct rdma_conn *conn)
{
	hook_before(conn, HOOK_PLANE, NULL, -1, 0, NULL);
}

int plane_end(struct rdma_conn *conn, int rc)
{
	hook_after(conn, HOOK_PLANE, rc, NULL);
	return rc;
}

/*
 * RTS 同步点（步骤列表的最后一步）。之前先做对端一动手就来不及的事：--counters 的起点读数（plane_begin），
 * 原子操作的服务端放好目标字。同步点失败时计数的终点也读（plane_end），和数据面失败时一样；成功时由数据面读
 */
int rts_barrier(struct rdma_conn *conn)
{
	plane_begin(conn);
	if (is_server(conn) && op_is_atomic(conn->opt->op))
		atomic_server_prepare(conn);
	return rts_sync(conn) == 0 ? 0 : plane_end(conn, -1);
}

int rounds_begin(struct rdma_conn *conn, double *t0)
{
	const struct options *o = conn->opt;

	if (prepare_plane(conn) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("数据传输: %s，%d 个QP × %ld 轮，每次 %zu 字节"), op_name(o->op),
		   o->num_qp, o->iters, o->size);
	if (o->size > wire_mtu_bytes(conn->path_mtu) && !op_is_atomic(o->op))
		con_printf(_("消息 %zu 字节 > 路径MTU %s：网卡把它切成 %u 个包发出，每个包按自己的偏移直接放进接收方的内存（不需要重组缓冲区）\n"),
		       o->size, mtu_str(conn->path_mtu), wire_packets(o->size, conn->path_mtu));
	*t0 = now_sec();
	return 0;
}

int op_round(struct rdma_conn *conn, long r)
{
	round_fn round = op_rounds[conn->opt->op][is_server(conn) ? ROLE_SERVER : ROLE_CLIENT];   /* 这一端每轮做什么 */

	return round != NULL ? round(conn, r) : 0;
}

/* 原子操作的结尾：服务端检查目标字的终值；客户端说做完了、等服务端确认 */
static int atomic_end(struct rdma_conn *conn)
{
	const struct options *o = conn->opt;

	if (is_server(conn))
		return atomic_server_finish(conn);
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_DONE, o->iters)) != 0 ||
	    ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_ACK, o->iters)) != 0)
		return -1;
	con_printf(_("服务端确认：目标字的终值正确\n"));
	return 0;
}

int rounds_end(struct rdma_conn *conn, double t0, int rc)
{
	if (rc == 0 && op_is_atomic(conn->opt->op))
		rc = atomic_end(conn);
	if (rc == 0)
		print_summary(conn, now_sec() - t0);
	return plane_end(conn, rc);
}
