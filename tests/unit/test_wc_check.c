/* test_wc_check.c - 完成(WC)检查：用手工构造的完成验证 opcode、长度、立即数、WITH_IMM 标志 */
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <string.h>

#include "cli/options.h"
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

/*
 * 出错的完成 opcode 没有定义：--srq 的接收只能从 wr_id 认出来。缓冲区 300 的接收（--srq --bench 最多 8191 块）
 * 出错时不能说成 QP[44]（300 的低 8 位），也不能把 44 当QP号交给内核说明
 */
static void srq_recv_error_named_by_buffer(void **state)
{
	char who[96];
	uint64_t w = wrid_srq(300);

	(void)state;
	assert_true(wrid_is_srq(w));
	assert_int_equal(wrid_srq_buf(w), 300);
	assert_int_equal(wc_error_owner(w, (int)(w & 0xff), 1, who, sizeof(who)), -1);
	assert_string_equal(who, "SRQ 的接收（缓冲区 300，QP[1]）");
	/* qp_num 不是本端的QP */
	assert_int_equal(wc_error_owner(wrid_srq(8191), 0xff, -1, who, sizeof(who)), -1);
	assert_string_equal(who, "SRQ 的接收（缓冲区 8191，qp_num 不是本端的QP）");
	/* 别的 WR：wr_id = (序号 << 8) | QP号（rdma_common.h 的 WRID），最大的序号也不会被当成 SRQ 的 */
	w = ((uint64_t)MAX_ITERS << 8) | 15;
	assert_false(wrid_is_srq(w));
	assert_int_equal(wc_error_owner(w, 15, 15, who, sizeof(who)), 15);
	assert_string_equal(who, "QP[15]");
	/* 没有 --srq 时的接收 wr_id = QP号 */
	assert_int_equal(wc_error_owner(3, 3, 3, who, sizeof(who)), 3);
	assert_string_equal(who, "QP[3]");
	/* 标记在 2^53 以下：trace 的 JSON 在浏览器里是 double，wr_id 不丢位 */
	assert_true(wrid_srq(8191) < (UINT64_C(1) << 53));
}

const struct CMUnitTest wc_check_tests[] = {
	cmocka_unit_test(srq_recv_error_named_by_buffer),
	cmocka_unit_test(opcode_must_match),
	cmocka_unit_test(read_length_must_match),
	cmocka_unit_test(recv_length_must_match),
	cmocka_unit_test(immediate_needs_flag_and_value),
	cmocka_unit_test(opcode_names),
};
const size_t wc_check_tests_count = COUNT_OF(wc_check_tests);
