/*
 * cm_connect_gap.c - 测试插件：--cm 的客户端每个数据QP的 rdma_connect 之前停 ROCE_TEST_CM_CONNECT_GAP_MS 毫秒（tests/lab/cm.bats）
 *
 * 让实验室里别的客户端的连接请求一定落在这个客户端建连的中途（服务端要只拒绝那个客户端，本会话照常）。
 * 用插桩的接缝上的 HOOK_CM_CONNECT（connect/cm_qps.c：数据QP的 rdma_connect 之前）。
 */
#include <unistd.h>

#include "test_plugins.h"

static void gap_before_connect(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev)
{
	(void)dev;
	(void)conn;
	if (ev->at == HOOK_CM_CONNECT && ev->when == HOOK_BEFORE)
		usleep((useconds_t)*(const int *)ctx * 1000);
}

void cm_connect_gap_install(struct program *p)
{
	static int ms;

	ms = test_env_int("ROCE_TEST_CM_CONNECT_GAP_MS", 10000);
	if (ms > 0 && p->role == ROLE_CLIENT && p->opt.cm)
		hook_add(&p->hooks, gap_before_connect, &ms, 0);
}
