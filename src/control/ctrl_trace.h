/*
 * ctrl_trace.h - 控制平面的 trace 事件：发出和收到的 HELLO、同步消息（ctrl.c、ctrl_tcp.c 调用）
 *
 * 线上格式和同步标签是控制平面的事，所以这两个事件在这里拼；trace/ 只是写出 JSON Lines 的那一层，
 * 不知道控制平面和命令行。trace 指针为 NULL（没有 --trace）时什么也不做。
 */
#ifndef ROCE_CTRL_TRACE_H
#define ROCE_CTRL_TRACE_H

#include <stdint.h>

#include "pure/wire.h"
#include "trace/trace.h"

/* send 非 0 = 发出，0 = 收到 */
void trace_ctrl_sync(const struct trace_ref *r, int send, uint32_t tag);
void trace_ctrl_hello(const struct trace_ref *r, int send, const struct wire_hello *h);

#endif
