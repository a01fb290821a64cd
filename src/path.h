/*
 * path.h - 两台机器之间的路径：按路由选设备和GID、RTR 之前的路径检查、RTR 失败时的证据
 *
 * “QP 到不了 RTR”多半不是某一台机器的问题，而是两台之间的路：RDMA 设备建在了不通往对端的网卡上、
 * 对端通告的地址不是你连的地址、网卡 MTU 比 active_mtu 小……这里用内核的路由表（route.c）把这些
 * 在创建QP之前、在 RTR 之前就找出来，并说出证据和修复命令。
 */
#ifndef ROCE_PATH_H
#define ROCE_PATH_H

#include "rdma_common.h"

/* 客户端，步骤2 开头：查到服务端的路由，存进 peer->route（查不到只打印，不算错） */
void path_lookup_server(const struct options *opt, struct peer_route *peer);

/*
 * 客户端没有 -d 时按路由选设备：
 *   1  选中 *out（并在 peer->want_src 记下应使用的源地址，choose_gid 据此选 GID）
 *   0  路由帮不上忙（查不到、或服务端是本机地址且没有设备的地址能通往它），按原来的规则选
 *  -1  路由走的网卡上没有 RDMA 设备：已打印错误和修复命令
 */
int path_pick_device(const struct rdma_device *dev, struct peer_route *peer, struct ibv_device **out);

/* 客户端显式给了 -d/-g：选出的GID不在通往服务端的路径上时大声警告（不退出，让学习者看到后果） */
void path_warn_if_off_route(const struct rdma_device *dev, const struct peer_route *peer);

/* 交换连接信息之后：服务端/客户端连的地址与对端GID是否一致；本端GID → 远端GID 的路由与网卡MTU */
void path_check_before_rtr(struct rdma_conn *conn);

/* RTR 失败时：本端GID在哪块网卡、内核到远端GID走哪块网卡（证据），以及 diagnose.sh --peer */
void path_rtr_evidence(struct rdma_conn *conn, int i);

#endif
