/*
 * events.h - 设备的异步事件（ibv_get_async_event）：不属于任何一个 WR 的消息，例如 SRQ 快空了、端口掉了、QP 出了致命错误。
 * 每个设备一个事件 fd（ctx->async_fd）；取出的每个事件都要 ibv_ack_async_event，否则销毁对应的对象时会一直等。
 */
#ifndef ROCE_EVENTS_H
#define ROCE_EVENTS_H

#include "verbs/rdma_types.h"

/* 把设备的事件 fd 设成非阻塞（之后用 poll 等，带超时） */
int events_setup(struct rdma_conn *conn);
/* --srq：给 SRQ 装上限位 limit（ibv_modify_srq IBV_SRQ_LIMIT）：SRQ 里的接收请求少于 limit 个时来一个事件（只来一次） */
int srq_arm_limit(struct rdma_conn *conn, uint32_t limit);
/* 最多等 wait_ms 毫秒，取出并打印到达的异步事件（每个都确认）；看到 want 类型的事件返回 1，没有返回 0，出错 -1 */
int events_poll(struct rdma_conn *conn, enum ibv_event_type want, int wait_ms);
/*
 * --srq 的QP销毁之前：全部改到 ERR，等每个QP的 IBV_EVENT_QP_LAST_WQE_REACHED（最多 wait_ms 毫秒），打印等到了几个。
 * 返回等到事件的QP个数。rxe 不发这个事件（实测），等满 wait_ms 也照样返回，由调用方接着销毁
 */
int srq_release_qps(struct rdma_conn *conn, int wait_ms);
/* 一个事件类型的中文说明和该查什么（没有专门说明的返回通用的一句） */
const char *event_hint(enum ibv_event_type t);

#endif
