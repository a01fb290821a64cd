/*
 * dev_limits.c - 选项对设备能力的检查（见 dev_limits.h）
 */
#include "verbs/dev_limits.h"
#include "console/i18n.h"
#include "console/conout.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

uint32_t srq_depth_wanted(const struct options *o, const struct queue_caps *q)
{
	return o->bench != BENCH_NONE ? q->recv_wr : 2u * (uint32_t)o->num_qp;
}

static int srq_check(const struct options *o, const struct queue_caps *q, const struct ibv_device_attr *dev,
		     char *err, size_t errlen)
{
	uint32_t want = srq_depth_wanted(o, q);

	if (dev->max_srq < 1) {
		snprintf(err, errlen, _("--srq：设备的 max_srq=%d，不支持共享接收队列；去掉 --srq"), dev->max_srq);
		return -1;
	}
	if (want > (uint32_t)dev->max_srq_wr) {
		snprintf(err, errlen, _("--srq：SRQ 要 %u 个接收请求的深度，超过设备的 max_srq_wr=%d；减小 -q%s"), want,
			 dev->max_srq_wr, o->bench != BENCH_NONE ? _(" 或 --tx-depth") : "");
		return -1;
	}
	if (dev->max_srq_sge < 1) {
		snprintf(err, errlen, _("--srq：每个接收请求要 1 个 SGE，设备的 max_srq_sge=%d"), dev->max_srq_sge);
		return -1;
	}
	return 0;
}

int limits_check(const struct options *o, const struct ibv_device_attr *dev,
		 const struct ibv_port_attr *port, char *err, size_t errlen)
{
	struct queue_caps q;
	size_t msg = slot_size(o);

	queue_caps(o, &q);
	if (o->num_qp > dev->max_qp) {
		snprintf(err, errlen, _("-q %d 超过设备的 max_qp=%d（一个设备最多几个QP）；减小 -q"), o->num_qp, dev->max_qp);
		return -1;
	}
	if (q.send_wr > (uint32_t)dev->max_qp_wr || q.recv_wr > (uint32_t)dev->max_qp_wr) {
		snprintf(err, errlen, _("每个QP的队列深度 %u 超过设备的 max_qp_wr=%d（每个QP最多几个 WR）；减小 --tx-depth"),
			 q.send_wr > q.recv_wr ? q.send_wr : q.recv_wr, dev->max_qp_wr);
		return -1;
	}
	if (q.cqe > (uint32_t)dev->max_cqe) {
		snprintf(err, errlen, _("共享 CQ 要 %u 项（%d 个QP × (发送 %u + 接收 %u)），超过设备的 max_cqe=%d；减小 -q 或 --tx-depth"),
			 q.cqe, o->num_qp, q.send_wr, q.recv_wr, dev->max_cqe);
		return -1;
	}
	if (o->srq && srq_check(o, &q, dev, err, errlen) != 0)
		return -1;
	if (msg > port->max_msg_sz) {
		snprintf(err, errlen, _("消息 %zu 字节超过端口的 max_msg_sz=%u；减小 --size%s"),
			 msg, port->max_msg_sz, o->sweep ? _("（--sweep 最大到 8 MiB：换一个 max_msg_sz 更大的设备）") : "");
		return -1;
	}
	return 0;
}

int limits_memory(size_t len, size_t phys)
{
	return phys == 0 || len <= phys / 2 ? 0 : -1;
}

int limits_check_memory(size_t len)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	struct rlimit rl;

	if (pages > 0 && psize > 0 && limits_memory(len, (size_t)pages * (size_t)psize) != 0) {
		con_error(_("需要 %zu 字节缓冲区，超过物理内存的一半\n" CON_HINT "减小 --size 或 -q\n"), len);
		return -1;
	}
	if (geteuid() != 0 && getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && len > rl.rlim_cur)
		con_printf(_("  警告: 需要锁定 %zu 字节，超过 ulimit -l（%llu 字节）；ibv_reg_mr 可能以 ENOMEM 失败\n"),
		       len, (unsigned long long)rl.rlim_cur);
	return 0;
}
