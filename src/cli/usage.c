/*
 * usage.c - -h 的用法说明（两个角色共有的选项、各自独有的、示例）
 */
#include "cli/parse.h"
#include "console/i18n.h"
#include "cli/inject_kinds.h"
#include "cli/ack_timeout.h"

#include <stdio.h>

/* 两个角色共有的选项；各自独有的在 print_usage 里分开列出（-d 的默认两个角色不同） */
static void print_common_options(enum role role)
{
	printf(_("\n位置参数与下列选项等价（两种写法可以混用，但不能给出矛盾的值）：\n"));
	if (role == ROLE_SERVER)
		printf(_("  -d, --dev NAME        RDMA设备名（如 rxe0, mlx5_0）；默认自动选择有ACTIVE端口和RoCE v2 IPv4 GID的设备\n"));
	else
		printf(_("  -d, --dev NAME        RDMA设备名（如 rxe0, mlx5_0）；默认按到服务端的路由选：出口网卡上 ACTIVE 的设备\n"));
	printf(_("  -p, --port N          TCP控制平面端口（默认 %d）\n"
	       "  -g, --gid-idx N|auto  GID索引；默认 auto：自动选 RoCE v2 + IPv4 的条目\n"
	       "  -q, --num-qp N        QP数量 1..%d（默认 %d）；两端必须一致\n"
	       "\n其它选项：\n"
	       "  -i, --ib-port N       RDMA设备的端口号（默认 %d）\n"
	       "      --op OP           send（默认）| write | read | write_imm | fetch_add | cmp_swap；两端必须一致\n"
	       "      --size BYTES      每个QP每轮的消息大小（默认 %d，交互模式默认 %d；可带 K/M 后缀，最大 %u MiB；原子操作固定 8）\n"
	       "      --iters N         轮数（默认 1）\n"
	       "      --offset BYTES    原子操作目标字在对端区域内的偏移（0..%d，必须是 8 的倍数）\n"
	       "      --interactive     交互模式：客户端逐行读标准输入，RDMA WRITE 到服务端内存再 READ 回来；输入 q 结束\n"
	       "  -t, --timeout SEC     连接/握手/同步/轮询CQ的超时（默认 %d 秒）\n"
	       "      --qp-state N|all  每次状态转换后打印完整 ibv_query_qp 结果的QP个数（默认 1，0 = 只打印状态摘要）\n"
	       "      --dry-run         只检查参数、打印配置后退出（不打开设备，不连网络）\n"
	       "      --trace FILE      把每个步骤、verbs 调用、WR、完成、控制消息写进 FILE（JSON Lines，格式见 docs/TRACE.md；\n"
	       "                        控制台输出不变）；tools/trace/render 把两端的 trace 和抓包画成时间线\n"
	       "      --cm              用 librdmacm（RDMA CM）建立连接，代替 TCP 交换；两端都要给。-p 是 CM 的端口，\n"
	       "                        设备由地址决定（--src 或 -d），-g 不可用；见 docs/CM.md\n"
	       "      --src IP          （仅 --cm）本端地址：客户端的源地址 / 服务端监听的地址（默认: 客户端由路由决定，服务端 0.0.0.0）\n"
	       "      --cq poll|event   怎样等完成：poll（默认）忙轮询 ibv_poll_cq；event 用完成通道，在 fd 上睡眠等事件；两端必须一致\n"
	       "      --qp rc|ud        QP 类型：rc 可靠连接（默认）；ud 不可靠数据报（只有 send，消息 ≤ 路径MTU，接收缓冲区多 40 字节的 GRH）；两端必须一致\n"
	       "      --srq             RC 的 N 个QP共用一个共享接收队列（ibv_create_srq）；只配 --op send；两端必须一致\n"
	       "\n基准测试（两端必须一致；只支持 --op send/write/read/write_imm；不能与 --interactive/--inject/--clients/--parallel 同用，\n"
	       "只有 --qp ud --bench bw 的服务端可以 --inject late-recv，看丢掉的消息被数出来）：\n"
	       "      --bench lat|bw    lat = 乒乓延迟（像 ib_*_lat）；bw = 带宽（像 ib_*_bw）；计时循环里不走TCP、不打印，循环后校验一次数据\n"
	       "      --sweep           大小从 2 B 翻倍到 8 MiB 各测一遍（像 perftest -a）\n"
	       "      --tx-depth N      每个QP的发送队列深度 = bw 的在途窗口（bw 默认 %d，lat 默认 %d）\n"
	       "      --signal N        每 N 个 WR 才要一个完成（选择性通知；bw 默认 %d，lat 默认 1，lat 的 READ 每次都要）\n"
	       "      --post-list N     bw：一次 ibv_post_send 投递 N 个 WR 的链表（默认 1，最多 64）\n"
	       "      --inline BYTES    QP 的 max_inline_data；消息 ≤ 它时用 IBV_SEND_INLINE（CPU 直接拷进 WQE，默认 0 = 不用）\n"),
	       DEFAULT_TCP_PORT, MAX_QP, DEFAULT_NUM_QP, DEFAULT_IB_PORT,
	       DEFAULT_SIZE, INTERACTIVE_SIZE, MAX_SIZE >> 20, ATOMIC_SLOT - 8,
	       DEFAULT_TIMEOUT_MS / 1000, BENCH_BW_DEPTH, BENCH_LAT_DEPTH, BENCH_SIGNAL_EVERY);
	printf(_("      --counters        数据面开始和结束时读端口的硬件计数（/sys/class/infiniband/DEV/ports/N/hw_counters），\n"
	       "                        打印动了的、每个一行含义；--bench 的 BENCH_RESULT 多出 ctr_NAME=差值；只管本端，两端不必一致\n"));
	printf(_("      --ack-timeout N   RC 等应答的超时指数（RTS 的 timeout，0..%d）：4.096us×2^N 没有应答就重传，0 = 不用定时器；\n"
	       "                        默认 %d（≈67ms），--cm 默认用 CM 给的；只管本端，两端可以不同；--qp ud 不能用\n"),
	       ACK_TIMEOUT_MAX, ACK_TIMEOUT_DEFAULT);
	printf(_("      --lang zh|en      输出用哪种语言（默认看 LANGUAGE、LC_ALL、LC_MESSAGES、LANG：en 开头是英文，其它都是中文）\n"));
}

void print_usage(const char *prog, enum role role)
{
	if (role == ROLE_SERVER) {
		printf(_("用法: %s [dev] [port] [gid_idx] [num_qp] [选项]\n"), prog);
		print_common_options(role);
		printf(_("      --accept-timeout SEC  等待客户端连接的超时（默认 %d 秒）\n"
		       "      --clients N       服务 N 个客户端后退出（默认 1 = 一对一；0 = 一直服务到 Ctrl-C/SIGTERM）\n"
		       "      --parallel M      最多同时服务 M 个客户端（1..%d，默认 1 = 一个接一个）；每个客户端一个线程、\n"
		       "                        一套自己的 MR/CQ/QP，设备和 PD 共用。多客户端时没明确给出的 -q/--op/--size/--iters\n"
		       "                        由客户端决定（消息最大 %u 字节），明确给出的两端必须一致\n"
		       "      --ready-file FILE 开始等客户端时（listen/rdma_listen 之后）写 FILE 一行 \"ready tcp|cm PORT PID\"，给脚本和测试等\n"),
		       DEFAULT_ACCEPT_MS / 1000, MAX_PARALLEL, 1u << 20);
		inject_print_usage(role);
		printf(_("  -h, --help            显示本帮助\n"));
		printf(_("\n示例:\n  %s\n  %s rxe0 18515 auto 4\n  %s -d rxe0 --op write --size 1M --iters 10\n"
		       "  %s -d rxe0 --clients 0 --parallel 8\n"),
		       prog, prog, prog, prog);
		return;
	}
	printf(_("用法: %s <server_ip> [dev] [port] [gid_idx] [num_qp] [选项]\n"), prog);
	print_common_options(role);
	inject_print_usage(role);
	printf(_("  -h, --help            显示本帮助\n"));
	printf(_("\n示例（两台机器各有自己的 rxe0，-d 可以省略：程序按到服务端的路由自动选设备）:\n"
	       "  %s 10.11.0.1\n  %s 10.11.0.1 rxe0 18515 auto 4\n  %s 10.11.0.1 --op write --size 1M --iters 10\n"),
	       prog, prog, prog);
}
