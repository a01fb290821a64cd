/*
 * interactive.c - --interactive：客户端把一行文字 RDMA WRITE 进服务端内存，再 RDMA READ 回来；服务端只盯着自己的内存
 */
#include "runs/op_rounds.h"
#include "rdma_common.h"
#include "console/i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/conout.h"
#include "control/ctrl.h"
#include "verbs/datapath.h"

/* ---------- 交互模式：客户端 WRITE 一行到服务端内存，再 READ 回来 ---------- */

/*
 * 服务端区域布局（QP0 的槽）：[0..7] 序号（最后写），[8..] 以 NUL 结尾的文本。
 * 客户端先写文本、再在同一个QP上写序号：RC 在同一QP上按顺序执行写操作，rxe 和按序写内存的
 * PCIe 网卡也按这个顺序把数据放进内存，所以服务端看到新序号时，文本已经到了。
 * 但这不是规范保证的：开了 relaxed ordering（IBV_ACCESS_RELAXED_ORDERING）的网卡可以乱序落盘。
 * 可移植的“数据到了”信号是 RDMA WRITE WITH IMM（或一个 SEND）：它的接收完成保证之前的数据都已可见。
 * 博客里“不加 sleep(1) 就看不到新数据”的真正原因：循环里的普通读可能被编译器
 * 优化成只读一次（值留在寄存器里）。这里用 __atomic_load_n(…, ACQUIRE) 每次都真正读内存。
 */
int interactive_server(struct rdma_conn *conn)
{
	uint8_t *area = area_a(conn, 0);
	uint64_t seen = 0;
	char *text = (char *)area + 8;
	size_t cap = conn->slot - 8;

	con_printf(_("服务端只盯着自己的内存（地址 %p）：客户端 RDMA WRITE 进来的每条消息都会显示在这里；\n"
	       "服务端不调用任何 verbs，也没有完成事件。客户端输入 q 时双方退出\n"), (void *)area);
	for (;;) {
		uint64_t seq = __atomic_load_n((uint64_t *)(void *)area, __ATOMIC_ACQUIRE);
		int r;

		if (seq != seen) {
			int quit;

			text[cap - 1] = '\0';
			seen = seq;
			con_printf(_("[服务端内存] 消息#%llu: %s\n"), (unsigned long long)seq, text);
			/* 先看完文本再 ACK：客户端收到 ACK 就会写下一行，覆盖这块内存 */
			quit = strcmp(text, "q") == 0;
			if (ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_ACK, seq)) != 0)
				return -1;
			/* 客户端收到 ACK 之前还要 RDMA READ 读回这一行：等它说 BYE 再拆 QP，否则它的 READ 没有应答 */
			if (quit) {
				if (ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_BYE, seq)) != 0)
					return -1;
				con_printf(_("收到 q，服务端结束\n"));
				return 0;
			}
			continue;
		}
		/* 顺便看看控制平面：客户端异常退出时这里会看到连接断开（TCP 读到 EOF） */
		r = ctrl_poll_peer(&conn->ctrl, 20);
		if (r != 0 && __atomic_load_n((uint64_t *)(void *)area, __ATOMIC_ACQUIRE) == seen) {
			con_error(_("客户端断开了连接（没有发送 q）\n" CON_HINT "客户端异常退出？看看客户端的输出\n"));
			return -1;
		}
	}
}

static int interactive_send_line(struct rdma_conn *conn, const char *line, uint64_t seq)
{
	int i = (int)((seq - 1) % (uint64_t)conn->num_qp);
	uint8_t *stage = area_b(conn, 0);
	size_t len = strlen(line) + 1;
	struct send_req wr_text = { .opcode = IBV_WR_RDMA_WRITE, .local = stage + 8,
				    .len = (uint32_t)len, .remote_addr = conn->remote.addr + 8 };
	struct send_req wr_seq = { .opcode = IBV_WR_RDMA_WRITE, .local = stage, .len = 8,
				   .remote_addr = conn->remote.addr };
	struct send_req rd = { .opcode = IBV_WR_RDMA_READ, .local = area_a(conn, 0),
			       .len = (uint32_t)len, .remote_addr = conn->remote.addr + 8 };

	memcpy(stage + 8, line, len);
	memcpy(stage, &seq, 8);
	if (post_send(conn, i, &wr_text, 1) != 0 || post_send(conn, i, &wr_seq, 1) != 0 ||
	    wait_wcs(conn, 2, IBV_WC_RDMA_WRITE, 0) != 0)
		return -1;
	con_printf(_("  已通过 QP[%d] RDMA WRITE %zu 字节到服务端 0x%llx（先文本、后序号）\n"), i, len,
	       (unsigned long long)(conn->remote.addr + 8));
	memset(area_a(conn, 0), 0, len);
	if (post_send(conn, i, &rd, 1) != 0 || wait_wcs(conn, 1, IBV_WC_RDMA_READ, (uint32_t)len) != 0)
		return -1;
	if (memcmp(area_a(conn, 0), line, len) != 0) {
		con_error(_("读回的内容与写入的不同\n"));
		return -1;
	}
	con_printf(_("  RDMA READ 读回: %s\n"), (char *)area_a(conn, 0));
	/* 等服务端确认看到了这条消息，保证它不会错过任何一条 */
	return ctrl_sync_wait(&conn->ctrl, SYNC_TAG(SYNC_ACK, seq));
}

int interactive_client(struct rdma_conn *conn)
{
	char *line = NULL;
	size_t cap = 0, max = conn->slot - 9;
	uint64_t seq = 0;
	int rc = 0;

	con_printf(_("输入一行文字回车发送，输入 q 退出（标准输入可以是管道）\n"));
	for (;;) {
		ssize_t n;

		con_printf(_("发送> "));
		fflush(stdout);
		n = getline(&line, &cap, stdin);
		if (n < 0) {
			con_printf(_("\n标准输入已结束(EOF)，按 q 处理，通知服务端退出\n"));
			rc = interactive_send_line(conn, "q", ++seq);
			break;
		}
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if ((size_t)n > max) {
			con_printf(_("  （消息太长，截断到 %zu 字节；可用 --size 调大）\n"), max);
			line[max] = '\0';
		}
		con_printf("%s\n", line);
		rc = interactive_send_line(conn, line, ++seq);
		if (rc != 0 || strcmp(line, "q") == 0)
			break;
	}
	free(line);
	/* 最后一行的 READ 已经完成：告诉服务端可以拆 QP 了 */
	if (rc == 0)
		rc = ctrl_sync_send(&conn->ctrl, SYNC_TAG(SYNC_BYE, seq));
	return rc;
}
