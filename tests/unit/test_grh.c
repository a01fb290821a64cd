/* test_grh.c - UD 接收缓冲区前 40 字节的解码：RoCE v2 IPv4（后 20 字节是 IP 头）和 GRH/IPv6 */
#include <string.h>

#include "verbs/grh.h"
#include "unit.h"

/* 实验室里真实的一次 UD 接收（rxe，6.1，客户端 10.11.0.2 → 服务端 10.11.0.1，64 字节消息）的前 40 字节 */
static const uint8_t lab_ipv4[GRH_LEN] = {
#include "fixtures/grh-rocev2-ipv4.inc"
};

static void rocev2_ipv4_from_the_lab(void **state)
{
	struct grh_info g;

	(void)state;
	assert_int_equal(grh_decode(lab_ipv4, sizeof(lab_ipv4), &g), 0);
	assert_int_equal(g.kind, GRH_IPV4);
	assert_string_equal(g.src, "10.11.0.2");
	assert_string_equal(g.dst, "10.11.0.1");
	assert_true(g.ttl > 0);
	assert_true(g.ip_len > 64);     /* IP 头 + UDP + BTH + DETH + 64 字节 + ICRC */
}

static void ipv6_grh(void **state)
{
	uint8_t b[GRH_LEN];
	struct grh_info g;

	(void)state;
	memset(b, 0, sizeof(b));
	b[0] = 0x60;                    /* 版本 6 */
	b[5] = 100;                     /* 载荷长度 */
	b[7] = 64;                      /* hop limit */
	b[8] = 0xfe; b[9] = 0x80; b[23] = 0x01;   /* 源 fe80::1 */
	b[24] = 0xfe; b[25] = 0x80; b[39] = 0x02; /* 目的 fe80::2 */
	assert_int_equal(grh_decode(b, sizeof(b), &g), 0);
	assert_int_equal(g.kind, GRH_IPV6);
	assert_string_equal(g.src, "fe80::1");
	assert_string_equal(g.dst, "fe80::2");
	assert_int_equal(g.ttl, 64);
	assert_int_equal(g.ip_len, 100);
}

static void short_buffer_and_hex(void **state)
{
	struct grh_info g;
	char hex[160];

	(void)state;
	assert_int_equal(grh_decode(lab_ipv4, 39, &g), -1);
	assert_int_equal(grh_decode(NULL, 40, &g), -1);
	grh_hex(lab_ipv4, hex, sizeof(hex));
	assert_non_null(strchr(hex, '\n'));
	assert_int_equal(strlen(hex), 40 * 3 - 1);   /* 40 个 “xx”，19 个空格 + 1 个换行 + 19 个空格 */
	assert_int_equal(strncmp(hex + 60, "45", 2), 0);   /* 第二行从 IPv4 头的第一个字节开始 */
}

const struct CMUnitTest grh_tests[] = {
	cmocka_unit_test(rocev2_ipv4_from_the_lab),
	cmocka_unit_test(ipv6_grh),
	cmocka_unit_test(short_buffer_and_hex),
};
const size_t grh_tests_count = COUNT_OF(grh_tests);
