/*
 * sq_account.c - 发送队列的记账（规则见 sq_account.h）
 */
#include "verbs/sq_account.h"

#include <stdlib.h>
#include <string.h>

int sq_account_init(struct sq_account *a, uint32_t cap)
{
	memset(a, 0, sizeof(*a));
	a->cap = cap;
	a->sig = calloc(cap > 0 ? cap : 1, sizeof(*a->sig));
	return a->sig == NULL ? -1 : 0;
}

void sq_account_free(struct sq_account *a)
{
	free(a->sig);
	memset(a, 0, sizeof(*a));
}

int lat_wr_signaled(long k, int num_qp, int every, long total)
{
	long j = k / num_qp;   /* 在自己QP上的序号 */

	return (j + 1) % every == 0 || k + num_qp >= total;
}
