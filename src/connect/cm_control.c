/*
 * cm_control.c - 控制平面的 librdmacm（RDMA CM）实现：--cm
 *
 * 控制平面只是一条消息通道（和 ctrl_tcp.c 一样：建立、HELLO、同步消息、对端还在不在、关闭）。
 * 在 --cm 下“建立”就是 CM 的第一步：服务端 rdma_bind_addr/rdma_listen 等到第一个连接请求，客户端
 * rdma_resolve_addr/rdma_resolve_route；这一步决定了用哪个设备。数据QP怎样经 CM 建连在 cm_qps.c，
 * 它用这里的事件等待、地址解析和连接请求的检查（cm_shared.h）。
 *
 * 一个数据QP一个 rdma_cm_id（RC 连接本来就是一对QP，一个 cm_id 管一条连接），另加一个“控制连接”。
 *
 * 单边操作要的 addr/rkey/slot 和每轮的同步消息怎么传？——控制QP上的 SEND，不用 CM 的 private data：
 *   - private data 太小：rdma_connect 最多 56 字节（IB CM REQ 的 92 字节减去 36 字节 rdma_cm 头），
 *     rdma_accept 最多 196 字节，而且接收方总是看到 56 字节（长度不传，要自己在里面写长度）；
 *     16 个QP的 HELLO 是 492 字节，塞不下；
 *   - private data 只在建连时传一次，而同步消息（READY/DONE/ACK/BYE）整个运行期间都要；
 *   - 数据QP的接收队列和 CQ 归数据面（op_rounds.c 按个数数完成），混进控制消息就要改每个操作的计数。
 * 所以另建一个小小的控制QP（自己的 CQ、自己的 cm_id），上面跑的就是 TCP 模式的同一套 wire.c 消息，
 * rdma_common.c 和 op_rounds.c 一行不用改。private data 只放一条 20 字节的“自我介绍”（struct cm_priv：
 * 魔数、版本、长度、这是第几条连接、QP个数、操作、会话号），服务端据此把连接请求对应到 QP，并拒绝陌生的对端：
 * 一个会话的请求都来自第一个请求的地址、带同一个会话号，别的客户端的请求只被拒绝，本会话照常（cm_request_verdict）。
 *
 * 所有等待都有超时（-t；服务端等第一个请求用 --accept-timeout）。地址/路由解析给 CM 的超时是 2 秒：
 * 单机实验室里邻居表是冷的时候，解析恰好要等满这个超时才成功（docs/dev/cm-facts/FACTS.md A.3）。
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

#define CM_RESOLVE_MS   2000            /* rdma_resolve_addr/route 的超时 */
#define CM_MSG_MAX      512             /* 一条控制消息的上限（≥ WIRE_MAX_LEN） */
#define CM_PRIV_MAGIC   0x52434d31u     /* "RCM1" */
#define CM_PRIV_VERSION 2               /* 2：加了会话号（20 字节） */

_Static_assert(sizeof(struct cm_priv) == 20, "cm_priv 必须是 20 字节");
_Static_assert(WIRE_MAX_LEN <= CM_MSG_MAX, "控制消息槽放不下最大的 HELLO");

static int port_of(const struct ctrl *c)
{
	return c->opt->tcp_port;
}

void cm_priv_encode(struct cm_priv *p, int index, int num_qp, int op, int reason, uint32_t nonce)
{
	memset(p, 0, sizeof(*p));
	p->magic = htonl(CM_PRIV_MAGIC);
	p->version = htons(CM_PRIV_VERSION);
	p->len = htons(sizeof(*p));
	p->index = htons((uint16_t)index);
	p->num_qp = htons((uint16_t)num_qp);
	p->op = (uint8_t)op;
	p->reason = (uint8_t)reason;
	p->nonce = htonl(nonce);
}

/* 解码对端的 private data；不是本项目的格式返回 -1 */
static int priv_decode(const void *data, uint8_t len, struct cm_priv *p)
{
	if (data == NULL || len < sizeof(*p))
		return -1;
	memcpy(p, data, sizeof(*p));
	if (ntohl(p->magic) != CM_PRIV_MAGIC || ntohs(p->version) != CM_PRIV_VERSION ||
	    ntohs(p->len) != sizeof(*p))
		return -1;
	p->index = ntohs(p->index);
	p->num_qp = ntohs(p->num_qp);
	p->nonce = ntohl(p->nonce);
	return 0;
}

const char *cm_addr_str(const struct sockaddr *sa, char *out, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (sa != NULL && sa->sa_family == AF_INET) {
		const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)sa;

		inet_ntop(AF_INET, &a->sin_addr, ip, sizeof(ip));
		port = ntohs(a->sin_port);
	} else if (sa != NULL && sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)sa;

		inet_ntop(AF_INET6, &a->sin6_addr, ip, sizeof(ip));
		port = ntohs(a->sin6_port);
	}
	snprintf(out, len, "%s:%d", ip, port);
	return out;
}

/* 地址 ip 在哪块网卡上（getifaddrs）；没有返回 -1 */
static int netdev_of(const char *ip, char *ifname, size_t len)
{
	struct ifaddrs *ifa, *p;
	struct in_addr want;
	int rc = -1;

	if (inet_pton(AF_INET, ip, &want) != 1 || getifaddrs(&ifa) != 0)
		return -1;
	for (p = ifa; p != NULL; p = p->ifa_next) {
		if (p->ifa_addr != NULL && p->ifa_addr->sa_family == AF_INET &&
		    ((struct sockaddr_in *)(void *)p->ifa_addr)->sin_addr.s_addr == want.s_addr) {
			snprintf(ifname, len, "%s", p->ifa_name);
			rc = 0;
			break;
		}
	}
	freeifaddrs(ifa);
	return rc;
}

/*
 * rdma_bind_addr / rdma_resolve_addr 失败的解释。ENODEV 的真实原因（内核 cma.c，实验室里验证过，
 * 见 docs/dev/cm-facts/FACTS.md A.1）：内核先找到拥有这个 IP 的网卡，再逐个 RDMA 设备的端口找
 * “GID = ::ffff:IP、类型 RoCE v2、绑定的正是这块网卡”的 GID 条目；找不到就是 ENODEV。
 * 也就是说：地址本身存在，但它所在的网卡上没有 RDMA（rxe）设备。
 */
static void bind_error(const char *call, int err, const char *ip)
{
	char ifname[64] = "";
	char hint[768];

	if (err == ENODEV) {
		int have_if = ip != NULL && netdev_of(ip, ifname, sizeof(ifname)) == 0;

		snprintf(hint, sizeof(hint),
			 _("地址 %s%s%s%s 上没有 RDMA 设备：内核在每个 RDMA 设备端口的 GID 表里找 ::ffff:%s（RoCE v2、"
			 "绑定同一块网卡）的条目，一个也没有，于是 ENODEV。rdma link show 看哪些网卡有 rxe；"
			 "修复: sudo rdma link add rxe_%s type rxe netdev %s，或换成 rxe 网卡上的地址（--src / -d）；"
			 "./diagnose.sh --cm-addr %s"),
			 ip ? ip : "?", have_if ? _(" 在网卡 ") : "", have_if ? ifname : "", have_if ? "" : _("（所在网卡）"),
			 ip ? ip : "IP", have_if ? ifname : "X", have_if ? ifname : _("<网卡>"), ip ? ip : "<IP>");
	} else if (err == EADDRNOTAVAIL) {
		snprintf(hint, sizeof(hint), _("本机没有地址 %s（ip -4 addr 查看）；--src 要写本机的地址，不是对端的"),
			 ip ? ip : "?");
	} else if (err == EADDRINUSE) {
		snprintf(hint, sizeof(hint), _("RDMA CM 端口 %s 已被占用（另一个 rdma_server --cm 还在运行？）；换端口 -p"),
			 ip ? ip : "?");
	} else {
		snprintf(hint, sizeof(hint), _("./diagnose.sh --cm-addr <IP> 检查这个地址和 CM 的内核模块"));
	}
	verbs_error(call, err, hint);
}

/* ---------- 事件 ---------- */

static void print_event(const struct rdma_cm_event *ev, long long waited)
{
	con_printf(_("  CM事件: %s（status=%d，等了 %lld ms）\n"), rdma_event_str(ev->event), ev->status, waited);
}

/*
 * 客户端的几个 cm_id 一起 rdma_connect：服务端对第一个到达的请求 rdma_reject（带原因）后就退出，
 * 其余请求由服务端的内核拒绝（status=28 = IB_CM_REJ_CONSUMER_DEFINED，没有 private data）。先到的未必是带原因的那个，
 * 所以再看一眼事件通道（最多 REASON_WAIT_MS），找带原因的 REJECTED。找到返回 0。
 */
#define REASON_WAIT_MS 500
static int pending_reason(struct ctrl *c, struct cm_priv *p)
{
	long long deadline = now_ms() + REASON_WAIT_MS;
	int found = -1;

	while (found != 0 && now_ms() < deadline) {
		struct pollfd pfd = { .fd = cm_of(c)->ch->fd, .events = POLLIN };
		struct rdma_cm_event *ev;

		if (poll(&pfd, 1, (int)(deadline - now_ms())) <= 0 || rdma_get_cm_event(cm_of(c)->ch, &ev) != 0)
			break;
		if (ev->event == RDMA_CM_EVENT_REJECTED)
			found = priv_decode(ev->param.conn.private_data, ev->param.conn.private_data_len, p);
		rdma_ack_cm_event(ev);
	}
	return found;
}

/* 对端拒绝：是本项目的服务端（private data 里有 cm_priv）就说出原因 */
static void explain_reject(struct ctrl *c, const struct rdma_cm_event *ev)
{
	struct cm_priv p;

	if (priv_decode(ev->param.conn.private_data, ev->param.conn.private_data_len, &p) == 0 ||
	    (ev->status == 28 && pending_reason(c, &p) == 0)) {
		if (p.reason == CM_REJ_NUM_QP)
			con_error(_("服务端拒绝了连接：QP数量不一致（服务端 %u 个，本端 %d 个）\n"
				    CON_HINT "两端用相同的 -q\n"), p.num_qp, c->opt->num_qp);
		else if (p.reason == CM_REJ_OP)
			con_error(_("服务端拒绝了连接：操作不一致（服务端 --op %s，本端 --op %s）\n"
				    CON_HINT "两端用相同的 --op\n"), op_name((enum rdma_op)p.op), op_name(c->opt->op));
		else if (p.reason == CM_REJ_BUSY)
			con_error(_("服务端拒绝了连接：它正在服务另一个客户端（--cm 的服务端一次只服务一个）\n"
				    CON_HINT "等那个客户端结束、服务端重新启动后再连；要同时服务多个客户端，用 TCP 控制平面的 --clients N\n"));
		else
			con_error(_("服务端拒绝了连接（原因 %u：连接请求的序号不对或服务端出错）\n" CON_HINT "看看服务端的输出\n"), p.reason);
		return;
	}
	if (ev->status == 8)   /* IB_CM_REJ_INVALID_SERVICE_ID：对端没有人在这个端口监听 */
		con_error(_("连接被拒绝（RDMA_CM_EVENT_REJECTED，status=8 = IB_CM_REJ_INVALID_SERVICE_ID）："
			    "服务端的 RDMA CM 端口 %d 上没有人监听\n"
			    CON_HINT "服务端启动了吗？它也用了 --cm 吗（不带 --cm 的服务端只监听 TCP）？两端的 -p 一致吗？\n"),
			    port_of(c));
	else
		con_error(_("连接被拒绝（RDMA_CM_EVENT_REJECTED，status=%d）\n"
			    CON_HINT "对端不是本项目的 rdma_server --cm？看看对端的输出\n"), ev->status);
}

static void explain_event_error(struct ctrl *c, const struct rdma_cm_event *ev, const char *what)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_REJECTED:
		explain_reject(c, ev);
		return;
	case RDMA_CM_EVENT_ADDR_ERROR:
		if (ev->status == -ETIMEDOUT)
			con_error(_("解析地址超时（RDMA_CM_EVENT_ADDR_ERROR，status=-110 ETIMEDOUT，%d ms）：没有主机回答 %s 的 ARP\n"
				    CON_HINT "服务端 IP 写对了吗？ping %s；./diagnose.sh --peer %s\n"),
				    CM_RESOLVE_MS, c->opt->server_ip, c->opt->server_ip, c->opt->server_ip);
		else if (ev->status == -ENODEV)
			con_error(_("解析地址失败（RDMA_CM_EVENT_ADDR_ERROR，status=-19 ENODEV）：去往 %s 的路由出口网卡上没有 RDMA 设备\n"
				    CON_HINT "ip route get %s 看出口网卡；rdma link show 看哪些网卡有 rxe；用 --src/-d 指定 rxe 网卡上的地址\n"),
				    c->opt->server_ip, c->opt->server_ip);
		else
			con_error(_("解析地址失败（RDMA_CM_EVENT_ADDR_ERROR，status=%d）\n" CON_HINT "ip route get %s；./diagnose.sh --peer %s\n"),
				    ev->status, c->opt->server_ip, c->opt->server_ip);
		return;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		con_error(_("解析路由失败（RDMA_CM_EVENT_ROUTE_ERROR，status=%d）\n" CON_HINT "ip route get %s；./diagnose.sh --peer %s\n"),
			    ev->status, c->opt->server_ip, c->opt->server_ip);
		return;
	case RDMA_CM_EVENT_UNREACHABLE:
		con_error(_("对端不可达（RDMA_CM_EVENT_UNREACHABLE，status=%d）：CM 的连接请求（UDP 4791）没有回应\n"
			    CON_HINT "对端机器有 RDMA 设备吗（rdma link show）？防火墙放行 UDP 4791 了吗？\n"), ev->status);
		return;
	case RDMA_CM_EVENT_DISCONNECTED:
		con_error(_("对端断开了连接（RDMA_CM_EVENT_DISCONNECTED）\n"
			    CON_HINT "对端异常退出了？看看对端的输出（进程退出时内核替它发 DREQ，这边就收到这个事件）\n"));
		return;
	default:
		con_error(_("等%s时收到意外的 CM 事件 %s（status=%d）\n" CON_HINT "看看对端的输出\n"),
			    what, rdma_event_str(ev->event), ev->status);
	}
}

/*
 * 本端已经有了客户端，又来一个连接请求（另一个客户端）：rdma_reject 并销毁它的 cm_id。
 * 不理它的话，librdmacm 为它建的 cm_id 一直留着（泄漏），那个客户端也要一直等到自己超时。
 * 先 ack 事件再 rdma_destroy_id：销毁一个 cm_id 要等它的事件都 ack 完。
 */
static void refuse_stray(struct ctrl *c, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct cm_priv rej;
	char a[96];

	con_eprintf(_("注意: 又来了一个连接请求（来自 %s），它不属于本端正在服务（或正在建连）的客户端：拒绝它（rdma_reject）并销毁它的 cm_id\n"),
		    cm_addr_str(rdma_get_peer_addr(id), a, sizeof(a)));
	cm_priv_encode(&rej, 0, c->opt->num_qp, c->opt->op, CM_REJ_BUSY, 0);
	if (rdma_reject(id, &rej, sizeof(rej)) != 0)
		verbs_error("rdma_reject()", errno, _("那个客户端可能已经走了；本端的会话不受影响"));
	rdma_ack_cm_event(ev);
	if (rdma_destroy_id(id) != 0)
		verbs_error("rdma_destroy_id()", errno, _("不应发生；dmesg 看看"));
}

/*
 * 等一个 want 类型的事件，最多 timeout_ms 毫秒。成功时 *out 是事件（调用者 rdma_ack_cm_event）。
 * 其它类型的事件是错误（打印原因和提示，已 ack）；只有 ESTABLISHED / TIMEWAIT_EXIT 这类“迟到的好消息”被跳过。
 */
static int wait_event(struct ctrl *c, enum rdma_cm_event_type want, int timeout_ms, const char *what,
		      struct rdma_cm_event **out)
{
	long long start = now_ms(), deadline = start + timeout_ms;

	for (;;) {
		struct pollfd pfd = { .fd = cm_of(c)->ch->fd, .events = POLLIN };
		long long left = deadline - now_ms();
		struct rdma_cm_event *ev;
		int r;

		if (left < 0)
			left = 0;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			verbs_error(_("poll(CM事件通道)"), errno, _("不应发生"));
			return -1;
		}
		if (r == 0) {
			con_error(_("等%s超时（%d 秒内没有 %s 事件）\n"), what, timeout_ms / 1000, rdma_event_str(want));
			return -1;
		}
		if (rdma_get_cm_event(cm_of(c)->ch, &ev) != 0) {
			verbs_error("rdma_get_cm_event()", errno, _("事件通道出错；dmesg 看看"));
			return -1;
		}
		print_event(ev, now_ms() - start);
		if (ev->event == want) {
			*out = ev;
			return 0;
		}
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			refuse_stray(c, ev);
			continue;
		}
		if (ev->event == RDMA_CM_EVENT_ESTABLISHED || ev->event == RDMA_CM_EVENT_TIMEWAIT_EXIT) {
			rdma_ack_cm_event(ev);
			continue;
		}
		if (ev->event == RDMA_CM_EVENT_DISCONNECTED)
			cm_of(c)->disconnected = 1;
		explain_event_error(c, ev, what);
		rdma_ack_cm_event(ev);
		return -1;
	}
}

/* 等一个事件并立即 ack（只要知道它来了） */
int cm_wait_event_ack(struct ctrl *c, enum rdma_cm_event_type want, int timeout_ms, const char *what,
			  struct rdma_cm_id **id)
{
	struct rdma_cm_event *ev;

	if (wait_event(c, want, timeout_ms, what, &ev) != 0)
		return -1;
	if (id != NULL)
		*id = ev->id;
	rdma_ack_cm_event(ev);
	return 0;
}

/* ---------- 地址 ---------- */

/* -d DEV 在 --cm 下的意思：DEV 端口上 RoCE v2 IPv4 GID 的地址 */
static int addr_of_device(struct ctrl *c, char *ip, size_t len)
{
	int n = 0, active = 0, rc = -1;
	struct ibv_device **list = ibv_get_device_list(&n);
	struct gid_info *tbl = NULL;
	size_t ng = 0;
	char why[256] = "";

	if (list == NULL) {
		verbs_error("ibv_get_device_list()", errno, _("没有 RDMA 设备？./diagnose.sh"));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int best;

		if (strcmp(ibv_get_device_name(list[i]), c->opt->dev_name) != 0)
			continue;
		if (device_port_gids(list[i], c->opt->ib_port, &active, &tbl, &ng, why, sizeof(why)) != 0)
			break;
		best = gid_choose(tbl, ng);
		if (best >= 0 && gid_score(&tbl[best]) >= 6) {
			char g[GID_IP_LEN];

			gid_to_ip(tbl[best].raw, g);
			snprintf(ip, len, "%s", g);
			con_printf(_("-d %s → 本端地址 %s（%s 端口%d 的 RoCE v2 IPv4 GID，索引 %u）\n"),
				   c->opt->dev_name, ip, c->opt->dev_name, c->opt->ib_port, tbl[best].index);
			rc = 0;
		} else {
			snprintf(why, sizeof(why), _("端口%d 没有 RoCE v2 IPv4 GID"), c->opt->ib_port);
		}
		break;
	}
	if (rc != 0)
		con_error(_("--cm 需要一个地址，但从 -d %s 得不到: %s\n"
			    CON_HINT "ibv_devices 看设备名，./show_gids.sh 看 GID；或直接用 --src <IP>\n"),
			    c->opt->dev_name, why[0] ? why : _("没有这个设备"));
	free(tbl);
	ibv_free_device_list(list);
	return rc;
}

/* 本端地址（文本）：--src，或 -d 的地址；都没有返回 0 且 ip 为空 */
static int local_addr_text(struct ctrl *c, char *ip, size_t len)
{
	ip[0] = '\0';
	if (c->opt->src_addr != NULL) {
		snprintf(ip, len, "%s", c->opt->src_addr);
		return 0;
	}
	if (c->opt->dev_name != NULL)
		return addr_of_device(c, ip, len);
	return 0;
}

/* rdma_getaddrinfo：passive = 1 得到本端（绑定/源）地址，0 得到对端地址 */
static struct rdma_addrinfo *get_addrinfo(const char *node, int port, int passive)
{
	struct rdma_addrinfo hints, *res = NULL;
	char service[16];

	memset(&hints, 0, sizeof(hints));
	hints.ai_port_space = RDMA_PS_TCP;
	hints.ai_family = AF_INET;
	if (passive)
		hints.ai_flags = RAI_PASSIVE;
	snprintf(service, sizeof(service), "%d", port);
	if (rdma_getaddrinfo(node, service, &hints, &res) != 0) {
		con_error(_("rdma_getaddrinfo(%s) 失败: %s\n" CON_HINT "写 IPv4 地址，例如 10.11.0.1\n"),
			    node ? node : "0.0.0.0", strerror(errno));
		return NULL;
	}
	return res;
}

/* ---------- 建立：服务端监听、客户端解析 ---------- */

static int open_channel(struct ctrl *c)
{
	cm_of(c)->ch = rdma_create_event_channel();
	if (cm_of(c)->ch == NULL) {
		int err = errno;

		verbs_error("rdma_create_event_channel()", err,
			    err == ENOENT ? _("没有 /dev/infiniband/rdma_cm：rdma_ucm 模块没加载（sudo modprobe rdma_ucm）；./diagnose.sh") :
			    err == ENODEV ? _("libibverbs 一个 RDMA 设备也看不到（rdma link show / ibv_devices）；./diagnose.sh") :
			    "./diagnose.sh");
		return -1;
	}
	con_printf(_("rdma_create_event_channel(): fd=%d（打开 /dev/infiniband/rdma_cm；所有 CM 事件从这里读）\n"), cm_of(c)->ch->fd);
	return 0;
}

/* k = -1：控制连接（和监听），k = i：数据QP[i]；k+2 放进 cm_id 的 context，事件里用 cm_index_of 取回 */
int cm_create_id(struct ctrl *c, struct rdma_cm_id **id, int k)
{
	if (rdma_create_id(cm_of(c)->ch, id, (void *)(uintptr_t)(k + 2), RDMA_PS_TCP) != 0) {
		verbs_error("rdma_create_id()", errno, _("资源耗尽？./diagnose.sh"));
		return -1;
	}
	return 0;
}

/* private data 里的序号 index 对应的 cm_id 位置：0 = 控制连接，i+1 = QP[i] */
static struct rdma_cm_id **slot_of(struct ctrl *c, int index)
{
	return index == 0 ? &cm_of(c)->ctl_id : &cm_of(c)->qp_id[index - 1];
}

/* 两个地址的 IP 是否相同（不比端口：同一个客户端的每个 cm_id 端口不同） */
static int same_ip(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (a == NULL || a->sa_family != b->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)(const void *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)(const void *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
			      &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return 0;
}

/* 检查一个连接请求：是本项目的客户端、QP个数和操作一致、序号没重复；不对就 rdma_reject 并说明 */
static int check_request(struct ctrl *c, struct rdma_cm_id *id, const struct cm_priv *p, int ok_priv)
{
	struct cm_priv rej;
	int reason = CM_OK;

	if (!ok_priv) {
		con_error(_("连接请求的 private data 不是本项目的格式（没有魔数 RCM1）\n"
			    CON_HINT "对端不是 rdma_client --cm（例如 rping）？\n"));
		reason = CM_REJ_UNEXPECTED;
	} else if (p->num_qp != c->opt->num_qp) {
		con_error(_("客户端要 %u 个QP，本端 %d 个\n" CON_HINT "两端用相同的 -q\n"), p->num_qp, c->opt->num_qp);
		reason = CM_REJ_NUM_QP;
	} else if (p->op != (uint8_t)c->opt->op) {
		con_error(_("客户端的操作是 %s，本端是 %s\n" CON_HINT "两端用相同的 --op\n"),
			    op_name((enum rdma_op)p->op), op_name(c->opt->op));
		reason = CM_REJ_OP;
	} else if (p->index > c->opt->num_qp || *slot_of(c, p->index) != NULL) {
		con_error(_("连接请求的序号 %u 不对（应是还没连上的 0..%d：0 = 控制连接，i+1 = QP[i]）\n"
			    CON_HINT "看看客户端的输出\n"), p->index, c->opt->num_qp);
		reason = CM_REJ_UNEXPECTED;
	}
	if (reason == CM_OK)
		return 0;
	cm_priv_encode(&rej, 0, c->opt->num_qp, c->opt->op, reason, 0);
	if (rdma_reject(id, &rej, sizeof(rej)) != 0)
		verbs_error("rdma_reject()", errno, _("对端可能已经走了"));
	else
		con_eprintf(_("已 rdma_reject()：客户端会收到 RDMA_CM_EVENT_REJECTED 和上面的原因\n"));
	return -1;
}

/*
 * 服务端：等一个连接请求，按 private data 检查，放进它的位置（控制连接或 QP[i]）。
 * 客户端一起 rdma_connect 所有 cm_id，请求到达的顺序不定，所以哪个先到都行。
 * 成功时 *id 是新的 cm_id（归我们销毁）。
 */
int cm_get_request(struct ctrl *c, int timeout_ms, const char *what, struct rdma_cm_id **id)
{
	long long deadline = now_ms() + timeout_ms;
	struct rdma_cm_event *ev;
	struct cm_priv p;
	char a[96];
	int ok, rc;

	for (;;) {
		long long left = deadline - now_ms();

		if (wait_event(c, RDMA_CM_EVENT_CONNECT_REQUEST, left > 0 ? (int)left : 0, what, &ev) != 0)
			return -1;
		ok = priv_decode(ev->param.conn.private_data, ev->param.conn.private_data_len, &p) == 0;
		/* 不是这个会话的客户端（地址或会话号不同），或者位置已经有人了：拒绝它，接着等自己的客户端 */
		if (cm_request_verdict(cm_of(c)->session_set, cm_of(c)->nonce, same_ip(rdma_get_peer_addr(ev->id), &cm_of(c)->session_addr),
				       ok, &p, ok && p.index <= c->opt->num_qp && *slot_of(c, p.index) != NULL) == CM_REFUSE_STRAY) {
			refuse_stray(c, ev);
			continue;
		}
		break;
	}
	*id = ev->id;
	/* 事件里的值已经换成本端的视角：initiator_depth = 我最多能向客户端发几个（它的 responder_resources） */
	cm_of(c)->peer_rd_atom = ev->param.conn.initiator_depth;
	cm_of(c)->peer_init_rd_atom = ev->param.conn.responder_resources;
	rc = check_request(c, ev->id, &p, ok);
	rdma_ack_cm_event(ev);
	if (rc != 0) {
		if (rdma_destroy_id(*id) != 0)
			verbs_error("rdma_destroy_id()", errno, _("不应发生；dmesg 看看"));
		*id = NULL;
		return -1;
	}
	*slot_of(c, p.index) = *id;
	(*id)->context = (void *)(uintptr_t)(p.index + 1);   /* 与客户端 cm_create_id 的 k+2 一致 */
	if (!cm_of(c)->session_set) {   /* 会话的第一个请求：之后只认这个地址和会话号 */
		cm_of(c)->session_set = 1;
		cm_of(c)->nonce = p.nonce;
		memcpy(&cm_of(c)->session_addr, rdma_get_peer_addr(*id), sizeof(cm_of(c)->session_addr));
		con_printf(_("    会话号 0x%08x：这个客户端其余的连接请求必须来自同一个地址、带同一个会话号，别的一律拒绝\n"), p.nonce);
	}
	if (p.index == 0)
		con_printf(_("    ↑ 控制连接，来自 %s\n"), cm_addr_str(rdma_get_peer_addr(*id), a, sizeof(a)));
	else
		con_printf("    ↑ QP[%d]\n", p.index - 1);
	return 0;
}

static int listen_and_wait(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	const struct options *o = c->opt;
	char ip[64], a[96], b[96];
	struct rdma_addrinfo *ai;
	int rc;

	step_title(w, step, _("RDMA CM: 监听并等待连接请求 rdma_bind_addr/rdma_listen（代替TCP listen/accept）"));
	if (open_channel(c) != 0 || cm_create_id(c, &cm_of(c)->listen_id, -1) != 0 || local_addr_text(c, ip, sizeof(ip)) != 0)
		return -1;
	ai = get_addrinfo(ip[0] ? ip : NULL, o->tcp_port, 1);
	if (ai == NULL)
		return -1;
	rc = rdma_bind_addr(cm_of(c)->listen_id, ai->ai_src_addr);
	if (rc != 0) {
		bind_error("rdma_bind_addr()", errno, ip[0] ? ip : "0.0.0.0");
		rdma_freeaddrinfo(ai);
		return -1;
	}
	rdma_freeaddrinfo(ai);
	con_printf(_("rdma_bind_addr(%s): 成功，%s\n"), cm_addr_str(rdma_get_local_addr(cm_of(c)->listen_id), a, sizeof(a)),
		   cm_of(c)->listen_id->verbs ? _("地址所在的设备是 ") : _("通配地址，还没有设备（设备由连接请求到达的地址决定）"));
	if (cm_of(c)->listen_id->verbs)
		con_printf(_("  设备 %s\n"), ibv_get_device_name(cm_of(c)->listen_id->verbs->device));
	if (rdma_listen(cm_of(c)->listen_id, MAX_QP + 1) != 0) {
		verbs_error("rdma_listen()", errno, "./diagnose.sh");
		return -1;
	}
	con_printf(_("rdma_listen(): 在 RDMA CM 端口 %d 等待客户端连接（最多 %d 秒）...\n"), o->tcp_port,
		   o->accept_timeout_ms / 1000);
	con_explain(_("CM 的端口和 TCP 端口是两个空间；CM 的连接请求是 RoCE 报文（UDP 4791），不是 TCP\n"));
	ctrl_announce_ready(o, "cm");
	cm_of(c)->num_qp = o->num_qp;   /* qp_id[] 里还是 NULL 的项在清理时跳过 */
	if (cm_get_request(c, o->accept_timeout_ms, _("客户端的连接请求"), &cm_of(c)->first) != 0) {
		con_hint(_("客户端启动了吗？它也用了 --cm 吗（不带 --cm 的客户端连的是 TCP 端口）？-p 一致吗？\n"));
		return -1;
	}
	con_printf(_("第一个连接请求: 来自 %s，到达本端 %s（这个地址决定设备）\n"),
		   cm_addr_str(rdma_get_peer_addr(cm_of(c)->first), a, sizeof(a)),
		   cm_addr_str(rdma_get_local_addr(cm_of(c)->first), b, sizeof(b)));
	return 0;
}

/* 客户端：一个 cm_id 的地址解析 + 路由解析 */
int cm_resolve(struct ctrl *c, struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst,
		   const char *src_text, int verbose)
{
	char a[96];

	if (rdma_resolve_addr(id, src, dst, CM_RESOLVE_MS) != 0) {
		bind_error("rdma_resolve_addr()", errno, src_text);
		return -1;
	}
	if (cm_wait_event_ack(c, RDMA_CM_EVENT_ADDR_RESOLVED, CM_RESOLVE_MS + c->opt->timeout_ms, _("地址解析"), NULL) != 0)
		return -1;
	if (verbose)
		con_printf(_("rdma_resolve_addr(): 本端 %s → 设备 %s 端口 %u\n"),
			   cm_addr_str(rdma_get_local_addr(id), a, sizeof(a)), ibv_get_device_name(id->verbs->device),
			   id->port_num);
	if (rdma_resolve_route(id, CM_RESOLVE_MS) != 0) {
		verbs_error("rdma_resolve_route()", errno, _("ip route get <服务端IP>"));
		return -1;
	}
	return cm_wait_event_ack(c, RDMA_CM_EVENT_ROUTE_RESOLVED, CM_RESOLVE_MS + c->opt->timeout_ms, _("路由解析"), NULL);
}

static int resolve_server(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	const struct options *o = c->opt;
	struct rdma_addrinfo *dst, *src = NULL;
	char ip[64];
	int rc;

	step_title(w, step, _("RDMA CM: 解析地址和路由 rdma_resolve_addr/rdma_resolve_route（代替TCP connect）"));
	if (open_channel(c) != 0 || cm_create_id(c, &cm_of(c)->ctl_id, -1) != 0 || local_addr_text(c, ip, sizeof(ip)) != 0)
		return -1;
	cm_of(c)->first = cm_of(c)->ctl_id;
	dst = get_addrinfo(o->server_ip, o->tcp_port, 0);
	if (dst == NULL)
		return -1;
	if (ip[0] != '\0' && (src = get_addrinfo(ip, 0, 1)) == NULL) {
		rdma_freeaddrinfo(dst);
		return -1;
	}
	con_printf(_("服务端 %s，RDMA CM 端口 %d；本端地址: %s\n"), o->server_ip, o->tcp_port,
		   ip[0] ? ip : _("不指定（由路由决定，和 ip route get 一样）"));
	rc = cm_resolve(c, cm_of(c)->ctl_id, src ? src->ai_src_addr : NULL, dst->ai_dst_addr, ip[0] ? ip : NULL, 1);
	rdma_freeaddrinfo(dst);
	if (src != NULL)
		rdma_freeaddrinfo(src);
	if (rc != 0)
		return -1;
	con_explain(_("地址解析 = 找出口网卡和对端 MAC（ARP），出口网卡上的 RDMA 设备就是本端设备；路由解析在 RoCE 上只填路径记录\n"));
	return 0;
}

int cm_establish(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	return c->opt->role == ROLE_SERVER ? listen_and_wait(c, w, step) : resolve_server(c, w, step);
}

/* 查一下 CM 事件（不阻塞）：DISCONNECTED 记下来并返回 1 */
int cm_check_events(struct ctrl *c, int wait_ms)
{
	struct pollfd pfd = { .fd = cm_of(c)->ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	if (poll(&pfd, 1, wait_ms) <= 0 || rdma_get_cm_event(cm_of(c)->ch, &ev) != 0)
		return 0;
	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		print_event(ev, 0);
		refuse_stray(c, ev);
		return cm_of(c)->disconnected;
	}
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
		print_event(ev, 0);
		cm_of(c)->disconnected = 1;
	}
	rdma_ack_cm_event(ev);
	return cm_of(c)->disconnected;
}

int cm_local_ipv4(struct ctrl *c, char *ip, size_t len)
{
	const struct sockaddr *sa = cm_of(c)->ctl_id ? rdma_get_local_addr(cm_of(c)->ctl_id) : NULL;

	if (sa == NULL || sa->sa_family != AF_INET ||
	    inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip, (socklen_t)len) == NULL)
		return -1;
	return 0;
}

/* 清理时的失败不中断清理，只报告（和 rdma_common.c 的 report_destroy 一样）。rdma_* 返回 -1 并设 errno，ibv_destroy_* 直接返回错误码 */
static void report_cm_destroy(const char *call, int rc)
{
	if (rc != 0)
		con_eprintf(_("警告: %s 失败: %s (errno=%d)\n"), call, strerror(rc), rc);
}

static int rdma_rc(int rc) { return rc != 0 ? errno : 0; }

/* 断开（发 DREQ）并释放控制QP；数据QP由 conn_destroy 随后销毁 */
void cm_close(struct ctrl *c)
{
	if (cm_of(c)->established && !cm_of(c)->disconnected) {
		report_cm_destroy(_("rdma_disconnect(控制连接)"), rdma_rc(rdma_disconnect(cm_of(c)->ctl_id)));
		for (int i = 0; i < cm_of(c)->num_qp; i++)
			report_cm_destroy(_("rdma_disconnect(数据QP)"), rdma_rc(rdma_disconnect(cm_of(c)->qp_id[i])));
		con_printf(_("rdma_disconnect(): %d 个 cm_id 各发一个 DREQ（对端收到 RDMA_CM_EVENT_DISCONNECTED）\n"),
			   cm_of(c)->num_qp + 1);
	}
	cm_of(c)->established = 0;
	if (cm_of(c)->qp != NULL) {
		report_cm_destroy(_("ibv_destroy_qp(控制QP)"), ibv_destroy_qp(cm_of(c)->qp));
		cm_of(c)->qp = NULL;
		con_printf(_("已销毁控制QP\n"));
	}
	if (cm_of(c)->rcq != NULL)
		report_cm_destroy(_("ibv_destroy_cq(控制QP的接收CQ)"), ibv_destroy_cq(cm_of(c)->rcq));
	if (cm_of(c)->scq != NULL)
		report_cm_destroy(_("ibv_destroy_cq(控制QP的发送CQ)"), ibv_destroy_cq(cm_of(c)->scq));
	cm_of(c)->rcq = cm_of(c)->scq = NULL;
	if (cm_of(c)->mr != NULL)
		report_cm_destroy(_("ibv_dereg_mr(控制QP的MR)"), ibv_dereg_mr(cm_of(c)->mr));
	cm_of(c)->mr = NULL;
	free(cm_of(c)->buf);
	cm_of(c)->buf = NULL;
}

/* 销毁一个 cm_id（若有）并把指针清零；返回销毁了几个（0 或 1） */
static int destroy_id(struct rdma_cm_id **id)
{
	if (*id == NULL)
		return 0;
	report_cm_destroy("rdma_destroy_id()", rdma_rc(rdma_destroy_id(*id)));
	*id = NULL;
	return 1;
}

/* 设备（PD）释放之后：销毁 cm_id 和事件通道（最后一个 cm_id 走时 librdmacm 关闭它打开的设备） */
void cm_release(struct ctrl *c)
{
	int n = 0;

	for (int i = cm_of(c)->num_qp - 1; i >= 0; i--)
		n += destroy_id(&cm_of(c)->qp_id[i]);
	n += destroy_id(&cm_of(c)->ctl_id);
	n += destroy_id(&cm_of(c)->listen_id);
	if (n > 0)
		con_printf(P_("已销毁 %d 个 cm_id（rdma_destroy_id）\n", "已销毁 %d 个 cm_id（rdma_destroy_id）\n", n), n);
	if (cm_of(c)->ch != NULL) {
		rdma_destroy_event_channel(cm_of(c)->ch);
		cm_of(c)->ch = NULL;
		con_printf(_("已关闭CM事件通道（rdma_destroy_event_channel）\n"));
	}
}
