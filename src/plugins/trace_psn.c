/*
 * trace_psn.c - --trace 插件自己数的 PSN（见 trace_psn.h）。verbs 不报告 PSN，所以自己数（与网卡的数法一样）：
 * 从 RTS 时的 sq_psn 开始，每个 WR 占 psn_npkts 个（READ 是响应包的个数，原子操作 1 个），模 2^24
 */
#include "plugins/trace_psn.h"

#include <stdlib.h>

#include "console/conout.h"
#include "console/i18n.h"
#include "plugins/trace.h"

struct trace_psn {
	uint32_t next[MAX_QP];
};

void trace_psn_rts(struct per_conn *t, const struct rdma_conn *conn, int qp, uint32_t sq_psn)
{
	struct trace_psn *s;

	if (qp < 0 || qp >= MAX_QP)
		return;
	s = per_conn_get(t, conn);
	if (s == NULL) {
		s = calloc(1, sizeof(*s));
		if (s == NULL || per_conn_put(t, conn, s) != 0) {
			free(s);
			con_error(_("--trace: 记不下QP的起始PSN（内存不够或同时的连接太多），这条连接的 post_send 不写 psn_first\n"));
			return;
		}
	}
	s->next[qp] = sq_psn;
}

int trace_psn_take(struct per_conn *t, const struct rdma_conn *conn, int qp, uint32_t npkts, uint32_t *first)
{
	struct trace_psn *s = qp >= 0 && qp < MAX_QP ? per_conn_get(t, conn) : NULL;

	if (s == NULL)
		return 0;
	*first = s->next[qp];
	s->next[qp] = psn_add(*first, npkts);
	return 1;
}

void trace_psn_drop(struct per_conn *t, const struct rdma_conn *conn)
{
	free(per_conn_take(t, conn));
}
