/*
 * program.h - 服务端和客户端共用的 main（program.c）
 */
#ifndef ROCE_PROGRAM_H
#define ROCE_PROGRAM_H

#include "rdma_common.h"

/*
 * 解析命令行（-h/--dry-run/用法错误直接返回 0/0/2），
 * 然后运行 run(res)，最后无论成败都 destroy_resources()；返回进程退出码（0 成功，1 失败）。
 */
int run_program(int argc, char **argv, enum role role, int (*run)(struct rdma_resources *res));

#endif
