/*
 * qp_state.c - QP 状态机：RESET→INIT →（交换连接信息）→ INIT→RTR → RTR→RTS，
 *              以及每次转换后用 ibv_query_qp 读回并打印 QP 的真实状态
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs/qp_state.h"
#include "base/i18n.h"

#include "base/conout.h"
#include "base/verbs_print.h"
#include "control/ctrl.h"
#include "device/path_check.h"


/* ---------- UD：三次转换各少了什么（docs/QP-TYPES.md 把 RC 和 UD 并排放） ---------- */

static int is_ud(const struct rdma_conn *conn) { return conn->opt->qp_type == QPK_UD; }

/* 对每个QP做一次转换；失败时说出哪个QP、哪一步 */
static int modify_all(struct rdma_conn *conn, struct ibv_qp_attr *attr, int mask, const char *state)
{
	for (int i = 0; i < conn->num_qp; i++) {
		int rc = ibv_modify_qp(conn->qp[i], attr, mask);

		hook_note(NULL, conn, HOOK_MODIFY, state, i, rc);
		if (rc != 0) {
			char call[48];

			snprintf(call, sizeof(call), "ibv_modify_qp(%s)", state);
			verbs_error_qp(i, call, rc, _("UD 的转换只要上面这几个属性；多给 RC 的属性（dest_qp_num、access_flags…）会 EINVAL"));
			return -1;
		}
	}
	print_qp_states(conn, state);
	return 0;
}

static int ud_to_init(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = (uint8_t)conn->opt->ib_port, .qkey = UD_QKEY,
	};

	con_printf(_("设置: port_num=%d pkey_index=0 qkey=0x%08x（UD：没有 qp_access_flags）\n"), conn->opt->ib_port, UD_QKEY);
	con_explain(_("RC 在这里声明“对端可以读写我的内存”；UD 没有单边操作，不需要。UD 要的是 Q_Key：\n"
		    "        收到的报文 DETH 里的 Q_Key 和本 QP 的不一样就丢掉——没有连接的 QP 靠它挡住不相干的发送者。两端约定同一个值\n"));
	return modify_all(conn, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY, "INIT");
}

static int ud_to_rtr(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTR };

	con_printf(_("设置: 只有 qp_state=RTR（UD：没有 path_mtu、dest_qp_num、rq_psn、ah_attr、max_dest_rd_atomic、min_rnr_timer）\n"));
	con_explain(_("RC 在这里认定唯一的对端（它的 QP 号、GID、起始 PSN）；UD 的 QP 不绑定对端：目的地写在每个发送 WR 里\n"
		    "        （地址句柄 AH + 对端 QP 号 + Q_Key），收到的报文从哪里来看完成里的 src_qp 和 GRH\n"));
	return modify_all(conn, &attr, IBV_QP_STATE, "RTR");
}

static int ud_to_rts(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTS };
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	con_printf(_("设置: sq_psn=<本端PSN>（UD：没有 timeout、retry_cnt、rnr_retry、max_rd_atomic）\n"));
	con_explain(_("RC 在这里定下重传的规矩（等多久、重传几次、RNR 重试几次）；UD 不确认也不重传，只剩 PSN\n"));
	for (int i = 0; i < conn->num_qp; i++) {
		int rc;

		attr.sq_psn = conn->psn[i];
		rc = ibv_modify_qp(conn->qp[i], &attr, mask);
		hook_note(NULL, conn, HOOK_MODIFY, "RTS", i, rc);
		if (rc != 0) {
			verbs_error_qp(i, "ibv_modify_qp(RTS)", rc, _("UD 的 RTS 只要 sq_psn；QP 必须先在 RTR"));
			return -1;
		}
		conn->next_psn[i] = conn->psn[i];
	}
	print_qp_states(conn, "RTS");
	return 0;
}

int modify_qps_to_init(struct rdma_conn *conn, int access)
{
	struct ibv_qp_attr attr;
	char acc[128];
	int rc;

	step_title(&conn->trace, &conn->step, _("修改QP状态 RESET->INIT ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_init(conn);
	/* QP 的 qp_access_flags 只管“远端能对我做什么”；LOCAL_WRITE 是 MR 的事，这里去掉 */
	access &= ~IBV_ACCESS_LOCAL_WRITE;
	if (conn->hooks->access != NULL)   /* --inject qp-access */
		access = conn->hooks->access(conn, HOOK_MODIFY, access);
	access_str(access, acc, sizeof(acc));
	con_printf(_("设置: port_num=%d pkey_index=0 qp_access_flags=%s\n"), conn->opt->ib_port, acc);
	con_explain(_("INIT 只绑定端口并声明“对端可以对我做什么”（远端读/写/原子权限，与 MR 的 REMOTE_* 一致）\n"));
	for (int i = 0; i < conn->num_qp; i++) {
		attr = (struct ibv_qp_attr){
			.qp_state = IBV_QPS_INIT,
			.pkey_index = 0,
			.port_num = (uint8_t)conn->opt->ib_port,
			.qp_access_flags = (unsigned)access,
		};
		rc = ibv_modify_qp(conn->qp[i], &attr,
				   IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
		hook_note(NULL, conn, HOOK_MODIFY, "INIT", i, rc);
		if (rc != 0) {
			con_error(_("修改QP[%d]到INIT状态失败\n"), i);
			verbs_error("ibv_modify_qp(INIT)", rc, _("端口号（-i）是否存在？访问权限是否被设备支持？"));
			return -1;
		}
	}
	print_qp_states(conn, "INIT");
	return 0;
}

static void fill_local_hello(struct rdma_conn *conn, struct wire_hello *h)
{
	const struct options *o = conn->opt;

	memset(h, 0, sizeof(*h));
	h->version = WIRE_VERSION;
	h->op = (uint8_t)o->op;
	h->flags = wire_flags(o);
	h->num_qp = (uint32_t)conn->num_qp;
	h->mtu = (uint32_t)conn->dev->port_attr.active_mtu;
	h->size = (uint32_t)o->size;
	h->iters = (uint32_t)o->iters;
	h->offset = o->offset;
	h->rd_atom = wire_rd_clamp(conn->dev->dev_attr.max_qp_rd_atom);
	h->init_rd_atom = wire_rd_clamp(conn->dev->dev_attr.max_qp_init_rd_atom);
	if (op_is_one_sided(o->op)) {
		h->addr = (uint64_t)(uintptr_t)area_a(conn, 0);
		h->rkey = conn->mr->rkey;
		h->slot = (uint32_t)conn->slot;
	}
	for (int i = 0; i < conn->num_qp; i++) {
		h->qp[i].qpn = conn->qp[i]->qp_num;
		h->qp[i].psn = conn->psn[i];
		h->qp[i].lid = conn->dev->port_attr.lid;
		memcpy(h->qp[i].gid, conn->dev->gid.raw, 16);
	}
}

static void print_hello(const char *who, const struct wire_hello *h, int num_qp)
{
	char s[GID_STR_LEN], ip[GID_IP_LEN];

	con_printf("%s: num_qp=%u op=%s active_mtu=%s size=%u iters=%u max_qp_rd_atom=%u max_qp_init_rd_atom=%u\n",
		   who, h->num_qp, op_name((enum rdma_op)h->op), mtu_str((enum ibv_mtu)h->mtu), h->size, h->iters,
		   h->rd_atom, h->init_rd_atom);
	if (h->rkey != 0)
		con_printf(_("  MR: addr=0x%016llx rkey=0x%08x 每QP槽 %u 字节\n"),
		       (unsigned long long)h->addr, h->rkey, h->slot);
	for (int i = 0; i < num_qp; i++) {
		gid_format(h->qp[i].gid, s);
		gid_to_ip(h->qp[i].gid, ip);
		con_printf(_("  QP[%d]: QP号 0x%06x  PSN 0x%06x  LID 0x%04x  GID %s (%s)\n"),
		       i, h->qp[i].qpn, h->qp[i].psn, h->qp[i].lid, s, ip);
	}
}

static void print_exchange(struct rdma_conn *conn, const struct wire_hello *local)
{
	print_hello(_("本地连接信息"), local, conn->num_qp);
	print_hello(_("远端连接信息"), &conn->remote, (int)conn->remote.num_qp);
	conn->path_mtu = (enum ibv_mtu)wire_path_mtu(local->mtu, conn->remote.mtu);
	conn->rd = wire_rd_depth(local->rd_atom, local->init_rd_atom, conn->remote.rd_atom, conn->remote.init_rd_atom);
	con_printf(_("路径MTU取两端 active_mtu 的较小者: %s 字节\n"), mtu_str(conn->path_mtu));
	con_printf(_("  检查点: 远端GID应包含对端的IP地址；若全为0，说明对端选错了GID索引\n"));
}

int exchange_connection_info(struct rdma_conn *conn)
{
	struct wire_hello local;
	char msg[256];

	step_title(&conn->trace, &conn->step, _("交换连接信息（控制平面）"));
	fill_local_hello(conn, &local);
	if (conn->remote_ready) {
		/* 多客户端服务端：客户端的 HELLO 已经收到（见 sessions.c），这里只发自己的 */
		if (ctrl_send_hello(&conn->ctrl, &local) != 0)
			return -1;
	} else if (ctrl_exchange_hello(&conn->ctrl, &local, &conn->remote) != 0) {
		return -1;
	}
	if (wire_compare(&local, &conn->remote, msg, sizeof(msg)) != 0) {
		con_error("%s\n", msg);
		return -1;
	}
	print_exchange(conn, &local);
	path_check_before_rtr(conn);
	conn->peer_rkey = conn->remote.rkey;
	if (conn->hooks->peer != NULL)   /* --inject rkey */
		conn->hooks->peer(conn);
	return 0;
}

static void rtr_debug(struct rdma_conn *conn, int i, int err)
{
	char s[GID_STR_LEN];

	gid_format(conn->remote.qp[i].gid, s);
	con_error(_("修改QP[%d]到RTR状态失败: %s (errno=%d)\n"), i, strerror(err), err);
	con_eprintf(_("调试提示:\n"));
	con_eprintf(_("  - 远端QP号: 0x%06x\n"), conn->remote.qp[i].qpn);
	con_eprintf(_("  - 远端LID: 0x%04x\n"), conn->remote.qp[i].lid);
	con_eprintf(_("  - GID索引: %u\n"), conn->dev->gid.index);
	con_eprintf(_("  - 远端GID: %s\n"), s);
	con_eprintf(_("  - 路径MTU: %s\n"), mtu_str(conn->path_mtu));
	path_rtr_evidence(conn, i);
	con_eprintf(_("请检查: 1) GID配置（./show_gids.sh，两端都用 RoCE v2 IPv4 条目） 2) 端口状态（ibv_devinfo） 3) 到对端IP的路由（ip route get <对端IP>） 4) 连接信息交换是否正确\n"));
	if (gid_is_ipv4_mapped(conn->dev->gid.raw) != gid_is_ipv4_mapped(conn->remote.qp[i].gid))
		con_hint(_("两端GID的地址族不同（本端%s、远端%s）：RoCE v2 报文的源/目的必须同为IPv4或同为IPv6。两端都去掉 -g（自动选择）或用 ./show_gids.sh 选同类条目\n"),
			gid_is_ipv4_mapped(conn->dev->gid.raw) ? "IPv4" : "IPv6", gid_is_ipv4_mapped(conn->remote.qp[i].gid) ? "IPv4" : "IPv6");
	else if (err == EINVAL)
		con_hint(_("EINVAL 多半是 GID 索引不对（空条目/类型不符）或端口不是 ACTIVE\n"));
	else if (err == ETIMEDOUT || err == ENETUNREACH || err == EHOSTUNREACH)
		con_hint(_("%s 表示内核解析不到去往远端GID的路由/邻居：本端GID索引与网卡不匹配，或两端不在可达网络上\n"),
			strerror(err));
}

int modify_qps_to_rtr(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr;
	int rc;

	step_title(&conn->trace, &conn->step, _("修改QP状态 INIT->RTR ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_rtr(conn);
	con_printf(_("设置: path_mtu=%s dest_qp_num=<远端QP号> rq_psn=<远端PSN> max_dest_rd_atomic=%u min_rnr_timer=12\n"),
	       mtu_str(conn->path_mtu), conn->rd.in);
	con_printf(_("      ah_attr.is_global=1 grh.sgid_index=%u grh.dgid=<远端GID> grh.hop_limit=64 dlid=<远端LID>\n"),
	       conn->dev->gid.index);
	con_explain(_("RTR = Ready To Receive。此时QP才知道对端是谁；RoCE 必须带 GRH（is_global=1），\n"
	       "        hop_limit 就是 IP 包的 TTL（设为 1 只能在同一网段，跨路由器会丢）\n"));
	con_explain(_("max_dest_rd_atomic=%u 是本端同时为对端处理的 READ/原子请求数 = min(本端 max_qp_rd_atom %u, 对端 max_qp_init_rd_atom %u)，\n"
		   "        两个上限都来自设备（ibv_query_device），对端的那个在 HELLO 里\n"),
		   conn->rd.in, wire_rd_clamp(conn->dev->dev_attr.max_qp_rd_atom), conn->remote.init_rd_atom);
	for (int i = 0; i < conn->num_qp; i++) {
		attr = (struct ibv_qp_attr){
			.qp_state = IBV_QPS_RTR,
			.path_mtu = conn->path_mtu,
			.dest_qp_num = conn->remote.qp[i].qpn,
			.rq_psn = conn->remote.qp[i].psn,
			.max_dest_rd_atomic = conn->rd.in,
			.min_rnr_timer = 12,
			.ah_attr = {
				.dlid = conn->remote.qp[i].lid,
				.sl = 0,
				.src_path_bits = 0,
				.port_num = (uint8_t)conn->opt->ib_port,
			},
		};
		/* RoCE 必须带 GRH（InfiniBand 上对端有 GID 时也带）：源 GID 的索引、对端的 GID、跳数 */
		if (conn->dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ||
		    !gid_is_empty(conn->remote.qp[i].gid)) {
			attr.ah_attr.is_global = 1;
			attr.ah_attr.grh = (struct ibv_global_route){
				.sgid_index = (uint8_t)conn->dev->gid.index,
				.hop_limit = 64,
				.traffic_class = 0,
				.flow_label = 0,
			};
			memcpy(attr.ah_attr.grh.dgid.raw, conn->remote.qp[i].gid, 16);
		}
		if (conn->hooks->qp_attr != NULL)   /* --inject qpn */
			conn->hooks->qp_attr(conn, IBV_QPS_RTR, i, &attr);
		rc = ibv_modify_qp(conn->qp[i], &attr,
				   IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				   IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
		hook_note(NULL, conn, HOOK_MODIFY, "RTR", i, rc);
		if (rc != 0) {
			rtr_debug(conn, i, rc);
			return -1;
		}
	}
	print_qp_states(conn, "RTR");
	return 0;
}

int modify_qps_to_rts(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr;
	int rc;

	step_title(&conn->trace, &conn->step, _("修改QP状态 RTR->RTS ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_rts(conn);
	con_printf(_("设置: sq_psn=<本端PSN> timeout=14 retry_cnt=6 rnr_retry=7 max_rd_atomic=%u\n"), conn->rd.out);
	con_explain(_("RTS = Ready To Send。timeout=14 表示等应答 4.096us×2^14≈67ms 就重传（规范允许网卡实际等到 4 倍），\n"
	       "        重传 retry_cnt=6 次仍无应答则报 RETRY_EXC_ERR（不用 7：rxe 把 7 当成无限重试）；rnr_retry=7 表示对端没投递接收时无限重试；\n"
	       "        max_rd_atomic（本端同时在途的 READ/原子请求）不能超过对端的 max_dest_rd_atomic；\n"
	       "        这里 max_rd_atomic=%u = min(本端 max_qp_init_rd_atom %u, 对端 max_qp_rd_atom %u)，正好等于对端算出的 max_dest_rd_atomic\n"),
	       conn->rd.out, wire_rd_clamp(conn->dev->dev_attr.max_qp_init_rd_atom), conn->remote.rd_atom);
	for (int i = 0; i < conn->num_qp; i++) {
		attr = (struct ibv_qp_attr){
			.qp_state = IBV_QPS_RTS,
			.sq_psn = conn->psn[i],
			.timeout = 14,
			.retry_cnt = 6,     /* 规范里 7 就是 7 次，但 rxe（rxe_comp.c）把 7 当成无限重试，对端消失时永远等不到 RETRY_EXC_ERR */
			.rnr_retry = 7,
			.max_rd_atomic = conn->rd.out,
		};
		if (conn->hooks->qp_attr != NULL)   /* --inject psn、rnr-retry0 */
			conn->hooks->qp_attr(conn, IBV_QPS_RTS, i, &attr);
		rc = ibv_modify_qp(conn->qp[i], &attr,
				   IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				   IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
		hook_note(NULL, conn, HOOK_MODIFY, "RTS", i, rc);
		if (rc != 0) {
			con_error(_("修改QP[%d]到RTS状态失败\n"), i);
			verbs_error("ibv_modify_qp(RTS)", rc, _("QP 必须先成功进入 RTR；参数超出设备上限？"));
			return -1;
		}
		conn->next_psn[i] = attr.sq_psn;        /* 第一个发送 WR 从 sq_psn 开始 */
	}
	print_qp_states(conn, "RTS");
	return 0;
}

int modify_qp_to_err(struct rdma_conn *conn, int i)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	int rc = ibv_modify_qp(conn->qp[i], &attr, IBV_QP_STATE);

	hook_note(NULL, conn, HOOK_MODIFY, "ERR", i, rc);
	if (rc != 0) {
		verbs_error_qp(i, "ibv_modify_qp(ERR)", rc, _("任何状态都能改到 ERR；失败说明 QP 已被销毁或设备出错，看 dmesg"));
		return -1;
	}
	return 0;
}

int print_qp_state(struct rdma_conn *conn, int i, const char *title)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr init;
	char acc[128], s[GID_STR_LEN];
	int rc;

	memset(&a, 0, sizeof(a));
	rc = ibv_query_qp(conn->qp[i], &a, QUERY_ALL, &init);
	if (rc != 0) {
		verbs_error("ibv_query_qp()", rc, _("QP 句柄无效？"));
		return -1;
	}
	access_str((int)a.qp_access_flags, acc, sizeof(acc));
	if (is_ud(conn)) {   /* UD 只有这几个属性；RC 的那些读回来都是 0，不打印 */
		con_printf(_("  [QP状态查询] QP[%d] (0x%06x) %s:\n"), i, conn->qp[i]->qp_num, title);
		con_printf("    qp_state=%s  port=%u  qkey=0x%08x\n", qp_state_str(a.qp_state), a.port_num, a.qkey);
		if (a.qp_state == IBV_QPS_RTS)
			con_printf("    sq_psn=0x%06x\n", a.sq_psn);
		return 0;
	}
	con_printf(_("  [QP状态查询] QP[%d] (0x%06x) %s:\n"), i, conn->qp[i]->qp_num, title);
	con_printf("    qp_state=%s  port=%u  access=%s\n", qp_state_str(a.qp_state), a.port_num, acc);
	con_printf("    cap: max_send_wr=%u max_recv_wr=%u max_send_sge=%u max_recv_sge=%u max_inline=%u\n",
	       a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge, a.cap.max_recv_sge,
	       a.cap.max_inline_data);
	if (a.qp_state >= IBV_QPS_RTR && a.qp_state <= IBV_QPS_SQE) {
		gid_format(a.ah_attr.grh.dgid.raw, s);
		con_printf("    path_mtu=%s  dest_qp_num=0x%06x  rq_psn=0x%06x  max_dest_rd_atomic=%u  min_rnr_timer=%u\n",
		       mtu_str(a.path_mtu), a.dest_qp_num, a.rq_psn, a.max_dest_rd_atomic, a.min_rnr_timer);
		con_printf("    ah: is_global=%u dlid=0x%04x sgid_index=%u hop_limit=%u dgid=%s\n",
		       a.ah_attr.is_global, a.ah_attr.dlid, a.ah_attr.grh.sgid_index,
		       a.ah_attr.grh.hop_limit, s);
	}
	if (a.qp_state == IBV_QPS_RTS)
		con_printf("    sq_psn=0x%06x  timeout=%u  retry_cnt=%u  rnr_retry=%u  max_rd_atomic=%u\n",
		       a.sq_psn, a.timeout, a.retry_cnt, a.rnr_retry, a.max_rd_atomic);
	return 0;
}

void print_qp_states(struct rdma_conn *conn, const char *title)
{
	int detail = conn->opt->qp_state_detail;
	int n = (detail < 0 || detail > conn->num_qp) ? conn->num_qp : detail;
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr init;

	con_printf(_("状态摘要（ibv_query_qp 读回）:"));
	for (int i = 0; i < conn->num_qp; i++) {
		int rc = ibv_query_qp(conn->qp[i], &a, IBV_QP_STATE, &init);

		if (rc != 0) {
			con_printf("\n");
			verbs_error("ibv_query_qp()", rc, _("QP 句柄无效，或设备已被删除（rdma link show）"));
			return;
		}
		con_printf(" QP[%d]=%s", i, qp_state_str(a.qp_state));
	}
	con_printf("\n");
	for (int i = 0; i < n; i++)
		print_qp_state(conn, i, title);
	hook_note(NULL, conn, HOOK_QP_STATES, NULL, -1, 0);   /* --trace 记下每个QP读回的完整状态 */
}
