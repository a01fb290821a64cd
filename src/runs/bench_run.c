/*
 * bench_run.c - 计时循环的几个慢路径和小判断，bench.c（带宽、准备、校验）和 bench_lat.c（延迟的计时循环）共用：
 * 本进程的 CPU 时间、对端是否只是等 DONE、补投接收失败、发送队列放不下、ibv_post_send 失败时的说明
 */
#include "runs/bench_run.h"
#include "console/i18n.h"

#include <stdio.h>
#include <sys/resource.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "cli/op_table.h"
#include "verbs/datapath.h"

double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/*
 * 对端程序在计时期间只是等 DONE 吗（bw 的 WRITE/READ：服务端不参与；lat 的 READ：服务端网卡应答）？
 * 是的话，每 -t/3 发一个心跳（ctrl_heartbeat），对端就不会因为运行比 -t 长而放弃。心跳不为自己读时钟：
 * lat 放在两个样本之间、那一段从时间轴上拿掉（bench_lat.c 的 beat_between）；bw 用取到完成时本来就读的时刻判断
 */
int peer_waits(struct rdma_conn *c)
{
	if (is_server(c))
		return 0;
	if (c->opt->bench == BENCH_LAT)
		return c->opt->op == OP_READ;
	return !op_info(c->opt->op)->server_recv;
}

int bench_recv_failed(struct rdma_conn *c, int b, int rc)
{
	if (c->srq != NULL)
		verbs_error("ibv_post_srq_recv()", rc, _("SRQ 满了（深度见步骤“创建共享接收队列SRQ”）或 SRQ 出错"));
	else
		verbs_error_qp(b, "ibv_post_recv()", rc, _("接收队列满了（max_recv_wr）或QP处于错误状态"));
	return -1;
}

/* 发送队列按硬件规则放不下了：说明记账（sq_room_error，和 post_send 说的一样） */
int bench_sq_full(struct run *r, int qp, const struct ibv_send_wr *wr, int n)
{
	struct send_req reqs[MAX_POST_LIST];

	for (int k = 0; k < n && k < MAX_POST_LIST; k++)
		reqs[k] = (struct send_req){ .unsignaled = !(wr[k].send_flags & IBV_SEND_SIGNALED) };
	return sq_room_error(r->c, qp, reqs, n);
}

/* 和 post_send（rdma_common.c）出错时说的一样 */
int bench_post_failed(int qp, int rc, int n, int bad_at)
{
	char call[64] = "ibv_post_send()";

	if (n > 1)   /* 链表：bad 指向第一个没投进去的 WR，它前面的已经投了 */
		snprintf(call, sizeof(call), _("ibv_post_send()（链表 %d 个里的第 %d 个）"), n, bad_at + 1);
	verbs_error_qp(qp, call, rc, _("发送队列满了（max_send_wr）、QP 不在 RTS，或长度超过设备上限（inline 时是 max_inline_data）"));
	return -1;
}
