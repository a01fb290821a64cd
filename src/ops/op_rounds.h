/*
 * op_rounds.h - 数据面：各种操作（send / write / read / write_imm / 原子 / 交互）的收发流程
 */
#ifndef ROCE_OP_ROUNDS_H
#define ROCE_OP_ROUNDS_H

#include "rdma_common.h"

/* 双方都到 RTS 之后调用；按 opt->op 与角色执行全部轮次并校验数据 */
int run_data_plane(struct rdma_conn *conn);

/* 每个QP投递一个接收，放进 area(conn, i)；第 r 轮（inject/inject.c 的 late-recv、flush 也用它） */
int post_recv_all(struct rdma_conn *conn, uint8_t *(*area)(struct rdma_conn *, int), long r);
/* ops/ 里共用：等 n 个完成并检查 opcode（RDMA READ 还检查读到的长度 read_len） */
int wait_wcs(struct rdma_conn *conn, int n, enum ibv_wc_opcode expect, uint32_t read_len);
/* --interactive（ops/interactive.c）：服务端盯着自己的内存，客户端逐行 WRITE 再 READ 回来 */
int interactive_server(struct rdma_conn *conn);
int interactive_client(struct rdma_conn *conn);

#endif
