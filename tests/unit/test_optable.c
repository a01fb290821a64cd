/* test_optable.c - 操作表的每一行自洽：名字能解析回来、权限与“谁需要对端内存”一致、能力位互相不矛盾 */
#include <infiniband/verbs.h>
#include <string.h>

#include "cli/op_table.h"
#include "cli/options.h"
#include "unit.h"


static void every_row_is_filled_and_names_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < OP_COUNT; i++) {
		enum rdma_op op;

		assert_non_null(op_table[i].name);
		assert_int_equal(op_from_name(op_table[i].name, &op), 0);
		assert_int_equal(op, i);
		assert_ptr_equal(op_info((enum rdma_op)i), &op_table[i]);
	}
	assert_null(op_info(OP_COUNT));
}

static void capability_bits_do_not_contradict(void **state)
{
	(void)state;
	for (int i = 0; i < OP_COUNT; i++) {
		const struct op_info *in = &op_table[i];

		if (in->atomic)
			assert_true(in->one_sided && !in->bench && !in->interactive && !in->server_recv);
		if (in->data_from_server)
			assert_true(in->one_sided);
	}
	/* 几个具体的事实（改表时要有意识地改这里） */
	assert_true(op_table[OP_SEND].server_recv && op_table[OP_WRITE_IMM].server_recv);
	assert_false(op_table[OP_WRITE].server_recv);
	assert_true(op_table[OP_READ].data_from_server);
}

const struct CMUnitTest optable_tests[] = {
	cmocka_unit_test(every_row_is_filled_and_names_round_trip),
	cmocka_unit_test(capability_bits_do_not_contradict),
};
const size_t optable_tests_count = COUNT_OF(optable_tests);
