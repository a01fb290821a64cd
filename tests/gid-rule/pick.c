/*
 * tests/gid-rule/pick.c - 把一个 sysfs 端口目录（…/ports/N：gids/、gid_attrs/types/、gid_attrs/ndevs/）的 GID 表
 * 交给 C 程序的规则（src/verbs/gid.c 的 gid_choose、gid_find_ipv4），打印选中的 GID 索引（没有选中打印 -1）。
 * tests/unit/gid_rules.bats 把同一张表交给 scripts/gid_rule.sh，比较两边的选择。
 *   pick PORT_DIR              规则 1：自动选择
 *   pick PORT_DIR IPV4         规则 2 的后半：地址是 IPV4 的 RoCE v2 条目
 * 类型字符串到 enum gid_kind 的映射和 libibverbs 读 sysfs 时一样："RoCE v2" → ROCE_V2，"IB/RoCE v1" → ROCE_V1。
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs/gid.h"

#define MAX_GIDS 4096

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (f == NULL)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "fe80:0000:…" → 16 字节 */
static int parse_gid(const char *s, uint8_t raw[16])
{
	unsigned g[8];

	if (sscanf(s, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x", &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7]) != 8)
		return -1;
	for (int k = 0; k < 8; k++) {
		raw[2 * k] = (uint8_t)(g[k] >> 8);
		raw[2 * k + 1] = (uint8_t)g[k];
	}
	return 0;
}

static int read_entry(const char *port, long idx, struct gid_info *g)
{
	char path[4096], line[128];

	snprintf(path, sizeof(path), "%s/gids/%ld", port, idx);
	if (read_line(path, line, sizeof(line)) != 0 || parse_gid(line, g->raw) != 0 || gid_is_empty(g->raw))
		return -1;
	g->index = (uint32_t)idx;
	snprintf(path, sizeof(path), "%s/gid_attrs/types/%ld", port, idx);
	if (read_line(path, line, sizeof(line)) != 0)
		return -1;   /* 读不到类型的条目 ibv_query_gid_table 也不返回 */
	g->kind = strcmp(line, "RoCE v2") == 0 ? GID_KIND_ROCE_V2 :
		  strcmp(line, "IB/RoCE v1") == 0 ? GID_KIND_ROCE_V1 : GID_KIND_IB;
	snprintf(path, sizeof(path), "%s/gid_attrs/ndevs/%ld", port, idx);
	if (read_line(path, g->ndev, sizeof(g->ndev)) != 0)
		g->ndev[0] = '\0';
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct gid_info *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

int main(int argc, char **argv)
{
	static struct gid_info tbl[MAX_GIDS];
	char path[4096];
	struct dirent *e;
	size_t n = 0;
	DIR *d;
	int pick;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "用法: %s PORT_DIR [IPV4]\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/gids", argv[1]);
	d = opendir(path);
	if (d == NULL) {
		perror(path);
		return 2;
	}
	while ((e = readdir(d)) != NULL && n < MAX_GIDS) {
		char *end;
		long idx = strtol(e->d_name, &end, 10);

		if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && *end == '\0' && read_entry(argv[1], idx, &tbl[n]) == 0)
			n++;
	}
	closedir(d);
	qsort(tbl, n, sizeof(tbl[0]), by_index);   /* ibv_query_gid_table 按索引升序返回 */
	pick = argc == 3 ? gid_find_ipv4(tbl, n, argv[2]) : gid_choose(tbl, n);
	printf("%ld\n", pick < 0 ? -1L : (long)tbl[pick].index);
	return 0;
}
