/*
 * inject.h - --inject 装进挂钩表（types/rdma_types.h 的 struct rdma_hooks）：program.c 解析完命令行之后调用
 */
#ifndef ROCE_INJECT_H
#define ROCE_INJECT_H

#include "types/rdma_types.h"

/* 只设这一种注入要用的挂钩（INJECT_NONE 时什么也不设） */
void inject_install(struct rdma_hooks *h, enum inject kind);

#endif
