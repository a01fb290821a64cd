/*
 * cm_rd_atom.c - 测试插件：--cm 的服务端像是装在一块 READ/原子深度只有 ROCE_TEST_CM_RD_ATOM=N 的设备上（tests/lab/cm.bats）
 *
 * rxe 两端都是 128，协商不出差别；服务端自己的上限（max_qp_rd_atom、max_qp_init_rd_atom）压到 N 之后，实验室才能读回
 * （ibv_query_qp）服务端QP里的是不是协商后的值。CM 按地址选出设备、查过设备属性之后，第一个连接级事件是注册 MR 之前
 * （HOOK_MR），这时把设备属性里的两个上限改小；之后程序算 conn_param 的深度（connect/cm_qps.c）用的就是它们。
 */
#include "test_plugins.h"

static void cap_rd_atom(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev)
{
	int n = *(const int *)ctx;
	struct ibv_device_attr *a;

	(void)dev;
	if (conn == NULL || ev->at != HOOK_MR || ev->when != HOOK_BEFORE)
		return;
	a = &conn->dev->dev_attr;
	if (a->max_qp_rd_atom > n)
		a->max_qp_rd_atom = n;
	if (a->max_qp_init_rd_atom > n)
		a->max_qp_init_rd_atom = n;
}

void cm_rd_atom_install(struct program *p)
{
	static int n;

	n = test_env_int("ROCE_TEST_CM_RD_ATOM", 255);
	if (n > 0 && p->role == ROLE_SERVER && p->opt.cm)
		hook_add(&p->hooks, cap_rd_atom, &n, 0);
}
