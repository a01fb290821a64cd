/*
 * datapath.h - 数据面的三个基本动作：post_receive、post_send、poll_completion（datapath.c）
 *   wr_id 一律是 QP 序号：共享 CQ 里的完成靠它（以及 wc.qp_num）区分来自哪个QP。
 */
#ifndef ROCE_DATAPATH_H
#define ROCE_DATAPATH_H

#include "rdma_common.h"

int post_receive(struct rdma_conn *conn, int i, void *addr, uint32_t len);

struct send_req {
	enum ibv_wr_opcode opcode; /* SEND / RDMA_WRITE[_WITH_IMM] / RDMA_READ / 原子操作 */
	void *local;              /* 本地缓冲区（在 MR 内） */
	uint32_t len;             /* 字节数 */
	uint64_t remote_addr;     /* 单边/原子操作：对端虚拟地址 */
	uint32_t imm;             /* write_imm：立即数（主机字节序，发送时转网络序） */
	uint64_t compare_add;     /* fetch_add 的加数 / cmp_swap 的比较值 */
	uint64_t swap;            /* cmp_swap 的交换值 */
};
int post_send_req(struct rdma_conn *conn, int i, const struct send_req *req);
/* 轮询 n 个完成，带超时；任何 WC 错误都打印状态与提示并返回 -1 */
int poll_completions(struct rdma_conn *conn, int n, struct ibv_wc *wcs);

#endif
