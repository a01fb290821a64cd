/*
 * ctrl_tcp.c - 控制平面的 TCP 实现：一条普通的 TCP 连接（socket 操作在 tcp_socket.c）
 *
 *   建立      服务端 listen + accept，客户端 connect（被拒绝时在超时内重试）
 *   HELLO     wire.c 编码的连接信息，两端同时先写后读；多客户端服务端先收客户端的、后只发自己的
 *   同步消息  wire.c 编码的 4 字节标签
 */
#include "control/ctrl.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "console/verbs_print.h"
#include "console/conout.h"
#include "connect/tcp_socket.h"

/* TCP 实现的状态（struct ctrl 的 impl） */
struct ctrl_tcp {
	int listen_fd;          /* 服务端的监听 socket，-1 = 没有 */
	int sock;               /* 与对端的 TCP 连接，-1 = 没有 */
	int adopted;            /* 1 = sock 是主线程 accept 好交过来的（多客户端服务端） */
	char peer[64];          /* 对端地址（adopted 时由主线程给出） */
};

static struct ctrl_tcp *tcp_of(const struct ctrl *c) { return c->impl; }

static int accept_client(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	const struct options *o = c->opt;
	char peer[64] = "";

	step_title(w, step, _("建立TCP连接（控制平面）listen/accept"));
	tcp_of(c)->listen_fd = tcp_listen(o->tcp_port, 1);     /* 只接待一个客户端 */
	if (tcp_of(c)->listen_fd < 0)
		return -1;
	con_printf(_("在TCP端口 %d 等待客户端连接（最多 %d 秒）...\n"), o->tcp_port, o->accept_timeout_ms / 1000);
	ctrl_announce_ready(o, "tcp");
	tcp_of(c)->sock = tcp_accept(tcp_of(c)->listen_fd, o->accept_timeout_ms, peer, sizeof(peer));
	if (tcp_of(c)->sock < 0)
		return -1;
	con_printf(_("客户端已连接: %s\n"), peer);
	con_explain(_("这条TCP连接只用来交换QP信息和做同步点，数据不走它\n"));
	return 0;
}

static int connect_server(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	const struct options *o = c->opt;

	step_title(w, step, _("建立TCP连接（控制平面）connect"));
	tcp_of(c)->sock = tcp_connect(o->server_ip, o->tcp_port, o->timeout_ms);
	if (tcp_of(c)->sock < 0)
		return -1;
	con_printf(_("已连接服务端 %s:%d\n"), o->server_ip, o->tcp_port);
	con_explain(_("这条TCP连接只用来交换QP信息和做同步点，数据不走它\n"));
	return 0;
}

/* 多客户端服务端：连接在主线程里已经 accept 好了 */
static int adopted_client(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	step_title(w, step, _("TCP连接（控制平面）：主线程已 accept，交给本会话"));
	con_printf(_("客户端已连接: %s\n"), tcp_of(c)->peer);
	con_explain(_("监听 socket 归主线程；每个客户端一条自己的 TCP 连接、一个自己的线程和一套自己的 MR/CQ/QP\n"));
	return 0;
}

static int tcp_establish(struct ctrl *c, const struct step_watch *w, unsigned *step)
{
	if (tcp_of(c)->adopted)
		return adopted_client(c, w, step);
	return c->opt->role == ROLE_SERVER ? accept_client(c, w, step) : connect_server(c, w, step);
}

/*
 * perftest 也默认用 TCP 18515。它先交换 16 字节的版本号，把我们 HELLO 的开头当成版本号，
 * 不认就退出：我们收到的正好是它的版本号，然后连接被关闭。buf 已由 wire_is_perftest 校验过（可打印、以 0 结尾）。
 */
static void print_perftest(const uint8_t *buf)
{
	con_error(_("对端是 perftest（ib_send_bw、ib_write_lat 等），不是 RoCEv2 learn 程序：它发来的是 16 字节的版本号 \"%s\"；"
		"perftest 也默认用 TCP 18515，两个程序不能互连\n"), (const char *)buf);
	con_hint(_("两个程序要同时用，就各用各的端口：本项目两端都加 -p（如 -p 18600），"
		"perftest 两端也都加 -p（如 ib_send_bw -p 18516）；ss -ltnp 可以看到是谁在监听\n"));
}

/* 读 HELLO 的头：返回 0 成功；-1 认出对端是 perftest（已打印）；-2 没读到（超时或对端断开，原因已打印） */
static int read_header(struct ctrl *c, uint8_t *buf)
{
	const char *what = _("连接信息头");
	size_t got;
	int rc = tcp_read_or_close(tcp_of(c)->sock, buf, WIRE_HEADER_LEN, c->opt->timeout_ms, what, &got);

	if (rc == 0)
		return 0;
	if (rc == -1)
		return -2;
	if (wire_is_perftest(buf, got)) {
		print_perftest(buf);
		return -1;
	}
	tcp_print_closed(what, got, WIRE_HEADER_LEN, rc);
	return -2;
}

/* 收 HELLO：返回 0 成功；-1 数据无效；-2 没读到（超时或对端断开，原因已打印） */
static int recv_hello(struct ctrl *c, struct wire_hello *remote)
{
	int fd = tcp_of(c)->sock, timeout_ms = c->opt->timeout_ms;
	uint8_t buf[WIRE_MAX_LEN];
	size_t len = WIRE_HEADER_LEN;
	char msg[256];
	int rc = read_header(c, buf);

	if (rc != 0)
		return rc;
	/* 头里的 num_qp 说明后面还有几个QP条目；头本身无效时不再读，直接让 wire_decode_hello 说原因 */
	if (wire_decode_header(buf, WIRE_HEADER_LEN, remote) == WIRE_OK) {
		len += remote->num_qp * WIRE_QP_LEN;
		if (tcp_read_full(fd, buf + WIRE_HEADER_LEN, len - WIRE_HEADER_LEN, timeout_ms, _("QP连接信息")) != 0)
			return -1;
	}
	if (wire_decode_hello(buf, len, remote, msg, sizeof(msg)) != WIRE_OK) {
		con_error(_("对端发来的连接信息无效: %s\n"), msg);
		return -1;
	}
	return 0;
}

static int tcp_recv_hello(struct ctrl *c, struct wire_hello *remote)
{
	return recv_hello(c, remote) == 0 ? 0 : -1;
}

/*
 * 两端同时先写后读：本端的 HELLO 编码成线上格式（control/wire.h）写进 TCP 连接，再读对端的。
 * remote 为 NULL：多客户端服务端已经先收到了客户端的 HELLO（tcp_recv_hello），只写
 */
static int tcp_exchange_hello(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote)
{
	uint8_t buf[WIRE_MAX_LEN];
	size_t n = wire_encode_hello(local, buf, sizeof(buf));
	int rc;

	if (n == 0 || tcp_write_full(tcp_of(c)->sock, buf, n, c->opt->timeout_ms, _("连接信息")) != 0)
		return -1;
	if (remote == NULL)
		return 0;
	rc = recv_hello(c, remote);
	if (rc == -2) {
		/* 刚发完 HELLO 对端就断开/不回：除了参数不一致，常见的是端口上根本不是 rdma_server */
		con_eprintf(_("  也可能: 这个端口上是别的程序，例如 ibv_rc_pingpong（它也默认用 TCP 18515，"
			"收到我们的二进制 HELLO 会直接断开）；用 ss -ltnp 看是谁在监听\n"));
	}
	return rc == 0 ? 0 : -1;
}

static int tcp_sync_send(struct ctrl *c, uint32_t tag)
{
	uint8_t buf[WIRE_SYNC_LEN];

	wire_encode_sync(tag, buf);
	return tcp_write_full(tcp_of(c)->sock, buf, sizeof(buf), c->opt->timeout_ms, _("同步消息"));
}

static int tcp_sync_wait(struct ctrl *c, uint32_t tag)
{
	uint8_t buf[WIRE_SYNC_LEN];
	int r;

	do {    /* 心跳（对端还在干活）：接着等，-t 重新算 */
		if (tcp_read_full(tcp_of(c)->sock, buf, sizeof(buf), c->opt->timeout_ms, _("同步消息")) != 0)
			return -1;
		r = ctrl_check_sync(buf, sizeof(buf), tag);
	} while (r == 1);
	return r;
}

static int tcp_poll_peer(struct ctrl *c, int wait_ms)
{
	return tcp_wait_readable(tcp_of(c)->sock, wait_ms);
}

static int tcp_local_ipv4(struct ctrl *c, char *ip, size_t len)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);

	if (getsockname(tcp_of(c)->sock, (struct sockaddr *)&a, &alen) != 0 || a.sin_family != AF_INET ||
	    inet_ntop(AF_INET, &a.sin_addr, ip, (socklen_t)len) == NULL)
		return -1;
	return 0;
}

static void tcp_close(struct ctrl *c)
{
	if (tcp_of(c)->sock >= 0)
		close(tcp_of(c)->sock);
	if (tcp_of(c)->listen_fd >= 0)
		close(tcp_of(c)->listen_fd);
	tcp_of(c)->sock = tcp_of(c)->listen_fd = -1;
}

static const struct ctrl_ops tcp_ops = {
	.establish = tcp_establish,
	.exchange_hello = tcp_exchange_hello,
	.recv_hello = tcp_recv_hello,
	.sync_send = tcp_sync_send,
	.sync_wait = tcp_sync_wait,
	.poll_peer = tcp_poll_peer,
	.local_ipv4 = tcp_local_ipv4,
	.close = tcp_close,
};

int ctrl_tcp_init(struct ctrl *c, const struct options *opt)
{
	struct ctrl_tcp *t = ctrl_begin(c, &tcp_ops, opt, sizeof(*t));

	if (t == NULL)
		return -1;
	t->listen_fd = -1;
	t->sock = -1;
	return 0;
}

int ctrl_tcp_adopt(struct ctrl *c, const struct options *opt, int sock, const char *peer)
{
	if (ctrl_tcp_init(c, opt) != 0)
		return -1;
	tcp_of(c)->sock = sock;
	tcp_of(c)->adopted = 1;
	snprintf(tcp_of(c)->peer, sizeof(tcp_of(c)->peer), "%s", peer);
	return 0;
}
