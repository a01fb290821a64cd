/*
 * tcp_socket.c - 控制平面的 socket 操作（全部带超时）
 */
#include "connect/tcp_socket.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "console/clock.h"
#include "console/conout.h"

static int remaining(long long deadline)
{
	long long left = deadline - now_ms();

	return left > 0 ? (int)left : 0;
}

int tcp_wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do {
		n = poll(&p, 1, timeout_ms);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -1 : (n > 0);
}

/*
 * TCP keepalive：对端机器突然消失（没有 FIN/RST）时，约 10+3×5 秒后读操作返回 ETIMEDOUT，
 * 等待中的一方（例如交互模式的服务端）因此不会永远挂着。
 */
static void enable_keepalive(int fd)
{
	int one = 1, idle = 10, intvl = 5, cnt = 3;

	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
}

int tcp_listen(int port, int backlog)
{
	struct sockaddr_in addr;
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		con_error(_("socket() 失败: %s (errno=%d)\n"), strerror(errno), errno);
		return -1;
	}
	/* SO_REUSEADDR：程序刚退出时端口处于 TIME_WAIT，也能立即重新监听 */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_ANY);
	addr.sin_port = htons((uint16_t)port);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		int err = errno;

		con_error(_("bind(TCP端口 %d) 失败: %s (errno=%d)\n"), port, strerror(err), err);
		if (err == EADDRINUSE)
			con_hint(_("端口 %d 已被占用（另一个 rdma_server 还在运行？）。查看: ss -ltnp | grep %d；或换端口: -p <端口>\n"),
				port, port);
		close(fd);
		return -1;
	}
	if (listen(fd, backlog) != 0) {
		con_error(_("listen() 失败: %s (errno=%d)\n"), strerror(errno), errno);
		close(fd);
		return -1;
	}
	return fd;
}

int tcp_accept(int listen_fd, int timeout_ms, char *peer, size_t peerlen)
{
	struct sockaddr_in addr;
	socklen_t alen = sizeof(addr);
	int r = tcp_wait_readable(listen_fd, timeout_ms);
	int fd;

	if (r == 0) {
		con_error(_("等待客户端连接超时（%d 秒）\n" CON_HINT "客户端启动了吗？服务端IP/端口对吗？防火墙是否放行了TCP端口？可用 --accept-timeout 调整；客户端用了 --cm 吗（那样两端都要 --cm）？\n"),
			timeout_ms / 1000);
		return -1;
	}
	if (r < 0) {
		con_error(_("poll(listen) 失败: %s (errno=%d)\n"), strerror(errno), errno);
		return -1;
	}
	fd = accept4(listen_fd, (struct sockaddr *)&addr, &alen, SOCK_CLOEXEC);
	if (fd < 0) {
		con_error(_("accept() 失败: %s (errno=%d)\n"), strerror(errno), errno);
		return -1;
	}
	inet_ntop(AF_INET, &addr.sin_addr, peer, (socklen_t)peerlen);
	enable_keepalive(fd);
	return fd;
}

/* 非阻塞 connect，最多等 timeout_ms；返回 0 成功，否则 errno 值 */
static int connect_once(const struct addrinfo *ai, int timeout_ms, int *out_fd)
{
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int err = 0;
	socklen_t elen = sizeof(err);
	struct pollfd p;

	if (fd < 0)
		return errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		if (errno != EINPROGRESS) {
			err = errno;
			close(fd);
			return err;
		}
		p.fd = fd;
		p.events = POLLOUT;
		if (poll(&p, 1, timeout_ms) <= 0) {
			close(fd);
			return ETIMEDOUT;
		}
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen);
		if (err != 0) {
			close(fd);
			return err;
		}
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	enable_keepalive(fd);
	*out_fd = fd;
	return 0;
}

int tcp_connect(const char *host, int port, int timeout_ms)
{
	struct addrinfo hints, *res = NULL;
	char portstr[16];
	long long deadline = now_ms() + timeout_ms;
	int fd = -1, err, said = 0, gai;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(portstr, sizeof(portstr), "%d", port);
	gai = getaddrinfo(host, portstr, &hints, &res);
	if (gai != 0) {
		con_error(_("无法解析服务端地址 '%s': %s\n" CON_HINT "请给出服务端的IP地址，例如 10.11.0.1\n"),
			host, gai_strerror(gai));
		return -1;
	}
	for (;;) {
		err = connect_once(res, remaining(deadline), &fd);
		if (err == 0)
			break;
		if (err == ECONNREFUSED && remaining(deadline) > 0) {
			if (!said)
				con_printf(_("连接 %s:%d 被拒绝（服务端可能还没开始监听），%d 秒内每 0.2 秒重试一次...\n"),
				       host, port, timeout_ms / 1000);
			said = 1;
			usleep(200000);
			continue;
		}
		con_error(_("connect(%s:%d) 失败: %s (errno=%d)\n"), host, port, strerror(err), err);
		if (err == ECONNREFUSED)
			con_hint(_("服务端没有在监听：先启动 rdma_server，确认IP和端口（-p）一致；服务端用了 --cm 吗（那样客户端也要 --cm）？\n"));
		else if (err == ETIMEDOUT)
			con_hint(_("连接超时：检查IP是否可达（ping %s）、防火墙是否放行TCP端口 %d；./diagnose.sh --peer %s\n"),
				host, port, host);
		else
			con_hint(_("检查IP地址与路由（ip route get %s）；./diagnose.sh --peer %s\n"), host, host);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	return fd;
}

int tcp_read_or_close(int fd, void *buf, size_t len, int timeout_ms, const char *what, size_t *got)
{
	long long deadline = now_ms() + timeout_ms;

	*got = 0;
	while (*got < len) {
		int r = tcp_wait_readable(fd, remaining(deadline));
		ssize_t n;

		if (r == 0) {
			con_error(_("等待对端的%s超时（%d 秒，已收到 %zu/%zu 字节）\n" CON_HINT "对端是否卡住或已崩溃？看看对端的输出；必要时用 -t 加大超时\n"),
				what, timeout_ms / 1000, *got, len);
			return -1;
		}
		if (r < 0) {
			con_error(_("poll() 失败: %s (errno=%d)\n"), strerror(errno), errno);
			return -1;
		}
		n = read(fd, (char *)buf + *got, len - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != ECONNRESET) {
			con_error(_("读取对端的%s失败: %s (errno=%d)\n" CON_HINT "对端异常退出了？看看对端的输出\n"),
				what, strerror(errno), errno);
			return -1;
		}
		/* n == 0 是正常关闭(FIN)；ECONNRESET 是对端关闭时还有没读的数据(RST)，对我们来说一样 */
		if (n <= 0)
			return n < 0 ? TCP_PEER_RESET : TCP_PEER_CLOSED;
		*got += (size_t)n;
	}
	return 0;
}

void tcp_print_closed(const char *what, size_t got, size_t len, int closed)
{
	con_error(_("对端关闭了连接（%s只收到 %zu/%zu 字节%s）\n" CON_HINT "对端因错误退出了？看看对端的输出（常见：两端参数不一致）\n"),
		what, got, len, closed == TCP_PEER_RESET ? _("，连接被重置") : "");
}

int tcp_read_full(int fd, void *buf, size_t len, int timeout_ms, const char *what)
{
	size_t got;
	int rc = tcp_read_or_close(fd, buf, len, timeout_ms, what, &got);

	if (rc == TCP_PEER_CLOSED || rc == TCP_PEER_RESET)
		tcp_print_closed(what, got, len, rc);
	return rc == 0 ? 0 : -1;
}

int tcp_write_full(int fd, const void *buf, size_t len, int timeout_ms, const char *what)
{
	size_t put = 0;
	long long deadline = now_ms() + timeout_ms;

	while (put < len) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		ssize_t n;

		if (poll(&p, 1, remaining(deadline)) <= 0) {
			con_error(_("发送%s超时\n"), what);
			return -1;
		}
		/* MSG_NOSIGNAL：对端已关闭时返回 EPIPE，而不是让进程被 SIGPIPE 杀掉 */
		n = send(fd, (const char *)buf + put, len - put, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			con_error(_("发送%s失败: %s (errno=%d)\n" CON_HINT "对端已经退出？看看对端的输出\n"),
				what, strerror(errno), errno);
			return -1;
		}
		put += (size_t)n;
	}
	return 0;
}
