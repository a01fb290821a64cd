/* test_gid.c - GID 格式化、分类与自动选择（合成的 rxe / mlx5 / 纯IPv6 / 空表） */
#include <stdio.h>
#include <string.h>

#include "verbs/gid.h"
#include "unit.h"

static struct gid_info mk(uint32_t index, enum gid_kind kind, const char *hex16)
{
	struct gid_info g;

	memset(&g, 0, sizeof(g));
	g.index = index;
	g.kind = kind;
	for (int i = 0; i < 16; i++) {
		unsigned v;

		sscanf(hex16 + 2 * i, "%2x", &v);
		g.raw[i] = (uint8_t)v;
	}
	strcpy(g.ndev, "eth0");
	return g;
}

#define LL   "fe800000000000002826" "8efffe1ac7d4"
#define V4_1 "00000000000000000000ffff0a0b0001"
#define V6G  "20010db8000000000000000000000001"

static void formatting(void **state)
{
	struct gid_info g = mk(1, GID_KIND_ROCE_V2, V4_1);
	char s[GID_STR_LEN], ip[GID_IP_LEN], d[128];

	(void)state;
	gid_format(g.raw, s);
	assert_string_equal(s, "0000:0000:0000:0000:0000:ffff:0a0b:0001");
	gid_to_ip(g.raw, ip);
	assert_string_equal(ip, "10.11.0.1");
	g = mk(0, GID_KIND_ROCE_V2, V6G);
	gid_to_ip(g.raw, ip);
	assert_string_equal(ip, "2001:db8::1");
	gid_describe(&g, d, sizeof(d));
	assert_string_equal(d, "RoCE v2, IPv6 2001:db8::1, 网卡 eth0");
}

static void classification(void **state)
{
	struct gid_info ll = mk(0, GID_KIND_ROCE_V2, LL), v4 = mk(1, GID_KIND_ROCE_V2, V4_1);
	uint8_t zero[16] = { 0 };

	(void)state;
	assert_true(gid_is_link_local(ll.raw));
	assert_false(gid_is_ipv4_mapped(ll.raw));
	assert_true(gid_is_ipv4_mapped(v4.raw));
	assert_false(gid_is_link_local(v4.raw));
	assert_true(gid_is_empty(zero));
	assert_int_equal(gid_score(&v4), 6);
	assert_int_equal(gid_score(&ll), 4);
}

static void rxe_like_table(void **state)
{
	/* rxe：每个地址一个 RoCE v2 条目；0 = 链路本地，1 = IPv4 */
	struct gid_info t[] = { mk(0, GID_KIND_ROCE_V2, LL), mk(1, GID_KIND_ROCE_V2, V4_1) };

	(void)state;
	assert_int_equal(t[gid_choose(t, 2)].index, 1);
}

static void mlx5_like_table(void **state)
{
	/* mlx5：每个地址一对 v1/v2；0/1 链路本地，2/3 IPv4 → 应选 3 */
	struct gid_info t[] = {
		mk(0, GID_KIND_ROCE_V1, LL), mk(1, GID_KIND_ROCE_V2, LL),
		mk(2, GID_KIND_ROCE_V1, V4_1), mk(3, GID_KIND_ROCE_V2, V4_1),
	};

	(void)state;
	assert_int_equal(t[gid_choose(t, 4)].index, 3);
}

static void ipv6_only_table(void **state)
{
	struct gid_info t[] = { mk(0, GID_KIND_ROCE_V2, LL), mk(5, GID_KIND_ROCE_V2, V6G) };

	(void)state;
	assert_int_equal(t[gid_choose(t, 2)].index, 5);
}

static void tie_takes_lowest_index(void **state)
{
	struct gid_info t[] = { mk(7, GID_KIND_ROCE_V2, V4_1), mk(2, GID_KIND_ROCE_V2, V4_1) };

	(void)state;
	assert_int_equal(t[gid_choose(t, 2)].index, 2);
}

static void find_by_route_source(void **state)
{
	/* 一个设备两个 IPv4 地址：按路由的源地址找条目；v1 条目和不存在的地址都不算 */
	struct gid_info t[] = {
		mk(0, GID_KIND_ROCE_V2, LL), mk(1, GID_KIND_ROCE_V1, "00000000000000000000ffff0a630002"),
		mk(2, GID_KIND_ROCE_V2, V4_1), mk(3, GID_KIND_ROCE_V2, "00000000000000000000ffff0a630002"),
	};

	(void)state;
	assert_int_equal(gid_find_ipv4(t, 4, "10.99.0.2"), 3);
	assert_int_equal(gid_find_ipv4(t, 4, "10.11.0.1"), 2);
	assert_int_equal(gid_find_ipv4(t, 4, "10.11.0.2"), -1);
	assert_int_equal(gid_find_ipv4(t, 0, "10.11.0.1"), -1);
}

/* sgid_index 只有 8 位：索引 256 以上的条目自动选择不选（选了会被截成 index % 256），路由找到的也不算 */
static void auto_choice_skips_index_above_255(void **state)
{
	struct gid_info t[] = {
		mk(0, GID_KIND_ROCE_V2, LL), mk(300, GID_KIND_ROCE_V2, V4_1), mk(256, GID_KIND_ROCE_V2, V4_1),
	};
	struct gid_info only_high[] = { mk(257, GID_KIND_ROCE_V2, V4_1) };
	struct gid_info edge[] = { mk(0, GID_KIND_ROCE_V2, LL), mk(255, GID_KIND_ROCE_V2, V4_1) };

	(void)state;
	assert_int_equal(t[gid_choose(t, 3)].index, 0);
	assert_int_equal(gid_find_ipv4(t, 3, "10.11.0.1"), -1);
	assert_int_equal(gid_count_unreachable(t, 3), 2);
	assert_int_equal(gid_choose(only_high, 1), -1);
	assert_int_equal(edge[gid_choose(edge, 2)].index, 255);
	assert_int_equal(gid_find_ipv4(edge, 2, "10.11.0.1"), 1);
	assert_int_equal(gid_count_unreachable(edge, 2), 0);
}

/*
 * 按路由选设备时，路由的源地址只在索引 ≥ 256 的条目里：不能悄悄换成别的地址，要说出来（索引、上限、修复）；
 * 地址在能用的索引上、或者表里根本没有它时不说
 */
static void route_source_only_above_255_is_reported(void **state)
{
	struct gid_info t[] = {
		mk(0, GID_KIND_ROCE_V2, LL), mk(1, GID_KIND_ROCE_V2, "00000000000000000000ffff0a630002"),
		mk(300, GID_KIND_ROCE_V2, V4_1),
	};
	struct gid_info both[] = { mk(3, GID_KIND_ROCE_V2, V4_1), mk(300, GID_KIND_ROCE_V2, V4_1) };
	char msg[768] = "";

	(void)state;
	assert_int_equal(gid_find_ipv4(t, 3, "10.11.0.1"), -1);
	assert_int_equal(gid_route_src_beyond(t, 3, "10.11.0.1", msg, sizeof(msg)), 300);
	assert_non_null(strstr(msg, "源地址 10.11.0.1 在这个端口的GID表里只有索引 300 的条目：大于 255"));
	assert_non_null(strstr(msg, "修复: "));
	msg[0] = '\0';
	assert_int_equal(gid_route_src_beyond(both, 2, "10.11.0.1", msg, sizeof(msg)), -1);
	assert_int_equal(gid_route_src_beyond(t, 3, "10.99.0.2", msg, sizeof(msg)), -1);
	assert_int_equal(gid_route_src_beyond(t, 3, "10.11.0.9", msg, sizeof(msg)), -1);
	assert_string_equal(msg, "");
}

static void empty_table(void **state)
{
	struct gid_info t[1];

	(void)state;
	memset(t, 0, sizeof(t));
	assert_int_equal(gid_choose(t, 0), -1);
	assert_int_equal(gid_choose(t, 1), -1);   /* 全0条目不可选 */
}

static void explicit_checks(void **state)
{
	struct gid_info t[] = {
		mk(0, GID_KIND_ROCE_V1, LL), mk(1, GID_KIND_ROCE_V2, LL),
		mk(2, GID_KIND_ROCE_V1, V4_1), mk(3, GID_KIND_ROCE_V2, V4_1),
	};
	char msg[512];

	(void)state;
	assert_int_equal(gid_check_explicit(t, 4, 256, 3, msg, sizeof(msg)), GID_VERDICT_OK);
	assert_int_equal(gid_check_explicit(t, 4, 256, 2, msg, sizeof(msg)), GID_VERDICT_WARN);
	assert_non_null(strstr(msg, "RoCE v1"));
	assert_non_null(strstr(msg, "-g 3"));
	assert_int_equal(gid_check_explicit(t, 4, 256, 1, msg, sizeof(msg)), GID_VERDICT_WARN);
	assert_non_null(strstr(msg, "链路本地"));
	assert_int_equal(gid_check_explicit(t, 4, 256, 9, msg, sizeof(msg)), GID_VERDICT_ERROR);
	assert_non_null(strstr(msg, "空条目"));
	assert_non_null(strstr(msg, "索引 3"));
	assert_int_equal(gid_check_explicit(t, 4, 256, 256, msg, sizeof(msg)), GID_VERDICT_ERROR);
	assert_non_null(strstr(msg, "超出范围"));
}

/*
 * --cm：CM 用的源 GID 在表里的哪一项（cm_qps.c 的 adopt_gid）。HELLO 的 gid_type 就是这一项的类型，
 * 所以它必须是 CM 真用的那一项：CM 的 default_roce_mode 是 v1 时（configfs 可改），mlx5 的表里同一个地址的
 * v1 条目。rxe 只有 v2 条目，实验室里造不出来，这里用伪造的表
 */
static void cm_source_gid_is_the_entry_the_cm_uses(void **state)
{
	struct gid_info mlx5[] = {
		mk(0, GID_KIND_ROCE_V1, LL), mk(1, GID_KIND_ROCE_V2, LL),
		mk(2, GID_KIND_ROCE_V1, V4_1), mk(3, GID_KIND_ROCE_V2, V4_1),
	};
	struct gid_info v1_only[] = { mk(0, GID_KIND_ROCE_V1, LL), mk(1, GID_KIND_ROCE_V1, V4_1) };
	struct gid_info rxe[] = { mk(0, GID_KIND_ROCE_V2, LL), mk(1, GID_KIND_ROCE_V2, V4_1) };
	uint8_t sgid[16];

	(void)state;
	memcpy(sgid, mlx5[2].raw, 16);
	/* RTR 之前不知道 CM 的选择：v1、v2 都有时先取 v2（内核 CM 的默认 default_roce_mode） */
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, -1), 3);
	assert_int_equal(gid_find_cm(rxe, 2, sgid, -1), 1);
	/* rdma_init_qp_attr(RTR) 的 sgid_index 说 CM 用的是 v1 条目（default_roce_mode = RoCE v1）：就是它 */
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, 2), 2);
	assert_int_equal(mlx5[gid_find_cm(mlx5, 4, sgid, 2)].kind, GID_KIND_ROCE_V1);
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, 3), 3);
	/* 只有 RoCE v1 条目的端口：CM 建得起连接，GID 也找得到 */
	assert_int_equal(gid_find_cm(v1_only, 2, sgid, -1), 1);
	assert_int_equal(gid_find_cm(v1_only, 2, sgid, 1), 1);
	/* CM 给的索引上不是这个地址（链路本地那一项）、或者表里没有这一项：找不到 */
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, 1), -1);
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, 9), -1);
	memcpy(sgid, mk(0, GID_KIND_ROCE_V2, V6G).raw, 16);
	assert_int_equal(gid_find_cm(mlx5, 4, sgid, -1), -1);
}

const struct CMUnitTest gid_tests[] = {
	cmocka_unit_test(formatting),
	cmocka_unit_test(classification),
	cmocka_unit_test(rxe_like_table),
	cmocka_unit_test(mlx5_like_table),
	cmocka_unit_test(ipv6_only_table),
	cmocka_unit_test(tie_takes_lowest_index),
	cmocka_unit_test(find_by_route_source),
	cmocka_unit_test(auto_choice_skips_index_above_255),
	cmocka_unit_test(route_source_only_above_255_is_reported),
	cmocka_unit_test(empty_table),
	cmocka_unit_test(explicit_checks),
	cmocka_unit_test(cm_source_gid_is_the_entry_the_cm_uses),
};
const size_t gid_tests_count = COUNT_OF(gid_tests);
