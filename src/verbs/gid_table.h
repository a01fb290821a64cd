/*
 * gid_table.h - 读设备端口的 GID 表（verbs）：选 GID（步骤4）、自动选设备、按路由选设备时都要用
 */
#ifndef ROCE_GID_TABLE_H
#define ROCE_GID_TABLE_H

#include <stddef.h>
#include <infiniband/verbs.h>

#include "verbs/gid.h"

/* 读出已打开设备 ctx 上端口 port 的 GID 表（只保留非空条目）；调用者 free(*out) */
int read_gid_table(struct ibv_context *ctx, int port, int tbl_len,
		   int phys_ports, struct gid_info **out, size_t *n);

/*
 * 打开 dev、查询端口 port，读出它的非空 GID 表（调用者 free(*tbl)）；端口不是 ACTIVE 时 *active = 0。
 * 自动选设备（按分数、按路由）时用来看每个设备。失败时把原因写进 why 并返回 -1。
 */
int device_port_gids(struct ibv_device *dev, int port, int *active, struct gid_info **tbl,
		     size_t *n, char *why, size_t len);

/* 打印一行 GID 条目（索引、GID、类型、地址、网卡），mark 放在行首（选中的条目用 "→ "） */
void gid_print_row(const struct gid_info *g, const char *mark);
/* 步骤4：端口 port 的非空条目（最多 8 行，其余让 ./show_gids.sh 列） */
void gid_print_table(const struct gid_info *tbl, size_t n, int port);

#endif
