/*
 * trace.c - --trace FILE 的写入：JSON 拼装、时间戳、整行加锁写出、PSN 计数（见 trace.h、docs/TRACE.md）
 */
#include "plugins/trace.h"
#include "console/i18n.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* 一个打开的 trace 文件：几条连接（线程）共用，每行在 lock 下写出 */
struct trace {
	FILE *f;
	const char *role;               /* "server" / "client" */
	pthread_mutex_t lock;
};

struct trace *trace_open(const char *path, const char *role, char *err, size_t errlen)
{
	struct trace *t = calloc(1, sizeof(*t));

	if (t == NULL) {
		snprintf(err, errlen, _("内存不足"));
		return NULL;
	}
	t->f = fopen(path, "w");
	if (t->f == NULL) {
		snprintf(err, errlen, _("不能写 trace 文件 '%s': %s (errno=%d)"), path, strerror(errno), errno);
		free(t);
		return NULL;
	}
	t->role = role;
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

void trace_close(struct trace *t, int exit_code)
{
	struct trace_ref r = { t, 0 };
	struct tj j;

	if (t == NULL)
		return;
	tj_begin(&j, &r, "end");
	tj_int(&j, "exit", exit_code);
	trace_emit(&r, &j);
	fclose(t->f);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

int trace_on(const struct trace_ref *r)
{
	return r != NULL && r->t != NULL;
}

/* ---------- JSON 拼装 ---------- */

static void put(struct tj *j, const char *s, size_t n)
{
	if (j->overflow || j->len + n + 2 >= sizeof(j->buf)) {   /* 留出结尾的 }\n */
		j->overflow = 1;
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void putf(struct tj *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct tj *j, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	put(j, tmp, n < 0 ? 0 : (size_t)n);
}

/* JSON 字符串：" \ 和控制字符转义，其余字节（包括 UTF-8 中文）原样 */
static void put_string(struct tj *j, const char *s)
{
	put(j, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)(s != NULL ? s : ""); *p != '\0'; p++) {
		switch (*p) {
		case '"': put(j, "\\\"", 2); break;
		case '\\': put(j, "\\\\", 2); break;
		case '\n': put(j, "\\n", 2); break;
		case '\r': put(j, "\\r", 2); break;
		case '\t': put(j, "\\t", 2); break;
		default:
			if (*p < 0x20)
				putf(j, "\\u%04x", *p);
			else
				put(j, (const char *)p, 1);
		}
	}
	put(j, "\"", 1);
}

/* 逗号（需要时）和 "key": */
static void key(struct tj *j, const char *k)
{
	if (j->need_comma)
		put(j, ",", 1);
	j->need_comma = 1;
	if (k != NULL) {
		put_string(j, k);
		put(j, ":", 1);
	}
}

void tj_str(struct tj *j, const char *k, const char *s)
{
	key(j, k);
	put_string(j, s);
}

void tj_int(struct tj *j, const char *k, long long v)
{
	key(j, k);
	putf(j, "%lld", v);
}

void tj_bool(struct tj *j, const char *k, int v)
{
	key(j, k);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void tj_hex(struct tj *j, const char *k, uint64_t v, int width)
{
	key(j, k);
	putf(j, "\"0x%0*llx\"", width, (unsigned long long)v);
}

void tj_obj(struct tj *j, const char *k)
{
	key(j, k);
	put(j, "{", 1);
	j->need_comma = 0;
}

void tj_arr(struct tj *j, const char *k)
{
	key(j, k);
	put(j, "[", 1);
	j->need_comma = 0;
}

void tj_close(struct tj *j, char c)
{
	put(j, &c, 1);
	j->need_comma = 1;
}

void tj_item_str(struct tj *j, const char *s)
{
	tj_str(j, NULL, s);
}

/* UTC 的 ISO 8601，微秒："2026-11-22T15:20:01.123456Z" */
static void format_real(const struct timespec *ts, char *out, size_t len)
{
	struct tm tm;
	time_t sec = ts->tv_sec;

	gmtime_r(&sec, &tm);
	snprintf(out, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts->tv_nsec / 1000);
}

void tj_begin_at(struct tj *j, const char *role, const char *ev, int conn,
		 const struct timespec *real, const struct timespec *mono)
{
	char when[96];

	j->len = 0;
	j->buf[0] = '\0';
	j->overflow = 0;
	j->need_comma = 0;
	put(j, "{", 1);
	tj_int(j, "v", TRACE_VERSION);
	tj_str(j, "ev", ev);
	tj_str(j, "role", role);
	format_real(real, when, sizeof(when));
	tj_str(j, "t_real", when);
	key(j, "t_mono");
	putf(j, "%lld.%06ld", (long long)mono->tv_sec, mono->tv_nsec / 1000);
	if (conn > 0)
		tj_int(j, "conn", conn);
}

void tj_begin(struct tj *j, const struct trace_ref *r, const char *ev)
{
	struct timespec real = { 0, 0 }, mono = { 0, 0 };

	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	tj_begin_at(j, trace_on(r) ? r->t->role : "?", ev, r != NULL ? r->conn : 0, &real, &mono);
}

const char *tj_finish(struct tj *j)
{
	if (j->overflow)
		return NULL;
	/* put() 总留着两个字节，这里一定放得下 */
	j->buf[j->len++] = '}';
	j->buf[j->len++] = '\n';
	j->buf[j->len] = '\0';
	return j->buf;
}

void trace_emit(const struct trace_ref *r, struct tj *j)
{
	const char *line;

	if (!trace_on(r))
		return;
	line = tj_finish(j);
	if (line == NULL)
		return;         /* 超长的事件不写半行：宁可少一行，不能让整个文件不是合法的 JSON Lines */
	pthread_mutex_lock(&r->t->lock);
	fwrite(line, 1, j->len, r->t->f);
	fflush(r->t->f);
	pthread_mutex_unlock(&r->t->lock);
}

/* ---------- PSN ---------- */

uint32_t psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & PSN_MASK;
}

uint32_t psn_npkts(uint64_t len, uint32_t mtu_bytes, int is_atomic)
{
	if (is_atomic || len == 0 || mtu_bytes == 0)
		return 1;
	return (uint32_t)((len + mtu_bytes - 1) / mtu_bytes);
}

/* ---------- 事件 ---------- */

void trace_step(const struct trace_ref *r, unsigned n, const char *title)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "step");
	tj_int(&j, "n", n);
	tj_str(&j, "title", title);
	trace_emit(r, &j);
}

void trace_error(const struct trace_ref *r, const char *msg, const char *hint)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "error");
	tj_str(&j, "msg", msg);
	if (hint != NULL)
		tj_str(&j, "hint", hint);
	trace_emit(r, &j);
}

void trace_error_sink(void *ctx, const char *msg, const char *hint)
{
	trace_error(ctx, msg, hint);
}

void trace_post_send(const struct trace_ref *r, const struct trace_wr *w)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "post_send");
	tj_int(&j, "qp", w->qp);
	tj_int(&j, "qpn", w->qpn);
	tj_int(&j, "wr_id", (long long)w->wr_id);
	tj_str(&j, "opcode", w->opcode);
	tj_int(&j, "len", w->len);
	tj_hex(&j, "local_addr", w->local_addr, 0);
	tj_hex(&j, "lkey", w->lkey, 8);
	if (w->has_remote) {
		tj_hex(&j, "remote_addr", w->remote_addr, 0);
		tj_hex(&j, "rkey", w->rkey, 8);
	}
	if (w->has_imm)
		tj_hex(&j, "imm", w->imm, 8);
	if (w->has_psn)
		tj_int(&j, "psn_first", w->psn_first);
	tj_int(&j, "npkts", w->npkts);
	tj_int(&j, "mtu", w->mtu);
	tj_int(&j, "dest_qpn", w->dest_qpn);
	tj_bool(&j, "signaled", w->signaled);
	tj_bool(&j, "inline", w->inline_data);
	trace_emit(r, &j);
}

void trace_post_recv(const struct trace_ref *r, int qp, uint32_t qpn, uint64_t wr_id,
		     uint32_t len, uint64_t addr)
{
	struct tj j;

	if (!trace_on(r))
		return;
	tj_begin(&j, r, "post_recv");
	tj_int(&j, "qp", qp);
	tj_int(&j, "qpn", qpn);
	tj_int(&j, "wr_id", (long long)wr_id);
	tj_int(&j, "len", len);
	tj_hex(&j, "addr", addr, 0);
	trace_emit(r, &j);
}
