/* test_conout.c - 带前缀的控制台输出：每行一个前缀、半行攒着、没有前缀时原样输出 */
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "console/conout.h"
#include "unit.h"

/* 用内存流代替 stdout/stderr，打印完取出内容 */
struct capture {
	char *out, *err;
	size_t out_len, err_len;
	FILE *fo, *fe;
};

static void cap_start(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->fo = open_memstream(&c->out, &c->out_len);
	c->fe = open_memstream(&c->err, &c->err_len);
	assert_non_null(c->fo);
	assert_non_null(c->fe);
	con_set_streams(c->fo, c->fe);
}

static void cap_stop(struct capture *c)
{
	con_set_streams(NULL, NULL);
	con_set_prefix(NULL);
	fclose(c->fo);
	fclose(c->fe);
}

static void cap_free(struct capture *c)
{
	free(c->out);
	free(c->err);
}

static void every_line_gets_prefix(void **state)
{
	struct capture c;

	(void)state;
	cap_start(&c);
	con_set_prefix("[客户端1 10.0.0.2] ");
	con_printf("步骤%d\n第二行\n", 6);
	con_printf("半");
	con_printf("行%s\n", "结束");
	con_eprintf("错误: %s\n", "x");
	cap_stop(&c);
	assert_string_equal(c.out, "[客户端1 10.0.0.2] 步骤6\n[客户端1 10.0.0.2] 第二行\n"
			    "[客户端1 10.0.0.2] 半行结束\n");
	assert_string_equal(c.err, "[客户端1 10.0.0.2] 错误: x\n");
	cap_free(&c);
}

static void no_prefix_is_plain_printf(void **state)
{
	struct capture c;

	(void)state;
	cap_start(&c);
	con_printf("发送> ");
	con_printf("a\nb\n");
	cap_stop(&c);
	assert_string_equal(c.out, "发送> a\nb\n");
	cap_free(&c);
}

static void flush_writes_half_line_and_long_lines_survive(void **state)
{
	struct capture c;
	char *big = malloc(10000);

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 9999);
	big[9999] = '\0';
	cap_start(&c);
	con_set_prefix("P ");
	con_printf("%s\n", big);
	con_printf("tail");
	con_flush();
	cap_stop(&c);
	/* 长行分段写时每段都带前缀，但一个字也不丢 */
	assert_true(strncmp(c.out, "P xxx", 5) == 0);
	assert_true(strstr(c.out, "P tail") != NULL);
	{
		size_t xs = 0;

		for (size_t i = 0; i < c.out_len; i++)
			xs += c.out[i] == 'x';
		assert_int_equal(xs, 9999);
	}
	free(big);
	cap_free(&c);
}

/*
 * 真实情况：`rdma_server >log 2>&1`，stdout 是全缓冲的文件流、stderr 不缓冲，两个都指向同一个文件。
 * stdout 的缓冲区满了会在一行中间写出去，此时 stderr 的一行就插进了这行中间（CI 里见过）。
 * 这里用同一个临时文件的两个 dup 重现：每一行都必须恰好以前缀开头、只有一个前缀。
 */
static void stdout_and_stderr_lines_never_split_each_other(void **state)
{
	static const char prefix[] = "[客户端7 10.0.0.2] ";
	FILE *tmp = tmpfile(), *fo, *fe;
	char line[512];
	int lines = 0;

	(void)state;
	assert_non_null(tmp);
	fo = fdopen(dup(fileno(tmp)), "w");
	fe = fdopen(dup(fileno(tmp)), "w");
	assert_non_null(fo);
	assert_non_null(fe);
	assert_int_equal(setvbuf(fo, NULL, _IOFBF, 4096), 0);
	assert_int_equal(setvbuf(fe, NULL, _IONBF, 0), 0);
	con_set_streams(fo, fe);
	con_set_prefix(prefix);
	for (int i = 0; i < 300; i++) {
		con_printf("第%03d行 stdout 的一行，长度不整除缓冲区大小 ......\n", i);
		if (i % 7 == 0)
			con_eprintf("错误: 第%03d行之后 stderr 的一行\n", i);
	}
	con_set_streams(NULL, NULL);
	con_set_prefix(NULL);
	fclose(fo);
	fclose(fe);
	rewind(tmp);
	while (fgets(line, sizeof(line), tmp) != NULL) {
		assert_true(strncmp(line, prefix, strlen(prefix)) == 0);
		assert_null(strstr(line + strlen(prefix), "[客户端"));
		lines++;
	}
	fclose(tmp);
	assert_int_equal(lines, 300 + 43);
}

const struct CMUnitTest conout_tests[] = {
	cmocka_unit_test(every_line_gets_prefix),
	cmocka_unit_test(no_prefix_is_plain_printf),
	cmocka_unit_test(flush_writes_half_line_and_long_lines_survive),
	cmocka_unit_test(stdout_and_stderr_lines_never_split_each_other),
};
const size_t conout_tests_count = COUNT_OF(conout_tests);
