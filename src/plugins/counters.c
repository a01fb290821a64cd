/*
 * counters.c - 端口硬件计数的读取、求差和含义（定义见 counters.h）
 *
 * 含义表对照的内核源码（Linux 6.1；名字在 drivers/infiniband/sw/rxe/rxe_hw_counters.c 的 rxe_counter_name[]，
 * 每个计数在哪里加一用 rxe_counter_inc(rxe, RXE_CNT_…) 找）：
 *   sent_pkts、send_err        rxe_net.c  rxe_xmit_packet()：交给 IP 层成功 / 失败
 *   rcvd_pkts                  rxe_recv.c rxe_rcv()：包头、QP、ICRC 检查都通过的每个包
 *   duplicate_request、out_of_seq_request  rxe_resp.c check_psn()：PSN 比期望的小 / 大（大时只数第一次，随后回 NAK）
 *   send_rnr_err               rxe_resp.c RESPST_ERR_RNR：RC 的请求来了但没有接收 WQE，回 RNR NAK
 *   rdma_recvs                 rxe_resp.c do_complete()：一个接收 WQE 成功完成（RECV，或 WRITE_WITH_IMM 消耗的接收）
 *   rcvd_rnr_err、rcvd_seq_err rxe_comp.c check_ack()：收到 RNR NAK / PSN 序列错误 NAK
 *   completer_retry_err        rxe_comp.c rxe_completer()：ACK 超时或序列错误 NAK 后让请求方从未确认的 PSN 重发
 *   retry_exceeded_err、retry_rnr_exceeded_err  rxe_comp.c：retry_cnt / rnr_retry 用完（WC 的 RETRY_EXC_ERR / RNR_RETRY_EXC_ERR）
 *   ack_deferred (RXE_CNT_COMPLETER_SCHED，6.x 里叫 SENDER_SCHED)  rxe_comp.c rxe_comp_queue_pkt()：应答到达时
 *                              前面还有没处理的应答，处理推迟到任务里（软件调度的细节）
 *   rdma_sends                 rxe_comp.c do_complete()：一个 SEND（含 SEND_WITH_IMM/INV）WQE 完成
 *   link_downed                rxe_net.c rxe_port_down()：下面的网卡 down 了
 * 硬件上的名字：mlx5 的 drivers/infiniband/hw/mlx5/counters.c（duplicate_request、out_of_sequence、rnr_nak_retry_err、
 * packet_seq_err、implied_nak_seq_err、local_ack_timeout_err、out_of_buffer、rx_*_requests），以及 IB 规范的端口计数
 * （ports/N/counters/ 下的 port_xmit_packets、port_rcv_packets、link_downed，每个 RDMA 设备都有）。
 */
#include "plugins/counters.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/i18n.h"

struct ctr_info {
	const char *name;
	const char *meaning;
};

static const struct ctr_info ctr_infos[] = {
	{ "sent_pkts",
	  N_("rxe 每把一个包交给 IP 层发出就加一（请求、ACK、READ 响应都算）；硬件上对应端口计数 port_xmit_packets（ports/N/counters/）") },
	{ "rcvd_pkts",
	  N_("rxe 每收下一个检查都通过的包（包头、QP 号、ICRC）加一；硬件上对应端口计数 port_rcv_packets") },
	{ "duplicate_request",
	  N_("响应方收到 PSN 比期望小的请求（对方重发了已经收到的包），重新应答；mlx5 有同名计数 duplicate_request") },
	{ "out_of_seq_request",
	  N_("响应方收到 PSN 比期望大的请求（前面有包丢了），回一个 PSN 序列错误 NAK；mlx5 叫 out_of_sequence") },
	{ "rcvd_rnr_err",
	  N_("请求方收到 RNR NAK（对方还没投递接收），等 RNR 计时器后重发；mlx5 叫 rnr_nak_retry_err") },
	{ "send_rnr_err",
	  N_("响应方来了 SEND 却没有接收 WQE，回了 RNR NAK；硬件没有同名计数（mlx5 最接近的是 out_of_buffer）") },
	{ "rcvd_seq_err",
	  N_("请求方收到 PSN 序列错误 NAK（对方发现中间丢了包），从 NAK 给的 PSN 重发；mlx5 叫 packet_seq_err") },
	{ "ack_deferred",
	  N_("应答到达时前面还有没处理完的应答，rxe 把处理推迟到任务里（软件调度的细节，不是错误）；硬件没有对应的计数") },
	{ "retry_exceeded_err",
	  N_("重传 retry_cnt 次还没有应答，WR 以 RETRY_EXC_ERR 结束、QP 进 ERR；硬件没有同名计数（mlx5 的 local_ack_timeout_err 数每一次超时）") },
	{ "retry_rnr_exceeded_err",
	  N_("RNR NAK 重试 rnr_retry 次用完，WR 以 RNR_RETRY_EXC_ERR 结束；硬件没有同名计数") },
	{ "completer_retry_err",
	  N_("ACK 超时或收到序列错误 NAK，请求方从没确认的 PSN 重发一轮；mlx5 分开数：local_ack_timeout_err（超时）、implied_nak_seq_err") },
	{ "send_err",
	  N_("rxe 把包交给 IP 层时失败（路由、邻居、网卡队列）；rxe 特有，硬件没有") },
	{ "link_downed",
	  N_("rxe 下面的网卡 down 了（端口变成 DOWN）；IB 规范的端口计数也叫 link_downed") },
	{ "rdma_sends",
	  N_("一个 SEND（含带立即数的）WR 在发送方完成；硬件没有同名计数（mlx5 只按包数）") },
	{ "rdma_recvs",
	  N_("一个接收 WQE 成功完成（收到 SEND，或 WRITE_WITH_IMM 消耗了一个接收）；硬件没有同名计数（mlx5 的 rx_write_requests 等按请求类型数）") },
};

static const struct ctr_info *find_info(const char *name)
{
	for (size_t i = 0; i < sizeof(ctr_infos) / sizeof(ctr_infos[0]); i++)
		if (strcmp(ctr_infos[i].name, name) == 0)
			return &ctr_infos[i];
	return NULL;
}

const char *ctr_meaning(const char *name)
{
	const struct ctr_info *c = find_info(name);

	return c != NULL ? c->meaning : NULL;
}

/* 读一个 sysfs 文件的十进制数：0 = 成功；否则 errno（内容不是数字是 EINVAL） */
static int read_number(const char *path, uint64_t *v)
{
	char buf[64], *end;
	FILE *f = fopen(path, "r");
	size_t n;
	int err;

	if (f == NULL)
		return errno != 0 ? errno : EIO;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	err = ferror(f) ? (errno != 0 ? errno : EIO) : 0;
	fclose(f);
	if (err != 0)
		return err;
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (end == buf || errno != 0 || buf[0] == '-')
		return EINVAL;
	while (*end == '\n' || *end == ' ')
		end++;
	return *end == '\0' ? 0 : EINVAL;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct ctr_entry *)a)->name, ((const struct ctr_entry *)b)->name);
}

int ctr_read_dir(const char *dir, struct ctr_table *t)
{
	DIR *d;
	struct dirent *de;
	char path[4096];

	memset(t, 0, sizeof(*t));
	t->lifespan_ms = -1;
	d = opendir(dir);
	if (d == NULL) {
		t->dir_err = errno;
		return -1;
	}
	t->present = 1;
	while ((de = readdir(d)) != NULL) {
		struct ctr_entry *e;
		uint64_t v = 0;
		int err;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= CTR_NAME_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		err = read_number(path, &v);
		if (strcmp(de->d_name, "lifespan") == 0) {     /* 缓存时间，不是计数 */
			t->lifespan_ms = err == 0 ? (long)v : -1;
			continue;
		}
		if (t->n >= CTR_MAX)
			continue;
		e = &t->e[t->n++];
		memcpy(e->name, de->d_name, strlen(de->d_name) + 1);  /* 上面查过 < CTR_NAME_MAX */
		e->value = err == 0 ? v : 0;
		e->err = err;
	}
	closedir(d);
	qsort(t->e, t->n, sizeof(t->e[0]), cmp_entry);
	return 0;
}

static const struct ctr_entry *lookup(const struct ctr_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].name, name) == 0)
			return &t->e[i];
	return NULL;
}

size_t ctr_diff(const struct ctr_table *before, const struct ctr_table *after, struct ctr_delta *out, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < after->n && k < max; i++) {
		const struct ctr_entry *a = &after->e[i], *b = lookup(before, a->name);

		if (b == NULL || a->err != 0 || b->err != 0 || a->value == b->value)
			continue;
		out[k].name = a->name;
		out[k].before = b->value;
		out[k].after = a->value;
		out[k].delta = (long long)(a->value - b->value);
		k++;
	}
	return k;
}

long ctr_settle_ms(const struct ctr_table *t)
{
	long life = t->lifespan_ms >= 0 ? t->lifespan_ms : CTR_LIFESPAN_DEFAULT_MS;

	return life + 10;       /* + 一个 jiffy（HZ=100 时 10 ms）：缓存按 jiffies 过期 */
}

size_t ctr_result_suffix(const struct ctr_delta *d, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char name[CTR_NAME_MAX];
		int w;

		snprintf(name, sizeof(name), "%s", d[i].name);
		for (char *p = name; *p != '\0'; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
				*p = '_';
		w = snprintf(buf + used, len - used, " ctr_%s=%lld", name, d[i].delta);
		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0';       /* 放不下就不写半个 */
			break;
		}
		used += (size_t)w;
	}
	return used;
}
