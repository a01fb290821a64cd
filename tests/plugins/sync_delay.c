/*
 * sync_delay.c - 测试插件：每发出一个同步消息就停 ROCE_TEST_SYNC_DELAY_MS 毫秒（只链接进测试版的程序 build/test/）
 *
 * 同步消息的意思是“我这边准备好了，你可以动了”；之后本端不该再做对端会撞上的事。
 * 停一下就把这类顺序错误放大成每次都发生（tests/lab/ops.bats、tests/lab/cm.bats）：
 *   - READY 发出后才投递接收 → 对端的 SEND 先到，rxe 的 RNR NAK 计数增加；
 *   - 交互模式 ACK 发出后才看文本 → 客户端已经写进了下一行。
 * 往控制平面上装一个观察者（control/ctrl.h）。
 */
#include <unistd.h>

#include "test_plugins.h"

static void delay_after_send(void *ctx, int send, uint32_t tag)
{
	int ms = *(const int *)ctx;

	(void)tag;
	if (send && ms > 0)
		usleep((useconds_t)ms * 1000);
}

void sync_delay_install(struct program *p)
{
	static int ms;
	const struct ctrl_observer o = { .sync = delay_after_send, .ctx = &ms };

	ms = test_env_int("ROCE_TEST_SYNC_DELAY_MS", 600000);
	if (ms > 0)
		ctrl_observe(&p->conn.ctrl, &o);
}
