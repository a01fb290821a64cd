/*
 * events.c - 设备的异步事件（见 events.h）
 */
#include "runs/events.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>

#include "console/clock.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/datapath.h"
#include "verbs/qp_print.h"

int events_setup(struct rdma_conn *conn)
{
	int fd = conn->dev->ctx->async_fd;
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		verbs_error("fcntl(async_fd, O_NONBLOCK)", errno, _("设备的异步事件 fd 设置失败"));
		return -1;
	}
	return 0;
}

int srq_arm_limit(struct rdma_conn *conn, uint32_t limit)
{
	struct ibv_srq_attr attr = { .srq_limit = limit };
	int rc = ibv_modify_srq(conn->srq, &attr, IBV_SRQ_LIMIT);

	if (rc != 0) {
		verbs_error("ibv_modify_srq(IBV_SRQ_LIMIT)", rc, _("limit 不能超过 SRQ 的深度；设备不支持 SRQ 限位事件？"));
		return -1;
	}
	con_printf(_("SRQ 限位已装上（ibv_modify_srq IBV_SRQ_LIMIT=%u）：SRQ 里的接收请求少于 %u 个时，设备的异步事件 fd 上来一个\n"
		   "  IBV_EVENT_SRQ_LIMIT_REACHED（只来一次，要再装）。真实的服务端靠它及时补充接收请求，不让对端碰上 RNR\n"),
		   limit, limit);
	return 0;
}

const char *event_hint(enum ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_SRQ_LIMIT_REACHED:
		return _("SRQ 里的接收请求少于限位：该补充接收了（ibv_post_srq_recv），然后重新装限位");
	case IBV_EVENT_SRQ_ERR:
		return _("SRQ 出错，不能再用：销毁重建");
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return _("用 SRQ 的 QP 进入 ERR 后不会再从 SRQ 取接收请求了：现在可以安全地销毁这个 QP");
	case IBV_EVENT_QP_FATAL:
		return _("QP 出了致命错误（本端网卡处理它的队列时失败），QP 已进入 ERR：看 dmesg，重建这个 QP");
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
		return _("对端发来的请求无效或越权，QP 已进入 ERR：对照两端的 rkey/地址/操作");
	case IBV_EVENT_PORT_ERR:
		return _("端口不再 ACTIVE（网线、网卡 down、rxe 绑定的网卡被删）：ip link、./diagnose.sh");
	case IBV_EVENT_PORT_ACTIVE:
		return _("端口恢复 ACTIVE");
	case IBV_EVENT_GID_CHANGE:
		return _("GID 表变了（网卡的 IP 地址增删）：正在用的 GID 索引可能已经指向别的地址，./show_gids.sh");
	case IBV_EVENT_DEVICE_FATAL:
		return _("设备致命错误：所有资源都不能用了，看 dmesg");
	case IBV_EVENT_CQ_ERR:
		return _("CQ 溢出或出错：CQ 的容量要装得下所有在途 WR 的完成");
	default:
		return _("看 ibv_event_type_str 的名字和 dmesg");
	}
}

/* 打印一个事件是关于谁的 */
static void print_event(struct rdma_conn *conn, const struct ibv_async_event *ev)
{
	const char *name = ibv_event_type_str(ev->event_type);

	switch (ev->event_type) {
	case IBV_EVENT_SRQ_LIMIT_REACHED:
	case IBV_EVENT_SRQ_ERR:
		con_printf(_("异步事件: %s（SRQ %s）\n"), name, ev->element.srq == conn->srq ? _("就是本连接的 SRQ") : _("不是本连接的"));
		break;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
		con_printf(_("异步事件: %s（QP qp_num=0x%06x）\n"), name, ev->element.qp->qp_num);
		break;
	case IBV_EVENT_CQ_ERR:
		con_printf(_("异步事件: %s（CQ）\n"), name);
		break;
	default:
		con_printf(_("异步事件: %s（端口 %d）\n"), name, ev->element.port_num);
		break;
	}
	con_printf(_("  说明: %s\n"), event_hint(ev->event_type));
}

/* 最多等到 deadline 取一个异步事件：1 = 取到了 ev（调用方打印并 ibv_ack_async_event），0 = 到时间了，-1 = 出错 */
static int next_event(struct rdma_conn *conn, struct ibv_async_event *ev, long long deadline)
{
	struct pollfd pfd = { .fd = conn->dev->ctx->async_fd, .events = POLLIN };

	for (;;) {
		long long left = deadline - now_ms();
		int r = poll(&pfd, 1, left < 0 ? 0 : (int)left);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			verbs_error("poll(async_fd)", errno, _("设备的异步事件 fd 出错"));
			return -1;
		}
		if (r == 0)
			return 0;
		if (ibv_get_async_event(conn->dev->ctx, ev) == 0)
			return 1;
		if (errno != EAGAIN) {
			verbs_error("ibv_get_async_event()", errno, _("设备的异步事件 fd 出错"));
			return -1;
		}
	}
}

int events_poll(struct rdma_conn *conn, enum ibv_event_type want, int wait_ms)
{
	long long deadline = now_ms() + wait_ms;
	int seen = 0;

	for (;;) {
		struct ibv_async_event ev;
		int r = next_event(conn, &ev, seen ? 0 : deadline);

		if (r <= 0)
			return r < 0 ? -1 : seen;
		print_event(conn, &ev);
		seen |= ev.event_type == want;
		ibv_ack_async_event(&ev);
	}
}

/* 等 n 个QP各自的 IBV_EVENT_QP_LAST_WQE_REACHED，最多到 deadline；返回等到了几个QP的 */
static int wait_last_wqe(struct rdma_conn *conn, int n, long long deadline)
{
	unsigned char got[MAX_QP] = { 0 };
	int k = 0;

	while (k < n) {
		struct ibv_async_event ev;
		int i;

		if (next_event(conn, &ev, deadline) <= 0)
			break;
		print_event(conn, &ev);
		i = ev.event_type == IBV_EVENT_QP_LAST_WQE_REACHED ? qp_index_of(conn, ev.element.qp->qp_num) : -1;
		if (i >= 0 && !got[i]) {
			got[i] = 1;
			k++;
		}
		ibv_ack_async_event(&ev);
	}
	return k;
}

int srq_release_qps(struct rdma_conn *conn, int wait_ms)
{
	long long t0 = now_ms();
	int n = 0, k;

	for (int i = 0; i < conn->num_qp; i++)
		if (conn->qp[i] != NULL && modify_qp_to_err(conn, i) == 0)
			n++;
	if (n == 0)
		return 0;
	k = wait_last_wqe(conn, n, t0 + wait_ms);
	con_printf(_("用 SRQ 的 %d 个QP已改到 ERR（ibv_modify_qp），%lld ms 内 %d 个收到了 IBV_EVENT_QP_LAST_WQE_REACHED\n"),
		   n, now_ms() - t0, k);
	if (k == n)
		con_explain(_("这个事件说：SRQ 不会再把接收请求交给这个QP、它也不会再产生接收完成了——现在销毁它是安全的\n"));
	else
		con_explain(_("规则（ibv_get_async_event(3)）：用 SRQ 的QP先改到 ERR，等到它的 LAST_WQE_REACHED 再销毁，否则 SRQ 里的接收\n"
			      "        可能还在交给一个正在销毁的QP。硬件网卡会发这个事件；5.10、6.1 的 rxe 不发，6.12 的发（实测，docs/QP-TYPES.md），\n"
			      "        所以这里最多等 %d ms 就销毁\n"), wait_ms);
	return k;
}
