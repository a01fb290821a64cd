/*
 * gid.c - GID 的格式化、分类与自动选择
 */
#include "verbs/gid.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

int gid_is_empty(const uint8_t raw[16])
{
	for (int i = 0; i < 16; i++)
		if (raw[i] != 0)
			return 0;
	return 1;
}

/* ::ffff:a.b.c.d —— 前 10 字节为 0，接着两个 0xff */
int gid_is_ipv4_mapped(const uint8_t raw[16])
{
	for (int i = 0; i < 10; i++)
		if (raw[i] != 0)
			return 0;
	return raw[10] == 0xff && raw[11] == 0xff;
}

/* fe80::/10 */
int gid_is_link_local(const uint8_t raw[16])
{
	return raw[0] == 0xfe && (raw[1] & 0xc0) == 0x80;
}

int gid_score(const struct gid_info *g)
{
	int score;

	if (gid_is_empty(g->raw))
		return -1;
	score = (g->kind == GID_KIND_ROCE_V2) ? 4 : 0;
	if (gid_is_ipv4_mapped(g->raw))
		score += 2;
	else if (!gid_is_link_local(g->raw))
		score += 1;
	return score;
}

void gid_format(const uint8_t raw[16], char out[GID_STR_LEN])
{
	for (int i = 0; i < 8; i++)
		snprintf(out + i * 5, GID_STR_LEN - (size_t)i * 5, "%02x%02x%s",
			 raw[2 * i], raw[2 * i + 1], i < 7 ? ":" : "");
}

void gid_to_ip(const uint8_t raw[16], char out[GID_IP_LEN])
{
	if (gid_is_ipv4_mapped(raw)) {
		snprintf(out, GID_IP_LEN, "%u.%u.%u.%u", raw[12], raw[13], raw[14], raw[15]);
		return;
	}
	if (inet_ntop(AF_INET6, raw, out, GID_IP_LEN) == NULL)
		snprintf(out, GID_IP_LEN, "?");
}

void gid_describe(const struct gid_info *g, char *out, size_t len)
{
	char ip[GID_IP_LEN];
	const char *family;

	gid_to_ip(g->raw, ip);
	if (gid_is_ipv4_mapped(g->raw))
		family = "IPv4";
	else if (gid_is_link_local(g->raw))
		family = _("IPv6链路本地");
	else
		family = "IPv6";
	snprintf(out, len, "%s, %s %s%s%s", gid_kind_name(g->kind), family, ip,
		 g->ndev[0] ? _(", 网卡 ") : "", g->ndev);
}

int gid_choose(const struct gid_info *tbl, size_t n)
{
	int best = -1;
	int best_score = -1;

	for (size_t i = 0; i < n; i++) {
		int s = tbl[i].index > GID_AUTO_MAX_INDEX ? -1 : gid_score(&tbl[i]);

		if (s > best_score ||
		    (s == best_score && s >= 0 && tbl[i].index < tbl[best].index)) {
			best = (int)i;
			best_score = s;
		}
	}
	return best;
}

size_t gid_count_unreachable(const struct gid_info *tbl, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (tbl[i].index > GID_AUTO_MAX_INDEX && !gid_is_empty(tbl[i].raw))
			k++;
	return k;
}

const struct gid_info *gid_find(const struct gid_info *tbl, size_t n, uint32_t index)
{
	for (size_t i = 0; i < n; i++)
		if (tbl[i].index == index && !gid_is_empty(tbl[i].raw))
			return &tbl[i];
	return NULL;
}

static void auto_hint(const struct gid_info *tbl, size_t n, char *buf, size_t len)
{
	int best = gid_choose(tbl, n);
	char desc[128];

	if (best < 0) {
		snprintf(buf, len, _("该端口的GID表是空的：网卡没有IP地址？运行 ./diagnose.sh"));
		return;
	}
	gid_describe(&tbl[best], desc, sizeof(desc));
	snprintf(buf, len, _("自动选择会用索引 %u（%s）：去掉 -g 或用 -g %u"),
		 tbl[best].index, desc, tbl[best].index);
}

enum gid_verdict gid_check_explicit(const struct gid_info *tbl, size_t n,
				    int table_len, int index,
				    char *msg, size_t msglen)
{
	const struct gid_info *g;
	char hint[256];
	char desc[128];

	auto_hint(tbl, n, hint, sizeof(hint));
	if (index < 0 || index >= table_len) {
		snprintf(msg, msglen, _("GID索引 %d 超出范围（该端口的GID表有 %d 项: 0..%d）。%s"),
			 index, table_len, table_len - 1, hint);
		return GID_VERDICT_ERROR;
	}
	g = gid_find(tbl, n, (uint32_t)index);
	if (g == NULL) {
		snprintf(msg, msglen, _("GID索引 %d 是空条目（全0，没有地址对应它）。%s"), index, hint);
		return GID_VERDICT_ERROR;
	}
	gid_describe(g, desc, sizeof(desc));
	if (g->kind != GID_KIND_ROCE_V2) {
		snprintf(msg, msglen, _("GID索引 %d 是 %s 条目（%s），不是 RoCE v2；对端若用 RoCE v2 将无法通信。%s"),
			 index, gid_kind_name(g->kind), desc, hint);
		return GID_VERDICT_WARN;
	}
	if (gid_is_link_local(g->raw)) {
		snprintf(msg, msglen, _("GID索引 %d 是链路本地地址（%s），只在同一二层网段有效，且两端必须都用IPv6。%s"),
			 index, desc, hint);
		return GID_VERDICT_WARN;
	}
	snprintf(msg, msglen, _("GID索引 %d: %s"), index, desc);
	return GID_VERDICT_OK;
}

int gid_route_src_beyond(const struct gid_info *tbl, size_t n, const char *ip, char *msg, size_t len)
{
	char a[GID_IP_LEN];

	if (gid_find_ipv4(tbl, n, ip) >= 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (tbl[i].kind != GID_KIND_ROCE_V2 || !gid_is_ipv4_mapped(tbl[i].raw))
			continue;
		gid_to_ip(tbl[i].raw, a);
		if (strcmp(a, ip) != 0)
			continue;
		snprintf(msg, len, _("通往服务端的源地址 %s 在这个端口的GID表里只有索引 %u 的条目：大于 %u，"
				     "RTR 的 ah_attr.grh.sgid_index 只有 8 位，放不下它。\n"
				     "    只能改用别的地址（下面选的），它不是内核通往服务端时用的源地址：RTR 或传输多半失败。\n"
				     "    修复: 删掉这个端口上用不到的地址或 VLAN，再把 %s 删了重加（ip addr del/add），"
				     "新加的地址占GID表里第一个空位；./show_gids.sh 看索引"),
			 ip, tbl[i].index, GID_AUTO_MAX_INDEX, ip);
		return (int)tbl[i].index;
	}
	return -1;
}

int gid_find_ipv4(const struct gid_info *tbl, size_t n, const char *ip)
{
	char a[GID_IP_LEN];

	for (size_t i = 0; i < n; i++) {
		if (tbl[i].kind != GID_KIND_ROCE_V2 || !gid_is_ipv4_mapped(tbl[i].raw) ||
		    tbl[i].index > GID_AUTO_MAX_INDEX)
			continue;
		gid_to_ip(tbl[i].raw, a);
		if (strcmp(a, ip) == 0)
			return (int)i;
	}
	return -1;
}

static int is_cm_candidate(const struct gid_info *g, const uint8_t sgid[16])
{
	return memcmp(g->raw, sgid, 16) == 0 && (g->kind == GID_KIND_ROCE_V1 || g->kind == GID_KIND_ROCE_V2);
}

int gid_find_cm(const struct gid_info *tbl, size_t n, const uint8_t sgid[16], int cm_index)
{
	int v1 = -1;

	for (size_t i = 0; i < n; i++) {
		if (!is_cm_candidate(&tbl[i], sgid))
			continue;
		if (cm_index >= 0 && tbl[i].index == (uint32_t)cm_index)
			return (int)i;
		if (cm_index < 0 && tbl[i].kind == GID_KIND_ROCE_V2)
			return (int)i;
		if (cm_index < 0 && v1 < 0)
			v1 = (int)i;
	}
	return v1;
}
