/*
 * bench_report.c - 基准测试的打印：测量前说明测什么、不测什么，perftest 样式的表头和每个大小一行、
 * 给脚本解析的 BENCH_RESULT / BENCH_CPU / BENCH_UD_RECV，测量后说明怎么读（测量本身在 bench.c）
 */
#include "runs/bench_run.h"
#include "console/i18n.h"

#include <stdlib.h>

#include "console/conout.h"
#include "cli/op_table.h"
#include "verbs/ud.h"

static void print_rule(void)
{
	con_printf("---------------------------------------------------------------------------------------\n");
}

static void report_lat(struct run *r)
{
	struct rdma_conn *c = r->c;
	int rtt_half = c->opt->op != OP_READ;
	double *us = malloc(sizeof(double) * (size_t)r->iters);
	struct lat_stats s;
	char name[32];

	if (us == NULL)
		return;
	/* iters+1 个开始时刻的 iters 个差（perftest 是 iters 个时刻的 iters-1 个差）；丢掉最大的 2 个等统计在 lat_compute（stats.h） */
	for (long k = 0; k < r->iters; k++)
		us[k] = (double)(r->t[k + 1] - r->t[k]) / 1e3 / (rtt_half ? 2 : 1);   /* 纳秒 → 微秒 */
	lat_compute(us, (size_t)r->iters, &s);
	free(us);
	con_printf(" %-7zu %-10ld    %-7.2f        %-7.2f        %-7.2f            %-7.2f         %-7.2f           %-7.2f                 %-7.2f\n",
		   r->size, r->iters, s.t_min, s.t_max, s.t_typical, s.t_avg, s.t_stdev, s.p99, s.p999);
	con_printf("BENCH_RESULT test=%s size=%zu iters=%ld qps=%d cq=%s t_min_us=%.3f t_max_us=%.3f t_typical_us=%.3f t_avg_us=%.3f t_stdev_us=%.3f p99_us=%.3f p999_us=%.3f t_max_all_us=%.3f cpu_s=%.4f wall_s=%.6f%s\n",
		   test_name(c->opt, name, sizeof(name)), r->size, r->iters, c->num_qp,
		   c->opt->cq == CQ_EVENT ? "event" : "poll", s.t_min, s.t_max, s.t_typical, s.t_avg, s.t_stdev,
		   s.p99, s.p999, s.t_max_all, r->cpu1 - r->cpu0, r->t1 - r->t0, r->ctr);
}

static void report_bw(struct run *r)
{
	struct rdma_conn *c = r->c;
	struct bw_figures f;
	char name[32];

	bw_figures_of(&r->tl, r->size, &f);
	con_printf(" %-10zu %-10ld       %-9.2f          %-9.2f            %-9.6f\n",
		   r->size, r->iters, f.peak_mbps, f.avg_mbps, f.rate_mpps);
	con_printf("BENCH_RESULT test=%s size=%zu iters=%ld qps=%d cq=%s bw_peak_MBps=%.3f bw_avg_MBps=%.3f msg_rate_Mpps=%.6f cpu_s=%.4f wall_s=%.6f%s\n",
		   test_name(c->opt, name, sizeof(name)), r->size, r->iters, c->num_qp,
		   c->opt->cq == CQ_EVENT ? "event" : "poll", f.peak_mbps, f.avg_mbps, f.rate_mpps, r->cpu1 - r->cpu0, f.secs, r->ctr);
}

void bench_print_header(struct rdma_conn *c)
{
	print_rule();
	if (c->opt->bench == BENCH_LAT)
		con_printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec]\n");
	else
		con_printf(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n");
}

/* 测量的是哪一方：lat 的 write/send 与全部 bw 由客户端出表（服务端只报自己的 CPU） */
int bench_reports_table(const struct rdma_conn *c)
{
	return !is_server(c);
}

static void report_cpu(struct run *r)
{
	struct rdma_conn *c = r->c;
	double wall = r->t1 - r->t0, cpu = r->cpu1 - r->cpu0;

	con_printf("BENCH_CPU side=%s size=%zu cq=%s cpu_s=%.4f wall_s=%.4f\n", is_server(c) ? "server" : "client",
		   r->size, c->opt->cq == CQ_EVENT ? "event" : "poll", cpu, wall);
}

/* UD 带宽的服务端报告：发出、收到、丢掉 */
static void report_ud_recv(struct run *r)
{
	long sent = ud_sent(r), lost = sent - r->received;

	con_printf(_("UD 接收（服务端）: 客户端发出 %ld 条（预热 + 计时，%d 个QP），收到 %ld 条，丢了 %ld 条（%.2f%%）%s\n"),
		   sent, r->c->num_qp, r->received, lost, 100.0 * (double)lost / (double)sent,
		   lost > 0 ? _("——到达时接收队列空着的消息被网卡丢掉，发送方不知道（UD 没有流控、没有 RNR）") : "");
	con_printf("BENCH_UD_RECV size=%zu sent=%ld received=%ld lost=%ld\n", r->size, sent, r->received, lost);
}

/* 一个大小测完：出表的一方打一行和 BENCH_RESULT，UD 带宽的服务端数收到多少，每一方报自己的 CPU */
void bench_report(struct run *r)
{
	struct rdma_conn *c = r->c;

	if (bench_reports_table(c))
		(c->opt->bench == BENCH_LAT ? report_lat : report_bw)(r);
	if (is_server(c) && c->ah != NULL && c->opt->bench == BENCH_BW)
		report_ud_recv(r);
	report_cpu(r);
}

void bench_explain_before(struct rdma_conn *c)
{
	const struct options *o = c->opt;

	con_printf(_("测的是什么: %s，%d 个QP；每个大小先预热 %ld 次（不计），再计时 %ld 次\n"),
		   o->bench == BENCH_LAT ? _("乒乓延迟（write/send 报单程 = 往返/2，read 报整个往返）") :
		   _("带宽（客户端连续投递，窗口内的 WR 同时在途）"), c->num_qp, warmup_count(o->iters), o->iters);
	if (c->srq != NULL)
		con_printf(_("接收: 一个 SRQ（深度 %u）给 %d 个QP共用，消息落在哪个缓冲区由 SRQ 决定（像 ib_send_%s --use-srq；计时后只校验收到过消息的缓冲区）\n"),
			   c->srq_depth, c->num_qp, bench_name(o->bench));
	if (c->ah != NULL)
		con_printf(_("UD（像 ib_send_%s -c UD）: 每个 WR 带地址句柄和对端 QP 号，接收缓冲区多 %d 字节 GRH；%s\n"),
			   bench_name(o->bench), UD_GRH_LEN,
			   o->bench == BENCH_LAT ? _("乒乓里丢了一条消息就等不到回复，超时退出（UD 不重传）") :
			   _("客户端的表是发出去的速率（发送完成只说明报文离开了本端）；服务端数收到多少、丢了多少（BENCH_UD_RECV）"));
	con_printf(_("不测什么: 建连、注册内存、TCP 同步、打印和数据校验都在计时之外（每个大小计时结束后校验一次数据）\n"));
	if (o->bench == BENCH_BW)
		con_printf(_("旋钮: --tx-depth %d（每个QP在途 WR 上限）--signal %d（每 %d 个 WR 要一个完成：CQ 里的 WC 少了，CPU 省了）\n"
			   "      --post-list %d（一次 ibv_post_send 投递几个 WR：每次调用的固定开销分摊）--inline %u\n"),
			   o->tx_depth, o->signal_every, o->signal_every, o->post_list, o->inline_size);
	else
		con_printf(_("旋钮: --signal %d（%s）--inline %u（消息 ≤ --inline 时用 IBV_SEND_INLINE：CPU 把数据拷进 WQE，网卡少读一次内存；驱动给的 max_inline_data=%u）\n"),
			   o->signal_every, o->op == OP_READ ? _("READ 每次都要完成：数据到没到只有完成能说明") :
			   o->signal_every == 1 ? _("每个 SEND/WRITE 都等自己的完成，和 perftest 的 ib_*_lat 一样") :
			   _("SEND/WRITE 每这么多次才要一个完成：乒乓的回复已经说明对方收到了，不必每次等自己的完成（perftest 的延迟测试不这样做）"),
			   o->inline_size, c->max_inline);
	con_printf(_("等完成: --cq %s%s\n"), o->cq == CQ_EVENT ? "event" : "poll",
		   o->cq == CQ_EVENT ? _("（睡在完成通道上：CPU 时间少，唤醒要经过内核，延迟更高）") :
		   _("（忙轮询：最快发现完成，代价是一直占着一个 CPU）"));
	con_printf(_("单位: MB/sec = 2^20 字节/秒（与 perftest 相同），MsgRate = 每秒百万条消息\n"));
}

void bench_explain_after(struct rdma_conn *c)
{
	print_rule();
	con_printf(_("怎么读: 与 perftest 同名的列按 perftest 的定义算（延迟：排序后去掉最大的 2 个样本再统计，t_max 是第二大的样本，t_typical = 中位数，99%%/99.9%% = 排序后下标 ceil(p×计入的个数)）。\n"
		   "  BENCH_CPU 是本端计时循环内的 CPU 时间（getrusage 的 user+sys）：--cq poll 时接近墙钟时间（一直在转），\n"
		   "  --cq event 时小得多（睡在 fd 上）。Soft-RoCE 的协议处理在内核线程里，不算进这里\n"));
	(void)c;
}
