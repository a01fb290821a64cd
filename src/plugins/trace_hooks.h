/*
 * trace_hooks.h - --trace 装进插桩的接缝（verbs/rdma_types.h 的 struct rdma_hooks）：program.c 在打开 trace 之后调用
 */
#ifndef ROCE_TRACE_HOOKS_H
#define ROCE_TRACE_HOOKS_H

#include "verbs/rdma_types.h"

/* 装上 trace 的插件：步骤函数报告的每一件事写成 trace 事件（设备或连接的 trace 为 NULL 时不写） */
void trace_hooks_install(struct rdma_hooks *h);
/* trace 的第一个事件 start：argv、主要参数（op、num_qp、size、iters、interactive、port、dev、gid_idx）、界面语言 */
void trace_start(const struct trace_ref *r, int argc, char **argv, const struct options *o);

#endif
