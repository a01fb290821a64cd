/*
 * rdma_common.c - RDMA verbs 资源的生命周期和 QP 状态机：课程的主干（读之前先看 rdma_common.h 开头的图）
 *
 * 从上到下就是步骤的顺序：设备（步骤1-5）、连接的资源（步骤6-8）、QP 状态机（步骤9、11-13）、数据面
 * （post_receive、post_send、poll_completions）、清理。每个函数只做一件事，对应程序输出里的一个“步骤”：
 * 初始化属性、一次 verbs 调用、它失败时打印调用名、strerror(errno) 与 errno 和该检查什么、再解释它做了什么。
 * 打印的细节在 verbs/qp_print.c，等完成和记账的细节在 verbs/datapath.c，选设备和 GID 的规则在 verbs/selection.c；
 * --trace、--inject、--counters 只经插桩的接缝（verbs/rdma_types.h 的 hook_before/hook_note）进来，这里没有它们的代码。
 */
#include "rdma_common.h"
#include "console/i18n.h"

#include "console/clock.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/gid_table.h"
#include "verbs/datapath.h"
#include "verbs/hints.h"
#include "verbs/qp_print.h"
#include "cli/ack_timeout.h"
#include "verbs/wc_check.h"
#include "verbs/path_check.h"
#include "verbs/dev_limits.h"
#include "verbs/selection.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct rdma_hooks no_hooks;

/* 一个 verbs 调用失败：打印调用名、strerror、errno 和该查什么（verbs_print.h），再告诉插桩（--trace） */
static void verbs_failed(const struct rdma_device *dev, struct rdma_conn *conn, const char *call, int err,
			 const char *hint)
{
	char what[64];

	snprintf(what, sizeof(what), "%s()", call);
	verbs_error(what, err, hint);
	hook_note(dev, conn, HOOK_FAILED, call, -1, err);
}

/* 销毁类 verbs 失败不中断清理，只报告（并告诉插桩） */
static void report_destroy(const struct rdma_device *dev, struct rdma_conn *conn, const char *call, int rc)
{
	char what[64];

	snprintf(what, sizeof(what), "%s()", call);
	if (rc != 0)
		con_eprintf(_("警告: %s 失败: %s (errno=%d)\n"), what, strerror(rc), rc);
	hook_note(dev, conn, HOOK_DESTROYED, call, -1, rc);
}

/* 销毁一个 QP 之后：失败只报告；插桩要 QP 号（QP 已经没了，销毁之前读好的） */
static void report_qp_destroy(struct rdma_conn *conn, int i, uint32_t qpn, int rc)
{
	if (rc != 0)
		con_eprintf(_("警告: %s 失败: %s (errno=%d)\n"), "ibv_destroy_qp()", strerror(rc), rc);
	if (conn->hooks->n != 0) {
		struct hook_event ev = { .at = HOOK_DESTROYED, .call = "ibv_destroy_qp", .qp = i, .rc = rc, .qpn = qpn };

		hook_emit(NULL, conn, &ev);
	}
}

/* ---------- 设备：步骤1-4 用哪个设备，步骤5 PD ---------- */

void device_init(struct rdma_device *dev, const struct options *opt)
{
	memset(dev, 0, sizeof(*dev));
	dev->opt = opt;
	dev->hooks = &no_hooks;
}

int get_device_list(struct rdma_device *dev, unsigned *step)
{
	step_title(&dev->watch, step, _("获取RDMA设备列表 ibv_get_device_list()"));
	dev->dev_list = ibv_get_device_list(&dev->num_devices);
	if (dev->dev_list == NULL) {
		verbs_failed(dev, NULL, "ibv_get_device_list", errno, device_list_hint(errno));
		return -1;
	}
	if (dev->num_devices == 0) {
		con_error(_("没有找到任何RDMA设备\n"
			CON_HINT "没有硬件网卡时可创建 Soft-RoCE：sudo modprobe rdma_rxe && sudo rdma link add rxe0 type rxe netdev <网卡名>"
			"（rxe 设备重启后就没了，每次开机都要重建，见 TROUBLESHOOTING.md）；"
			"有硬件网卡却一个也列不出来，多半是 ib_uverbs 没加载（sudo modprobe ib_uverbs，装 rdma-core）；运行 ./diagnose.sh\n"));
		return -1;
	}
	hook_note(dev, NULL, HOOK_DEVICE_LIST, "ibv_get_device_list", -1, 0);
	con_printf(P_("找到 %d 个RDMA设备:", "找到 %d 个RDMA设备:", dev->num_devices), dev->num_devices);
	for (int i = 0; i < dev->num_devices; i++)
		con_printf(" %s", ibv_get_device_name(dev->dev_list[i]));
	con_printf("\n");
	return 0;
}

int open_device(struct rdma_device *dev, struct peer_route *peer, unsigned *step)
{
	struct device_set set = { .dev_list = dev->dev_list, .num_devices = dev->num_devices, .opt = dev->opt };
	struct ibv_device *ibdev;
	int rc;

	step_title(&dev->watch, step, _("选择并打开RDMA设备 ibv_open_device()"));
	if (dev->opt->role == ROLE_CLIENT)
		select_lookup_server(dev->opt, peer);
	/* 用哪个设备：-d、按路由、按分数（规则在 selection.c） */
	ibdev = select_device(&set, peer);
	if (ibdev == NULL)
		return -1;
	snprintf(dev->dev_name, sizeof(dev->dev_name), "%s", ibv_get_device_name(ibdev));
	dev->ctx = ibv_open_device(ibdev);
	if (dev->ctx == NULL) {
		verbs_failed(dev, NULL, "ibv_open_device", errno, _("/dev/infiniband/uverbs* 存在且有权限吗？ls -l /dev/infiniband/"));
		return -1;
	}
	hook_note(dev, NULL, HOOK_OPEN_DEVICE, "ibv_open_device", -1, 0);
	rc = ibv_query_device(dev->ctx, &dev->dev_attr);
	if (rc != 0) {
		verbs_error("ibv_query_device()", rc, _("设备可能已被删除；ibv_devinfo 看看"));
		return -1;
	}
	print_device(dev);
	con_explain(_("ibv_context 是后续所有 verbs 调用的入口（相当于打开的设备句柄）\n"));
	if (op_is_atomic(dev->opt->op) && dev->dev_attr.atomic_cap == IBV_ATOMIC_NONE) {
		con_error(_("设备 %s 不支持原子操作（atomic_cap = ATOMIC_NONE），不能用 --op %s\n"
			CON_HINT "ibv_devinfo -v | grep atomic_cap 查看；换一个支持原子操作的设备（rxe 支持）\n"),
			dev->dev_name, op_name(dev->opt->op));
		return -1;
	}
	return 0;
}

int query_port(struct rdma_device *dev, unsigned *step)
{
	struct ibv_port_attr *pa = &dev->port_attr;
	int port = dev->opt->ib_port;
	int rc;

	step_title(&dev->watch, step, _("查询端口属性 ibv_query_port()"));
	if (port > dev->dev_attr.phys_port_cnt) {
		con_error(_("设备 %s 只有 %d 个端口，没有端口 %d\n" CON_HINT "用 -i 1 指定端口\n"),
			dev->dev_name, dev->dev_attr.phys_port_cnt, port);
		return -1;
	}
	rc = ibv_query_port(dev->ctx, (uint8_t)port, pa);
	if (rc != 0) {
		verbs_failed(dev, NULL, "ibv_query_port", rc, _("端口号对吗（-i）？ibv_devinfo 查看"));
		return -1;
	}
	hook_note(dev, NULL, HOOK_PORT, "ibv_query_port", -1, 0);
	print_port(dev);
	if (pa->link_layer == IBV_LINK_LAYER_ETHERNET)
		con_explain(_("以太网端口（RoCE）没有子网管理器，LID 恒为 0，寻址全靠 GID（即IP地址）\n"));
	else
		con_explain(_("InfiniBand 端口的 LID 由子网管理器分配，同一子网内按 LID 寻址\n"));
	if (pa->state != IBV_PORT_ACTIVE) {
		con_error(_("端口 %d 不是 ACTIVE（当前 %s），QP 无法进入 RTR\n"
			CON_HINT "绑定的网卡是否 UP？sudo ip link set <网卡> up；运行 ./diagnose.sh %s\n"),
			port, ibv_port_state_str(pa->state), dev->dev_name);
		return -1;
	}
	return 0;
}

/* 课：用 GID 表（非空条目 tbl[0..n)）的哪一项。RoCE v2 的包是 UDP/IP，源 IP 就是源 GID 里的地址：它必须是内核通往对端时
 * 用的源地址 src_ip，类型 RoCE v2（v1 不是 IP 包），索引放得进 8 位的 sgid_index。返回那一项的 GID 索引，没有返回 -1 */
LESSON int gid_index_for(const struct gid_info *tbl, size_t n, const char *src_ip)
{
	char ip[GID_IP_LEN];

	for (size_t i = 0; i < n; i++) {
		if (tbl[i].kind != GID_KIND_ROCE_V2 || !gid_is_ipv4_mapped(tbl[i].raw) || tbl[i].index > GID_AUTO_MAX_INDEX)
			continue;
		gid_to_ip(tbl[i].raw, ip);
		if (strcmp(ip, src_ip) == 0)
			return (int)tbl[i].index;
	}
	return -1;
}

int choose_gid(struct rdma_device *dev, const struct peer_route *peer, unsigned *step)
{
	struct gid_info *tbl = NULL;
	size_t n = 0;
	const struct gid_info *chosen;
	int rc = -1;

	step_title(&dev->watch, step, _("选择GID ibv_query_gid_table()"));
	if (read_gid_table(dev->ctx, dev->opt->ib_port, dev->port_attr.gid_tbl_len,
			   dev->dev_attr.phys_port_cnt, &tbl, &n) != 0)
		return -1;
	gid_print_table(tbl, n, dev->opt->ib_port);

	chosen = select_gid(tbl, n, dev->port_attr.gid_tbl_len, dev->opt, peer,
			    peer->want_src[0] ? gid_index_for(tbl, n, peer->want_src) : -1);
	if (chosen == NULL)
		goto out;
	dev->gid = *chosen;
	if (dev->opt->role == ROLE_CLIENT && (dev->opt->dev_name != NULL || dev->opt->gid_idx != GID_AUTO))
		select_warn_if_off_route(dev->dev_name, &dev->gid, peer);
	hook_note(dev, NULL, HOOK_GID, "ibv_query_gid_table", -1, 0);
	con_explain(_("GID 是 RoCE 的“地址”，RTR 时告诉本端QP对端的GID；两端都要选 RoCE v2 的同类地址\n"));
	rc = 0;
out:
	free(tbl);
	return rc;
}

/*
 * 选项对设备上限（dev_limits.h）：步骤3 之后、创建任何资源之前。设备选定时用命令行的选项查一次；
 * 多客户端服务端的每个会话参数不同（听客户端的），conn_create 再用会话的选项查一次
 */
int check_limits(const struct rdma_device *dev, const struct options *o)
{
	char why[256];

	if (limits_check(o, &dev->dev_attr, &dev->port_attr, why, sizeof(why)) == 0)
		return 0;
	con_error(_("超出设备 %s 的能力: %s\n"
		    CON_HINT "ibv_devinfo -v 列出设备的全部上限（max_qp、max_qp_wr、max_cqe）和端口的 max_msg_sz\n"),
		    dev->dev_name, why);
	return -1;
}

int device_select(struct rdma_device *dev, struct peer_route *peer, unsigned *step)
{
	if (get_device_list(dev, step) != 0 || open_device(dev, peer, step) != 0 ||
	    query_port(dev, step) != 0 || check_limits(dev, dev->opt) != 0 || choose_gid(dev, peer, step) != 0)
		return -1;
	return 0;
}

int alloc_pd(struct rdma_device *dev, unsigned *step)
{
	step_title(&dev->watch, step, _("分配保护域PD ibv_alloc_pd()"));
	dev->pd = ibv_alloc_pd(dev->ctx);
	if (dev->pd == NULL) {
		verbs_failed(dev, NULL, "ibv_alloc_pd", errno, _("设备资源耗尽或设备已被删除"));
		return -1;
	}
	hook_note(dev, NULL, HOOK_PD, "ibv_alloc_pd", -1, 0);
	con_printf(_("PD 已分配: handle=%u\n"), dev->pd->handle);
	con_explain(_("PD 把 MR 和 QP 圈在一起：只有同一个 PD 里的 QP 才能使用这个 MR\n"));
	return 0;
}

int device_create(struct rdma_device *dev, struct peer_route *peer, unsigned *step)
{
	if (device_select(dev, peer, step) != 0 || alloc_pd(dev, step) != 0)
		return -1;
	return 0;
}

void device_destroy(struct rdma_device *dev)
{
	if (dev->pd != NULL) {
		report_destroy(dev, NULL, "ibv_dealloc_pd", ibv_dealloc_pd(dev->pd));
		dev->pd = NULL;
		con_printf(_("已释放PD（ibv_dealloc_pd）\n"));
	}
	if (dev->ctx != NULL && dev->ctx_borrowed) {
		dev->ctx = NULL;
		con_printf(_("设备上下文归 librdmacm（--cm），随 cm_id 一起释放，不调用 ibv_close_device\n"));
	}
	if (dev->ctx != NULL) {
		report_destroy(dev, NULL, "ibv_close_device", ibv_close_device(dev->ctx));
		dev->ctx = NULL;
		con_printf(_("已关闭设备（ibv_close_device）\n"));
	}
	if (dev->dev_list != NULL) {
		ibv_free_device_list(dev->dev_list);
		hook_note(dev, NULL, HOOK_DESTROYED, "ibv_free_device_list", -1, 0);
		dev->dev_list = NULL;
		con_printf(_("已释放设备列表（ibv_free_device_list）\n"));
	}
}

/* ---------- 连接：步骤6-9 MR、CQ、QP、QP→INIT ---------- */

void conn_init(struct rdma_conn *conn, struct rdma_device *dev, const struct options *opt)
{
	memset(conn, 0, sizeof(*conn));
	conn->dev = dev;
	conn->opt = opt;
	conn->num_qp = opt->num_qp;
	conn->watch = dev->watch;
	conn->hooks = dev->hooks;
}

/* 课：MR 的权限——网卡替谁碰这块内存。对端的 WRITE/READ/原子要 REMOTE_*；网卡往本地写（接收、READ 的结果、
 * 原子的原值）要 LOCAL_WRITE；REMOTE_WRITE/REMOTE_ATOMIC 必须同时有 LOCAL_WRITE。只开本操作、本角色需要的 */
LESSON int mr_access_for(enum rdma_op op, enum role role)
{
	if (role == ROLE_CLIENT)   /* 主动方从不开 REMOTE_*；WRITE 的数据源只被网卡读 */
		return op == OP_WRITE || op == OP_WRITE_IMM ? 0 : IBV_ACCESS_LOCAL_WRITE;
	switch (op) {
	case OP_WRITE:
	case OP_WRITE_IMM:
		return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	case OP_READ:
		return IBV_ACCESS_REMOTE_READ;   /* 只被对端读 */
	case OP_FETCH_ADD:
	case OP_CMP_SWAP:
		return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC;
	default:
		return IBV_ACCESS_LOCAL_WRITE;   /* SEND：接收的数据写进本地 */
	}
}

int mr_access(const struct options *o)
{
	return mr_access_mode(o) >= 0 ? mr_access_mode(o) : mr_access_for(o->op, o->role);
}

int register_mr(struct rdma_conn *conn, int access)
{
	size_t alloc_len;

	step_title(&conn->watch, &conn->step, _("注册内存区域MR ibv_reg_mr()"));
	conn->slot = slot_size(conn->opt);
	conn->srq_bufs = srq_recv_buffers(conn->opt);
	conn->buf_len = (2 * (size_t)conn->num_qp + conn->srq_bufs) * conn->slot;
	if (limits_check_memory(conn->buf_len) != 0)
		return -1;
	alloc_len = (conn->buf_len + 4095) & ~(size_t)4095;
	conn->buf = aligned_alloc(4096, alloc_len);
	if (conn->buf == NULL) {
		con_error(_("分配 %zu 字节缓冲区失败: %s\n"), alloc_len, strerror(errno));
		return -1;
	}
	memset(conn->buf, 0, alloc_len);
	hook_before(conn, HOOK_MR, "ibv_reg_mr", -1, 0, &access);   /* 插桩可以改权限（--inject mr-access） */
	conn->mr = ibv_reg_mr(conn->dev->pd, conn->buf, conn->buf_len, access);
	if (conn->mr == NULL) {
		int err = errno;

		verbs_failed(NULL, conn, "ibv_reg_mr", err,
			     err == ENOMEM ? _("锁页内存不够：ulimit -l 查看，ulimit -l unlimited 或在 /etc/security/limits.conf 里调大 memlock") :
			     err == EINVAL ? _("访问权限组合非法（REMOTE_WRITE/ATOMIC 需要同时有 LOCAL_WRITE）") :
			     _("检查缓冲区地址与长度"));
		return -1;
	}
	conn->mr_access = access;
	hook_note(NULL, conn, HOOK_MR, "ibv_reg_mr", -1, 0);
	print_mr(conn, access);
	con_explain(_("注册会锁定这些内存页并交给网卡做地址翻译；lkey 给本端的 WR 用，\n"
	       "        rkey 是交给对端的“钥匙”，对端凭它直接读写这块内存，所以只开本操作需要的权限\n"));
	return 0;
}

int create_cq(struct rdma_conn *conn)
{
	int event = conn->opt->cq == CQ_EVENT;

	step_title(&conn->watch, &conn->step, _("创建完成队列CQ ibv_create_cq()%s"), event ? _("（带完成通道）") : "");
	queue_caps(conn->opt, &conn->caps);
	if (event && create_channel(conn) != 0)
		return -1;
	conn->cq = ibv_create_cq(conn->dev->ctx, (int)conn->caps.cqe, NULL, conn->channel, 0);
	if (conn->cq == NULL) {
		verbs_failed(NULL, conn, "ibv_create_cq", errno, _("CQ 太大？设备上限见 ibv_devinfo -v 的 max_cqe"));
		return -1;
	}
	hook_note(NULL, conn, HOOK_CQ, "ibv_create_cq", -1, 0);
	con_printf(_("CQ 已创建: 容量 %d（请求 %u = %d 个QP × (发送 %u + 接收 %u)），%d 个QP共享这一个CQ\n"), conn->cq->cqe,
		   conn->caps.cqe, conn->num_qp, conn->caps.send_wr, conn->caps.recv_wr, conn->num_qp);
	con_explain(_("每个完成的 WR 在 CQ 里留下一个 WC；wr_id 里放的是QP序号，据此区分来自哪个QP\n"));
	if (event && arm_cq(conn) != 0)
		return -1;
	return 0;
}

/*
 * --srq：一个共享接收队列给这条连接的全部 QP。接收请求投递到 SRQ（ibv_post_srq_recv），哪个QP来了消息就从 SRQ 里
 * 取一个；完成的 wc.qp_num 说明是哪个QP收到的。省的是内存：每个QP各自的接收队列都要按最坏情况备满缓冲区。
 */
int create_srq(struct rdma_conn *conn)
{
	uint32_t want = srq_depth_wanted(conn->opt, &conn->caps);   /* dev_limits.c 说了为什么这么深 */
	struct ibv_srq_init_attr init = {
		.attr = { .max_wr = want, .max_sge = 1, .srq_limit = 0 },
	};

	if (!conn->opt->srq)
		return 0;
	step_title(&conn->watch, &conn->step, _("创建共享接收队列SRQ ibv_create_srq()"));
	conn->srq = ibv_create_srq(conn->dev->pd, &init);
	if (conn->srq == NULL) {
		verbs_failed(NULL, conn, "ibv_create_srq", errno,
			     _("设备不支持 SRQ，或深度超过 max_srq_wr（ibv_devinfo -v 看 max_srq、max_srq_wr）"));
		return -1;
	}
	conn->srq_depth = init.attr.max_wr;   /* ibv_create_srq 写回实际值 */
	hook_note(NULL, conn, HOOK_SRQ, "ibv_create_srq", -1, 0);
	print_srq(conn, want);
	con_explain(_("SRQ 不属于哪个QP：接收请求投递到 SRQ，哪个QP来了消息就从 SRQ 里取一个；服务成千上万条连接的\n"
		    "        服务端靠它按“同时在途的消息数”而不是“连接数 × 最坏情况”准备接收缓冲区\n"));
	return 0;
}

/* ibv_create_qp 之后：驱动给的 max_inline_data 够不够，发送队列的记账（sq_account.h）准备好 */
static int check_qp_caps(struct rdma_conn *conn, int i, uint32_t max_inline)
{
	conn->max_inline = max_inline;
	if (conn->max_inline < conn->opt->inline_size) {
		con_error(_("QP[%d] 要了 max_inline_data=%u（--inline），ibv_create_qp 只给了 %u\n"
			    CON_HINT "按 verbs 的约定，返回的值只会大于等于要的值；这个驱动不守约定。换小一点的 --inline\n"),
			    i, conn->opt->inline_size, conn->max_inline);
		return -1;
	}
	if (hook_before(conn, HOOK_QP_CAPS, "ibv_create_qp", i, 0, NULL) < 0)   /* 插桩可以拒绝（--inject inline 要更大的 --size） */
		return -1;
	if (sq_account_init(&conn->sq[i], conn->caps.send_wr) != 0) {
		con_error(_("QP[%d] 发送队列记账的内存分配失败（%u 项）\n" CON_HINT "内存不够？减小 --tx-depth\n"),
			    i, conn->caps.send_wr);
		return -1;
	}
	return 0;
}

/* 课：QP 的“形状”——类型、两个队列各交给哪个 CQ、接收从哪里取（SRQ）、队列多深、inline 多大 */
LESSON void qp_init_attr_for(const struct rdma_conn *conn, struct ibv_qp_init_attr *init)
{
	*init = (struct ibv_qp_init_attr){
		.qp_type = conn->opt->qp_type == QPK_UD ? IBV_QPT_UD : IBV_QPT_RC,
		.send_cq = conn->cq,          /* 所有QP共用一个 CQ：完成里的 wr_id 说明是哪个QP */
		.recv_cq = conn->cq,
		.srq = conn->srq,             /* --srq：接收请求从共享接收队列里取（max_recv_wr 不用） */
		.sq_sig_all = 0,              /* 每个 WR 自己说要不要完成（IBV_SEND_SIGNALED） */
		.cap = { .max_send_wr = conn->caps.send_wr, .max_recv_wr = conn->caps.recv_wr,
			 .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = conn->opt->inline_size },
	};
}

int create_qps(struct rdma_conn *conn)
{
	struct ibv_qp_init_attr init;
	int ud = conn->opt->qp_type == QPK_UD;

	step_title(&conn->watch, &conn->step, P_("创建%d个%s QP ibv_create_qp()%s", "创建%d个%s QP ibv_create_qp()%s", conn->num_qp), conn->num_qp, ud ? "UD" : "RC",
		   conn->srq != NULL ? _("（接收用 SRQ）") : "");
	for (int i = 0; i < conn->num_qp; i++) {
		qp_init_attr_for(conn, &init);
		conn->qp[i] = ibv_create_qp(conn->dev->pd, &init);
		if (conn->qp[i] == NULL) {
			verbs_failed(NULL, conn, "ibv_create_qp", errno,
				     _("QP 数量、队列深度或 --inline 超过设备上限？ibv_devinfo -v 查看 max_qp/max_qp_wr"));
			return -1;
		}
		/* ibv_create_qp 写回实际值（可能比请求的大） */
		if (check_qp_caps(conn, i, init.cap.max_inline_data) != 0)
			return -1;
		/* PSN 随机：避免与旧连接残留的报文混淆（与 rc_pingpong 一样取 24 位） */
		conn->psn[i] = wire_random_psn();
		hook_note(NULL, conn, HOOK_QP_CREATED, "ibv_create_qp", i, 0);
		con_printf(_("QP[%d]: qp_num=0x%06x  起始PSN=0x%06x\n"), i, conn->qp[i]->qp_num, conn->psn[i]);
	}
	if (ud)
		con_explain(_("UD = 不可靠数据报：QP 不和哪个对端绑定，每个发送 WR 自己带目的地（地址句柄 AH + 对端 QP 号 + Q_Key）；\n"
			    "        没有确认、重传、RNR，一条消息就是一个包（不超过路径MTU）。新建的QP处于 RESET 状态\n"));
	else
		con_explain(_("RC = 可靠连接，一个QP只和对端的一个QP配对；新建的QP处于 RESET 状态\n"));
	if (conn->opt->bench != BENCH_NONE)
		con_printf(_("  队列深度: 发送 %u、接收 %u（--tx-depth）；max_inline_data=%u（--inline %u）\n"),
			   conn->caps.send_wr, conn->caps.recv_wr, conn->max_inline, conn->opt->inline_size);
	return 0;
}

int conn_create(struct rdma_conn *conn, int access)
{
	if (check_limits(conn->dev, conn->opt) != 0 || register_mr(conn, access) != 0 || create_cq(conn) != 0 ||
	    create_srq(conn) != 0 || create_qps(conn) != 0)
		return -1;
	return 0;
}

/* ---------- QP 状态机：RESET→INIT →（交换连接信息）→ INIT→RTR → RTR→RTS ---------- */

/* UD：三次转换各少了什么（docs/QP-TYPES.md 把 RC 和 UD 并排放）；RC 的在下面 */

static int is_ud(const struct rdma_conn *conn) { return conn->opt->qp_type == QPK_UD; }

/* 对每个QP做一次转换；失败时说出哪个QP、哪一步 */
static int modify_all(struct rdma_conn *conn, struct ibv_qp_attr *attr, int mask, const char *state)
{
	for (int i = 0; i < conn->num_qp; i++) {
		int rc = ibv_modify_qp(conn->qp[i], attr, mask);

		hook_modified(conn, state, i, rc, attr);
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
		hook_modified(conn, "RTS", i, rc, &attr);
		if (rc != 0) {
			verbs_error_qp(i, "ibv_modify_qp(RTS)", rc, _("UD 的 RTS 只要 sq_psn；QP 必须先在 RTR"));
			return -1;
		}
	}
	print_qp_states(conn, "RTS");
	return 0;
}

/* 课：RESET→INIT 绑定端口，并声明对端能对我做什么（QP 的 qp_access_flags 只管远端；LOCAL_WRITE 是 MR 的事，去掉） */
LESSON int init_attr_for(const struct rdma_conn *conn, int access, struct ibv_qp_attr *attr)
{
	*attr = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = (uint8_t)conn->opt->ib_port,
		.qp_access_flags = (unsigned)(access & ~IBV_ACCESS_LOCAL_WRITE),
	};
	return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
}

int modify_qps_to_init(struct rdma_conn *conn, int access)
{
	struct ibv_qp_attr attr;
	char acc[128];
	int mask, rc;

	step_title(&conn->watch, &conn->step, _("修改QP状态 RESET->INIT ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_init(conn);
	mask = init_attr_for(conn, access, &attr);
	hook_before(conn, HOOK_MODIFY, "INIT", -1, 0, &attr);   /* 插桩可以改属性（--inject qp-access） */
	access_str((int)attr.qp_access_flags, acc, sizeof(acc));
	con_printf(_("设置: port_num=%u pkey_index=%u qp_access_flags=%s\n"), attr.port_num, attr.pkey_index, acc);   /* 传给 ibv_modify_qp 的值 */
	con_explain(_("INIT 只绑定端口并声明“对端可以对我做什么”（远端读/写/原子权限，与 MR 的 REMOTE_* 一致）\n"));
	for (int i = 0; i < conn->num_qp; i++) {
		rc = ibv_modify_qp(conn->qp[i], &attr, mask);
		hook_modified(conn, "INIT", i, rc, &attr);
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
	h->gid_type = (uint8_t)conn->dev->gid.kind;     /* 两端必须相同（wire_compare）；--cm 时是 CM 选的条目的类型 */
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

int exchange_connection_info(struct rdma_conn *conn)
{
	struct wire_hello local;
	char msg[768];   /* GID 类型不同的那句最长（wire_compare） */

	step_title(&conn->watch, &conn->step, _("交换连接信息（控制平面）"));
	fill_local_hello(conn, &local);
	/* 经控制平面（control/ctrl.h：TCP 连接，或 --cm 的控制QP）发出本端的 HELLO、收下对端的；线上格式和校验在 control/wire.c。
	 * 多客户端服务端已经先收到了客户端的（runs/sessions.c），只发自己的 */
	if (ctrl_exchange_hello(&conn->ctrl, &local, &conn->remote, conn->remote_ready) != 0)
		return -1;
	if (wire_compare(&local, &conn->remote, msg, sizeof(msg)) != 0) {
		con_error("%s\n", msg);
		return -1;
	}
	conn->path_mtu = (enum ibv_mtu)wire_path_mtu(local.mtu, conn->remote.mtu);   /* 两端 active_mtu 的较小者 */
	conn->rd = wire_rd_depth(local.rd_atom, local.init_rd_atom, conn->remote.rd_atom, conn->remote.init_rd_atom);
	print_exchange(conn, &local);
	path_check_before_rtr(conn);
	conn->peer_rkey = conn->remote.rkey;
	hook_after(conn, HOOK_EXCHANGED, 0, &conn->peer_rkey);   /* 插桩可以改对端的 rkey（--inject rkey） */
	return 0;
}

/* 课：INIT→RTR 告诉 QP i 对端是谁——对端的 QP 号和起始 PSN（步骤11 交换来的）、路径MTU、GRH（RoCE 必须带） */
LESSON int rtr_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr)
{
	*attr = (struct ibv_qp_attr){
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
		attr->ah_attr.is_global = 1;
		attr->ah_attr.grh = (struct ibv_global_route){
			.sgid_index = (uint8_t)conn->dev->gid.index,
			.hop_limit = 64,
			.traffic_class = 0,
			.flow_label = 0,
		};
		memcpy(attr->ah_attr.grh.dgid.raw, conn->remote.qp[i].gid, 16);
	}
	return IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
	       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
}

int modify_qps_to_rtr(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr;
	int mask, rc;

	step_title(&conn->watch, &conn->step, _("修改QP状态 INIT->RTR ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_rtr(conn);
	for (int i = 0; i < conn->num_qp; i++) {
		mask = rtr_attr_for(conn, i, &attr);
		if (i == 0)   /* 课的函数填的值（插桩在这之后才改，它自己会说） */
			print_rtr_settings(conn, &attr);
		hook_before(conn, HOOK_MODIFY, "RTR", i, 0, &attr);   /* 插桩可以改属性（--inject qpn） */
		rc = ibv_modify_qp(conn->qp[i], &attr, mask);
		hook_modified(conn, "RTR", i, rc, &attr);
		if (rc != 0) {
			rtr_debug(conn, i, rc);
			return -1;
		}
	}
	print_qp_states(conn, "RTR");
	return 0;
}

/* 课：RTR→RTS 定下本端发送的起点（本端的起始 PSN）和重传的规矩（等多久、重传几次、RNR 重试几次、同时在途几个 READ/原子） */
LESSON int rts_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr)
{
	*attr = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS,
		.sq_psn = conn->psn[i],
		.timeout = (uint8_t)conn->opt->ack_timeout,  /* --ack-timeout（默认 14）：只管本端，两端可以不同 */
		.retry_cnt = 6,     /* 规范里 7 就是 7 次，但 rxe（rxe_comp.c）把 7 当成无限重试，对端消失时永远等不到 RETRY_EXC_ERR */
		.rnr_retry = 7,
		.max_rd_atomic = conn->rd.out,
	};
	return IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
	       IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
}

int modify_qps_to_rts(struct rdma_conn *conn)
{
	struct ibv_qp_attr attr;
	char why[512];
	int mask, rc;

	step_title(&conn->watch, &conn->step, _("修改QP状态 RTR->RTS ibv_modify_qp()"));
	if (is_ud(conn))
		return ud_to_rts(conn);
	for (int i = 0; i < conn->num_qp; i++) {
		mask = rts_attr_for(conn, i, &attr);
		if (i == 0)   /* 课的函数填的值（插桩在这之后才改，它自己会说） */
			print_rts_settings(conn, &attr, why, sizeof(why));
		hook_before(conn, HOOK_MODIFY, "RTS", i, 0, &attr);   /* 插桩可以改属性（--inject psn、rnr-retry0） */
		rc = ibv_modify_qp(conn->qp[i], &attr, mask);
		hook_modified(conn, "RTS", i, rc, &attr);
		if (rc != 0) {
			con_error(_("修改QP[%d]到RTS状态失败\n"), i);
			verbs_error("ibv_modify_qp(RTS)", rc, _("QP 必须先成功进入 RTR；参数超出设备上限？EINVAL 也可能是掩码：少了 RTS 必需的位，或带了 RTS 不允许的位（比如 RTR 的 IBV_QP_AV、IBV_QP_DEST_QPN）"));
			return -1;
		}
	}
	print_qp_states(conn, "RTS");
	return 0;
}

int modify_qp_to_err(struct rdma_conn *conn, int i)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	int rc = ibv_modify_qp(conn->qp[i], &attr, IBV_QP_STATE);

	hook_modified(conn, "ERR", i, rc, &attr);
	if (rc != 0) {
		verbs_error_qp(i, "ibv_modify_qp(ERR)", rc, _("任何状态都能改到 ERR；失败说明 QP 已被销毁或设备出错，看 dmesg"));
		return -1;
	}
	return 0;
}

/* ---------- 数据面：post_receive、post_send、poll_completions（wr_id 的低 8 位是 QP 序号） ---------- */

/* 课：一个接收 WR——收到的数据放进哪里（本端 MR 里的地址、长度、lkey），wr_id 让完成认出它 */
LESSON void recv_wr_for(const struct rdma_conn *conn, int i, void *addr, uint32_t len,
			 struct ibv_recv_wr *wr, struct ibv_sge *sge)
{
	*sge = (struct ibv_sge){ .addr = (uintptr_t)addr, .length = len, .lkey = conn->mr->lkey };
	*wr = (struct ibv_recv_wr){ .wr_id = WRID(i, 0), .sg_list = sge, .num_sge = 1 };
}

/* 课：一个发送 WR 的公共部分——数据从本端哪里来（sge 用本端的 lkey）、wr_id、操作码、要不要完成、inline */
LESSON void send_wr_for(const struct rdma_conn *conn, int i, const struct send_req *req,
			 struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	*sge = (struct ibv_sge){ .addr = (uintptr_t)req->local, .length = req->len, .lkey = conn->mr->lkey };
	*wr = (struct ibv_send_wr){
		.wr_id = WRID(i, req->seq),
		.sg_list = sge,
		.num_sge = 1,
		.opcode = req->opcode,
		.send_flags = (req->unsignaled ? 0 : IBV_SEND_SIGNALED) | (req->inline_data ? IBV_SEND_INLINE : 0),
	};
}

/* 课：RDMA WRITE/READ 要对端的什么——对端内存的虚拟地址和对端 MR 的 rkey（步骤11 交换来的） */
LESSON void rdma_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr)
{
	wr->wr.rdma.remote_addr = req->remote_addr;
	wr->wr.rdma.rkey = conn->peer_rkey;
}

/* 课：原子操作——对端的一个 8 字节对齐的字（地址和 rkey），加数或比较值，以及交换值 */
LESSON void atomic_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr)
{
	wr->wr.atomic.remote_addr = req->remote_addr;
	wr->wr.atomic.rkey = conn->peer_rkey;
	wr->wr.atomic.compare_add = req->compare_add;
	wr->wr.atomic.swap = req->swap;
}

void build_wr(struct rdma_conn *conn, int i, const struct send_req *req, struct ibv_send_wr *wr, struct ibv_sge *sge)
{
	send_wr_for(conn, i, req, wr, sge);   /* 课：公共部分 */
	if (req->ah != NULL) {   /* UD：每个 WR 自己带目的地 */
		wr->wr.ud.ah = req->ah;
		wr->wr.ud.remote_qpn = req->remote_qpn;
		wr->wr.ud.remote_qkey = UD_QKEY;
		return;
	}
	switch (req->opcode) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		wr->imm_data = htonl(req->imm);   /* 立即数按网络字节序放在报文里 */
		/* fall through */
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		rdma_wr_for(conn, req, wr);
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		atomic_wr_for(conn, req, wr);
		break;
	default:
		break;
	}
}
/*
 * 投递一个接收请求：网卡把对端下一条 SEND（或 WRITE_WITH_IMM 的立即数）放进 addr 开始的 len 字节。
 * 没有 --srq 时投到 QP i 自己的接收队列；--srq 时投到 N 个QP共用的 SRQ，i 是缓冲区号（可以多于QP数），
 * 完成的 wc.qp_num 才说明是哪个QP收到的。wr_id = i（WRID(i, 0)）；--srq 时 wrid_srq(i)：带上 SRQ 的标记，
 * 出错的完成（opcode 没有定义）也认得出这是 SRQ 的接收、i 是缓冲区号而不是QP号（verbs/wc_check.h）
 */
int post_receive(struct rdma_conn *conn, int i, void *addr, uint32_t len)
{
	struct ibv_sge sge;
	struct ibv_recv_wr wr, *bad = NULL;
	int rc;

	recv_wr_for(conn, i, addr, len, &wr, &sge);
	if (conn->srq != NULL) {
		wr.wr_id = wrid_srq(i);	/* SRQ 的接收带标记：i 是缓冲区号，不是QP号（wc_check.h） */
		rc = ibv_post_srq_recv(conn->srq, &wr, &bad);
		if (rc != 0) {
			verbs_error("ibv_post_srq_recv()", rc, _("SRQ 满了（深度见步骤“创建共享接收队列SRQ”）或 SRQ 出错"));
			return -1;
		}
		hook_data(conn, HOOK_POST_RECV, i, 0, &wr);
		return 0;
	}
	rc = ibv_post_recv(conn->qp[i], &wr, &bad);
	if (rc != 0) {
		verbs_error_qp(i, "ibv_post_recv()", rc, _("接收队列满了（max_recv_wr）或QP处于错误状态"));
		return -1;
	}
	hook_data(conn, HOOK_POST_RECV, i, conn->qp[i]->qp_num, &wr);
	return 0;
}

int post_send(struct rdma_conn *conn, int i, const struct send_req *reqs, int n)
{
	struct ibv_send_wr wr[MAX_POST_LIST], *bad = NULL;
	struct ibv_sge sge[MAX_POST_LIST];
	int rc;

	if (n < 1 || n > MAX_POST_LIST) {
		con_error(_("QP[%d] 一次要投递 %d 个 WR，只支持 1..%d 个（ibv_post_send 未调用）\n"
			    CON_HINT "--post-list 在解析参数时就限制在 1..%d；走到这里是程序的错误\n"),
			    i, n, MAX_POST_LIST, MAX_POST_LIST);
		return -1;
	}
	if (check_sq_room(conn, i, reqs, n) != 0 || check_inline(conn, i, reqs, n) != 0)
		return -1;
	for (int k = 0; k < n; k++) {
		build_wr(conn, i, &reqs[k], &wr[k], &sge[k]);
		wr[k].next = k + 1 < n ? &wr[k + 1] : NULL;
		hook_before(conn, HOOK_SEND_WR, NULL, i, 0, &wr[k]);   /* 插桩可以改 WR（--inject lkey） */
	}
	rc = ibv_post_send(conn->qp[i], wr, &bad);
	if (rc != 0) {
		char call[64] = "ibv_post_send()";

		if (n > 1)   /* 链表：bad 指向第一个没投进去的 WR，它前面的已经投了 */
			snprintf(call, sizeof(call), _("ibv_post_send()（链表 %d 个里的第 %d 个）"), n,
				 bad != NULL && bad >= wr && bad < wr + n ? (int)(bad - wr) + 1 : 1);
		verbs_error_qp(i, call, rc, _("发送队列满了（max_send_wr）、QP 不在 RTS，或长度超过设备上限（inline 时是 max_inline_data）"));
		return -1;
	}
	for (int k = 0; k < n; k++) {
		sq_account_post(&conn->sq[i], !reqs[k].unsignaled);
		hook_data(conn, HOOK_POST_SEND, i, conn->qp[i]->qp_num, &wr[k]);   /* --trace：它的 PSN 由 trace 自己数 */
	}
	return 0;
}

/* 课：状态不是 SUCCESS 就是失败（别的字段这时只有 wr_id、qp_num 可信）；成功的完成靠 wr_id 的低 8 位找到本端的 QP，
 * 它的 qp_num 必须是那个 QP 的号码 */
LESSON enum wc_verdict wc_verdict_for(const struct rdma_conn *conn, const struct ibv_wc *wc)
{
	int i = wrid_qp(wc->wr_id);

	if (wc->status != IBV_WC_SUCCESS)
		return WC_FAILED;
	return i < conn->num_qp && wc->qp_num == conn->qp[i]->qp_num ? WC_MINE : WC_NOT_MINE;
}

static int check_wc(struct rdma_conn *conn, const struct ibv_wc *wc)
{
	enum wc_verdict v = wc_verdict_for(conn, wc);

	if (v == WC_FAILED)
		return wc_failed(conn, wc);
	/* SRQ 的接收：wr_id 是标记 + 缓冲区号（可以多于 256 块），哪个QP收到的看 qp_num；
	 * 其余的完成：wr_id 低 8 位是QP号，qp_num 必须是那个QP的（上面的课 wc_verdict_for） */
	if (wrid_is_srq(wc->wr_id) ?
	    srq_recv_is_ours(conn, wc) :
	    v == WC_MINE)
		return 0;
	con_error(_("WC 的 wr_id=%llu / qp_num=0x%06x 对不上本端的QP\n"),
		  (unsigned long long)wc->wr_id, wc->qp_num);
	return -1;
}

/* 取出的 r 个完成：写 trace，检查状态（错误时打印状态与提示），按硬件规则还发送队列的槽 */
int reap_wcs(struct rdma_conn *conn, struct ibv_wc *wcs, int r)
{
	note_wcs(conn, wcs, r);
	for (int k = 0; k < r; k++)
		if (check_wc(conn, &wcs[k]) != 0 || note_send_done(conn, &wcs[k]) != 0)
			return -1;
	return 0;
}

int poll_cq_took(struct rdma_conn *conn, struct ibv_wc *wcs, int r)
{
	if (r < 0)
		return poll_cq_failed(r);
	return reap_wcs(conn, wcs, r) == 0 ? r : -1;
}

int poll_completions(struct rdma_conn *conn, int n, struct ibv_wc *wcs)
{
	long long deadline = now_ms() + conn->opt->timeout_ms;
	int got = 0;
	unsigned spins = 0;

	while (got < n) {
		/* 一次最多取还差的个数；0 = CQ 暂时是空的 */
		int r = ibv_poll_cq(conn->cq, n - got, wcs + got);

		if (r < 0)
			return poll_cq_failed(r);
		if (reap_wcs(conn, wcs + got, r) != 0)
			return -1;
		got += r;
		if (r > 0) {
			spins = 0;
			continue;
		}
		/* 空：忙轮询（稍作让步），或 --cq event 时睡在完成通道上；都有 -t 超时 */
		if (wait_cq(conn, deadline, &spins, got, n) != 0)
			return -1;
	}
	return 0;
}

/* ---------- 清理：先连接（逆序），再设备 ---------- */

/* 课：一条连接的对象按什么顺序销毁——先销毁用着别人的，再销毁被用的：QP 用着 SRQ、CQ、MR 和（UD 的）AH，CQ 用着
 * 完成通道；还没确认的完成事件要在 ibv_destroy_cq 之前确认。把顺序写进 order，返回个数（每个对象一次） */
LESSON int teardown_order_for(const struct rdma_conn *conn, enum teardown *order)
{
	static const enum teardown seq[] = { TD_QPS, TD_SRQ, TD_AH, TD_CQ_EVENTS, TD_CQ, TD_CHANNEL, TD_MR };

	(void)conn;   /* 没有的对象（没有 --srq 时的 SRQ……）那一步什么都不做 */
	memcpy(order, seq, sizeof(seq));
	return TD_COUNT;
}

/* 清理的每一步销毁一种对象（没有就什么都不做）；按课 teardown_order_for 排的顺序调用 */
static void destroy_qps(struct rdma_conn *conn)
{
	int freed = 0;

	if (conn->release_qps != NULL)   /* --srq：QP 先改到 ERR，等 LAST_WQE_REACHED（events.c），再销毁 */
		conn->release_qps(conn, SRQ_LAST_WQE_WAIT_MS);
	for (int i = conn->num_qp - 1; i >= 0; i--) {
		if (conn->qp[i] != NULL) {
			uint32_t qpn = conn->qp[i]->qp_num;     /* 销毁之后就读不到了 */
			int rc = ibv_destroy_qp(conn->qp[i]);

			report_qp_destroy(conn, i, qpn, rc);
			conn->qp[i] = NULL;
			freed++;
		}
		sq_account_free(&conn->sq[i]);
	}
	if (freed > 0)
		con_printf(P_("已销毁 %d 个QP（ibv_destroy_qp）\n", "已销毁 %d 个QP（ibv_destroy_qp）\n", freed), freed);
}

static void destroy_srq(struct rdma_conn *conn)
{
	if (conn->srq != NULL) {   /* 在用它的 QP 之后 */
		report_destroy(NULL, conn, "ibv_destroy_srq", ibv_destroy_srq(conn->srq));
		conn->srq = NULL;
		con_printf(_("已销毁SRQ（ibv_destroy_srq）\n"));
	}
}

static void destroy_ah(struct rdma_conn *conn)
{
	if (conn->ah != NULL) {
		report_destroy(NULL, conn, "ibv_destroy_ah", ibv_destroy_ah(conn->ah));
		conn->ah = NULL;
		con_printf(_("已销毁地址句柄AH（ibv_destroy_ah）\n"));
	}
}

static void ack_cq_events(struct rdma_conn *conn)
{
	if (conn->cq != NULL && conn->cq_unacked > 0) {
		ibv_ack_cq_events(conn->cq, conn->cq_unacked);
		con_printf(_("已确认剩下的 %u 个完成事件（ibv_ack_cq_events；不确认的话 ibv_destroy_cq 会一直等）\n"),
			   conn->cq_unacked);
		conn->cq_unacked = 0;
	}
}

static void destroy_cq(struct rdma_conn *conn)
{
	if (conn->cq != NULL) {
		report_destroy(NULL, conn, "ibv_destroy_cq", ibv_destroy_cq(conn->cq));
		conn->cq = NULL;
		con_printf(_("已销毁CQ（ibv_destroy_cq）\n"));
	}
}

static void destroy_channel(struct rdma_conn *conn)
{
	if (conn->channel != NULL) {
		/* 通道要在所有用它的 CQ 之后销毁，否则 EBUSY */
		report_destroy(NULL, conn, "ibv_destroy_comp_channel", ibv_destroy_comp_channel(conn->channel));
		conn->channel = NULL;
		con_printf(_("已销毁完成通道（ibv_destroy_comp_channel，共收到 %lu 个完成事件）\n"), conn->cq_events);
	}
}

static void destroy_mr(struct rdma_conn *conn)
{
	if (conn->mr != NULL) {
		report_destroy(NULL, conn, "ibv_dereg_mr", ibv_dereg_mr(conn->mr));
		conn->mr = NULL;
		con_printf(_("已注销MR（ibv_dereg_mr）\n"));
	}
}

void conn_destroy(struct rdma_conn *conn)
{
	static void (*const destroy[TD_COUNT])(struct rdma_conn *) = {
		[TD_QPS] = destroy_qps, [TD_SRQ] = destroy_srq, [TD_AH] = destroy_ah, [TD_CQ_EVENTS] = ack_cq_events,
		[TD_CQ] = destroy_cq, [TD_CHANNEL] = destroy_channel, [TD_MR] = destroy_mr,
	};
	enum teardown order[TD_COUNT];
	int n;

	ctrl_close(&conn->ctrl);
	n = teardown_order_for(conn, order);
	for (int k = 0; k < n && k < TD_COUNT; k++)
		if (order[k] >= 0 && order[k] < TD_COUNT)
			destroy[order[k]](conn);
	free(conn->buf);
	conn->buf = NULL;
}

void destroy_resources(struct rdma_device *dev, struct rdma_conn *conn)
{
	step_title(&conn->watch, &conn->step, _("清理资源（与创建顺序相反）"));
	conn_destroy(conn);
	device_destroy(dev);
	ctrl_release(&conn->ctrl);
}
