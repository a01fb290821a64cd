/*
 * ctr_hook.h - --counters 的挂钩：数据面开始和结束时读端口的硬件计数，打印动了的计数（每个一行含义），写 trace
 *
 * 读和求差在纯模块 counters.c；这里只知道去哪个目录（设备名、端口）、怎样打印、多客户端时计数是共用的。
 * 调用的地方（都在 rdma_common.c 的步骤函数之外，也都在 --bench 的计时循环之外）：
 *   ops/op_rounds.c 的 run_data_plane 第一行      ctr_hook_start
 *   驱动程序在 run_data_plane 返回之后  ctr_hook_end（rdma_client.c、rdma_server.c、clients/sessions.c）
 *   bench.c 的每个大小：计时之前、同步和校验之后  ctr_hook_size_start / ctr_hook_size_end（差值进 BENCH_RESULT）
 * 没有 --counters 时这些函数什么也不做（不读 sysfs，不睡）。
 */
#ifndef ROCE_CTR_HOOK_H
#define ROCE_CTR_HOOK_H

#include <stddef.h>

#include "counters/counters.h"
#include "rdma_common.h"

void ctr_hook_start(struct rdma_conn *c);
/* 等计数的缓存过期（lifespan）、再读、打印、写 trace；原样返回 rc（数据面失败时也打印：计数能说明出了什么事） */
int ctr_hook_end(struct rdma_conn *c, int rc);
void ctr_hook_size_start(struct rdma_conn *c, struct ctr_table *before);
/* buf 得到 " ctr_NAME=DELTA…"（没有 --counters 或没动时是空串） */
void ctr_hook_size_end(struct rdma_conn *c, const struct ctr_table *before, size_t size, char *buf, size_t len);

#endif
