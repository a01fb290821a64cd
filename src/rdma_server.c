/*
 * rdma_server.c - RDMA 服务端（被动方）
 *
 * main 只做三件事：建连、数据面、逆序清理。建连有两种（步骤列表与输出中的步骤编号一一对应）：
 *   TCP（默认，下面的 tcp_steps）  1-5 设备、端口、GID、PD → 6-8 MR、CQ、QP → 9 RESET→INIT → 10 TCP 监听并接受客户端
 *               → 11 交换连接信息（QPN、PSN、LID、GID、MTU、地址与 rkey）→ 12-13 RTR、RTS → 14 RTS 同步点
 *   --cm        rdma_bind_addr/rdma_listen，第一个连接请求到达的地址决定设备 → PD → MR、CQ、QP
 *               → 每个QP一个 cm_id：INIT/RTR/RTS + rdma_accept → 控制QP上交换地址与 rkey → RTS 同步点（两端相同的 cm_steps，program/program.c）
 *   --clients N / --parallel M：步骤1-5 只做一次，之后每个客户端一个线程，走同一张 TCP 步骤列表
 *               （先读客户端的 HELLO，再建这个客户端的 MR/CQ/QP），数据面是同一个 data_plane
 * 数据面（两端相同的 data_plane，program/program.c）：默认的 --op send 每一轮就是下面的 send_round（post_receive、poll_completions、post_send）；
 * 别的操作一轮一轮地交给 runs/op_rounds.c，--bench、--interactive 各有自己的数据面。最后逆序清理（无论成功失败）。
 * 读的顺序：verbs/rdma_types.h（结构体）、rdma_common.h（步骤），rdma_common.c（每一步的 verbs 调用），再回到这里。
 * src/ 的结构（八个目录、哪一层、为什么这样分）只写在 docs/PROJECT.md。
 */
#include "rdma_common.h"
#include "console/i18n.h"
#include "console/conout.h"
#include "program/program.h"
#include "runs/sessions.h"
#include "control/ctrl.h"
#include "runs/op_rounds.h"

/*
 * TCP 模式的步骤列表。--clients/--parallel 时每个客户端的会话线程也走这一张（s 不为 NULL，runs/sessions.c）：
 * 设备和 PD 主线程已经建好，TCP 连接主线程已经 accept，而且要先读客户端的 HELLO 才知道它要几个QP、
 * 多大的消息——所以会话先做这两步，再建 MR/CQ/QP。s 为 NULL 就是单客户端，从步骤1 做起。
 */
static int tcp_steps(struct rdma_device *dev, struct rdma_conn *conn, struct session *s)
{
	int access;

	/* 步骤1-5：用哪个设备、端口、GID，再在设备上分配 PD（设备级，整个进程一份） */
	if (s == NULL && device_create(dev, &conn->peer, &conn->step) != 0)
		return -1;
	/* 会话：接过主线程 accept 的 TCP 连接，读客户端的 HELLO，定下这个会话的 -q/--op/--size/--iters */
	if (s != NULL && session_first_steps(s, conn) != 0)
		return -1;
	/* 步骤6-8：这条连接自己的 MR、CQ、QP；步骤9：QP RESET→INIT。只开本操作、本角色需要的 MR/QP 权限
	 * （会话的操作刚从客户端的 HELLO 里定下，所以在这里才算） */
	access = mr_access(conn->opt);
	if (conn_create(conn, access) != 0 || modify_qps_to_init(conn, access) != 0)
		return -1;
	/* 步骤10：控制平面，一条普通的 TCP 连接（服务端 listen/accept，connect/ctrl_tcp.c）；会话已经有了 */
	if (s == NULL && ctrl_establish(&conn->ctrl, &conn->watch, &conn->step) != 0)
		return -1;
	/* 步骤11：交换 QPN/PSN/GID/MTU（以及单边操作要用的地址和 rkey）；会话已经读过客户端的 HELLO，这里只发自己的 */
	if (exchange_connection_info(conn) != 0)
		return -1;
	/* 步骤12-13：有了对端信息，QP 才能 INIT→RTR→RTS */
	if (modify_qps_to_rtr(conn) != 0 || modify_qps_to_rts(conn) != 0)
		return -1;
	/* 步骤14：同步点：告诉客户端本端到了 RTS（原子操作的目标字这时已经放好），等它也到了才开始数据面 */
	return rts_barrier(conn);
}

/*
 * --op send 的一轮：每个QP post_receive 一个接收（--srq 时投到共用的 SRQ），告诉客户端“可以发了”（READY），
 * poll_completions 等齐每个QP的消息并逐字节校验，再在每个QP上 post_send 回复一条、等回复的发送完成
 */
static int send_round(struct rdma_conn *conn, long r)
{
	struct ibv_wc wcs[MAX_QP];
	struct send_req req;

	/* 每个QP post_receive 一个接收（放在 A 区），再发 READY（runs/op_rounds.c，别的操作的服务端也用它） */
	if (recv_then_ready(conn, r, area_a) != 0)
		return -1;
	if (r == 1)
		con_printf(P_("已为 %d 个QP各投递 1 个接收请求(%s)，并通过TCP告诉客户端“可以发了”（同步点）\n",
			      "已为 %d 个QP各投递 1 个接收请求(%s)，并通过TCP告诉客户端“可以发了”（同步点）\n", conn->num_qp),
			   conn->num_qp, conn->srq != NULL ? _("ibv_post_srq_recv，放在共用的 SRQ 里") : "ibv_post_recv");
	if (poll_completions(conn, conn->num_qp, wcs) != 0)
		return recv_missing(conn);
	for (int k = 0; k < conn->num_qp; k++)
		if (check_recv(conn, &wcs[k], r, "client", _("收到")) != 0)
			return -1;
	if (srq_limit_event(conn, r) != 0)
		return -1;
	for (int i = 0; i < conn->num_qp; i++)
		if (post_send(conn, i, round_req(conn, &req, IBV_WR_SEND, i, r, "server"), 1) != 0)
			return -1;
	if (wait_wcs(conn, conn->num_qp, IBV_WC_SEND, 0) != 0)
		return -1;
	if (verbose(conn, r))
		con_printf(P_("  第%ld轮: 已在 %d 个QP上回复(ibv_post_send SEND)，发送完成已确认\n",
			      "  第%ld轮: 已在 %d 个QP上回复(ibv_post_send SEND)，发送完成已确认\n", conn->num_qp), r, conn->num_qp);
	return 0;
}

/* 多客户端的一个会话（会话线程里）：同一张 TCP 步骤列表，同一个数据面 */
static int serve_session(struct rdma_conn *conn, struct session *s)
{
	return tcp_steps(conn->dev, conn, s) != 0 ? -1 : data_plane(conn, send_round);
}

/* --clients/--parallel：步骤1-5 一次，之后每个客户端一个线程（runs/sessions.c），各自跑 serve_session */
static int many_clients(struct rdma_device *dev, struct rdma_conn *conn)
{
	if (device_create(dev, &conn->peer, &conn->step) != 0)
		return -1;
	return serve_clients(dev, &conn->step, serve_session);
}

int main(int argc, char **argv)
{
	struct program p;
	/* 解析参数、--trace、控制平面；-h、--dry-run、参数错误时直接退出，不碰设备 */
	int rc = program_start(&p, argc, argv, ROLE_SERVER);

	if (rc >= 0)
		return rc;
	if (multi_client(&p.opt))
		return program_finish(&p, many_clients(&p.dev, &p.conn));
	rc = p.opt.cm ? cm_steps(&p.dev, &p.conn) : tcp_steps(&p.dev, &p.conn, NULL);
	if (rc == 0)
		rc = data_plane(&p.conn, send_round);
	/* 无论成败都逆序清理（program/program.c 的 program_finish → rdma_common.c 的 destroy_resources） */
	return program_finish(&p, rc);
}
