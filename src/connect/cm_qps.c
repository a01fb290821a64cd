/*
 * cm_qps.c - 数据QP经 librdmacm 建连（--cm，见 cm_qps.h）
 *
 * 和 TCP 模式比，CM 接管了三件事：
 *   1. 用哪个设备（TCP 模式的步骤1-4）：地址决定设备。服务端 rdma_bind_addr 的地址 / 客户端的源地址
 *      在哪个 RDMA 设备的 GID 表里，cm_id->verbs 就是哪个设备（单机实验室里 10.11.0.2 → rxe1）。
 *   2. 交换 QPN 和起始 PSN：在 CM 的 REQ/REP 报文里（走 RoCE 的 UDP 4791，不是 TCP）。
 *   3. RTR/RTS 的属性：rdma_init_qp_attr() 按 CM 得到的路由给出（dest_qp_num、rq_psn、dgid、sgid_index、
 *      path_mtu、timeout …）。我们仍然自己 ibv_modify_qp 并打印、读回（ibv_query_qp），让每次转换都看得见。
 * 事件通道、地址解析、连接请求的检查和控制QP在 cm_control.c（控制平面）；这里只管数据QP的连接。
 */
#include "connect/cm_qps.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "control/adopt.h"
#include "console/clock.h"
#include "connect/cm_shared.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/dev_limits.h"
#include "verbs/gid_table.h"
#include "verbs/qp_print.h"
#include "cli/ack_timeout.h"

/* ---------- 设备：CM 按地址选出（代替步骤1-4） ---------- */

/*
 * 在 GID 表里找 CM 用的源 GID（verbs/gid.c 的 gid_find_cm），记下它：RTR 的 sgid_index、HELLO 的 gid_type 都是它的。
 * cm_index = rdma_init_qp_attr(RTR) 给的 sgid_index；设备这一步还不知道，传 -1
 */
static int adopt_gid(struct rdma_device *dev, const uint8_t sgid[16], int cm_index)
{
	struct gid_info *tbl = NULL;
	size_t n = 0;
	char s[GID_STR_LEN];
	int k;

	if (read_gid_table(dev->ctx, dev->opt->ib_port, dev->port_attr.gid_tbl_len,
			   dev->dev_attr.phys_port_cnt, &tbl, &n) != 0)
		return -1;
	k = gid_find_cm(tbl, n, sgid, cm_index);
	if (k >= 0) {
		dev->gid = tbl[k];
		gid_print_row(&dev->gid, "→ ");
	} else if (cm_index < 0) {
		gid_format(sgid, s);
		con_error(_("CM 用的源GID %s 不在 %s 端口%d 的 GID 表里（RoCE v1 或 v2 的条目）\n"
			CON_HINT "./show_gids.sh 看 GID 表；地址刚改过？稍等 GID 表更新再试\n"), s, dev->dev_name, dev->opt->ib_port);
	} else {
		gid_format(sgid, s);
		con_error(_("rdma_init_qp_attr 给的 sgid_index=%d 在 %s 端口%d 的 GID 表里不是 CM 的源GID %s 的 RoCE 条目\n"
			CON_HINT "./show_gids.sh 看 GID 表；地址刚改过？稍等 GID 表更新再试\n"), cm_index, dev->dev_name,
			dev->opt->ib_port, s);
	}
	free(tbl);
	return k >= 0 ? 0 : -1;
}

/*
 * RTR：rdma_init_qp_attr 给的 sgid_index 才是 CM 真用的条目。mlx5 上同一个地址有 RoCE v1、v2 两项，CM 按
 * default_roce_mode（默认 v2，configfs 可改成 v1）选；和设备那一步先取的不同时换成它，HELLO 的 gid_type 报它的类型。
 * rxe 只有 v2 条目，两者总是相同，这里什么也不打印
 */
static int confirm_gid(struct rdma_device *dev, const struct ibv_qp_attr *a)
{
	if (!a->ah_attr.is_global || a->ah_attr.grh.sgid_index == dev->gid.index)
		return 0;
	con_printf(_("    CM 用的源GID是索引 %u，不是设备那一步先取的 %u（同一地址的 RoCE v1、v2 两项，CM 按 default_roce_mode 选）：本端的 GID 换成它\n"),
		   a->ah_attr.grh.sgid_index, dev->gid.index);
	return adopt_gid(dev, dev->gid.raw, a->ah_attr.grh.sgid_index);
}

/*
 * 设备由 CM 按地址选出（cm_id->verbs），这里只“接过来”：查询设备和端口，在 GID 表里找到
 * CM 用的源 GID（sgid）的索引。ctx 仍归 librdmacm（device_destroy 不关闭它）
 */
static int device_adopt(struct rdma_device *dev, struct ibv_context *ctx, int port,
		 const uint8_t sgid[16], unsigned *step)
{
	int rc;

	step_title(&dev->watch, step, _("设备由CM决定：cm_id->verbs（代替TCP模式的步骤1-4）"));
	dev->ctx = ctx;
	dev->ctx_borrowed = 1;
	snprintf(dev->dev_name, sizeof(dev->dev_name), "%s", ibv_get_device_name(ctx->device));
	con_printf(_("CM 按地址选出的设备: %s 端口 %d（librdmacm 已经 ibv_open_device，这里直接用它的 ibv_context）\n"),
		   dev->dev_name, port);
	con_explain(_("TCP 模式的步骤1-4（设备列表、打开设备、查端口、选GID）都由 CM 根据IP地址完成：\n"
		   "        地址在哪个设备的 GID 表里，就是哪个设备；GID 就是这个地址对应的 RoCE v2 条目\n"));
	if (port != dev->opt->ib_port) {
		con_error(_("CM 选的端口 %d 与 -i %d 不同\n" CON_HINT "--cm 下端口也由地址决定，去掉 -i 或写 -i %d\n"),
			    port, dev->opt->ib_port, port);
		return -1;
	}
	rc = ibv_query_device(ctx, &dev->dev_attr);
	if (rc != 0) {
		verbs_error("ibv_query_device()", rc, _("设备可能已被删除；ibv_devinfo 看看"));
		return -1;
	}
	rc = ibv_query_port(ctx, (uint8_t)port, &dev->port_attr);
	if (rc != 0) {
		verbs_error("ibv_query_port()", rc, _("ibv_devinfo 查看端口"));
		return -1;
	}
	con_printf(_("端口 %d: 状态 %s，active_mtu %s，GID表 %d 项；CM 用的源GID:\n"), port,
		   ibv_port_state_str(dev->port_attr.state), mtu_str(dev->port_attr.active_mtu),
		   dev->port_attr.gid_tbl_len);
	if (adopt_gid(dev, sgid, -1) != 0 || check_limits(dev, dev->opt) != 0)
		return -1;
	if (op_is_atomic(dev->opt->op) && dev->dev_attr.atomic_cap == IBV_ATOMIC_NONE) {
		con_error(_("设备 %s 不支持原子操作，不能用 --op %s\n"), dev->dev_name, op_name(dev->opt->op));
		return -1;
	}
	return 0;
}

int cm_adopt_device(struct rdma_conn *conn)
{
	struct rdma_cm_id *id = cm_of(&conn->ctrl)->first;
	uint8_t sgid[16];

	memcpy(sgid, id->route.addr.addr.ibaddr.sgid.raw, 16);
	if (gid_is_empty(sgid)) {
		/* 被动端的子 cm_id 可能没填 sgid：按本端 IPv4 地址拼出 ::ffff:a.b.c.d */
		const struct sockaddr *sa = rdma_get_local_addr(id);

		memset(sgid, 0, 16);
		sgid[10] = sgid[11] = 0xff;
		if (sa->sa_family == AF_INET)
			memcpy(sgid + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	}
	return device_adopt(conn->dev, id->verbs, id->port_num, sgid, &conn->step);
}

/* ---------- 每个QP的状态转换（属性来自 rdma_init_qp_attr） ---------- */

static struct rdma_cm_id *id_of(struct ctrl *c, int k)
{
	return k < 0 ? cm_of(c)->ctl_id : cm_of(c)->qp_id[k];
}

static struct ibv_qp *qp_of(struct rdma_conn *conn, int k)
{
	return k < 0 ? cm_of(&conn->ctrl)->qp : conn->qp[k];
}

/*
 * CM 给的权限里有远端写/读/原子以外的位时说出名字：Linux 6.2 起被动方还得到两个 RDMA FLUSH 位
 * （6.12 上是 0x30e，6.1 上是 0xe；verbs_print.c 的 access_str 认识它们）
 */
static void print_extra_access(unsigned flags)
{
	char acc[160];

	if ((flags & ~(unsigned)(IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC)) == 0)
		return;
	access_str((int)flags, acc, sizeof(acc));
	con_printf(_("    （0x%x = %s：Linux 6.2 起内核的 CM 还给被动方 RDMA FLUSH 的两个权限位 0x100、0x200；\n"
		   "      本程序不用 FLUSH，下面换成本操作需要的）\n"), flags, acc);
}

static void print_init_attr(const char *state, int mask, const struct ibv_qp_attr *a)
{
	char s[GID_STR_LEN];

	con_printf("  rdma_init_qp_attr(%s): qp_attr_mask=0x%x\n", state, mask);
	if (a->qp_state == IBV_QPS_INIT) {
		con_printf("    port_num=%u pkey_index=%u qp_access_flags=0x%x\n", a->port_num, a->pkey_index,
			   a->qp_access_flags);
		print_extra_access(a->qp_access_flags);
	}
	if (a->qp_state == IBV_QPS_RTR) {
		gid_format(a->ah_attr.grh.dgid.raw, s);
		con_printf("    path_mtu=%s dest_qp_num=0x%06x rq_psn=0x%06x max_dest_rd_atomic=%u min_rnr_timer=%u\n",
			   mtu_str(a->path_mtu), a->dest_qp_num, a->rq_psn, a->max_dest_rd_atomic, a->min_rnr_timer);
		con_printf("    ah: is_global=%u sgid_index=%u hop_limit=%u flow_label=%u dgid=%s\n",
			   a->ah_attr.is_global, a->ah_attr.grh.sgid_index, a->ah_attr.grh.hop_limit,
			   a->ah_attr.grh.flow_label, s);
	}
	if (a->qp_state == IBV_QPS_RTS)
		con_printf("    sq_psn=0x%06x timeout=%u retry_cnt=%u rnr_retry=%u max_rd_atomic=%u\n",
			   a->sq_psn, a->timeout, a->retry_cnt, a->rnr_retry, a->max_rd_atomic);
}

/* 服务端：RTR/RTS 的 READ/原子深度换成协商后的值（adopt_negotiated_rd 说了为什么），打印换了什么 */
static void set_negotiated_rd(struct rdma_conn *conn, struct ibv_qp_attr *a, int show)
{
	int old = adopt_negotiated_rd(a, cm_of(&conn->ctrl)->rd);

	if (old < 0 || !show)
		return;
	if (a->qp_state == IBV_QPS_RTR)
		con_printf(_("    max_dest_rd_atomic 改成协商后的 %u（rdma_init_qp_attr 给的 %d 是连接请求里客户端的值）\n"),
			   a->max_dest_rd_atomic, old);
	else
		con_printf(_("    max_rd_atomic 改成协商后的 %u（rdma_init_qp_attr 给的 %d 是连接请求里客户端的值）\n"),
			   a->max_rd_atomic, old);
}

/*
 * --ack-timeout：数据QP的 RTS timeout 换成命令行给的（只管本端）。没给时用 rdma_init_qp_attr 给的
 * （CM 按路由的 packet_life_time 算，6.1 上是 19 ≈ 2.1 s）；控制QP总用 CM 的，同步消息不受影响
 */
static void set_ack_timeout(struct rdma_conn *conn, struct ibv_qp_attr *a, int *mask, int show)
{
	char t[32];
	unsigned old = a->timeout;

	a->timeout = (uint8_t)conn->opt->ack_timeout;
	*mask |= IBV_QP_TIMEOUT;
	if (show)
		con_printf(_("    timeout 改成 --ack-timeout 给的 %u（4.096us×2^%u≈%s；rdma_init_qp_attr 给的 %u 是 CM 按路由算的）\n"),
			   a->timeout, a->timeout, ack_timeout_str(a->timeout, t, sizeof(t)), old);
}

/*
 * 把第 k 个连接（-1 = 控制QP）的QP转到 state：属性全部来自 rdma_init_qp_attr，只有 INIT 的 qp_access_flags
 * 换成本操作需要的（主动方的 CM 给 0，见 FACTS.md A.7；被动方给 REMOTE_WRITE|READ|ATOMIC，比需要的多）。
 */
static int cm_modify(struct rdma_conn *conn, int k, enum ibv_qp_state state, int access, int show)
{
	struct ibv_qp_attr a;
	int mask = 0, rc;
	char acc[128];

	a = (struct ibv_qp_attr){ .qp_state = state };
	if (rdma_init_qp_attr(id_of(&conn->ctrl, k), &a, &mask) != 0) {
		verbs_error("rdma_init_qp_attr()", errno, _("cm_id 还没有到这一步（地址/路由/连接请求）？"));
		return -1;
	}
	if (show)
		print_init_attr(qp_state_str(state), mask, &a);
	if (state == IBV_QPS_RTR && confirm_gid(conn->dev, &a) != 0)
		return -1;
	if (state == IBV_QPS_INIT) {
		a.qp_access_flags = (unsigned)(access & ~IBV_ACCESS_LOCAL_WRITE);
		if (show) {
			access_str((int)a.qp_access_flags, acc, sizeof(acc));
			con_printf(_("    qp_access_flags 改成本操作需要的 %s（与 TCP 模式相同）\n"), acc);
		}
	}
	if (conn->opt->role == ROLE_SERVER)
		set_negotiated_rd(conn, &a, show);
	if (state == IBV_QPS_RTS && k >= 0 && conn->opt->ack_timeout_given)
		set_ack_timeout(conn, &a, &mask, show);
	if (state == IBV_QPS_RTS && k >= 0)
		conn->psn[k] = a.sq_psn;   /* 起始PSN 是 CM 定的（REQ/REP 里的 starting PSN），HELLO 里报这个 */
	/* 数据QP的转换和 TCP 模式一样经过插桩的接缝（控制QP 是控制平面的，不经过）：插件可以改属性（--inject qp-access），trace 记下它 */
	if (k >= 0)
		hook_before(conn, HOOK_MODIFY, qp_state_str(state), k, 0, &a);
	rc = ibv_modify_qp(qp_of(conn, k), &a, mask);
	if (k >= 0)
		hook_modified(conn, qp_state_str(state), k, rc, &a);
	if (rc != 0) {
		if (k < 0)
			con_error(_("修改控制QP到%s失败\n"), qp_state_str(state));
		else
			con_error(_("修改QP[%d]到%s失败\n"), k, qp_state_str(state));
		verbs_error("ibv_modify_qp()", rc, _("rdma_init_qp_attr 给的属性被拒绝：./diagnose.sh"));
		return -1;
	}
	return 0;
}

/* 所有连接（控制QP + 数据QP）都转到 state；数据QP的前 N 个打印 rdma_init_qp_attr 的结果 */
static int modify_all(struct rdma_conn *conn, enum ibv_qp_state state, int access)
{
	int detail = conn->opt->qp_state_detail;

	for (int k = -1; k < conn->num_qp; k++)
		if (cm_modify(conn, k, state, access, k >= 0 && (detail < 0 || k < detail)) != 0)
			return -1;
	con_printf(_("控制QP → %s\n"), qp_state_str(state));
	print_qp_states(conn, qp_state_str(state));
	return 0;
}

static void fill_param(struct rdma_conn *conn, int k, struct rdma_conn_param *p, struct cm_priv *priv)
{
	cm_priv_encode(priv, k + 1, conn->num_qp, conn->opt->op, CM_OK, cm_of(&conn->ctrl)->nonce);
	*p = (struct rdma_conn_param){
		.private_data = priv,
		.private_data_len = sizeof(*priv),
		.responder_resources = cm_of(&conn->ctrl)->rd.in,
		.initiator_depth = cm_of(&conn->ctrl)->rd.out,
		.retry_count = 6,       /* 与 TCP 模式相同：rxe 把 7 当成无限重试 */
		.rnr_retry_count = 7,   /* 对端没投递接收时无限重试（同 TCP 模式） */
		.qp_num = qp_of(conn, k)->qp_num,
	};
}

/*
 * conn_param 的 READ/原子深度：和 TCP 模式同一个函数（wire_rd_depth），只是对端的上限从哪里来不同。
 * 客户端还不知道服务端的设备，报自己的上限（rdma_connect(3)：对端接受时可以调小）；
 * 服务端用连接请求里客户端报的值取较小者（rdma_accept(3)：initiator_depth 不能超过请求里的值）。
 * 客户端的 RTR/RTS 在收到 REP 之后做，rdma_init_qp_attr 给的就是协商后的值；服务端在 rdma_accept 之前做，
 * rdma_init_qp_attr 给的还是请求里的值，由 set_negotiated_rd 换成这里算出的值。
 */
static void cm_rd_depth(struct rdma_conn *conn)
{
	struct ctrl *c = &conn->ctrl;
	int server = conn->opt->role == ROLE_SERVER;
	uint8_t rd = wire_rd_clamp(conn->dev->dev_attr.max_qp_rd_atom);
	uint8_t init = wire_rd_clamp(conn->dev->dev_attr.max_qp_init_rd_atom);

	cm_of(c)->rd = server ? wire_rd_depth(rd, init, cm_of(c)->peer_rd_atom, cm_of(c)->peer_init_rd_atom)
			  : wire_rd_depth(rd, init, UINT8_MAX, UINT8_MAX);
	con_printf(_("conn_param: initiator_depth=%u responder_resources=%u（READ/原子深度）\n"), cm_of(c)->rd.out, cm_of(c)->rd.in);
	if (server)
		con_explain(_("= min(本端 max_qp_init_rd_atom %u, 请求里的 initiator_depth %u)、min(本端 max_qp_rd_atom %u, 请求里的 responder_resources %u)\n"),
			   init, cm_of(c)->peer_rd_atom, rd, cm_of(c)->peer_init_rd_atom);
	else
		con_explain(_("本端设备的 max_qp_init_rd_atom / max_qp_rd_atom；服务端 rdma_accept 时取它和自己上限的较小者，\n"
			   "        收到 REP 之后，RTR/RTS 的 max_dest_rd_atomic/max_rd_atomic 由 rdma_init_qp_attr 给出协商后的值\n"));
}

/* 连接建立后说明：TCP 模式的哪些步骤由 CM 做了 */
static void print_takeover(void)
{
	con_printf(_("  CM 接管了 TCP 模式的: 步骤1-4（地址决定设备和GID）、TCP建连、交换 QPN/起始PSN/GID、RTR/RTS 的属性（rdma_init_qp_attr）；\n"
		   "  没有接管: PD、MR、CQ、QP 的创建（与 TCP 模式同一段代码），每次 ibv_modify_qp 仍由本程序调用并读回，\n"
		   "            单边操作要的 addr/rkey/slot 和同步消息走控制QP（下一步）\n"));
}

/* ---------- 客户端 ---------- */

static int client_create_ids(struct rdma_conn *conn)
{
	struct ctrl *c = &conn->ctrl;
	struct sockaddr_storage src;
	const struct sockaddr *dst = rdma_get_peer_addr(cm_of(c)->ctl_id);

	/* 数据QP的 cm_id 用控制连接已经解析出的本端地址做源地址：保证落在同一个设备上 */
	memcpy(&src, rdma_get_local_addr(cm_of(c)->ctl_id), sizeof(struct sockaddr_in));
	((struct sockaddr_in *)&src)->sin_port = 0;
	con_printf(_("为 %d 个数据QP各建一个 cm_id，逐个 rdma_resolve_addr/rdma_resolve_route（源地址同控制连接）\n"),
		   conn->num_qp);
	for (int i = 0; i < conn->num_qp; i++) {
		if (cm_create_id(c, &cm_of(c)->qp_id[i], i) != 0)
			return -1;
		cm_of(c)->num_qp = i + 1;
		if (cm_resolve(c, cm_of(c)->qp_id[i], (struct sockaddr *)&src, (struct sockaddr *)(uintptr_t)dst, NULL, 0) != 0)
			return -1;
		if (cm_of(c)->qp_id[i]->verbs != conn->dev->ctx) {
			con_error(_("QP[%d] 的 cm_id 落在了另一个设备上\n"), i);
			return -1;
		}
	}
	return 0;
}

static int client_connect_all(struct rdma_conn *conn)
{
	struct ctrl *c = &conn->ctrl;
	struct rdma_conn_param p;
	struct cm_priv priv;
	char a[96];

	step_title(&conn->watch, &conn->step, _("rdma_connect：CM 交换 QPN 和起始PSN（代替TCP模式的“交换连接信息”）"));
	if (getrandom(&cm_of(c)->nonce, sizeof(cm_of(c)->nonce), 0) != (ssize_t)sizeof(cm_of(c)->nonce))
		cm_of(c)->nonce = (uint32_t)now_ms() ^ (uint32_t)getpid();
	con_printf(_("每个 cm_id 一次 rdma_connect(conn_param.qp_num = 本端QP号，private_data = 20 字节自我介绍，会话号 0x%08x)；\n"
		   "  说明: CM 发 REQ，服务端回 REP；verbs 路径（QP 是我们自己建的）下主动方收到的是 CONNECT_RESPONSE，\n"
		   "        之后自己 RTR/RTS，再 rdma_establish 发 RTU。会话号让服务端认出哪些请求是同一个客户端的\n"), cm_of(c)->nonce);
	for (int k = -1; k < conn->num_qp; k++) {
		fill_param(conn, k, &p, &priv);
		if (k >= 0)   /* 数据QP的连接请求经过插桩的接缝（控制连接是控制平面的，不经过）：插件可以看、可以改 conn_param */
			hook_before(conn, HOOK_CM_CONNECT, "rdma_connect", k, 0, &p);
		if (rdma_connect(id_of(c, k), &p) != 0) {
			verbs_error("rdma_connect()", errno, _("private data 超过 56 字节？./diagnose.sh"));
			return -1;
		}
	}
	for (int n = 0; n <= conn->num_qp; n++) {
		struct rdma_cm_id *id;

		if (cm_wait_event_ack(c, RDMA_CM_EVENT_CONNECT_RESPONSE, c->opt->timeout_ms, _("服务端的应答"), &id) != 0)
			return -1;
		if (cm_index_of(id) < 0)
			con_printf(_("    ↑ 控制连接，对端 %s\n"), cm_addr_str(rdma_get_peer_addr(id), a, sizeof(a)));
		else
			con_printf("    ↑ QP[%d]\n", cm_index_of(id));
	}
	return 0;
}

static int client_establish_all(struct rdma_conn *conn)
{
	step_title(&conn->watch, &conn->step, _("rdma_establish：发 RTU，连接建立"));
	for (int k = -1; k < conn->num_qp; k++) {
		if (rdma_establish(id_of(&conn->ctrl, k)) != 0) {
			verbs_error("rdma_establish()", errno, _("对端已经走了？"));
			return -1;
		}
	}
	cm_of(&conn->ctrl)->established = 1;
	con_printf(_("%d 个 cm_id 都已 rdma_establish（控制连接 + %d 个数据QP）\n"), conn->num_qp + 1, conn->num_qp);
	print_takeover();
	return 0;
}

static int client_connect_qps(struct rdma_conn *conn, int access)
{
	step_title(&conn->watch, &conn->step, _("修改QP状态 RESET->INIT（属性来自 rdma_init_qp_attr）"));
	if (client_create_ids(conn) != 0 || modify_all(conn, IBV_QPS_INIT, access) != 0)
		return -1;
	if (cm_post_ctl_recvs(&conn->ctrl) != 0)
		return -1;
	if (client_connect_all(conn) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("修改QP状态 INIT->RTR（属性来自 rdma_init_qp_attr）"));
	if (modify_all(conn, IBV_QPS_RTR, access) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("修改QP状态 RTR->RTS（属性来自 rdma_init_qp_attr）"));
	if (modify_all(conn, IBV_QPS_RTS, access) != 0)
		return -1;
	return client_establish_all(conn);
}

/* ---------- 服务端 ---------- */

static int server_collect_requests(struct rdma_conn *conn)
{
	struct ctrl *c = &conn->ctrl;

	con_printf(_("再等 %d 个连接请求（控制连接 + 每个数据QP一个 cm_id，private data 里写着是第几个，到达顺序不定）\n"),
		   conn->num_qp);
	for (int n = 0; n < conn->num_qp; n++) {
		struct rdma_cm_id *id;

		if (cm_get_request(c, c->opt->timeout_ms, _("其余的连接请求"), &id) != 0)
			return -1;
		if (id->verbs != conn->dev->ctx) {
			con_error(_("连接请求到达了另一个设备（%s，第一个在 %s）\n" CON_HINT "客户端的源地址变了？\n"),
				    ibv_get_device_name(id->verbs->device), conn->dev->dev_name);
			return -1;
		}
	}
	con_printf(_("收齐 %d 个连接请求（控制连接 + %d 个数据QP）\n"), conn->num_qp + 1, conn->num_qp);
	return 0;
}

static int server_accept_all(struct rdma_conn *conn)
{
	struct ctrl *c = &conn->ctrl;
	struct rdma_conn_param p;
	struct cm_priv priv;

	step_title(&conn->watch, &conn->step, _("rdma_accept：回应每个连接请求，等 ESTABLISHED"));
	con_explain(_("被动方先把QP转到 RTS，再 rdma_accept（CM 回 REP）；客户端回 RTU 后这里收到 ESTABLISHED\n"));
	for (int k = -1; k < conn->num_qp; k++) {
		fill_param(conn, k, &p, &priv);
		if (rdma_accept(id_of(c, k), &p) != 0) {
			verbs_error("rdma_accept()", errno, _("客户端已经走了？"));
			return -1;
		}
	}
	for (int n = 0; n <= conn->num_qp; n++)
		if (cm_wait_event_ack(c, RDMA_CM_EVENT_ESTABLISHED, c->opt->timeout_ms, _("连接建立"), NULL) != 0)
			return -1;
	cm_of(c)->established = 1;
	con_printf(_("%d 个连接都已 ESTABLISHED\n"), conn->num_qp + 1);
	print_takeover();
	return 0;
}

static int server_connect_qps(struct rdma_conn *conn, int access)
{
	if (server_collect_requests(conn) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("修改QP状态 RESET->INIT（属性来自 rdma_init_qp_attr）"));
	if (modify_all(conn, IBV_QPS_INIT, access) != 0)
		return -1;
	if (cm_post_ctl_recvs(&conn->ctrl) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("修改QP状态 INIT->RTR（属性来自 rdma_init_qp_attr：QPN/PSN 来自连接请求）"));
	if (modify_all(conn, IBV_QPS_RTR, access) != 0)
		return -1;
	step_title(&conn->watch, &conn->step, _("修改QP状态 RTR->RTS（属性来自 rdma_init_qp_attr）"));
	if (modify_all(conn, IBV_QPS_RTS, access) != 0)
		return -1;
	return server_accept_all(conn);
}

int cm_connect_qps(struct rdma_conn *conn, int access)
{
	cm_rd_depth(conn);
	if (cm_create_ctl_qp(&conn->ctrl, conn->dev->pd, conn->dev->ctx) != 0)
		return -1;
	if (conn->opt->role == ROLE_SERVER)
		return server_connect_qps(conn, access);
	return client_connect_qps(conn, access);
}

