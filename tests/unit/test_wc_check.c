/* test_wc_check.c - 完成(WC)检查：用手工构造的完成验证 opcode、长度、立即数、WITH_IMM 标志 */
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <string.h>

#include "verbs/wc_check.h"
#include "unit.h"

static struct ibv_wc made_up(enum ibv_wc_opcode op, uint32_t byte_len)
{
	struct ibv_wc wc;

	memset(&wc, 0, sizeof(wc));
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = op;
	wc.byte_len = byte_len;
	return wc;
}

static void opcode_must_match(void **state)
{
	struct ibv_wc wc = made_up(IBV_WC_RDMA_WRITE, 0);
	struct wc_expect e = { .opcode = IBV_WC_RDMA_WRITE };
	char err[160] = "";

	(void)state;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), 0);
	e.opcode = IBV_WC_SEND;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);
	assert_string_equal(err, "完成类型是 RDMA_WRITE (1)，期望 SEND");
}

static void read_length_must_match(void **state)
{
	struct ibv_wc wc = made_up(IBV_WC_RDMA_READ, 4096);
	struct wc_expect e = { .opcode = IBV_WC_RDMA_READ, .check_len = 1, .len = 4096 };
	char err[160] = "";

	(void)state;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), 0);
	/* rxe 丢包后曾出现过“成功但没有数据”的 READ：长度短了必须报错 */
	wc.byte_len = 1024;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);
	assert_string_equal(err, "RDMA_READ 完成报告 1024 字节，期望 4096 字节");
	/* 不要求长度的完成（WRITE 的发送完成）不看 byte_len */
	wc = made_up(IBV_WC_RDMA_WRITE, 7);
	e = (struct wc_expect){ .opcode = IBV_WC_RDMA_WRITE };
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), 0);
}

static void recv_length_must_match(void **state)
{
	struct ibv_wc wc = made_up(IBV_WC_RECV, 63);
	struct wc_expect e = { .opcode = IBV_WC_RECV, .check_len = 1, .len = 64 };
	char err[160] = "";

	(void)state;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "63 字节，期望 64 字节"));
}

static void immediate_needs_flag_and_value(void **state)
{
	struct ibv_wc wc = made_up(IBV_WC_RECV_RDMA_WITH_IMM, 16);
	struct wc_expect e = { .opcode = IBV_WC_RECV_RDMA_WITH_IMM, .check_len = 1, .len = 16,
			       .check_imm = 1, .imm = 0x00020001 };
	char err[160] = "";

	(void)state;
	wc.imm_data = htonl(0x00020001);
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);   /* 没有 IBV_WC_WITH_IMM 标志 */
	assert_non_null(strstr(err, "IBV_WC_WITH_IMM"));
	wc.wc_flags = IBV_WC_WITH_IMM;
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), 0);
	wc.imm_data = htonl(0x00010002);                            /* 轮次和QP号颠倒了 */
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);
	assert_string_equal(err, "立即数 0x00010002，期望 0x00020001");
	wc.imm_data = 0x00020001;                                   /* 忘了 ntohl：字节序不对 */
	assert_int_equal(wc_check(&wc, &e, err, sizeof(err)), -1);
}

static void opcode_names(void **state)
{
	(void)state;
	assert_string_equal(wc_opcode_str(IBV_WC_RECV_RDMA_WITH_IMM), "RECV_RDMA_WITH_IMM");
	assert_string_equal(wc_opcode_str(IBV_WC_FETCH_ADD), "FETCH_ADD");
	assert_string_equal(wc_opcode_str((enum ibv_wc_opcode)77), "UNKNOWN");
}

const struct CMUnitTest wc_check_tests[] = {
	cmocka_unit_test(opcode_must_match),
	cmocka_unit_test(read_length_must_match),
	cmocka_unit_test(recv_length_must_match),
	cmocka_unit_test(immediate_needs_flag_and_value),
	cmocka_unit_test(opcode_names),
};
const size_t wc_check_tests_count = COUNT_OF(wc_check_tests);
