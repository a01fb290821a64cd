/*
 * 练习 1（步骤8）：QP 的形状 —— 填 ibv_qp_init_attr
 * Exercise 1 (step 8): the QP's shape - fill in ibv_qp_init_attr
 *
 * 任务：填好 *init，程序拿它调用 ibv_create_qp(conn->dev->pd, init)。
 * Task: fill *init; the program calls ibv_create_qp(conn->dev->pd, init) with it.
 *
 *   qp_type            RC 还是 UD：看 conn->opt->qp_type（QPK_RC / QPK_UD）
 *                      RC or UD: see conn->opt->qp_type (QPK_RC / QPK_UD)
 *   send_cq, recv_cq   完成放进哪个 CQ：所有 QP 共用步骤7 建的 conn->cq
 *                      where completions go: all QPs share conn->cq from step 7
 *   srq                --srq 时接收从共享接收队列取：conn->srq（没有时是 NULL）
 *                      with --srq receives come from the shared receive queue: conn->srq (NULL without)
 *   sq_sig_all         每个 WR 自己决定要不要完成？ / does each WR decide whether it completes?
 *   cap                队列深度在 conn->caps（send_wr、recv_wr），每个 WR 1 个 SGE，inline 上限 conn->opt->inline_size
 *                      queue depths are in conn->caps (send_wr, recv_wr), 1 SGE per WR, inline limit conn->opt->inline_size
 *                      （更深也可以：程序最多投 conn->caps 个 / deeper is fine: the program posts at most conn->caps）
 *
 * 检查：make exercise EX=1    重来：make exercise-reset EX=1    说明：docs/EXERCISES.md
 * Check: make exercise EX=1   start over: make exercise-reset EX=1   guide: docs/EXERCISES.en.md
 */
#include "exercise.h"

void qp_init_attr_for(const struct rdma_conn *conn, struct ibv_qp_init_attr *init)
{
	/* TODO：删掉下面三行，自己写 / delete the three lines below and write it yourself */
	(void)conn;
	(void)init;
	exercise_todo();
}
