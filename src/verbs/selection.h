/*
 * selection.h - 用哪个设备、哪个 GID：选择的规则（步骤2、4 里的“决定”）
 *
 * rdma_common.c 的步骤做 verbs 调用（列设备、打开、查端口、读 GID 表），问这里该选哪个；这里只读设备和
 * 内核路由表，不打开要用的设备，也不认识 struct rdma_device（所以两边没有互相依赖）。
 */
#ifndef ROCE_SELECTION_H
#define ROCE_SELECTION_H

#include <stddef.h>
#include <infiniband/verbs.h>

#include "verbs/gid.h"
#include "cli/options.h"
#include "verbs/route_lookup.h"

/* 从哪些设备里选：ibv_get_device_list() 的结果和命令行（-d、-i、角色） */
struct device_set {
	struct ibv_device **dev_list;
	int num_devices;
	const struct options *opt;
};

/* 客户端，步骤2 开头：查到服务端的路由，存进 peer->route（查不到只打印，不算错） */
void select_lookup_server(const struct options *opt, struct peer_route *peer);

/*
 * 步骤2：用哪个设备。-d 给了就按名字找；否则客户端先按路由选（路由走的网卡上的设备，并在 peer->want_src
 * 记下应使用的源地址），路由帮不上忙时逐个打分（端口 ACTIVE 且有 RoCE v2 IPv4 GID 最好）。
 * 返回 NULL：已打印错误、提示和修复命令
 */
struct ibv_device *select_device(const struct device_set *set, struct peer_route *peer);

/*
 * 步骤4：用 GID 表（非空条目 tbl[0..n)，端口的表长 tbl_len）里的哪一条。-g 给了就检查它；否则用路由要求的
 * 源地址的条目（route_index：课程按 peer->want_src 找出的 GID 索引，rdma_common.c 的 gid_index_for；-1 = 没有），
 * 再按 gid_choose 的分数。打印选中的条目和原因；返回 NULL：已打印错误和提示
 */
const struct gid_info *select_gid(const struct gid_info *tbl, size_t n, int tbl_len, const struct options *opt,
				  const struct peer_route *peer, int route_index);

/* 客户端显式给了 -d/-g：选出的 GID 不在通往服务端的路径上时大声警告（不退出，让学习者看到后果） */
void select_warn_if_off_route(const char *dev_name, const struct gid_info *gid, const struct peer_route *peer);

#endif
