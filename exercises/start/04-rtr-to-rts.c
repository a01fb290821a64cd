/*
 * 练习 4（步骤13）：RTR→RTS —— 本端从哪个 PSN 开始发、丢了怎么办
 * Exercise 4 (step 13): RTR->RTS - which PSN this end starts sending at, and what to do on loss
 *
 * 任务：填好 QP i 的 *attr，返回掩码。RC 在 RTS 要的属性：
 * Task: fill QP i's *attr and return the mask. What RC needs for RTS:
 *
 *   sq_psn          本端发出的第一个包的 PSN：步骤8 随机选的、步骤11 交给对端的那个
 *                   the PSN of this end's first packet: chosen at random in step 8 and told to the peer in step 11
 *   timeout         等 ACK 4.096 µs × 2^timeout；选项 --ack-timeout 在 conn->opt->ack_timeout
 *                   ACK wait 4.096 us x 2^timeout; the --ack-timeout option is conn->opt->ack_timeout
 *   retry_cnt       超时/序列错误后重发几次（3 位，0..7 都合法；rxe 把 7 当成无限，规范和 mlx5 上是 7 次）
 *                   resends after a timeout or sequence error (3 bits, 0..7 all legal; rxe makes 7 infinite, the spec and mlx5 7 times)
 *   rnr_retry       对端没投递接收（RNR NAK）时重试几次，7 = 无限 / retries after an RNR NAK, 7 = forever
 *   max_rd_atomic   本端同时在途的 READ/原子请求：conn->rd.out / READs/atomics in flight: conn->rd.out
 *
 * 检查：make exercise EX=4（实验室里跑 --op read）/ Check: make exercise EX=4 (the lab runs --op read)
 */
#include "exercise.h"

int rts_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)i;
	(void)attr;
	exercise_todo();
	return 0;
}
