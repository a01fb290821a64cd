/*
 * gid_table.c - 读设备端口的 GID 表（ibv_query_gid_table），见 gid_table.h
 */
#include "verbs/gid_table.h"
#include "console/i18n.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/conout.h"
#include "console/verbs_print.h"

int read_gid_table(struct ibv_context *ctx, int port, int tbl_len,
		   int phys_ports, struct gid_info **out, size_t *n)
{
	size_t max = (size_t)tbl_len * (size_t)(phys_ports > 0 ? phys_ports : 1);
	struct ibv_gid_entry *ent = calloc(max ? max : 1, sizeof(*ent));
	struct gid_info *tbl = calloc(max ? max : 1, sizeof(*tbl));
	ssize_t got;
	size_t k = 0;

	if (ent == NULL || tbl == NULL) {
		free(ent);
		free(tbl);
		con_error(_("内存不足\n"));
		return -1;
	}
	got = ibv_query_gid_table(ctx, ent, max, 0);
	if (got < 0) {
		verbs_error("ibv_query_gid_table()", (int)-got,
			    _("rdma-core 太旧（需要 ≥ v32）或设备不支持；ls /sys/class/infiniband/*/ports/*/gids/"));
		free(ent);
		free(tbl);
		return -1;
	}
	for (ssize_t i = 0; i < got; i++) {
		char name[IF_NAMESIZE] = "";

		if ((int)ent[i].port_num != port)
			continue;
		tbl[k].index = ent[i].gid_index;
		memcpy(tbl[k].raw, ent[i].gid.raw, 16);
		tbl[k].kind = (enum gid_kind)ent[i].gid_type;
		if (ent[i].ndev_ifindex != 0 && if_indextoname(ent[i].ndev_ifindex, name) != NULL)
			snprintf(tbl[k].ndev, sizeof(tbl[k].ndev), "%s", name);
		k++;
	}
	free(ent);
	*out = tbl;
	*n = k;
	return 0;
}

int device_port_gids(struct ibv_device *dev, int port, int *active, struct gid_info **tbl,
		     size_t *n, char *why, size_t len)
{
	struct ibv_context *ctx = ibv_open_device(dev);
	struct ibv_device_attr da;
	struct ibv_port_attr pa;
	int rc;

	*tbl = NULL;
	*n = 0;
	*active = 0;
	if (ctx == NULL) {
		snprintf(why, len, _("无法打开: %s"), strerror(errno));
		return -1;
	}
	rc = ibv_query_device(ctx, &da);       /* 这两个调用直接返回 errno 值 */
	if (rc == 0)
		rc = ibv_query_port(ctx, (uint8_t)port, &pa);
	if (rc != 0) {
		snprintf(why, len, _("查询设备/端口%d 失败: %s (errno=%d)"), port, strerror(rc), rc);
		ibv_close_device(ctx);
		return -1;
	}
	*active = pa.state == IBV_PORT_ACTIVE;
	if (!*active)
		snprintf(why, len, _("端口%d 状态 %s，不是 ACTIVE"), port, ibv_port_state_str(pa.state));
	rc = read_gid_table(ctx, port, pa.gid_tbl_len, da.phys_port_cnt, tbl, n);
	ibv_close_device(ctx);
	if (rc != 0)
		snprintf(why, len, _("读不出端口%d 的 GID 表"), port);
	return rc;
}

/* 一行 GID 条目：索引、GID、类型/地址/网卡；mark 放在最前（选中的条目用 "→ "） */
void gid_print_row(const struct gid_info *g, const char *mark)
{
	char s[GID_STR_LEN], desc[128];

	gid_format(g->raw, s);
	gid_describe(g, desc, sizeof(desc));
	con_printf(_("  %s索引 %-3u %s  %s\n"), mark, g->index, s, desc);
}

void gid_print_table(const struct gid_info *tbl, size_t n, int port)
{
	con_printf(_("端口 %d 的非空GID条目（共 %zu 个）:\n"), port, n);
	for (size_t i = 0; i < n && i < 8; i++)
		gid_print_row(&tbl[i], "");
	if (n > 8)
		con_printf(_("  ...（其余 %zu 个见 ./show_gids.sh）\n"), n - 8);
}
