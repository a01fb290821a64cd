/*
 * 练习 6（步骤15）：发送 WR 的公共部分 —— 数据从哪里来、做什么、要不要完成
 * Exercise 6 (step 15): the common part of a send WR - where the data comes from, what to do, completion or not
 *
 * 任务：按 *req 填好 *sge 和 *wr（所有操作共用这一部分；WRITE/READ/原子的对端地址在练习 7、8）。
 * Task: fill *sge and *wr from *req (every operation shares this part; the remote address of WRITE/READ/atomics is
 *       exercises 7 and 8).
 *
 *   req->local, req->len   要发的数据（在本端 MR 里）/ the data to send (inside the local MR)
 *   req->opcode            IBV_WR_SEND、IBV_WR_RDMA_WRITE …
 *   req->seq               wr_id = WRID(i, req->seq)
 *   req->unsignaled        0 = 这个 WR 要一个完成（IBV_SEND_SIGNALED）/ 0 = this WR wants a completion (IBV_SEND_SIGNALED)
 *   req->inline_data       1 = IBV_SEND_INLINE
 *
 * 检查：make exercise EX=6 / Check: make exercise EX=6
 */
#include "exercise.h"

void send_wr_for(const struct rdma_conn *conn, int i, const struct send_req *req, struct ibv_send_wr *wr,
		 struct ibv_sge *sge)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)i;
	(void)req;
	(void)wr;
	(void)sge;
	exercise_todo();
}
