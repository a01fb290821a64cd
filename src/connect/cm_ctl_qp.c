/*
 * cm_ctl_qp.c - --cm 的控制QP：一个小小的 RC QP（自己的 CQ、自己的 cm_id），上面跑 TCP 模式同一套 wire.c 消息
 * （HELLO、同步消息），为什么不用 CM 的 private data 见 cm_control.c 开头。文件末尾是 --cm 的控制平面操作表（ctrl_cm_init）：
 * 它把 cm_control.c 的 CM 事件一侧和这里的控制QP一侧拼在一起，所以放在用到两边的这一个文件里
 */
#include "connect/cm_shared.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdma/rdma_cma.h>

#include "console/clock.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/gid_table.h"

#define CM_MSG_MAX      512             /* 一条控制消息的上限（≥ WIRE_MAX_LEN） */

_Static_assert(WIRE_MAX_LEN <= CM_MSG_MAX, "控制消息槽放不下最大的 HELLO");

/* buf 的布局：CM_CTL_RECV 个接收槽、1 个发送槽、1 个暂存槽 */
static uint8_t *recv_slot(struct ctrl *c, int k) { return cm_of(c)->buf + (size_t)k * CM_MSG_MAX; }
static uint8_t *send_slot(struct ctrl *c) { return cm_of(c)->buf + (size_t)CM_CTL_RECV * CM_MSG_MAX; }
static uint8_t *stash_slot(struct ctrl *c) { return cm_of(c)->buf + (size_t)(CM_CTL_RECV + 1) * CM_MSG_MAX; }

/* ---------- 控制QP ---------- */

static int cm_post_ctl_recv(struct ctrl *c, int k)
{
	struct ibv_sge sge = { .addr = (uintptr_t)recv_slot(c, k), .length = CM_MSG_MAX, .lkey = cm_of(c)->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = (uint64_t)k, .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(cm_of(c)->qp, &wr, &bad);

	if (rc != 0)
		verbs_error(_("ibv_post_recv(控制QP)"), rc, _("QP 状态不对？"));
	return rc == 0 ? 0 : -1;
}

int cm_post_ctl_recvs(struct ctrl *c)
{
	for (int k = 0; k < CM_CTL_RECV; k++)
		if (cm_post_ctl_recv(c, k) != 0)
			return -1;
	return 0;
}

int cm_create_ctl_qp(struct ctrl *c, struct ibv_pd *pd, struct ibv_context *ctx)
{
	struct ibv_qp_init_attr init;
	size_t len = (size_t)(CM_CTL_RECV + 2) * CM_MSG_MAX;

	cm_of(c)->buf = calloc(1, len);
	if (cm_of(c)->buf == NULL) {
		con_error(_("分配控制QP缓冲区失败\n"));
		return -1;
	}
	cm_of(c)->mr = ibv_reg_mr(pd, cm_of(c)->buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (cm_of(c)->mr == NULL) {
		verbs_error(_("ibv_reg_mr(控制QP)"), errno, _("ulimit -l 太小？"));
		return -1;
	}
	cm_of(c)->scq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	cm_of(c)->rcq = cm_of(c)->scq ? ibv_create_cq(ctx, CM_CTL_RECV, NULL, NULL, 0) : NULL;
	if (cm_of(c)->rcq == NULL) {
		verbs_error(_("ibv_create_cq(控制QP)"), errno, _("设备资源耗尽？"));
		return -1;
	}
	init = (struct ibv_qp_init_attr){
		.qp_type = IBV_QPT_RC,
		.send_cq = cm_of(c)->scq,
		.recv_cq = cm_of(c)->rcq,
		.cap = { .max_send_wr = 2, .max_recv_wr = CM_CTL_RECV, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	cm_of(c)->qp = ibv_create_qp(pd, &init);
	if (cm_of(c)->qp == NULL) {
		verbs_error(_("ibv_create_qp(控制QP)"), errno, _("设备资源耗尽？"));
		return -1;
	}
	con_printf(_("控制QP: qp_num=0x%06x（自己的两个小CQ和 %d 字节的MR；只传 HELLO 和同步消息）\n"),
		   cm_of(c)->qp->qp_num, (int)len);
	return 0;
}

/* 等一个发送完成（不会混进接收：接收在另一个 CQ） */
static int wait_ctl_send(struct ctrl *c)
{
	long long deadline = now_ms() + c->opt->timeout_ms;
	struct ibv_wc wc;

	for (;;) {
		struct pollfd pfd = { .fd = cm_of(c)->ch->fd, .events = POLLIN };
		int r = ibv_poll_cq(cm_of(c)->scq, 1, &wc);

		if (r < 0) {
			con_error(_("ibv_poll_cq(控制QP) 失败\n"));
			return -1;
		}
		if (r == 1) {
			if (wc.status == IBV_WC_SUCCESS)
				return 0;
			con_error(_("控制消息发送失败: %s\n" CON_HINT "对端已经退出？看看对端的输出\n"),
				    ibv_wc_status_str(wc.status));
			return -1;
		}
		if (now_ms() > deadline) {
			con_error(_("控制消息 %d 秒内没发出去\n" CON_HINT "对端卡住或已退出？看看对端的输出\n"),
				    c->opt->timeout_ms / 1000);
			return -1;
		}
		(void)poll(&pfd, 1, 1);   /* 只是让出 1 ms；事件留给 ctl_recv 去读 */
	}
}

static int ctl_send(struct ctrl *c, const uint8_t *data, size_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)send_slot(c), .length = (uint32_t)len, .lkey = cm_of(c)->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;
	int rc;

	if (cm_of(c)->disconnected) {
		con_error(_("对端已断开（RDMA_CM_EVENT_DISCONNECTED），不能再发控制消息\n" CON_HINT "看看对端的输出\n"));
		return -1;
	}
	memcpy(send_slot(c), data, len);
	rc = ibv_post_send(cm_of(c)->qp, &wr, &bad);
	if (rc != 0) {
		verbs_error(_("ibv_post_send(控制QP)"), rc, _("QP 不在 RTS？"));
		return -1;
	}
	return wait_ctl_send(c);
}

/* 看接收 CQ：有消息就放进暂存槽（重新投递那个接收）并返回 1；出错 -1 */
static int take_ctl_recv(struct ctrl *c)
{
	struct ibv_wc wc;
	int r;

	if (cm_of(c)->have_msg)
		return 1;
	r = ibv_poll_cq(cm_of(c)->rcq, 1, &wc);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	if (wc.status != IBV_WC_SUCCESS) {
		con_error(_("控制QP接收失败: %s\n" CON_HINT "对端已经退出？\n"), ibv_wc_status_str(wc.status));
		return -1;
	}
	memcpy(stash_slot(c), recv_slot(c, (int)wc.wr_id), wc.byte_len);
	cm_of(c)->msg_len = wc.byte_len;
	cm_of(c)->have_msg = 1;
	return cm_post_ctl_recv(c, (int)wc.wr_id) == 0 ? 1 : -1;
}

/*
 * 取下一条控制消息（最多等 -t）；对端断开是错误。
 * 对端发完最后一条消息（它的 SEND 已完成 = 我们的网卡已确认收下）就退出，DREQ 紧跟着到达：
 * 看到 DISCONNECTED 之后要再看一次接收 CQ，先取走断开之前已经到了的消息。
 */
static int ctl_recv(struct ctrl *c, const char *what)
{
	long long deadline = now_ms() + c->opt->timeout_ms;

	for (;;) {
		int gone = cm_of(c)->disconnected;
		int r = take_ctl_recv(c);

		if (r < 0)
			return -1;
		if (r == 1) {
			cm_of(c)->have_msg = 0;
			return 0;
		}
		if (gone) {
			con_error(_("等%s时对端断开了连接（RDMA_CM_EVENT_DISCONNECTED）\n"
				    CON_HINT "对端异常退出了？看看对端的输出（常见：两端参数不一致）\n"), what);
			return -1;
		}
		if (cm_check_events(c, 1))
			continue;   /* 再看一次接收 CQ */
		if (now_ms() > deadline) {
			con_error(_("等对端的%s超时（%d 秒）\n" CON_HINT "对端是否卡住或已崩溃？看看对端的输出；必要时用 -t 加大超时\n"),
				    what, c->opt->timeout_ms / 1000);
			return -1;
		}
	}
}

/* ---------- ctrl_ops：HELLO 与同步消息走控制QP ---------- */

int cm_exchange_hello(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote)
{
	uint8_t buf[WIRE_MAX_LEN];
	size_t n = wire_encode_hello(local, buf, sizeof(buf));
	char msg[256];

	con_printf(_("（--cm：连接信息走控制QP的 SEND；QPN/PSN 已由 CM 交换，这里主要是单边操作要的 addr/rkey/slot）\n"));
	if (n == 0 || ctl_send(c, buf, n) != 0 || ctl_recv(c, _("连接信息")) != 0)
		return -1;
	if (wire_decode_hello(stash_slot(c), cm_of(c)->msg_len, remote, msg, sizeof(msg)) != WIRE_OK) {
		con_error(_("对端发来的连接信息无效: %s\n"), msg);
		return -1;
	}
	return 0;
}

int cm_sync_send(struct ctrl *c, uint32_t tag)
{
	uint8_t buf[WIRE_SYNC_LEN];

	wire_encode_sync(tag, buf);
	return ctl_send(c, buf, sizeof(buf));
}

int cm_sync_wait(struct ctrl *c, uint32_t tag)
{
	int r;

	do {    /* 心跳（对端还在干活）：接着等，-t 重新算 */
		if (ctl_recv(c, _("同步消息")) != 0)
			return -1;
		r = ctrl_check_sync(stash_slot(c), cm_of(c)->msg_len, tag);
	} while (r == 1);
	return r;
}

int cm_poll_peer(struct ctrl *c, int wait_ms)
{
	long long deadline = now_ms() + wait_ms;

	do {
		int r = take_ctl_recv(c);

		if (r != 0)
			return r;
		if (cm_of(c)->disconnected || cm_check_events(c, 1))
			return 1;
	} while (now_ms() < deadline);
	return 0;
}

/* --cm 的控制平面（ctrl.h 的 ctrl_ops）：建连、本端地址、关闭和释放是 CM 的事（cm_control.c），HELLO 和同步消息走控制QP（本文件） */
static const struct ctrl_ops cm_ops = {
	.establish = cm_establish,
	.exchange_hello = cm_exchange_hello,
	.sync_send = cm_sync_send,
	.sync_wait = cm_sync_wait,
	.poll_peer = cm_poll_peer,
	.local_ipv4 = cm_local_ipv4,
	.close = cm_close,
	.release = cm_release,
};

int ctrl_cm_init(struct ctrl *c, const struct options *opt)
{
	return ctrl_begin(c, &cm_ops, opt, sizeof(struct ctrl_cm)) != NULL ? 0 : -1;
}
