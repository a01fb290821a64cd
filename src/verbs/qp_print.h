/*
 * qp_print.h - QP 状态机的打印细节（qp_print.c）：每次转换后用 ibv_query_qp 读回并打印 QP 的实际状态，
 *              交换连接信息后打印两端的 HELLO，RTR 失败时打印证据。转换本身在 rdma_common.c
 */
#ifndef ROCE_QP_PRINT_H
#define ROCE_QP_PRINT_H

#include "types/rdma_types.h"

/* 读回 QP 的全部属性 */
#define QUERY_ALL (IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | \
		   IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
		   IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC | \
		   IBV_QP_ACCESS_FLAGS | IBV_QP_PORT | IBV_QP_AV | IBV_QP_CAP | IBV_QP_QKEY)

/* 交换连接信息之后：打印两端的 HELLO 和路径MTU（rdma_common.c 的 exchange_connection_info） */
void print_exchange(struct rdma_conn *conn, const struct wire_hello *local);
/* RTR 失败时：打印 QP i 的对端信息、路径证据和该查什么（err = ibv_modify_qp 的返回值） */
void rtr_debug(struct rdma_conn *conn, int i, int err);
/* 用 ibv_query_qp 读回并打印 QP 的实际状态 */
int print_qp_state(struct rdma_conn *conn, int i, const char *title);
void print_qp_states(struct rdma_conn *conn, const char *title);

#endif
