/*
 * 练习 8（步骤15）：原子操作 —— 对端的一个 8 字节字
 * Exercise 8 (step 15): atomics - one 8-byte word at the peer
 *
 * 任务：*wr 的公共部分已经填好（opcode 是 IBV_WR_ATOMIC_FETCH_AND_ADD 或 IBV_WR_ATOMIC_CMP_AND_SWP），
 *       你只填 wr->wr.atomic 的四个字段。
 * Task: the common part of *wr is already filled (the opcode is IBV_WR_ATOMIC_FETCH_AND_ADD or
 *       IBV_WR_ATOMIC_CMP_AND_SWP); fill only the four fields of wr->wr.atomic.
 *
 *   remote_addr, rkey     同练习 7：对端的地址（req->remote_addr）和对端的钥匙
 *                         as in exercise 7: the peer's address (req->remote_addr) and the peer's key
 *   compare_add, swap     fetch_add：加数；cmp_swap：比较值和交换值（req->compare_add、req->swap）
 *                         fetch_add: the value to add; cmp_swap: compare and swap values (req->compare_add, req->swap)
 *
 * wr->wr 是联合体：rdma 和 atomic 的字段不在同一个位置。
 * wr->wr is a union: the fields of rdma and atomic are not at the same places.
 *
 * 检查：make exercise EX=8（实验室里跑 --op cmp_swap）/ Check: make exercise EX=8 (the lab runs --op cmp_swap)
 */
#include "exercise.h"

void atomic_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)req;
	(void)wr;
	exercise_todo();
}
