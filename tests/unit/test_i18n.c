/* test_i18n.c - 界面语言怎么选（src/console/i18n.c）：--lang 优先，再看 LANGUAGE、LC_ALL、LC_MESSAGES、LANG */
#include "console/i18n.h"
#include "unit.h"

static void nothing_set_is_chinese(void **state)
{
	(void)state;
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, NULL), I18N_ZH);
	assert_int_equal(i18n_lang_from_env("", "", "", ""), I18N_ZH);
}

static void lang_decides_when_alone(void **state)
{
	(void)state;
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, "en_US.UTF-8"), I18N_EN);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, "en"), I18N_EN);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, "zh_CN.UTF-8"), I18N_ZH);
	/* 一台新的 Debian 只有 C.UTF-8：默认中文 */
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, "C.UTF-8"), I18N_ZH);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, NULL, "de_DE.UTF-8"), I18N_ZH);
}

static void first_nonempty_locale_variable_wins(void **state)
{
	(void)state;
	/* 和 setlocale 一样：LC_ALL 盖过 LC_MESSAGES，LC_MESSAGES 盖过 LANG */
	assert_int_equal(i18n_lang_from_env(NULL, "C.UTF-8", NULL, "en_US.UTF-8"), I18N_ZH);
	assert_int_equal(i18n_lang_from_env(NULL, "en_GB.UTF-8", "zh_CN.UTF-8", NULL), I18N_EN);
	assert_int_equal(i18n_lang_from_env(NULL, NULL, "en_US.UTF-8", "zh_CN.UTF-8"), I18N_EN);
	assert_int_equal(i18n_lang_from_env(NULL, "", "zh_CN.UTF-8", "en_US.UTF-8"), I18N_ZH);
}

static void language_list_comes_first(void **state)
{
	(void)state;
	assert_int_equal(i18n_lang_from_env("en", NULL, NULL, "zh_CN.UTF-8"), I18N_EN);
	assert_int_equal(i18n_lang_from_env("zh_CN:en", NULL, NULL, "en_US.UTF-8"), I18N_ZH);
	/* 列表里第一个认得的为准；一个也不认得时看 locale 变量 */
	assert_int_equal(i18n_lang_from_env("de:fr:en_GB", NULL, NULL, NULL), I18N_EN);
	assert_int_equal(i18n_lang_from_env("de:fr", NULL, NULL, "en_US.UTF-8"), I18N_EN);
	assert_int_equal(i18n_lang_from_env("de::", "zh_TW", NULL, NULL), I18N_ZH);
}

static void lang_option_parsing(void **state)
{
	char *a1[] = { "rdma_server", "--lang", "en", NULL };
	char *a2[] = { "rdma_client", "10.0.0.1", "--lang=zh", NULL };
	char *a3[] = { "rdma_server", "-q", "2", NULL };
	char *a4[] = { "rdma_server", "--lang", "fr", NULL };
	char *a5[] = { "rdma_server", "--lang", NULL };
	char *a6[] = { "rdma_server", "--lang=en", "--lang", "zh", NULL };

	(void)state;
	assert_int_equal(i18n_lang_from_argv(3, a1), I18N_EN);
	assert_int_equal(i18n_lang_from_argv(3, a2), I18N_ZH);
	assert_int_equal(i18n_lang_from_argv(3, a3), -1);
	assert_int_equal(i18n_lang_from_argv(3, a4), -1);   /* 不认得：交给参数解析报错 */
	assert_int_equal(i18n_lang_from_argv(2, a5), -1);
	assert_int_equal(i18n_lang_from_argv(4, a6), I18N_ZH);   /* 最后一个为准，和 getopt 一样 */
	assert_int_equal(i18n_lang_parse("en"), I18N_EN);
	assert_int_equal(i18n_lang_parse("zh"), I18N_ZH);
	assert_int_equal(i18n_lang_parse("EN"), -1);
	assert_int_equal(i18n_lang_parse(NULL), -1);
}

const struct CMUnitTest i18n_tests[] = {
	cmocka_unit_test(nothing_set_is_chinese),
	cmocka_unit_test(lang_decides_when_alone),
	cmocka_unit_test(first_nonempty_locale_variable_wins),
	cmocka_unit_test(language_list_comes_first),
	cmocka_unit_test(lang_option_parsing),
};
const size_t i18n_tests_count = sizeof(i18n_tests) / sizeof(i18n_tests[0]);
