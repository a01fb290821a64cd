/*
 * i18n.c - 选界面语言，英文时加载 gettext 的消息目录（见 i18n.h）
 */
#include "console/i18n.h"

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 一个语言名（"en_US.UTF-8"、"zh_CN"、"en"）→ 语言；不是中文也不是英文时返回 -1 */
static int lang_of(const char *value)
{
	if (strncmp(value, "en", 2) == 0)
		return I18N_EN;
	if (strncmp(value, "zh", 2) == 0)
		return I18N_ZH;
	return -1;
}

/* LANGUAGE 是冒号分隔的优先列表（"de:en"）：第一个认得的为准 */
static int lang_of_list(const char *list)
{
	char item[64];

	while (list != NULL && *list != '\0') {
		size_t n = strcspn(list, ":");

		if (n > 0 && n < sizeof(item)) {
			int l;

			memcpy(item, list, n);
			item[n] = '\0';
			l = lang_of(item);
			if (l >= 0)
				return l;
		}
		list += n;
		if (*list == ':')
			list++;
	}
	return -1;
}

enum i18n_lang i18n_lang_from_env(const char *language, const char *lc_all,
				  const char *lc_messages, const char *lang)
{
	const char *locale_vars[] = { lc_all, lc_messages, lang };
	int l = lang_of_list(language);

	if (l >= 0)
		return (enum i18n_lang)l;
	/* 和 setlocale 一样：第一个非空的变量说了算（LC_ALL=C 时 LANG=en_US 不起作用） */
	for (size_t i = 0; i < sizeof(locale_vars) / sizeof(locale_vars[0]); i++)
		if (locale_vars[i] != NULL && locale_vars[i][0] != '\0')
			return lang_of(locale_vars[i]) == I18N_EN ? I18N_EN : I18N_ZH;
	return I18N_ZH;
}

int i18n_lang_parse(const char *name)
{
	if (name == NULL)
		return -1;
	if (strcmp(name, "zh") == 0)
		return I18N_ZH;
	if (strcmp(name, "en") == 0)
		return I18N_EN;
	return -1;
}

int i18n_lang_from_argv(int argc, char **argv)
{
	int lang = -1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--lang") == 0 && i + 1 < argc)
			lang = i18n_lang_parse(argv[++i]);
		else if (strncmp(argv[i], "--lang=", 7) == 0)
			lang = i18n_lang_parse(argv[i] + 7);
	}
	return lang;
}

/* 消息目录：可执行文件所在目录下的 locale/（make 生成 build/locale/en/LC_MESSAGES/rocev2-learn.mo） */
static void locale_dir(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0) {
		snprintf(out, len, "build/locale");
		return;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash != NULL)
		*slash = '\0';
	snprintf(out, len, "%s/locale", exe);
}

enum i18n_lang i18n_init(int argc, char **argv)
{
	int lang = i18n_lang_from_argv(argc, argv);
	char dir[PATH_MAX + 16];

	if (lang < 0)
		lang = i18n_lang_from_env(getenv("LANGUAGE"), getenv("LC_ALL"),
					  getenv("LC_MESSAGES"), getenv("LANG"));
	if (lang == I18N_ZH)
		return I18N_ZH;         /* 中文：不加载目录，gettext 原样返回源码里的中文 */
	/* 只动 LC_MESSAGES（数字格式、排序都不变）；没生成这个 locale 时用一定有的 C.UTF-8，
	 * 因为在 "C" 下 glibc 的 gettext 不理 LANGUAGE */
	const char *got = setlocale(LC_MESSAGES, "");

	if (got == NULL || strcmp(got, "C") == 0 || strcmp(got, "POSIX") == 0)
		setlocale(LC_MESSAGES, "C.UTF-8");
	setenv("LANGUAGE", "en", 1);
	locale_dir(dir, sizeof(dir));
	bindtextdomain(I18N_DOMAIN, dir);
	bind_textdomain_codeset(I18N_DOMAIN, "UTF-8");
	textdomain(I18N_DOMAIN);
	return I18N_EN;
}

const char *i18n_lang_name(void)
{
	/* 不另存一份状态：英文时 i18n_init 设了文本域，中文时它还是 gettext 的默认 "messages" */
	return strcmp(textdomain(NULL), I18N_DOMAIN) == 0 ? "en" : "zh";
}
