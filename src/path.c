/*
 * path.c - 两台机器之间的路径（见 path.h）
 *
 * 只处理 IPv4（RoCE v2 的 IPv4 映射 GID）；IPv6 或查不到路由时只说明、不阻拦。
 */
#include "path.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conout.h"
#include "console.h"
#include "ctrl.h"
#include "gid_table.h"

/* 最大的 RoCE v2 头部：IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ImmDt 4 + ICRC 4（RDMA WRITE Only with Immediate）；
 * diagnose.sh --peer 的路径 MTU 检查用同一个数 */
#define ROCE_HDR_BYTES 64
#define MAX_CANDS      64

/* 某个设备端口上的一个 RoCE v2 IPv4 条目 */
struct cand {
	struct ibv_device *dev;
	int active;
	uint32_t index;
	char ip[GID_IP_LEN];
	char ndev[32];
};

/* 收集所有设备（端口 opt->ib_port）上的 RoCE v2 IPv4 条目 */
static size_t collect_cands(const struct rdma_device *dev, struct cand *c, size_t max)
{
	size_t k = 0;

	for (int d = 0; d < dev->num_devices; d++) {
		struct gid_info *tbl = NULL;
		size_t n = 0;
		int active;
		char why[256];

		if (device_port_gids(dev->dev_list[d], dev->opt->ib_port, &active, &tbl, &n, why, sizeof(why)) != 0)
			continue;
		for (size_t i = 0; i < n && k < max; i++) {
			if (tbl[i].kind != GID_KIND_ROCE_V2 || !gid_is_ipv4_mapped(tbl[i].raw))
				continue;
			c[k].dev = dev->dev_list[d];
			c[k].active = active;
			c[k].index = tbl[i].index;
			gid_to_ip(tbl[i].raw, c[k].ip);
			snprintf(c[k].ndev, sizeof(c[k].ndev), "%s", tbl[i].ndev);
			k++;
		}
		free(tbl);
	}
	return k;
}

void path_lookup_server(const struct options *opt, struct peer_route *peer)
{
	char err[256], desc[256];

	if (route_resolve_ipv4(opt->server_ip, peer->server_addr) != 0) {
		peer->server_addr[0] = '\0';
		con_printf("服务端地址 %s 不是 IPv4 地址：不按路由检查设备和GID\n", opt->server_ip);
		return;
	}
	if (route_lookup(peer->server_addr, NULL, &peer->route, err, sizeof(err)) != 0) {
		con_printf("  警告: %s。先确认 ping %s 能通；./diagnose.sh --peer %s\n", err, peer->server_addr,
		       peer->server_addr);
		return;
	}
	peer->route_known = 1;
	route_describe(&peer->route, desc, sizeof(desc));
	con_printf("到服务端 %s 的路由（内核路由表，等同 ip route get %s）: %s\n", peer->server_addr,
	       peer->server_addr, desc);
}

/* 第一个没被占用的 rxeN 名字，用在修复命令里 */
static void free_rxe_name(const struct rdma_device *dev, char *out, size_t len)
{
	for (int n = 0;; n++) {
		int used = 0;

		snprintf(out, len, "rxe%d", n);
		for (int d = 0; d < dev->num_devices; d++)
			used |= strcmp(ibv_get_device_name(dev->dev_list[d]), out) == 0;
		if (!used)
			return;
	}
}

/* 服务端地址是远端地址：选端口建在路由出口网卡上的设备 */
static int pick_on_netdev(const struct rdma_device *dev, struct peer_route *peer, struct cand *c, size_t n, struct ibv_device **out)
{
	const struct route_info *r = &peer->route;
	int best = -1;
	char name[16];

	for (size_t i = 0; i < n; i++) {
		if (!c[i].active || strcmp(c[i].ndev, r->ndev) != 0)
			continue;
		if (best < 0 || strcmp(c[i].ip, r->src) == 0)
			best = (int)i;
		if (strcmp(c[i].ip, r->src) == 0)
			break;
	}
	if (best >= 0) {
		*out = c[best].dev;
		snprintf(peer->want_src, sizeof(peer->want_src), "%s", r->src);
		con_printf("按路由自动选择: %s —— 它的端口%d 建在 %s 上，GID索引%u 的地址是 %s（RoCE v2）\n",
		       ibv_get_device_name(*out), dev->opt->ib_port, r->ndev, c[best].index, c[best].ip);
		return 1;
	}
	con_eprintf("错误: 到服务端 %s 的路由走网卡 %s（源地址 %s），但没有哪个 ACTIVE 的 RDMA 设备建在 %s 上\n",
		peer->server_addr, r->ndev, r->src, r->ndev);
	con_eprintf("  现有:");
	for (size_t i = 0; i < n; i++)
		con_eprintf("%s%s 在 %s 上（%s%s）", i ? "；" : " ", ibv_get_device_name(c[i].dev),
			c[i].ndev[0] ? c[i].ndev : "?", c[i].ip, c[i].active ? "" : "，端口不是 ACTIVE");
	if (n == 0)
		con_eprintf(" 没有任何设备有 RoCE v2 IPv4 条目");
	free_rxe_name(dev, name, sizeof(name));
	con_eprintf("\n提示: RDMA 设备建错了网卡（常见：虚拟机的第二块网卡、NAT 网卡）。在通往服务端的网卡上建一个:\n"
		"  sudo rdma link add %s type rxe netdev %s\n"
		"  再运行 ./diagnose.sh --peer %s 检查；或者用 -d 指定设备、亲眼看看 RTR 怎样失败\n",
		name, r->ndev, peer->server_addr);
	return -1;
}

/* 服务端地址是本机地址（单机实验室、地址重复的虚拟机）：用每个条目的地址作源地址再查路由 */
static int pick_for_local_server(struct peer_route *peer, struct cand *c, size_t n, struct ibv_device **out)
{
	int best = -1;

	con_printf("  服务端地址是本机自己的地址（单机实验室；在两台虚拟机上出现则说明两台的地址重复了），\n"
	       "  普通的路由查询给不出出口网卡，改用每个设备自己的地址作源地址再查:\n");
	for (size_t i = 0; i < n; i++) {
		struct route_info r;
		char err[256], desc[256];
		int ok;

		if (!c[i].active)
			continue;
		ok = route_lookup(peer->server_addr, c[i].ip, &r, err, sizeof(err)) == 0;
		if (ok)
			route_describe(&r, desc, sizeof(desc));
		else
			snprintf(desc, sizeof(desc), "%s", err);
		ok = ok && !r.local && strcmp(r.ndev, c[i].ndev) == 0;
		con_printf("  - %s（%s，网卡 %s）: %s%s\n", ibv_get_device_name(c[i].dev), c[i].ip, c[i].ndev, desc,
		       ok ? "  ← 经自己的网卡通往服务端" : "");
		if (ok && best < 0)
			best = (int)i;
	}
	if (best < 0) {
		con_printf("  没有哪个设备的地址能经自己的网卡到达服务端（两端多半在同一个设备上，回环）：按原来的规则选\n");
		return 0;
	}
	*out = c[best].dev;
	snprintf(peer->want_src, sizeof(peer->want_src), "%s", c[best].ip);
	con_printf("按路由自动选择: %s（从 %s 发出的报文经 %s 到达服务端）\n", ibv_get_device_name(*out),
	       c[best].ip, c[best].ndev);
	return 1;
}

int path_pick_device(const struct rdma_device *dev, struct peer_route *peer, struct ibv_device **out)
{
	struct cand *c;
	size_t n;
	int rc;

	if (!peer->route_known)
		return 0;
	c = calloc(MAX_CANDS, sizeof(*c));
	if (c == NULL)
		return 0;
	n = collect_cands(dev, c, MAX_CANDS);
	rc = peer->route.local ? pick_for_local_server(peer, c, n, out) : pick_on_netdev(dev, peer, c, n, out);
	free(c);
	return rc;
}

void path_warn_if_off_route(const struct rdma_device *dev, const struct peer_route *peer)
{
	struct route_info r;
	char ip[GID_IP_LEN], err[256];

	if (!peer->route_known || !gid_is_ipv4_mapped(dev->gid.raw))
		return;
	gid_to_ip(dev->gid.raw, ip);
	if (peer->route.local) {
		/* 服务端在本机：从这个GID的地址出发查，回环（local）或经自己的网卡都没问题 */
		if (route_lookup(peer->server_addr, ip, &r, err, sizeof(err)) == 0 &&
		    (r.local || strcmp(r.ndev, dev->gid.ndev) == 0))
			return;
	} else if (strcmp(peer->route.ndev, dev->gid.ndev) == 0 && strcmp(peer->route.src, ip) == 0) {
		return;
	}
	con_printf("  警告: 选中的 %s GID索引%u（%s，网卡 %s）不在通往服务端 %s 的路上：内核走 %s，源地址 %s\n"
	       "    后果: RTR 时内核按 %s → %s 找路由和邻居，多半以 ETIMEDOUT/ENETUNREACH 失败，或传输时 RETRY_EXC_ERR\n"
	       "    修复: 去掉 -d/-g 让程序按路由选择，或用 -d 选建在 %s 上的设备；./diagnose.sh --peer %s\n",
	       dev->dev_name, dev->gid.index, ip, dev->gid.ndev, peer->server_addr,
	       peer->route.local ? "lo（服务端是本机地址）" : peer->route.ndev, peer->route.local ? ip : peer->route.src,
	       ip, peer->server_addr, peer->route.local ? "通往服务端的网卡" : peer->route.ndev, peer->server_addr);
}

/* 连接的地址与对端 GID 是否一致（两台机器各自“以为”的对端地址要相同） */
static void check_addresses(struct rdma_conn *conn, const char *local_ip, const char *remote_ip)
{
	char reached[INET_ADDRSTRLEN];

	if (conn->opt->role == ROLE_CLIENT) {
		if (conn->peer.server_addr[0] && strcmp(conn->peer.server_addr, remote_ip) != 0)
			con_printf("  警告: 你连的服务端地址是 %s，但服务端通告的GID地址是 %s：RDMA 报文会发往 %s；\n"
			       "    到不了它的话 RTR/传输会失败。修复: 服务端用 -d/-g 选地址是 %s 的设备/条目（服务端运行 ./show_gids.sh）\n",
			       conn->peer.server_addr, remote_ip, remote_ip, conn->peer.server_addr);
		return;
	}
	if (ctrl_local_ipv4(&conn->ctrl, reached, sizeof(reached)) != 0)
		return;
	if (strncmp(reached, "127.", 4) != 0 && strcmp(reached, local_ip) != 0)
		con_printf("  警告: 客户端连的是本机地址 %s，但本端GID通告的是 %s（网卡 %s）：客户端会把 RDMA 报文发往 %s；\n"
		       "    它到不了 %s 的话 RTR/传输会失败。修复: 服务端用 -d/-g 选地址是 %s 的设备/条目\n",
		       reached, local_ip, conn->dev->gid.ndev, local_ip, local_ip, reached);
}

void path_check_before_rtr(struct rdma_conn *conn)
{
	struct route_info r;
	char local_ip[GID_IP_LEN], remote_ip[GID_IP_LEN], err[256];
	unsigned need = wire_mtu_bytes(conn->path_mtu) + ROCE_HDR_BYTES;

	if (!gid_is_ipv4_mapped(conn->dev->gid.raw) || !gid_is_ipv4_mapped(conn->remote.qp[0].gid)) {
		con_printf("路径检查: 只检查 IPv4 GID，这次跳过\n");
		return;
	}
	gid_to_ip(conn->dev->gid.raw, local_ip);
	gid_to_ip(conn->remote.qp[0].gid, remote_ip);
	check_addresses(conn, local_ip, remote_ip);
	if (route_lookup(remote_ip, local_ip, &r, err, sizeof(err)) != 0) {
		con_printf("  警告: 路径检查: %s\n    后果: RTR 会以 ENETUNREACH/ETIMEDOUT 失败。修复: 两端的地址要能互通（ping %s）；./diagnose.sh --peer %s\n",
		       err, remote_ip, remote_ip);
		return;
	}
	if (r.local) {
		con_printf("路径检查（RTR 之前）: 远端GID %s 是本机地址：两端在同一台机器、同一个设备上（回环），报文不经过网卡\n",
		       remote_ip);
		return;
	}
	if (strcmp(r.ndev, conn->dev->gid.ndev) != 0) {
		con_printf("  警告: 路径检查: 本端GID %s 在网卡 %s 上，但内核从 %s 到 %s 的路由走 %s\n"
		       "    后果: RoCE 报文从 %s 的设备发出，却要经 %s 才能到对端：RTR 多半以 ETIMEDOUT 失败，或传输时 RETRY_EXC_ERR\n"
		       "    修复: 用建在 %s 上的 RDMA 设备（去掉 -d/-g 自动选择），或把 RDMA 设备建到 %s 上；./diagnose.sh --peer %s\n",
		       local_ip, conn->dev->gid.ndev, local_ip, remote_ip, r.ndev, conn->dev->gid.ndev, r.ndev, r.ndev, r.ndev,
		       remote_ip);
		return;
	}
	con_printf("路径检查（RTR 之前）: 本端GID %s 在 %s 上，内核从 %s 到 %s 也走 %s —— 一致\n", local_ip,
	       conn->dev->gid.ndev, local_ip, remote_ip, r.ndev);
	if (r.mtu != 0 && r.mtu < need)
		con_printf("  警告: 网卡 %s 的 MTU %u 装不下路径MTU %s 的包（还要 %d 字节 IP/UDP/BTH/RETH/ImmDt/ICRC 头，共 %u）：\n"
		       "    大消息的包会被丢弃，传输以 RETRY_EXC_ERR 结束。修复: sudo ip link set %s mtu %u，或让两端 active_mtu 变小\n",
		       r.ndev, r.mtu, mtu_str(conn->path_mtu), ROCE_HDR_BYTES, need, r.ndev, need);
	else if (r.mtu != 0)
		con_printf("  网卡 %s 的 MTU %u ≥ 路径MTU %s + %d 字节 RoCE 头 —— 一致\n", r.ndev, r.mtu,
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
	con_eprintf("证据:\n  - 本端GID %s 在网卡 %s 上\n  - 内核从 %s 到 %s 的路由: %s\n",
		local_ip, conn->dev->gid.ndev[0] ? conn->dev->gid.ndev : "?", local_ip, remote_ip, desc);
	if (r.ndev[0] && strcmp(r.ndev, conn->dev->gid.ndev) != 0)
		con_eprintf("  → 路由走 %s，GID 却在 %s 上：RDMA 设备建错了网卡\n", r.ndev, conn->dev->gid.ndev);
	con_eprintf("提示: 在这台机器上运行 ./diagnose.sh --peer %s（对端也运行 ./diagnose.sh --peer <本机IP>）\n",
		remote_ip);
}
