/*
 * datapath.h - 数据面的细节：post_send 的几项检查、出错的完成怎样说明、CQ 空了怎样等。
 *   post_receive、post_send、poll_completions 本身、WR 的拼装和取出的完成的检查（课的函数）在 rdma_common.c（wr_id 的编法见 verbs/rdma_types.h 的 WRID）。
 *
 *   等完成有两种方式（--cq）：poll 忙轮询；event 在完成通道的 fd 上睡眠，被唤醒后
 *   ibv_get_cq_event → ibv_ack_cq_events → ibv_req_notify_cq（重新武装）→ ibv_poll_cq 取空。
 */
#ifndef ROCE_DATAPATH_H
#define ROCE_DATAPATH_H

#include <arpa/inet.h>

#include "verbs/rdma_types.h"
#include "verbs/wc_check.h"

/* 忙等（盯内存、基准测试里空轮询 CQ）时每转这么多圈才读一次时钟看超时 */
#define SPIN_CHECK 4096

/* 完成的 qp_num 是本端第几个QP；不是本端的返回 -1 */
int qp_index_of(const struct rdma_conn *conn, uint32_t qp_num);
/* 一个成功的 SRQ 接收完成是不是本端的：wr_id 的缓冲区号在 SRQ 的缓冲区里、qp_num 是本端的某个QP（wr_id 带 SRQ 标记，wc_check.h）。
 * 取完成的检查（datapath.c）和基准测试的计时循环（bench_lat.c）共用 */
static inline int srq_recv_is_ours(const struct rdma_conn *conn, const struct ibv_wc *wc)
{
	return conn->srq != NULL && wrid_srq_buf(wc->wr_id) < srq_area_count(conn) && qp_index_of(conn, wc->qp_num) >= 0;
}
/*
 * post_send（rdma_common.c）的几件事：槽位够不够（硬件规则，sq_account.h）、inline 合不合规、把 send_req 变成 ibv_send_wr。
 * 内联：基准测试的计时循环每次投递都经过这里，跨文件的调用每次要多几十条指令（callgrind 数过，docs/dev/bench-records.md）；
 * 出错时的说明不在快路径上（sq_room_error、inline_error）
 */
int sq_room_error(struct rdma_conn *conn, int i, const struct send_req *reqs, int n);
int inline_error(struct rdma_conn *conn, int i, uint32_t len);
static inline int check_sq_room(struct rdma_conn *conn, int i, const struct send_req *reqs, int n)
{
	return sq_account_fits(&conn->sq[i], (uint32_t)n) ? 0 : sq_room_error(conn, i, reqs, n);
}
/* IBV_SEND_INLINE 的 WR 不能比 QP 要的 max_inline_data（--inline）大：驱动把要的值向上取整（rxe、mlx5 都是，各不相同）、
 * 写回更大的值，能移植的规则是只用不超过自己要的（--inject inline 故意做坏的 WR 到 HOOK_SEND_WR 才加 IBV_SEND_INLINE，不经过这里） */
static inline int check_inline(struct rdma_conn *conn, int i, const struct send_req *reqs, int n)
{
	for (int k = 0; k < n; k++)
		if (reqs[k].inline_data && reqs[k].len > conn->opt->inline_size && inline_error(conn, i, reqs[k].len) != 0)
			return -1;
	return 0;
}
/* poll_completions（rdma_common.c）的几件事：取出的 r 个完成告诉插桩（note_wcs）；出错的完成打印状态、原因和提示（wc_failed，返回 -1）；
 * ibv_poll_cq 返回负数时打印（poll_cq_failed，返回 -1） */
void note_wcs(struct rdma_conn *conn, const struct ibv_wc *wcs, int r);
int wc_failed(struct rdma_conn *conn, const struct ibv_wc *wc);
/* 一个取出的完成是发送完成时，按硬件规则还发送队列的槽（sq_account.h）；账上没有在途的 signaled WR 时打印并返回 -1 */
int note_send_done(struct rdma_conn *conn, const struct ibv_wc *wc);
int poll_cq_failed(int r);
/* 像 poll_completions 一样等到 n 个完成（-t 超时），但只把它们告诉插桩，不检查状态、不还发送队列的槽：
 * 要一个个看出错的完成的插件用（--inject flush，plugins/inject.c） */
int poll_wcs_unchecked(struct rdma_conn *conn, int n, struct ibv_wc *wcs);

/*
 * 忙等的一圈空轮询之后要不要调用 wait_cq：event 模式每次都要（睡在完成通道上）；poll 模式的基准测试
 * 每 SPIN_CHECK 圈一次（只为了看超时），普通模式每次（它还管让步）
 */
static inline int wait_cq_due(const struct rdma_conn *conn, unsigned *spins)
{
	return conn->channel != NULL || conn->opt->bench == BENCH_NONE || ++*spins % SPIN_CHECK == 0;
}
/*
 * CQ 空了之后等下一批完成，deadline_ms 之前没有就打印超时并返回 -1（got/want 用于提示）。
 * poll 模式：忙等一会儿后稍作让步；event 模式：在完成通道的 fd 上 poll()，取事件、确认、重新武装。
 * spins 是调用者的“连续空轮询次数”计数器。
 */
int wait_cq(struct rdma_conn *conn, long long deadline_ms, unsigned *spins, int got, int want);
/* CQ 空了、调用者另有别的要看（UD 带宽的服务端还看控制平面）：poll 模式马上返回；event 模式最多睡 ms 毫秒。
 * 睡满了不算错（超时由调用者判断）；出错返回 -1（已打印） */
int wait_cq_briefly(struct rdma_conn *conn, int ms);
/* --cq event，create_cq（rdma_common.c）用：建完成通道（fd 设成非阻塞），和武装 CQ（ibv_req_notify_cq）；失败时打印，返回 -1 */
int create_channel(struct rdma_conn *conn);
int arm_cq(struct rdma_conn *conn);

#endif
