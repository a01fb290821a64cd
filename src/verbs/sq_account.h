/*
 * sq_account.h - 发送队列的记账：按硬件的规则数一个QP的发送队列里还占着几个槽（纯逻辑，可单元测试）
 *
 * 规则（IB 规范的 RC 发送队列；mlx5 等硬件网卡就是这样释放槽位的）：
 *   一个 WR 投递后占一个槽。它的槽只有在“同一个QP上它本身或它之后的一个要了完成（signaled）的 WR”
 *   的完成被取出（ibv_poll_cq）之后才释放。不要完成（unsignaled）的 WR 自己永远不产生完成，
 *   所以一个QP上一直没有 signaled 的 WR 完成，槽就一直不还；占满 max_send_wr 后 ibv_post_send 返回 ENOMEM。
 * Soft-RoCE（rxe）不管这条规则，WR 发完就还槽，所以在实验室里看不出这类错误——这里按规则数，
 * 在程序要超过 max_send_wr 之前就报错，rxe 上也能发现。
 *
 *   posted = 投递过的 WR 总数；freed = 从头数、槽已释放的 WR 个数；占用 = posted - freed。
 *   signaled 的 WR 的完成按投递顺序到达（同一个QP），所以只要按顺序记下在途 signaled WR 的位置。
 */
#ifndef ROCE_SQ_ACCOUNT_H
#define ROCE_SQ_ACCOUNT_H

#include <stdint.h>

struct sq_account {
	uint32_t cap;           /* 创建QP时要的 max_send_wr */
	uint64_t posted;        /* 投递过的 WR 总数 */
	uint64_t freed;         /* 槽已释放的 WR 个数（按投递顺序从头数） */
	uint64_t *sig;          /* 在途 signaled WR 的位置（第几个投递的，从 0 数），环形，容量 cap */
	uint32_t head, n_sig;   /* 最老的一个在 sig[head]，共 n_sig 个 */
};

/* 分配环形数组；返回 -1 = 内存不够。之后无论成败 sq_account_free 都安全 */
int sq_account_init(struct sq_account *a, uint32_t cap);
void sq_account_free(struct sq_account *a);
/* 还占着的槽数 */
static inline uint64_t sq_account_in_use(const struct sq_account *a) { return a->posted - a->freed; }
/*
 * 下面三个在每次投递、每个发送完成时都要调用（基准测试的计时循环里也是），所以内联：
 * 跨文件的调用每次多十几条指令（callgrind 数过，docs/dev/bench-records.md）
 */
/* 再投 n 个 WR 会不会超过 cap：1 = 放得下 */
static inline int sq_account_fits(const struct sq_account *a, uint32_t n)
{
	return sq_account_in_use(a) + n <= a->cap;
}

/* 记下投递了一个 WR（调用者先用 sq_account_fits 检查过） */
static inline void sq_account_post(struct sq_account *a, int signaled)
{
	if (signaled && a->n_sig < a->cap) {
		uint32_t at = a->head + a->n_sig;   /* 环里的下一格：head、n_sig 都 < cap，所以最多绕回一次，减一次 cap 就够（不做除法） */

		a->sig[at >= a->cap ? at - a->cap : at] = a->posted;
		a->n_sig++;
	}
	a->posted++;
}

/* 取出了这个QP的一个发送完成：最老的在途 signaled WR 和它之前的全部释放。返回 -1 = 没有在途的 signaled WR（记账错了） */
static inline int sq_account_complete(struct sq_account *a)
{
	if (a->n_sig == 0)
		return -1;
	a->freed = a->sig[a->head] + 1;
	a->head = a->head + 1 == a->cap ? 0 : a->head + 1;   /* 比较再绕回，不做除法（带宽循环里每个完成一次） */
	a->n_sig--;
	return 0;
}

/*
 * 延迟乒乓里第 k 个 WR（从 0 数，含预热；QP = k % num_qp，共 total 个）要不要完成（--signal every）：
 * 按QP数——它是自己QP上的第 k / num_qp 个，每 every 个要一个；每个QP的最后一个一定要，
 * 这样每个大小结束时每个QP的槽都还清了（--sweep 的下一个大小从空队列开始）。
 */
int lat_wr_signaled(long k, int num_qp, int every, long total);

#endif
