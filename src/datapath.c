/*
 * datapath.c - 数据面的三个基本动作：post_receive、post_send、poll_completion
 *   wr_id 一律是 QP 序号：共享 CQ 里的完成靠它（以及 wc.qp_num）区分来自哪个QP。
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "datapath.h"

#include "conout.h"
#include "console.h"
#include "hints.h"
#include "trace_ev.h"

int post_receive(struct rdma_conn *conn, int i, void *addr, uint32_t len)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len, .lkey = conn->mr->lkey };
	struct ibv_recv_wr wr, *bad = NULL;
	int rc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uint64_t)i;           /* wr_id = QP序号 */
	wr.sg_list = &sge;
	wr.num_sge = 1;
	rc = ibv_post_recv(conn->qp[i], &wr, &bad);
	if (rc != 0) {
		con_eprintf("错误: QP[%d] ", i);
		verbs_error("ibv_post_recv()", rc, "接收队列满了（max_recv_wr）或QP处于错误状态");
		return -1;
	}
	trace_post_recv(&conn->trace, i, conn->qp[i]->qp_num, wr.wr_id, len, sge.addr);
	return 0;
}

static const char *wr_opcode_name(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND: return "SEND";
	case IBV_WR_RDMA_WRITE: return "RDMA_WRITE";
	case IBV_WR_RDMA_WRITE_WITH_IMM: return "RDMA_WRITE_WITH_IMM";
	case IBV_WR_RDMA_READ: return "RDMA_READ";
	case IBV_WR_ATOMIC_FETCH_AND_ADD: return "ATOMIC_FETCH_AND_ADD";
	case IBV_WR_ATOMIC_CMP_AND_SWP: return "ATOMIC_CMP_AND_SWP";
	default: return "?";
	}
}

/*
 * 记下这个 WR 用掉的 PSN 并写 trace 的 post_send 事件。PSN：verbs 不报告 PSN，所以自己数（与网卡的数法一样）：从 RTS 时的 sq_psn 开始，
 * 每个 WR 占 psn_npkts 个（READ 是响应包的个数，原子操作 1 个），模 2^24。trace 里的 psn_first
 * 就是它，tools/trace/render 靠它把线上的包对应到 WR。
 */
static void note_sent_wr(struct rdma_conn *conn, int i, const struct ibv_send_wr *wr)
{
	int atomic = wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
	uint32_t mtu = wire_mtu_bytes(conn->path_mtu);
	struct trace_wr t = {
		.qp = i, .qpn = conn->qp[i]->qp_num, .dest_qpn = conn->remote.qp[i].qpn,
		.wr_id = wr->wr_id, .opcode = wr_opcode_name(wr->opcode), .len = wr->sg_list->length,
		.local_addr = wr->sg_list->addr, .lkey = wr->sg_list->lkey,
		.has_remote = wr->opcode != IBV_WR_SEND,
		.remote_addr = atomic ? wr->wr.atomic.remote_addr : wr->wr.rdma.remote_addr,
		.rkey = atomic ? wr->wr.atomic.rkey : wr->wr.rdma.rkey,
		.has_imm = wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM, .imm = ntohl(wr->imm_data),
		.psn_first = conn->next_psn[i], .npkts = psn_npkts(wr->sg_list->length, mtu, atomic),
		.mtu = mtu,
	};

	conn->next_psn[i] = psn_add(t.psn_first, t.npkts);
	trace_post_send(&conn->trace, &t);
}

int post_send_req(struct rdma_conn *conn, int i, const struct send_req *req)
{
	struct ibv_sge sge = { .addr = (uintptr_t)req->local, .length = req->len, .lkey = conn->mr->lkey };
	struct ibv_send_wr wr, *bad = NULL;
	int rc;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = (uint64_t)i;           /* wr_id = QP序号 */
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = req->opcode;
	wr.send_flags = IBV_SEND_SIGNALED;
	switch (req->opcode) {
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		wr.imm_data = htonl(req->imm);   /* 立即数按网络字节序放在报文里 */
		/* fall through */
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_READ:
		wr.wr.rdma.remote_addr = req->remote_addr;
		wr.wr.rdma.rkey = conn->peer_rkey;
		break;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		wr.wr.atomic.remote_addr = req->remote_addr;
		wr.wr.atomic.rkey = conn->peer_rkey;
		wr.wr.atomic.compare_add = req->compare_add;
		wr.wr.atomic.swap = req->swap;
		break;
	default:
		break;
	}
	rc = ibv_post_send(conn->qp[i], &wr, &bad);
	if (rc != 0) {
		con_eprintf("错误: QP[%d] ", i);
		verbs_error("ibv_post_send()", rc, "发送队列满了（max_send_wr）、QP 不在 RTS，或长度超过设备上限");
		return -1;
	}
	note_sent_wr(conn, i, &wr);
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int check_wc(struct rdma_conn *conn, const struct ibv_wc *wc)
{
	if (wc->status != IBV_WC_SUCCESS) {
		con_eprintf("错误: 工作完成(WC)失败: QP[%llu] 状态=%s (%d) vendor_err=0x%x\n",
			(unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status), wc->status,
			wc->vendor_err);
		con_eprintf("提示: %s\n", wc_status_hint(wc->status));
		return -1;
	}
	if (wc->wr_id >= (uint64_t)conn->num_qp || wc->qp_num != conn->qp[wc->wr_id]->qp_num) {
		con_eprintf("错误: WC 的 wr_id=%llu / qp_num=0x%06x 对不上本端的QP\n",
			(unsigned long long)wc->wr_id, wc->qp_num);
		return -1;
	}
	return 0;
}

int poll_completions(struct rdma_conn *conn, int n, struct ibv_wc *wcs)
{
	long long deadline = now_ms() + conn->opt->timeout_ms;
	int got = 0;
	unsigned empty = 0;

	while (got < n) {
		int r = ibv_poll_cq(conn->cq, n - got, wcs + got);

		if (r < 0) {
			con_eprintf("错误: ibv_poll_cq() 失败 (返回 %d)\n提示: CQ 溢出（CQ太小）或设备出错；看 dmesg\n", r);
			return -1;
		}
		for (int k = got; k < got + r; k++)
			trace_wc(&conn->trace, &wcs[k]);
		for (int k = got; k < got + r; k++)
			if (check_wc(conn, &wcs[k]) != 0)
				return -1;
		got += r;
		if (r > 0) {
			empty = 0;
			continue;
		}
		if (now_ms() > deadline) {
			con_eprintf("错误: 轮询CQ超时（%d 秒内只收到 %d/%d 个完成）\n"
				"提示: 对端是否投递了接收/还在运行？单边操作的地址或 rkey 填错也会这样（报文到不了对端时通常先报 RETRY_EXC_ERR）；\n"
				"      ./diagnose.sh --peer <对端IP>；TCG 虚拟机里很慢时用 -t 加大超时\n",
				conn->opt->timeout_ms / 1000, got, n);
			return -1;
		}
		/* 先忙轮询一会儿，之后稍作让步，别让 Soft-RoCE 的内核线程抢不到 CPU */
		if (++empty > 1000)
			usleep(50);
	}
	return 0;
}
