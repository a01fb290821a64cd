/* test_cm_request.c - --cm 服务端怎样对待一个连接请求（cm_request_verdict）：一个会话只认第一个请求的地址和会话号 */
#include <string.h>

#include "connect/cm_shared.h"
#include "unit.h"

static struct cm_priv req(uint16_t index, uint32_t nonce)
{
	struct cm_priv p;

	memset(&p, 0, sizeof(p));
	p.index = index;
	p.num_qp = 2;
	p.nonce = nonce;
	return p;
}

/* 会话还没开始：第一个请求交给 check_request（参数不对时拒绝并结束这次建连，今天的行为） */
static void first_request_is_checked(void **state)
{
	struct cm_priv p = req(1, 0x1234);

	(void)state;
	assert_int_equal(cm_request_verdict(0, 0, 0, 1, &p, 0), CM_CHECK);
	assert_int_equal(cm_request_verdict(0, 0, 0, 0, &p, 0), CM_CHECK);   /* 不是本项目的格式：check_request 说出来 */
}

/* 会话开始之后：同一个地址、同一个会话号、空着的序号才是自己的 */
static void own_requests_are_checked(void **state)
{
	struct cm_priv p = req(2, 0xabcd);

	(void)state;
	assert_int_equal(cm_request_verdict(1, 0xabcd, 1, 1, &p, 0), CM_CHECK);
}

/* 另一个客户端：参数相同但会话号不同（以前会被收进本会话，两个客户端的 QP 接在一起）、别的地址、
 * 不是本项目的格式——都只拒绝它，本会话照常 */
static void other_clients_are_refused_alone(void **state)
{
	struct cm_priv same_params = req(2, 0x9999);
	struct cm_priv same_nonce = req(2, 0xabcd);

	(void)state;
	assert_int_equal(cm_request_verdict(1, 0xabcd, 1, 1, &same_params, 0), CM_REFUSE_STRAY);
	assert_int_equal(cm_request_verdict(1, 0xabcd, 0, 1, &same_nonce, 0), CM_REFUSE_STRAY);
	assert_int_equal(cm_request_verdict(1, 0xabcd, 1, 0, &same_nonce, 0), CM_REFUSE_STRAY);
	/* 参数不同的第二个客户端（以前让正在建连的第一个也失败）：会话号不同，只拒绝它 */
	same_params.num_qp = 4;
	assert_int_equal(cm_request_verdict(1, 0xabcd, 1, 1, &same_params, 0), CM_REFUSE_STRAY);
}

/* 已经占了的序号：重复的请求，拒绝它 */
static void taken_slot_is_refused(void **state)
{
	struct cm_priv p = req(1, 0xabcd);

	(void)state;
	assert_int_equal(cm_request_verdict(1, 0xabcd, 1, 1, &p, 1), CM_REFUSE_STRAY);
	assert_int_equal(cm_request_verdict(0, 0, 1, 1, &p, 1), CM_REFUSE_STRAY);
}

const struct CMUnitTest cm_request_tests[] = {
	cmocka_unit_test(first_request_is_checked),
	cmocka_unit_test(own_requests_are_checked),
	cmocka_unit_test(other_clients_are_refused_alone),
	cmocka_unit_test(taken_slot_is_refused),
};
const size_t cm_request_tests_count = COUNT_OF(cm_request_tests);
