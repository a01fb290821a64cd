/*
 * 练习 3（步骤12）：INIT→RTR —— 告诉 QP i 对端是谁
 * Exercise 3 (step 12): INIT->RTR - tell QP i who its peer is
 *
 * 任务：填好 QP i 的 *attr，返回掩码。RC 在 RTR 要的属性（规范的表，man ibv_modify_qp）：
 * Task: fill QP i's *attr and return the mask. What RC needs for RTR (the spec's table, man ibv_modify_qp):
 *
 *   path_mtu             两端 active_mtu 的较小者（步骤11 已算好）/ the smaller active_mtu of both ends (computed in step 11)
 *   dest_qp_num, rq_psn  对端 QP i 的号码和起始 PSN：步骤11 交换来的在 conn->remote.qp[i]
 *                        the peer QP i's number and starting PSN: exchanged in step 11, in conn->remote.qp[i]
 *   ah_attr              RoCE 必须带 GRH：is_global、grh.sgid_index（本端选中的 GID，conn->dev->gid）、grh.dgid、grh.hop_limit；
 *                        还有 port_num
 *                        RoCE must carry a GRH: is_global, grh.sgid_index (the local GID chosen, conn->dev->gid), grh.dgid,
 *                        grh.hop_limit; and port_num
 *   max_dest_rd_atomic   本端同时为对端处理几个 READ/原子：conn->rd.in（协商的深度；到设备的 max_qp_rd_atom 为止更多也合法）
 *                        READs/atomics served at once: conn->rd.in (the negotiated depth; more, up to the device's
 *                        max_qp_rd_atom, is legal too)
 *   min_rnr_timer        对端收到 RNR NAK 后等多久（自由选择）/ how long the peer waits after an RNR NAK (your choice)
 *
 * 本端自己的值在 conn->qp[i]->qp_num、conn->psn[i]、conn->dev->gid —— 这一步要的是对端的。
 * Your own values are conn->qp[i]->qp_num, conn->psn[i], conn->dev->gid - this step wants the peer's.
 *
 * 检查：make exercise EX=3 / Check: make exercise EX=3
 */
#include "exercise.h"

int rtr_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)i;
	(void)attr;
	exercise_todo();
	return 0;
}
