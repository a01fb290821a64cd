/*
 * test_ctrl.c - 同步点的核对（ctrl_check_sync，issue 37 第 10 条）：收到的同步消息必须正好是本端等的那个标签。
 * 接受任何标签的版本会让两端在流程错开时照样往下走（一端以为对端已投递接收、已写完……），所以这里逐种核对：
 * 对的标签 → 0；心跳 → 1（接着等）；别的标签（下一轮、别的种类）→ -1，错误说出期望的和收到的两个标签；格式不对 → -1
 */
#include <stdlib.h>
#include <string.h>

#include "base/conout.h"
#include "control/ctrl.h"
#include "unit.h"

/* 核对一条编码好的同步消息（标签 sent），等的是 want；错误输出写进 *err（调用者 free） */
static int check(uint32_t sent, uint32_t want, char **err)
{
	uint8_t buf[WIRE_SYNC_LEN];
	size_t len = 0;
	FILE *fe = open_memstream(err, &len);
	int rc;

	assert_non_null(fe);
	wire_encode_sync(sent, buf);
	con_set_streams(stdout, fe);
	rc = ctrl_check_sync(buf, sizeof(buf), want);
	con_set_streams(NULL, NULL);
	fclose(fe);
	return rc;
}

static void sync_tag_must_match(void **state)
{
	char *err = NULL;

	(void)state;
	assert_int_equal(check(SYNC_TAG(SYNC_DONE, 1), SYNC_TAG(SYNC_DONE, 1), &err), 0);
	assert_string_equal(err, "");
	free(err);
	assert_int_equal(check(SYNC_TAG(SYNC_RTS, 0), SYNC_TAG(SYNC_RTS, 0), &err), 0);
	free(err);
	/* 心跳：对端还在干活，接着等（不是错误） */
	assert_int_equal(check(SYNC_TAG(SYNC_ALIVE, 0), SYNC_TAG(SYNC_DONE, 7), &err), 1);
	assert_string_equal(err, "");
	free(err);
}

static void sync_out_of_step_names_both_tags(void **state)
{
	char *err = NULL;

	(void)state;
	/* 同一种、下一轮（对端跑到前面去了） */
	assert_int_equal(check(SYNC_TAG(SYNC_DONE, 2), SYNC_TAG(SYNC_DONE, 1), &err), -1);
	assert_non_null(strstr(err, "同步点错位：期望 0x03000001，收到 0x03000002"));
	free(err);
	/* 同一轮、别的种类（等 READY 却来了 ACK） */
	assert_int_equal(check(SYNC_TAG(SYNC_ACK, 3), SYNC_TAG(SYNC_READY, 3), &err), -1);
	assert_non_null(strstr(err, "同步点错位：期望 0x02000003，收到 0x04000003"));
	free(err);
	/* RTS 还没到，来了第 1 轮的 READY */
	assert_int_equal(check(SYNC_TAG(SYNC_READY, 1), SYNC_TAG(SYNC_RTS, 0), &err), -1);
	assert_non_null(strstr(err, "期望 0x01000000，收到 0x02000001"));
	free(err);
}

static void sync_bad_format_rejected(void **state)
{
	uint8_t buf[WIRE_SYNC_LEN];
	char *err = NULL;
	size_t len = 0;
	FILE *fe = open_memstream(&err, &len);

	(void)state;
	assert_non_null(fe);
	wire_encode_sync(SYNC_TAG(SYNC_DONE, 1), buf);
	buf[0] ^= 0xff;   /* 魔数不对：不是同步消息 */
	con_set_streams(stdout, fe);
	assert_int_equal(ctrl_check_sync(buf, sizeof(buf), SYNC_TAG(SYNC_DONE, 1)), -1);
	wire_encode_sync(SYNC_TAG(SYNC_DONE, 1), buf);
	assert_int_equal(ctrl_check_sync(buf, sizeof(buf) - 1, SYNC_TAG(SYNC_DONE, 1)), -1);   /* 短了一个字节 */
	con_set_streams(NULL, NULL);
	fclose(fe);
	assert_true(strlen(err) > 0);
	free(err);
}

const struct CMUnitTest ctrl_tests[] = {
	cmocka_unit_test(sync_tag_must_match),
	cmocka_unit_test(sync_out_of_step_names_both_tags),
	cmocka_unit_test(sync_bad_format_rejected),
};
const size_t ctrl_tests_count = COUNT_OF(ctrl_tests);
