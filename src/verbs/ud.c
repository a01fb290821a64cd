/*
 * ud.c - --qp ud：地址句柄和 GRH（见 ud.h；QP 的三次转换在 rdma_common.c，数据面的收发在 op_rounds.c 的 SEND 两轮里）
 */
#include "verbs/ud.h"
#include "console/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/grh.h"

/* 地址句柄：RoCE 上一定带 GRH（目的 GID、本端 GID 索引、跳数），和 RC 在 RTR 时给 QP 的 ah_attr 是同一个结构 */
static int create_ah(struct rdma_conn *conn)
{
	struct ibv_ah_attr attr = {
		.is_global = 1,
		.port_num = (uint8_t)conn->opt->ib_port,
		.dlid = conn->remote.qp[0].lid,
		.grh = { .sgid_index = (uint8_t)conn->dev->gid.index, .hop_limit = 64 },
	};
	char gid[GID_STR_LEN];

	memcpy(attr.grh.dgid.raw, conn->remote.qp[0].gid, 16);
	gid_format(conn->remote.qp[0].gid, gid);
	conn->ah = ibv_create_ah(conn->dev->pd, &attr);
	if (conn->ah == NULL) {
		int err = errno;

		verbs_error("ibv_create_ah()", err, _("对端 GID 不可达（没有路由/邻居）或 GID 索引不对：./show_gids.sh、ip route get <对端IP>"));
		hook_note(NULL, conn, HOOK_FAILED, "ibv_create_ah", -1, err);
		return -1;
	}
	hook_note(NULL, conn, HOOK_AH, "ibv_create_ah", -1, 0);
	con_printf(_("地址句柄已创建（ibv_create_ah）: is_global=1 grh.dgid=%s grh.sgid_index=%u hop_limit=64 port=%d\n"),
		   gid, conn->dev->gid.index, conn->opt->ib_port);
	con_explain(_("RC 把这些放进 QP（RTR 的 ah_attr），一个QP只能发给一个对端；UD 把它做成单独的对象，每个发送 WR 带上它：\n"
		    "        一个 UD QP 可以发给任意多个对端（每个对端一个 AH）。本程序的对端只有一台机器，%d 个QP共用这一个 AH；\n"
		    "        WR 里还有对端的 QP 号（remote_qpn，QP[i] 发给对端的 QP[i]）和 Q_Key 0x%08x\n"), conn->num_qp, UD_QKEY);
	return 0;
}

int ud_prepare(struct rdma_conn *conn)
{
	uint32_t mtu = wire_mtu_bytes(conn->path_mtu);

	step_title(&conn->watch, &conn->step, _("创建地址句柄AH ibv_create_ah()（UD：每个发送 WR 自己带目的地）"));
	if (conn->opt->size > mtu) {
		con_error(_("UD 的消息 %zu 字节 > 路径MTU %u 字节：UD 不分段，一条消息必须装进一个包\n"
			  CON_HINT "--size 不超过 %u（路径MTU 是两端 active_mtu 的较小者）；更大的消息用 RC，网卡会按 MTU 切包\n"),
			  conn->opt->size, mtu, mtu);
		return -1;
	}
	con_printf(_("消息 %zu 字节 ≤ 路径MTU %u 字节：一条消息一个包（UD 不分段）\n"), conn->opt->size, mtu);
	return create_ah(conn);
}

/* 打印 GRH 的 40 字节和解出的地址 */
static void print_grh(const struct rdma_conn *conn, const struct ibv_wc *wc, const uint8_t *buf)
{
	struct grh_info g;
	char hex[160];

	grh_hex(buf, hex, sizeof(hex));
	con_printf(_("  QP[0] 接收缓冲区的前 %d 字节（IBV_WC_GRH：网卡放进来的，数据从第 %d 字节开始）:\n"), GRH_LEN, GRH_LEN);
	con_printf("    %.59s\n    %s\n", hex, hex + 60);
	if (grh_decode(buf, GRH_LEN, &g) != 0)
		return;
	if (g.kind == GRH_IPV4)
		con_printf(_("  RoCE v2 over IPv4：前 20 字节不用，后 20 字节是 IPv4 头 → 源 %s，目的 %s，TTL %u，IP 总长 %u\n"),
			   g.src, g.dst, g.ttl, g.ip_len);
	else
		con_printf(_("  GRH / IPv6 头 → 源 %s，目的 %s，hop limit %u，载荷长度 %u\n"), g.src, g.dst, g.ttl, g.ip_len);
	con_printf(_("  wc.src_qp=0x%06x（发送者的 QP 号）wc.byte_len=%u（= %d 字节 GRH + %zu 字节消息）\n"),
		   wc->src_qp, wc->byte_len, GRH_LEN, conn->opt->size);
	con_explain(_("UD 的 QP 不知道对端是谁：每条消息从哪里来，只能看完成里的 src_qp 和这 40 字节\n"));
}

int ud_check_recv(struct rdma_conn *conn, const struct ibv_wc *wc, int i, const uint8_t *buf, long r)
{
	if (!(wc->wc_flags & IBV_WC_GRH)) {
		con_error(_("QP[%d] 的 UD 接收完成没有 IBV_WC_GRH 标志\n" CON_HINT "RoCE 的 UD 报文总是经过路由（GRH/IP 头）；驱动的问题？\n"), i);
		return -1;
	}
	if (wc->src_qp != conn->remote.qp[i].qpn) {
		con_error(_("QP[%d] 收到的消息来自 QP 0x%06x，对端的 QP[%d] 是 0x%06x\n"
			  CON_HINT "UD 的 QP 谁都能发给它（只要 Q_Key 对）：看 src_qp 和 GRH 里的源地址是不是你以为的对端\n"),
			  i, wc->src_qp, i, conn->remote.qp[i].qpn);
		return -1;
	}
	if (i == 0 && r == 1)
		print_grh(conn, wc, buf);
	return 0;
}

void ud_explain_missing(void)
{
	con_hint(_("UD 没有确认、没有重传、没有 RNR：报文到达时本端没有投递接收请求（或 Q_Key/QP 号不对），网卡就把它丢掉，\n"
		 "      发送方的完成照样是成功——它只说明报文发出去了。先投递接收、再让对端发；要可靠就用 RC\n"));
}
