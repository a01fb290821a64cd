/* test_trace.c - --trace 的写入：JSON 转义、事件格式、整行写出、PSN 计数（模 2^24）、错误去处；
 * 插件每条连接一份的状态表（plugins/per_conn.c：trace 的 PSN 计数放在里面），和 PSN 放不下时插件怎么办（plugins/trace_psn.c） */
#include <libgen.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/conout.h"
#include "console/i18n.h"
#include "plugins/per_conn.h"
#include "plugins/trace.h"
#include "plugins/trace_psn.h"
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

/*
 * 插件放不下一条连接的 PSN 状态（plugins/trace_psn.c 的 trace_psn_rts：calloc 失败或表满了，同一个分支、同一句话）：
 * 说一句（中文；--lang en 时英文），这条连接的 post_send 事件不写 psn_first（trace_hooks.c 的 note_traced_wr 照
 * trace_psn_take 的返回值填 has_psn），别的照常；ASan 版本（make asan）还查没有泄漏。这里用表满了走进那个分支：
 * 单元测试没有让 calloc 失败的桩
 */
static char *rts_then_post(struct per_conn *t, const struct rdma_conn *conn, const struct trace_ref *r, const char *path,
			   char *line, size_t len)
{
	struct trace_wr w = { .qp = 0, .qpn = 17, .dest_qpn = 18, .wr_id = 7, .opcode = "SEND", .len = 64, .npkts = 1,
			      .mtu = 1024, .signaled = 1 };
	char *text = NULL, buf[4096];
	size_t n = 0;
	FILE *err = open_memstream(&text, &n), *f;

	assert_non_null(err);
	con_set_streams(NULL, err);
	trace_psn_rts(t, conn, 0, 100);
	w.has_psn = trace_psn_take(t, conn, 0, w.npkts, &w.psn_first);
	trace_post_send(r, &w);
	con_set_streams(NULL, NULL);
	fclose(err);
	line[0] = '\0';
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f) != NULL)
		if (strstr(buf, "\"ev\":\"post_send\"") != NULL)
			snprintf(line, len, "%s", buf);
	fclose(f);
	return text;
}

/* 英文：和程序一样 i18n_init(--lang en)，目录是单元测试可执行文件上一层的 locale/（make 生成的 BUILD/locale） */
static void english(void)
{
	char exe[PATH_MAX] = "", dir[PATH_MAX + 16], mo[PATH_MAX + 64];
	char *argv[] = { "unit_tests", "--lang", "en", NULL };
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s/../locale", dirname(exe));
	snprintf(mo, sizeof(mo), "%s/en/LC_MESSAGES/" I18N_DOMAIN ".mo", dir);
	if (access(mo, R_OK) != 0)
		fail_msg("没有 %s：先 make（make unit 不生成英文的消息目录，make locale 生成）", mo);
	assert_int_equal(i18n_init(3, argv), I18N_EN);
	bindtextdomain(I18N_DOMAIN, dir);
}

static void chinese_again(void)
{
	setlocale(LC_MESSAGES, "C");   /* "C" 下 gettext 原样返回中文的 msgid，后面的测试不受影响 */
	unsetenv("LANGUAGE");
}

static void psn_state_that_does_not_fit_says_so_and_goes_on(void **state)
{
	static struct per_conn t;
	static struct rdma_conn conn, others[MAX_PARALLEL];
	static int dummy[MAX_PARALLEL];
	char path[] = "/tmp/unit-trace-psn-XXXXXX", err[256], line[4096];
	int fd = mkstemp(path);
	struct trace_ref r;
	char *text;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	r = (struct trace_ref){ .t = trace_open(path, "client", err, sizeof(err)), .conn = 0 };
	assert_non_null(r.t);
	per_conn_init(&t);
	for (int k = 0; k < MAX_PARALLEL; k++)   /* 别的连接占满了表 */
		assert_int_equal(per_conn_put(&t, &others[k], &dummy[k]), 0);

	text = rts_then_post(&t, &conn, &r, path, line, sizeof(line));
	assert_non_null(strstr(text, "--trace: 记不下QP的起始PSN（内存不够或同时的连接太多），这条连接的 post_send 不写 psn_first"));
	assert_non_null(strstr(line, "\"wr_id\":7"));   /* post_send 照样写了，只是没有 psn_first */
	assert_null(strstr(line, "psn_first"));
	free(text);

	english();
	text = rts_then_post(&t, &conn, &r, path, line, sizeof(line));
	chinese_again();
	assert_non_null(strstr(text, "--trace: cannot keep the QPs' start PSN (out of memory or too many connections at once); "
				     "this connection's post_send events have no psn_first"));
	assert_null(strstr(line, "psn_first"));
	free(text);

	/* 对照：空出一个位子，同一条连接的 PSN 从 RTS 的 sq_psn 数起，不再说什么；下一个 WR 接着数 */
	assert_ptr_equal(per_conn_take(&t, &others[0]), &dummy[0]);
	text = rts_then_post(&t, &conn, &r, path, line, sizeof(line));
	assert_string_equal(text, "");
	assert_non_null(strstr(line, "\"psn_first\":100"));
	free(text);
	{
		uint32_t first = 0;

		assert_int_equal(trace_psn_take(&t, &conn, 0, 3, &first), 1);
		assert_int_equal(first, 101);
	}

	trace_psn_drop(&t, &conn);   /* 放掉这条连接的 PSN 状态（ASan 查泄漏） */
	assert_null(per_conn_get(&t, &conn));
	for (int k = 1; k < MAX_PARALLEL; k++)
		assert_ptr_equal(per_conn_take(&t, &others[k]), &dummy[k]);
	trace_close(r.t, 0);
	unlink(path);
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
	cmocka_unit_test(psn_state_that_does_not_fit_says_so_and_goes_on),
};
const size_t trace_tests_count = COUNT_OF(trace_tests);
