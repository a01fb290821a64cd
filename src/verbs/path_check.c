/*
 * path_check.c - 两台机器之间的路径（见 path_check.h）
 *
 * 只处理 IPv4（RoCE v2 的 IPv4 映射 GID）；IPv6 或查不到路由时只说明、不阻拦。
 */
#include "verbs/path_check.h"
#include "console/i18n.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "control/ctrl.h"
#include "verbs/gid_table.h"

/* 最大的 RoCE v2 头部：IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + ICRC 4（RDMA WRITE Only with Immediate）；
 * diagnose.sh --peer 的路径 MTU 检查用同一个数 */
#define ROCE_HDR_BYTES 64

/* 连接的地址与对端 GID 是否一致（两台机器各自“以为”的对端地址要相同） */
static void check_addresses(struct rdma_conn *conn, const char *local_ip, const char *remote_ip)
{
	char reached[INET_ADDRSTRLEN];

	if (conn->opt->role == ROLE_CLIENT) {
		if (conn->peer.server_addr[0] && strcmp(conn->peer.server_addr, remote_ip) != 0)
			con_printf(_("  警告: 你连的服务端地址是 %s，但服务端通告的GID地址是 %s：RDMA 报文会发往 %s；\n"
			       "    到不了它的话 RTR/传输会失败。修复: 服务端用 -d/-g 选地址是 %s 的设备/条目（服务端运行 ./show_gids.sh）\n"),
			       conn->peer.server_addr, remote_ip, remote_ip, conn->peer.server_addr);
		return;
	}
	if (ctrl_local_ipv4(&conn->ctrl, reached, sizeof(reached)) != 0)
		return;
	if (strncmp(reached, "127.", 4) != 0 && strcmp(reached, local_ip) != 0)
		con_printf(_("  警告: 客户端连的是本机地址 %s，但本端GID通告的是 %s（网卡 %s）：客户端会把 RDMA 报文发往 %s；\n"
		       "    它到不了 %s 的话 RTR/传输会失败。修复: 服务端用 -d/-g 选地址是 %s 的设备/条目\n"),
		       reached, local_ip, conn->dev->gid.ndev, local_ip, local_ip, reached);
}

void path_check_before_rtr(struct rdma_conn *conn)
{
	struct route_info r;
	char local_ip[GID_IP_LEN], remote_ip[GID_IP_LEN], err[256];
	unsigned need = wire_mtu_bytes(conn->path_mtu) + ROCE_HDR_BYTES;

	if (!gid_is_ipv4_mapped(conn->dev->gid.raw) || !gid_is_ipv4_mapped(conn->remote.qp[0].gid)) {
		con_printf(_("路径检查: 只检查 IPv4 GID，这次跳过\n"));
		return;
	}
	gid_to_ip(conn->dev->gid.raw, local_ip);
	gid_to_ip(conn->remote.qp[0].gid, remote_ip);
	check_addresses(conn, local_ip, remote_ip);
	if (route_lookup(remote_ip, local_ip, &r, err, sizeof(err)) != 0) {
		con_printf(_("  警告: 路径检查: %s\n    后果: RTR 会以 ENETUNREACH/ETIMEDOUT 失败。修复: 两端的地址要能互通（ping %s）；./diagnose.sh --peer %s\n"),
		       err, remote_ip, remote_ip);
		return;
	}
	if (r.local) {
		con_printf(_("路径检查（RTR 之前）: 远端GID %s 是本机地址：两端在同一台机器、同一个设备上（回环），报文不经过网卡\n"),
		       remote_ip);
		return;
	}
	if (strcmp(r.ndev, conn->dev->gid.ndev) != 0) {
		con_printf(_("  警告: 路径检查: 本端GID %s 在网卡 %s 上，但内核从 %s 到 %s 的路由走 %s\n"
		       "    后果: RoCE 报文从 %s 的设备发出，却要经 %s 才能到对端：RTR 多半以 ETIMEDOUT 失败，或传输时 RETRY_EXC_ERR\n"
		       "    修复: 用建在 %s 上的 RDMA 设备（去掉 -d/-g 自动选择），或把 RDMA 设备建到 %s 上；./diagnose.sh --peer %s\n"),
		       local_ip, conn->dev->gid.ndev, local_ip, remote_ip, r.ndev, conn->dev->gid.ndev, r.ndev, r.ndev, r.ndev,
		       remote_ip);
		return;
	}
	con_printf(_("路径检查（RTR 之前）: 本端GID %s 在 %s 上，内核从 %s 到 %s 也走 %s —— 一致\n"), local_ip,
	       conn->dev->gid.ndev, local_ip, remote_ip, r.ndev);
	if (r.mtu != 0 && r.mtu < need)
		con_printf(_("  警告: 网卡 %s 的 MTU %u 装不下路径MTU %s 的包（还要 %d 字节 IP/UDP/BTH/RETH/ImmDt/ICRC 头，共 %u）：\n"
		       "    大消息的包会被丢弃，传输以 RETRY_EXC_ERR 结束。修复: sudo ip link set %s mtu %u，或让两端 active_mtu 变小\n"),
		       r.ndev, r.mtu, mtu_str(conn->path_mtu), ROCE_HDR_BYTES, need, r.ndev, need);
	else if (r.mtu != 0)
		con_printf(_("  网卡 %s 的 MTU %u ≥ 路径MTU %s + %d 字节 RoCE 头 —— 一致\n"), r.ndev, r.mtu,
		       mtu_str(conn->path_mtu), ROCE_HDR_BYTES);
}

void path_rtr_evidence(struct rdma_conn *conn, int i)
{
	struct route_info r;
	char local_ip[GID_IP_LEN], remote_ip[GID_IP_LEN], err[256], desc[256];

	if (!gid_is_ipv4_mapped(conn->dev->gid.raw) || !gid_is_ipv4_mapped(conn->remote.qp[i].gid))
		return;
	gid_to_ip(conn->dev->gid.raw, local_ip);
	gid_to_ip(conn->remote.qp[i].gid, remote_ip);
	if (route_lookup(remote_ip, local_ip, &r, err, sizeof(err)) != 0)
		snprintf(desc, sizeof(desc), "%s", err);
	else
		route_describe(&r, desc, sizeof(desc));
	con_eprintf(_("证据:\n  - 本端GID %s 在网卡 %s 上\n  - 内核从 %s 到 %s 的路由: %s\n"),
		local_ip, conn->dev->gid.ndev[0] ? conn->dev->gid.ndev : "?", local_ip, remote_ip, desc);
	if (r.ndev[0] && strcmp(r.ndev, conn->dev->gid.ndev) != 0)
		con_eprintf(_("  → 路由走 %s，GID 却在 %s 上：RDMA 设备建错了网卡\n"), r.ndev, conn->dev->gid.ndev);
	con_hint(_("在这台机器上运行 ./diagnose.sh --peer %s（对端也运行 ./diagnose.sh --peer <本机IP>）\n"),
		remote_ip);
}
