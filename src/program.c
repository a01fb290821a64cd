/*
 * program.c - 服务端和客户端共用的 main：解析命令行、打印配置、运行、无论成败都逆序清理、给出退出码
 */
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "conout.h"

static void print_banner(const struct options *o, const char *title)
{
	char gid[16];

	snprintf(gid, sizeof(gid), "%d", o->gid_idx);
	con_printf("========================================\n");
	con_printf("   %s - RoCEv2学习程序\n", title);
	con_printf("========================================\n");
	if (o->role == ROLE_CLIENT)
		con_printf("服务端IP: %s\n", o->server_ip);
	con_printf("设备: %s\n", o->dev_name ? o->dev_name : "自动选择");
	if (o->cm)
		con_printf("建连方式: librdmacm（--cm），RDMA CM 端口: %d，本端地址: %s\n", o->tcp_port,
			   o->src_addr ? o->src_addr : o->dev_name ? "-d 设备的 IPv4 地址" :
			   o->role == ROLE_SERVER ? "0.0.0.0（任意）" : "由路由决定");
	else
		con_printf("TCP端口: %d\n", o->tcp_port);
	con_printf("GID索引: %s\n", o->gid_idx == GID_AUTO ? "自动选择" : gid);
	con_printf("QP数量: %d\n", o->num_qp);
	con_printf("操作: %s%s  消息大小: %zu 字节  轮数: %ld\n", op_name(o->op),
	       o->interactive ? "（交互模式）" : "", o->size, o->iters);
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
		con_eprintf("错误: %s\n提示: %s -h 查看用法\n", err, argv[0]);
		return 2;
	case PARSE_OK:
		break;
	}
	print_banner(opt, role == ROLE_SERVER ? "RDMA服务端" : "RDMA客户端");
	if (opt->dry_run) {
		con_printf("--dry-run: 参数有效，以上是将使用的配置；未打开设备、未连接网络\n");
		return 0;
	}
	return -1;
}

/*
 * 起始 PSN 的随机种子取自内核（getrandom）。以前用 getpid() ^ time()：一秒后启动的另一端
 * pid 加 1、时间加 1，异或的结果可能一样，两端就拿到了相同的起始 PSN（对 RC 无害，但读输出时容易混淆）。
 */
static void seed_psn_random(void)
{
	long seed;

	if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed))
		seed = (long)getpid() * 1000003L + (long)time(NULL);
	srand48(seed);
}

int run_program(int argc, char **argv, enum role role, program_fn run)
{
	const char *who = role == ROLE_SERVER ? "服务端" : "客户端";
	struct options opt;
	struct rdma_device dev;
	struct rdma_conn conn;
	int rc = handle_command_line(argc, argv, role, &opt);

	if (rc >= 0)
		return rc;
	seed_psn_random();                            /* 用于随机起始PSN */
	device_init(&dev, &opt);
	conn_init(&conn, &dev, &opt);
	rc = run(&dev, &conn);
	destroy_resources(&dev, &conn);
	if (rc != 0) {
		con_eprintf("\n%s失败退出（见上面的“错误”与“提示”）\n", who);
		return 1;
	}
	con_printf("\n%s正常结束\n", who);
	return 0;
}
