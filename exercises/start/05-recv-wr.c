/*
 * 练习 5（步骤15）：接收 WR —— 对端的下一条 SEND 放进哪里
 * Exercise 5 (step 15): the receive WR - where the peer's next SEND goes
 *
 * 任务：填好 *sge 和 *wr。程序接着调用 ibv_post_recv(conn->qp[i], wr, &bad)。
 * Task: fill *sge and *wr. The program then calls ibv_post_recv(conn->qp[i], wr, &bad).
 *
 *   sge   收进本端 MR 里 addr 开始的 len 字节；本地访问用 MR 的哪把钥匙？（conn->mr）
 *         receive into len bytes at addr inside the local MR; which of the MR's keys is for local access? (conn->mr)
 *   wr    wr_id = WRID(i, 0)（共享 CQ 靠它认出 QP，verbs/rdma_types.h）、sg_list、num_sge；其余字段清零（next！）
 *         wr_id = WRID(i, 0) (the shared CQ tells QPs apart by it, verbs/rdma_types.h), sg_list, num_sge; zero the rest (next!)
 *
 *   什么时候：服务端每一轮先投递接收，再发 READY 告诉对端“可以发了”——对端收到 READY 就发
 *   when: each round the server posts its receives first and only then sends READY ("you may send") - the peer sends
 *         as soon as it gets READY
 *
 * 检查：make exercise EX=5（你的是服务端；实验室里按你那一端 --trace 的事件先后判断接收是不是在 READY 之前投递的）
 * Check: make exercise EX=5 (yours is the server; in the lab the order of events in your side's --trace shows whether
 *        the receives were posted before READY)
 */
#include "exercise.h"

void recv_wr_for(const struct rdma_conn *conn, int i, void *addr, uint32_t len, struct ibv_recv_wr *wr,
		 struct ibv_sge *sge)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)i;
	(void)addr;
	(void)len;
	(void)wr;
	(void)sge;
	exercise_todo();
}
