/*
 * ctrl_trace.c - 控制平面的 trace 事件（见 ctrl_trace.h；格式见 docs/TRACE.md 的 ctrl_send/ctrl_recv）
 */
#include "plugins/ctrl_trace.h"

#include <arpa/inet.h>

#include "cli/options.h"

static const char *sync_kind_name(uint32_t kind)
{
	static const char *const names[] = { "?", "RTS", "READY", "DONE", "ACK", "BYE" };

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

void trace_ctrl_sync(const struct trace_ref *r, int send, uint32_t tag)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, send ? "ctrl_send" : "ctrl_recv");
	tj_str(&j, "msg", "SYNC");
	tj_int(&j, "tag", tag);
	tj_str(&j, "kind", sync_kind_name(tag >> 24));
	tj_int(&j, "round", tag & 0xffffff);
	trace_emit(r, &j);
}

void trace_ctrl_hello(const struct trace_ref *r, int send, const struct wire_hello *h)
{
	struct tj j;
	char ip[INET6_ADDRSTRLEN];

	if (!trace_on(r))
		return;
	tj_begin(&j, r, send ? "ctrl_send" : "ctrl_recv");
	tj_str(&j, "msg", "HELLO");
	tj_obj(&j, "hello");
	tj_str(&j, "op", op_name((enum rdma_op)h->op));
	tj_hex(&j, "flags", h->flags, 2);
	tj_int(&j, "num_qp", h->num_qp);
	tj_int(&j, "mtu", wire_mtu_bytes(h->mtu));
	tj_int(&j, "size", h->size);
	tj_int(&j, "iters", h->iters);
	tj_hex(&j, "addr", h->addr, 0);
	tj_hex(&j, "rkey", h->rkey, 8);
	tj_int(&j, "slot", h->slot);
	tj_int(&j, "offset", h->offset);
	tj_int(&j, "rd_atom", h->rd_atom);             /* 发送方的 max_qp_rd_atom（≤255） */
	tj_int(&j, "init_rd_atom", h->init_rd_atom);   /* 发送方的 max_qp_init_rd_atom（≤255） */
	tj_int(&j, "gid_type", h->gid_type);           /* enum ibv_gid_type 的值：0 IB，1 RoCE v1，2 RoCE v2 */
	tj_arr(&j, "qps");
	for (uint32_t i = 0; i < h->num_qp && i < MAX_QP; i++) {
		tj_obj(&j, NULL);
		tj_int(&j, "qpn", h->qp[i].qpn);
		tj_int(&j, "psn", h->qp[i].psn);
		tj_int(&j, "lid", h->qp[i].lid);
		if (inet_ntop(AF_INET6, h->qp[i].gid, ip, sizeof(ip)) == NULL)
			ip[0] = '\0';
		tj_str(&j, "gid", ip);
		tj_close(&j, '}');
	}
	tj_close(&j, ']');
	tj_close(&j, '}');
	trace_emit(r, &j);
}

static void observe_sync(void *ctx, int send, uint32_t tag)
{
	trace_ctrl_sync(ctx, send, tag);
}

static void observe_hello(void *ctx, int send, const struct wire_hello *h)
{
	trace_ctrl_hello(ctx, send, h);
}

void ctrl_trace_observe(struct ctrl *c, const struct trace_ref *r)
{
	const struct ctrl_observer o = { .hello = observe_hello, .sync = observe_sync, .ctx = (void *)r };

	if (trace_on(r))
		ctrl_observe(c, &o);
}
