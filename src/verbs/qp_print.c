/*
 * qp_print.c - QP 状态机的打印细节：每次转换后用 ibv_query_qp 读回并打印 QP 的真实状态，交换连接信息后的两端 HELLO，
 *              RTR 失败时的证据（转换本身在 rdma_common.c，那里读起来只剩步骤）
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verbs/qp_print.h"
#include "console/i18n.h"

#include "console/conout.h"
#include "console/verbs_print.h"
#include "control/ctrl.h"
#include "verbs/path_check.h"
#include "cli/ack_timeout.h"

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

void print_exchange(struct rdma_conn *conn, const struct wire_hello *local)
{
	print_hello(_("本地连接信息"), local, conn->num_qp);
	print_hello(_("远端连接信息"), &conn->remote, (int)conn->remote.num_qp);
	con_printf(_("路径MTU取两端 active_mtu 的较小者: %s 字节\n"), mtu_str(conn->path_mtu));
	con_printf(_("  检查点: 远端GID应包含对端的IP地址；若全为0，说明对端选错了GID索引\n"));
}

void rtr_debug(struct rdma_conn *conn, int i, int err)
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
		con_hint(_("EINVAL 多半是 GID 索引不对（空条目/类型不符）、端口不是 ACTIVE，或掩码不对：少了 RTR 必需的位，或带了 RTR 不允许的位（比如 RTS 的 IBV_QP_SQ_PSN、IBV_QP_TIMEOUT；内核的 ib_modify_qp_is_ok() 查它）\n"));
	else if (err == ETIMEDOUT || err == ENETUNREACH || err == EHOSTUNREACH)
		con_hint(_("%s 表示内核解析不到去往远端GID的路由/邻居：本端GID索引与网卡不匹配，或两端不在可达网络上\n"),
			strerror(err));
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
	if (conn->opt->qp_type == QPK_UD) {   /* UD 只有这几个属性；RC 的那些读回来都是 0，不打印 */
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

void print_mr(const struct rdma_conn *conn, int access)
{
	char acc[128];

	access_str(access, acc, sizeof(acc));
	con_printf(_("MR 已注册: addr=%p 长度=%zu（%d 个QP × 每QP %zu 字节 × 2 区）\n"),
	       (void *)conn->buf, conn->buf_len, conn->num_qp, conn->slot);
	if (conn->srq_bufs > 0)
		con_printf(_("  另有 %u 块 × %zu 字节给 SRQ 的接收（每个在途的接收一块：两个QP的消息落进同一块会交错）\n"),
			   conn->srq_bufs, conn->slot);
	con_printf(_("  lkey=0x%08x  rkey=0x%08x  权限=%s%s\n"), conn->mr->lkey, conn->mr->rkey, acc,
	       access == 0 ? _("（只允许本地读：RDMA WRITE 的数据源只需要被网卡读取）") : "");
}

void print_srq(const struct rdma_conn *conn, uint32_t want)
{
	uint32_t per_qp = conn->caps.recv_wr;

	con_printf(_("SRQ 已创建: 深度 %u（要了 %u；设备上限 max_srq_wr=%d），%d 个QP共用\n"), conn->srq_depth,
		   want, conn->dev->dev_attr.max_srq_wr, conn->num_qp);
	con_printf(_("  内存: 不用 SRQ 时 %d 个QP × 每个接收队列 %u 个 = %u 个接收请求，每个都要一块 %zu 字节的缓冲区（%zu 字节）；\n"
		   "        用 SRQ 时一个 %u 个的队列（%zu 字节）——%s\n"),
		   conn->num_qp, per_qp, per_qp * (uint32_t)conn->num_qp, conn->slot,
		   (size_t)per_qp * (size_t)conn->num_qp * conn->slot, conn->srq_depth, (size_t)conn->srq_depth * conn->slot,
		   conn->opt->bench != BENCH_NONE ? _("基准测试: 一个接收队列的深度给全部QP共用，像 perftest --use-srq") :
		   _("本程序每轮每个QP只在途 1 个接收，2×QP数就够"));
}

void print_device(const struct rdma_device *dev)
{
	con_printf(_("选择设备: %s\n"), dev->dev_name);
	con_printf(_("  设备能力: 最多 %d 个QP，每个QP最多 %d 个WR，CQ最多 %d 项，原子操作: %s\n"),
	       dev->dev_attr.max_qp, dev->dev_attr.max_qp_wr, dev->dev_attr.max_cqe,
	       dev->dev_attr.atomic_cap == IBV_ATOMIC_NONE ? _("不支持") :
	       dev->dev_attr.atomic_cap == IBV_ATOMIC_HCA ?
	       _("支持（ATOMIC_HCA：只对经过这块网卡的其它 RDMA 原子操作是原子的，CPU 同时读写同一个字不受保护）") :
	       _("支持（ATOMIC_GLOB：对 CPU 的访问也是原子的）"));
}

void print_port(const struct rdma_device *dev)
{
	const struct ibv_port_attr *pa = &dev->port_attr;
	int port = dev->opt->ib_port;

	con_printf(_("端口 %d: 状态 %s，链路层 %s，active_mtu %s，max_mtu %s，LID 0x%04x，GID表 %d 项\n"),
	       port, ibv_port_state_str(pa->state),
	       pa->link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)" : "InfiniBand",
	       mtu_str(pa->active_mtu), mtu_str(pa->max_mtu), pa->lid, pa->gid_tbl_len);
}

/* 步骤“INIT->RTR”的“设置:”和说明：打印的是传给 ibv_modify_qp 的 attr（练习版里是学习者的函数填的），不是参照的常数 */
void print_rtr_settings(const struct rdma_conn *conn, const struct ibv_qp_attr *a)
{
	con_printf(_("设置: path_mtu=%s dest_qp_num=<远端QP号> rq_psn=<远端PSN> max_dest_rd_atomic=%u min_rnr_timer=%u\n"), mtu_str(a->path_mtu), a->max_dest_rd_atomic, a->min_rnr_timer);
	con_printf(_("      ah_attr.is_global=%u grh.sgid_index=%u grh.dgid=<远端GID> grh.hop_limit=%u dlid=<远端LID>\n"),
	       a->ah_attr.is_global, a->ah_attr.grh.sgid_index, a->ah_attr.grh.hop_limit);
	con_explain(_("RTR = Ready To Receive。此时QP才知道对端是谁；RoCE 必须带 GRH（is_global=1），\n"
	       "        hop_limit 就是 IP 包的 TTL（设为 1 只能在同一网段，跨路由器会丢）\n"));
	if (a->max_dest_rd_atomic == conn->rd.in)
		con_explain(_("max_dest_rd_atomic=%u 是本端同时为对端处理的 READ/原子请求数 = min(本端 max_qp_rd_atom %u, 对端 max_qp_init_rd_atom %u)，\n"
			   "        两个上限都来自设备（ibv_query_device），对端的那个在 HELLO 里\n"),
			   a->max_dest_rd_atomic, wire_rd_clamp(conn->dev->dev_attr.max_qp_rd_atom), conn->remote.init_rd_atom);
	else
		con_explain(_("max_dest_rd_atomic=%u 是本端同时为对端处理的 READ/原子请求数；协商的深度是 %u = min(本端 max_qp_rd_atom %u, 对端 max_qp_init_rd_atom %u)\n"),
			   a->max_dest_rd_atomic, conn->rd.in, wire_rd_clamp(conn->dev->dev_attr.max_qp_rd_atom), conn->remote.init_rd_atom);
}

/* 步骤“RTR->RTS”的“设置:”和说明：传给 ibv_modify_qp 的 attr（练习版里是学习者的函数填的） */
void print_rts_settings(const struct rdma_conn *conn, const struct ibv_qp_attr *a, char *why, size_t len)
{
	con_printf(_("设置: sq_psn=<本端PSN> timeout=%u retry_cnt=%u rnr_retry=%u max_rd_atomic=%u\n"), a->timeout, a->retry_cnt, a->rnr_retry, a->max_rd_atomic);
	if (a->max_rd_atomic == conn->rd.out && a->retry_cnt == 6 && a->rnr_retry == 7)
		con_explain(_("%s\n"
		       "        重传 retry_cnt=6 次仍无应答则报 RETRY_EXC_ERR（不用 7：rxe 把 7 当成无限重试）；rnr_retry=7 表示对端没投递接收时无限重试；\n"
		       "        max_rd_atomic（本端同时在途的 READ/原子请求）不能超过对端的 max_dest_rd_atomic；\n"
		       "        这里 max_rd_atomic=%u = min(本端 max_qp_init_rd_atom %u, 对端 max_qp_rd_atom %u)，正好等于对端算出的 max_dest_rd_atomic\n"),
		       ack_timeout_explain(a->timeout, why, len),
		       conn->rd.out, wire_rd_clamp(conn->dev->dev_attr.max_qp_init_rd_atom), conn->remote.rd_atom);
	else   /* 练习版：学习者的函数选了别的值，说明也跟着说它的值 */
		con_explain(_("%s\n"
		       "        重传 retry_cnt=%u 次仍无应答则报 RETRY_EXC_ERR（rxe 把 7 当成无限重试）；rnr_retry=%u（7 = 无限重试）；\n"
		       "        max_rd_atomic=%u（本端同时在途的 READ/原子请求）不能超过对端的 max_dest_rd_atomic；协商的深度是 %u = min(本端 max_qp_init_rd_atom %u, 对端 max_qp_rd_atom %u)\n"),
		       ack_timeout_explain(a->timeout, why, len), a->retry_cnt, a->rnr_retry, a->max_rd_atomic,
		       conn->rd.out, wire_rd_clamp(conn->dev->dev_attr.max_qp_init_rd_atom), conn->remote.rd_atom);
}
