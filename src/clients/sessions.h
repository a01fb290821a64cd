/*
 * sessions.h - 多客户端服务端（--clients N / --parallel M），见 sessions.c 开头的说明
 */
#ifndef ROCE_SESSIONS_H
#define ROCE_SESSIONS_H

#include "rdma_common.h"

/*
 * 设备（步骤1-5）已经建好：在它上面 listen，按 --clients/--parallel 接受客户端，
 * 每个客户端一个线程、一套自己的 MR/CQ/QP；SIGINT/SIGTERM 时停止接受、收尾。
 * step 是主线程的步骤计数器（会话的步骤接在它后面，每个客户端各自编号）。
 * 返回 0 = 每个服务过的客户端都成功；-1 = 有失败的（或没等到 --clients 个客户端）。
 * 每个会话的数据面由驱动程序给出（rdma_server.c 的 data_plane：和单客户端的同一个）。
 */
int serve_clients(struct rdma_device *dev, unsigned *step, int (*data_plane)(struct rdma_conn *conn));

#endif
