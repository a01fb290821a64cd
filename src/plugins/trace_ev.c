/*
 * trace_ev.c - 要读 verbs 结构体的 trace 事件（见 trace_ev.h、docs/TRACE.md）
 */
#include "plugins/trace_ev.h"

#include <arpa/inet.h>

#include "console/verbs_print.h"
#include "control/wire.h"
#include "verbs/wc_check.h"

void tj_gid(struct tj *j, const char *key, const uint8_t raw[16])
{
	char ip[INET6_ADDRSTRLEN];

	if (inet_ntop(AF_INET6, raw, ip, sizeof(ip)) == NULL)
		ip[0] = '\0';
	tj_str(j, key, ip);
}

void trace_verbs_begin(struct tj *j, const struct trace_ref *r, const char *call, int err)
{
	tj_begin(j, r, "verbs");
	tj_str(j, "call", call);
	tj_bool(j, "ok", err == 0);
	if (err != 0)
		tj_int(j, "errno", err);
	tj_obj(j, "res");
}

void trace_verbs_end(const struct trace_ref *r, struct tj *j)
{
	tj_close(j, '}');
	trace_emit(r, j);
}

void trace_verbs_simple(const struct trace_ref *r, const char *call, int err)
{
	struct tj j;

	if (!trace_on(r))
		return;
	trace_verbs_begin(&j, r, call, err);
	trace_verbs_end(r, &j);
}

void trace_qp_state(const struct trace_ref *r, int qp, uint32_t qpn, const struct ibv_qp_attr *a)
{
	struct tj j;
	char acc[128];

	if (!trace_on(r))
		return;
	access_str((int)a->qp_access_flags, acc, sizeof(acc));
	tj_begin(&j, r, "qp_state");
	tj_int(&j, "qp", qp);
	tj_int(&j, "qpn", qpn);
	tj_str(&j, "state", qp_state_str(a->qp_state));
	tj_obj(&j, "attr");
	tj_int(&j, "port", a->port_num);
	tj_str(&j, "access", acc);
	if (a->qp_state >= IBV_QPS_RTR && a->qp_state <= IBV_QPS_SQE) {
		tj_int(&j, "path_mtu", wire_mtu_bytes(a->path_mtu));
		tj_int(&j, "dest_qp_num", a->dest_qp_num);
		tj_int(&j, "rq_psn", a->rq_psn);
		tj_int(&j, "max_dest_rd_atomic", a->max_dest_rd_atomic);
		tj_int(&j, "min_rnr_timer", a->min_rnr_timer);
		tj_int(&j, "is_global", a->ah_attr.is_global);
		tj_int(&j, "dlid", a->ah_attr.dlid);
		tj_int(&j, "sgid_index", a->ah_attr.grh.sgid_index);
		tj_int(&j, "hop_limit", a->ah_attr.grh.hop_limit);
		tj_gid(&j, "dgid", a->ah_attr.grh.dgid.raw);
	}
	if (a->qp_state == IBV_QPS_RTS) {
		tj_int(&j, "sq_psn", a->sq_psn);
		tj_int(&j, "timeout", a->timeout);
		tj_int(&j, "retry_cnt", a->retry_cnt);
		tj_int(&j, "rnr_retry", a->rnr_retry);
		tj_int(&j, "max_rd_atomic", a->max_rd_atomic);
	}
	tj_close(&j, '}');
	trace_emit(r, &j);
}

void trace_wc(const struct trace_ref *r, const struct ibv_wc *wc)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "wc");
	tj_int(&j, "wr_id", (long long)wc->wr_id);
	tj_int(&j, "qp_num", wc->qp_num);
	/* 失败的完成里 opcode 没有定义（规范只保证 status、wr_id、qp_num 有效） */
	if (wc->status == IBV_WC_SUCCESS)
		tj_str(&j, "opcode", wc_opcode_str(wc->opcode));
	tj_str(&j, "status", ibv_wc_status_str(wc->status));
	tj_int(&j, "status_code", wc->status);
	if (wc->status == IBV_WC_SUCCESS)
		tj_int(&j, "byte_len", wc->byte_len);
	else
		tj_int(&j, "vendor_err", wc->vendor_err);
	if (wc->status == IBV_WC_SUCCESS && (wc->wc_flags & IBV_WC_WITH_IMM))
		tj_hex(&j, "imm", ntohl(wc->imm_data), 8);
	trace_emit(r, &j);
}

/* ---------- 生命周期各步的关键结果（rdma_common.c；没有 --trace 时什么也不做） ---------- */

void trace_device_list(const struct trace_ref *tr, struct ibv_device **list, int n)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, "ibv_get_device_list", 0);
	tj_int(&j, "num", n);
	tj_arr(&j, "devs");
	for (int i = 0; i < n; i++)
		tj_item_str(&j, ibv_get_device_name(list[i]));
	tj_close(&j, ']');
	trace_verbs_end(tr, &j);
}

void trace_port(const struct trace_ref *tr, int port, const struct ibv_port_attr *pa)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, "ibv_query_port", 0);
	tj_int(&j, "port", port);
	tj_str(&j, "state", ibv_port_state_str(pa->state));
	tj_str(&j, "link_layer", pa->link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet (RoCE)" : "InfiniBand");
	tj_int(&j, "active_mtu", wire_mtu_bytes(pa->active_mtu));
	tj_int(&j, "max_mtu", wire_mtu_bytes(pa->max_mtu));
	tj_int(&j, "lid", pa->lid);
	trace_verbs_end(tr, &j);
}

void trace_gid(const struct trace_ref *tr, const struct gid_info *g)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, "ibv_query_gid_table", 0);
	tj_int(&j, "gid_index", g->index);
	tj_gid(&j, "gid", g->raw);
	tj_str(&j, "type", gid_kind_name(g->kind));
	tj_str(&j, "netdev", g->ndev);
	trace_verbs_end(tr, &j);
}

void trace_call(const struct trace_ref *tr, const char *call, const char *key1, long long v1,
		const char *key2, long long v2)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, call, 0);
	tj_int(&j, key1, v1);
	if (key2 != NULL)
		tj_int(&j, key2, v2);
	trace_verbs_end(tr, &j);
}

void trace_mr(const struct trace_ref *tr, const struct ibv_mr *mr, size_t len, const char *access)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, "ibv_reg_mr", 0);
	tj_hex(&j, "lkey", mr->lkey, 8);
	tj_hex(&j, "rkey", mr->rkey, 8);
	tj_hex(&j, "addr", (uintptr_t)mr->addr, 0);
	tj_int(&j, "len", (long long)len);
	tj_str(&j, "access", access);
	trace_verbs_end(tr, &j);
}

void trace_qp_num(const struct trace_ref *tr, const char *call, int rc, int i, uint32_t qpn, long long psn)
{
	struct tj j;

	if (!trace_on(tr))
		return;
	trace_verbs_begin(&j, tr, call, rc);
	tj_int(&j, "qp", i);
	tj_int(&j, "qpn", qpn);
	if (psn >= 0)
		tj_int(&j, "psn", psn);
	trace_verbs_end(tr, &j);
}
