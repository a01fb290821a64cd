/*
 * 练习 7（步骤15）：RDMA WRITE/READ —— 对端内存的地址和钥匙
 * Exercise 7 (step 15): RDMA WRITE/READ - the address and key of the peer's memory
 *
 * 任务：*wr 的公共部分（sge、opcode、flags）已经填好，你只填 wr->wr.rdma 的两个字段。
 * Task: the common part of *wr (sge, opcode, flags) is already filled; fill only the two fields of wr->wr.rdma.
 *
 *   remote_addr   对端进程里的虚拟地址：调用者按对端在步骤11 告诉的缓冲区地址算好了，在 req->remote_addr
 *                 a virtual address in the peer's process: the caller computed it from the buffer address the peer
 *                 sent in step 11, it is req->remote_addr
 *   rkey          对端 MR 的钥匙（步骤11 交换来的）。你自己的 MR 也有 lkey 和 rkey —— 哪一个才对？
 *                 the peer MR's key (exchanged in step 11). Your own MR has an lkey and an rkey too - which one is right?
 *
 * 检查：make exercise EX=7（实验室里跑 --op write）/ Check: make exercise EX=7 (the lab runs --op write)
 */
#include "exercise.h"

void rdma_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)req;
	(void)wr;
	exercise_todo();
}
