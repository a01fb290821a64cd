/*
 * ctrl.c - 控制平面接口（见 ctrl.h）：把每个操作转给所选的实现，每条 HELLO 和同步消息告诉装上的观察者
 */
#include "control/ctrl.h"
#include "console/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/clock.h"
#include "console/conout.h"

int ctrl_observe(struct ctrl *c, const struct ctrl_observer *o)
{
	if (c->n_obs >= CTRL_MAX_OBSERVERS)
		return -1;
	c->obs[c->n_obs++] = *o;
	return 0;
}

static void observe_hello(const struct ctrl *c, int send, const struct wire_hello *h)
{
	for (int k = 0; k < c->n_obs; k++)
		if (c->obs[k].hello != NULL)
			c->obs[k].hello(c->obs[k].ctx, send, h);
}

static void observe_sync(const struct ctrl *c, int send, uint32_t tag)
{
	for (int k = 0; k < c->n_obs; k++)
		if (c->obs[k].sync != NULL)
			c->obs[k].sync(c->obs[k].ctx, send, tag);
}

int ctrl_establish(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	return c->ops->establish(c, w, step);
}

/* 实现支持先收后发 HELLO 吗（多客户端服务端需要）；不支持时打印错误 */
static int recv_first_supported(const struct ctrl *c)
{
	if (c->ops->recv_hello != NULL)
		return 1;
	con_error(_("这种控制平面不支持先收后发 HELLO（多客户端服务端需要）\n"));
	return 0;
}

int ctrl_exchange_hello(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote, int remote_known)
{
	int rc;

	if (remote_known)   /* 对端的 HELLO 已经由 ctrl_recv_hello 收到，只发本端的 */
		return recv_first_supported(c) ? c->ops->exchange_hello(c, local, NULL) : -1;
	observe_hello(c, 1, local);
	rc = c->ops->exchange_hello(c, local, remote);
	if (rc == 0)
		observe_hello(c, 0, remote);
	return rc;
}

int ctrl_recv_hello(struct ctrl *c, struct wire_hello *remote)
{
	return recv_first_supported(c) ? c->ops->recv_hello(c, remote) : -1;
}

int ctrl_sync_send(struct ctrl *c, uint32_t tag)
{
	int rc = c->ops->sync_send(c, tag);

	c->last_alive_ms = now_ms();
	if (rc == 0)
		observe_sync(c, 1, tag);
	return rc;
}

int ctrl_check_sync(const uint8_t *buf, size_t len, uint32_t tag)
{
	uint32_t got;
	enum wire_status st = wire_decode_sync(buf, len, &got);

	if (st != WIRE_OK) {
		con_error("%s\n", wire_strerror(st));
		return -1;
	}
	if (got == SYNC_TAG(SYNC_ALIVE, 0) && tag != got)
		return 1;
	if (got != tag) {
		con_error(_("同步点错位：期望 0x%08x，收到 0x%08x（两端的流程不一致？）\n"), tag, got);
		return -1;
	}
	return 0;
}

int ctrl_heartbeat(struct ctrl *c)
{
	long long now = now_ms(), every = c->opt->timeout_ms / 3;

	if (now - c->last_alive_ms < (every > 0 ? every : 1))
		return 0;
	c->last_alive_ms = now;
	return c->ops->sync_send(c, SYNC_TAG(SYNC_ALIVE, 0));
}

int ctrl_sync_wait(struct ctrl *c, uint32_t tag)
{
	int rc = c->ops->sync_wait(c, tag);

	if (rc == 0)
		observe_sync(c, 0, tag);
	return rc;
}

int ctrl_poll_peer(struct ctrl *c, int wait_ms)
{
	return c->ops->poll_peer(c, wait_ms);
}

int ctrl_local_ipv4(struct ctrl *c, char *ip, size_t len)
{
	return c->ops->local_ipv4(c, ip, len);
}

void ctrl_close(struct ctrl *c)
{
	if (c->ops != NULL)
		c->ops->close(c);
}

void *ctrl_begin(struct ctrl *c, const struct ctrl_ops *ops, const struct options *opt, size_t state_size)
{
	void *state;

	memset(c, 0, sizeof(*c));
	state = calloc(1, state_size);
	if (state == NULL) {
		con_error(_("内存不足（控制平面）\n"));
		return NULL;
	}
	c->ops = ops;
	c->opt = opt;
	c->impl = state;
	return state;
}

void ctrl_release(struct ctrl *c)
{
	if (c->ops != NULL && c->ops->release != NULL)
		c->ops->release(c);
	free(c->impl);
	c->impl = NULL;
	c->ops = NULL;
}

void ctrl_announce_ready(const struct options *opt, const char *transport)
{
	char tmp[4096];
	FILE *f;

	if (opt->ready_file == NULL)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", opt->ready_file);
	f = fopen(tmp, "w");
	if (f == NULL || fprintf(f, "ready %s %d %ld\n", transport, opt->tcp_port, (long)getpid()) < 0 ||
	    fclose(f) != 0 || rename(tmp, opt->ready_file) != 0)
		con_eprintf(_("警告: 写 --ready-file %s 失败: %s（程序照常运行）\n"), opt->ready_file, strerror(errno));
}
