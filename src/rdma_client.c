/*
 * rdma_client.c - RDMA 客户端（主动方）
 *
 * 流程（与输出中的步骤编号一一对应）：
 *   1-5   设备：设备列表、打开设备、端口、GID（用哪个设备），PD
 *   6-9   连接：MR、CQ、QP，并把QP转到 INIT
 *   10    TCP 连接服务端（控制平面）
 *   11    交换连接信息：QPN、PSN、LID、GID、MTU、地址与 rkey
 *   12-13 QP 转到 RTR、RTS
 *   14-   数据平面：按 --op 发起操作并校验结果
 *   最后  逆序清理（无论成功失败都会执行）
 * --cm（librdmacm）时的顺序见 run_client_cm()：CM 先建连，设备由地址决定。
 */
#include "ctrl_cm.h"
#include "ops.h"
#include "qp_state.h"
#include "program.h"
#include "rdma_common.h"

/*
 * --cm：同一份步骤表，只是顺序变了——设备要等 CM 解析了地址（客户端）或收到连接请求（服务端）才知道。
 *   CM 建连的第一步 → 设备来自 CM（代替1-4）→ PD → MR、CQ、QP（与 TCP 模式同一段代码）
 *   → 每个QP一个 cm_id：INIT/RTR/RTS（rdma_init_qp_attr）+ rdma_connect/rdma_establish → 控制QP上交换 addr/rkey → 数据平面
 */
static int run_client_cm(struct rdma_device *dev, struct rdma_conn *conn, int access)
{
	/* rdma_resolve_addr/rdma_resolve_route（源地址决定设备） */
	if (ctrl_establish(&conn->ctrl, &conn->step) != 0)
		return -1;
	/* 设备 = cm_id->verbs（CM 按地址选的），代替 TCP 模式的步骤1-4 */
	if (cm_adopt_device(conn) != 0)
		return -1;
	/* PD：和 TCP 模式一样，只是设备上下文是 librdmacm 打开的 */
	if (alloc_pd(dev, &conn->step) != 0)
		return -1;
	/* MR、CQ、QP：和 TCP 模式同一段代码，QP 留在 RESET */
	if (conn_create_objects(conn, access) != 0)
		return -1;
	/* 每个QP一个 cm_id：RESET→INIT→RTR→RTS（属性来自 rdma_init_qp_attr，本程序调用 ibv_modify_qp 并读回） */
	if (cm_connect_qps(conn, access) != 0)
		return -1;
	/* 单边操作要的 addr/rkey/slot：控制QP上的一条 SEND（private data 只有 56 字节，见 ctrl_cm.c） */
	if (exchange_connection_info(conn) != 0)
		return -1;
	return run_data_plane(conn);
}

static int run_client(struct rdma_device *dev, struct rdma_conn *conn)
{
	/* 只开本操作、本角色需要的 MR/QP 权限 */
	int access = mr_access_flags(conn->opt);

	/* --cm：连接交给 librdmacm（ctrl_cm.c） */
	if (conn->opt->cm)
		return run_client_cm(dev, conn, access);

	/* 步骤1-5：用哪个设备、端口、GID，再在设备上分配 PD（设备级，整个进程一份） */
	if (device_create(dev, &conn->peer, &conn->step) != 0)
		return -1;
	/* 步骤6-9：这条连接自己的 MR、CQ、QP，QP→INIT */
	if (conn_create(conn, access) != 0)
		return -1;
	/* 步骤10：控制平面，一条普通的 TCP 连接（客户端 connect，见 ctrl_tcp.c） */
	if (ctrl_establish(&conn->ctrl, &conn->step) != 0)
		return -1;
	/* 步骤11：交换 QPN/PSN/GID/MTU（以及单边操作要用的地址和 rkey） */
	if (exchange_connection_info(conn) != 0)
		return -1;
	/* 步骤12-13：有了对端信息，QP 才能 INIT→RTR→RTS */
	if (modify_qps_to_rtr(conn) != 0 || modify_qps_to_rts(conn) != 0)
		return -1;
	/* 步骤14 起：数据平面 post_receive / post_send / poll_completion，最后一步是清理 */
	return run_data_plane(conn);
}

int main(int argc, char **argv)
{
	/* 解析参数 → run_client() → 无论成败都逆序清理（见 program.c 的 run_program） */
	return run_program(argc, argv, ROLE_CLIENT, run_client);
}
