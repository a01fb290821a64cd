/*
 * test_plugins.h - 测试插件（只链接进测试版的程序 build/test/，正常的程序里没有它们，也不读它们的环境变量）
 *
 * 每个插件一个文件、一个环境变量（不在 -h 里），没设置时什么也不装。test_plugins.c 定义 program/program.h 的弱符号
 * program_test_plugins，逐个调用下面的 *_install：它们往 p 上装控制平面的观察者（control/ctrl.h）或插桩的接缝上的插件
 * （verbs/rdma_types.h 的 hook_add）。它们只用接缝给的事件，不改程序的代码路径。
 */
#ifndef ROCE_TEST_PLUGINS_H
#define ROCE_TEST_PLUGINS_H

#include "program/program.h"

/* 环境变量 name 的毫秒数/个数：没设置、不是 1..max 的数时返回 0（插件不装） */
int test_env_int(const char *name, int max);

void sync_delay_install(struct program *p);     /* ROCE_TEST_SYNC_DELAY_MS：每发出一个同步消息停一下 */
void read_delay_install(struct program *p);     /* ROCE_TEST_READ_DELAY_MS：交互模式客户端每个 RDMA READ 之前停一下 */
void cm_rd_atom_install(struct program *p);     /* ROCE_TEST_CM_RD_ATOM：--cm 服务端的设备像是只有 N 的 READ/原子深度 */
void cm_connect_gap_install(struct program *p); /* ROCE_TEST_CM_CONNECT_GAP_MS：--cm 客户端每个数据QP的 rdma_connect 之前停一下 */

#endif
