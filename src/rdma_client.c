/*
 * rdma_client.c - RDMA 客户端（主动方）
 *
 * 流程（与输出中的步骤编号一一对应）：
 *   1-9   准备本地资源：设备、端口、GID、PD、MR、CQ、QP，并把QP转到 INIT
 *   10    TCP 连接服务端（控制平面）
 *   11    交换连接信息：QPN、PSN、LID、GID、MTU、地址与 rkey
 *   12-13 QP 转到 RTR、RTS
 *   14-   数据平面：按 --op 发起操作并校验结果
 *   最后  逆序清理（无论成功失败都会执行）
 */
#include <stdio.h>

#include "console.h"
#include "ops.h"
#include "qp_state.h"
#include "program.h"
#include "rdma_common.h"
#include "tcp.h"

static int connect_server(struct rdma_resources *res)
{
	step_title(&res->step, "建立TCP连接（控制平面）connect");
	res->sock = tcp_connect(res->opt->server_ip, res->opt->tcp_port, res->opt->timeout_ms);
	if (res->sock < 0)
		return -1;
	printf("已连接服务端 %s:%d\n", res->opt->server_ip, res->opt->tcp_port);
	printf("  说明: 这条TCP连接只用来交换QP信息和做同步点，数据不走它\n");
	return 0;
}

static int run_client(struct rdma_resources *res)
{
	/* 只开本操作、本角色需要的 MR/QP 权限 */
	int access = mr_access_flags(res->opt);

	/* 步骤1-9：设备、端口、GID、PD、MR、CQ、QP，QP→INIT */
	if (setup_local_resources(res, access) != 0)
		return -1;
	/* 控制平面：一条普通的 TCP 连接 */
	if (connect_server(res) != 0)
		return -1;
	/* 交换 QPN/PSN/GID/MTU（以及单边操作要用的地址和 rkey） */
	if (exchange_connection_info(res) != 0)
		return -1;
	/* 有了对端信息，QP 才能 INIT→RTR→RTS */
	if (modify_qps_to_rtr(res) != 0 || modify_qps_to_rts(res) != 0)
		return -1;
	/* 数据平面：post_receive / post_send / poll_completion */
	return run_data_plane(res);
}

int main(int argc, char **argv)
{
	/* 解析参数 → run_client() → 无论成败都逆序清理（见 program.c 的 run_program） */
	return run_program(argc, argv, ROLE_CLIENT, run_client);
}
