/*
 * probe.c - 练习的宿主机一层：不用 RDMA 设备，用伪造的连接（本端和对端的 QP 号、PSN、GID、rkey 都故意不同）
 * 调用一个课的函数（学习者的强符号，或者 REF=1 时程序自己的弱符号），把它填出来的每个字段打印成 key=value。
 * 对不对由 exercises/check/exercise.py 按规则判断（规范、对端、硬件要求的），不和我们的代码逐字比较。
 *
 *   probe N      练习 N 的全部场景；每个场景一行 "scenario NAME"，后面是字段
 *   PROBE_POISON=0x5a probe N   交给学习者的结构体先用这个字节填满（默认 0xa5）。exercise.py 用两个不同的字节各跑一次：
 *                值跟着毒化字节变的字段就是学习者没有赋值的（垃圾，不是选择）；练习 9 里失败的完成的未定义字段也跟着它变
 * 学习者的函数没写（还是 TODO）时 exercise_todo() 打印 "todo"。崩溃由 ASan 报告（exercise.py 找出学习者文件里的行）。
 */
#include "rdma_common.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exercise_todo(void);
void exercise_todo(void)
{
	printf("todo\n");
}

/* 毒化字节：PROBE_POISON（默认 0xa5）；只在 main 里读一次，之后只读 */
static int poison_byte = 0xa5;
#define POISON poison_byte

/* 一个伪造的世界：本端（学习者这一侧）和对端的值全都不同，拿错了一侧的值一定看得出来 */
struct world {
	struct options opt;
	struct rdma_device dev;
	struct rdma_conn conn;
	struct ibv_qp qp[4];
	struct ibv_mr mr;
	uint8_t buf[4096];
	struct ibv_cq *cq;
	struct ibv_srq *srq;
};

static const uint8_t local_gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 11, 0, 2 };
static const uint8_t peer_gid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 11, 0, 1 };

static void world_init(struct world *w, int num_qp, enum ibv_mtu local_mtu, enum ibv_mtu path_mtu)
{
	memset(w, 0, sizeof(*w));
	w->opt.role = ROLE_CLIENT;
	w->opt.op = OP_SEND;
	w->opt.ib_port = 1;
	w->opt.num_qp = num_qp;
	w->opt.ack_timeout = 14;
	w->dev.opt = &w->opt;
	w->dev.port_attr.link_layer = IBV_LINK_LAYER_ETHERNET;
	w->dev.port_attr.active_mtu = local_mtu;
	w->dev.gid.index = 3;                 /* 不是 0、1：索引照抄常见值也看得出来（场景里还会换成别的） */
	w->dev.dev_attr.max_qp_rd_atom = 16;  /* 设备上限：max_dest_rd_atomic 在协商的深度和它之间是合法的选择 */
	w->dev.dev_attr.max_qp_init_rd_atom = 16;
	memcpy(w->dev.gid.raw, local_gid, 16);
	w->conn.dev = &w->dev;
	w->conn.opt = &w->opt;
	w->conn.num_qp = num_qp;
	w->conn.path_mtu = path_mtu;
	w->conn.rd.in = 12;
	w->conn.rd.out = 10;
	w->conn.caps.send_wr = 24;
	w->conn.caps.recv_wr = 20;
	w->conn.caps.cqe = (uint32_t)num_qp * 44;
	w->cq = (struct ibv_cq *)(uintptr_t)0x7c0000;     /* 只比较指针，不解引用 */
	w->conn.cq = w->cq;
	w->mr.lkey = 0x00000612;
	w->mr.rkey = 0x00000634;
	w->mr.addr = w->buf;
	w->mr.length = sizeof(w->buf);
	w->conn.mr = &w->mr;
	w->conn.buf = w->buf;
	w->conn.buf_len = sizeof(w->buf);
	w->conn.slot = 512;
	w->conn.peer_rkey = 0x00001a77;
	w->conn.remote_ready = 1;
	w->conn.remote.num_qp = (uint32_t)num_qp;
	w->conn.remote.mtu = IBV_MTU_1024;
	w->conn.remote.addr = 0x7f3a00042000ull;
	w->conn.remote.rkey = w->conn.peer_rkey;
	for (int i = 0; i < num_qp; i++) {
		w->qp[i].qp_num = 0x11 + (uint32_t)i;            /* rxe 的每个设备都从 0x11 起编号 */
		w->conn.qp[i] = &w->qp[i];
		w->conn.psn[i] = 0x3a5100 + (uint32_t)i;
		w->conn.remote.qp[i].qpn = 0x17 + (uint32_t)i;   /* 对端先建了几个QP */
		w->conn.remote.qp[i].psn = 0xc0de00 + 7 * (uint32_t)i;
		w->conn.remote.qp[i].lid = 0;
		memcpy(w->conn.remote.qp[i].gid, peer_gid, 16);
	}
}

static void gid_hex(const uint8_t *g, char *out)
{
	for (int k = 0; k < 16; k++)
		sprintf(out + 2 * k, "%02x", g[k]);
}

/* 场景的上下文（本端/对端的值），判断规则要用 */
static void print_world(const struct world *w, int i)
{
	char lg[33], pg[33];

	gid_hex(w->dev.gid.raw, lg);
	gid_hex(w->conn.remote.qp[i].gid, pg);
	printf("ctx.i=%d ctx.num_qp=%d ctx.port=%d ctx.local_qpn=0x%x ctx.peer_qpn=0x%x ctx.peer_qpn0=0x%x "
	       "ctx.local_psn=0x%x ctx.peer_psn=0x%x ctx.peer_psn0=0x%x ctx.local_mtu=%d ctx.peer_mtu=%u ctx.path_mtu=%d "
	       "ctx.sgid_index=%u ctx.local_gid=%s ctx.peer_gid=%s ctx.rd_in=%u ctx.rd_out=%u ctx.ack_timeout=%d "
	       "ctx.lkey=0x%x ctx.rkey=0x%x ctx.peer_rkey=0x%x ctx.send_wr=%u ctx.recv_wr=%u ctx.inline=%u "
	       "ctx.ud=%d ctx.cq=0x%lx ctx.srq=0x%lx ctx.op=%d ctx.max_rd_atom=%d ctx.poison=0x%x\n",
	       i, w->conn.num_qp, w->opt.ib_port, w->qp[i].qp_num, w->conn.remote.qp[i].qpn, w->conn.remote.qp[0].qpn,
	       w->conn.psn[i], w->conn.remote.qp[i].psn, w->conn.remote.qp[0].psn, (int)w->dev.port_attr.active_mtu,
	       w->conn.remote.mtu, (int)w->conn.path_mtu, w->dev.gid.index, lg, pg, w->conn.rd.in, w->conn.rd.out,
	       w->opt.ack_timeout, w->mr.lkey, w->mr.rkey, w->conn.peer_rkey, w->conn.caps.send_wr, w->conn.caps.recv_wr,
	       w->opt.inline_size, w->opt.qp_type == QPK_UD, (unsigned long)(uintptr_t)w->cq,
	       (unsigned long)(uintptr_t)w->srq, (int)w->opt.op, w->dev.dev_attr.max_qp_rd_atom, POISON);
}

static void print_qp_attr(const struct ibv_qp_attr *a)
{
	char dg[33];

	gid_hex(a->ah_attr.grh.dgid.raw, dg);
	printf("qp_state=%d pkey_index=%u port_num=%u qp_access_flags=0x%x path_mtu=%d dest_qp_num=0x%x rq_psn=0x%x "
	       "max_dest_rd_atomic=%u min_rnr_timer=%u ah.is_global=%u ah.port_num=%u ah.dlid=%u ah.sl=%u "
	       "grh.sgid_index=%u grh.hop_limit=%u grh.dgid=%s grh.traffic_class=%u sq_psn=0x%x timeout=%u retry_cnt=%u "
	       "rnr_retry=%u max_rd_atomic=%u ah.static_rate=%u ah.src_path_bits=%u grh.flow_label=0x%x\n",
	       (int)a->qp_state, a->pkey_index, a->port_num, a->qp_access_flags, (int)a->path_mtu, a->dest_qp_num,
	       a->rq_psn, a->max_dest_rd_atomic, a->min_rnr_timer, a->ah_attr.is_global, a->ah_attr.port_num,
	       a->ah_attr.dlid, a->ah_attr.sl, a->ah_attr.grh.sgid_index, a->ah_attr.grh.hop_limit, dg,
	       a->ah_attr.grh.traffic_class, a->sq_psn, a->timeout, a->retry_cnt, a->rnr_retry, a->max_rd_atomic,
	       a->ah_attr.static_rate, a->ah_attr.src_path_bits, a->ah_attr.grh.flow_label);
}

static void run_caps(const char *name, int ud, int srq, uint32_t inl)
{
	struct world w;
	struct ibv_qp_init_attr init;

	world_init(&w, 2, IBV_MTU_1024, IBV_MTU_1024);
	w.opt.qp_type = ud ? QPK_UD : QPK_RC;
	w.opt.srq = srq;
	w.opt.inline_size = inl;
	if (srq) {
		w.srq = (struct ibv_srq *)(uintptr_t)0x5e0000;
		w.conn.srq = w.srq;
	}
	printf("scenario %s\n", name);
	print_world(&w, 0);
	memset(&init, POISON, sizeof(init));
	qp_init_attr_for(&w.conn, &init);
	printf("qp_type=%d send_cq=0x%lx recv_cq=0x%lx srq=0x%lx sq_sig_all=%d max_send_wr=%u max_recv_wr=%u "
	       "max_send_sge=%u max_recv_sge=%u max_inline_data=%u\n",
	       (int)init.qp_type, (unsigned long)(uintptr_t)init.send_cq, (unsigned long)(uintptr_t)init.recv_cq,
	       (unsigned long)(uintptr_t)init.srq, init.sq_sig_all, init.cap.max_send_wr, init.cap.max_recv_wr,
	       init.cap.max_send_sge, init.cap.max_recv_sge, init.cap.max_inline_data);
}

static void run_init(const char *name, enum rdma_op op, enum role role, int access, int port)
{
	struct world w;
	struct ibv_qp_attr attr;
	int mask;

	world_init(&w, 1, IBV_MTU_1024, IBV_MTU_1024);
	w.opt.ib_port = port;     /* 端口在场景之间变：照抄 1 看得出来 */
	w.opt.op = op;
	w.opt.role = role;
	printf("scenario %s\n", name);
	print_world(&w, 0);
	memset(&attr, POISON, sizeof(attr));
	mask = init_attr_for(&w.conn, access, &attr);
	printf("access=0x%x mask=0x%x ", (unsigned)access, (unsigned)mask);
	print_qp_attr(&attr);
}

/* 端口、GID 索引、READ 深度、路径 MTU 在两个场景里都不同：照抄任何一个常数都看得出来 */
static void run_rtr(const char *name, int i, enum ibv_mtu local_mtu, enum ibv_mtu peer_mtu, enum rdma_op op, int port,
		    uint32_t gid_index, uint8_t rd_in)
{
	struct world w;
	struct ibv_qp_attr attr;
	int mask;

	world_init(&w, 2, local_mtu, local_mtu < peer_mtu ? local_mtu : peer_mtu);
	w.conn.remote.mtu = (uint32_t)peer_mtu;
	w.opt.op = op;
	w.opt.ib_port = port;
	w.dev.gid.index = gid_index;
	w.conn.rd.in = rd_in;
	printf("scenario %s\n", name);
	print_world(&w, i);
	memset(&attr, POISON, sizeof(attr));
	mask = rtr_attr_for(&w.conn, i, &attr);
	printf("mask=0x%x ", (unsigned)mask);
	print_qp_attr(&attr);
}

static void run_rts(const char *name, int i, int ack_timeout, enum rdma_op op, uint8_t rd_out)
{
	struct world w;
	struct ibv_qp_attr attr;
	int mask;

	world_init(&w, 2, IBV_MTU_1024, IBV_MTU_1024);
	w.opt.ack_timeout = ack_timeout;
	w.conn.rd.out = rd_out;
	w.opt.op = op;
	printf("scenario %s\n", name);
	print_world(&w, i);
	memset(&attr, POISON, sizeof(attr));
	mask = rts_attr_for(&w.conn, i, &attr);
	printf("mask=0x%x ", (unsigned)mask);
	print_qp_attr(&attr);
}

static void print_sge(const struct ibv_sge *base, const struct ibv_sge *sg, int n)
{
	printf("sg_is_given=%d num_sge=%d", sg == base, n);
	if (sg == base && n >= 1)
		printf(" sge.addr=0x%lx sge.length=%u sge.lkey=0x%x", (unsigned long)sg->addr, sg->length, sg->lkey);
}

static void run_recv(const char *name, int i, uint32_t off, uint32_t len)
{
	struct world w;
	struct ibv_recv_wr wr;
	struct ibv_sge sge;

	world_init(&w, 4, IBV_MTU_1024, IBV_MTU_1024);
	printf("scenario %s\n", name);
	print_world(&w, i);
	printf("ctx.addr=0x%lx ctx.len=%u\n", (unsigned long)(uintptr_t)(w.buf + off), len);
	memset(&wr, POISON, sizeof(wr));
	memset(&sge, POISON, sizeof(sge));
	recv_wr_for(&w.conn, i, w.buf + off, len, &wr, &sge);
	printf("wr_id=0x%llx next_null=%d ", (unsigned long long)wr.wr_id, wr.next == NULL);
	print_sge(&sge, wr.sg_list, wr.num_sge);
	printf("\n");
}

static void fill_req(struct world *w, struct send_req *req, enum ibv_wr_opcode opc, uint32_t off, uint32_t len)
{
	memset(req, 0, sizeof(*req));
	req->opcode = opc;
	req->local = w->buf + off;
	req->len = len;
	req->remote_addr = w->conn.remote.addr + 512;
}

static void print_req(const struct send_req *r)
{
	printf("ctx.local=0x%lx ctx.len=%u ctx.opcode=%d ctx.unsignaled=%d ctx.inline_data=%d ctx.seq=%llu "
	       "ctx.remote_addr=0x%llx ctx.compare_add=0x%llx ctx.swap=0x%llx\n",
	       (unsigned long)(uintptr_t)r->local, r->len, (int)r->opcode, r->unsignaled, r->inline_data,
	       (unsigned long long)r->seq, (unsigned long long)r->remote_addr, (unsigned long long)r->compare_add,
	       (unsigned long long)r->swap);
}

static void print_send_wr(const struct ibv_send_wr *wr, const struct ibv_sge *sge)
{
	printf("wr_id=0x%llx next_null=%d opcode=%d send_flags=0x%x imm=0x%x ", (unsigned long long)wr->wr_id,
	       wr->next == NULL, (int)wr->opcode, wr->send_flags, wr->imm_data);
	print_sge(sge, wr->sg_list, wr->num_sge);
	printf(" rdma.remote_addr=0x%llx rdma.rkey=0x%x atomic.remote_addr=0x%llx atomic.rkey=0x%x "
	       "atomic.compare_add=0x%llx atomic.swap=0x%llx\n",
	       (unsigned long long)wr->wr.rdma.remote_addr, wr->wr.rdma.rkey,
	       (unsigned long long)wr->wr.atomic.remote_addr, wr->wr.atomic.rkey,
	       (unsigned long long)wr->wr.atomic.compare_add, (unsigned long long)wr->wr.atomic.swap);
}

static void run_send(const char *name, int i, enum ibv_wr_opcode opc, int unsignaled, int inl, uint64_t seq)
{
	struct world w;
	struct send_req req;
	struct ibv_send_wr wr;
	struct ibv_sge sge;

	world_init(&w, 4, IBV_MTU_1024, IBV_MTU_1024);
	fill_req(&w, &req, opc, 1024 + 64, 200);
	req.unsignaled = unsignaled;
	req.inline_data = inl;
	req.seq = seq;
	printf("scenario %s\n", name);
	print_world(&w, i);
	print_req(&req);
	memset(&wr, POISON, sizeof(wr));
	memset(&sge, POISON, sizeof(sge));
	send_wr_for(&w.conn, i, &req, &wr, &sge);
	print_send_wr(&wr, &sge);
}

/* 单边/原子：WR 的公共部分已经由 send_wr_for 填好（这里用一份正确的），学习者只填 wr.rdma / wr.atomic */
static void run_remote(const char *name, enum ibv_wr_opcode opc, int atomic)
{
	struct world w;
	struct send_req req;
	struct ibv_send_wr wr;
	struct ibv_sge sge = { 0 };

	world_init(&w, 1, IBV_MTU_1024, IBV_MTU_1024);
	fill_req(&w, &req, opc, 64, atomic ? 8 : 300);
	if (atomic) {
		req.remote_addr = w.conn.remote.addr + 8;
		req.compare_add = opc == IBV_WR_ATOMIC_CMP_AND_SWP ? 0x1111222233334444ull : 5;
		req.swap = opc == IBV_WR_ATOMIC_CMP_AND_SWP ? 0x5555666677778888ull : 0;
	}
	printf("scenario %s\n", name);
	print_world(&w, 0);
	print_req(&req);
	sge = (struct ibv_sge){ .addr = (uintptr_t)req.local, .length = req.len, .lkey = w.mr.lkey };
	memset(&wr, 0, sizeof(wr));
	wr = (struct ibv_send_wr){ .wr_id = 0, .sg_list = &sge, .num_sge = 1, .opcode = opc, .send_flags = IBV_SEND_SIGNALED };
	if (atomic)
		atomic_wr_for(&w.conn, &req, &wr);
	else
		rdma_wr_for(&w.conn, &req, &wr);
	print_send_wr(&wr, &sge);
}

/* 一个完成：QP qi（-1 = 不是本端的：qp_num 是对端的），序号 seq，状态 st；wr_low 非负时用它作 wr_id 的低 8 位 */
static void run_wc(const char *name, int qi, uint64_t seq, enum ibv_wc_status st, int wr_low)
{
	struct world w;
	struct ibv_wc wc;
	int v;

	world_init(&w, 4, IBV_MTU_1024, IBV_MTU_1024);
	memset(&wc, 0, sizeof(wc));
	wc.opcode = IBV_WC_SEND;
	wc.byte_len = 200;
	if (st != IBV_WC_SUCCESS) {
		/* 失败的完成：只有 wr_id、status、qp_num、vendor_err 有定义（ibv_poll_cq(3)）。别的字段填毒化字节，
		 * opcode 在两次运行里是两个像样的值（0xa5 时 IBV_WC_RECV，0x5a 时 IBV_WC_SEND）：读了它们的判断会跟着变 */
		memset(&wc, POISON, sizeof(wc));
		wc.opcode = POISON == 0xa5 ? IBV_WC_RECV : IBV_WC_SEND;
		wc.vendor_err = 0x81;
	}
	wc.status = st;
	wc.wr_id = (seq << 8) | (uint64_t)(wr_low >= 0 ? wr_low : qi < 0 ? 1 : qi);
	wc.qp_num = qi < 0 ? w.conn.remote.qp[1].qpn : w.qp[qi].qp_num;
	printf("scenario %s\n", name);
	print_world(&w, qi < 0 ? 1 : qi);
	printf("ctx.wc_opcode=%d ctx.status=%d ctx.mine=%d ctx.seq=%llu ctx.wr_low=%d\n", (int)wc.opcode, (int)st, qi >= 0 && wr_low < 0,
	       (unsigned long long)seq, wr_low);
	v = (int)wc_verdict_for(&w.conn, &wc);
	printf("verdict=%d\n", v);
}

/* 练习 10：每种操作 × 两个角色 */
static void run_access(void)
{
	for (int op = 0; op < OP_COUNT; op++)
		for (int role = ROLE_SERVER; role <= ROLE_CLIENT; role++) {
			printf("scenario %s-%s\n", op_name((enum rdma_op)op), role == ROLE_SERVER ? "server" : "client");
			printf("ctx.op=%d ctx.role=%d ctx.one_sided=%d\n", op, role, op_is_one_sided((enum rdma_op)op));
			printf("access=0x%x\n", (unsigned)mr_access_for((enum rdma_op)op, (enum role)role));
		}
}

/* 练习 11：一张 GID 表（索引不连续：数组里的位置和 GID 索引不同）和路由要的源地址 */
static void gid_entry(struct gid_info *g, uint32_t index, enum gid_kind kind, const char *addr)
{
	memset(g, 0, sizeof(*g));
	g->index = index;
	g->kind = kind;
	if (strchr(addr, ':') != NULL) {
		inet_pton(AF_INET6, addr, g->raw);
	} else {
		g->raw[10] = 0xff;
		g->raw[11] = 0xff;
		inet_pton(AF_INET, addr, g->raw + 12);
	}
}

static void run_gid(const char *name, const struct gid_info *t, size_t n, const char *src)
{
	char hex[33];
	struct gid_info *tbl = malloc(n * sizeof(*tbl));   /* 正好 n 项：多读一项 ASan 就报出来 */

	memcpy(tbl, t, n * sizeof(*tbl));
	printf("scenario %s\n", name);
	printf("ctx.src=%s ctx.n=%zu\n", src, n);
	for (size_t i = 0; i < n; i++) {
		gid_hex(tbl[i].raw, hex);
		printf("entry pos=%zu index=%u kind=%d raw=%s\n", i, tbl[i].index, (int)tbl[i].kind, hex);
	}
	printf("got=%d\n", gid_index_for(tbl, n, src));
	free(tbl);
}

static void run_gids(void)
{
	struct gid_info t[8];

	/* 像 rxe：只有 RoCE v2 的条目（每个地址一项）；表头是网卡的 fe80 链路本地地址，所以“第一个 v2”是它 */
	gid_entry(&t[0], 0, GID_KIND_ROCE_V2, "fe80::5054:ff:fe12:3402");
	gid_entry(&t[1], 1, GID_KIND_ROCE_V2, "10.11.0.2");
	run_gid("rxe-one-address", t, 2, "10.11.0.2");
	/* 像 mlx5：每个地址一项 v1、一项 v2；中间空了几项（删掉过的地址），第二块网卡的地址在后面 */
	gid_entry(&t[0], 0, GID_KIND_ROCE_V1, "fe80::5054:ff:fe12:3402");
	gid_entry(&t[1], 1, GID_KIND_ROCE_V2, "fe80::5054:ff:fe12:3402");
	gid_entry(&t[2], 2, GID_KIND_ROCE_V1, "10.11.0.2");
	gid_entry(&t[3], 3, GID_KIND_ROCE_V2, "10.11.0.2");
	run_gid("mlx5-one-address", t, 4, "10.11.0.2");
	gid_entry(&t[2], 8, GID_KIND_ROCE_V1, "10.20.0.5");
	gid_entry(&t[3], 9, GID_KIND_ROCE_V2, "10.20.0.5");
	gid_entry(&t[4], 12, GID_KIND_ROCE_V1, "10.11.0.2");
	gid_entry(&t[5], 13, GID_KIND_ROCE_V2, "10.11.0.2");
	run_gid("route-second-address", t, 6, "10.11.0.2");
	run_gid("route-first-address", t, 6, "10.20.0.5");
	run_gid("no-entry-for-route", t, 6, "10.99.0.9");
	run_gid("route-only-v1", t, 5, "10.11.0.2");
	/* 一个 IPv6 地址，最后 4 字节碰巧是 10.11.0.2 */
	gid_entry(&t[2], 2, GID_KIND_ROCE_V2, "fd00::a0b:2");
	run_gid("ipv6-same-last-bytes", t, 6, "10.11.0.2");
	/* 路由要的地址只有索引 256 以上的条目：8 位的 sgid_index 放不下 */
	gid_entry(&t[4], 300, GID_KIND_ROCE_V1, "10.11.0.2");
	gid_entry(&t[5], 301, GID_KIND_ROCE_V2, "10.11.0.2");
	run_gid("route-beyond-255", t, 6, "10.11.0.2");
	/* 像 rxe 在两块网卡上：两个 fe80、两个 IPv4，只有 v2；路由要第二块网卡的 */
	gid_entry(&t[0], 0, GID_KIND_ROCE_V2, "fe80::5054:ff:fe12:3402");
	gid_entry(&t[1], 1, GID_KIND_ROCE_V2, "10.20.0.5");
	gid_entry(&t[2], 4, GID_KIND_ROCE_V2, "fe80::5054:ff:fe12:3499");
	gid_entry(&t[3], 5, GID_KIND_ROCE_V2, "10.11.0.2");
	run_gid("rxe-two-netdevs", t, 4, "10.11.0.2");
}

/* 练习 12：一条连接里有哪些对象（SRQ、完成通道和没确认的事件、UD 的 AH），学习者排的销毁顺序 */
static void run_teardown(const char *name, int srq, int channel, unsigned unacked, int ah)
{
	struct world w;
	enum teardown *order = malloc(TD_COUNT * sizeof(*order));   /* 正好 TD_COUNT 项：多写一项 ASan 就报出来 */
	int n;

	world_init(&w, 2, IBV_MTU_1024, IBV_MTU_1024);
	w.conn.srq = srq ? (struct ibv_srq *)(uintptr_t)0x5e0000 : NULL;
	w.conn.channel = channel ? (struct ibv_comp_channel *)(uintptr_t)0xc4a000 : NULL;
	w.conn.cq_unacked = unacked;
	w.conn.ah = ah ? (struct ibv_ah *)(uintptr_t)0xa40000 : NULL;
	memset(order, POISON, TD_COUNT * sizeof(*order));
	printf("scenario %s\n", name);
	printf("ctx.srq=%d ctx.channel=%d ctx.unacked=%u ctx.ah=%d ctx.count=%d\n", srq, channel, unacked, ah, TD_COUNT);
	n = teardown_order_for(&w.conn, order);
	printf("n=%d order=", n);
	for (int k = 0; k < n && k < TD_COUNT; k++)
		printf("%s%d", k ? "," : "", (int)order[k]);
	printf("\n");
	free(order);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	const char *pb = getenv("PROBE_POISON");

	if (pb != NULL)
		poison_byte = (int)strtol(pb, NULL, 0) & 0xff;
	setvbuf(stdout, NULL, _IOLBF, 0);
	switch (n) {
	case 1:
		run_caps("rc", 0, 0, 0);
		run_caps("rc-inline", 0, 0, 64);
		run_caps("srq", 0, 1, 0);
		run_caps("ud", 1, 0, 0);
		break;
	case 2:
		run_init("write-server", OP_WRITE, ROLE_SERVER, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 1);
		run_init("read-server-port2", OP_READ, ROLE_SERVER, IBV_ACCESS_REMOTE_READ, 2);
		run_init("atomic-server", OP_FETCH_ADD, ROLE_SERVER, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC, 1);
		run_init("send-client-port2", OP_SEND, ROLE_CLIENT, IBV_ACCESS_LOCAL_WRITE, 2);
		run_init("write-client", OP_WRITE, ROLE_CLIENT, 0, 1);
		break;
	case 3:
		run_rtr("qp0", 0, IBV_MTU_2048, IBV_MTU_4096, OP_SEND, 1, 3, 12);
		run_rtr("qp1-peer-mtu-small-port2", 1, IBV_MTU_4096, IBV_MTU_1024, OP_READ, 2, 5, 8);
		break;
	case 4:
		run_rts("qp0", 0, 14, OP_SEND, 10);
		run_rts("qp1-timeout-18", 1, 18, OP_READ, 6);
		break;
	case 5:
		run_recv("qp0", 0, 0, 512);
		run_recv("qp2", 2, 1024, 300);
		break;
	case 6:
		run_send("send", 0, IBV_WR_SEND, 0, 0, 0);
		run_send("send-qp2-seq", 2, IBV_WR_SEND, 0, 0, 5);
		run_send("write-unsignaled", 1, IBV_WR_RDMA_WRITE, 1, 0, 3);
		run_send("send-inline", 3, IBV_WR_SEND, 0, 1, 0);
		break;
	case 7:
		run_remote("write", IBV_WR_RDMA_WRITE, 0);
		run_remote("read", IBV_WR_RDMA_READ, 0);
		break;
	case 8:
		run_remote("fetch_add", IBV_WR_ATOMIC_FETCH_AND_ADD, 1);
		run_remote("cmp_swap", IBV_WR_ATOMIC_CMP_AND_SWP, 1);
		break;
	case 9:
		run_wc("ok-qp0", 0, 0, IBV_WC_SUCCESS, -1);
		run_wc("ok-qp2-seq", 2, 7, IBV_WC_SUCCESS, -1);
		run_wc("error-qp1", 1, 0, IBV_WC_REM_ACCESS_ERR, -1);
		run_wc("flush-qp3", 3, 2, IBV_WC_WR_FLUSH_ERR, -1);
		run_wc("peer-qpn", -1, 0, IBV_WC_SUCCESS, -1);
		run_wc("wr-id-qp1-qpn-qp3", 3, 0, IBV_WC_SUCCESS, 1);
		run_wc("wr-id-out-of-range", 3, 0, IBV_WC_SUCCESS, 9);
		break;
	case 10:
		run_access();
		break;
	case 11:
		run_gids();
		break;
	case 12:
		run_teardown("rc-send", 0, 0, 0, 0);
		run_teardown("srq-cq-event", 1, 1, 3, 0);
		run_teardown("cq-event-all-acked", 0, 1, 0, 0);
		run_teardown("ud", 0, 0, 0, 1);
		break;
	default:
		fprintf(stderr, "usage: probe 1..12\n");
		return 2;
	}
	printf("end\n");
	return 0;
}
