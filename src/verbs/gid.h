/*
 * gid.h - GID 的格式化、分类与自动选择（纯逻辑，可单元测试）
 *
 * RoCE v2 的 GID 就是 IP 地址：IPv4 地址以 ::ffff:a.b.c.d 形式放进 16 字节。
 * 选错 GID 索引是 RoCE 编程里最常见的错误，所以默认由程序自动选择：
 *   分数 = (类型是 RoCE v2 ? 4 : 0) + (IPv4映射 ? 2 : (非链路本地 ? 1 : 0))
 *   分数最高者胜出，同分取索引最小者。show_gids.sh 用的是同一规则。
 */
#ifndef ROCE_GID_H
#define ROCE_GID_H

#include <stddef.h>
#include <stdint.h>

#include "control/wire.h"   /* enum gid_kind、gid_kind_name：HELLO 的 gid_type 也是这个值，定义在线上格式里 */

struct gid_info {
	uint32_t index;
	uint8_t raw[16];
	enum gid_kind kind;
	char ndev[32];           /* 绑定的网卡名，可能为空 */
};

#define GID_STR_LEN 40           /* "xxxx:" x 8 */
#define GID_IP_LEN  48

int gid_is_empty(const uint8_t raw[16]);
int gid_is_ipv4_mapped(const uint8_t raw[16]);
int gid_is_link_local(const uint8_t raw[16]);
int gid_score(const struct gid_info *g);

/* 0000:0000:0000:0000:0000:ffff:0a0b:0001 */
void gid_format(const uint8_t raw[16], char out[GID_STR_LEN]);
/* "10.11.0.1" 或 IPv6 文本 */
void gid_to_ip(const uint8_t raw[16], char out[GID_IP_LEN]);
/* 一句话说明：RoCE v2, IPv4 10.11.0.1, 网卡 veth0 */
void gid_describe(const struct gid_info *g, char *out, size_t len);

/*
 * 自动选择只看索引 0..255 的条目：ibv_global_route.sgid_index 只有 8 位（uint8_t），
 * 索引 256 以上的 GID 放不进 RTR 的 ah_attr / UD 的地址句柄（rxe 的 GID 表有 1024 项，
 * 一台有很多地址或 VLAN 的机器会用到那里）。显式的 -g 另有上限检查（options.c）。
 */
#define GID_AUTO_MAX_INDEX 255u
/* 在表中选分数最高的条目（索引超过 GID_AUTO_MAX_INDEX 的不选）；返回其在数组中的下标，没有可选的返回 -1 */
int gid_choose(const struct gid_info *tbl, size_t n);
/* 表里索引超过 GID_AUTO_MAX_INDEX 的非空条目有几个（自动选择跳过它们时说出来） */
size_t gid_count_unreachable(const struct gid_info *tbl, size_t n);
/* RoCE v2 且 IPv4 地址等于 ip（点分十进制）、索引不超过 GID_AUTO_MAX_INDEX 的条目在数组中的下标；没有返回 -1 */
int gid_find_ipv4(const struct gid_info *tbl, size_t n, const char *ip);
/*
 * 路由要的源地址 ip 只有索引超过 GID_AUTO_MAX_INDEX 的 RoCE v2 条目（gid_find_ipv4 不算它们）：把警告写进 msg，
 * 返回那个索引；表里有能用的条目、或者根本没有这个地址时返回 -1（msg 不动）
 */
int gid_route_src_beyond(const struct gid_info *tbl, size_t n, const char *ip, char *msg, size_t len);
/*
 * --cm：CM 用的源 GID 是表里的哪一项（HELLO 的 gid_type 报它的类型，所以必须是 CM 真用的那一项）。
 * sgid = cm_id 的源 GID；cm_index = rdma_init_qp_attr(RTR) 给的 ah_attr.grh.sgid_index（还没到 RTR 时传 -1）。
 *   知道 cm_index：就是索引为 cm_index 的那一项，它的内容必须是 sgid、类型是 RoCE v1 或 v2；
 *   不知道：内容是 sgid 的 RoCE 条目，v1、v2 都有时（mlx5 每个地址一对）先取 v2——内核 CM 的默认
 *           default_roce_mode；它可以在 configfs 里改成 v1，所以 RTR 时再用 cm_index 确认——只有 v1 的也算。
 * 返回在数组中的下标，没有返回 -1
 */
int gid_find_cm(const struct gid_info *tbl, size_t n, const uint8_t sgid[16], int cm_index);
/* 按 GID 索引查找；不存在（空条目）返回 NULL */
const struct gid_info *gid_find(const struct gid_info *tbl, size_t n, uint32_t index);

enum gid_verdict { GID_VERDICT_OK = 0, GID_VERDICT_WARN = 1, GID_VERDICT_ERROR = 2 };

/*
 * 检查用户显式给出的索引：超出范围或空条目是错误；RoCE v1 或链路本地是警告。
 * msg 写入中文说明（含自动选择会用的索引）。
 */
enum gid_verdict gid_check_explicit(const struct gid_info *tbl, size_t n,
				    int table_len, int index,
				    char *msg, size_t msglen);

#endif
