/*
 * sync_delay.c - 测试插件：每发出一个同步消息就停 ROCE_TEST_SYNC_DELAY_MS 毫秒（只链接进测试版的程序 build/test/）
 *
 * 同步消息的意思是“我这边准备好了，你可以动了”；之后本端不该再做对端会撞上的事。
 * 停一下就把这类顺序错误放大成每次都发生（tests/lab/ops.bats、tests/lab/cm.bats）：
 *   - READY 发出后才投递接收 → 对端的 SEND 先到，rxe 的 RNR NAK 计数增加；
 *   - 交互模式 ACK 发出后才看文本 → 客户端已经写进了下一行。
 * 正常的程序（build/rdma_server、build/rdma_client）里没有这个文件，也不读这个环境变量：
 * 测试版多链接本文件，它定义 program/program.h 的弱符号 program_test_plugins，往控制平面上装一个观察者（control/ctrl.h）。
 */
#include <stdlib.h>
#include <unistd.h>

#include "program/program.h"

static void delay_after_send(void *ctx, int send, uint32_t tag)
{
	int ms = *(const int *)ctx;

	(void)tag;
	if (send && ms > 0)
		usleep((useconds_t)ms * 1000);
}

void program_test_plugins(struct program *p)
{
	static int ms;
	const char *env = getenv("ROCE_TEST_SYNC_DELAY_MS");
	const struct ctrl_observer o = { .sync = delay_after_send, .ctx = &ms };

	ms = env != NULL ? atoi(env) : 0;
	if (ms > 0)
		ctrl_observe(&p->conn.ctrl, &o);
}
