/* test_trace.c - --trace 的写入：JSON 转义、事件格式、整行写出、PSN 计数（模 2^24）、错误去处；
 * 插件每条连接一份的状态表（plugins/per_conn.c：trace 的 PSN 计数放在里面） */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/conout.h"
#include "plugins/per_conn.h"
#include "plugins/trace.h"
#include "unit.h"

static const struct timespec REAL = { 1795348801, 123456789 };   /* 2026-11-22T12:00:01.123456Z */
static const struct timespec MONO = { 15, 190443000 };

static const char *line_of(struct tj *j)
{
	const char *s = tj_finish(j);

	assert_non_null(s);
	return s;
}

static void header_fields_and_time_format(void **state)
{
	struct tj j;

	(void)state;
	tj_begin_at(&j, "client", "step", 0, &REAL, &MONO);
	tj_int(&j, "n", 11);
	tj_str(&j, "title", "交换连接信息（控制平面）");
	assert_string_equal(line_of(&j),
		"{\"v\":2,\"ev\":\"step\",\"role\":\"client\",\"t_real\":\"2026-11-22T12:00:01.123456Z\","
		"\"t_mono\":15.190443,\"n\":11,\"title\":\"交换连接信息（控制平面）\"}\n");
}

static void conn_field_only_for_sessions(void **state)
{
	struct tj j;

	(void)state;
	tj_begin_at(&j, "server", "end", 3, &REAL, &MONO);
	assert_non_null(strstr(line_of(&j), ",\"conn\":3}"));
	tj_begin_at(&j, "server", "end", 0, &REAL, &MONO);
	assert_null(strstr(line_of(&j), "conn"));
}

static void strings_are_escaped(void **state)
{
	struct tj j;

	(void)state;
	tj_begin_at(&j, "server", "error", 0, &REAL, &MONO);
	tj_str(&j, "msg", "a\"b\\c\nd\te\x01" "f 中文");
	assert_non_null(strstr(line_of(&j), "\"msg\":\"a\\\"b\\\\c\\nd\\te\\u0001f 中文\"}"));
}

static void nesting_hex_bool_arrays(void **state)
{
	struct tj j;
	const char *s;

	(void)state;
	tj_begin_at(&j, "client", "verbs", 0, &REAL, &MONO);
	tj_bool(&j, "ok", 1);
	tj_obj(&j, "res");
	tj_hex(&j, "rkey", 0x205, 8);
	tj_hex(&j, "addr", 0x55a456c21000ull, 0);
	tj_arr(&j, "devs");
	tj_item_str(&j, "rxe0");
	tj_item_str(&j, "rxe1");
	tj_close(&j, ']');
	tj_arr(&j, "qps");
	tj_obj(&j, NULL);
	tj_int(&j, "qpn", 17);
	tj_close(&j, '}');
	tj_obj(&j, NULL);
	tj_int(&j, "qpn", -1);
	tj_close(&j, '}');
	tj_close(&j, ']');
	tj_close(&j, '}');
	tj_bool(&j, "last", 0);
	s = line_of(&j);
	assert_non_null(strstr(s, ",\"ok\":true,\"res\":{\"rkey\":\"0x00000205\",\"addr\":\"0x55a456c21000\","
			       "\"devs\":[\"rxe0\",\"rxe1\"],\"qps\":[{\"qpn\":17},{\"qpn\":-1}]},\"last\":false}\n"));
}

static void overflow_drops_the_whole_line(void **state)
{
	struct tj j;
	char big[1000];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tj_begin_at(&j, "client", "error", 0, &REAL, &MONO);
	for (int i = 0; i < 9; i++)
		tj_str(&j, "msg", big);
	assert_null(tj_finish(&j));
}

static void psn_wraps_at_24_bits(void **state)
{
	(void)state;
	assert_int_equal(psn_add(0xfffffe, 1), 0xffffff);
	assert_int_equal(psn_add(0xfffffe, 2), 0x000000);
	assert_int_equal(psn_add(0xfffffe, 4), 0x000002);
	assert_int_equal(psn_add(0x80fb8d, 2), 0x80fb8f);
	assert_int_equal(psn_add(0xffffff, 0x1000000), 0xffffff);
}

static void packets_per_wr(void **state)
{
	(void)state;
	assert_int_equal(psn_npkts(2048, 1024, 0), 2);     /* WRITE 2 KiB: First + Last */
	assert_int_equal(psn_npkts(3072, 1024, 0), 3);     /* READ 3 KiB: 3 个响应包 */
	assert_int_equal(psn_npkts(1500, 1024, 0), 2);
	assert_int_equal(psn_npkts(1024, 1024, 0), 1);
	assert_int_equal(psn_npkts(1025, 1024, 0), 2);
	assert_int_equal(psn_npkts(64, 4096, 0), 1);
	assert_int_equal(psn_npkts(0, 1024, 0), 1);        /* 0 字节的 SEND 也是一个包 */
	assert_int_equal(psn_npkts(8, 1024, 1), 1);        /* 原子操作 */
	assert_int_equal(psn_npkts(1 << 20, 256, 0), 4096);
}

/* 真的写一个文件：几个线程共用一个 trace，每行都完整 */
struct writer_arg {
	struct trace *t;
	int conn;
};

static void *writer(void *p)
{
	struct writer_arg *a = p;
	struct trace_ref r = { a->t, a->conn };

	for (int i = 0; i < 200; i++)
		trace_step(&r, (unsigned)i, "并发写同一个 trace 文件的一行，长一点才容易撞上交错");
	return NULL;
}

static void shared_file_keeps_lines_whole(void **state)
{
	char path[] = "/tmp/test_trace_XXXXXX", err[128], line[1024];
	struct writer_arg args[4];
	pthread_t th[4];
	struct trace *t;
	FILE *f;
	int fd = mkstemp(path), lines = 0, ends = 0;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	t = trace_open(path, "server", err, sizeof(err));
	assert_non_null(t);
	for (int i = 0; i < 4; i++) {
		args[i].t = t;
		args[i].conn = i + 1;
		assert_int_equal(pthread_create(&th[i], NULL, writer, &args[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	trace_close(t, 0);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		assert_true(strncmp(line, "{\"v\":2,\"ev\":\"", 13) == 0);
		assert_true(strcmp(line + strlen(line) - 2, "}\n") == 0);
		ends += strstr(line, "\"ev\":\"end\",\"role\":\"server\"") != NULL &&
			strstr(line, "\"exit\":0}") != NULL;
		lines++;
	}
	fclose(f);
	unlink(path);
	assert_int_equal(lines, 4 * 200 + 1);
	assert_int_equal(ends, 1);
}

static void open_failure_says_why(void **state)
{
	char err[256];

	(void)state;
	assert_null(trace_open("/nonexistent-dir/x.jsonl", "client", err, sizeof(err)));
	assert_non_null(strstr(err, "/nonexistent-dir/x.jsonl"));
	assert_non_null(strstr(err, "errno=2"));
}

static void null_trace_is_a_no_op(void **state)
{
	struct trace_ref none = { NULL, 0 };
	struct trace_wr w = { .opcode = "SEND" };

	(void)state;
	trace_step(&none, 1, "x");
	trace_step(NULL, 1, "x");
	trace_post_send(&none, &w);
	trace_error(&none, "x", NULL);
	trace_close(NULL, 0);
	assert_false(trace_on(&none));
}

/* 错误去处：控制台上的 “错误: …” + “提示: …” 变成一对 */
struct caught {
	char msg[4][256], hint[4][256];
	int n;
};

static void catch_error(void *ctx, const char *msg, const char *hint)
{
	struct caught *c = ctx;

	snprintf(c->msg[c->n], sizeof(c->msg[0]), "%s", msg);
	snprintf(c->hint[c->n], sizeof(c->hint[0]), "%s", hint != NULL ? hint : "(none)");
	c->n++;
}

static void error_sink_pairs_error_and_hint(void **state)
{
	struct caught c = { .n = 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&text, &len);

	(void)state;
	con_set_streams(NULL, err);
	con_set_error_sink(catch_error, &c);
	con_error("QP[%d] %s 失败: %s (errno=%d)\n", 0, "ibv_post_send()", "Invalid argument", 22);
	con_hint("%s\n", "QP 不在 RTS");
	con_eprintf("警告: 不是错误\n");
	con_eprintf("错误: 直接打印的文字不是错误（不经 con_error 就不进 trace）\n");
	con_error("没有提示的错误\n");
	con_error("最后一个\n  第二行\n" CON_HINT "提示也可以\n  两行\n");
	con_hint("没有等提示的错误时，提示只打印\n");
	con_set_error_sink(NULL, NULL);
	con_error("去处关掉以后不再收\n" CON_HINT "x\n");
	con_set_streams(NULL, NULL);
	fclose(err);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.msg[0], "QP[0] ibv_post_send() 失败: Invalid argument (errno=22)");
	assert_string_equal(c.hint[0], "QP 不在 RTS");
	assert_string_equal(c.msg[1], "没有提示的错误");
	assert_string_equal(c.hint[1], "(none)");
	assert_string_equal(c.msg[2], "最后一个\n  第二行");
	assert_string_equal(c.hint[2], "提示也可以\n  两行");
	/* 控制台上：“错误: ”“提示: ” 加上文字，和直接打印一样 */
	assert_string_equal(text, "错误: QP[0] ibv_post_send() 失败: Invalid argument (errno=22)\n"
			    "提示: QP 不在 RTS\n警告: 不是错误\n错误: 直接打印的文字不是错误（不经 con_error 就不进 trace）\n"
			    "错误: 没有提示的错误\n错误: 最后一个\n  第二行\n提示: 提示也可以\n  两行\n"
			    "提示: 没有等提示的错误时，提示只打印\n错误: 去处关掉以后不再收\n提示: x\n");
	free(text);
}

/* 插件的状态按连接放：看（get）不删，取走（take）才删；别的连接的看不到；满了 put 返回 -1 */
static void per_conn_state_by_connection(void **state)
{
	static struct rdma_conn conns[MAX_PARALLEL + 1];
	static int vals[MAX_PARALLEL + 1];
	static struct per_conn t;

	(void)state;
	per_conn_init(&t);
	assert_null(per_conn_get(&t, &conns[0]));
	assert_int_equal(per_conn_put(&t, &conns[0], &vals[0]), 0);
	assert_int_equal(per_conn_put(&t, &conns[1], &vals[1]), 0);
	assert_ptr_equal(per_conn_get(&t, &conns[0]), &vals[0]);
	assert_ptr_equal(per_conn_get(&t, &conns[0]), &vals[0]);   /* 看两次还在 */
	assert_ptr_equal(per_conn_get(&t, &conns[1]), &vals[1]);
	assert_null(per_conn_get(&t, &conns[2]));
	assert_ptr_equal(per_conn_take(&t, &conns[0]), &vals[0]);
	assert_null(per_conn_get(&t, &conns[0]));
	assert_null(per_conn_take(&t, &conns[0]));
	assert_ptr_equal(per_conn_get(&t, &conns[1]), &vals[1]);
	for (int k = 2; k <= MAX_PARALLEL; k++)   /* 空出来的位子再用：一共 MAX_PARALLEL 个 */
		assert_int_equal(per_conn_put(&t, &conns[k], &vals[k]), 0);
	assert_int_equal(per_conn_put(&t, &conns[0], &vals[0]), -1);
	assert_ptr_equal(per_conn_get(&t, &conns[MAX_PARALLEL]), &vals[MAX_PARALLEL]);
}

const struct CMUnitTest trace_tests[] = {
	cmocka_unit_test(header_fields_and_time_format),
	cmocka_unit_test(conn_field_only_for_sessions),
	cmocka_unit_test(strings_are_escaped),
	cmocka_unit_test(nesting_hex_bool_arrays),
	cmocka_unit_test(overflow_drops_the_whole_line),
	cmocka_unit_test(psn_wraps_at_24_bits),
	cmocka_unit_test(packets_per_wr),
	cmocka_unit_test(shared_file_keeps_lines_whole),
	cmocka_unit_test(open_failure_says_why),
	cmocka_unit_test(null_trace_is_a_no_op),
	cmocka_unit_test(error_sink_pairs_error_and_hint),
	cmocka_unit_test(per_conn_state_by_connection),
};
const size_t trace_tests_count = COUNT_OF(trace_tests);
