/*
 * 练习 9（步骤15）：检查一个完成 —— 成功了吗？是本端哪个 QP 的？
 * Exercise 9 (step 15): check a completion - did it succeed? Which local QP is it from?
 *
 * 任务：ibv_poll_cq 从共享的 CQ 里取出了 *wc。返回
 * Task: ibv_poll_cq took *wc from the shared CQ. Return
 *   WC_FAILED     状态不是成功 / the status is not a success
 *   WC_MINE       成功，而且是 wr_id 说的那个本端 QP 的 / a success, from the local QP its wr_id names
 *   WC_NOT_MINE   成功，但对不上本端的 QP / a success that matches no local QP
 *
 *   wc->status    IBV_WC_SUCCESS 才是成功；失败的完成里只有 wr_id、qp_num、status、vendor_err 有定义
 *                 only IBV_WC_SUCCESS is a success; in a failed completion only wr_id, qp_num, status, vendor_err are defined
 *   wc->wr_id     投递时写的 WRID(i, 序号)：wrid_qp(wc->wr_id) 是 QP 序号 i（verbs/rdma_types.h）
 *                 what was written when posting, WRID(i, sequence): wrid_qp(wc->wr_id) is the QP index i (verbs/rdma_types.h)
 *   wc->qp_num    网卡填的：必须是 conn->qp[i]->qp_num（i 要先和 conn->num_qp 比）
 *                 filled in by the NIC: must be conn->qp[i]->qp_num (compare i with conn->num_qp first)
 *
 * 检查：make exercise EX=9 / Check: make exercise EX=9
 */
#include "exercise.h"

enum wc_verdict wc_verdict_for(const struct rdma_conn *conn, const struct ibv_wc *wc)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)wc;
	exercise_todo();
	return WC_MINE;
}
