/*
 * op_rounds.h - 数据面：各种操作（send / write / read / write_imm / 原子 / 交互）的收发流程
 */
#ifndef ROCE_OP_ROUNDS_H
#define ROCE_OP_ROUNDS_H

#include "verbs/rdma_types.h"

/*
 * 步骤列表的最后一步（两个驱动程序的 tcp_steps、program/program.c 的 cm_steps）：
 *   rts_barrier    --counters 先读一次（plane_begin），原子操作的服务端放好目标字，再是 RTS 同步点：两端的 QP 都到了 RTS
 * 之后的数据面由 program/program.c 的 data_plane 一轮一轮地跑：
 *   rounds_begin   UD/SRQ 的准备（prepare_plane），“数据传输”的标题；*t0 = 开始时刻
 *   每一轮         --op send 是驱动程序自己的 send_round；别的操作 op_round（每种操作、每个角色一个函数）
 *   rounds_end     原子操作的终值确认、用时；--counters 再读一次，打印差值（rc 是前面的结果，失败时也打印）
 * --bench、--interactive 各有完整的数据面（bench.c、interactive.c），前后同样是：
 *   prepare_plane  UD 的地址句柄，--srq 的异步事件
 *   plane_end      告诉插桩数据面结束了（HOOK_PLANE 之后；--counters 再读一次、打印差值），原样返回 rc
 */
int rts_barrier(struct rdma_conn *conn);
int rounds_begin(struct rdma_conn *conn, double *t0);
int op_round(struct rdma_conn *conn, long r);
int rounds_end(struct rdma_conn *conn, double t0, int rc);
void plane_begin(struct rdma_conn *conn);
int prepare_plane(struct rdma_conn *conn);
int plane_end(struct rdma_conn *conn, int rc);

/* 驱动程序的 send_round 用的小工具（其它操作的一轮也用它们） */
/* 只详细打印前两轮和最后一轮 */
int verbose(struct rdma_conn *conn, long r);
/* 第 r 轮 QP[i] 的一个 WR，写进 *req 并返回它：B区是本端的发送源 / READ 的目的地；READ 之外先填好本轮的数据（who = 发送方） */
struct send_req *round_req(struct rdma_conn *conn, struct send_req *req, enum ibv_wr_opcode opcode, int i, long r, const char *who);
/* 一个接收要给多少字节（整个槽；插桩可以改，HOOK_RECV_LEN：--inject small-recv 改小） */
uint32_t recv_size(struct rdma_conn *conn, int i, long r);
/* 每个QP的接收都投了之后（--srq 第1轮说明并装限位） */
int receives_posted(struct rdma_conn *conn, long r);
/* 一个接收完成：长度/标志、UD 的来源和 GRH、数据（who 是发送方，what 是打印用的动作） */
int check_recv(struct rdma_conn *conn, const struct ibv_wc *wc, long r, const char *who, const char *what);
/* 等接收完成时出错：UD 多说一句（消息可能被丢掉了）；返回 -1 */
int recv_missing(struct rdma_conn *conn);
/* --srq：第1轮之后 SRQ 限位事件应该来了；之后每轮不等待地看一眼 */
int srq_limit_event(struct rdma_conn *conn, long r);

/* 每个QP投递一个接收，放进 area(conn, i)；第 r 轮（plugins/inject.c 的 late-recv、flush 也用它） */
int post_recv_all(struct rdma_conn *conn, uint8_t *(*area)(struct rdma_conn *, int), long r);
/* 服务端第 r 轮的一步：每个QP投递一个接收（放进 area(conn, i)），再告诉客户端“可以发了”（READY）。
 * 这一步之前问一声插桩（HOOK_RECVS）：插件可以自己做这一步（--inject late-recv、flush），驱动程序不用知道 */
int recv_then_ready(struct rdma_conn *conn, long r, uint8_t *(*area)(struct rdma_conn *, int));
/* runs/ 里共用：等 n 个完成并检查 opcode（RDMA READ 还检查读到的长度 read_len） */
int wait_wcs(struct rdma_conn *conn, int n, enum ibv_wc_opcode expect, uint32_t read_len);
/* --interactive（runs/interactive.c）：服务端盯着自己的内存，客户端逐行 WRITE 再 READ 回来 */
int interactive_server(struct rdma_conn *conn);
int interactive_client(struct rdma_conn *conn);

#endif
