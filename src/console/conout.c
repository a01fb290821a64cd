/*
 * conout.c - 带行前缀的控制台输出（见 conout.h）
 */
#include "console/conout.h"
#include "console/i18n.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX_MAX 96
#define PENDING_MAX 4096

/* 一个输出流上还没写出去的半行 */
struct pending {
	char text[PENDING_MAX];
	size_t len;
};

#define ERROR_MAX 2048

/* 错误去处（con_set_error_sink）和还在等提示（con_hint）的错误 */
struct error_sink {
	con_error_fn fn;
	void *ctx;
	char msg[ERROR_MAX];    /* 空 = 没有等提示的错误 */
};

/* 每个线程一份：前缀、两个流、各自的半行、错误去处 */
struct con_state {
	char prefix[PREFIX_MAX];
	FILE *out, *err;
	struct pending p_out, p_err;
	struct error_sink sink;
};

static _Thread_local struct con_state con;

static FILE *out_stream(void) { return con.out != NULL ? con.out : stdout; }
static FILE *err_stream(void) { return con.err != NULL ? con.err : stderr; }

/*
 * 前缀 + 一整行，拼成一块、锁住流写进去并立刻 fflush：一行就是一次 write()。
 * 只锁流还不够：输出重定向到文件时 stdout 是全缓冲的，缓冲区满了会在一行中间写出去，
 * 而 stderr 不缓冲、随时直接写，两个流在同一个文件里就会把一行从中间切开（CI 里见过）。
 */
static void write_line(FILE *f, const char *line, size_t len)
{
	char buf[PREFIX_MAX + PENDING_MAX];
	size_t plen = strlen(con.prefix);

	flockfile(f);
	if (plen + len <= sizeof(buf)) {
		memcpy(buf, con.prefix, plen);
		memcpy(buf + plen, line, len);
		fwrite(buf, 1, plen + len, f);
	} else {                        /* 超长的行（分段写的）：照样写，不丢字 */
		fputs(con.prefix, f);
		fwrite(line, 1, len, f);
	}
	fflush(f);
	funlockfile(f);
}

static void flush_pending(FILE *f, struct pending *p)
{
	if (p->len == 0)
		return;
	write_line(f, p->text, p->len);
	p->len = 0;
	fflush(f);
}

/* 把 text 加到半行后面，每凑齐一行就写出去 */
static void feed(FILE *f, struct pending *p, const char *text, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl != NULL ? (size_t)(nl - text) + 1 : len;

		if (p->len + n > sizeof(p->text))
			flush_pending(f, p);            /* 超长的行分段写，不丢字 */
		if (n > sizeof(p->text)) {
			write_line(f, text, n);
		} else {
			memcpy(p->text + p->len, text, n);
			p->len += n;
			if (nl != NULL) {
				write_line(f, p->text, p->len);
				p->len = 0;
			}
		}
		text += n;
		len -= n;
	}
}

static int con_vprint(FILE *f, struct pending *p, const char *fmt, va_list ap)
{
	char small[512], *text = small;
	va_list ap2;
	int n;

	if (con.prefix[0] == '\0')
		return vfprintf(f, fmt, ap);
	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (text == NULL) {
			va_end(ap2);
			return -1;
		}
		vsnprintf(text, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	if (n > 0)
		feed(f, p, text, (size_t)n);
	if (text != small)
		free(text);
	return n;
}

void con_explain(const char *fmt, ...)
{
	va_list ap;

	con_printf(_("  说明: "));
	va_start(ap, fmt);
	con_vprint(out_stream(), &con.p_out, fmt, ap);
	va_end(ap);
}

void con_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	con_vprint(out_stream(), &con.p_out, fmt, ap);
	va_end(ap);
}

static void sink_release(struct error_sink *s, const char *hint)
{
	if (s->msg[0] == '\0')
		return;
	if (s->fn != NULL)
		s->fn(s->ctx, s->msg, hint);
	s->msg[0] = '\0';
}

/* 去掉结尾的换行（trace 里的文字不带它） */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && s[n - 1] == '\n')
		s[--n] = '\0';
}

void con_error(const char *fmt, ...)
{
	char text[ERROR_MAX], *hint;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	hint = strchr(text, CON_HINT[0]);
	if (hint != NULL)
		*hint++ = '\0';
	sink_release(&con.sink, NULL);          /* 上一个错误没有等到提示 */
	con_eprintf(_("错误: %s"), text);
	if (hint != NULL)
		con_eprintf(_("提示: %s"), hint);
	chomp(text);
	snprintf(con.sink.msg, sizeof(con.sink.msg), "%s", text[0] != '\0' ? text : "?");
	if (hint != NULL) {
		chomp(hint);
		sink_release(&con.sink, hint);
	}
}

void con_hint(const char *fmt, ...)
{
	char text[ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	con_eprintf(_("提示: %s"), text);
	chomp(text);
	sink_release(&con.sink, text);          /* 和上一个错误配成一对（没有等提示的错误时什么也不做） */
}

void con_eprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	con_vprint(err_stream(), &con.p_err, fmt, ap);
	va_end(ap);
}

void con_flush(void)
{
	flush_pending(out_stream(), &con.p_out);
	flush_pending(err_stream(), &con.p_err);
	sink_release(&con.sink, NULL);
}

void con_set_error_sink(con_error_fn fn, void *ctx)
{
	struct error_sink *s = &con.sink;

	sink_release(s, NULL);
	s->fn = fn;
	s->ctx = ctx;
}

void con_init(void)
{
	/*
	 * stdout 按行缓冲（终端上本来就是这样；重定向到文件或管道时默认是全缓冲）：
	 * 这样 `程序 >log 2>&1` 里 stdout 和 stderr 的行按真实的先后出现，也不会在行中间交错。
	 * 必须在第一次输出之前调用。
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
}

void con_set_prefix(const char *prefix)
{
	con_flush();
	snprintf(con.prefix, sizeof(con.prefix), "%s", prefix != NULL ? prefix : "");
}

void con_set_streams(FILE *out, FILE *err)
{
	con_flush();
	con.out = out;
	con.err = err;
}
