/*
 * inject.h - --inject 装进插桩的接缝（types/rdma_types.h 的 struct rdma_hooks）：program.c 解析完命令行之后调用
 */
#ifndef ROCE_INJECT_H
#define ROCE_INJECT_H

#include "types/rdma_types.h"

/* 装上注入的插件，它只改 kind 这一种要改的东西（INJECT_NONE 时什么也不装） */
void inject_install(struct rdma_hooks *h, enum inject kind);

#endif
