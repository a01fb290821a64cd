/*
 * events.c - 设备的异步事件（见 events.h）
 */
#include "events.h"
#include "i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>

#include "clock.h"
#include "conout.h"
#include "console.h"

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

int events_poll(struct rdma_conn *conn, enum ibv_event_type want, int wait_ms)
{
	struct pollfd pfd = { .fd = conn->dev->ctx->async_fd, .events = POLLIN };
	long long deadline = now_ms() + wait_ms;
	int seen = 0;

	for (;;) {
		struct ibv_async_event ev;
		long long left = deadline - now_ms();
		int r = poll(&pfd, 1, seen || left < 0 ? 0 : (int)left);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			verbs_error("poll(async_fd)", errno, _("设备的异步事件 fd 出错"));
			return -1;
		}
		if (r == 0)
			return seen;
		if (ibv_get_async_event(conn->dev->ctx, &ev) != 0) {
			if (errno == EAGAIN)
				continue;
			verbs_error("ibv_get_async_event()", errno, _("设备的异步事件 fd 出错"));
			return -1;
		}
		print_event(conn, &ev);
		seen |= ev.event_type == want;
		ibv_ack_async_event(&ev);
	}
}
