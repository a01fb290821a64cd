/* test_wire.c - 控制平面格式：往返、截断、魔数/版本错误、num_qp 越界、参数比较 */
#include <infiniband/verbs.h>
#include <string.h>

#include "wire.h"
#include "unit.h"

static struct wire_hello sample(uint32_t num_qp)
{
	struct wire_hello h;

	memset(&h, 0, sizeof(h));
	h.version = WIRE_VERSION;
	h.op = OP_WRITE;
	h.flags = 0;
	h.num_qp = num_qp;
	h.mtu = 3;
	h.size = 1 << 20;
	h.iters = 7;
	h.addr = 0x00007f1234567000ull;
	h.rkey = 0xdeadbeef;
	h.slot = 1 << 20;
	h.offset = 8;
	for (uint32_t i = 0; i < num_qp; i++) {
		h.qp[i].qpn = 0x11 + i;
		h.qp[i].psn = 0xabcdef - i;
		h.qp[i].lid = 0;
		h.qp[i].gid[10] = 0xff;
		h.qp[i].gid[11] = 0xff;
		h.qp[i].gid[15] = (uint8_t)(i + 1);
	}
	return h;
}

static void round_trip(void **state)
{
	struct wire_hello a = sample(16), b;
	uint8_t buf[WIRE_MAX_LEN];
	size_t n = wire_encode_hello(&a, buf, sizeof(buf));

	(void)state;
	assert_int_equal(n, WIRE_HEADER_LEN + 16 * WIRE_QP_LEN);
	assert_int_equal(wire_decode_header(buf, n, &b), WIRE_OK);
	assert_int_equal(wire_decode_qps(buf + WIRE_HEADER_LEN, n - WIRE_HEADER_LEN, &b), WIRE_OK);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void network_byte_order(void **state)
{
	struct wire_hello a = sample(1);
	uint8_t buf[WIRE_MAX_LEN];

	(void)state;
	wire_encode_hello(&a, buf, sizeof(buf));
	assert_memory_equal(buf, "RCV2", 4);              /* 魔数按大端就是可读的 "RCV2" */
	assert_int_equal(buf[32], 0xde);                  /* rkey 高字节在前 */
	assert_int_equal(buf[WIRE_HEADER_LEN + 3], 0x11); /* QPN 低字节在最后 */
}

static void truncated(void **state)
{
	struct wire_hello a = sample(4), b;
	uint8_t buf[WIRE_MAX_LEN];
	size_t n = wire_encode_hello(&a, buf, sizeof(buf));

	(void)state;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN - 1, &b), WIRE_SHORT);
	assert_int_equal(wire_decode_header(buf, n, &b), WIRE_OK);
	assert_int_equal(wire_decode_qps(buf + WIRE_HEADER_LEN, 3 * WIRE_QP_LEN, &b), WIRE_SHORT);
}

static void bad_magic_and_version(void **state)
{
	struct wire_hello a = sample(1), b;
	uint8_t buf[WIRE_MAX_LEN];

	(void)state;
	wire_encode_hello(&a, buf, sizeof(buf));
	buf[0] = 'G';
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_MAGIC);
	wire_encode_hello(&a, buf, sizeof(buf));
	buf[5] = 2;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_VERSION);
	assert_non_null(strstr(wire_strerror(WIRE_BAD_MAGIC), "魔数"));
}

static void num_qp_bounds(void **state)
{
	struct wire_hello a = sample(1), b;
	uint8_t buf[WIRE_MAX_LEN];

	(void)state;
	wire_encode_hello(&a, buf, sizeof(buf));
	buf[11] = 0;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_NUM_QP);
	buf[11] = 17;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_NUM_QP);
	buf[11] = 16;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_OK);
	a.num_qp = 17;
	assert_int_equal(wire_encode_hello(&a, buf, sizeof(buf)), 0);
}

static void bad_op_mtu_qpn(void **state)
{
	struct wire_hello a = sample(1), b;
	uint8_t buf[WIRE_MAX_LEN];

	(void)state;
	wire_encode_hello(&a, buf, sizeof(buf));
	buf[6] = OP_COUNT;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_OP);
	wire_encode_hello(&a, buf, sizeof(buf));
	buf[15] = 6;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_BAD_MTU);
	a.qp[0].qpn = 0;
	wire_encode_hello(&a, buf, sizeof(buf));
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN, &b), WIRE_OK);
	assert_int_equal(wire_decode_qps(buf + WIRE_HEADER_LEN, WIRE_QP_LEN, &b), WIRE_BAD_QPN);
}

static void sync_messages(void **state)
{
	uint8_t buf[WIRE_SYNC_LEN];
	uint32_t tag = 0;

	(void)state;
	wire_encode_sync(0x02000005, buf);
	assert_int_equal(wire_decode_sync(buf, sizeof(buf), &tag), WIRE_OK);
	assert_int_equal(tag, 0x02000005);
	assert_int_equal(wire_decode_sync(buf, 4, &tag), WIRE_SHORT);
	buf[0] ^= 1;
	assert_int_equal(wire_decode_sync(buf, sizeof(buf), &tag), WIRE_BAD_SYNC);
}

static void compare(void **state)
{
	struct wire_hello l = sample(2), r = sample(4);
	char msg[256];

	(void)state;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "远端QP数量(4)与本端不匹配(2)：两端的 -q/num_qp 必须相同");
	r = sample(2);
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), 0);
	r.op = OP_READ;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端操作(read)与本端不匹配(write)"));
	r = sample(2);
	r.flags = WIRE_FLAG_INTERACTIVE;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	r = sample(2);
	r.size = 1;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "--size"));
	r = sample(2);
	r.iters = 1;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	r = sample(2);
	r.offset = 0;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
}

/* --bench/--sweep/--cq 放在 flags 里；不同时错误信息说出两端各自的设置 */
static void compare_bench_and_cq(void **state)
{
	struct wire_hello l = sample(2), r = sample(2);
	struct options o;
	char msg[256];

	(void)state;
	memset(&o, 0, sizeof(o));
	o.bench = BENCH_BW;
	o.cq = CQ_EVENT;
	o.sweep = 1;
	assert_int_equal(wire_flags(&o), WIRE_FLAG_BENCH_BW | WIRE_FLAG_CQ_EVENT | WIRE_FLAG_SWEEP);
	l.flags = WIRE_FLAG_BENCH_LAT;
	r.flags = WIRE_FLAG_BENCH_BW;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "远端是 --bench bw，本端是 --bench lat：两端的 --bench/--sweep 必须相同");
	r.flags = 0;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端是 不是基准测试"));
	l.flags = WIRE_FLAG_CQ_EVENT;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "远端 --cq poll，本端 --cq event：两端的 --cq 必须相同");
	r.flags = WIRE_FLAG_CQ_EVENT;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), 0);
}

static void path_mtu_is_the_smaller(void **state)
{
	(void)state;
	assert_int_equal(wire_path_mtu(IBV_MTU_1024, IBV_MTU_4096), IBV_MTU_1024);
	assert_int_equal(wire_path_mtu(IBV_MTU_4096, IBV_MTU_1024), IBV_MTU_1024);
	assert_int_equal(wire_path_mtu(IBV_MTU_2048, IBV_MTU_2048), IBV_MTU_2048);
	assert_int_equal(wire_path_mtu(IBV_MTU_256, IBV_MTU_512), IBV_MTU_256);
}

static void mtu_bytes_and_packets(void **state)
{
	(void)state;
	assert_int_equal(wire_mtu_bytes(IBV_MTU_256), 256);
	assert_int_equal(wire_mtu_bytes(IBV_MTU_1024), 1024);
	assert_int_equal(wire_mtu_bytes(IBV_MTU_4096), 4096);
	assert_int_equal(wire_mtu_bytes(0), 0);
	assert_int_equal(wire_mtu_bytes(6), 0);
	/* 600 字节在 MTU 1024 下是 1 个包（旧代码算成 512 字节的 MTU，说它超了） */
	assert_int_equal(wire_packets(600, IBV_MTU_1024), 1);
	assert_int_equal(wire_packets(1024, IBV_MTU_1024), 1);
	assert_int_equal(wire_packets(1025, IBV_MTU_1024), 2);
	assert_int_equal(wire_packets(2048, IBV_MTU_1024), 2);
	assert_int_equal(wire_packets(4096, IBV_MTU_1024), 4);
	assert_int_equal(wire_packets(1048576, IBV_MTU_1024), 1024);
	assert_int_equal(wire_packets(0, IBV_MTU_1024), 1);
	assert_int_equal(wire_packets(4096, IBV_MTU_4096), 1);
	assert_int_equal(wire_packets(1, 0), 0);
}

static void recognises_rc_pingpong(void **state)
{
	/* ibv_rc_pingpong 的一行：LID:QPN:PSN:GID（GID 是 32 个十六进制数字，v4 映射地址） */
	const char *pp = "0000:000011:3a2b1c:00000000000000000000ffff0a0b0001";
	uint8_t ours[WIRE_MAX_LEN];
	struct wire_hello h = sample(1), out;
	size_t n = wire_encode_hello(&h, ours, sizeof(ours));

	(void)state;
	assert_true(wire_is_rc_pingpong((const uint8_t *)pp, strlen(pp)));
	assert_true(wire_is_rc_pingpong((const uint8_t *)pp, WIRE_HEADER_LEN));
	assert_int_equal(wire_decode_header((const uint8_t *)pp, WIRE_HEADER_LEN, &out), WIRE_RC_PINGPONG);
	assert_non_null(strstr(wire_strerror(WIRE_RC_PINGPONG), "ibv_rc_pingpong"));
	assert_false(wire_is_rc_pingpong(ours, n));
	assert_false(wire_is_rc_pingpong((const uint8_t *)"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27));
	assert_false(wire_is_rc_pingpong((const uint8_t *)"0000:00001g:3a2b1c:0000", 23));
	assert_false(wire_is_rc_pingpong((const uint8_t *)"0000:000011:3a2b1c;0000", 23));
	assert_false(wire_is_rc_pingpong((const uint8_t *)"0000:000011:3a2b1c:zz00", 23));
	assert_false(wire_is_rc_pingpong((const uint8_t *)"0000:000011", 11));
}

/* 前 16 字节里改一个字节，其余照抄 */
static int perftest_with(const uint8_t *base, size_t at, uint8_t v)
{
	uint8_t b[WIRE_PERFTEST_LEN];

	memcpy(b, base, sizeof(b));
	b[at] = v;
	return wire_is_perftest(b, sizeof(b));
}

static void recognises_perftest(void **state)
{
	/*
	 * 实验室里抓到的真实字节（perftest 4.5+0.17，Debian 12 的 ib_send_bw，tcpdump -X）：
	 * 两个方向都一样，"6.06" 加 12 个 0 字节，之后连接被 RST。
	 */
	static const uint8_t captured[WIRE_PERFTEST_LEN] = {
		0x36, 0x2e, 0x30, 0x36, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	static const uint8_t other[WIRE_PERFTEST_LEN] = "5.70";   /* 别的版本，同样的格式 */
	uint8_t ours[WIRE_MAX_LEN];
	struct wire_hello h = sample(4);
	size_t n = wire_encode_hello(&h, ours, sizeof(ours));

	(void)state;
	assert_true(wire_is_perftest(captured, sizeof(captured)));
	assert_true(wire_is_perftest(other, sizeof(other)));
	assert_false(wire_is_perftest(captured, WIRE_PERFTEST_LEN - 1));   /* 不够 16 字节 */
	assert_false(wire_is_perftest(ours, n));                           /* 我们自己的 HELLO */
	assert_false(wire_is_rc_pingpong(captured, sizeof(captured)));
	assert_false(wire_is_perftest((const uint8_t *)"0000:000011:3a2b1c:00000000000000000000ffff0a0b0001", 51));
	assert_false(wire_is_perftest((const uint8_t *)"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27));
	assert_false(perftest_with(captured, 15, 'x'));   /* 填充里不是 0 */
	assert_false(perftest_with(captured, 1, ','));    /* 不是“数字.数字” */
	assert_false(perftest_with(captured, 0, '.'));    /* 没有主版本 */
	assert_false(perftest_with(captured, 2, 0));      /* 没有次版本 */
	assert_false(perftest_with(captured, 4, '.'));    /* "6.06." */
	assert_true(perftest_with(captured, 4, '1'));     /* "6.061"：三位次版本也算 */
	assert_false(wire_is_perftest((const uint8_t *)"1234.5\0\0\0\0\0\0\0\0\0", 16));   /* 主版本太长 */
	assert_false(wire_is_perftest((const uint8_t *)"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16));
}

const struct CMUnitTest wire_tests[] = {
	cmocka_unit_test(round_trip),
	cmocka_unit_test(network_byte_order),
	cmocka_unit_test(truncated),
	cmocka_unit_test(bad_magic_and_version),
	cmocka_unit_test(num_qp_bounds),
	cmocka_unit_test(bad_op_mtu_qpn),
	cmocka_unit_test(sync_messages),
	cmocka_unit_test(compare),
	cmocka_unit_test(compare_bench_and_cq),
	cmocka_unit_test(path_mtu_is_the_smaller),
	cmocka_unit_test(mtu_bytes_and_packets),
	cmocka_unit_test(recognises_rc_pingpong),
	cmocka_unit_test(recognises_perftest),
};
const size_t wire_tests_count = COUNT_OF(wire_tests);
