/*
 * selection.c - 用哪个设备、哪个 GID：选择的规则（见 selection.h）
 *
 * 这里只“决定”，打开设备、查询端口、读 GID 表这些 verbs 调用在 rdma_common.c 的步骤里。
 * 客户端知道服务端的地址，先按内核的路由选（只处理 IPv4，即 RoCE v2 的 IPv4 映射 GID）；路由帮不上忙时按分数选。
 */
#include "verbs/selection.h"
#include "console/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "verbs/gid_table.h"

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
static size_t collect_cands(const struct device_set *set, struct cand *c, size_t max)
{
	size_t k = 0;

	for (int d = 0; d < set->num_devices; d++) {
		struct gid_info *tbl = NULL;
		size_t n = 0;
		int active;
		char why[256];

		if (device_port_gids(set->dev_list[d], set->opt->ib_port, &active, &tbl, &n, why, sizeof(why)) != 0)
			continue;
		for (size_t i = 0; i < n && k < max; i++) {
			if (tbl[i].kind != GID_KIND_ROCE_V2 || !gid_is_ipv4_mapped(tbl[i].raw))
				continue;
			c[k].dev = set->dev_list[d];
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

void select_lookup_server(const struct options *opt, struct peer_route *peer)
{
	char err[256], desc[256];

	if (route_resolve_ipv4(opt->server_ip, peer->server_addr) != 0) {
		peer->server_addr[0] = '\0';
		con_printf(_("服务端地址 %s 不是 IPv4 地址：不按路由检查设备和GID\n"), opt->server_ip);
		return;
	}
	if (route_lookup(peer->server_addr, NULL, &peer->route, err, sizeof(err)) != 0) {
		con_printf(_("  警告: %s。先确认 ping %s 能通；./diagnose.sh --peer %s\n"), err, peer->server_addr,
		       peer->server_addr);
		return;
	}
	peer->route_known = 1;
	route_describe(&peer->route, desc, sizeof(desc));
	con_printf(_("到服务端 %s 的路由（内核路由表，等同 ip route get %s）: %s\n"), peer->server_addr,
	       peer->server_addr, desc);
}

/* 第一个没被占用的 rxeN 名字，用在修复命令里 */
static void free_rxe_name(const struct device_set *set, char *out, size_t len)
{
	for (int n = 0;; n++) {
		int used = 0;

		snprintf(out, len, "rxe%d", n);
		for (int d = 0; d < set->num_devices; d++)
			used |= strcmp(ibv_get_device_name(set->dev_list[d]), out) == 0;
		if (!used)
			return;
	}
}

/* 服务端地址是远端地址：选端口建在路由出口网卡上的设备 */
static int pick_on_netdev(const struct device_set *set, struct peer_route *peer, struct cand *c, size_t n, struct ibv_device **out)
{
	const struct route_info *r = &peer->route;
	int best = -1;
	char name[16], have[1024] = "";

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
		con_printf(_("按路由自动选择: %s —— 它的端口%d 建在 %s 上，GID索引%u 的地址是 %s（RoCE v2）\n"),
		       ibv_get_device_name(*out), set->opt->ib_port, r->ndev, c[best].index, c[best].ip);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		snprintf(have + strlen(have), sizeof(have) - strlen(have), _("%s%s 在 %s 上（%s%s）"), i ? _("；") : " ",
			 ibv_get_device_name(c[i].dev), c[i].ndev[0] ? c[i].ndev : "?", c[i].ip,
			 c[i].active ? "" : _("，端口不是 ACTIVE"));
	free_rxe_name(set, name, sizeof(name));
	con_error(_("到服务端 %s 的路由走网卡 %s（源地址 %s），但没有哪个 ACTIVE 的 RDMA 设备建在 %s 上\n"
		  "  现有:%s\n"
		  CON_HINT "RDMA 设备建错了网卡（常见：虚拟机的第二块网卡、NAT 网卡）。在通往服务端的网卡上建一个:\n"
		  "  sudo rdma link add %s type rxe netdev %s\n"
		  "  再运行 ./diagnose.sh --peer %s 检查；或者用 -d 指定设备、亲眼看看 RTR 怎样失败\n"),
		  peer->server_addr, r->ndev, r->src, r->ndev, n == 0 ? _(" 没有任何设备有 RoCE v2 IPv4 条目") : have,
		  name, r->ndev, peer->server_addr);
	return -1;
}

/* 服务端地址是本机地址（单机实验室、地址重复的虚拟机）：用每个条目的地址作源地址再查路由 */
static int pick_for_local_server(struct peer_route *peer, struct cand *c, size_t n, struct ibv_device **out)
{
	int best = -1;

	con_printf(_("  服务端地址是本机自己的地址（单机实验室；在两台虚拟机上出现则说明两台的地址重复了），\n"
	       "  普通的路由查询给不出出口网卡，改用每个设备自己的地址作源地址再查:\n"));
	for (size_t i = 0; i < n; i++) {
		struct route_info r;
		char err[256], desc[256];
		int ok;

		if (!c[i].active)
			continue;
		if (c[i].index > GID_AUTO_MAX_INDEX) {
			con_printf(_("  - %s（%s，网卡 %s）: GID索引 %u 大于 %u，RTR 的 sgid_index 放不下，不能用\n"),
				   ibv_get_device_name(c[i].dev), c[i].ip, c[i].ndev, c[i].index, GID_AUTO_MAX_INDEX);
			continue;
		}
		ok = route_lookup(peer->server_addr, c[i].ip, &r, err, sizeof(err)) == 0;
		if (ok)
			route_describe(&r, desc, sizeof(desc));
		else
			snprintf(desc, sizeof(desc), "%s", err);
		ok = ok && !r.local && strcmp(r.ndev, c[i].ndev) == 0;
		con_printf(_("  - %s（%s，网卡 %s）: %s%s\n"), ibv_get_device_name(c[i].dev), c[i].ip, c[i].ndev, desc,
		       ok ? _("  ← 经自己的网卡通往服务端") : "");
		if (ok && best < 0)
			best = (int)i;
	}
	if (best < 0) {
		con_printf(_("  没有哪个设备的地址能经自己的网卡到达服务端（两端多半在同一个设备上，回环）：按原来的规则选\n"));
		return 0;
	}
	*out = c[best].dev;
	snprintf(peer->want_src, sizeof(peer->want_src), "%s", c[best].ip);
	con_printf(_("按路由自动选择: %s（从 %s 发出的报文经 %s 到达服务端）\n"), ibv_get_device_name(*out),
	       c[best].ip, c[best].ndev);
	return 1;
}

static int pick_by_route(const struct device_set *set, struct peer_route *peer, struct ibv_device **out)
{
	struct cand *c;
	size_t n;
	int rc;

	if (!peer->route_known)
		return 0;
	c = calloc(MAX_CANDS, sizeof(*c));
	if (c == NULL)
		return 0;
	n = collect_cands(set, c, MAX_CANDS);
	rc = peer->route.local ? pick_for_local_server(peer, c, n, out) : pick_on_netdev(set, peer, c, n, out);
	free(c);
	return rc;
}

void select_warn_if_off_route(const char *dev_name, const struct gid_info *gid, const struct peer_route *peer)
{
	struct route_info r;
	char ip[GID_IP_LEN], err[256];

	if (!peer->route_known || !gid_is_ipv4_mapped(gid->raw))
		return;
	gid_to_ip(gid->raw, ip);
	if (peer->route.local) {
		/* 服务端在本机：从这个GID的地址出发查，回环（local）或经自己的网卡都没问题 */
		if (route_lookup(peer->server_addr, ip, &r, err, sizeof(err)) == 0 &&
		    (r.local || strcmp(r.ndev, gid->ndev) == 0))
			return;
	} else if (strcmp(peer->route.ndev, gid->ndev) == 0 && strcmp(peer->route.src, ip) == 0) {
		return;
	}
	con_printf(_("  警告: 选中的 %s GID索引%u（%s，网卡 %s）不在通往服务端 %s 的路上：内核走 %s，源地址 %s\n"
	       "    后果: RTR 时内核按 %s → %s 找路由和邻居，多半以 ETIMEDOUT/ENETUNREACH 失败，或传输时 RETRY_EXC_ERR\n"
	       "    修复: 去掉 -d/-g 让程序按路由选择，或用 -d 选建在 %s 上的设备；./diagnose.sh --peer %s\n"),
	       dev_name, gid->index, ip, gid->ndev, peer->server_addr,
	       peer->route.local ? _("lo（服务端是本机地址）") : peer->route.ndev, peer->route.local ? ip : peer->route.src,
	       ip, peer->server_addr, peer->route.local ? _("通往服务端的网卡") : peer->route.ndev, peer->server_addr);
}

/* 自动选设备时给每个设备打分：2 = 端口ACTIVE且有RoCE v2 IPv4 GID，1 = 端口ACTIVE，0 = 其它 */
static int probe_device(struct ibv_device *ibdev, int port, char *why, size_t len)
{
	struct gid_info *tbl = NULL;
	size_t n = 0;
	int score = 0, best, active;

	if (device_port_gids(ibdev, port, &active, &tbl, &n, why, len) != 0)
		return active ? 1 : 0;
	if (!active) {
		score = 0;
	} else if ((best = gid_choose(tbl, n)) >= 0 && gid_score(&tbl[best]) >= 6) {
		char desc[128];

		gid_describe(&tbl[best], desc, sizeof(desc));
		snprintf(why, len, _("端口%d ACTIVE，有 RoCE v2 IPv4 GID（索引%u: %s）"), port, tbl[best].index, desc);
		score = 2;
	} else {
		snprintf(why, len, _("端口%d ACTIVE，但没有 RoCE v2 IPv4 GID"), port);
		score = 1;
	}
	free(tbl);
	return score;
}

static struct ibv_device *find_named(const struct device_set *set, const char *name)
{
	for (int i = 0; i < set->num_devices; i++)
		if (strcmp(ibv_get_device_name(set->dev_list[i]), name) == 0)
			return set->dev_list[i];
	return NULL;
}

static struct ibv_device *pick_automatically(const struct device_set *set, struct peer_route *peer)
{
	struct ibv_device *best = NULL;
	int best_score = -2;

	/* 客户端知道服务端的地址：先按路由选（path_check.c）；路由帮不上忙时才按分数选 */
	if (set->opt->role == ROLE_CLIENT) {
		int r = pick_by_route(set, peer, &best);

		if (r != 0)
			return r > 0 ? best : NULL;
	}

	con_printf(_("未指定设备，逐个检查（-d 可指定）：\n"));
	for (int i = 0; i < set->num_devices; i++) {
		char why[256];
		int s = probe_device(set->dev_list[i], set->opt->ib_port, why, sizeof(why));

		con_printf("  - %s: %s\n", ibv_get_device_name(set->dev_list[i]), why);
		if (s > best_score) {
			best = set->dev_list[i];
			best_score = s;
		}
	}
	if (best != NULL)
		con_printf(_("自动选择: %s（第一个%s的设备）\n"), ibv_get_device_name(best),
		       best_score == 2 ? _("端口ACTIVE且有RoCE v2 IPv4 GID") :
		       best_score == 1 ? _("端口ACTIVE") : _("可用"));
	return best;
}

struct ibv_device *select_device(const struct device_set *set, struct peer_route *peer)
{
	struct ibv_device *ibdev;
	char have[1024] = "";

	if (set->opt->dev_name == NULL)
		return pick_automatically(set, peer);
	ibdev = find_named(set, set->opt->dev_name);
	if (ibdev != NULL)
		return ibdev;
	for (int i = 0; i < set->num_devices; i++)
		snprintf(have + strlen(have), sizeof(have) - strlen(have), " %s", ibv_get_device_name(set->dev_list[i]));
	con_error(_("找不到RDMA设备 '%s'。现有设备:%s\n" CON_HINT "用 ibv_devices 查看设备名，再用 -d <设备名> 指定\n"),
		  set->opt->dev_name, have);
	return NULL;
}

/* 步骤4 -g：检查指定的条目（不存在、空、类型不对是错误；能用但不推荐是警告） */
static const struct gid_info *explicit_gid(const struct gid_info *tbl, size_t n, int tbl_len,
					   const struct options *opt)
{
	char msg[512];
	enum gid_verdict v = gid_check_explicit(tbl, n, tbl_len, opt->gid_idx, msg, sizeof(msg));
	const struct gid_info *g;

	if (v == GID_VERDICT_ERROR) {
		con_error("%s\n", msg);
		return NULL;
	}
	g = gid_find(tbl, n, (uint32_t)opt->gid_idx);
	con_printf(_("使用指定的GID（-g %d）:\n"), opt->gid_idx);
	gid_print_row(g, "→ ");
	if (v == GID_VERDICT_WARN)
		con_printf(_("  警告: %s\n"), msg);
	return g;
}

const struct gid_info *select_gid(const struct gid_info *tbl, size_t n, int tbl_len, const struct options *opt,
				  const struct peer_route *peer, int route_index)
{
	const struct gid_info *route = route_index >= 0 ? gid_find(tbl, n, (uint32_t)route_index) : NULL;
	char msg[768];
	int pick;

	if (opt->gid_idx != GID_AUTO)
		return explicit_gid(tbl, n, tbl_len, opt);
	if (gid_count_unreachable(tbl, n) > 0)
		con_printf(_("  注意: 跳过了 %zu 个索引大于 %u 的条目：RTR 的 ah_attr.grh.sgid_index 只有 8 位，放不下它们\n"),
			   gid_count_unreachable(tbl, n), GID_AUTO_MAX_INDEX);
	pick = route != NULL ? (int)(route - tbl) : -1;
	if (pick < 0 && peer->want_src[0] && gid_route_src_beyond(tbl, n, peer->want_src, msg, sizeof(msg)) >= 0)
		con_printf(_("  警告: %s\n"), msg);   /* 不悄悄换成别的地址（-d/-g 时是 select_warn_if_off_route） */
	if (pick >= 0) {
		con_printf(_("按路由选择（到服务端的报文用源地址 %s）:\n"), peer->want_src);
		gid_print_row(&tbl[pick], "→ ");
		con_printf(_("  原因: RoCE v2 报文的源IP就是本端GID里的地址，必须是内核通往对端时用的那个地址\n"));
		return &tbl[pick];
	}
	pick = gid_choose(tbl, n);
	if (pick < 0) {
		con_error(_("端口 %d 没有任何可用的GID\n" CON_HINT "绑定的网卡没有IP地址？sudo ip addr add <IP>/24 dev <网卡>；运行 ./diagnose.sh\n"),
			    opt->ib_port);
		return NULL;
	}
	con_printf(_("自动选择:\n"));
	gid_print_row(&tbl[pick], "→ ");
	con_printf(_("  原因: 优先 RoCE v2（UDP/IP封装，可路由）> IPv4映射地址 > 非链路本地地址；同分取最小索引\n"));
	if (gid_score(&tbl[pick]) < 6)
		con_printf(_("  警告: 没有 RoCE v2 + IPv4 的条目，用的是次优条目；对端也必须用同类GID\n"));
	return &tbl[pick];
}
