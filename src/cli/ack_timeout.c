/*
 * ack_timeout.c - RTS 的 timeout 指数的含义（纯逻辑，见 ack_timeout.h）
 */
#include "cli/ack_timeout.h"
#include "console/i18n.h"

#include <stdio.h>

double ack_timeout_us(unsigned n)
{
	if (n == 0 || n > ACK_TIMEOUT_MAX)
		return 0.0;
	return 4.096 * (double)(1ull << n);
}

const char *ack_timeout_str(unsigned n, char *buf, size_t len)
{
	double us = ack_timeout_us(n);

	if (us <= 0.0)
		snprintf(buf, len, "∞");
	else if (us < 1000.0)
		snprintf(buf, len, "%.1fus", us);
	else if (us < 10e3)
		snprintf(buf, len, "%.1fms", us / 1e3);
	else if (us < 1e6)
		snprintf(buf, len, "%.0fms", us / 1e3);
	else if (us < 3600e6)
		snprintf(buf, len, "%.1fs", us / 1e6);
	else
		snprintf(buf, len, "%.1fh", us / 3600e6);
	return buf;
}

const char *ack_timeout_explain(unsigned n, char *buf, size_t len)
{
	char t[32];

	if (n == 0)
		snprintf(buf, len, "%s", _("RTS = Ready To Send。timeout=0 表示不用等应答的定时器（IB 规范：0 = 无限等待）："
					   "丢的包只有对端回 NAK 才重传，尾包或应答丢了就一直等下去，"));
	else
		snprintf(buf, len, _("RTS = Ready To Send。timeout=%u 表示等应答 4.096us×2^%u≈%s 就重传（规范允许网卡实际等到 4 倍），"),
			 n, n, ack_timeout_str(n, t, sizeof(t)));
	return buf;
}
