/*
 * test_ctrl.c - 同步点的核对（ctrl_check_sync，issue 37 第 10 条）：收到的同步消息必须正好是本端等的那个标签。
 * 接受任何标签的版本会让两端在流程错开时照样往下走（一端以为对端已投递接收、已写完……），所以这里逐种核对：
 * 对的标签 → 0；心跳 → 1（接着等）；别的标签（下一轮、别的种类）→ -1，错误说出期望的和收到的两个标签；格式不对 → -1
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/conout.h"
#include "control/ctrl.h"
#include "plugins/ctrl_trace.h"
#include "verbs/gid.h"
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

/*
 * --trace 的 HELLO 事件（ctrl_send/ctrl_recv）带着 HELLO 头的每个字段（src/control/wire.h 的表，版本号和保留字节除外）：
 * 读 trace 的人要能看出两端报了什么 READ/原子深度、什么 GID 类型，不能只在控制台上看
 */
static void hello_trace_event_carries_every_header_field(void **state)
{
	char path[] = "/tmp/test_ctrl_trace_XXXXXX", err[128], line[2048] = "";
	static const char *const want[] = {
		"\"op\":\"fetch_add\"", "\"flags\":\"0x08\"", "\"num_qp\":1", "\"mtu\":1024", "\"size\":8",
		"\"iters\":3", "\"addr\":\"0x7f0000001000\"", "\"rkey\":\"0x00001234\"", "\"slot\":64",
		"\"offset\":16", "\"rd_atom\":128", "\"init_rd_atom\":16", "\"gid_type\":1",
	};
	struct wire_hello h = {
		.version = WIRE_VERSION, .op = OP_FETCH_ADD, .flags = WIRE_FLAG_CQ_EVENT, .num_qp = 1, .mtu = 3, .size = 8,
		.iters = 3, .addr = 0x7f0000001000ull, .rkey = 0x1234, .slot = ATOMIC_SLOT, .offset = 16,
		.rd_atom = 128, .init_rd_atom = 16, .gid_type = GID_KIND_ROCE_V1,
	};
	struct trace_ref r = { NULL, 0 };
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	r.t = trace_open(path, "client", err, sizeof(err));
	assert_non_null(r.t);
	trace_ctrl_hello(&r, 1, &h);
	trace_close(r.t, 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL && strstr(line, "\"msg\":\"HELLO\"") == NULL)
		;
	fclose(f);
	unlink(path);
	assert_non_null(strstr(line, "\"ev\":\"ctrl_send\""));
	for (size_t i = 0; i < COUNT_OF(want); i++)
		if (strstr(line, want[i]) == NULL)
			fail_msg("HELLO 事件里没有 %s：%s", want[i], line);
}

const struct CMUnitTest ctrl_tests[] = {
	cmocka_unit_test(sync_tag_must_match),
	cmocka_unit_test(sync_out_of_step_names_both_tags),
	cmocka_unit_test(sync_bad_format_rejected),
	cmocka_unit_test(hello_trace_event_carries_every_header_field),
};
const size_t ctrl_tests_count = COUNT_OF(ctrl_tests);
