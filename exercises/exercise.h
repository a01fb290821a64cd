/*
 * exercise.h - 练习文件开头 include 的唯一头文件：程序的结构体（rdma_common.h）和数据面的课的原型
 * The one header an exercise file includes: the program's structs (rdma_common.h) and the data-path lesson prototypes
 */
#ifndef ROCE_EXERCISE_H
#define ROCE_EXERCISE_H

#include <arpa/inet.h>
#include <string.h>
#include "rdma_common.h"

/* 还没写：检查会说“还没写” / not written yet: the check says so */
void exercise_todo(void);

/* 数据面的课（程序里在 src/verbs/datapath.h） / data-path lessons (in src/verbs/datapath.h in the program) */
void recv_wr_for(const struct rdma_conn *conn, int i, void *addr, uint32_t len, struct ibv_recv_wr *wr,
		 struct ibv_sge *sge);
void send_wr_for(const struct rdma_conn *conn, int i, const struct send_req *req, struct ibv_send_wr *wr,
		 struct ibv_sge *sge);
void rdma_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr);
void atomic_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr);

#endif
