/*
 * trace_hooks.c - --trace 是插桩的接缝（verbs/rdma_types.h 的 struct hook_event）上的一个插件：每一件事写成哪个 trace 事件
 * 步骤函数只说“刚刚做完了什么”（enum hook_at，之后的事件），这里从设备和连接里读出要记的值，交给 plugins/trace.c 写出；格式见 docs/TRACE.md
 */
#include "plugins/trace_hooks.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "console/conout.h"
#include "console/i18n.h"
#include "console/verbs_print.h"
#include "plugins/ctrl_trace.h"
#include "plugins/trace_ev.h"
#include "plugins/trace_psn.h"
#include "verbs/qp_print.h"

static const char *wr_opcode_name(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND: return "SEND";
	case IBV_WR_RDMA_WRITE: return "RDMA_WRITE";
	case IBV_WR_RDMA_WRITE_WITH_IMM: return "RDMA_WRITE_WITH_IMM";
	case IBV_WR_RDMA_READ: return "RDMA_READ";
	case IBV_WR_ATOMIC_FETCH_AND_ADD: return "ATOMIC_FETCH_AND_ADD";
	case IBV_WR_ATOMIC_CMP_AND_SWP: return "ATOMIC_CMP_AND_SWP";
	default: return "?";
	}
}

/*
 * 一个QP到了 RTS（HOOK_MODIFY 之后，成功）：它的第一个发送 WR 从交给 ibv_modify_qp 的 sq_psn 开始（trace_psn.c 数）。用之后的事件：
 * 之前的事件里 trace 排在 --inject 前面，看不到 --inject psn 改过的值；之后的事件的属性是网卡真拿到的
 */
static void note_rts(struct trace_plugin *p, struct rdma_conn *conn, const struct hook_event *n)
{
	const struct ibv_qp_attr *attr = n->obj;

	if (n->rc != 0 || attr == NULL || attr->qp_state != IBV_QPS_RTS)
		return;
	trace_psn_rts(&p->psn, conn, n->qp, attr->sq_psn);
}

/* 连接的QP开始销毁（之后不再投递），或多客户端的会话结束：这条连接的 PSN 不用再数 */
static void drop_psn(struct trace_plugin *p, const struct rdma_conn *conn)
{
	trace_psn_drop(&p->psn, conn);
}

/*
 * 记下这个 WR 用掉的 PSN 并写 trace 的 post_send 事件。trace 里的 psn_first 是插件自己数的（trace_psn.c），
 * tools/trace/render 靠它把线上的包对应到 WR；没有这条连接的 PSN 时（trace_psn_rts 放不下）不写它
 */
static void note_traced_wr(struct trace_plugin *p, struct rdma_conn *conn, int i, const struct ibv_send_wr *wr)
{
	int atomic = wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
	uint32_t mtu = wire_mtu_bytes(conn->path_mtu);
	struct trace_wr t = {
		.qp = i, .qpn = conn->qp[i]->qp_num, .dest_qpn = conn->remote.qp[i].qpn,
		.wr_id = wr->wr_id, .opcode = wr_opcode_name(wr->opcode), .len = wr->sg_list->length,
		.local_addr = wr->sg_list->addr, .lkey = wr->sg_list->lkey,
		.has_remote = wr->opcode != IBV_WR_SEND,
		.remote_addr = atomic ? wr->wr.atomic.remote_addr : wr->wr.rdma.remote_addr,
		.rkey = atomic ? wr->wr.atomic.rkey : wr->wr.rdma.rkey,
		.has_imm = wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM, .imm = ntohl(wr->imm_data),
		.npkts = psn_npkts(wr->sg_list->length, mtu, atomic),
		.mtu = mtu,
		.signaled = (wr->send_flags & IBV_SEND_SIGNALED) != 0,
		.inline_data = (wr->send_flags & IBV_SEND_INLINE) != 0,
	};

	t.has_psn = trace_psn_take(&p->psn, conn, i, t.npkts, &t.psn_first);
	trace_post_send(trace_watched(&conn->watch), &t);
}

/* 一次 ibv_modify_qp（rc = 它的返回值） */
static void note_modify(const struct trace_ref *tr, struct rdma_conn *conn, const struct hook_event *n)
{
	struct tj j;

	trace_verbs_begin(&j, tr, "ibv_modify_qp", n->rc);
	tj_int(&j, "qp", n->qp);
	tj_int(&j, "qpn", conn->qp[n->qp]->qp_num);
	tj_str(&j, "state", n->call);
	trace_verbs_end(tr, &j);
}

/* 每个QP读回的完整状态（和 --qp-state 打印几个无关：trace 总是记全部） */
static void note_qp_states(const struct trace_ref *tr, struct rdma_conn *conn)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr init;

	for (int i = 0; i < conn->num_qp; i++) {
		memset(&a, 0, sizeof(a));
		if (ibv_query_qp(conn->qp[i], &a, QUERY_ALL, &init) == 0)
			trace_qp_state(tr, i, conn->qp[i]->qp_num, &a);
	}
}

static void note_open_device(const struct trace_ref *tr, const struct rdma_device *dev)
{
	struct tj j;

	trace_verbs_begin(&j, tr, "ibv_open_device", 0);
	tj_str(&j, "dev", dev->dev_name);
	trace_verbs_end(tr, &j);
}

static void note_mr(const struct trace_ref *tr, const struct rdma_conn *conn)
{
	char acc[128];

	access_str(conn->mr_access, acc, sizeof(acc));
	trace_mr(tr, conn->mr, conn->buf_len, acc);
}

static void note_post_recv(const struct trace_ref *tr, const struct hook_event *n)
{
	const struct ibv_recv_wr *wr = n->obj;

	trace_post_recv(tr, n->qp, n->qpn, wr->wr_id, wr->sg_list->length, wr->sg_list->addr);
}

/* 设备级的事：设备列表、打开的设备、端口、GID、PD */
static int note_device(const struct trace_ref *tr, const struct rdma_device *dev, const struct hook_event *n)
{
	switch (n->at) {
	case HOOK_DEVICE_LIST: trace_device_list(tr, dev->dev_list, dev->num_devices); return 1;
	case HOOK_OPEN_DEVICE: note_open_device(tr, dev); return 1;
	case HOOK_PORT: trace_port(tr, dev->opt->ib_port, &dev->port_attr); return 1;
	case HOOK_GID: trace_gid(tr, &dev->gid); return 1;
	case HOOK_PD: trace_call(tr, "ibv_alloc_pd", "handle", dev->pd->handle, NULL, 0); return 1;
	default: return 0;
	}
}

/* start 事件：这次运行的命令行和主要参数、界面语言（program.c 打开 trace 之后写） */
void trace_start(const struct trace_ref *r, int argc, char **argv, const struct options *o)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "start");
	tj_arr(&j, "argv");
	for (int i = 0; i < argc; i++)
		tj_item_str(&j, argv[i]);
	tj_close(&j, ']');
	tj_obj(&j, "opt");
	tj_str(&j, "op", op_name(o->op));
	tj_int(&j, "num_qp", o->num_qp);
	tj_int(&j, "size", (long long)o->size);
	tj_int(&j, "iters", o->iters);
	tj_bool(&j, "interactive", o->interactive);
	tj_int(&j, "port", o->tcp_port);
	if (o->dev_name != NULL)
		tj_str(&j, "dev", o->dev_name);
	else
		tj_str(&j, "dev", "auto");
	if (o->gid_idx == GID_AUTO)
		tj_str(&j, "gid_idx", "auto");
	else
		tj_int(&j, "gid_idx", o->gid_idx);
	tj_close(&j, '}');
	tj_str(&j, "lang", i18n_lang_name());   /* 这次运行的语言：页面（tools/trace/render）跟着它 */
	trace_emit(r, &j);
}

/* 步骤标题写成 step 事件：console/ 的 step_title 经设备和连接的 watch 交给它 */
static void step_note(void *ctx, unsigned n, const char *title)
{
	trace_step(ctx, n, title);
}

struct step_watch trace_watch(const struct trace_ref *r)
{
	return (struct step_watch){ .note = step_note, .ctx = (void *)r };
}

const struct trace_ref *trace_watched(const struct step_watch *w)
{
	return w->note == step_note ? w->ctx : NULL;
}

/*
 * 多客户端服务端的一个会话（HOOK_SESSION，会话线程里）。之前：几个会话写同一个文件，这个会话自己的引用（每个事件带
 * "conn": 客户端编号）换进连接的 watch，HELLO 和同步消息、本线程的错误也写到它；之后：收回（还在等提示的错误先写进去）
 */
static void note_session(struct rdma_conn *conn, const struct hook_event *n)
{
	const struct trace_ref *dev_tr = trace_watched(&conn->dev->watch);
	struct trace_ref *r;

	if (n->when == HOOK_AFTER) {
		con_set_error_sink(NULL, NULL);
		if (trace_watched(&conn->watch) != dev_tr)
			free((void *)trace_watched(&conn->watch));
		conn->watch = conn->dev->watch;
		return;
	}
	r = malloc(sizeof(*r));
	if (r != NULL) {   /* 内存不足时照样写，只是这个会话的事件不带 "conn" */
		*r = (struct trace_ref){ .t = dev_tr->t, .conn = (int)n->round };
		conn->watch = trace_watch(r);
	}
	ctrl_trace_observe(&conn->ctrl, trace_watched(&conn->watch));
	con_set_error_sink(trace_error_sink, (void *)trace_watched(&conn->watch));
}

/* 插件：只记之后的事件（之前的事件是给要改东西的插件的；HOOK_SESSION 的前后都看） */
static void trace_note(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *n)
{
	const struct trace_ref *tr = trace_watched(conn != NULL ? &conn->watch : &dev->watch);

	if (n->at == HOOK_SESSION && conn != NULL) {
		if (n->when == HOOK_AFTER)
			drop_psn(ctx, conn);
		note_session(conn, n);
		return;
	}
	if (n->when != HOOK_AFTER || !trace_on(tr) || note_device(tr, dev, n))
		return;
	switch (n->at) {
	case HOOK_FAILED: trace_verbs_simple(tr, n->call, n->rc); break;
	case HOOK_DESTROYED:
		if (n->qp >= 0) {
			drop_psn(ctx, conn);
			trace_qp_num(tr, n->call, n->rc, n->qp, n->qpn, -1);
		} else {
			trace_verbs_simple(tr, n->call, n->rc);
		}
		break;
	case HOOK_MR: note_mr(tr, conn); break;
	case HOOK_CQ: trace_call(tr, "ibv_create_cq", "cqe", conn->cq->cqe, NULL, 0); break;
	case HOOK_SRQ: trace_call(tr, "ibv_create_srq", "max_wr", (long)conn->srq_depth, NULL, 0); break;
	case HOOK_QP_CREATED: trace_qp_num(tr, "ibv_create_qp", 0, n->qp, conn->qp[n->qp]->qp_num, conn->psn[n->qp]); break;
	case HOOK_AH: trace_call(tr, "ibv_create_ah", "sgid_index", dev->gid.index, NULL, 0); break;
	case HOOK_MODIFY:
		note_modify(tr, conn, n);
		note_rts(ctx, conn, n);
		break;
	case HOOK_QP_STATES: note_qp_states(tr, conn); break;
	case HOOK_POST_RECV: note_post_recv(tr, n); break;
	case HOOK_POST_SEND: note_traced_wr(ctx, conn, n->qp, n->obj); break;
	case HOOK_WC: trace_wc(tr, n->obj); break;
	default: break;
	}
}

void trace_hooks_install(struct rdma_hooks *h, struct trace_plugin *p)
{
	per_conn_init(&p->psn);
	hook_add(h, trace_note, p, 1);   /* 要看数据面的每个 WR 和完成 */
}
