/*
 * program.c - 服务端和客户端共用的 main：解析命令行、打印配置、运行、无论成败都逆序清理、给出退出码
 */
#include "program/program.h"
#include "cli/parse.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "console/conout.h"
#include "console/verbs_print.h"
#include "runs/bench.h"
#include "connect/cm_qps.h"
#include "runs/op_rounds.h"
#include "plugins/trace.h"
#include "plugins/trace_hooks.h"
#include "plugins/inject.h"
#include "plugins/ctr_hook.h"
#include "plugins/ctrl_trace.h"
#include "cli/ack_timeout.h"

static void print_banner(const struct options *o, const char *title)
{
	char gid[16], t[32];

	snprintf(gid, sizeof(gid), "%d", o->gid_idx);
	con_printf("========================================\n");
	con_printf(_("   %s - RoCEv2学习程序\n"), title);
	con_printf("========================================\n");
	if (o->role == ROLE_CLIENT)
		con_printf(_("服务端IP: %s\n"), o->server_ip);
	con_printf(_("设备: %s\n"), o->dev_name ? o->dev_name : _("自动选择"));
	if (o->cm)
		con_printf(_("建连方式: librdmacm（--cm），RDMA CM 端口: %d，本端地址: %s\n"), o->tcp_port,
			   o->src_addr ? o->src_addr : o->dev_name ? _("-d 设备的 IPv4 地址") :
			   o->role == ROLE_SERVER ? _("0.0.0.0（任意）") : _("由路由决定"));
	else
		con_printf(_("TCP端口: %d\n"), o->tcp_port);
	con_printf(_("GID索引: %s\n"), o->gid_idx == GID_AUTO ? _("自动选择") : gid);
	if (multi_client(o)) {
		if (o->clients == 0)
			con_printf(_("客户端: 一直服务到 Ctrl-C/SIGTERM，最多同时 %d 个\n"), o->parallel);
		else
			con_printf(_("客户端: 服务 %ld 个后退出，最多同时 %d 个\n"), o->clients, o->parallel);
		con_printf(_("QP数量、操作、消息大小、轮数: 命令行明确给出的两端必须一致，其余由每个客户端决定\n"));
	} else {
		con_printf(_("QP数量: %d%s\n"), o->num_qp, o->qp_type == QPK_UD ? _("（UD：不可靠数据报，--qp ud）") :
			   o->srq ? _("（RC，接收共用一个 SRQ，--srq）") : "");
		con_printf(_("操作: %s%s  消息大小: %zu 字节  轮数: %ld\n"), op_name(o->op),
			   o->interactive ? _("（交互模式）") : "", o->size, o->iters);
	}
	if (o->ack_timeout_given && o->ack_timeout == 0)   /* 默认时不打印：横幅和以前一样 */
		con_printf(_("ACK 超时: --ack-timeout 0（不用定时器：只有对端的 NAK 才让它重传；只管本端）\n"));
	else if (o->ack_timeout_given)
		con_printf(_("ACK 超时: --ack-timeout %d（4.096us×2^%d≈%s 没有应答就重传；只管本端）\n"), o->ack_timeout,
			   o->ack_timeout, ack_timeout_str((unsigned)o->ack_timeout, t, sizeof(t)));
	con_printf("========================================\n");
}

static int handle_command_line(int argc, char **argv, enum role role, struct options *opt)
{
	char err[256];

	setvbuf(stdout, NULL, _IOLBF, 0);   /* 逐行输出：与 stderr 交错时顺序正确 */
	switch (parse_options(argc, argv, role, opt, err, sizeof(err))) {
	case PARSE_HELP:
		print_usage(argv[0], role);
		return 0;
	case PARSE_ERROR:
		con_error(_("%s\n" CON_HINT "%s -h 查看用法\n"), err, argv[0]);
		return 2;
	case PARSE_OK:
		break;
	}
	print_banner(opt, role == ROLE_SERVER ? _("RDMA服务端") : _("RDMA客户端"));
	if (opt->dry_run) {
		con_printf(_("--dry-run: 参数有效，以上是将使用的配置；未打开设备、未连接网络\n"));
		return 0;
	}
	return -1;
}

/* --trace FILE：打开 trace，写 start 事件，让本线程的错误和每个步骤标题也进 trace；没有 --trace 时 *t = NULL */
static int open_trace(int argc, char **argv, const struct options *opt, struct trace_ref *tr)
{
	char err[256];

	tr->t = NULL;
	tr->conn = 0;
	if (opt->trace_path == NULL)
		return 0;
	tr->t = trace_open(opt->trace_path, opt->role == ROLE_SERVER ? "server" : "client", err, sizeof(err));
	if (tr->t == NULL) {
		con_error(_("%s\n" CON_HINT "目录存在吗、可写吗？--trace 的文件会被覆盖\n"), err);
		return -1;
	}
	trace_start(tr, argc, argv, opt);
	con_set_error_sink(trace_error_sink, tr);
	return 0;
}

static void close_trace(struct trace_ref *tr, int exit_code)
{
	con_set_error_sink(NULL, NULL);       /* 还在等提示的错误先写进去 */
	trace_close(tr->t, exit_code);
	tr->t = NULL;
}

/* 插桩的接缝装哪些插件：--trace 记下每一步（plugins/trace_hooks.c；步骤标题经设备的 watch，连接从设备复制），
 * --inject 故意改坏一样东西（plugins/inject.c），--counters 读端口计数（plugins/ctr_hook.c）；都没有时一个也不装 */
static void install_hooks(struct program *p)
{
	p->hooks = no_hooks;
	if (p->tr.t != NULL) {
		trace_hooks_install(&p->hooks, &p->trace);
		p->dev.watch = trace_watch(&p->tr);
	}
	if (p->opt.inject != INJECT_NONE)
		inject_install(&p->hooks, p->opt.inject, &p->inject);
	if (p->opt.counters)
		ctr_hooks_install(&p->hooks, &p->counters);
	p->dev.hooks = &p->hooks;
}

int program_start(struct program *p, int argc, char **argv, enum role role)
{
	int rc;

	con_init();
	/* 界面语言：--lang，或环境变量（参数错误的消息也要用它，所以在解析参数之前） */
	i18n_init(argc, argv);
	p->role = role;
	rc = handle_command_line(argc, argv, role, &p->opt);
	if (rc >= 0)
		return rc;
	if (open_trace(argc, argv, &p->opt, &p->tr) != 0)
		return 2;
	device_init(&p->dev, &p->opt);
	install_hooks(p);
	conn_init(&p->conn, &p->dev, &p->opt);
	/* 控制平面（交换连接信息、同步消息）：一条 TCP 连接（ctrl_tcp.c），或 --cm 时 librdmacm 的控制QP（cm_control.c） */
	rc = p->opt.cm ? ctrl_cm_init(&p->conn.ctrl, &p->opt) : ctrl_tcp_init(&p->conn.ctrl, &p->opt);
	ctrl_trace_observe(&p->conn.ctrl, &p->tr);   /* --trace：HELLO 和同步消息也写成事件 */
	if (rc == 0 && program_test_plugins != NULL)
		program_test_plugins(p);
	return rc == 0 ? -1 : program_finish(p, -1);
}

int program_finish(struct program *p, int run_rc)
{
	const char *who = p->role == ROLE_SERVER ? _("服务端") : _("客户端");
	int rc = run_rc != 0 ? 1 : 0;

	destroy_resources(&p->dev, &p->conn);
	if (rc != 0)
		con_eprintf(_("\n%s失败退出（见上面的“错误”与“提示”）\n"), who);
	else
		con_printf(_("\n%s正常结束\n"), who);
	close_trace(&p->tr, rc);
	return rc;
}

int cm_steps(struct rdma_device *dev, struct rdma_conn *conn)
{
	int access = mr_access(conn->opt);   /* 只开本操作、本角色需要的 MR/QP 权限 */

	/* 客户端 rdma_resolve_addr/rdma_resolve_route（源地址决定设备）；服务端 rdma_bind_addr/rdma_listen，
	 * 等第一个连接请求（它到达的地址决定设备） */
	if (ctrl_establish(&conn->ctrl, &conn->watch, &conn->step) != 0)
		return -1;
	/* 设备 = cm_id->verbs（代替 TCP 模式的步骤1-4）；PD 和 TCP 模式一样，只是设备上下文是 librdmacm 打开的 */
	if (cm_adopt_device(conn) != 0 || alloc_pd(dev, &conn->step) != 0)
		return -1;
	/* MR、CQ、QP：和 TCP 模式同一段代码，QP 留在 RESET */
	if (conn_create(conn, access) != 0)
		return -1;
	/* 每个QP一个 cm_id：RESET→INIT→RTR→RTS（属性来自 rdma_init_qp_attr）+ rdma_connect / rdma_accept */
	if (cm_connect_qps(conn, access) != 0)
		return -1;
	/* 单边操作要的地址和 rkey：控制QP上的一条 SEND（private data 只有 56 字节） */
	if (exchange_connection_info(conn) != 0)
		return -1;
	/* 同步点：两端的 QP 都到了 RTS（控制QP上一来一回），数据面才开始 */
	return rts_barrier(conn);
}

/* --bench、--interactive：各自完整的数据面，在 RTS 同步点之后（--counters 的第二次读在 data_plane 里） */
static int whole_plane(struct rdma_conn *conn)
{
	if (prepare_plane(conn) != 0)
		return -1;
	if (conn->opt->bench != BENCH_NONE)
		return run_bench(conn);
	step_title(&conn->watch, &conn->step, _("交互模式: RDMA WRITE 写入服务端内存，再 RDMA READ 读回"));
	return conn->opt->role == ROLE_SERVER ? interactive_server(conn) : interactive_client(conn);
}

int data_plane(struct rdma_conn *conn, int (*send_round)(struct rdma_conn *conn, long r))
{
	double t0 = 0;

	if (conn->opt->bench != BENCH_NONE || conn->opt->interactive)
		return plane_end(conn, whole_plane(conn));
	if (rounds_begin(conn, &t0) != 0)
		return rounds_end(conn, t0, -1);
	for (long r = 1; r <= conn->opt->iters; r++)
		if ((conn->opt->op == OP_SEND ? send_round(conn, r) : op_round(conn, r)) != 0)
			return rounds_end(conn, t0, -1);
	return rounds_end(conn, t0, 0);
}
