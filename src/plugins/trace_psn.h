/*
 * trace_psn.h - --trace 插件自己数的 PSN（post_send 事件的 psn_first）：每条连接每个QP下一个发送 WR 的第一个 PSN，
 * 放在插件上下文的 per_conn 表里（trace_hooks.c 在 RTS、post_send、销毁时调用）。纯逻辑，单元测试直接用
 */
#ifndef ROCE_TRACE_PSN_H
#define ROCE_TRACE_PSN_H

#include <stdint.h>

#include "plugins/per_conn.h"

/* QP qp 到了 RTS：它的第一个发送 WR 从 sq_psn 开始。这条连接还没有状态时新建一份；放不下（内存不够或同时的连接
 * 太多）时说一句、不记：这条连接的 post_send 事件没有 psn_first，别的照常 */
void trace_psn_rts(struct per_conn *t, const struct rdma_conn *conn, int qp, uint32_t sq_psn);
/* QP qp 投递了一个占 npkts 个 PSN 的 WR：有这条连接的 PSN 时把它的第一个 PSN 写进 *first、往后数，返回 1；没有时返回 0 */
int trace_psn_take(struct per_conn *t, const struct rdma_conn *conn, int qp, uint32_t npkts, uint32_t *first);
/* 连接的QP开始销毁，或多客户端的会话结束：放掉这条连接的 PSN 状态 */
void trace_psn_drop(struct per_conn *t, const struct rdma_conn *conn);

#endif
