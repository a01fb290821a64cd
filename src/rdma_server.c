/*
 * rdma_server.c - RDMA 服务端（被动方）
 *
 * 流程（与输出中的步骤编号一一对应）：
 *   1-5   设备：设备列表、打开设备、端口、GID（用哪个设备），PD
 *   6-9   连接：MR、CQ、QP，并把QP转到 INIT
 *   10    TCP 监听并接受客户端（控制平面）
 *   11    交换连接信息：QPN、PSN、LID、GID、MTU、（单边操作用的）地址与 rkey
 *   12-13 QP 转到 RTR、RTS
 *   14-   数据平面：按 --op 收发并校验数据
 *   最后  逆序清理（无论成功失败都会执行）
 *
 * --clients N / --parallel M：步骤1-5 只做一次，之后每个客户端一个线程，
 * 各自走步骤6 起的连接步骤（见 sessions.c）
 * --cm（librdmacm）时的顺序见 program.c 的 cm_steps()：CM 先建连，设备由地址决定。
 */
#include "cm/cm_qps.h"
#include "ops/op_rounds.h"
#include "verbs/qp_state.h"
#include "cli/program.h"
#include "rdma_common.h"
#include "counters/ctr_hook.h"
#include "clients/sessions.h"

static int run_server(struct rdma_device *dev, struct rdma_conn *conn)
{
	/* 只开本操作、本角色需要的 MR/QP 权限 */
	int access = mr_access_flags(conn->opt);

	/* --cm：连接交给 librdmacm（program.c 的 cm_steps，cm_qps.c），之后的数据平面相同 */
	if (conn->opt->cm)
		return cm_steps(dev, conn, access) != 0 ? -1 : ctr_hook_end(conn, run_data_plane(conn));

	/* 步骤1-5：用哪个设备、端口、GID，再在设备上分配 PD（设备级，整个进程一份） */
	if (device_create(dev, &conn->peer, &conn->step) != 0)
		return -1;
	/* --clients/--parallel：接待多个客户端，每个一个线程、一套自己的资源（见 sessions.c） */
	if (multi_client(conn->opt))
		return serve_clients(dev, &conn->step);
	/* 步骤6-8：这条连接自己的 MR、CQ、QP；步骤9：QP RESET→INIT（qp_state.c） */
	if (conn_create(conn, access) != 0 || modify_qps_to_init(conn, access) != 0)
		return -1;
	/* 步骤10：控制平面，一条普通的 TCP 连接（服务端 listen/accept，见 ctrl_tcp.c） */
	if (ctrl_establish(&conn->ctrl, &conn->step) != 0)
		return -1;
	/* 步骤11：交换 QPN/PSN/GID/MTU（以及单边操作要用的地址和 rkey） */
	if (exchange_connection_info(conn) != 0)
		return -1;
	/* 步骤12-13：有了对端信息，QP 才能 INIT→RTR→RTS */
	if (modify_qps_to_rtr(conn) != 0 || modify_qps_to_rts(conn) != 0)
		return -1;
	/* 步骤14 起：数据平面 post_receive / post_send / poll_completion，最后一步是清理 */
	return ctr_hook_end(conn, run_data_plane(conn));	/* --counters：数据面结束后的计数 */
}

int main(int argc, char **argv)
{
	struct program p;
	/* 解析参数、--trace、控制平面；-h、--dry-run、参数错误时直接退出，不碰设备 */
	int rc = program_start(&p, argc, argv, ROLE_SERVER);

	if (rc >= 0)
		return rc;
	/* 步骤表 run_server()，之后无论成败都逆序清理（program.c 的 program_finish） */
	return program_finish(&p, run_server(&p.dev, &p.conn));
}
