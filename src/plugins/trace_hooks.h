/*
 * trace_hooks.h - --trace 装进插桩的接缝（verbs/rdma_types.h 的 struct rdma_hooks）：program.c 在打开 trace 之后调用
 */
#ifndef ROCE_TRACE_HOOKS_H
#define ROCE_TRACE_HOOKS_H

#include "verbs/rdma_types.h"
#include "plugins/per_conn.h"
#include "plugins/trace_ref.h"

/* 插件的上下文：每条连接每个QP下一个发送 WR 的第一个 PSN（post_send 事件的 psn_first；RTS 时记下，多客户端时每个会话一份） */
struct trace_plugin {
	struct per_conn psn;
};

/* 装上 trace 的插件：步骤函数报告的每一件事写成 trace 事件，写到设备或连接的 watch 里的 trace（trace_watch）；
 * 状态放在 p（program.c，只在给了 --trace 时；p 要活到程序结束） */
void trace_hooks_install(struct rdma_hooks *h, struct trace_plugin *p);
/*
 * trace 插件给设备和连接的观察者上下文（verbs/rdma_types.h 的 watch，program.c 填进设备，conn_init 复制）：
 * 步骤标题写成 step 事件，插件的事件写到 r（r 要活得比设备和连接久）。trace_watched 反过来取出它；
 * watch 不是 trace 插件的（没有 --trace）时返回 NULL
 */
struct step_watch trace_watch(const struct trace_ref *r);
const struct trace_ref *trace_watched(const struct step_watch *w);
/* trace 的第一个事件 start：argv、主要参数（op、num_qp、size、iters、interactive、port、dev、gid_idx）、界面语言 */
void trace_start(const struct trace_ref *r, int argc, char **argv, const struct options *o);

#endif
