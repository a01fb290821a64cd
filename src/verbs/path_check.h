/*
 * path_check.h - 两台机器之间的路径：RTR 之前的路径检查、RTR 失败时的证据（按路由选设备和 GID 在 selection.c）
 *
 * “QP 到不了 RTR”多半不是某一台机器的问题，而是两台之间的路：RDMA 设备建在了不通往对端的网卡上、
 * 对端通告的地址不是你连的地址、网卡 MTU 比 active_mtu 小……这里用内核的路由表（route_lookup.c）把这些
 * 在创建QP之前、在 RTR 之前就找出来，并说出证据和修复命令。
 */
#ifndef ROCE_PATH_CHECK_H
#define ROCE_PATH_CHECK_H

#include "verbs/rdma_types.h"

/* 交换连接信息之后：服务端/客户端连的地址与对端GID是否一致；本端GID → 远端GID 的路由与网卡MTU */
void path_check_before_rtr(struct rdma_conn *conn);

/* RTR 失败时：本端GID在哪块网卡、内核到远端GID走哪块网卡（证据），以及 diagnose.sh --peer */
void path_rtr_evidence(struct rdma_conn *conn, int i);

#endif
