/*
 * options.h - 命令行参数（服务端与客户端共用）：struct options 和由它推出的事实（options.c）；解析在 parse.h
 *
 * 两种写法都支持：
 *   位置参数（与最初版本兼容）：
 *     rdma_server [dev] [port] [gid_idx] [num_qp]
 *     rdma_client <server_ip> [dev] [port] [gid_idx] [num_qp]
 *   选项：-d/--dev -p/--port -g/--gid-idx -q/--num-qp -i/--ib-port
 *         --op --size --iters --offset --interactive -t/--timeout
 *         --accept-timeout --qp-state --dry-run --inject --trace --cm --src -h/--help
 */
#ifndef ROCE_OPTIONS_H
#define ROCE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/op_table.h"   /* enum rdma_op、enum role：操作表拥有操作的编号 */

#define DEFAULT_TCP_PORT      18515
#define DEFAULT_NUM_QP        4
#define MAX_QP                16
#define DEFAULT_IB_PORT       1
#define GID_AUTO              (-1)
#define DEFAULT_SIZE          64          /* 默认消息大小（字节） */
#define INTERACTIVE_SIZE      4096        /* 交互模式缓冲区大小 */
#define MAX_CLIENTS           1000000     /* --clients 上限 */
#define MAX_PARALLEL          16          /* --parallel 上限 */
#define MAX_SIZE              (256u << 20) /* 单个QP消息上限 256 MiB */
#define ATOMIC_SLOT           64          /* 原子操作每个QP的区域大小 */
#define MAX_ITERS             1000000
#define DEFAULT_TIMEOUT_MS    5000
#define DEFAULT_ACCEPT_MS     120000
#define NORMAL_QUEUE_DEPTH    16          /* 普通模式每个QP的发送/接收队列深度（每轮最多 2 个 WR） */
#define BENCH_BW_DEPTH        128         /* --bench bw 默认每个QP在途的 WR 个数（perftest 也是 128） */
#define BENCH_LAT_DEPTH       16
#define BENCH_SIGNAL_EVERY    16          /* --bench bw 默认每 16 个 WR 要一个完成 */
#define BENCH_DEFAULT_ITERS   1000
#define MAX_QUEUE_DEPTH       8192
#define MAX_INLINE            1024
#define MAX_POST_LIST         64          /* --post-list 上限：一次 ibv_post_send 的链表在栈上建（datapath.c） */
#define SWEEP_MIN_SIZE        2           /* --sweep：2 B .. 8 MiB，与 perftest -a 一样 */
#define SWEEP_MAX_SIZE        (8u << 20)

/* --bench：none = 普通的教学模式；lat = 乒乓延迟（像 ib_*_lat）；bw = 带宽（像 ib_*_bw） */
enum bench_mode { BENCH_NONE = 0, BENCH_LAT, BENCH_BW };
/* --cq：poll = 忙轮询 ibv_poll_cq；event = 完成通道（等 fd 上的事件再取完成） */
enum cq_mode { CQ_POLL = 0, CQ_EVENT };

/*
 * 故障注入：
 *   rkey    客户端单边/原子操作故意用错误的 rkey → 对端网卡拒绝（REM_ACCESS_ERR）
 *   payload 发送数据的一方在第1轮发出之前改坏 QP[0] 的一个字节 → 对端逐字节校验失败。
 *           （线上改坏的字节会被 ICRC 发现并丢弃重传，所以要在应用层改，才能检验校验本身）
 *   late-recv 服务端（send/write_imm）第1轮先告诉客户端“可以发了”，过一会儿才投递接收 →
 *           客户端的报文先到，服务端网卡回 RNR NAK，客户端网卡等一会儿重发（rnr_retry=7：一直重试）
 */
/* --inject 的每一种（cli/inject_kinds.c 的 inject_kinds 表：哪一端、什么操作、-h 的说明；docs/GALLERY.md 是实测结果） */
enum inject {
	INJECT_NONE = 0, INJECT_RKEY, INJECT_PAYLOAD, INJECT_LATE_RECV, INJECT_SMALL_RECV, INJECT_FLUSH,
	INJECT_MR_ACCESS, INJECT_RNR_RETRY0, INJECT_LKEY, INJECT_INLINE, INJECT_QPN, INJECT_PSN, INJECT_QP_ACCESS
};
#define LATE_RECV_MS 200        /* --inject late-recv：发出 READY 后等这么久才投递接收 */

/* QP 类型（--qp）：RC 可靠连接（默认）或 UD 不可靠数据报（docs/QP-TYPES.md） */
enum qp_kind { QPK_RC = 0, QPK_UD };
#define UD_GRH_LEN 40           /* UD 的每个接收缓冲区前面多出的 40 字节：网卡放进来的 GRH（RoCE v2 IPv4 时后 20 字节是 IP 头） */
#define UD_MAX_MSG 4096         /* UD 一条消息最多这么多字节：最大的路径MTU（UD 不分段；真正的上限是握手后的路径MTU） */
#define UD_QKEY 0x11111111u     /* UD 的 Q_Key：两端约定的同一个值（和 rdma-core 的 ud_pingpong 一样） */

struct options {
	enum role role;
	const char *server_ip;   /* 仅客户端 */
	const char *dev_name;    /* NULL = 自动选择 */
	int tcp_port;
	int ib_port;
	int gid_idx;             /* GID_AUTO = 自动选择 */
	int num_qp;
	int num_qp_given;        /* 命令行里明确给了 -q（或位置参数） */
	enum rdma_op op;
	int op_given;            /* 明确给了 --op */
	size_t size;             /* 每个QP的消息大小 */
	int size_given;
	long iters;
	int iters_given;         /* 明确给了 --iters */
	uint32_t offset;         /* 原子操作目标字在对端区域内的偏移 */
	int offset_given;
	int interactive;
	int timeout_ms;          /* 连接、握手、同步、轮询CQ的超时 */
	int accept_timeout_ms;   /* 服务端等待客户端连接的超时 */
	int qp_state_detail;     /* 打印完整状态的QP个数，-1 = 全部 */
	int dry_run;             /* 只检查参数并打印配置，不碰设备 */
	enum inject inject;      /* 故障注入（--inject）：看程序怎样发现错误 */
	long clients;            /* 服务端：服务几个客户端后退出（--clients，0 = 直到 SIGINT/SIGTERM） */
	int parallel;            /* 服务端：最多同时服务几个客户端（--parallel） */
	const char *trace_path;  /* --trace FILE：把事件写成 JSON Lines（NULL = 不写） */
	const char *ready_file;  /* 服务端 --ready-file FILE：开始等客户端时写一行 “ready …”（NULL = 不写） */
	int cm;                  /* --cm：用 librdmacm 建立连接（两端都要给） */
	const char *src_addr;    /* --src IP（只和 --cm 一起）：客户端的源地址 / 服务端监听的地址；它决定用哪个设备 */
	enum cq_mode cq;         /* --cq poll|event */
	enum bench_mode bench;   /* --bench lat|bw */
	int sweep;               /* --sweep：大小从 2 B 到 8 MiB 逐个翻倍（perftest -a） */
	int tx_depth;            /* --tx-depth：每个QP的发送队列深度 = bw 的在途窗口 */
	int signal_every;        /* --signal N：每 N 个发送 WR 要一个完成（选择性通知） */
	int post_list;           /* --post-list N：一次 ibv_post_send 投递 N 个 WR（链表） */
	uint32_t inline_size;    /* --inline BYTES：QP 的 max_inline_data；消息 ≤ 它时用 IBV_SEND_INLINE */
	enum qp_kind qp_type;    /* --qp rc|ud */
	int srq;                 /* --srq：这条连接的 N 个 QP 共用一个共享接收队列（只用于 RC） */
	int counters;            /* --counters：数据面前后读端口的硬件计数，打印动了的（只管本端，两端不必一致） */
	int ack_timeout;         /* --ack-timeout N：RTS 的 timeout 指数（4.096 µs × 2^N，0 = 不用定时器；只管本端，不上线） */
	int ack_timeout_given;   /* 明确给了 --ack-timeout（--cm 下没给时用 rdma_init_qp_attr 给的） */
};

/* 由选项推出的队列容量：每个QP的发送/接收队列深度，所有QP共享的 CQ 的容量 */
struct queue_caps {
	uint32_t send_wr;
	uint32_t recv_wr;
	uint32_t cqe;
};
void queue_caps(const struct options *o, struct queue_caps *q);
const char *bench_name(enum bench_mode b);

/* 服务端是不是“多客户端”模式（--clients 不是 1 或 --parallel 大于 1）；默认是今天的一对一 */
int multi_client(const struct options *o);

const char *op_name(enum rdma_op op);
int op_from_name(const char *name, enum rdma_op *op);
int op_is_atomic(enum rdma_op op);
int op_is_one_sided(enum rdma_op op);

/* 本端是否是该操作里“发送数据的一方”（--inject payload 只能加在这一方） */
int inject_payload_sender(const struct options *o);

/* 每个QP占用的缓冲区槽大小（字节） */
size_t slot_size(const struct options *o);
/*
 * --srq --bench 的接收缓冲区要几块（A、B 区之后另放，每块一个槽）：SRQ 里每个在途的接收一块。
 * 消息落在哪个接收由 SRQ 决定，两个QP的消息同时落进同一块缓冲区的话字节会交错（校验报出并不存在的错误），
 * 所以不能像没有 SRQ 时那样按QP共用一块。只有 1 个QP时每条消息的字节都一样，共用无害：返回 0（用 A 区）。
 * 没有 --srq、普通模式（每轮每个QP只在途 1 个接收，A 区的 num_qp 块正好一个接收一块）也返回 0
 */
uint32_t srq_recv_buffers(const struct options *o);

/*
 * 模式决定的 MR 权限：交互模式（服务端被写又被读）和 write 延迟乒乓（两端都被写）另有规定；
 * 返回 -1 = 按操作和角色（课 mr_access_for，rdma_common.c；mr_access 把两者合起来）
 */
int mr_access_mode(const struct options *o);

#endif
