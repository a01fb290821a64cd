/*
 * qp_state.h - QP 状态机：RESET→INIT →（交换连接信息）→ INIT→RTR → RTR→RTS，
 *              以及用 ibv_query_qp 读回并打印 QP 的实际状态（qp_state.c）
 */
#ifndef ROCE_QP_STATE_H
#define ROCE_QP_STATE_H

#include "rdma_common.h"

/* 读回 QP 的全部属性 */
#define QUERY_ALL (IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | \
		   IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | \
		   IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC | \
		   IBV_QP_ACCESS_FLAGS | IBV_QP_PORT | IBV_QP_AV | IBV_QP_CAP | IBV_QP_QKEY)

/* @pre QP 已创建（RESET）  @post 全部 QP 在 INIT，qp_access_flags = access 去掉 LOCAL_WRITE */
int modify_qps_to_init(struct rdma_conn *conn, int access);
/* 控制平面：通过 conn->ctrl 交换 HELLO，校验两端参数一致，打印双方信息
 * @pre QP 在 INIT，控制平面已连上  @post conn->remote、path_mtu、peer_rkey 有效 */
int exchange_connection_info(struct rdma_conn *conn);
/* @pre QP 在 INIT，已交换连接信息  @post 全部 QP 在 RTR */
int modify_qps_to_rtr(struct rdma_conn *conn);
/* @pre QP 在 RTR  @post 全部 QP 在 RTS */
int modify_qps_to_rts(struct rdma_conn *conn);
/* 把 QP i 改到 ERR（任何状态都可以）：之后它上面没完成的 WR 都以 WR_FLUSH_ERR 完成 */
int modify_qp_to_err(struct rdma_conn *conn, int i);
/* 用 ibv_query_qp 读回并打印 QP 的实际状态 */
int print_qp_state(struct rdma_conn *conn, int i, const char *title);
void print_qp_states(struct rdma_conn *conn, const char *title);

#endif
