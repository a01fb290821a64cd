/*
 * kernel_note.c - rxe 与内核版本有关的 WC 说明（见 kernel_note.h）
 */
#include "verbs/kernel_note.h"
#include "console/i18n.h"

#include <stdio.h>

int kernel_version(const char *release, int *major, int *minor)
{
	if (release == NULL || sscanf(release, "%d.%d", major, minor) != 2 || *major < 0 || *minor < 0)
		return -1;
	return 0;
}

/* 版本比较：a.b 早于 c.d */
static int older(int a, int b, int c, int d)
{
	return a < c || (a == c && b < d);
}

/* 运行的内核相对实测过的内核在哪里：只有早于 6.1 的才有这句 */
static const char *untested_part(int major, int minor)
{
	if (older(major, minor, 5, 10))
		return _("比 5.10 更老的内核没有测试（很可能一样）");
	if (major == 5 && minor == 10)
		return _("5.10 与 6.1 之间的内核没有测试");
	return _("你的内核在 5.10 与 6.1 之间，没有测试：可能是这个原因，也可能真是网络");
}

/*
 * 6.12 起（只在 6.12.117+deb13 上、只对 sge.lkey 不对这一种原因实测过）：本端发送 WR 出错时它自己以 WR_FLUSH_ERR
 * 完成，前面没有别的错误。和上面 WR_FLUSH_ERR 的提示（“找第一条非 FLUSH 的错误”）不矛盾：这里它就是第一条
 */
static const char *flush_note(const char *release, int major, int minor, int send_in_flight, char *buf, size_t len)
{
	if (older(major, minor, 6, 12) || !send_in_flight)
		return NULL;
	snprintf(buf, len,
		 _("这台机器运行的内核是 %s。这条 WR_FLUSH_ERR 是第一条错误完成，QP 上有在途的发送 WR：\n"
		 "      在 6.12 的 Soft-RoCE（rxe）上实测过这种情形——发送 WR 的 sge.lkey 不是 MR 的 lkey 时，出错的 WR 自己就以\n"
		 "      WR_FLUSH_ERR 完成，前面没有别的错误；这时原因在这个 WR 本身（lkey、地址、长度）。只测了这一种原因、\n"
		 "      只在 6.12.117+deb13（Debian 13）上测过；同一个错在 5.10 上是 LOC_PROT_ERR（和硬件网卡一样），\n"
		 "      在 6.1 上是 LOC_QP_OP_ERR（docs/GALLERY.md 的 lkey）"),
		 release);
	return buf;
}

const char *rxe_kernel_note(enum ibv_wc_status st, const char *release, int send_in_flight, char *buf, size_t len)
{
	int major, minor;

	if (kernel_version(release, &major, &minor) != 0 || buf == NULL || len == 0)
		return NULL;
	if (st == IBV_WC_WR_FLUSH_ERR)
		return flush_note(release, major, minor, send_in_flight, buf, len);
	if (st != IBV_WC_RETRY_EXC_ERR || !older(major, minor, 6, 1))
		return NULL;
	snprintf(buf, len,
		 _("这台机器运行的内核是 %s。内核早于 6.1 的 Soft-RoCE（rxe）不执行原子操作（fetch_add/cmp_swap），\n"
		 "      对错误的 rkey/远端地址、没开远端权限的 MR（access）或 QP（qp_access_flags）也不回 NAK：请求方重传 retry_cnt 次没有应答，就是这个 RETRY_EXC_ERR，不是网络问题。\n"
		 "      实测于 5.10（Debian 11）；6.1、6.12 上原子操作成功，错误的 rkey 得到 REM_ACCESS_ERR；%s。\n"
		 "      原子操作请换 6.1 或更新的内核（docs/KERNELS.md）"),
		 release, untested_part(major, minor));
	return buf;
}

/*
 * 6.1 的 rxe，接收走 SRQ：发送方重传（超时，或 SRQ 被取空、接收方回了 RNR NAK）时，接收方偶尔收到和原来对不上的包：
 * 超过一个接收请求长度的数据放进同一个接收（copy_data 失败：LOC_QP_OP_ERR，回 NAK Remote Operational Error），
 * 或者操作码顺序不对（回 NAK Invalid Request，接收也以 REM_INV_REQ_ERR 完成）。接收请求、消息大小都是对的：
 * 同样的运行多数次成功，失败的那次发送方的 completer_retry_err 涨了
 */
const char *rxe_srq_retry_note(enum ibv_wc_status st, const char *release, char *buf, size_t len)
{
	int major, minor;

	if (kernel_version(release, &major, &minor) != 0 || buf == NULL || len == 0 || major != 6 || minor != 1)
		return NULL;
	if (st != IBV_WC_LOC_QP_OP_ERR && st != IBV_WC_REM_OP_ERR && st != IBV_WC_REM_INV_REQ_ERR)
		return NULL;
	snprintf(buf, len,
		 _("这台机器运行的内核是 %s，本程序的接收走 SRQ。如果两端的消息大小、接收缓冲区和 lkey 都对（同样的运行多数次成功），\n"
		 "      这是 6.1 的 Soft-RoCE（rxe）的已知故障：发送方重传（超时，或几个QP共用的 SRQ 被取空、接收方回了 RNR NAK）时，\n"
		 "      接收方偶尔收到和原来对不上的包——超过一个接收请求长度的数据放进了同一个接收（它以 LOC_QP_OP_ERR 完成，\n"
		 "      发送方 REM_OP_ERR），或者包的操作码顺序不对（两边都是 REM_INV_REQ_ERR）。这次运行里发送方重传过\n"
		 "      （它的 hw_counters/completer_retry_err 涨了）。实验室实测于 6.1.0-56（Debian 12）：负载下 --bench bw --op send -q 4 --srq\n"
		 "      偶尔出现；6.12 上没有出现（docs/KERNELS.md）。机器不那么忙时重跑，或换 6.12"),
		 release);
	return buf;
}
