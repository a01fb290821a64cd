/*
 * options.c - 由命令行参数推出的事实（操作的名字和性质、槽大小、队列容量、MR 权限……）：纯逻辑，不碰 verbs，可单元测试。
 *   解析命令行在 parse.c
 */
#include "cli/options.h"

#include <infiniband/verbs.h>
#include <string.h>

/* 每种操作的事实（名字、权限、能不能 --bench…）都在 op_table.c 的 op_table 里 */
const char *op_name(enum rdma_op op)
{
	const struct op_info *in = op_info(op);

	return in != NULL ? in->name : "unknown";
}

int op_from_name(const char *name, enum rdma_op *op)
{
	for (int i = 0; i < OP_COUNT; i++) {
		if (strcmp(name, op_table[i].name) == 0) {
			*op = (enum rdma_op)i;
			return 0;
		}
	}
	return -1;
}

int op_is_atomic(enum rdma_op op)
{
	const struct op_info *in = op_info(op);

	return in != NULL && in->atomic;
}

int op_is_one_sided(enum rdma_op op)
{
	const struct op_info *in = op_info(op);

	return in != NULL && in->one_sided;
}

int inject_payload_sender(const struct options *o)
{
	if (op_info(o->op)->data_from_server)
		return o->role == ROLE_SERVER;   /* READ：数据来自服务端的内存 */
	return o->role == ROLE_CLIENT && !op_is_atomic(o->op);
}

size_t slot_size(const struct options *o)
{
	if (op_is_atomic(o->op))
		return ATOMIC_SLOT;
	if (o->qp_type == QPK_UD)   /* 接收缓冲区 = GRH + 消息；--sweep 只扫到路径MTU，最大 4096 */
		return (o->sweep ? UD_MAX_MSG : o->size) + UD_GRH_LEN;
	if (o->sweep)
		return SWEEP_MAX_SIZE;
	return o->size;
}

uint32_t srq_recv_buffers(const struct options *o)
{
	struct queue_caps q;

	if (!o->srq || o->bench == BENCH_NONE || o->num_qp < 2)
		return 0;
	queue_caps(o, &q);
	return q.recv_wr;   /* create_srq 要的深度（--bench 时 = 每个QP的接收深度），fill_recvs 投递这么多 */
}

const char *bench_name(enum bench_mode b)
{
	return b == BENCH_LAT ? "lat" : b == BENCH_BW ? "bw" : "none";
}

/*
 * 队列容量不再是固定常数：
 *   普通模式：每轮每个QP最多在途 2 个 WR，深度 16 足够；
 *   --bench：发送队列 = --tx-depth（bw 的窗口）；接收队列同样深（send 的接收方要预先投递这么多）。
 * CQ 要装得下所有QP所有队列同时完成的 WC：num_qp × (发送深度 + 接收深度)，否则 CQ 溢出。
 */
void queue_caps(const struct options *o, struct queue_caps *q)
{
	q->send_wr = o->bench != BENCH_NONE ? (uint32_t)o->tx_depth : NORMAL_QUEUE_DEPTH;
	q->recv_wr = q->send_wr;
	q->cqe = (uint32_t)o->num_qp * (q->send_wr + q->recv_wr);
}

int multi_client(const struct options *o)
{
	return o->role == ROLE_SERVER && (o->clients != 1 || o->parallel > 1);
}

int mr_access_mode(const struct options *o)
{
	int server = (o->role == ROLE_SERVER);

	if (o->interactive)
		return server ? (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ)
			      : IBV_ACCESS_LOCAL_WRITE;
	/* write/write_imm 延迟是乒乓：两端都往对端内存里写 */
	if (o->bench == BENCH_LAT && (o->op == OP_WRITE || o->op == OP_WRITE_IMM))
		return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	return -1;
}
