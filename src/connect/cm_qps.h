/*
 * cm_qps.h - 数据QP经 librdmacm 建连（--cm），和 rdma_common.c 的状态机并排：TCP 模式的 rdma_common.c 自己填
 * INIT/RTR/RTS 的属性，这里的属性来自 rdma_init_qp_attr
 *
 * ctrl_establish（ctrl.h）在 --cm 下做的是：服务端 rdma_bind_addr/rdma_listen 并等到第一个连接请求；
 * 客户端 rdma_resolve_addr/rdma_resolve_route。这之后才知道用哪个设备，所以：
 *   cm_adopt_device  把 CM 选出的设备交给 struct rdma_device（代替 TCP 模式的步骤1-4）
 *   cm_connect_qps   每个QP一个 cm_id：RESET→INIT→RTR→RTS（属性来自 rdma_init_qp_attr），
 *                    rdma_connect/rdma_accept/rdma_establish，外加一个控制QP（HELLO 与同步消息）
 */
#ifndef ROCE_CM_QPS_H
#define ROCE_CM_QPS_H

#include "verbs/rdma_types.h"

/* @pre ctrl_establish 成功（--cm）  @post 与 device_select 相同：dev->ctx、dev_attr、port_attr（ACTIVE）、gid 有效 */
int cm_adopt_device(struct rdma_conn *conn);
/* @pre PD、MR、CQ、QP 已创建（QP 在 RESET）  @post 所有QP在 RTS，控制QP可收发 */
int cm_connect_qps(struct rdma_conn *conn, int access);

#endif
