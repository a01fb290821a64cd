/*
 * verbs_print.c - 控制台输出的小工具（见 verbs_print.h）
 */
#include "console/verbs_print.h"
#include "console/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "console/conout.h"

void step_title(const struct step_watch *w, unsigned *step, const char *fmt, ...)
{
	va_list ap;
	char title[256];

	va_start(ap, fmt);
	vsnprintf(title, sizeof(title), fmt, ap);
	va_end(ap);
	con_printf(_("\n========== 步骤%u: %s ==========\n"), ++*step, title);
	if (w != NULL && w->note != NULL)
		w->note(w->ctx, *step, title);
}

const char *mtu_str(enum ibv_mtu mtu)
{
	switch (mtu) {
	case IBV_MTU_256: return "256";
	case IBV_MTU_512: return "512";
	case IBV_MTU_1024: return "1024";
	case IBV_MTU_2048: return "2048";
	case IBV_MTU_4096: return "4096";
	}
	return "?";
}

const char *qp_state_str(enum ibv_qp_state s)
{
	switch (s) {
	case IBV_QPS_RESET: return "RESET";
	case IBV_QPS_INIT: return "INIT";
	case IBV_QPS_RTR: return "RTR";
	case IBV_QPS_RTS: return "RTS";
	case IBV_QPS_SQD: return "SQD";
	case IBV_QPS_SQE: return "SQE";
	case IBV_QPS_ERR: return "ERR";
	default: return "UNKNOWN";
	}
}

/*
 * RDMA FLUSH 的两个访问权限位（IBTA 1.5）。Linux 6.2 起内核的 CM 在 rdma_init_qp_attr(INIT) 里
 * 给被动方的 qp_access_flags 带上它们（6.12 实测 0x30e，6.1 是 0xe；设备支持 FLUSH 时，rxe 支持）。
 * Debian 12 的 libibverbs（rdma-core 44）还没有它们的名字，这里按内核 ib_verbs.h 的值自己定义。
 */
#define ACCESS_FLUSH_GLOBAL 0x100
#define ACCESS_FLUSH_PERSISTENT 0x200

void access_str(int a, char *out, size_t len)
{
	int named = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		    IBV_ACCESS_REMOTE_ATOMIC | ACCESS_FLUSH_GLOBAL | ACCESS_FLUSH_PERSISTENT;
	char rest[24] = "";

	if (a == 0) {
		snprintf(out, len, _("0（无）"));
		return;
	}
	if (a & ~named)
		snprintf(rest, sizeof(rest), "0x%x|", (unsigned)(a & ~named));
	snprintf(out, len, "%s%s%s%s%s%s%s",
		 a & IBV_ACCESS_LOCAL_WRITE ? "LOCAL_WRITE|" : "",
		 a & IBV_ACCESS_REMOTE_WRITE ? "REMOTE_WRITE|" : "",
		 a & IBV_ACCESS_REMOTE_READ ? "REMOTE_READ|" : "",
		 a & IBV_ACCESS_REMOTE_ATOMIC ? "REMOTE_ATOMIC|" : "",
		 a & ACCESS_FLUSH_GLOBAL ? "FLUSH_GLOBAL|" : "",
		 a & ACCESS_FLUSH_PERSISTENT ? "FLUSH_PERSISTENT|" : "",
		 rest);
	if (out[0] != '\0')
		out[strlen(out) - 1] = '\0';    /* 去掉末尾的 | */
}

void verbs_error(const char *call, int err, const char *hint)
{
	verbs_error_qp(-1, call, err, hint);
}

void verbs_error_qp(int qp, const char *call, int err, const char *hint)
{
	char who[16] = "";

	if (qp >= 0)
		snprintf(who, sizeof(who), "QP[%d] ", qp);
	con_error(_("%s%s 失败: %s (errno=%d)\n"), who, call, strerror(err), err);
	if (hint != NULL)
		con_hint("%s\n", hint);
}
