/*
 * adopt.c - 多客户端服务端：一个会话的参数（见 adopt.h）
 */
#include "control/adopt.h"
#include "console/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* 往 notes 后面追加一段 */
__attribute__((format(printf, 3, 4)))
static void note(char *notes, size_t len, const char *fmt, ...)
{
	size_t used = strlen(notes);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(notes + used, len - used, fmt, ap);
	va_end(ap);
}

int adopt_client_options(const struct options *server, const struct wire_hello *client,
			 size_t size_cap, struct options *out, char *notes, size_t notes_len,
			 char *why, size_t why_len)
{
	*out = *server;
	notes[0] = '\0';
	why[0] = '\0';
	if (!server->num_qp_given) {
		out->num_qp = (int)client->num_qp;
		note(notes, notes_len, " -q %u", client->num_qp);
	}
	if (!server->op_given) {
		out->op = (enum rdma_op)client->op;
		note(notes, notes_len, " --op %s", op_name(out->op));
	}
	if (!server->iters_given) {
		out->iters = (long)client->iters;
		note(notes, notes_len, " --iters %u", client->iters);
	}
	if (!server->offset_given && op_is_atomic(out->op)) {
		out->offset = client->offset;
		if (client->offset != 0)
			note(notes, notes_len, " --offset %u", client->offset);
	}
	if (op_is_atomic(out->op)) {
		out->size = 8;                  /* 原子操作固定 8 字节 */
		return 0;
	}
	if (server->size_given)
		return 0;
	if (client->size > size_cap) {
		/* 不接受：保留服务端的默认值，握手时两端都会报“消息大小不一致” */
		snprintf(why, why_len, _("客户端要求 --size %u，超过本服务端每个客户端的上限 %zu 字节"),
			 client->size, size_cap);
		return -1;
	}
	out->size = client->size;
	note(notes, notes_len, " --size %u", client->size);
	return 0;
}

int adopt_negotiated_rd(struct ibv_qp_attr *a, struct wire_rd_depth rd)
{
	int old;

	if (a->qp_state == IBV_QPS_RTR) {
		old = a->max_dest_rd_atomic;
		a->max_dest_rd_atomic = rd.in;
		return old;
	}
	if (a->qp_state == IBV_QPS_RTS) {
		old = a->max_rd_atomic;
		a->max_rd_atomic = rd.out;
		return old;
	}
	return -1;
}
