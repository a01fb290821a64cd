/*
 * ctr_hook.c - --counters 的插件（说明见 ctr_hook.h，读和含义见 counters.c）
 */
#include "plugins/ctr_hook.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "console/conout.h"
#include "console/i18n.h"
#include "plugins/trace.h"
#include "plugins/trace_hooks.h"

#define CTR_ROOT "/sys/class/infiniband"

/* 插件只在给了 --counters 时装上（program.c），这里只看设备是否已经打开（有名字才知道读哪个目录） */
static int on(const struct rdma_conn *c)
{
	return c->dev != NULL && c->dev->dev_name[0] != '\0';
}

static void dir_of(const struct rdma_conn *c, char *buf, size_t len)
{
	snprintf(buf, len, CTR_ROOT "/%s/ports/%d/hw_counters", c->dev->dev_name, c->opt->ib_port);
}

/* 几个会话同时用这个设备（trace 的 shared）：计数是设备端口的，差值里一定有别的会话的包 */
static int shared(const struct rdma_conn *c)
{
	return c->opt->role == ROLE_SERVER && c->opt->parallel > 1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* 结束时的读：先等过 lifespan（内核缓存读到的值这么久），读到的才包含最后一个包 */
static void read_after(const struct rdma_conn *c, const struct ctr_table *before, struct ctr_table *after)
{
	char dir[256];

	sleep_ms(ctr_settle_ms(before));
	dir_of(c, dir, sizeof(dir));
	ctr_read_dir(dir, after);
}

static void trace_counters(const struct rdma_conn *c, const char *scope, size_t size, const struct ctr_table *after,
			   const struct ctr_delta *d, size_t n)
{
	const struct trace_ref *tr = trace_watched(&c->watch);
	struct tj j;

	if (!trace_on(tr))
		return;
	tj_begin(&j, tr, "counters");
	tj_str(&j, "dev", c->dev->dev_name);
	tj_int(&j, "port", c->opt->ib_port);
	tj_str(&j, "scope", scope);
	if (size > 0)
		tj_int(&j, "size", (long long)size);
	tj_bool(&j, "present", after->present);
	tj_int(&j, "lifespan_ms", after->lifespan_ms);
	tj_bool(&j, "shared", shared(c));
	tj_obj(&j, "moved");
	for (size_t i = 0; i < n; i++)
		tj_int(&j, d[i].name, d[i].delta);
	tj_close(&j, '}');
	tj_arr(&j, "unreadable");
	for (size_t i = 0; i < after->n; i++)
		if (after->e[i].err != 0)
			tj_item_str(&j, after->e[i].name);
	tj_close(&j, ']');
	trace_emit(tr, &j);
}

/* 数据面开始：读一次，读到的表记在插件自己的表里（按连接；ctr_hook_end 取走、释放） */
static void ctr_hook_start(struct ctr_plugin *p, struct rdma_conn *c)
{
	char dir[256];
	struct ctr_table *before;

	if (!on(c))
		return;
	dir_of(c, dir, sizeof(dir));
	before = calloc(1, sizeof(*before));
	if (before == NULL) {
		con_error(_("--counters: 内存不够（%zu 字节）\n"), sizeof(*before));
		return;
	}
	ctr_read_dir(dir, before);
	if (per_conn_put(&p->before, c, before) != 0)
		free(before);
}

static void print_block(const struct rdma_conn *c, const struct ctr_table *before, const struct ctr_table *after,
			const struct ctr_delta *d, size_t n)
{
	char dir[256];
	size_t still = 0;

	dir_of(c, dir, sizeof(dir));
	if (!after->present) {
		con_printf(_("端口计数（--counters）: %s 端口 %d 没有 hw_counters 目录（%s: %s）：这个驱动不提供端口计数，没有可打印的\n"),
			   c->dev->dev_name, c->opt->ib_port, dir, strerror(after->dir_err));
		return;
	}
	con_printf(_("端口计数（--counters）: %s 端口 %d，数据面开始和结束各读一次 %s（结束时先等 %ld ms：内核把读到的值缓存 lifespan=%ld ms）\n"),
		   c->dev->dev_name, c->opt->ib_port, dir, ctr_settle_ms(before),
		   after->lifespan_ms >= 0 ? after->lifespan_ms : (long)CTR_LIFESPAN_DEFAULT_MS);
	for (size_t i = 0; i < n; i++) {
		const char *m = ctr_meaning(d[i].name);

		con_printf("  %-24s %+7lld  %s\n", d[i].name, d[i].delta,
			   m != NULL ? _(m) : _("（含义表里没有这个计数：原样打印）"));
	}
	if (n == 0)
		con_printf(_("  没有一个计数动过\n"));
	for (size_t i = 0; i < after->n; i++)
		if (after->e[i].err != 0)
			con_printf(_("  读不出 %s: %s\n"), after->e[i].name, strerror(after->e[i].err));
		else
			still++;
	if (still > n)
		con_printf(_("  其余 %zu 个没动\n"), still - n);
	/* 总是说：程序看不出这段时间里端口上还有没有别人的QP（别的程序、同时服务的别的会话） */
	con_printf(_("  注意: 计数属于设备 %s 的端口 %d，不是这个程序独有的：这段时间里这个端口上别的QP（别的程序、别的会话）的包也算在差值里\n"),
		   c->dev->dev_name, c->opt->ib_port);
	if (c->opt->cm)
		con_printf(_("  注意: --cm 的同步消息也走 RDMA（控制QP），它们的包也算在里面\n"));
}

static void ctr_hook_end(struct ctr_plugin *p, struct rdma_conn *c)
{
	struct ctr_table after, *before = per_conn_take(&p->before, c);
	struct ctr_delta d[CTR_MAX];
	size_t n;

	if (!on(c) || before == NULL) {
		free(before);
		return;
	}
	read_after(c, before, &after);
	n = ctr_diff(before, &after, d, CTR_MAX);
	print_block(c, before, &after, d, n);
	trace_counters(c, "data_plane", 0, &after, d, n);
	free(before);
}

/* 一个大小之前：读一次，读到的表放在事件对象的 state 里（之后那一次用它、释放它） */
static void ctr_hook_size_start(struct rdma_conn *c, struct hook_size *hs)
{
	char dir[256];

	hs->state = NULL;
	if (!on(c))
		return;
	hs->state = calloc(1, sizeof(struct ctr_table));
	if (hs->state == NULL) {
		con_error(_("--counters: 内存不够（%zu 字节）\n"), sizeof(struct ctr_table));
		return;
	}
	dir_of(c, dir, sizeof(dir));
	ctr_read_dir(dir, hs->state);
}

/* 一个大小之后（rc = 这个大小的结果；失败时只放下之前读的表） */
static void ctr_hook_size_end(struct rdma_conn *c, struct hook_size *hs, int rc)
{
	struct ctr_table after, *before = hs->state;
	struct ctr_delta d[CTR_MAX];
	size_t n;

	if (hs->len > 0)
		hs->suffix[0] = '\0';
	if (rc != 0 || !on(c) || before == NULL) {
		free(before);
		hs->state = NULL;
		return;
	}
	read_after(c, before, &after);
	n = ctr_diff(before, &after, d, CTR_MAX);
	ctr_result_suffix(d, n, hs->suffix, hs->len);
	trace_counters(c, "bench_size", hs->size, &after, d, n);
	free(before);
	hs->state = NULL;
}

/* 插件：只看数据面和 --bench 每个大小的前后 */
static void ctr_event(void *ctx, const struct rdma_device *dev, struct rdma_conn *c, struct hook_event *ev)
{
	(void)dev;
	if (c == NULL)
		return;
	if (ev->at == HOOK_PLANE)
		(ev->when == HOOK_BEFORE ? ctr_hook_start : ctr_hook_end)(ctx, c);
	else if (ev->at == HOOK_BENCH_SIZE && ev->when == HOOK_BEFORE)
		ctr_hook_size_start(c, ev->obj);
	else if (ev->at == HOOK_BENCH_SIZE)
		ctr_hook_size_end(c, ev->obj, ev->rc);
}

void ctr_hooks_install(struct rdma_hooks *h, struct ctr_plugin *p)
{
	per_conn_init(&p->before);
	hook_add(h, ctr_event, p, 0);
}
