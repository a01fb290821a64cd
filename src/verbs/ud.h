/*
 * ud.h - --qp ud 的两件 RC 没有的事：到对端的地址句柄（AH），和每个接收完成前面的 GRH（ud.c）
 */
#ifndef ROCE_UD_H
#define ROCE_UD_H

#include "verbs/rdma_types.h"

/* 数据传输之前：消息不超过路径MTU（UD 不分段），再用对端 HELLO 里的 GID 建地址句柄 conn->ah（N 个QP共用） */
int ud_prepare(struct rdma_conn *conn);
/* 一个 UD 接收完成：带 IBV_WC_GRH、src_qp 是对端 QP i；第1轮 QP[0] 打印 buf 前 40 字节和从中解出的地址 */
int ud_check_recv(struct rdma_conn *conn, const struct ibv_wc *wc, int i, const uint8_t *buf, long r);
/* 等接收完成超时后的 UD 说明：报文没有接收请求时被丢掉，发送方照样成功 */
void ud_explain_missing(void);

#endif
