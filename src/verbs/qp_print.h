/*
 * qp_print.h - 课程的打印细节（qp_print.c）：每次转换后用 ibv_query_qp 读回并打印 QP 的实际状态，
 *              交换连接信息后打印两端的 HELLO，RTR 失败时打印证据；设备、端口、MR、SRQ 建好后的那几行。
 *              转换和 verbs 调用本身在 rdma_common.c
 */
#ifndef ROCE_QP_PRINT_H
#define ROCE_QP_PRINT_H

#include "verbs/rdma_types.h"

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
/* 步骤2、3、6、7 之后打印设备的能力、端口、注册好的 MR（access 是注册用的权限）、建好的 SRQ（want 是要的深度） */
void print_device(const struct rdma_device *dev);
void print_port(const struct rdma_device *dev);
void print_mr(const struct rdma_conn *conn, int access);
void print_srq(const struct rdma_conn *conn, uint32_t want);
/* 步骤“INIT->RTR”“RTR->RTS”的“设置:”和说明：打印传给 ibv_modify_qp 的 attr（练习版里是学习者的函数填的），不是参照的常数；
 * why/len 是 RTS 说明 --ack-timeout 的缓冲区 */
void print_rtr_settings(const struct rdma_conn *conn, const struct ibv_qp_attr *a);
void print_rts_settings(const struct rdma_conn *conn, const struct ibv_qp_attr *a, char *why, size_t len);

#endif
