/*
 * program.h - 服务端和客户端共用的 main（program.c）
 */
#ifndef ROCE_PROGRAM_H
#define ROCE_PROGRAM_H

#include "rdma_common.h"

/* 驱动程序（rdma_server.c / rdma_client.c）的步骤列表：用 dev 和 conn 走完全部步骤，失败返回 -1 */
typedef int (*program_fn)(struct rdma_device *dev, struct rdma_conn *conn);

/*
 * 解析命令行（-h/--dry-run/用法错误直接返回 0/0/2），然后 device_init/conn_init、
 * 运行 run(dev, conn)，最后无论成败都 destroy_resources()；返回进程退出码（0 成功，1 失败）。
 */
int run_program(int argc, char **argv, enum role role, program_fn run);

/*
 * --cm 的步骤表（两端相同；只有第一步 ctrl_establish 按角色不同：客户端 resolve/connect，服务端 listen/等请求）。
 * 顺序和 TCP 模式不同：设备要等 CM 解析了地址（客户端）或收到连接请求（服务端）才知道。
 */
int run_cm_steps(struct rdma_device *dev, struct rdma_conn *conn, int access);

#endif
