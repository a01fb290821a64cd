/*
 * vc-depth.c - 一个故意犯“队列深度”错误的小 verbs 程序：给 make verbs-check-lab（tests/verbs-check/lab-provoke.sh）
 * 在真实的 rxe 上让 verbs-check 的深度规则各触发一次。不是课程的一部分，也不是本项目程序的写法。
 *
 *     vc-depth DEV GID_INDEX MODE      MODE: sq | rq | cq | ud-pd
 *
 * 一个 RC QP 连到它自己（dest_qp_num = 自己，dgid = 自己的 GID：rxe 在本机回环），然后：
 *   sq     投递 max_send_wr 个带信号的 RDMA WRITE，等它们做完但不取完成，再投一个：硬件（mlx5）上发送队列的位置
 *          要等完成被取走才释放，第 max_send_wr+1 个 ibv_post_send 返回 ENOMEM；rxe 在 WR 做完时就释放，照样收下
 *          → verbs-check 的 send.sq_full
 *   rq     投递 max_recv_wr 个接收，给自己发同样多的 SEND（发送的完成在另一个 CQ 里，取走），接收的完成不取，再投一个接收
 *          → recv.rq_full（同样：rxe 在接收被用掉时释放，硬件要等完成被取走）
 *   cq     CQ 要 4 个位置，投递 cqe+1 个带信号的 WRITE 不取完成 → cq.overflow（rxe 上 CQ 溢出：异步事件 CQ_ERR）
 *   ud-pd  UD QP 在一个 PD 里，AH 建在另一个 PD 里，用它给自己发一个数据报 → ud.ah_pd
 * 最后取完能取的完成（最多 2 秒），按顺序销毁。每个 verbs 失败打印调用、strerror 和提示，退出码 1。
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BUF_BYTES 65536
#define MSG 64
#define QKEY 0x11111111u

struct vc {
	struct ibv_context *ctx;
	struct ibv_pd *pd, *pd2;
	struct ibv_mr *mr;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_ah *ah;
	struct ibv_qp_cap cap; /* ibv_create_qp 写回的容量（rxe 的 ibv_query_qp 报得更多：那是它自己取整后的队列） */
	union ibv_gid gid;
	enum ibv_mtu mtu;
	int gidx;
	char *buf;
};

static int fail(const char *call, int err, const char *hint)
{
	fprintf(stderr, "vc-depth: %s failed: %s (errno=%d); %s\n", call, strerror(err), err, hint);
	return 1;
}

static int open_dev(struct vc *v, const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_port_attr pa;

	for (int i = 0; list && list[i] && !v->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			v->ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!v->ctx)
		return fail("ibv_open_device", errno ? errno : ENODEV, "is the device name right (ibv_devices)?");
	if (ibv_query_port(v->ctx, 1, &pa) || ibv_query_gid(v->ctx, 1, v->gidx, &v->gid))
		return fail("ibv_query_port/ibv_query_gid", errno, "port 1 and the GID index must exist (show_gids.sh)");
	v->mtu = pa.active_mtu;
	return 0;
}

static int make_objects(struct vc *v, int cqe, enum ibv_qp_type type, int max_send_wr)
{
	struct ibv_qp_init_attr ia = { .qp_type = type, .cap = { .max_send_wr = (uint32_t)max_send_wr, .max_recv_wr = 4,
								  .max_send_sge = 1, .max_recv_sge = 1 } };

	v->pd = ibv_alloc_pd(v->ctx);
	v->buf = calloc(1, BUF_BYTES);
	if (!v->pd || !v->buf)
		return fail("ibv_alloc_pd/calloc", errno, "out of memory?");
	v->mr = ibv_reg_mr(v->pd, v->buf, BUF_BYTES, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	v->scq = ibv_create_cq(v->ctx, cqe, NULL, NULL, 0);
	v->rcq = ibv_create_cq(v->ctx, 64, NULL, NULL, 0);
	if (!v->mr || !v->scq || !v->rcq)
		return fail("ibv_reg_mr/ibv_create_cq", errno, "ulimit -l (locked memory)?");
	ia.send_cq = v->scq;
	ia.recv_cq = v->rcq;
	v->qp = ibv_create_qp(v->pd, &ia);
	v->cap = ia.cap;
	return v->qp ? 0 : fail("ibv_create_qp", errno, "the device's max_qp_wr/max_sge (ibv_devinfo -v)");
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask, const char *what)
{
	int rc = ibv_modify_qp(qp, a, mask);

	return rc ? fail(what, rc, "see the mask and the GID index") : 0;
}

/* RC：INIT → RTR（对端就是自己）→ RTS */
static int connect_self(struct vc *v)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };

	if (modify(v->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "ibv_modify_qp(INIT)"))
		return 1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = v->mtu;
	a.dest_qp_num = v->qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = v->gid;
	a.ah_attr.grh.sgid_index = (uint8_t)v->gidx;
	a.ah_attr.grh.hop_limit = 1;
	if (modify(v->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				      IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, "ibv_modify_qp(RTR)"))
		return 1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 6;
	a.rnr_retry = 6;
	a.max_rd_atomic = 1;
	return modify(v->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				  IBV_QP_MAX_QP_RD_ATOMIC, "ibv_modify_qp(RTS)");
}

static int post(struct vc *v, enum ibv_wr_opcode op, uint64_t id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)v->buf, .length = MSG, .lkey = v->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED },
			   *bad;
	int rc;

	wr.wr.rdma.remote_addr = (uintptr_t)v->buf + BUF_BYTES / 2;
	wr.wr.rdma.rkey = v->mr->rkey;
	if (v->ah) {
		wr.wr.ud.ah = v->ah;
		wr.wr.ud.remote_qpn = v->qp->qp_num;
		wr.wr.ud.remote_qkey = QKEY;
	}
	rc = ibv_post_send(v->qp, &wr, &bad);
	if (rc)
		fprintf(stderr, "vc-depth: ibv_post_send(wr_id=%llu) failed: %s (errno=%d); the send queue is full\n",
			(unsigned long long)id, strerror(rc), rc);
	return rc;
}

static int post_recv(struct vc *v, uint64_t id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)v->buf + BUF_BYTES / 4, .length = MSG + 40, .lkey = v->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 }, *bad;
	int rc = ibv_post_recv(v->qp, &wr, &bad);

	if (rc)
		fprintf(stderr, "vc-depth: ibv_post_recv(wr_id=%llu) failed: %s (errno=%d); the receive queue is full\n",
			(unsigned long long)id, strerror(rc), rc);
	return rc;
}

/* 取 cq 上的完成，最多 want 个、最多 ms 毫秒；返回取到的个数 */
static int drain(struct ibv_cq *cq, int want, int ms)
{
	struct ibv_wc wc[16];
	int got = 0;

	for (int t = 0; got < want && t < ms; t++) {
		int n = ibv_poll_cq(cq, 16, wc);
		if (n < 0)
			return got;
		for (int i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS)
				fprintf(stderr, "vc-depth: completion wr_id=%llu: %s\n", (unsigned long long)wc[i].wr_id,
					ibv_wc_status_str(wc[i].status));
		got += n;
		if (n == 0)
			usleep(1000);
	}
	return got;
}

static int mode_sq(struct vc *v)
{
	int cap = (int)v->cap.max_send_wr;

	for (int i = 0; i < cap; i++)
		if (post(v, IBV_WR_RDMA_WRITE, (uint64_t)i))
			return 1;
	usleep(300000); /* rxe 做完它们（不取完成） */
	printf("vc-depth sq: %d WRs posted (max_send_wr=%d), none polled; one more: %s\n", cap, cap,
	       post(v, IBV_WR_RDMA_WRITE, (uint64_t)cap) ? "refused" : "accepted by this device");
	drain(v->scq, cap + 1, 2000);
	return 0;
}

static int mode_rq(struct vc *v)
{
	int cap = (int)v->cap.max_recv_wr;

	for (int i = 0; i < cap; i++)
		if (post_recv(v, (uint64_t)(100 + i)))
			return 1;
	for (int i = 0; i < cap; i++) {
		if (post(v, IBV_WR_SEND, (uint64_t)i))
			return 1;
		drain(v->scq, 1, 2000); /* 发送的完成取走；接收的完成留在 rcq 里 */
	}
	usleep(300000);
	printf("vc-depth rq: %d receives posted (max_recv_wr=%d) and used, none polled; one more: %s\n", cap, cap,
	       post_recv(v, (uint64_t)(100 + cap)) ? "refused" : "accepted by this device");
	drain(v->rcq, cap + 1, 500);
	return 0;
}

static int mode_cq(struct vc *v)
{
	int n = v->scq->cqe + 1;

	for (int i = 0; i < n; i++)
		if (post(v, IBV_WR_RDMA_WRITE, (uint64_t)i))
			return 1;
	usleep(300000);
	printf("vc-depth cq: %d signalled WRITEs on a CQ with cqe=%d, none polled\n", n, v->scq->cqe);
	drain(v->scq, n, 1000);
	return 0;
}

/* UD：QP 在 pd 里，AH 在 pd2 里 */
static int mode_ud_pd(struct vc *v)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = QKEY };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1, .grh = { .dgid = v->gid, .sgid_index = (uint8_t)v->gidx,
									   .hop_limit = 1 } };

	if (modify(v->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY, "ibv_modify_qp(INIT)"))
		return 1;
	a.qp_state = IBV_QPS_RTR;
	if (modify(v->qp, &a, IBV_QP_STATE, "ibv_modify_qp(RTR)"))
		return 1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	if (modify(v->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN, "ibv_modify_qp(RTS)"))
		return 1;
	v->pd2 = ibv_alloc_pd(v->ctx);
	v->ah = v->pd2 ? ibv_create_ah(v->pd2, &aa) : NULL;
	if (!v->ah)
		return fail("ibv_alloc_pd/ibv_create_ah", errno, "the GID index must be a RoCE v2 entry");
	if (post_recv(v, 1) || post(v, IBV_WR_SEND, 2))
		return 1;
	printf("vc-depth ud-pd: a UD send with an AH of another PD: %d completion(s)\n", drain(v->scq, 1, 1000));
	drain(v->rcq, 1, 500);
	return 0;
}

static void teardown(struct vc *v)
{
	if (v->qp)
		ibv_destroy_qp(v->qp);
	if (v->ah)
		ibv_destroy_ah(v->ah);
	if (v->scq)
		ibv_destroy_cq(v->scq);
	if (v->rcq)
		ibv_destroy_cq(v->rcq);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->pd2)
		ibv_dealloc_pd(v->pd2);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
	free(v->buf);
}

int main(int argc, char **argv)
{
	struct vc v = { 0 };
	int rc;

	if (argc != 4 || (strcmp(argv[3], "sq") && strcmp(argv[3], "rq") && strcmp(argv[3], "cq") && strcmp(argv[3], "ud-pd"))) {
		fprintf(stderr, "usage: vc-depth DEV GID_INDEX sq|rq|cq|ud-pd\n");
		return 2;
	}
	v.gidx = atoi(argv[2]);
	int ud = !strcmp(argv[3], "ud-pd");
	rc = open_dev(&v, argv[1]) || make_objects(&v, strcmp(argv[3], "cq") ? 64 : 4, ud ? IBV_QPT_UD : IBV_QPT_RC,
						   strcmp(argv[3], "cq") ? 4 : 64);
	if (!rc && ud)
		rc = mode_ud_pd(&v);
	else if (!rc)
		rc = connect_self(&v) || (!strcmp(argv[3], "sq") ? mode_sq(&v) : !strcmp(argv[3], "rq") ? mode_rq(&v) : mode_cq(&v));
	teardown(&v);
	return rc;
}
