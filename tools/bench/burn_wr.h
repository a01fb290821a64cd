/*
 * tools/bench/burn_wr.h - nsir.c 和 abshim.c 共用的一段“普通 C 代码”：像计时循环那样每次现填一个发送 WR。
 * 两边必须是同一段代码：nsir 在虚拟机里给它计时，abshim 把它放进乒乓的关键路径；条数各自用 callgrind 数
 */
#ifndef BURN_WR_H
#define BURN_WR_H
#include <stdint.h>
#include <string.h>
#include <infiniband/verbs.h>

__attribute__((noinline)) static void build(struct ibv_send_wr *wr, struct ibv_sge *sge, char *buf, long k)
{
	memset(wr, 0, sizeof(*wr));
	sge->addr = (uintptr_t)(buf + (k & 7));
	sge->length = 2;
	sge->lkey = 0x1234;
	wr->wr_id = (uint64_t)k << 8 | 1;
	wr->sg_list = sge;
	wr->num_sge = 1;
	wr->opcode = (k & 1) ? IBV_WR_SEND : IBV_WR_RDMA_WRITE;
	wr->send_flags = IBV_SEND_SIGNALED | (sge->length <= 16 ? IBV_SEND_INLINE : 0);
}

#endif
