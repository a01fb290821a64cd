/*
 * i18n.h - 界面语言：中文（默认，源码里的文字本身）或英文（po/en.po 翻成的 build/locale/en/…/rocev2-learn.mo）
 *
 * 源码里每一句给人看的中文都写成 _("…")：它就是 GNU gettext 的消息 id（msgid）。中文运行时不加载任何目录，
 * gettext 原样返回这句中文，输出和没有 gettext 时一个字节都不差；英文运行时 gettext 从 .mo 里查出译文。
 * 静态表里的文字（编译期常量，不能调用函数）写成 N_("…")：只给 xgettext 做记号，用的地方再 _(表项)。
 *
 * 用哪种语言（i18n_init）：--lang zh|en 优先；否则看环境变量 LANGUAGE、LC_ALL、LC_MESSAGES、LANG，
 * 第一个以 en 开头的选英文、以 zh 开头的选中文（其它值，例如 C.UTF-8，都是中文）。
 * 这台机器没有生成 en_US.UTF-8 这个 locale 也照样是英文：glibc 的 gettext 在 "C" locale 下不理 LANGUAGE，
 * 所以那时改用一定存在的 C.UTF-8（只改 LC_MESSAGES：数字的小数点等格式不受影响）。
 */
#ifndef ROCE_I18N_H
#define ROCE_I18N_H

#include "console/i18n.h"
#include <libintl.h>

#define _(msgid) gettext(msgid)
#define N_(msgid) (msgid)
/* 带数量的句子：中文不分单复数，两个 id 写同一句；英文按 n 选 "1 QP" / "2 QPs" */
#define P_(msgid, plural, n) ngettext(msgid, plural, (unsigned long)(n))

#define I18N_DOMAIN "rocev2-learn"

enum i18n_lang { I18N_ZH, I18N_EN };

/* 由环境变量的值决定语言（纯逻辑，单元测试用）：参数依次是 LANGUAGE、LC_ALL、LC_MESSAGES、LANG 的值，可以是 NULL */
enum i18n_lang i18n_lang_from_env(const char *language, const char *lc_all,
				  const char *lc_messages, const char *lang);
/* "zh" / "en" → 语言；别的返回 -1 */
int i18n_lang_parse(const char *name);
/* 在 argv 里找 --lang X / --lang=X（参数解析之前就要定语言：参数错误的提示也要翻译）；没有或不认识时返回 -1 */
int i18n_lang_from_argv(int argc, char **argv);
/*
 * 进程开始时调用一次（任何输出之前）：定语言；英文时设好 LC_MESSAGES、LANGUAGE，把文本域绑到
 * 可执行文件旁边的 locale/ 目录（build/rdma_server → build/locale）。返回选中的语言。
 */
enum i18n_lang i18n_init(int argc, char **argv);
/* 本进程的语言："zh" 或 "en"（trace 记下它，页面跟着它） */
const char *i18n_lang_name(void);

#endif
