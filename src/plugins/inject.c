/*
 * inject.c - --inject：故障画廊（docs/GALLERY.md）的每一种，一个故意的错误，全部在这一个文件里
 *
 * 这是插桩的接缝（verbs/rdma_types.h 的 struct hook_event）上的一个插件：每一种都在一个“之前”的事件里改它给的对象，
 * 或者自己做那一步；步骤函数本身不知道注入的存在：
 *   MR 或 QP 的权限     mr-access、qp-access                 （HOOK_MR 的 access、HOOK_MODIFY INIT 的属性）
 *   一次转换的 QP 属性  qpn（RTR 的 dest_qp_num）、psn（RTS 的 sq_psn）、rnr-retry0（RTS 的 rnr_retry）（HOOK_MODIFY）
 *   对端的 rkey         rkey                                  （HOOK_EXCHANGED）
 *   一个发送 WR         lkey、inline；payload 改的是发出之前的数据 （HOOK_SEND_REQ、HOOK_SEND_WR、HOOK_DATA、HOOK_QP_CAPS）
 *   接收的长度和顺序    small-recv、late-recv、flush            （HOOK_RECV_LEN；HOOK_RECVS、HOOK_RECVS_LATE：自己做这一步）
 * 哪一种配什么操作、哪一端由命令行检查（cli/inject_kinds.c）；这里只管运行时改什么、说什么。
 * --cm 下数据QP的转换经过同样的 HOOK_MODIFY（connect/cm_qps.c），改在 rdma_init_qp_attr 给的属性之上。
 * 每一种都在改之前打印一行“故障注入(--inject …)”：改了什么、预期看到什么。
 */
#include "plugins/inject.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "control/ctrl.h"
#include "runs/op_rounds.h"
#include "plugins/trace.h"
#include "verbs/datapath.h"
#include "verbs/hints.h"
#include "verbs/qp_print.h"

/* 数据面的注入都只动第1轮 QP[0] 的那一个 */
static int first_round_qp0(int i, long r) { return i == 0 && r == 1; }

/* ---------- 权限：mr-access（注册 MR 时）、qp-access（RESET→INIT 时） ---------- */

/* qp：HOOK_MODIFY INIT 的 QP（TCP 模式 -1 = 全部QP一份属性；--cm 每个QP一份，只在 QP[0] 时说一次） */
static int wrong_access(struct rdma_conn *conn, enum hook_at at, int qp, int access)
{
	char acc[128];

	access_str(access, acc, sizeof(acc));
	if (at == HOOK_MR && conn->opt->inject == INJECT_MR_ACCESS) {
		con_printf(_("故障注入(--inject mr-access): 这个操作要的权限是 %s，故意只给 MR 本地权限；"
			   "QP 的 qp_access_flags 和交给对端的 rkey 都不变，预期对端的访问被网卡拒绝（REM_ACCESS_ERR）\n"), acc);
		return access & ~(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	}
	if (at == HOOK_MODIFY && conn->opt->inject == INJECT_QP_ACCESS) {
		if (qp <= 0)
				con_printf(_("故障注入(--inject qp-access): 这个操作要QP允许 %s，故意不给（qp_access_flags=0）；"
				     "MR 的权限和交给对端的 rkey 都不变，预期对端的请求被本端网卡当成无效请求（REM_INV_REQ_ERR）\n"), acc);
		return 0;
	}
	return access;
}

/* ---------- QP 属性：qpn（RTR）、psn 和 rnr-retry0（RTS） ---------- */

/*
 * qpn：本端以后都用这个错的号（线上的包、trace 都是它），所以连 conn->remote 一起改。对的号是 RTR 属性里的：
 * TCP 模式来自交换的连接信息，--cm 来自 rdma_init_qp_attr（CM 的 REP 里对端的QP号）
 */
#define WRONG_QPN_XOR 0x800000u
static void wrong_dest_qpn(struct rdma_conn *conn, int i, struct ibv_qp_attr *attr)
{
	uint32_t good = attr->dest_qp_num;

	conn->remote.qp[i].qpn = good ^ WRONG_QPN_XOR;
	attr->dest_qp_num = conn->remote.qp[i].qpn;
	con_printf(_("故障注入(--inject qpn): QP[%d] 的 dest_qp_num 故意用 0x%06x（对端的QP号是 0x%06x）；"
		   "预期报文到了对端网卡却没有这个QP：被丢掉、没有应答，本端重传 retry_cnt 次后 RETRY_EXC_ERR\n"),
		   i, conn->remote.qp[i].qpn, good);
}

static void wrong_qp_attr(struct rdma_conn *conn, enum ibv_qp_state to, int i, struct ibv_qp_attr *attr)
{
	enum inject k = conn->opt->inject;

	if (to == IBV_QPS_RTR && k == INJECT_QPN) {
		wrong_dest_qpn(conn, i, attr);
	} else if (to == IBV_QPS_RTS && k == INJECT_PSN) {
		/* 第一个发送 WR 的 PSN 比在 HELLO 里告诉对端的大 0x1000 */
		attr->sq_psn = psn_add(conn->psn[i], 0x1000);
		con_printf(_("故障注入(--inject psn): QP[%d] 的 sq_psn 故意用 0x%06x（告诉对端的是 0x%06x，对端的 rq_psn 就是它）；"
			   "预期对端网卡认为包的 PSN 不对\n"), i, attr->sq_psn, conn->psn[i]);
	} else if (to == IBV_QPS_RTS && k == INJECT_RNR_RETRY0) {
		/* 对端没投递接收时（RNR NAK）重试几次：本来 7 = 一直重试 */
		if (i == 0)
			con_printf(_("故障注入(--inject rnr-retry0): rnr_retry 故意设成 0（上面说的是 7）；预期对端第一次回 RNR NAK 时本端不再重试，"
				   "发送以 RNR_RETRY_EXC_ERR 结束\n"));
		attr->rnr_retry = 0;
	}
}

/* qpn 在 --cm 下：连接信息（HELLO）是 RTS 之后才在控制QP上交换的，收到的是对端真的QP号；本端的QP用的仍是错的，conn->remote 跟着它 */
static void keep_wrong_qpn(struct rdma_conn *conn)
{
	for (int i = 0; i < conn->num_qp; i++)
		conn->remote.qp[i].qpn ^= WRONG_QPN_XOR;
}

/* ---------- 对端的 rkey ---------- */

static void wrong_rkey(struct rdma_conn *conn)
{
	conn->peer_rkey ^= 0x5a5a5a;
	con_printf(_("故障注入(--inject rkey): 故意把对端的 rkey 0x%08x 改成 0x%08x，预期对端网卡拒绝访问（REM_ACCESS_ERR）\n"),
		   conn->remote.rkey, conn->peer_rkey);
}

/* ---------- 发送：payload、lkey、inline ---------- */

/* payload：第1轮 QP[0] 的消息中间一个字节取反（在发出之前，应用层里） */
static void wrong_payload(struct rdma_conn *conn, uint8_t *buf, int i, long r)
{
	size_t off = conn->opt->size / 2;

	if (!first_round_qp0(i, r))
		return;
	con_printf(_("故障注入(--inject payload): 第1轮 QP[0] 偏移 %zu 的字节 0x%02x 被故意改成 0x%02x，预期对端校验失败\n"),
		   off, buf[off], buf[off] ^ 0xffu);
	buf[off] ^= 0xff;
}

/* inline：本程序的 inline 检查只看发送请求，IBV_SEND_INLINE 到它变成 WR 时才加上（wrong_send_wr），让驱动自己回答 */
static void say_guard_bypassed(struct rdma_conn *conn, int i, const struct send_req *req)
{
	con_printf(_("故障注入(--inject inline): 跳过本程序的 inline 检查（guard bypassed）: QP[%d] 的 WR 有 %u 字节、"
		   "带 IBV_SEND_INLINE，QP 要的 max_inline_data=%u（驱动写回 %u）；看 ibv_post_send 自己怎么回答\n"),
		   i, req->len, conn->opt->inline_size, conn->max_inline);
}

/* lkey：故意用的错 lkey = MR 的 lkey 异或它 */
#define WRONG_LKEY_XOR 0x5a5a00u

/* lkey / inline：第1轮 QP[0] 的 WR 故意带一个错（在它变成 WR 时才改，见 wrong_send_wr：发送请求里没有为插件留的字段） */
static void wrong_wr(struct inject_plugin *p, struct rdma_conn *conn, int i, long r, struct send_req *req)
{
	enum inject k = conn->opt->inject;

	if ((k != INJECT_LKEY && k != INJECT_INLINE) || !first_round_qp0(i, r) || per_conn_put(&p->wr_due, conn, req) != 0)
		return;
	if (k == INJECT_LKEY) {
		con_printf(_("故障注入(--inject lkey): 第1轮 QP[0] 的 WR 故意用 lkey 0x%08x（MR 的 lkey 是 0x%08x）；"
			   "预期本端网卡读数据时就发现，线上什么也不发；完成状态：硬件网卡 LOC_PROT_ERR，rxe 随内核不同（docs/GALLERY.md）\n"),
			   conn->mr->lkey ^ WRONG_LKEY_XOR, conn->mr->lkey);
	} else {
		con_printf(_("故障注入(--inject inline): 第1轮 QP[0] 的 %u 字节 WR 故意带 IBV_SEND_INLINE（QP 要的 max_inline_data=%u）；"
			   "预期 ibv_post_send 直接返回错误，不产生完成\n"), req->len, conn->opt->inline_size);
		say_guard_bypassed(conn, i, req);
	}
}

/* lkey / inline：上面记下的那个发送请求变成了 WR（HOOK_SEND_WR，post_send 的检查之后、ibv_post_send 之前）：
 * 换掉它的 lkey，或者给它加上 IBV_SEND_INLINE */
static void wrong_send_wr(struct inject_plugin *p, struct rdma_conn *conn, struct ibv_send_wr *wr)
{
	if (per_conn_take(&p->wr_due, conn) == NULL)
		return;
	if (conn->opt->inject == INJECT_LKEY)
		wr->sg_list[0].lkey ^= WRONG_LKEY_XOR;
	else
		wr->send_flags |= IBV_SEND_INLINE;
}

/* inline：消息不超过驱动取整后的 max_inline_data 时驱动照样接受，看不到任何错误，所以要求 --size 更大 */
static int inline_needs_size(struct rdma_conn *conn, int i)
{
	(void)i;
	if (conn->opt->size > conn->max_inline)
		return 0;
	con_error(_("--inject inline 要 --size 大于 %u：驱动把 max_inline_data 取整成了 %u（要的是 %u），\n"
		    "不超过它的 inline WR 会被驱动接受，看不到任何错误\n" CON_HINT "用 --size %u 或更大\n"),
		  conn->max_inline, conn->max_inline, conn->opt->inline_size, conn->max_inline + 1);
	return -1;
}

/* ---------- 接收：small-recv、flush、late-recv ---------- */

/* small-recv：第1轮 QP[0] 的接收缓冲区只有消息的一半 */
static uint32_t short_recv(struct rdma_conn *conn, int i, long r, uint32_t len)
{
	if (!first_round_qp0(i, r))
		return len;
	len = (uint32_t)conn->opt->size / 2;
	con_printf(_("故障注入(--inject small-recv): 第1轮 QP[0] 的接收请求只给 %u 字节（消息 %zu 字节）；"
		   "规范（和硬件网卡）说本端的完成是 LOC_LEN_ERR、对端的 SEND 是 REM_INV_REQ_ERR；rxe 上实测本端 LOC_QP_OP_ERR、对端 REM_OP_ERR\n"),
		   len, conn->opt->size);
	return len;
}

/*
 * flush：接收请求投递之后、告诉客户端“可以发了”之前，把全部QP改到 ERR。ERR 状态的QP不再处理任何报文，
 * 它上面每一个没完成的 WR 都由网卡“冲刷”出来，完成状态 WR_FLUSH_ERR。逐个打印，然后按错误结束。
 */
static int flush_recvs(struct rdma_conn *conn, long r, uint8_t *(*area)(struct rdma_conn *, int))
{
	struct ibv_wc wcs[MAX_QP];

	if (post_recv_all(conn, area, r) != 0)
		return -1;
	con_printf(_("故障注入(--inject flush): %d 个QP各有 1 个接收请求还没完成，现在把它们都改到 ERR（ibv_modify_qp IBV_QPS_ERR）；"
		   "预期每个接收都以 WR_FLUSH_ERR 完成，客户端的 SEND 得不到应答\n"), conn->num_qp);
	for (int i = 0; i < conn->num_qp; i++)
		if (modify_qp_to_err(conn, i) != 0)
			return -1;
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0 || poll_wcs_unchecked(conn, conn->num_qp, wcs) != 0)
		return -1;
	/* 出错的完成里只有 wr_id、status、qp_num、vendor_err 有效（ibv_poll_cq(3)）：opcode、byte_len 不能读 */
	for (int k = 0; k < conn->num_qp; k++)
		con_printf(_("  完成: QP[%d] wr_id=0x%llx qp_num=0x%06x 状态=%s (%d) vendor_err=0x%x\n"), wrid_qp(wcs[k].wr_id),
			   (unsigned long long)wcs[k].wr_id, wcs[k].qp_num, ibv_wc_status_str(wcs[k].status), wcs[k].status,
			   wcs[k].vendor_err);
	con_explain(_("出错的完成里只有 wr_id、status、qp_num、vendor_err 有效（ibv_poll_cq(3)），opcode 和 byte_len 没有定义：\n"
		      "        硬件网卡（如 mlx5）不写它们。是哪个 WR 只能从 wr_id 认出来——这里 wr_id 的低 8 位是QP号\n"));
	con_error(_("%d 个接收请求没等到数据就完成了: QP 在 ERR 状态，网卡把没完成的 WR 全部冲刷(flush)出来\n"), conn->num_qp);
	con_hint("%s\n", wc_status_hint(IBV_WC_WR_FLUSH_ERR));
	return -1;
}

/*
 * late-recv：第1轮故意反过来——READY 先发出，LATE_RECV_MS 毫秒后才投递接收。客户端的报文先到，服务端网卡没有
 * 接收请求可用，回 RNR NAK；客户端网卡等 RNR 计时器到期后重发（rnr_retry=7：一直重试），接收投递之后的那次重发才被接受。
 */
static int late_recvs(struct rdma_conn *conn, long r, uint8_t *(*area)(struct rdma_conn *, int))
{
	if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0)
		return -1;
	con_printf(_("故障注入(--inject late-recv): 已告诉客户端“可以发了”，但 %d 毫秒后才投递接收；"
		   "预期客户端的报文先到，服务端网卡回 RNR NAK，客户端网卡稍后重发\n"), LATE_RECV_MS);
	usleep(LATE_RECV_MS * 1000);
	return post_recv_all(conn, area, r);
}

/* HOOK_RECVS：服务端第1轮“先投接收、再说可以发了”由 flush、late-recv 自己做（返回它的结果）；--bench（round 0）时 late-recv 要晚投 */
static void own_recvs(struct rdma_conn *conn, struct hook_event *ev)
{
	struct hook_recvs *hr = ev->obj;
	enum inject k = conn->opt->inject;

	if (k != INJECT_FLUSH && k != INJECT_LATE_RECV)
		return;
	if (ev->round == 0)
		hr->later = k == INJECT_LATE_RECV;
	else if (ev->round == 1)
		ev->rc = k == INJECT_FLUSH ? flush_recvs(conn, ev->round, hr->area) : late_recvs(conn, ev->round, hr->area);
}

/* late-recv 在 --qp ud --bench bw 的服务端：第一个大小的接收晚投（UD 没有 RNR，这期间到达的消息被丢掉） */
static void late_bench_recvs(struct rdma_conn *conn)
{
	if (conn->opt->inject != INJECT_LATE_RECV)
		return;
	con_printf(_("故障注入(--inject late-recv): 已告诉客户端“可以发了”，但 %d 毫秒后才投递接收；"
		     "预期这期间到达的消息被丢掉（UD 没有 RNR、不重发），客户端照样成功\n"), LATE_RECV_MS);
	usleep(LATE_RECV_MS * 1000);
}

/* 建连时的“之前”：MR 的权限、一次转换的属性、QP 的能力；交换连接信息“之后”的对端 rkey */
static void setup_event(struct rdma_conn *conn, struct hook_event *ev)
{
	struct ibv_qp_attr *attr = ev->obj;

	switch (ev->at) {
	case HOOK_MR:
		*(int *)ev->obj = wrong_access(conn, HOOK_MR, -1, *(int *)ev->obj);
		break;
	case HOOK_MODIFY:
		if (strcmp(ev->call, "INIT") == 0)
			attr->qp_access_flags = (unsigned)wrong_access(conn, HOOK_MODIFY, ev->qp, (int)attr->qp_access_flags);
		else
			wrong_qp_attr(conn, strcmp(ev->call, "RTR") == 0 ? IBV_QPS_RTR : IBV_QPS_RTS, ev->qp, attr);
		break;
	case HOOK_QP_CAPS:
		if (conn->opt->inject == INJECT_INLINE && inline_needs_size(conn, ev->qp) != 0)
			ev->rc = -1;
		break;
	default: break;
	}
}

/* 数据面的“之前”：数据、发送请求、接收的长度、服务端投递接收的那一步 */
static void data_event(struct inject_plugin *p, struct rdma_conn *conn, struct hook_event *ev)
{
	enum inject k = conn->opt->inject;

	switch (ev->at) {
	case HOOK_DATA:
		if (k == INJECT_PAYLOAD)
			wrong_payload(conn, ev->obj, ev->qp, ev->round);
		break;
	case HOOK_SEND_REQ: wrong_wr(p, conn, ev->qp, ev->round, ev->obj); break;
	case HOOK_SEND_WR: wrong_send_wr(p, conn, ev->obj); break;
	case HOOK_RECV_LEN:
		if (k == INJECT_SMALL_RECV)
			*(uint32_t *)ev->obj = short_recv(conn, ev->qp, ev->round, *(uint32_t *)ev->obj);
		break;
	case HOOK_RECVS: own_recvs(conn, ev); break;
	case HOOK_RECVS_LATE: late_bench_recvs(conn); break;
	default: setup_event(conn, ev); break;
	}
}

/* 插件：只动连接级的事件；对端的 rkey 在交换连接信息之后改，其余都在“之前” */
static void inject_event(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev)
{
	(void)dev;
	if (conn == NULL)
		return;
	if (ev->at == HOOK_EXCHANGED && conn->opt->inject == INJECT_RKEY)
		wrong_rkey(conn);
	else if (ev->at == HOOK_EXCHANGED && conn->opt->inject == INJECT_QPN && conn->opt->cm)
		keep_wrong_qpn(conn);
	else if (ev->when == HOOK_BEFORE)
		data_event(ctx, conn, ev);
}

void inject_install(struct rdma_hooks *h, enum inject kind, struct inject_plugin *p)
{
	per_conn_init(&p->wr_due);
	if (kind != INJECT_NONE)
		hook_add(h, inject_event, p, 0);
}
