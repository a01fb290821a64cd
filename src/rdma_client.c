/*
 * rdma_client.c - RDMA 客户端（主动方）
 *
 * main 只做三件事：建连、数据面、逆序清理。建连有两种（步骤列表与输出中的步骤编号一一对应）：
 *   TCP（默认，下面的 tcp_steps）  1-5 设备、端口、GID、PD → 6-8 MR、CQ、QP → 9 RESET→INIT → 10 TCP 连接服务端
 *               → 11 交换连接信息（QPN、PSN、LID、GID、MTU、地址与 rkey）→ 12-13 RTR、RTS → 14 RTS 同步点
 *   --cm        CM 解析地址和路由（源地址决定设备）→ PD → MR、CQ、QP → 每个QP一个 cm_id：INIT/RTR/RTS + rdma_connect
 *               → 控制QP上交换地址与 rkey → RTS 同步点（两端相同的 cm_steps，program/program.c）
 * 数据面（两端相同的 data_plane，program/program.c）：默认的 --op send 每一轮就是下面的 send_round（post_receive、post_send、
 * poll_completions）；别的操作一轮一轮地交给 runs/op_rounds.c，--bench、--interactive 各有自己的数据面。最后逆序清理（无论成功失败）。
 * 读的顺序：verbs/rdma_types.h（结构体）、rdma_common.h（步骤），rdma_common.c（每一步的 verbs 调用），再回到这里。
 * src/ 的结构（八个目录、哪一层、为什么这样分）只写在 docs/PROJECT.md。
 */
#include "rdma_common.h"
#include "console/i18n.h"
#include "console/conout.h"
#include "program/program.h"
#include "control/ctrl.h"
#include "runs/op_rounds.h"

/* TCP 模式的步骤列表 */
static int tcp_steps(struct rdma_device *dev, struct rdma_conn *conn)
{
	int access = mr_access(conn->opt);   /* 只开本操作、本角色需要的 MR/QP 权限 */

	/* 步骤1-5：用哪个设备（按到服务端的路由选）、端口、GID，再在设备上分配 PD */
	if (device_create(dev, &conn->peer, &conn->step) != 0)
		return -1;
	/* 步骤6-8：这条连接自己的 MR、CQ、QP；步骤9：QP RESET→INIT */
	if (conn_create(conn, access) != 0 || modify_qps_to_init(conn, access) != 0)
		return -1;
	/* 步骤10：控制平面，一条普通的 TCP 连接（客户端 connect，connect/ctrl_tcp.c） */
	if (ctrl_establish(&conn->ctrl, &conn->watch, &conn->step) != 0)
		return -1;
	/* 步骤11：交换 QPN/PSN/GID/MTU（以及单边操作要用的地址和 rkey） */
	if (exchange_connection_info(conn) != 0)
		return -1;
	/* 步骤12-13：有了对端信息，QP 才能 INIT→RTR→RTS */
	if (modify_qps_to_rtr(conn) != 0 || modify_qps_to_rts(conn) != 0)
		return -1;
	/* 步骤14：同步点：告诉服务端本端到了 RTS，等它也到了才开始发（服务端的 QP 还没到 RTR 时发过去的包会被它丢掉） */
	return rts_barrier(conn);
}

/*
 * --op send 的一轮：先为服务端的回复 post_receive，等服务端说“接收已投递”（READY），每个QP post_send 一条消息，
 * 再 poll_completions 取齐 2×QP数 个完成——自己的发送完成和服务端回复的接收完成，在共享的 CQ 里按 wr_id 区分
 */
static int send_round(struct rdma_conn *conn, long r)
{
	struct ibv_wc wcs[2 * MAX_QP];
	struct send_req req;
	int sends = 0, recvs = 0;

	for (int i = 0; i < conn->num_qp; i++)
		if (post_receive(conn, i, area_a(conn, i), recv_size(conn, i, r)) != 0)
			return -1;
	if (receives_posted(conn, r) != 0 || ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_READY, r)) != 0)
		return -1;
	if (r == 1)
		con_printf(_("已先为回复投递接收请求；收到服务端的 READY（它的接收已就绪），现在发送\n"));
	for (int i = 0; i < conn->num_qp; i++)
		if (post_send(conn, i, round_req(conn, &req, IBV_WR_SEND, i, r, "client"), 1) != 0)
			return -1;
	if (poll_completions(conn, 2 * conn->num_qp, wcs) != 0)
		return recv_missing(conn);
	for (int k = 0; k < 2 * conn->num_qp; k++) {
		if (wcs[k].opcode == IBV_WC_SEND) {
			sends++;
			continue;
		}
		if (check_recv(conn, &wcs[k], r, "server", _("回复")) != 0)
			return -1;
		recvs++;
	}
	if (srq_limit_event(conn, r) != 0)
		return -1;
	if (sends != conn->num_qp || recvs != conn->num_qp) {
		con_error(_("完成数量不对：发送 %d 个、接收 %d 个，期望各 %d 个\n"), sends, recvs, conn->num_qp);
		return -1;
	}
	if (verbose(conn, r))
		con_printf(_("  第%ld轮: %d 个发送完成 + %d 个接收完成（共享CQ里按 wr_id 区分QP）\n"), r, sends, recvs);
	return 0;
}

int main(int argc, char **argv)
{
	struct program p;
	/* 解析参数、--trace、控制平面；-h、--dry-run、参数错误时直接退出，不碰设备 */
	int rc = program_start(&p, argc, argv, ROLE_CLIENT);

	if (rc >= 0)
		return rc;
	rc = p.opt.cm ? cm_steps(&p.dev, &p.conn) : tcp_steps(&p.dev, &p.conn);
	if (rc == 0)
		rc = data_plane(&p.conn, send_round);
	/* 无论成败都逆序清理（program/program.c 的 program_finish → rdma_common.c 的 destroy_resources） */
	return program_finish(&p, rc);
}
