/* test_adopt.c - 多客户端服务端的会话参数：明确给了的不变，没给的听客户端的，超过上限拒绝 */
#include <string.h>

#include "control/adopt.h"
#include "cli/parse.h"
#include "unit.h"

static struct options server_defaults(void)
{
	struct options o;
	char err[256];
	char *argv[] = { "rdma_server", "--clients", "0", NULL };

	assert_int_equal(parse_options(3, argv, ROLE_SERVER, &o, err, sizeof(err)), PARSE_OK);
	return o;
}

static struct wire_hello client_hello(uint8_t op, uint32_t num_qp, uint32_t size, uint32_t iters)
{
	struct wire_hello h;

	memset(&h, 0, sizeof(h));
	h.op = op;
	h.num_qp = num_qp;
	h.size = size;
	h.iters = iters;
	return h;
}

static void unset_options_follow_the_client(void **state)
{
	struct options s = server_defaults(), out;
	struct wire_hello c = client_hello(OP_WRITE, 8, 4096, 5);
	char notes[128], why[128];

	(void)state;
	assert_int_equal(adopt_client_options(&s, &c, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why)), 0);
	assert_int_equal(out.num_qp, 8);
	assert_int_equal(out.op, OP_WRITE);
	assert_int_equal(out.size, 4096);
	assert_int_equal(out.iters, 5);
	assert_string_equal(notes, " -q 8 --op write --iters 5 --size 4096");
	assert_string_equal(why, "");
	/* 其它参数原样复制 */
	assert_int_equal(out.tcp_port, s.tcp_port);
	assert_int_equal(out.clients, 0);
}

static void explicit_options_stay(void **state)
{
	struct options s, out;
	struct wire_hello c = client_hello(OP_READ, 2, 100, 9);
	char err[256], notes[128], why[128];
	char *argv[] = { "rdma_server", "--clients", "0", "-q", "4", "--op", "write", "--size", "64", "--iters", "3", NULL };

	(void)state;
	assert_int_equal(parse_options(11, argv, ROLE_SERVER, &s, err, sizeof(err)), PARSE_OK);
	assert_int_equal(adopt_client_options(&s, &c, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why)), 0);
	assert_int_equal(out.num_qp, 4);
	assert_int_equal(out.op, OP_WRITE);
	assert_int_equal(out.size, 64);
	assert_int_equal(out.iters, 3);
	assert_string_equal(notes, "");
}

static void size_over_cap_is_refused(void **state)
{
	struct options s = server_defaults(), out;
	struct wire_hello c = client_hello(OP_SEND, 1, SESSION_SIZE_CAP + 1, 1);
	char notes[128], why[128];

	(void)state;
	assert_int_equal(adopt_client_options(&s, &c, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why)), -1);
	assert_int_equal(out.size, s.size);
	assert_non_null(strstr(why, "上限 1048576"));
	c.size = SESSION_SIZE_CAP;
	assert_int_equal(adopt_client_options(&s, &c, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why)), 0);
	assert_int_equal(out.size, SESSION_SIZE_CAP);
}

static void atomic_takes_offset_and_fixed_size(void **state)
{
	struct options s = server_defaults(), out;
	struct wire_hello c = client_hello(OP_FETCH_ADD, 2, 8, 4);
	char notes[128], why[128];

	(void)state;
	c.offset = 16;
	assert_int_equal(adopt_client_options(&s, &c, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why)), 0);
	assert_int_equal(out.op, OP_FETCH_ADD);
	assert_int_equal(out.size, 8);
	assert_int_equal(out.offset, 16);
}

/*
 * --cm 服务端：连接请求里客户端是 rxe（128/128），服务端设备只有 16/16（mlx5 的典型值）。
 * rdma_init_qp_attr 在 rdma_accept 之前给的还是请求里的 128；服务端QP里必须是协商后的 16。
 */
static void cm_server_programs_negotiated_rd_depths(void **state)
{
	struct wire_rd_depth rd = wire_rd_depth(16, 16, 128, 128);
	struct ibv_qp_attr rtr = { .qp_state = IBV_QPS_RTR, .max_dest_rd_atomic = 128, .max_rd_atomic = 77 };
	struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS, .max_dest_rd_atomic = 77, .max_rd_atomic = 128 };
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .max_dest_rd_atomic = 5, .max_rd_atomic = 6 };

	(void)state;
	assert_int_equal(rd.in, 16);
	assert_int_equal(rd.out, 16);
	assert_int_equal(adopt_negotiated_rd(&rtr, rd), 128);
	assert_int_equal(rtr.max_dest_rd_atomic, 16);
	assert_int_equal(rtr.max_rd_atomic, 77);            /* RTR 只改 max_dest_rd_atomic */
	assert_int_equal(adopt_negotiated_rd(&rts, rd), 128);
	assert_int_equal(rts.max_rd_atomic, 16);
	assert_int_equal(rts.max_dest_rd_atomic, 77);       /* RTS 只改 max_rd_atomic */
	assert_int_equal(adopt_negotiated_rd(&init, rd), -1);
	assert_int_equal(init.max_dest_rd_atomic, 5);
	assert_int_equal(init.max_rd_atomic, 6);
	/* 不对称的上限：in 和 out 各走各的 */
	rd = wire_rd_depth(8, 4, 128, 128);
	rtr.max_dest_rd_atomic = 128;
	rts.max_rd_atomic = 128;
	adopt_negotiated_rd(&rtr, rd);
	adopt_negotiated_rd(&rts, rd);
	assert_int_equal(rtr.max_dest_rd_atomic, rd.in);
	assert_int_equal(rts.max_rd_atomic, rd.out);
	assert_int_not_equal(rd.in, rd.out);
}

const struct CMUnitTest adopt_tests[] = {
	cmocka_unit_test(unset_options_follow_the_client),
	cmocka_unit_test(explicit_options_stay),
	cmocka_unit_test(size_over_cap_is_refused),
	cmocka_unit_test(atomic_takes_offset_and_fixed_size),
	cmocka_unit_test(cm_server_programs_negotiated_rd_depths),
};
const size_t adopt_tests_count = COUNT_OF(adopt_tests);
