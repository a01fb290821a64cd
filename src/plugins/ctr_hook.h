/*
 * ctr_hook.h - --counters 的插件：数据面开始和结束时读端口的硬件计数，打印动了的计数（每个一行含义），写 trace
 *
 * 读和求差在纯模块 counters.c；这里只知道去哪个目录（设备名、端口）、怎样打印、多客户端时计数是共用的。
 * 经插桩的接缝（verbs/rdma_types.h 的 struct hook_event）接进数据面（都在 rdma_common.c 的步骤函数之外，也都在 --bench 的计时循环之外）：
 *   HOOK_PLANE 之前/之后       数据面的开始（runs/op_rounds.c 的 rts_barrier 里的 plane_begin，RTS 同步点之前）
 *                              和结束（plane_end：rounds_end；data_plane）
 *   HOOK_BENCH_SIZE 之前/之后  runs/bench.c 的每个大小：计时之前、同步和校验之后（差值进 BENCH_RESULT）
 * 没有 --counters 时不装这个插件：不读 sysfs，不睡，这个文件的函数一个也不运行。
 */
#ifndef ROCE_CTR_HOOK_H
#define ROCE_CTR_HOOK_H

#include <stddef.h>

#include "plugins/counters.h"
#include "plugins/per_conn.h"
#include "verbs/rdma_types.h"

/* 插件的上下文：每条连接在数据面开始时读到的计数（多客户端时每个会话一份） */
struct ctr_plugin {
	struct per_conn before;
};

/* 把计数的插件装进 h，状态放在 p（program.c，只在给了 --counters 时；p 要活到程序结束） */
void ctr_hooks_install(struct rdma_hooks *h, struct ctr_plugin *p);

#endif
