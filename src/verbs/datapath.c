/*
 * datapath.c - 数据面的细节（post_receive、post_send、poll_completions 在 rdma_common.c）：发送队列的槽位和 inline 出错时的说明、
 *   取出的完成怎样检查和还槽、CQ 空了怎样等（忙轮询或完成通道事件）。wr_id 的低 8 位是 QP 序号（rdma_common.h 的 WRID）。
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "verbs/datapath.h"
#include "console/i18n.h"

#include "console/clock.h"
#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/hints.h"
#include "verbs/kernel_note.h"
#include "verbs/wc_check.h"

int qp_index_of(const struct rdma_conn *conn, uint32_t qp_num)
{
	for (int i = 0; i < conn->num_qp; i++)
		if (conn->qp[i] != NULL && conn->qp[i]->qp_num == qp_num)
			return i;
	return -1;
}

/* 投递之前按硬件的规则数槽位（sq_account.h）放不下：说明并返回 -1（ibv_post_send 不调用） */
int sq_room_error(struct rdma_conn *conn, int i, const struct send_req *reqs, int n)
{
	const struct sq_account *a = &conn->sq[i];
	int sig = 0;

	for (int k = 0; k < n; k++)
		sig += !reqs[k].unsignaled;
	con_error(_("QP[%d] 发送队列记账: 已投递 %llu 个 WR，槽已释放 %llu 个，还占着 %llu 个（其中要了完成、还没取到完成的 %u 个）；"
		    "再投 %d 个（要完成的 %d 个）就超过 max_send_wr=%u\n"
		    "规则: 一个 WR 的槽只有在同一个QP上它本身或它之后的一个要了完成（signaled）的 WR 的完成被取出后才释放\n"
		    CON_HINT "硬件网卡（如 mlx5）这时 ibv_post_send 返回 ENOMEM；rxe 发完就还槽，所以只有这里的记账能发现。"
		    "每个QP上每 --signal 个 WR 至少要有一个 signaled，并且要取到它的完成\n"),
		    i, (unsigned long long)a->posted, (unsigned long long)a->freed,
		    (unsigned long long)sq_account_in_use(a), a->n_sig, n, sig, a->cap);
	return -1;
}

/*
 * 一个 IBV_SEND_INLINE 的 WR 比 QP 要的 max_inline_data（--inline）大：驱动把要的值向上取整（rxe 把 0 报成 16，
 * mlx5 也取整，各不相同），写回的更大的值是这块网卡的取整，不能当成规则；能移植的规则是只用不超过自己要的。插件故意做坏的 WR（--inject inline 在 HOOK_SEND_WR 才加 IBV_SEND_INLINE）不走到这里。
 */
int inline_error(struct rdma_conn *conn, int i, uint32_t len)
{
	con_error(_("QP[%d] 的 WR 有 %u 字节、带 IBV_SEND_INLINE，超过 QP 要的 max_inline_data=%u（ibv_post_send 未调用）\n"
		  CON_HINT "inline 的上限是创建 QP 时要的值（--inline）；驱动写回更大的值是它自己的取整，换一块网卡就不成立\n"),
		  i, len, conn->opt->inline_size);
	return -1;
}

/* rxe（Soft-RoCE）报给 ibv_query_device 的 vendor_id（内核 rxe_param.h 的 RXE_VENDOR_ID） */
#define RXE_VENDOR_ID 0xffffffu

/* 设备是 rxe 时，按运行的内核（uname(2)）补一句与内核版本有关的原因（kernel_note.c；接收走 SRQ 时另有一句）；没有就不打印 */
static void print_kernel_note(const struct rdma_conn *conn, int i, enum ibv_wc_status st)
{
	struct utsname u;
	char note[2048];
	int send_in_flight = i >= 0 && i < conn->num_qp && conn->sq[i].n_sig > 0;

	if (conn->dev->dev_attr.vendor_id != RXE_VENDOR_ID || uname(&u) != 0)
		return;
	if (rxe_kernel_note(st, u.release, send_in_flight, note, sizeof(note)) != NULL)
		con_eprintf(_("提示(内核): %s\n"), note);
	if (conn->srq != NULL && rxe_srq_retry_note(st, u.release, note, sizeof(note)) != NULL)
		con_eprintf(_("提示(内核): %s\n"), note);
}

/* 出错的完成：opcode 没有定义，是谁的只看 wr_id（SRQ 的接收带标记，wc_check.h）和 qp_num */
int wc_failed(struct rdma_conn *conn, const struct ibv_wc *wc)
{
	char who[96];
	int i = wc_error_owner(wc->wr_id, wrid_qp(wc->wr_id), qp_index_of(conn, wc->qp_num), who, sizeof(who));

	con_error(_("工作完成(WC)失败: %s 状态=%s (%d) vendor_err=0x%x\n"),
		who, ibv_wc_status_str(wc->status), wc->status, wc->vendor_err);
	con_hint("%s\n", wc_status_hint(wc->status));
	print_kernel_note(conn, i, wc->status);
	return -1;
}

/* 一个发送完成（SEND/WRITE/READ/原子）：这个QP最老的在途 signaled WR 和它之前的槽都释放了 */
int note_send_done(struct rdma_conn *conn, const struct ibv_wc *wc)
{
	int i = wrid_qp(wc->wr_id);

	if ((wc->opcode & IBV_WC_RECV) || sq_account_complete(&conn->sq[i]) == 0)
		return 0;
	con_error(_("QP[%d] 取到一个发送完成（wr_id=%llu），但记账里这个QP没有在途的 signaled WR\n"
		    CON_HINT "不要完成的 WR 不会产生完成；这是程序的记账错误\n"), i, (unsigned long long)wc->wr_id);
	return -1;
}

/* 取出的 r 个完成告诉插桩（--trace 写事件） */
void note_wcs(struct rdma_conn *conn, const struct ibv_wc *wcs, int r)
{
	for (int k = 0; k < r && hook_on(conn); k++)
		hook_data(conn, HOOK_WC, wrid_qp(wcs[k].wr_id), wcs[k].qp_num, &wcs[k]);
}

int poll_wcs_unchecked(struct rdma_conn *conn, int n, struct ibv_wc *wcs)
{
	long long deadline = now_ms() + conn->opt->timeout_ms;
	unsigned spins = 0;

	for (int got = 0; got < n;) {
		int r = ibv_poll_cq(conn->cq, n - got, wcs + got);

		if (r < 0)
			return poll_cq_failed(r);
		note_wcs(conn, wcs + got, r);
		got += r;
		if (r > 0)
			spins = 0;
		else if (wait_cq(conn, deadline, &spins, got, n) != 0)
			return -1;
	}
	return 0;
}

int poll_cq_failed(int r)
{
	con_error(_("ibv_poll_cq() 失败 (返回 %d)\n" CON_HINT "CQ 溢出（CQ太小）或设备出错；看 dmesg\n"), r);
	return -1;
}

static int timeout_error(struct rdma_conn *conn, int got, int want)
{
	con_error(_("%s（%d 秒内只收到 %d/%d 个完成）\n"
		CON_HINT "对端是否投递了接收/还在运行？单边操作的地址或 rkey 填错也会这样（报文到不了对端时通常先报 RETRY_EXC_ERR）；\n"
		"      ./diagnose.sh --peer <对端IP>；TCG 虚拟机里很慢时用 -t 加大超时\n"),
		conn->channel != NULL ? _("等待完成事件超时") : _("轮询CQ超时"), conn->opt->timeout_ms / 1000, got, want);
	return -1;
}

/* 第一次收到完成事件时讲一遍事件路径（基准测试的计时循环里不打印） */
static void explain_first_event(struct rdma_conn *conn)
{
	if (conn->cq_events != 1 || conn->opt->bench != BENCH_NONE)
		return;
	con_printf(_("  [完成通道] poll() 等到 fd %d 可读 → ibv_get_cq_event() 取出事件（哪个CQ）→ ibv_ack_cq_events() 确认\n"
		   "             → ibv_req_notify_cq() 重新武装 → ibv_poll_cq() 把CQ取空。之后的事件同样处理，不再逐个打印\n"
		   "  说明: 先武装、后取空：若先取空再武装，两步之间到达的完成不会再触发事件，程序就会一直睡下去\n"),
		   conn->channel->fd);
}

/*
 * event 模式：在完成通道的 fd 上最多睡 ms 毫秒，醒来后取事件、确认、重新武装（之后由调用者取空 CQ）。
 * 返回 1 = 醒了（有事件，或被信号打断、事件已被取走：回去再轮询一次）；0 = 睡满了也没有事件；-1 = 出错（已打印）
 */
static int sleep_on_channel(struct rdma_conn *conn, int ms)
{
	struct pollfd pfd = { .fd = conn->channel->fd, .events = POLLIN };
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int r = poll(&pfd, 1, ms);

	if (r < 0 && errno == EINTR)
		return 1;
	if (r < 0) {
		verbs_error(_("poll(完成通道 fd)"), errno, _("完成通道的 fd 出错"));
		return -1;
	}
	if (r == 0)
		return 0;
	if (ibv_get_cq_event(conn->channel, &ev_cq, &ev_ctx) != 0) {
		if (errno == EAGAIN)
			return 1;   /* fd 是非阻塞的：事件已被取走，回去再轮询一次 */
		verbs_error("ibv_get_cq_event()", errno, _("完成通道出错"));
		return -1;
	}
	conn->cq_events++;
	/* 确认可以攒着做（它要拿锁），但销毁 CQ 之前必须全部确认，否则 ibv_destroy_cq 会一直等 */
	if (++conn->cq_unacked >= 64) {
		ibv_ack_cq_events(conn->cq, conn->cq_unacked);
		conn->cq_unacked = 0;
	}
	r = ibv_req_notify_cq(conn->cq, 0);
	if (r != 0) {
		verbs_error("ibv_req_notify_cq()", r, _("重新武装 CQ 失败"));
		return -1;
	}
	explain_first_event(conn);
	return 1;
}

/* event 模式的等待：睡到 deadline，没有事件就是超时 */
static int wait_cq_event(struct rdma_conn *conn, long long deadline, int got, int want)
{
	long long left = deadline - now_ms();
	int r;

	if (left <= 0)
		return timeout_error(conn, got, want);
	r = sleep_on_channel(conn, (int)left);
	if (r == 0)
		return timeout_error(conn, got, want);
	return r < 0 ? -1 : 0;
}

int wait_cq_briefly(struct rdma_conn *conn, int ms)
{
	if (conn->channel != NULL)
		return sleep_on_channel(conn, ms) < 0 ? -1 : 0;
	return 0;
}

int wait_cq(struct rdma_conn *conn, long long deadline, unsigned *spins, int got, int want)
{
	if (conn->channel != NULL)
		return wait_cq_event(conn, deadline, got, want);
	/* 基准测试的调用者每 SPIN_CHECK 圈才来一次（wait_cq_due）：空轮询的一圈越短，完成到了越早发现
	 * （callgrind 数过：以前每圈都读时钟，一圈约 145 条指令，perftest 约 55，docs/dev/bench-records.md） */
	if (now_ms() > deadline)
		return timeout_error(conn, got, want);
	/* 普通模式：先忙轮询一会儿，之后稍作让步，别让 Soft-RoCE 的内核线程抢不到 CPU。
	 * 基准测试像 perftest 一样一直转：usleep(50) 在虚拟机里常常睡掉几毫秒，会把延迟放大上百倍 */
	if (++*spins > 1000 && conn->opt->bench == BENCH_NONE)
		usleep(50);
	return 0;
}

/* --cq event：完成通道 = 一个文件描述符；CQ 有新完成（且已武装）时内核往它上面放一个事件 */
int create_channel(struct rdma_conn *conn)
{
	int flags;

	conn->channel = ibv_create_comp_channel(conn->dev->ctx);
	if (conn->channel == NULL) {
		verbs_error("ibv_create_comp_channel()", errno, _("打开的文件太多（ulimit -n）或设备已被删除"));
		return -1;
	}
	/* 非阻塞：等待交给 poll()（带 -t 超时）；ibv_get_cq_event 只在 fd 可读后调用 */
	flags = fcntl(conn->channel->fd, F_GETFL);
	if (flags < 0 || fcntl(conn->channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		verbs_error("fcntl(O_NONBLOCK)", errno, _("完成通道的 fd 设置失败"));
		return -1;
	}
	con_printf(_("完成通道已创建（ibv_create_comp_channel）: fd=%d；CQ 有新完成时这个 fd 变为可读\n"),
		   conn->channel->fd);
	return 0;
}

/* 武装：请内核在 CQ 的“下一个”完成到来时发一个事件（只发一次，之后要重新武装） */
int arm_cq(struct rdma_conn *conn)
{
	int rc = ibv_req_notify_cq(conn->cq, 0);

	if (rc != 0) {
		verbs_error("ibv_req_notify_cq()", rc, _("CQ 不支持事件通知？"));
		return -1;
	}
	con_printf(_("已武装 CQ（ibv_req_notify_cq, solicited_only=0）：下一个完成到来时在 fd 上产生一个事件\n"
		   "  说明: 等完成时程序睡在 poll(fd) 上，不占 CPU；代价是每次唤醒要经过内核（延迟更高）\n"));
	return 0;
}
