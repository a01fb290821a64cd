/*
 * conout.c - 带行前缀的控制台输出（见 conout.h）
 */
#include "conout.h"

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

/* 每个线程一份：前缀、两个流、各自的半行 */
struct con_state {
	char prefix[PREFIX_MAX];
	FILE *out, *err;
	struct pending p_out, p_err;
};

static _Thread_local struct con_state con;

static FILE *out_stream(void) { return con.out != NULL ? con.out : stdout; }
static FILE *err_stream(void) { return con.err != NULL ? con.err : stderr; }

/* 前缀 + 一整行，锁住流一次写完 */
static void write_line(FILE *f, const char *line, size_t len)
{
	flockfile(f);
	fputs(con.prefix, f);
	fwrite(line, 1, len, f);
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

int con_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = con_vprint(out_stream(), &con.p_out, fmt, ap);
	va_end(ap);
	return n;
}

int con_eprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = con_vprint(err_stream(), &con.p_err, fmt, ap);
	va_end(ap);
	return n;
}

void con_flush(void)
{
	flush_pending(out_stream(), &con.p_out);
	flush_pending(err_stream(), &con.p_err);
}

void con_set_prefix(const char *prefix)
{
	con_flush();
	snprintf(con.prefix, sizeof(con.prefix), "%s", prefix != NULL ? prefix : "");
}

const char *con_prefix(void)
{
	return con.prefix;
}

void con_set_streams(FILE *out, FILE *err)
{
	con_flush();
	con.out = out;
	con.err = err;
}
