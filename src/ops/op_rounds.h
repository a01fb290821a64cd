/*
 * op_rounds.h - 数据面：各种操作（send / write / read / write_imm / 原子 / 交互）的收发流程
 */
#ifndef ROCE_OP_ROUNDS_H
#define ROCE_OP_ROUNDS_H

#include "rdma_common.h"

/* 双方都到 RTS 之后调用；按 opt->op 与角色执行全部轮次并校验数据 */
int run_data_plane(struct rdma_conn *conn);

#endif
