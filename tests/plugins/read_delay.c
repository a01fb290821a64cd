/*
 * read_delay.c - 测试插件：交互模式的客户端每个 RDMA READ 投递之前停 ROCE_TEST_READ_DELAY_MS 毫秒（tests/lab/ops.bats）
 *
 * 客户端每一行先 WRITE、等它完成，再 READ 读回。停在 READ 之前，就把“服务端看到 q 就拆 QP，客户端最后的 READ
 * 没人应答”这类顺序错误放大成每次都发生。用插桩的接缝上的 HOOK_SEND_WR（post_send 把请求变成 WR、ibv_post_send 之前）。
 */
#include <unistd.h>

#include "test_plugins.h"

static void delay_before_read(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev)
{
	const struct ibv_send_wr *wr = ev->obj;

	(void)dev;
	if (conn != NULL && ev->at == HOOK_SEND_WR && ev->when == HOOK_BEFORE && conn->opt->interactive &&
	    wr->opcode == IBV_WR_RDMA_READ)
		usleep((useconds_t)*(const int *)ctx * 1000);
}

void read_delay_install(struct program *p)
{
	static int ms;

	ms = test_env_int("ROCE_TEST_READ_DELAY_MS", 600000);
	if (ms > 0 && p->role == ROLE_CLIENT)
		hook_add(&p->hooks, delay_before_read, &ms, 0);
}
