/* test_sq_account.c - 发送队列记账（sq_account.c）：硬件的槽位规则，和延迟乒乓按QP数的 --signal */
#include "unit.h"

#include "verbs/sq_account.h"

/*
 * 槽位只在“同一个QP上它本身或它之后的一个 signaled WR”的完成取出后释放（s = signaled，u = 不要完成）：
 *   u u s → 占 3；取到 s 的完成 → 3 个都释放。
 *   s u u → 占 3；取到 s 的完成 → 只释放 s 自己（它后面的两个 u 还占着）→ 占 2。
 */
static void slot_freed_by_later_signaled_only(void **state)
{
	struct sq_account a;

	(void)state;
	assert_int_equal(sq_account_init(&a, 4), 0);
	sq_account_post(&a, 0);
	sq_account_post(&a, 0);
	sq_account_post(&a, 1);
	assert_int_equal(sq_account_in_use(&a), 3);
	assert_true(sq_account_fits(&a, 1) && !sq_account_fits(&a, 2));
	assert_int_equal(sq_account_complete(&a), 0);
	assert_int_equal(sq_account_in_use(&a), 0);
	sq_account_post(&a, 1);
	sq_account_post(&a, 0);
	sq_account_post(&a, 0);
	assert_int_equal(sq_account_complete(&a), 0);
	assert_int_equal(sq_account_in_use(&a), 2);
	assert_true(sq_account_fits(&a, 2) && !sq_account_fits(&a, 3));
	/* 没有在途的 signaled WR 却来了发送完成：记账错了 */
	assert_int_equal(sq_account_complete(&a), -1);
	assert_int_equal(sq_account_in_use(&a), 2);
	sq_account_free(&a);
}

/* 环形数组绕回：cap 2，s s 在途，取一个、再投一个……位置一直对 */
static void ring_wraps(void **state)
{
	struct sq_account a;

	(void)state;
	assert_int_equal(sq_account_init(&a, 2), 0);
	sq_account_post(&a, 1);
	for (int k = 0; k < 10; k++) {
		sq_account_post(&a, 1);
		assert_false(sq_account_fits(&a, 1));
		assert_int_equal(sq_account_complete(&a), 0);
		assert_int_equal(sq_account_in_use(&a), 1);
	}
	assert_int_equal(sq_account_complete(&a), 0);
	assert_int_equal(sq_account_in_use(&a), 0);
	assert_int_equal(a.freed, 11);
	sq_account_free(&a);
}

/*
 * 延迟乒乓 -q 2 --signal 2，共 10 个 WR（k = 0..9，QP = k % 2）：按QP数，每个QP的第 2、4 个和最后一个要完成：
 *   k: 0 1 2 3 4 5 6 7 8 9 → 否 否 是 是 否 否 是 是 是 是
 */
static void lat_signal_counted_per_qp(void **state)
{
	const int want[10] = { 0, 0, 1, 1, 0, 0, 1, 1, 1, 1 };

	(void)state;
	for (long k = 0; k < 10; k++)
		assert_int_equal(lat_wr_signaled(k, 2, 2, 10), want[k]);
	for (long k = 0; k < 10; k++)
		assert_true(lat_wr_signaled(k, 4, 1, 10));
	/* 1 个QP：第 3、6、9 个和最后一个（k=9 本来就是） */
	assert_true(!lat_wr_signaled(0, 1, 3, 10) && lat_wr_signaled(2, 1, 3, 10) && lat_wr_signaled(9, 1, 3, 10));
}

/*
 * 乒乓模拟：-q 2 --signal 2，发送队列 16，1000 个 WR；每个 signaled WR 投递后马上取到它的完成（乒乓就是这样等的）。
 * 按QP数：每次投递都放得下，结束时两个QP都还清。按全局序号数（旧规则 (k+1)%2==0）：QP0 上永远没有
 * signaled 的 WR，第 17 个 WR 放不下——mlx5 上就是 ibv_post_send 返回 ENOMEM 的那一刻。
 */
static void pingpong_fits_per_qp_not_global(void **state)
{
	struct sq_account a[2];
	long total = 1000, refused_at = -1;

	(void)state;
	for (int pass = 0; pass < 2; pass++) {
		assert_int_equal(sq_account_init(&a[0], 16), 0);
		assert_int_equal(sq_account_init(&a[1], 16), 0);
		for (long k = 0; k < total; k++) {
			struct sq_account *q = &a[k % 2];
			int sig = pass == 0 ? lat_wr_signaled(k, 2, 2, total) : ((k + 1) % 2 == 0 || k == total - 1);

			if (!sq_account_fits(q, 1)) {
				refused_at = k;
				break;
			}
			sq_account_post(q, sig);
			if (sig)
				assert_int_equal(sq_account_complete(q), 0);
		}
		if (pass == 0) {
			assert_int_equal(refused_at, -1);
			assert_true(sq_account_in_use(&a[0]) == 0 && sq_account_in_use(&a[1]) == 0);
		} else {
			assert_int_equal(refused_at, 32);   /* QP0 的第 17 个 WR（k = 32） */
			assert_int_equal(sq_account_in_use(&a[0]), 16);
		}
		sq_account_free(&a[0]);
		sq_account_free(&a[1]);
	}
}

const struct CMUnitTest sq_account_tests[] = {
	cmocka_unit_test(slot_freed_by_later_signaled_only),
	cmocka_unit_test(ring_wraps),
	cmocka_unit_test(lat_signal_counted_per_qp),
	cmocka_unit_test(pingpong_fits_per_qp_not_global),
};
const size_t sq_account_tests_count = COUNT_OF(sq_account_tests);
