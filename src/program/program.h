/*
 * program.h - 服务端和客户端共用的 main（program.c）
 */
#ifndef ROCE_PROGRAM_H
#define ROCE_PROGRAM_H

#include "verbs/rdma_types.h"
#include "plugins/inject.h"
#include "plugins/ctr_hook.h"
#include "plugins/trace_hooks.h"
#include "plugins/trace_ref.h"

/* 一次运行的全部状态：命令行、设备（步骤1-5）、连接（步骤6 起）、--trace；放在 main 的栈上 */
struct program {
	enum role role;
	struct options opt;
	struct rdma_device dev;
	struct rdma_conn conn;
	struct trace_ref tr;            /* --trace：这个进程的 trace（t 为 NULL = 没有）；设备和连接的 watch 指向它 */
	struct rdma_hooks hooks;        /* 插桩的接缝装的插件（--trace、--inject、--counters；program_start 按命令行装好，设备和连接指向它） */
	struct inject_plugin inject;    /* 插件各自的状态（装了才用） */
	struct ctr_plugin counters;
	struct trace_plugin trace;
};

/*
 * main 的第一步：解析命令行，打开 --trace，device_init/conn_init，选控制平面（TCP 或 --cm）。
 * 返回 -1：继续走驱动程序的步骤表；返回 ≥ 0：-h、--dry-run、用法错误等，这是退出码，什么都不用清理
 */
int program_start(struct program *p, int argc, char **argv, enum role role);
/*
 * --cm（librdmacm）的步骤列表，两端相同：CM 先建连，设备由地址决定（connect/cm_qps.c、connect/cm_control.c），最后是 RTS 同步点。
 * TCP 模式的步骤列表在两个驱动程序里（两端不同：服务端的会话要先读客户端的 HELLO）
 */
int cm_steps(struct rdma_device *dev, struct rdma_conn *conn);
/*
 * 数据面（步骤15 起，在步骤列表最后的 RTS 同步点 rts_barrier 之后），两端相同：--bench、--interactive 各有自己的数据面；
 * 其余的一轮一轮地跑（--op send 的一轮是驱动程序自己的 send_round，别的操作是 runs/op_rounds.c 的 op_round），最后打印用时
 * （--counters 的差值也在这里）。多客户端时每个会话也用它
 */
int data_plane(struct rdma_conn *conn, int (*send_round)(struct rdma_conn *conn, long r));
/*
 * 测试插件（tests/plugins/，只链接进测试版的程序 build/test/rdma_server、build/test/rdma_client）：program_start 在装好
 * 插桩和控制平面之后调用它，它可以往 p 上再装自己的观察者。正常的程序里没有定义它（弱符号，地址为 NULL），什么也不调用
 */
void program_test_plugins(struct program *p) __attribute__((weak));
/* main 的最后一步：无论步骤表成败（run_rc）都 destroy_resources() 逆序清理，打印结局；返回进程退出码（0 成功，1 失败） */
int program_finish(struct program *p, int run_rc);
#endif
