/* test_counters.c - --counters 的纯部分（src/plugins/counters.c）：伪造的 hw_counters 目录（tests/unit/fixtures/hw_counters/） */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "plugins/counters.h"
#include "unit.h"

#define FIX "tests/unit/fixtures/hw_counters"

static const char *const rxe_names[] = {
	"sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err",
	"rcvd_seq_err", "ack_deferred", "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
	"send_err", "link_downed", "rdma_sends", "rdma_recvs",
};

static const struct ctr_entry *find(const struct ctr_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->e[i].name, name) == 0)
			return &t->e[i];
	return NULL;
}

static void reads_every_counter_sorted_and_skips_lifespan(void **state)
{
	static struct ctr_table t;

	(void)state;
	assert_int_equal(ctr_read_dir(FIX "/before", &t), 0);
	assert_true(t.present);
	assert_int_equal(t.lifespan_ms, 10);
	assert_int_equal(t.n, 16);              /* rxe 的 15 个 + 不认识的 np_cnp_sent；lifespan 不算 */
	assert_null(find(&t, "lifespan"));
	for (size_t i = 0; i < COUNT_OF(rxe_names); i++)
		assert_non_null(find(&t, rxe_names[i]));
	for (size_t i = 1; i < t.n; i++)
		assert_true(strcmp(t.e[i - 1].name, t.e[i].name) < 0);
	assert_int_equal(find(&t, "sent_pkts")->value, 100);
	assert_int_equal(find(&t, "np_cnp_sent")->value, 5);
	assert_true(find(&t, "ack_deferred")->value == UINT64_C(18446744073709551610));
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.e[i].err, 0);
	assert_int_equal(ctr_settle_ms(&t), 20);
}

static void diff_lists_only_moved_counters_including_unknown_ones(void **state)
{
	static struct ctr_table b, a;
	struct ctr_delta d[CTR_MAX];
	const char *want[] = { "ack_deferred", "completer_retry_err", "np_cnp_sent", "rcvd_pkts", "rdma_sends", "sent_pkts" };
	const long long by[] = { 5, 2, 3, 16, 4, 16 };
	size_t n;

	(void)state;
	assert_int_equal(ctr_read_dir(FIX "/before", &b), 0);
	assert_int_equal(ctr_read_dir(FIX "/after", &a), 0);
	n = ctr_diff(&b, &a, d, CTR_MAX);
	assert_int_equal(n, COUNT_OF(want));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(d[i].name, want[i]);
		assert_int_equal(d[i].delta, by[i]);
	}
	assert_int_equal(d[5].before, 100);
	assert_int_equal(d[5].after, 116);
	assert_int_equal(ctr_diff(&b, &b, d, CTR_MAX), 0);
	assert_int_equal(ctr_diff(&b, &a, d, 2), 2);    /* 放不下的不写 */
}

static void missing_directory_is_reported_not_an_empty_table(void **state)
{
	static struct ctr_table t;

	(void)state;
	assert_int_equal(ctr_read_dir(FIX "/missing", &t), -1);
	assert_false(t.present);
	assert_int_equal(t.dir_err, ENOENT);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.lifespan_ms, -1);
	assert_int_equal(ctr_settle_ms(&t), CTR_LIFESPAN_DEFAULT_MS + 10);
}

static void unreadable_files_are_kept_with_the_reason_and_left_out_of_the_diff(void **state)
{
	static struct ctr_table b, odd;
	struct ctr_delta d[CTR_MAX];
	size_t n;

	(void)state;
	assert_int_equal(ctr_read_dir(FIX "/odd", &odd), 0);
	assert_int_equal(odd.n, 4);
	assert_int_equal(find(&odd, "rcvd_pkts")->err, EISDIR);
	assert_int_equal(find(&odd, "send_err")->err, EINVAL);
	assert_int_equal(find(&odd, "link_downed")->err, EINVAL);
	assert_int_equal(find(&odd, "sent_pkts")->err, 0);
	assert_int_equal(find(&odd, "sent_pkts")->value, 42);
	assert_int_equal(odd.lifespan_ms, -1);  /* 不是数字：按默认值等 */
	assert_int_equal(ctr_settle_ms(&odd), CTR_LIFESPAN_DEFAULT_MS + 10);
	assert_int_equal(ctr_read_dir(FIX "/before", &b), 0);
	n = ctr_diff(&b, &odd, d, CTR_MAX);
	assert_int_equal(n, 1);                 /* 只有两边都读到的 sent_pkts；它变小了（计数被清零过）：负数照样报 */
	assert_string_equal(d[0].name, "sent_pkts");
	assert_int_equal(d[0].delta, -58);
}

static void every_rxe_counter_has_a_meaning_unknown_ones_none(void **state)
{
	(void)state;
	for (size_t i = 0; i < COUNT_OF(rxe_names); i++) {
		const char *m = ctr_meaning(rxe_names[i]);

		assert_non_null(m);
		assert_true(strlen(m) > 20);
		assert_null(strchr(m, '\n'));   /* 一行 */
	}
	assert_null(ctr_meaning("np_cnp_sent"));
	assert_null(ctr_meaning("lifespan"));
	assert_non_null(strstr(ctr_meaning("duplicate_request"), "mlx5"));
	assert_non_null(strstr(ctr_meaning("rcvd_seq_err"), "packet_seq_err"));
	assert_non_null(strstr(ctr_meaning("out_of_seq_request"), "out_of_sequence"));
	assert_non_null(strstr(ctr_meaning("rcvd_rnr_err"), "rnr_nak_retry_err"));
}

static void bench_result_suffix_names_each_delta(void **state)
{
	struct ctr_delta d[] = { { "completer_retry_err", 2, 0, 2 }, { "sent_pkts", 16, 100, 116 }, { "odd-name.x", -1, 2, 1 } };
	char buf[256], small[30];
	size_t used;

	(void)state;
	used = ctr_result_suffix(d, 3, buf, sizeof(buf));
	assert_int_equal(used, strlen(buf));
	assert_string_equal(buf, " ctr_completer_retry_err=2 ctr_sent_pkts=16 ctr_odd_name_x=-1");
	ctr_result_suffix(d, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	ctr_result_suffix(d, 3, small, sizeof(small));
	assert_string_equal(small, " ctr_completer_retry_err=2");   /* 放不下的整项不写 */
}

const struct CMUnitTest counters_tests[] = {
	cmocka_unit_test(reads_every_counter_sorted_and_skips_lifespan),
	cmocka_unit_test(diff_lists_only_moved_counters_including_unknown_ones),
	cmocka_unit_test(missing_directory_is_reported_not_an_empty_table),
	cmocka_unit_test(unreadable_files_are_kept_with_the_reason_and_left_out_of_the_diff),
	cmocka_unit_test(every_rxe_counter_has_a_meaning_unknown_ones_none),
	cmocka_unit_test(bench_result_suffix_names_each_delta),
};
const size_t counters_tests_count = COUNT_OF(counters_tests);
