/* test_conout.c - 带前缀的控制台输出：每行一个前缀、半行攒着、没有前缀时原样输出 */
#include <stdlib.h>
#include <string.h>

#include "conout.h"
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

const struct CMUnitTest conout_tests[] = {
	cmocka_unit_test(every_line_gets_prefix),
	cmocka_unit_test(no_prefix_is_plain_printf),
	cmocka_unit_test(flush_writes_half_line_and_long_lines_survive),
};
const size_t conout_tests_count = COUNT_OF(conout_tests);
