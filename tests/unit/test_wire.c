/* test_wire.c - 控制平面格式：往返、截断、魔数/版本错误、num_qp 越界、参数比较 */
#include <infiniband/verbs.h>
#include <string.h>

#include "control/wire.h"
#include "verbs/gid.h"
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
	h.offset = 0;
	h.rd_atom = 128;
	h.init_rd_atom = 16;
	h.gid_type = GID_KIND_ROCE_V2;
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
	char msg[256] = "";

	assert_int_equal(n, WIRE_HEADER_LEN + 16 * WIRE_QP_LEN);
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_OK);
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
	uint8_t buf[WIRE_MAX_LEN + 1];
	size_t n = wire_encode_hello(&a, buf, sizeof(buf));
	char msg[256];

	(void)state;
	assert_int_equal(wire_decode_header(buf, WIRE_HEADER_LEN - 1, &b), WIRE_SHORT);
	assert_int_equal(wire_decode_header(buf, n, &b), WIRE_OK);
	assert_int_equal(wire_decode_hello(buf, n - WIRE_QP_LEN, &b, msg, sizeof(msg)), WIRE_SHORT);
	assert_string_equal(msg, "长度 132 字节，4 个QP的 HELLO 应为 160 字节");
	/* 多出来的字节也不收：长度必须正好 */
	assert_int_equal(wire_decode_hello(buf, n + 1, &b, msg, sizeof(msg)), WIRE_BAD_FIELD);
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
	buf[5] = 1;
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
	char msg[256];

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
	assert_int_equal(wire_decode_hello(buf, WIRE_HEADER_LEN + WIRE_QP_LEN, &b, msg, sizeof(msg)), WIRE_BAD_QPN);
	assert_non_null(strstr(msg, "QP[0]: qpn=0x0"));
}

/* 一条格式正确、只有一个字段坏了的 HELLO：wire_decode_hello 拒绝它，msg 说出字段、值和界限 */
static void expect_bad(struct wire_hello h, enum wire_status want, const char *needle)
{
	uint8_t buf[WIRE_MAX_LEN];
	struct wire_hello out;
	char msg[256] = "";
	size_t n = wire_encode_hello(&h, buf, sizeof(buf));

	assert_true(n > 0);
	if (wire_decode_hello(buf, n, &out, msg, sizeof(msg)) != want || strstr(msg, needle) == NULL)
		fail_msg("期望 %d 且消息含 \"%s\"，得到: %s", want, needle, msg);
}

static struct wire_hello atomic_sample(void)
{
	struct wire_hello h = sample(2);

	h.op = OP_FETCH_ADD;
	h.size = 8;
	h.slot = ATOMIC_SLOT;
	h.offset = 56;
	return h;
}

static void every_field_is_checked(void **state)
{
	struct wire_hello h;
	uint8_t buf[WIRE_MAX_LEN];
	char msg[256];

	(void)state;
	/* 边界上的合法值都收 */
	h = atomic_sample();
	assert_int_equal(wire_decode_hello(buf, wire_encode_hello(&h, buf, sizeof(buf)), &h, msg, sizeof(msg)), WIRE_OK);
	h = atomic_sample();
	h.offset = 0x10000000;          /* issue 22：服务端在槽外 256 MiB 处写，段错误 */
	expect_bad(h, WIRE_BAD_FIELD, "offset=268435456 不行：原子操作的目标字必须按 8 字节对齐、在每QP 64 字节的槽内（0..56，8 的倍数）");
	h.offset = 4;
	expect_bad(h, WIRE_BAD_FIELD, "offset=4 不行");
	h.offset = 64;
	expect_bad(h, WIRE_BAD_FIELD, "offset=64 不行");
	h.offset = UINT32_MAX - 7;      /* offset + 8 在 32 位里回绕成 0 */
	expect_bad(h, WIRE_BAD_FIELD, "offset=4294967288 不行");
	h = atomic_sample();
	h.addr += 4;                    /* 目标字 addr + i×slot + offset 不按 8 字节对齐：对端的网卡回 NAK（无效请求） */
	expect_bad(h, WIRE_BAD_FIELD, "addr=0x7f1234567004 不行：原子操作的目标字必须按 8 字节对齐");
	h = atomic_sample();
	h.size = 16;
	expect_bad(h, WIRE_BAD_FIELD, "size=16 不对：原子操作固定 8 字节");
	h = atomic_sample();
	h.slot = 1 << 20;
	expect_bad(h, WIRE_BAD_FIELD, "slot=1048576 与 op=fetch_add size=8 不符（应为 64 字节）");
	h = sample(1);
	h.offset = 8;
	expect_bad(h, WIRE_BAD_FIELD, "offset=8：只有原子操作用 offset，write 应为 0");
	h = sample(1);
	h.size = 0;
	h.slot = 0;
	expect_bad(h, WIRE_BAD_FIELD, "size=0 超出范围（1..268435456 字节）");
	h.size = MAX_SIZE + 1;
	expect_bad(h, WIRE_BAD_FIELD, "size=268435457 超出范围");
	h = sample(1);
	h.iters = 0;
	expect_bad(h, WIRE_BAD_FIELD, "iters=0 超出范围（1..1000000）");
	h.iters = MAX_ITERS + 1;
	expect_bad(h, WIRE_BAD_FIELD, "iters=1000001 超出范围");
	h = sample(1);
	h.flags = 0x80;
	expect_bad(h, WIRE_BAD_FIELD, "flags=0x80 有没定义的位（已定义的只有 0x7f）");
	h.flags = WIRE_FLAG_BENCH_LAT | WIRE_FLAG_BENCH_BW;
	expect_bad(h, WIRE_BAD_FIELD, "同时是 --bench lat 和 --bench bw");
	h.flags = WIRE_FLAG_SWEEP;
	expect_bad(h, WIRE_BAD_FIELD, "有 --sweep 却没有 --bench");
	h.flags = WIRE_FLAG_INTERACTIVE | WIRE_FLAG_BENCH_LAT;
	expect_bad(h, WIRE_BAD_FIELD, "--interactive 不能和 --bench 同用");
	h = sample(1);
	h.op = OP_READ;
	h.flags = WIRE_FLAG_INTERACTIVE;
	expect_bad(h, WIRE_BAD_FIELD, "op=read 与 --interactive 不符");
	h = atomic_sample();
	h.flags = WIRE_FLAG_BENCH_BW;
	expect_bad(h, WIRE_BAD_FIELD, "op=fetch_add 不能做 --bench");
	h = sample(1);
	h.flags = WIRE_FLAG_INTERACTIVE;
	h.size = 15;
	h.slot = 15;
	expect_bad(h, WIRE_BAD_FIELD, "size=15 超出范围（16..");
	h = sample(1);
	h.slot = 64;
	expect_bad(h, WIRE_BAD_FIELD, "slot=64 与 op=write size=1048576 不符（应为 1048576 字节）");
	h = sample(2);
	h.addr = UINT64_MAX - (1 << 20);
	expect_bad(h, WIRE_BAD_FIELD, "越过了 64 位地址空间");
	h = sample(1);
	h.op = OP_SEND;
	expect_bad(h, WIRE_BAD_FIELD, "send 不用对端的内存，应都为 0");
	h = sample(1);
	h.qp[0].psn = 0x1000000;
	expect_bad(h, WIRE_BAD_QPN, "QP[0]: qpn=0x11 psn=0x1000000");
}

/* --sweep 的槽是 8 MiB；QP 条目的保留字节不是 0 也拒绝 */
static void sweep_slot_and_reserved(void **state)
{
	struct wire_hello h = sample(1), out;
	uint8_t buf[WIRE_MAX_LEN];
	char msg[256];
	size_t n;

	(void)state;
	h.flags = WIRE_FLAG_BENCH_BW | WIRE_FLAG_SWEEP;
	h.size = 64;
	h.slot = SWEEP_MAX_SIZE;
	n = wire_encode_hello(&h, buf, sizeof(buf));
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_OK);
	buf[WIRE_HEADER_LEN + 11] = 1;
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_BAD_FIELD);
	assert_string_equal(msg, "QP[0]: 保留字段=0x0001，应为 0");
}

/* 第 1 版的对端（头 44 字节，没有 READ/原子深度）、第 2 版的（没有 GID 类型）：新的一端说出两个版本号，而不是“长度不对” */
static void old_peer_names_both_versions(void **state)
{
	struct wire_hello a = sample(1), b;
	uint8_t buf[WIRE_MAX_LEN];
	size_t n = wire_encode_hello(&a, buf, sizeof(buf));
	char msg[256];

	(void)state;
	assert_int_equal(WIRE_VERSION, 3);
	assert_int_equal(WIRE_HEADER_LEN, 48);
	buf[5] = 1;
	/* 第 1 版的消息短 4 字节：版本先于长度检查 */
	assert_int_equal(wire_decode_hello(buf, n - 4, &b, msg, sizeof(msg)), WIRE_BAD_VERSION);
	assert_string_equal(msg, "协议版本不一致：对端是第 1 版，本端是第 3 版；两端请用同一版本的 RoCEv2 learn");
	/* 第 2 版：长度一样，46 字节是保留的 0（没有 GID 类型）：照样按版本拒绝 */
	buf[5] = 2;
	buf[46] = 0;
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_BAD_VERSION);
	assert_non_null(strstr(msg, "对端是第 2 版，本端是第 3 版"));
	buf[5] = 4;
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_BAD_VERSION);
	assert_non_null(strstr(msg, "对端是第 4 版，本端是第 3 版"));
}

/* READ/原子深度：两个设备上限在 HELLO 的 44、45 字节，往返不变；46 是 GID 类型，47 保留 */
static void rd_atom_round_trip(void **state)
{
	struct wire_hello a = sample(2), b;
	uint8_t buf[WIRE_MAX_LEN];
	size_t n;
	char msg[256];

	(void)state;
	a.rd_atom = 255;
	a.init_rd_atom = 0;
	n = wire_encode_hello(&a, buf, sizeof(buf));
	assert_int_equal(buf[44], 255);
	assert_int_equal(buf[45], 0);
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_OK);
	assert_int_equal(b.rd_atom, 255);
	assert_int_equal(b.init_rd_atom, 0);
	buf[47] = 1;
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_BAD_FIELD);
	assert_string_equal(msg, "头部保留字段=0x01，应为 0");
}

/* 两端各自算出的深度互相对上：本端的 out（RTS max_rd_atomic）= 对端的 in（RTR max_dest_rd_atomic） */
static void rd_depth_is_min_of_both_devices(void **state)
{
	/* rxe 对 mlx5：rxe 128/128，mlx5 max_qp_rd_atom 16、max_qp_init_rd_atom 16 */
	struct wire_rd_depth rxe = wire_rd_depth(128, 128, 16, 16), mlx = wire_rd_depth(16, 16, 128, 128);
	/* 不对称的设备：本端能接 8 个、能发 2 个；对端能接 4 个、能发 32 个 */
	struct wire_rd_depth l = wire_rd_depth(8, 2, 4, 32), r = wire_rd_depth(4, 32, 8, 2);

	(void)state;
	assert_int_equal(rxe.out, 16);
	assert_int_equal(rxe.in, 16);
	assert_int_equal(mlx.out, 16);
	assert_int_equal(mlx.in, 16);
	assert_int_equal(l.out, 2);     /* min(本端 init 2, 对端 rd 4) */
	assert_int_equal(l.in, 8);      /* min(本端 rd 8, 对端 init 32) */
	assert_int_equal(r.out, l.in);
	assert_int_equal(r.in, l.out);
	/* 两个 rxe：128，不是以前固定的 4 */
	assert_int_equal(wire_rd_depth(128, 128, 128, 128).out, 128);
	assert_int_equal(wire_rd_clamp(128), 128);
	assert_int_equal(wire_rd_clamp(1000), 255);
	assert_int_equal(wire_rd_clamp(-1), 0);
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
	r.offset = 8;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
}

/*
 * GID 类型在 HELLO 的 46 字节（第 3 版）：往返不变；没定义的值拒绝；两端不同（mlx5 上一端选了 v1、另一端 v2）时
 * 比较失败，说出两个类型和修复。两端都做这个比较，所以两端都拒绝
 */
static void gid_type_carried_and_compared(void **state)
{
	struct wire_hello l = sample(2), r = sample(2), b;
	uint8_t buf[WIRE_MAX_LEN];
	char msg[768];
	size_t n;

	(void)state;
	r.gid_type = GID_KIND_ROCE_V1;
	n = wire_encode_hello(&r, buf, sizeof(buf));
	assert_int_equal(buf[46], 1);
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_OK);
	assert_int_equal(b.gid_type, GID_KIND_ROCE_V1);
	/* 本端 v2、远端 v1；反过来也一样，各自说自己和对端的 */
	assert_int_equal(wire_compare(&l, &b, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端的 GID 类型是 RoCE v1，本端是 RoCE v2：两端必须用同一种"));
	assert_non_null(strstr(msg, "修复: 两端都去掉 -g"));
	assert_int_equal(wire_compare(&b, &l, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端的 GID 类型是 RoCE v2，本端是 RoCE v1"));
	assert_int_equal(wire_compare(&l, &l, msg, sizeof(msg)), 0);
	/* 没定义的类型：解码时就拒绝，说出字段 */
	buf[46] = 3;
	assert_int_equal(wire_decode_hello(buf, n, &b, msg, sizeof(msg)), WIRE_BAD_FIELD);
	assert_string_equal(msg, "gid_type=3 没有定义（0 = IB，1 = RoCE v1，2 = RoCE v2）");
}

/* 魔数不对时照样认出 ibv_rc_pingpong 和 perftest（格式换了版本，它们的识别不变） */
static void stray_peers_still_recognised(void **state)
{
	const char *pp = "0000:000011:3a2b1c:fe800000000000000000000000000001";
	uint8_t pt[WIRE_PERFTEST_LEN] = "6.06";
	struct wire_hello b;
	char msg[256];

	(void)state;
	assert_int_equal(wire_decode_hello((const uint8_t *)pp, WIRE_HEADER_LEN, &b, msg, sizeof(msg)), WIRE_RC_PINGPONG);
	assert_non_null(strstr(msg, "ibv_rc_pingpong"));
	assert_true(wire_is_perftest(pt, sizeof(pt)));
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

/* --qp ud、--srq 在 flags 的 bit5、bit6：只配 send、UD 的消息不超过 4096、两者不同用；两端不同时说出各自的设置 */
static struct wire_hello send_sample(uint32_t size)
{
	struct wire_hello h = sample(4);

	h.op = OP_SEND;
	h.size = size;
	h.addr = 0;
	h.rkey = 0;
	h.slot = 0;
	return h;
}

static void ud_and_srq_flags(void **state)
{
	struct wire_hello h = send_sample(1024), out, l, r;
	struct options o;
	uint8_t buf[WIRE_MAX_LEN];
	char msg[256] = "";
	size_t n;

	(void)state;
	h.flags = WIRE_FLAG_QP_UD;
	n = wire_encode_hello(&h, buf, sizeof(buf));
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_OK);
	assert_int_equal(out.flags, WIRE_FLAG_QP_UD);
	h.flags = WIRE_FLAG_SRQ;
	n = wire_encode_hello(&h, buf, sizeof(buf));
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_OK);
	h.flags = WIRE_FLAG_QP_UD | WIRE_FLAG_SRQ;
	expect_bad(h, WIRE_BAD_FIELD, "同时是 --qp ud 和 --srq");
	h = send_sample(5000);
	h.flags = WIRE_FLAG_QP_UD;
	expect_bad(h, WIRE_BAD_FIELD, "size=5000：--qp ud 的消息最多 4096 字节");
	h = sample(1);
	h.flags = WIRE_FLAG_QP_UD;
	expect_bad(h, WIRE_BAD_FIELD, "op=write：--qp ud / --srq 只配 --op send");
	h = sample(1);   /* write：交互模式的 op */
	h.flags = WIRE_FLAG_SRQ | WIRE_FLAG_INTERACTIVE;
	expect_bad(h, WIRE_BAD_FIELD, "只配 --op send（不是交互模式）");
	h = send_sample(64);
	h.flags = WIRE_FLAG_QP_UD | WIRE_FLAG_BENCH_BW | WIRE_FLAG_SWEEP;   /* --qp ud --bench：像 perftest -c UD */
	n = wire_encode_hello(&h, buf, sizeof(buf));
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_OK);
	h.flags = WIRE_FLAG_SRQ | WIRE_FLAG_BENCH_BW;   /* --srq --bench：像 perftest --use-srq */
	n = wire_encode_hello(&h, buf, sizeof(buf));
	assert_int_equal(wire_decode_hello(buf, n, &out, msg, sizeof(msg)), WIRE_OK);

	l = send_sample(64);
	r = send_sample(64);
	l.flags = WIRE_FLAG_QP_UD;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端 --qp rc，本端 --qp ud：两端的 QP 类型必须相同"));
	assert_int_equal(wire_compare(&r, &l, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端 --qp ud，本端 --qp rc"));
	l.flags = WIRE_FLAG_SRQ;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "远端不用 --srq，本端用 --srq"));
	r.flags = WIRE_FLAG_SRQ;
	assert_int_equal(wire_compare(&l, &r, msg, sizeof(msg)), 0);

	memset(&o, 0, sizeof(o));
	o.qp_type = QPK_UD;
	assert_int_equal(wire_flags(&o), WIRE_FLAG_QP_UD);
	o.qp_type = QPK_RC;
	o.srq = 1;
	assert_int_equal(wire_flags(&o), WIRE_FLAG_SRQ);
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
	cmocka_unit_test(every_field_is_checked),
	cmocka_unit_test(sweep_slot_and_reserved),
	cmocka_unit_test(old_peer_names_both_versions),
	cmocka_unit_test(gid_type_carried_and_compared),
	cmocka_unit_test(stray_peers_still_recognised),
	cmocka_unit_test(rd_atom_round_trip),
	cmocka_unit_test(rd_depth_is_min_of_both_devices),
	cmocka_unit_test(sync_messages),
	cmocka_unit_test(compare),
	cmocka_unit_test(compare_bench_and_cq),
	cmocka_unit_test(ud_and_srq_flags),
	cmocka_unit_test(path_mtu_is_the_smaller),
	cmocka_unit_test(mtu_bytes_and_packets),
	cmocka_unit_test(recognises_rc_pingpong),
	cmocka_unit_test(recognises_perftest),
};
const size_t wire_tests_count = COUNT_OF(wire_tests);
