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

#include "ops.h"
#include "rdma_common.h"
#include "tcp.h"

static int setup_local(struct rdma_resources *res, int access)
{
	if (get_device_list(res) != 0 || open_device(res) != 0 || query_port(res) != 0 ||
	    choose_gid(res) != 0 || alloc_pd(res) != 0 || register_mr(res, access) != 0 ||
	    create_cq(res) != 0 || create_qps(res) != 0 || modify_qps_to_init(res, access) != 0)
		return -1;
	return 0;
}

static int accept_client(struct rdma_resources *res)
{
	char peer[64] = "";

	step_title(res, "建立TCP连接（控制平面）listen/accept");
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
	int access = mr_access_flags(res->opt);

	if (setup_local(res, access) != 0 || accept_client(res) != 0 || exchange_connection_info(res) != 0 ||
	    modify_qps_to_rtr(res) != 0 || modify_qps_to_rts(res) != 0)
		return -1;
	return run_data_plane(res);
}

int main(int argc, char **argv)
{
	struct options opt;
	struct rdma_resources res;
	int rc = handle_command_line(argc, argv, ROLE_SERVER, &opt);

	if (rc >= 0)
		return rc;
	res_init(&res, &opt);
	rc = run_server(&res);
	destroy_resources(&res);
	return finish("服务端", rc);
}
