/* test_payload.c - 测试数据的生成/校验、WC 提示表 */
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "verbs/hints.h"
#include "runs/payload.h"
#include "unit.h"

static void fill_then_check(void **state)
{
	size_t sizes[] = { 1, 7, 31, 32, 64, 4096, 1 << 20 };

	(void)state;
	for (size_t k = 0; k < COUNT_OF(sizes); k++) {
		uint8_t *b = malloc(sizes[k]);

		assert_non_null(b);
		payload_fill(b, sizes[k], "client", 3, 2);
		assert_int_equal(payload_check(b, sizes[k], "client", 3, 2), -1);
		assert_int_equal(payload_diff_count(b, sizes[k], "client", 3, 2), 0);
		b[sizes[k] - 1] ^= 0x20;
		assert_int_equal(payload_check(b, sizes[k], "client", 3, 2), (long)sizes[k] - 1);
		assert_int_equal(payload_diff_count(b, sizes[k], "client", 3, 2), 1);
		free(b);
	}
}

static void differs_per_qp_and_round(void **state)
{
	uint8_t a[4096];

	(void)state;
	payload_fill(a, sizeof(a), "client", 0, 1);
	assert_true(payload_check(a, sizeof(a), "client", 1, 1) >= 0);
	assert_true(payload_check(a, sizeof(a), "client", 0, 2) >= 0);
	assert_true(payload_check(a, sizeof(a), "server", 0, 1) >= 0);
	assert_memory_equal(a, "[client QP0 round1] ", 20);
}

static void preview(void **state)
{
	uint8_t b[] = { 'h', 'i', 0, 0x7f, '!' };
	char out[8];

	(void)state;
	payload_preview(b, sizeof(b), out, sizeof(out));
	assert_string_equal(out, "hi..!");
	payload_preview(b, sizeof(b), out, 3);
	assert_string_equal(out, "hi");
}

static void immediates_and_atomics(void **state)
{
	(void)state;
	assert_int_equal(payload_imm(3, 2), 0x00020003);
	assert_int_not_equal(payload_imm(0, 1), payload_imm(1, 0));
	assert_int_equal(atomic_initial(0), 1000000);
	assert_int_equal(atomic_addend(3), 4);
}

static void wc_hints(void **state)
{
	(void)state;
	assert_non_null(strstr(wc_status_hint(IBV_WC_RETRY_EXC_ERR), "GID"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_RNR_RETRY_EXC_ERR), "post_receive"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_REM_ACCESS_ERR), "rkey"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_WR_FLUSH_ERR), "错误状态"));
	assert_non_null(wc_status_hint((enum ibv_wc_status)999));
	/* QP 不在 RTS 时是 ibv_post_send 失败，不是这个完成状态 */
	assert_null(strstr(wc_status_hint(IBV_WC_LOC_QP_OP_ERR), "例如QP不在RTS"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_LOC_QP_OP_ERR), "ibv_post_send 本身就会失败"));
	/* 错误状态的 QP：ibv_post_send 照样接受，WR 被冲刷（不是“post 失败”） */
	assert_non_null(strstr(wc_status_hint(IBV_WC_LOC_QP_OP_ERR), "错误状态时 ibv_post_send 照样接受"));
	/* --inject small-recv 在 rxe 上实测：接收方 LOC_QP_OP_ERR，发送方 REM_OP_ERR（硬件是 LOC_LEN_ERR / REM_INV_REQ_ERR） */
	assert_non_null(strstr(wc_status_hint(IBV_WC_LOC_QP_OP_ERR), "收到的 SEND 比投递的接收缓冲区大"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_REM_OP_ERR), "SEND 比对端投递的接收缓冲区大"));
	/* rxe：READ/原子 写进没有 LOCAL_WRITE 的本地 MR 报 LOC_PROT_ERR（rxe_comp.c do_read/do_atomic），不是 LOC_ACCESS_ERR */
	assert_non_null(strstr(wc_status_hint(IBV_WC_LOC_PROT_ERR), "IBV_ACCESS_LOCAL_WRITE"));
	assert_null(strstr(wc_status_hint(IBV_WC_LOC_ACCESS_ERR), "需要 IBV_ACCESS_LOCAL_WRITE"));
	assert_non_null(strstr(wc_status_hint(IBV_WC_LOC_ACCESS_ERR), "LOC_PROT_ERR"));
}

static void device_list_hints(void **state)
{
	(void)state;
	/* errno 38：两种原因都要说到 */
	assert_non_null(strstr(device_list_hint(ENOSYS), "/sys/class/infiniband_verbs"));
	assert_non_null(strstr(device_list_hint(ENOSYS), "ib_uverbs"));
	assert_non_null(strstr(device_list_hint(ENOSYS), "linux-modules-extra"));
	assert_non_null(strstr(device_list_hint(ENOSYS), "rdma-core"));
	/* 内核 ≥ 5.3 按需加载 ib_uverbs：不说 rdma-core 的 udev 规则是它唯一的来源 */
	assert_non_null(strstr(device_list_hint(ENOSYS), "按需自动加载"));
	assert_null(strstr(device_list_hint(ENOSYS), "它的 udev 规则会自动加载"));
	assert_null(strstr(device_list_hint(EACCES), "errno 38"));
}

const struct CMUnitTest payload_tests[] = {
	cmocka_unit_test(fill_then_check),
	cmocka_unit_test(differs_per_qp_and_round),
	cmocka_unit_test(preview),
	cmocka_unit_test(immediates_and_atomics),
	cmocka_unit_test(wc_hints),
	cmocka_unit_test(device_list_hints),
};
const size_t payload_tests_count = COUNT_OF(payload_tests);
