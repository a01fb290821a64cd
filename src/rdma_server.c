/*
 * rdma_server.c - RDMA 服务端（被动方）
 *
 * 流程（与输出中的步骤编号一一对应）：
 *   1-9   准备本地资源：设备、端口、GID、PD、MR、CQ、QP，并把QP转到 INIT
 *   10    TCP 监听并接受客户端（控制平面）
 *   11    交换连接信息：QPN、PSN、LID、GID、MTU、（单边操作用的）地址与 rkey
 *   12-13 QP 转到 RTR、RTS
 *   14-   数据平面：按 --op 收发并校验数据
 *   最后  逆序清理（无论成功失败都会执行）
 */
#include <stdio.h>

#include "console.h"
#include "ops.h"
#include "qp_state.h"
#include "program.h"
#include "rdma_common.h"
#include "tcp.h"

static int accept_client(struct rdma_resources *res)
{
	char peer[64] = "";

	step_title(&res->step, "建立TCP连接（控制平面）listen/accept");
	res->listen_fd = tcp_listen(res->opt->tcp_port);
	if (res->listen_fd < 0)
		return -1;
	printf("在TCP端口 %d 等待客户端连接（最多 %d 秒）...\n", res->opt->tcp_port,
	       res->opt->accept_timeout_ms / 1000);
	res->sock = tcp_accept(res->listen_fd, res->opt->accept_timeout_ms, peer, sizeof(peer));
	if (res->sock < 0)
		return -1;
	printf("客户端已连接: %s\n", peer);
	printf("  说明: 这条TCP连接只用来交换QP信息和做同步点，数据不走它\n");
	return 0;
}

static int run_server(struct rdma_resources *res)
{
	/* 只开本操作、本角色需要的 MR/QP 权限 */
	int access = mr_access_flags(res->opt);

	/* 步骤1-9：设备、端口、GID、PD、MR、CQ、QP，QP→INIT */
	if (setup_local_resources(res, access) != 0)
		return -1;
	/* 控制平面：一条普通的 TCP 连接 */
	if (accept_client(res) != 0)
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
	/* 解析参数 → run_server() → 无论成败都逆序清理（见 program.c 的 run_program） */
	return run_program(argc, argv, ROLE_SERVER, run_server);
}
