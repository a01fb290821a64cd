/*
 * sessions.h - 多客户端服务端（--clients N / --parallel M），见 sessions.c 开头的说明
 */
#ifndef ROCE_SESSIONS_H
#define ROCE_SESSIONS_H

#include "verbs/rdma_types.h"

struct session;   /* 一个客户端的会话（sessions.c 私有） */

/* 驱动程序给出的“服务一个客户端”：步骤列表 + 数据面（rdma_server.c 的 serve_session），在会话线程里调用 */
typedef int (*session_fn)(struct rdma_conn *conn, struct session *s);

/*
 * 设备（步骤1-5）已经建好：在它上面 listen，按 --clients/--parallel 接受客户端，
 * 每个客户端一个线程、一套自己的 MR/CQ/QP；SIGINT/SIGTERM 时停止接受、收尾。
 * step 是主线程的步骤计数器（会话的步骤接在它后面，每个客户端各自编号）。
 * 返回 0 = 每个服务过的客户端都成功；-1 = 有失败的（或没等到 --clients 个客户端）。
 * 每个会话的步骤和数据面由驱动程序给出（serve：和单客户端同一张 TCP 步骤列表、同一个数据面）。
 */
int serve_clients(struct rdma_device *dev, unsigned *step, session_fn serve);

/*
 * 会话最先的两步（驱动程序的 TCP 步骤列表在会话里先调它）：接过主线程 accept 好的 TCP 连接，
 * 读客户端的 HELLO 定下这个会话的参数（服务端命令行没明确给的听客户端的）
 */
int session_first_steps(struct session *s, struct rdma_conn *conn);

#endif
