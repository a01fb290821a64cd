/*
 * inject.h - --inject 装进插桩的接缝（verbs/rdma_types.h 的 struct rdma_hooks）：program.c 解析完命令行之后调用
 */
#ifndef ROCE_INJECT_H
#define ROCE_INJECT_H

#include "plugins/per_conn.h"
#include "verbs/rdma_types.h"

/* 装上注入的插件，它只改 kind 这一种要改的东西（INJECT_NONE 时什么也不装） */
/* 插件的上下文：哪条连接的下一个发送 WR 要改（第1轮 QP[0] 的发送请求之后、它变成 WR 时：--inject lkey 换 lkey，
 * --inject inline 加 IBV_SEND_INLINE） */
struct inject_plugin {
	struct per_conn wr_due;
};

void inject_install(struct rdma_hooks *h, enum inject kind, struct inject_plugin *p);

#endif
