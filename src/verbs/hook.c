/*
 * hook.c - 插桩的接缝的分发（类型和内联的入口在 rdma_types.h）：一个事件按装的顺序交给每个插件
 * 单独一个文件、不内联：调用它的地方（包括基准测试的计时循环）没有插件时只多一次判断，代码和以前的函数指针一样短
 */
#include "verbs/rdma_types.h"

void hook_emit(const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev)
{
	const struct rdma_hooks *h = conn != NULL ? conn->hooks : dev->hooks;

	for (int k = 0; k < h->n; k++) {
		h->plug[k].fn(h->plug[k].ctx, dev != NULL ? dev : conn->dev, conn, ev);
		if (ev->when == HOOK_BEFORE && ev->rc != HOOK_PASS)
			break;
	}
}
