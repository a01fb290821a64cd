/*
 * ctrl_trace.h - 控制平面的 trace 事件：发出和收到的 HELLO、同步消息
 *
 * 线上格式和同步标签是控制平面的事，所以这两个事件在这里拼；plugins/trace.c 只是写出 JSON Lines 的那一层，
 * 不知道控制平面和命令行。控制平面自己不调用这里：有 --trace 时组装程序（program/program.c）用 ctrl_trace_observe 把它装成
 * 控制平面的观察者（ctrl.h 的 struct ctrl_observer），多客户端的会话由 trace 插件在 HOOK_SESSION 里装（trace_hooks.c）；
 * 没有 --trace 时一次也不经过它。
 */
#ifndef ROCE_CTRL_TRACE_H
#define ROCE_CTRL_TRACE_H

#include <stdint.h>

#include "control/ctrl.h"
#include "control/wire.h"
#include "plugins/trace.h"

/* send 非 0 = 发出，0 = 收到 */
void trace_ctrl_sync(const struct trace_ref *r, int send, uint32_t tag);
void trace_ctrl_hello(const struct trace_ref *r, int send, const struct wire_hello *h);
/* 把上面两个事件装成 c 的观察者，写到 r（r 要活得比 c 的连接久）；r 没开 trace 时什么也不装 */
void ctrl_trace_observe(struct ctrl *c, const struct trace_ref *r);

#endif
