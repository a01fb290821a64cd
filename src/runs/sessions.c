/*
 * sessions.c - 多客户端服务端（--clients N / --parallel M）
 *
 * 一对一的服务端服务完一个客户端就退出。真正的服务端要接待很多客户端，而且一个客户端
 * 出问题（发来乱码、握手到一半不动了、传输中被杀掉、参数不一致）不能影响别的客户端。
 *
 *   主线程                                            会话线程（每个客户端一个）
 *   步骤1-5  设备、端口、GID、PD（只做一次，所有会话共用）
 *   步骤6    listen
 *   循环 poll(信号, 完成通知, 监听socket)
 *     有空位且有人连上 → accept → 开一个线程 ─────→  步骤7 起（每个客户端自己编号）：
 *                                                     读客户端的参数 → MR/CQ/QP → 交换连接信息
 *                                                     → RTR/RTS → 数据面 → 清理本会话的资源
 *     完成通知 → pthread_join，记下成败 ←─────────  结束时把自己的槽号写进完成通知管道
 *     SIGINT/SIGTERM → 不再 accept；正在跑的会话最多再等 -t 秒，然后 shutdown 它们的 socket
 *   全部结束 → 汇总；之后 program.c 逆序释放 PD 和设备
 *
 * 为什么用线程而不是 fork 或事件循环：
 *   - fork：子进程不能使用父进程打开的 RDMA 设备和 PD（libibverbs 不支持跨 fork 共享），
 *     “设备和 PD 只打开一次”就做不到了；
 *   - 事件循环：每个会话要拆成一个状态机（等 HELLO、等同步消息、等完成……），
 *     就不再是 rdma_server.c 那样从上往下读的步骤列表了；
 *   - 线程：每个会话原样走一遍单客户端的步骤函数，代码还是那张步骤表。
 *
 * 为什么是安全的——会话之间共享什么、谁写：
 *   - struct rdma_device（ctx、PD、端口属性、GID）：主线程在开第一个线程之前建好，之后只读。
 *     verbs 调用本身是线程安全的：几个线程同时在同一个 ctx/PD 上 ibv_reg_mr、ibv_create_qp 可以。
 *   - 命令行参数：只读。每个会话有自己的一份 struct options 副本，听客户端的那几项只改副本。
 *   - 控制台：每个线程有自己的行前缀（conout.c，_Thread_local），整行写出时锁住 stdout。
 *   - 会话槽（struct session）：主线程在开线程之前填好；线程运行期间只有线程自己写 rc，
 *     主线程在 pthread_join 之后才读——join 就是两者之间的同步点。
 *   - 中止会话：主线程手里有每个会话 socket 的一个 dup（watch_fd），只对它调用 shutdown()。
 *     shutdown 作用于 socket 本身，会话阻塞着的读写马上出错返回；主线程不碰会话自己的 fd 号，
 *     所以不会和会话的 close() 抢同一个 fd。
 *   - 随机 PSN：每次从内核取（getrandom），没有共享的随机数状态。
 *   没有一把锁：没有任何东西会被两个线程同时写。
 *
 * 信号：SIGINT/SIGTERM 在所有线程里都被屏蔽，由主线程通过 signalfd 当作普通的可读事件处理，
 * 所以不需要全局的“收到信号”标志，也不会在任意一行代码中间被打断。
 */
#include "runs/sessions.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "console/clock.h"
#include "control/adopt.h"
#include "console/verbs_print.h"
#include "console/conout.h"
#include "control/ctrl.h"
#include "runs/op_rounds.h"
#include "verbs/qp_print.h"
#include "connect/tcp_socket.h"

/* 一个客户端会话：主线程开线程前填好，线程结束后主线程读 rc */
struct session {
	int in_use;                     /* 槽被占用（线程在跑或等 join） */
	int slot;                       /* 在 server.slots[] 里的下标 */
	long id;                        /* 第几个客户端（从 1 开始） */
	char peer[64];                  /* 客户端地址 */
	int sock;                       /* accept 得到的 TCP 连接，交给会话（会话负责 close） */
	int watch_fd;                   /* sock 的 dup，主线程中止会话时 shutdown 它 */
	unsigned first_step;            /* 会话的步骤号接在主线程的步骤后面 */
	struct options opt;             /* 本会话的参数（服务端参数的副本 + 听客户端的几项） */
	const struct options *server_opt;
	struct rdma_device *dev;        /* 共用的设备和 PD（只读） */
	session_fn serve;               /* 驱动程序的步骤列表 + 数据面（rdma_server.c 的 serve_session） */
	int done_fd;                    /* 完成通知管道的写端 */
	pthread_t thread;
	int rc;                         /* 0 = 成功（线程写，join 之后主线程读） */
};

/* 主线程的状态 */
struct server {
	const struct options *opt;
	struct rdma_device *dev;
	session_fn serve;
	unsigned *step;
	int listen_fd;
	int sig_fd;                     /* signalfd：SIGINT/SIGTERM */
	int done_pipe[2];               /* 会话结束时写入自己的槽号 */
	sigset_t old_mask;
	int mask_set;
	struct session slots[MAX_PARALLEL];
	int running;                    /* 正在跑的会话数 */
	long accepted, ok, failed;
	int stopping;                   /* 收到信号：不再接受新客户端 */
	long long grace_deadline;       /* 宽限期到什么时候（CLOCK_MONOTONIC 毫秒） */
	int aborted;                    /* 宽限期过了，已中止剩下的会话 */
	int idle_timeout;               /* 等下一个客户端超时（--clients N 还没凑够） */
};

/* ---------- 会话线程 ---------- */

/* 会话的第一步：读客户端的 HELLO，决定这个会话的参数（服务端没明确给的听客户端的） */
static int read_client_parameters(struct session *s, struct rdma_conn *conn)
{
	char notes[128], why[160];

	step_title(&conn->watch, &conn->step, _("读取客户端的参数（多客户端模式：先听客户端要什么）"));
	if (ctrl_recv_hello(&conn->ctrl, &conn->remote) != 0)
		return -1;
	conn->remote_ready = 1;
	if (adopt_client_options(s->server_opt, &conn->remote, SESSION_SIZE_CAP, &s->opt,
				 notes, sizeof(notes), why, sizeof(why)) != 0) {
		con_error(_("%s\n" CON_HINT "客户端用小一点的 --size，或服务端明确给出 --size\n"), why);
		/* 照常回 HELLO：客户端会在握手里看到“消息大小不一致”，两端都知道为什么失败 */
	}
	conn->num_qp = s->opt.num_qp;
	con_printf(_("客户端要: -q %u --op %s --size %u --iters %u\n"), conn->remote.num_qp,
		   op_name((enum rdma_op)conn->remote.op), conn->remote.size, conn->remote.iters);
	con_printf(_("本会话用: -q %d --op %s --size %zu --iters %ld（听客户端的:%s）\n"), s->opt.num_qp,
		   op_name(s->opt.op), s->opt.size, s->opt.iters, notes[0] != '\0' ? notes : _(" 无，全由服务端命令行决定"));
	con_explain(_("服务端命令行明确给了的参数两端必须一致；没给的由客户端决定（QP 最多 %d 个，消息最大 %u 字节）\n"),
		   MAX_QP, SESSION_SIZE_CAP);
	if (op_is_atomic(s->opt.op) && conn->dev->dev_attr.atomic_cap == IBV_ATOMIC_NONE) {
		con_error(_("设备 %s 不支持原子操作（atomic_cap=NONE），不能服务 --op %s\n"
			    CON_HINT "这个客户端换一种 --op\n"), conn->dev->dev_name, op_name(s->opt.op));
		return -1;
	}
	return 0;
}

/* 会话最先的两步：TCP 连接（主线程已 accept）、客户端的 HELLO（决定 -q/--op/--size/--iters） */
int session_first_steps(struct session *s, struct rdma_conn *conn)
{
	if (ctrl_establish(&conn->ctrl, &conn->watch, &conn->step) != 0)
		return -1;
	return read_client_parameters(s, conn);
}

static void *session_main(void *arg)
{
	struct session *s = arg;
	struct rdma_conn conn;
	char prefix[96];

	snprintf(prefix, sizeof(prefix), _("[客户端%ld %s] "), s->id, s->peer);
	con_set_prefix(prefix);
	conn_init(&conn, s->dev, &s->opt);
	conn.step = s->first_step;
	/* 控制平面：主线程 accept 好的 TCP 连接交给这个会话 */
	s->rc = ctrl_tcp_adopt(&conn.ctrl, &s->opt, s->sock, s->peer);
	/* 告诉插桩一个会话开始了（--trace：几个会话写同一个文件，这个会话的每个事件带 "conn": 客户端编号，本线程的错误也进 trace） */
	hook_before(&conn, HOOK_SESSION, NULL, -1, s->id, NULL);
	if (s->rc == 0)
		s->rc = s->serve(&conn, s);   /* 驱动程序的 TCP 步骤列表 + 数据面（rdma_server.c） */
	step_title(&conn.watch, &conn.step, _("清理本客户端的资源（与创建顺序相反；设备和 PD 留给别的客户端）"));
	conn_destroy(&conn);
	ctrl_release(&conn.ctrl);
	if (s->rc == 0)
		con_printf(_("本客户端正常结束\n"));
	else
		con_eprintf(_("本客户端失败（见上面的“错误”与“提示”）；不影响其它客户端\n"));
	hook_after(&conn, HOOK_SESSION, s->rc, NULL);
	con_set_prefix(NULL);
	/* 告诉主线程“我结束了”：写一个 int，管道保证不超过 PIPE_BUF 的写是原子的 */
	if (write(s->done_fd, &s->slot, sizeof(s->slot)) != (ssize_t)sizeof(s->slot))
		con_error(_("通知主线程失败: %s\n"), strerror(errno));
	return NULL;
}

/* ---------- 主线程 ---------- */

static int free_slot(struct server *srv)
{
	for (int i = 0; i < srv->opt->parallel; i++)
		if (!srv->slots[i].in_use)
			return i;
	return -1;
}

/* 屏蔽 SIGINT/SIGTERM（之后开的线程继承这个屏蔽），改由 signalfd 读 */
static int open_signalfd(struct server *srv)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &set, &srv->old_mask) != 0) {
		con_error(_("pthread_sigmask 失败\n"));
		return -1;
	}
	srv->mask_set = 1;
	srv->sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (srv->sig_fd < 0) {
		con_error(_("signalfd 失败: %s (errno=%d)\n"), strerror(errno), errno);
		return -1;
	}
	return 0;
}

static int server_open(struct server *srv)
{
	const struct options *o = srv->opt;

	step_title(&srv->dev->watch, srv->step, _("建立TCP监听（控制平面）listen：多客户端"));
	if (open_signalfd(srv) != 0)
		return -1;
	if (pipe2(srv->done_pipe, O_CLOEXEC) != 0) {
		con_error(_("pipe2 失败: %s (errno=%d)\n"), strerror(errno), errno);
		return -1;
	}
	/*
	 * 积压队列要够大：十几个客户端同时 connect 时，队列满了内核会丢掉握手的最后一个 ACK，
	 * 客户端以为连上了，服务端却还没有这个连接；数到 --clients 个后监听 socket 一关，
	 * 这些“半连接”上发来的数据只换来 RST（CI 里见过 Connection reset by peer）。
	 */
	srv->listen_fd = tcp_listen(o->tcp_port, SOMAXCONN);
	if (srv->listen_fd < 0)
		return -1;
	if (o->clients == 0)
		con_printf(_("在TCP端口 %d 接待客户端，直到 Ctrl-C（SIGINT）或 SIGTERM；最多同时 %d 个\n"),
			   o->tcp_port, o->parallel);
	else
		con_printf(_("在TCP端口 %d 接待 %ld 个客户端；最多同时 %d 个\n"), o->tcp_port, o->clients, o->parallel);
	con_explain(_("设备、端口、GID 和 PD 已经打开（步骤1-5），所有客户端共用；每个客户端一个线程，\n"
		   "        有自己的 MR、CQ、QP 和 TCP 连接，结束时只释放它自己的。输出行前的 [客户端N 地址] 说明是谁的\n"));
	con_explain(_("同时在服务的客户端达到 %d 个时，新的客户端先在内核的 TCP 队列里等着；"
		   "它等服务端回 HELLO 最多 -t 秒，排队久的客户端请加大 -t\n"), o->parallel);
	ctrl_announce_ready(o, "tcp");
	return 0;
}

/* 接受一个客户端，开线程服务它 */
static void start_session(struct server *srv)
{
	int slot = free_slot(srv);
	struct session *s = &srv->slots[slot];
	char peer[64] = "";
	int fd = tcp_accept(srv->listen_fd, 0, peer, sizeof(peer));

	if (fd < 0)
		return;                         /* 原因已打印；继续接待别的客户端 */
	memset(s, 0, sizeof(*s));
	s->slot = slot;
	s->id = ++srv->accepted;
	snprintf(s->peer, sizeof(s->peer), "%s", peer);
	s->sock = fd;
	s->watch_fd = dup(fd);
	s->first_step = *srv->step;
	s->opt = *srv->opt;
	s->server_opt = srv->opt;
	s->dev = srv->dev;
	s->serve = srv->serve;
	s->done_fd = srv->done_pipe[1];
	con_printf(_("接受第 %ld 个客户端 %s（正在服务 %d 个）\n"), s->id, peer, srv->running + 1);
	if (pthread_create(&s->thread, NULL, session_main, s) != 0) {
		con_error(_("pthread_create 失败，无法服务客户端 %s\n" CON_HINT "线程数或内存到了上限？减小 --parallel\n"), peer);
		close(fd);
		if (s->watch_fd >= 0)
			close(s->watch_fd);
		srv->failed++;
		return;
	}
	s->in_use = 1;
	srv->running++;
}

/* 一个会话结束了：join 它，记下成败，腾出槽 */
static void reap_session(struct server *srv)
{
	int slot;
	struct session *s;

	if (read(srv->done_pipe[0], &slot, sizeof(slot)) != (ssize_t)sizeof(slot) ||
	    slot < 0 || slot >= srv->opt->parallel)
		return;
	s = &srv->slots[slot];
	pthread_join(s->thread, NULL);
	if (s->rc == 0)
		srv->ok++;
	else
		srv->failed++;
	con_printf(_("客户端%ld %s 的会话结束: %s（成功 %ld，失败 %ld，还在服务 %d 个）\n"), s->id, s->peer,
		   s->rc == 0 ? _("成功") : _("失败"), srv->ok, srv->failed, srv->running - 1);
	if (s->watch_fd >= 0)
		close(s->watch_fd);
	s->in_use = 0;
	srv->running--;
}

/* 读掉一个信号；返回信号名 */
static const char *take_signal(struct server *srv)
{
	struct signalfd_siginfo si;

	if (read(srv->sig_fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return _("信号");
	return si.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
}

/* 宽限期还剩多少毫秒（-1 = 没在宽限期里：一直等） */
static int grace_left(const struct server *srv)
{
	long long left;

	if (!srv->stopping || srv->aborted)
		return -1;
	left = srv->grace_deadline - now_ms();
	return left > 0 ? (int)left : 0;
}

/* 收到信号：不再接受新客户端，宽限期从现在起算 -t 秒 */
static void begin_stop(struct server *srv, const char *sig)
{
	con_printf(_("\n收到 %s：不再接受新的客户端；正在服务的 %d 个最多再等 %d 秒\n"), sig,
		   srv->running, srv->opt->timeout_ms / 1000);
	srv->stopping = 1;
	srv->grace_deadline = now_ms() + srv->opt->timeout_ms;
}

static int more_clients_wanted(const struct server *srv)
{
	return !srv->stopping && (srv->opt->clients == 0 || srv->accepted < srv->opt->clients);
}

/* 接待循环：直到接受够 --clients 个、收到信号、或等下一个客户端超时 */
static void accept_loop(struct server *srv)
{
	while (more_clients_wanted(srv)) {
		int can_accept = free_slot(srv) >= 0;
		struct pollfd p[3] = {
			{ .fd = srv->sig_fd, .events = POLLIN },
			{ .fd = srv->done_pipe[0], .events = POLLIN },
			{ .fd = can_accept ? srv->listen_fd : -1, .events = POLLIN },
		};
		/* --clients N：没有会话在跑时，等下一个客户端最多 --accept-timeout */
		int wait = srv->opt->clients != 0 && srv->running == 0 ? srv->opt->accept_timeout_ms : -1;
		int n = poll(p, 3, wait);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			con_error(_("poll 失败: %s (errno=%d)\n"), strerror(errno), errno);
			srv->stopping = 1;
			return;
		}
		if (n == 0) {
			con_error(_("等了 %d 秒没有新的客户端（已接受 %ld 个，要 %ld 个）\n"
				    CON_HINT "客户端都启动了吗？可用 --accept-timeout 调整，或用 --clients 0 一直服务到 Ctrl-C\n"),
				    srv->opt->accept_timeout_ms / 1000, srv->accepted, srv->opt->clients);
			srv->idle_timeout = 1;
			return;
		}
		if (p[0].revents & POLLIN) {
			begin_stop(srv, take_signal(srv));
			return;
		}
		if (p[1].revents & POLLIN)
			reap_session(srv);
		if (can_accept && (p[2].revents & POLLIN))
			start_session(srv);
	}
}

/* 宽限期过了（或又收到一次信号）：shutdown 每个会话的 socket，会话随即出错结束 */
static void abort_sessions(struct server *srv, const char *why)
{
	con_printf(_("%s：中止还在跑的 %d 个会话（shutdown 它们的 TCP 连接；在等完成的会话最多再过 -t 秒结束）\n"),
		   why, srv->running);
	for (int i = 0; i < srv->opt->parallel; i++)
		if (srv->slots[i].in_use && srv->slots[i].watch_fd >= 0)
			shutdown(srv->slots[i].watch_fd, SHUT_RDWR);
	srv->aborted = 1;
}

/* 等所有会话结束；收到信号后只给 -t 秒的宽限 */
static void wait_sessions(struct server *srv)
{
	while (srv->running > 0) {
		struct pollfd p[2] = {
			{ .fd = srv->sig_fd, .events = POLLIN },
			{ .fd = srv->done_pipe[0], .events = POLLIN },
		};
		int n = poll(p, 2, grace_left(srv));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			con_error(_("poll 失败: %s (errno=%d)\n"), strerror(errno), errno);
			return;                 /* 不 join 就退出不安全：下面 server_close 前还会再等 */
		}
		if (n == 0) {
			abort_sessions(srv, _("宽限期到了"));
			continue;
		}
		if (p[0].revents & POLLIN) {
			const char *sig = take_signal(srv);

			if (!srv->stopping)
				begin_stop(srv, sig);
			else if (!srv->aborted)
				abort_sessions(srv, _("又收到一次信号"));
		}
		if (p[1].revents & POLLIN)
			reap_session(srv);
	}
}

/* 逆序关闭主线程自己的东西（会话都已 join） */
static void server_close(struct server *srv)
{
	for (int i = 0; i < MAX_PARALLEL; i++) {
		if (srv->slots[i].in_use) {
			pthread_join(srv->slots[i].thread, NULL);
			srv->slots[i].in_use = 0;
		}
	}
	if (srv->listen_fd >= 0)
		close(srv->listen_fd);
	for (int i = 1; i >= 0; i--)
		if (srv->done_pipe[i] >= 0)
			close(srv->done_pipe[i]);
	if (srv->sig_fd >= 0)
		close(srv->sig_fd);
	if (srv->mask_set)
		pthread_sigmask(SIG_SETMASK, &srv->old_mask, NULL);
}

static void print_summary(const struct server *srv)
{
	con_printf(_("\n========== 多客户端汇总 ==========\n"));
	con_printf(_("接受了 %ld 个客户端：成功 %ld 个，失败 %ld 个%s\n"), srv->accepted, srv->ok, srv->failed,
		   srv->aborted ? _("（其中有收到信号后被中止的）") : "");
	if (srv->stopping)
		con_explain(_("因收到信号提前结束；之后释放 PD 和设备（所有客户端的资源都已各自释放）\n"));
}

int serve_clients(struct rdma_device *dev, unsigned *step, session_fn serve)
{
	struct server srv;
	int rc;

	memset(&srv, 0, sizeof(srv));
	srv.opt = dev->opt;
	srv.dev = dev;
	srv.serve = serve;
	srv.step = step;
	srv.listen_fd = srv.sig_fd = -1;
	srv.done_pipe[0] = srv.done_pipe[1] = -1;
	rc = server_open(&srv);
	if (rc == 0) {
		accept_loop(&srv);
		if (srv.listen_fd >= 0) {
			close(srv.listen_fd);   /* 不再接受：后来的客户端 connect 会被拒绝 */
			srv.listen_fd = -1;
		}
		wait_sessions(&srv);
		print_summary(&srv);
		rc = srv.failed == 0 && !srv.idle_timeout ? 0 : -1;
	}
	server_close(&srv);
	return rc;
}
