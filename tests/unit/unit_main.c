/* unit_main.c - 把所有单元测试合成一组：TAP 输出只有一个计划行 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

int main(void)
{
	const struct { const struct CMUnitTest *t; size_t n; } parts[] = {
		{ options_tests, options_tests_count },
		{ gid_tests, gid_tests_count },
		{ wire_tests, wire_tests_count },
		{ payload_tests, payload_tests_count },
		{ wc_check_tests, wc_check_tests_count },
		{ conout_tests, conout_tests_count },
		{ adopt_tests, adopt_tests_count },
		{ trace_tests, trace_tests_count },
		{ stats_tests, stats_tests_count },
		{ sq_account_tests, sq_account_tests_count },
		{ optable_tests, optable_tests_count },
		{ limits_tests, limits_tests_count },
		{ kernel_note_tests, kernel_note_tests_count },
		{ grh_tests, grh_tests_count },
		{ ctrl_tests, ctrl_tests_count },
		{ i18n_tests, i18n_tests_count },
		{ cm_request_tests, cm_request_tests_count },
		{ counters_tests, counters_tests_count },
	};
	size_t total = 0, k = 0;
	struct CMUnitTest *all;
	int rc;

	for (size_t i = 0; i < COUNT_OF(parts); i++)
		total += parts[i].n;
	all = calloc(total, sizeof(*all));
	if (all == NULL)
		return 1;
	for (size_t i = 0; i < COUNT_OF(parts); i++)
		for (size_t j = 0; j < parts[i].n; j++)
			all[k++] = parts[i].t[j];
	rc = _cmocka_run_group_tests("unit", all, total, NULL, NULL);
	free(all);
	return rc;
}
