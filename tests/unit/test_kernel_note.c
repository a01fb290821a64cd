/* test_kernel_note.c - 按内核版本补充的 WC 说明：早于 6.1 的 RETRY_EXC_ERR、6.12 起的 WR_FLUSH_ERR，点名内核和实测范围 */
#include <string.h>

#include "verbs/kernel_note.h"
#include "unit.h"

static void version_is_read_from_uname_release(void **state)
{
	int ma, mi;

	(void)state;
	assert_int_equal(kernel_version("5.10.0-32-amd64", &ma, &mi), 0);
	assert_int_equal(ma, 5);
	assert_int_equal(mi, 10);
	assert_int_equal(kernel_version("6.12.117+deb13-amd64", &ma, &mi), 0);
	assert_int_equal(ma, 6);
	assert_int_equal(mi, 12);
	assert_int_equal(kernel_version("6", &ma, &mi), -1);
	assert_int_equal(kernel_version("", &ma, &mi), -1);
	assert_int_equal(kernel_version(NULL, &ma, &mi), -1);
}

static void on_5_10_retry_exceeded_names_kernel_and_what_was_measured(void **state)
{
	char buf[1536];
	const char *n = rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "5.10.0-32-amd64", 1, buf, sizeof(buf));

	(void)state;
	assert_non_null(n);
	assert_non_null(strstr(n, "这台机器运行的内核是 5.10.0-32-amd64"));
	assert_non_null(strstr(n, "fetch_add/cmp_swap"));
	assert_non_null(strstr(n, "实测于 5.10（Debian 11）；6.1、6.12 上原子操作成功，错误的 rkey 得到 REM_ACCESS_ERR；"
				  "5.10 与 6.1 之间的内核没有测试。"));
}

static void kernels_between_and_older_say_untested(void **state)
{
	char buf[1536];

	(void)state;
	assert_non_null(strstr(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "5.15.0-91-generic", 1, buf, sizeof(buf)),
			       "你的内核在 5.10 与 6.1 之间，没有测试"));
	assert_non_null(strstr(buf, "5.15.0-91-generic"));
	assert_non_null(strstr(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "5.4.0-150-generic", 1, buf, sizeof(buf)),
			       "比 5.10 更老的内核没有测试"));
}

static void no_note_on_6_1_and_later_or_other_statuses(void **state)
{
	char buf[1536];

	(void)state;
	assert_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "6.1.0-56-amd64", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "6.12.117+deb13-amd64", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "10.0.1", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_REM_ACCESS_ERR, "5.10.0-32-amd64", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "garbage", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "5.10.0", 1, NULL, 0));
}

/* 6.12 上 lkey 错的 WR 自己以 WR_FLUSH_ERR 完成（故障画廊实测）；6.1 和 5.10 上不是，那里不补这句 */
static void on_6_12_flush_may_be_the_first_error(void **state)
{
	char buf[1536];
	const char *n = rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "6.12.117+deb13-amd64", 1, buf, sizeof(buf));

	(void)state;
	assert_non_null(n);
	assert_non_null(strstr(n, "这台机器运行的内核是 6.12.117+deb13-amd64"));
	assert_non_null(strstr(n, "出错的 WR 自己就以\n      WR_FLUSH_ERR 完成"));
	assert_non_null(strstr(n, "只在 6.12.117+deb13（Debian 13）上测过"));
	assert_non_null(strstr(n, "5.10 上是 LOC_PROT_ERR"));
	assert_non_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "7.0.1", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "6.1.0-56-amd64", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "5.10.0-32-amd64", 1, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "6.12.1", 1, NULL, 0));
}

/* 被冲刷的是接收请求（QP上没有在途的发送 WR）：那是提示说的普通情形，6.12 上也不补这句 */
static void flush_note_only_with_a_send_in_flight(void **state)
{
	char buf[1536];

	(void)state;
	assert_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "6.12.117+deb13-amd64", 0, buf, sizeof(buf)));
	assert_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "7.0.1", 0, buf, sizeof(buf)));
	assert_non_null(rxe_kernel_note(IBV_WC_WR_FLUSH_ERR, "6.12.117+deb13-amd64", 1, buf, sizeof(buf)));
	/* RETRY_EXC_ERR 的说明与发送队列无关 */
	assert_non_null(rxe_kernel_note(IBV_WC_RETRY_EXC_ERR, "5.10.0-32-amd64", 0, buf, sizeof(buf)));
}

/* 接收走 SRQ、6.1：三种状态（接收方的 LOC_QP_OP_ERR / REM_INV_REQ_ERR、发送方的 REM_OP_ERR / REM_INV_REQ_ERR）都点名内核和已知故障；
 * 别的内核（5.10、6.12、6.10）、别的状态都不补 */
static void on_6_1_srq_retry_fault_is_named_for_both_sides(void **state)
{
	char buf[2048];
	enum ibv_wc_status both[] = { IBV_WC_LOC_QP_OP_ERR, IBV_WC_REM_OP_ERR, IBV_WC_REM_INV_REQ_ERR };

	(void)state;
	for (size_t k = 0; k < sizeof(both) / sizeof(both[0]); k++) {
		const char *n = rxe_srq_retry_note(both[k], "6.1.0-56-amd64", buf, sizeof(buf));

		assert_non_null(n);
		assert_non_null(strstr(n, "这台机器运行的内核是 6.1.0-56-amd64，本程序的接收走 SRQ"));
		assert_non_null(strstr(n, "6.1 的 Soft-RoCE（rxe）的已知故障"));
		assert_non_null(strstr(n, "completer_retry_err"));
		assert_non_null(strstr(n, "6.12 上没有出现"));
	}
	assert_null(rxe_srq_retry_note(IBV_WC_LOC_QP_OP_ERR, "6.12.117+deb13-amd64", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_LOC_QP_OP_ERR, "5.10.0-32-amd64", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_REM_OP_ERR, "6.10.3", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_RETRY_EXC_ERR, "6.1.0-56-amd64", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_WR_FLUSH_ERR, "6.1.0-56-amd64", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_LOC_QP_OP_ERR, "garbage", buf, sizeof(buf)));
	assert_null(rxe_srq_retry_note(IBV_WC_LOC_QP_OP_ERR, "6.1.0", NULL, 0));
}

const struct CMUnitTest kernel_note_tests[] = {
	cmocka_unit_test(version_is_read_from_uname_release),
	cmocka_unit_test(on_5_10_retry_exceeded_names_kernel_and_what_was_measured),
	cmocka_unit_test(kernels_between_and_older_say_untested),
	cmocka_unit_test(no_note_on_6_1_and_later_or_other_statuses),
	cmocka_unit_test(on_6_12_flush_may_be_the_first_error),
	cmocka_unit_test(flush_note_only_with_a_send_in_flight),
	cmocka_unit_test(on_6_1_srq_retry_fault_is_named_for_both_sides),
};
const size_t kernel_note_tests_count = COUNT_OF(kernel_note_tests);
