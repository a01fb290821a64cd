/*
 * rdma_types.h - 课程的类型：设备、连接、插桩的接缝（seam）、缓冲区的分区、wr_id 的编法、一个发送请求
 *
 * rdma_common.h（课程的步骤）和课程下面的几层（verbs/ 的细节、路径检查、UD）都要这些类型，所以它们单独放在这里，
 * 在课程之下：下面的层只包含本文件，不包含 rdma_common.h，也就不会“往上”依赖课程。
 */
#ifndef ROCE_RDMA_TYPES_H
#define ROCE_RDMA_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

/* 只包含下面的类型按值用到的：每一行后面是用到的类型 */
#include "cli/options.h"          /* struct options、struct queue_caps、MAX_QP、UD_GRH_LEN */
#include "control/ctrl.h"         /* struct ctrl（连接里的控制平面） */
#include "verbs/route_lookup.h"  /* struct peer_route（客户端到服务端的路径） */
#include "verbs/gid.h"             /* struct gid_info */
#include "verbs/sq_account.h"      /* struct sq_account */
#include "control/wire.h"            /* struct wire_hello、struct wire_rd_depth */
#include "console/verbs_print.h"  /* struct step_watch（步骤标题还要告诉谁） */

struct rdma_device;
struct rdma_conn;
struct send_req;        /* 下面：一个要投递的发送 WR */

/*
 * 插桩的接缝（seam）：课程以外的事（--trace 记下每一步、--inject 故意改坏一样东西、--counters 读端口计数）只从这里接进来。
 * 步骤函数在一个 verbs 调用或一步的前后说一声“这里发生了什么”：一个事件（struct hook_event）说出是哪一点（enum hook_at）、
 * 之前还是之后、哪个QP、返回值，并给出一个插件可以改的对象（属性、WR、权限、长度……）。步骤函数不知道有哪些插件；
 * 插件（src/plugins/）由组装程序的 program/program.c 按命令行装进 struct rdma_hooks，设备和每条连接都指向同一张（只读）。
 * 没有装插件时每个点只是一次判断（n == 0），基准测试的计时循环也经过它。
 */
enum hook_at {
	HOOK_FAILED,            /* 之后：一个 verbs 调用失败：call、rc = errno */
	HOOK_DEVICE_LIST,       /* 之后：步骤1-5 各自做完：设备列表、打开的设备、端口、GID、PD */
	HOOK_OPEN_DEVICE,
	HOOK_PORT,
	HOOK_GID,
	HOOK_PD,
	HOOK_MR,                /* 之前：obj = int *（MR 的 access，可以改）；之后：MR 注册好了 */
	HOOK_CQ,                /* 之后：CQ、SRQ */
	HOOK_SRQ,
	HOOK_QP_CAPS,           /* 之前：QP qp 建好、驱动写回了能力，程序接受它之前（插件可以让这一步失败：rc = -1，已说明原因） */
	HOOK_QP_CREATED,        /* 之后：QP qp 建好并有了起始 PSN */
	HOOK_AH,                /* 之后：--qp ud 的地址句柄 */
	HOOK_MODIFY,            /* 一次 ibv_modify_qp，call = 目标状态名。之前：obj = struct ibv_qp_attr *（可以改；INIT 时 qp = -1，
	                         * 全部QP用同一份属性）；之后（hook_modified）：qp，rc，obj = 实际交给 ibv_modify_qp 的属性（只读） */
	HOOK_QP_STATES,         /* 之后：一次转换之后（每个QP读回的状态） */
	HOOK_CM_CONNECT,        /* 之前：--cm 客户端一个数据QP的 rdma_connect（qp；obj = struct rdma_conn_param *，可以改） */
	HOOK_DESTROYED,         /* 之后：一个销毁类 verbs：call、rc；QP 时还有 qp、qpn（QP 已经没了，读不到） */
	HOOK_EXCHANGED,         /* 之后：交换了连接信息；obj = uint32_t *（单边操作用的对端 rkey，可以改） */
	HOOK_DATA,              /* 之前：第 round 轮 QP qp 要发出去的数据刚填好（obj = uint8_t *，可以改） */
	HOOK_SEND_REQ,          /* 之前：第 round 轮 QP qp 的一个发送请求（obj = struct send_req *，可以改） */
	HOOK_SEND_WR,           /* 之前：post_send 把一个发送请求变成了 WR，ibv_post_send 之前（obj = struct ibv_send_wr *，可以改；qp） */
	HOOK_RECV_LEN,          /* 之前：第 round 轮 QP qp 的接收要给多少字节（obj = uint32_t *，可以改） */
	HOOK_RECVS,             /* 之前：一步，服务端第 round 轮“先投接收、再说可以发了”（obj = struct hook_recvs *）：
	                         * 插件可以自己做这一步（rc = 它的结果）；--bench（round = 0）时可以要求晚一点投（later） */
	HOOK_RECVS_LATE,        /* 之前：--bench 里插件要求晚投的接收，现在（同步之后、计时之前）投 */
	HOOK_POST_RECV,         /* 之后，数据面：obj = struct ibv_recv_wr（qp = 下标，SRQ 时是缓冲区号、qpn = 0） */
	HOOK_POST_SEND,         /* 之后：obj = struct ibv_send_wr */
	HOOK_WC,                /* 之后：obj = struct ibv_wc */
	HOOK_PLANE,             /* 一步：数据面（步骤14 起）的前后；之后 rc = 数据面的结果 */
	HOOK_BENCH_SIZE,        /* 一步：--bench 的一个大小，计时循环之外的前后（obj = struct hook_size *，前后是同一个） */
	HOOK_SESSION,           /* 一步：多客户端服务端的一个会话，在它的线程里。之前：控制平面已接上、步骤还没开始，round = 客户端编号；
	                         * 之后：会话的资源已清理，rc = 它的结果（--trace 在这两点给会话换上、收回它自己的上下文） */
};

enum hook_when { HOOK_AFTER = 0, HOOK_BEFORE = 1 };

/* 一个事件。之前的事件 rc 从 HOOK_PASS 开始：插件把它改成这一步的结果（0 或 -1），就是它做了（或拒绝了）这一步 */
#define HOOK_PASS 1
struct hook_event {
	enum hook_at at;
	enum hook_when when;
	const char *call;       /* verbs 调用名（不带括号），HOOK_MODIFY 时是状态名 */
	int qp;                 /* QP 下标，-1 = 不涉及某个QP */
	int rc;                 /* 之后：返回值或 errno；之前：HOOK_PASS 或插件给的结果 */
	uint32_t qpn;
	long round;             /* 数据面的第几轮（0 = 不按轮） */
	void *obj;              /* 这一点给插件看的对象（见 enum hook_at）；之前的事件里插件可以改它 */
};

/* HOOK_RECVS 的对象：接收放在哪（area(conn, i)）；--bench 时插件置 later = 1，接收到 HOOK_RECVS_LATE 再投 */
struct hook_recvs {
	uint8_t *(*area)(struct rdma_conn *conn, int i);
	int later;
};

/* HOOK_BENCH_SIZE 的对象：哪个大小；之后插件可以往 suffix 里写 BENCH_RESULT 行的后缀；state 由插件在前后之间自用 */
struct hook_size {
	size_t size;
	char *suffix;
	size_t len;
	void *state;
};

/* 一个插件：看到每个事件（dev 总是有，conn 为 NULL = 设备级）；ctx 是装它时给的 */
typedef void (*hook_fn)(void *ctx, const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev);
#define HOOK_MAX_PLUGINS 4
struct rdma_hooks {
	int n;                  /* 装了几个插件（0 = 没有插桩，每个点只是这一次判断） */
	int data;               /* 其中几个要看数据面的每个 WR 和完成（HOOK_POST_RECV/POST_SEND/WC；0 = 计时循环里不用问） */
	struct hook_plugin {
		hook_fn fn;
		void *ctx;
	} plug[HOOK_MAX_PLUGINS];
};

/* 设备：一个打开的 RDMA 设备、它的一个端口和选中的 GID，以及设备上的 PD（步骤1-5） */
struct rdma_device {
	const struct options *opt;      /* 命令行参数（只读）：-d、-i、-g、--op */
	struct ibv_device **dev_list;   /* ibv_get_device_list() 的结果，选设备时逐个查看 */
	int num_devices;                /* dev_list 里的设备个数 */
	struct ibv_context *ctx;        /* 打开的设备句柄，后续所有 verbs 调用的入口 */
	char dev_name[64];              /* 选中的设备名（rxe0 …） */
	struct ibv_device_attr dev_attr; /* 设备能力：max_qp、max_qp_wr、max_cqe、原子操作、读深度 */
	struct ibv_port_attr port_attr; /* 端口 opt->ib_port 的状态、链路层、active_mtu、LID、GID表长度 */
	struct gid_info gid;            /* 本端使用的 GID（含索引、所在网卡） */
	struct ibv_pd *pd;              /* 保护域：这个设备上所有连接的 MR 和 QP 都在里面 */
	struct step_watch watch;        /* 步骤标题还要告诉谁（观察者的上下文，program.c 填；没有 --trace 时 note 为 NULL，只打印） */
	const struct rdma_hooks *hooks; /* 插桩的接缝：装了哪些插件（device_init 时一个也没有；program.c 换成装好的） */
	int ctx_borrowed;               /* 1 = ctx 是 librdmacm 打开的（--cm，cm_qps.c 接过来），不归我们关闭 */
};

/* 连接：和一个对端通信所需的一切（步骤6 起）；设备只借用，不归它释放 */
/*
 * --srq：销毁QP之前最多等多久它们的 IBV_EVENT_QP_LAST_WQE_REACHED。实测（实验室，TCG）：5.10、6.1 的 rxe 不发这个事件，
 * 每次都等满；6.12 的 rxe 在改到 ERR 之后 11–54 ms 内每个QP一个。所以上限短，但比 6.12 在 TCG 里的用时宽出几倍
 */
#define SRQ_LAST_WQE_WAIT_MS 250

struct rdma_conn {
	struct rdma_device *dev;        /* 所在的设备（ctx、PD、端口、GID） */
	const struct options *opt;      /* 命令行参数（只读） */
	unsigned step;                  /* 当前步骤号，用于打印（设备的步骤1-5 也记在这里） */

	uint8_t *buf;                   /* A区 [0, num_qp*slot) + B区 [num_qp*slot, 2*num_qp*slot) + R区 srq_bufs 个槽 */
	size_t buf_len;                 /* 注册的长度：(2 × num_qp + srq_bufs) × slot */
	size_t slot;                    /* 每个QP在每个区里的槽大小（字节） */
	struct ibv_mr *mr;              /* 整个 buf 注册成的 MR（lkey 给本端，rkey 交给对端） */
	struct ibv_cq *cq;              /* 所有QP共享的完成队列（容量由 queue_caps() 从选项推出） */
	struct queue_caps caps;         /* 每个QP的队列深度与 CQ 容量（queue_caps()） */
	uint32_t max_inline;            /* QP 实际的 max_inline_data（--inline） */
	int num_qp;                     /* QP 个数（-q） */
	struct ibv_qp *qp[MAX_QP];      /* RC 或 UD QP（--qp）；WR 的 wr_id 低 8 位 = 下标（WRID） */
	uint32_t psn[MAX_QP];           /* 本端每个QP的起始包序号 */
	struct sq_account sq[MAX_QP];   /* 每个QP发送队列的槽位记账（按硬件规则，post_send 每次投递前检查） */

	/* --cq event：完成通道（verbs/datapath.c 睡在它上面） */
	struct ibv_comp_channel *channel; /* NULL = 忙轮询 */
	unsigned long cq_events;        /* 收到的完成事件总数 */
	unsigned cq_unacked;            /* 取出但还没 ibv_ack_cq_events 的事件数（销毁CQ前必须清零） */

	/* --srq：N 个QP共用的共享接收队列 */
	struct ibv_srq *srq;            /* NULL = 每个QP自己的接收队列 */
	uint32_t srq_depth;             /* SRQ 的深度（ibv_create_srq 写回的 max_wr） */
	uint32_t srq_bufs;              /* --srq --bench：每个在途接收各自的缓冲区块数（R 区，srq_recv_buffers）；0 = 用 A 区 */
	int (*release_qps)(struct rdma_conn *conn, int wait_ms); /* 销毁QP之前的一步，NULL = 没有（--srq：events.c 的 srq_release_qps） */

	/* --qp ud */
	struct ibv_ah *ah;              /* 到对端的地址句柄（一个对端一个，N 个QP共用；ud.c 创建） */

	struct ctrl ctrl;               /* 控制平面（TCP 或 --cm，control/ctrl.h） */
	struct wire_hello remote;       /* 对端的连接信息 */
	int remote_ready;               /* 1 = remote 已经收到（多客户端服务端先收客户端的 HELLO） */
	uint32_t peer_rkey;             /* 单边操作用的对端 rkey（--inject rkey 时故意改错） */
	enum ibv_mtu path_mtu;          /* 两端 active_mtu 的较小者 */
	struct wire_rd_depth rd;        /* READ/原子深度：rd.out → RTS 的 max_rd_atomic，rd.in → RTR 的 max_dest_rd_atomic（交换连接信息后由两端的设备上限算出） */

	struct peer_route peer;         /* 客户端：到服务端的路径（selection.c 选设备时填写，path_check.c 在 RTR 前检查） */
	struct step_watch watch;        /* 同上，这条连接的（conn_init 从设备复制；多客户端的会话由插件在 HOOK_SESSION 换成会话的） */
	const struct rdma_hooks *hooks; /* 插桩的接缝（conn_init 从设备复制） */
	int mr_access;                  /* MR 注册时的权限（--trace 记下它） */
};

/* 装一个插件（program/program.c 按命令行调用：插件按装的顺序看到每个事件）；data = 1：它要看数据面的每个 WR 和完成 */
static inline void hook_add(struct rdma_hooks *h, hook_fn fn, void *ctx, int data)
{
	if (h->n < HOOK_MAX_PLUGINS) {
		h->plug[h->n++] = (struct hook_plugin){ fn, ctx };
		h->data += data != 0;
	}
}

/* 有没有插件要看数据面的每个 WR 和完成（调用者据此跳过只为它们才要做的事，比如计时循环里的 hook_data） */
static inline int hook_on(const struct rdma_conn *conn)
{
	return conn->hooks->data != 0;
}

/* 把一个事件交给每个插件（verbs/hook.c：不内联，没有插件时的快路径只有调用者的那一次判断）；
 * 之前的事件里一个插件给了结果（rc 不再是 HOOK_PASS），后面的插件就不再看它 */
void hook_emit(const struct rdma_device *dev, struct rdma_conn *conn, struct hook_event *ev);

/* 之后：刚刚发生的一件事（没有插件时什么也不做）；dev 为 NULL 时用 conn 的设备 */
static inline void hook_note(const struct rdma_device *dev, struct rdma_conn *conn, enum hook_at at,
			     const char *call, int qp, int rc)
{
	if ((conn != NULL ? conn->hooks : dev->hooks)->n != 0) {
		struct hook_event ev = { .at = at, .call = call, .qp = qp, .rc = rc };

		hook_emit(dev, conn, &ev);
	}
}

/* 之后：QP qp 的一次 ibv_modify_qp（HOOK_MODIFY，state = 目标状态名，rc 是它的返回值）；obj = 交给它的属性，
 * 插件在之前的事件里改过的也在内（--trace 从 RTS 的 sq_psn 数 PSN：记的是网卡真拿到的起点，--inject psn 改过的也对） */
static inline void hook_modified(struct rdma_conn *conn, const char *state, int qp, int rc, const struct ibv_qp_attr *attr)
{
	if (conn->hooks->n != 0) {
		struct hook_event ev = { .at = HOOK_MODIFY, .call = state, .qp = qp, .rc = rc, .obj = (void *)attr };

		hook_emit(NULL, conn, &ev);
	}
}

/* 之后，数据面：一个投递的 WR（qpn = 它的QP号，SRQ 时 0）或一个完成。没有要看它们的插件时只是一次判断：
 * 基准测试的计时循环每次投递都经过这里 */
static inline void hook_data(struct rdma_conn *conn, enum hook_at at, int i, uint32_t qpn, const void *obj)
{
	if (conn->hooks->data != 0) {
		struct hook_event ev = { .at = at, .qp = i, .qpn = qpn, .obj = (void *)obj };

		hook_emit(NULL, conn, &ev);
	}
}

/* 之前：一个 verbs 调用或一步要做了，插件可以改 obj；返回 HOOK_PASS（照常做），或插件给的这一步的结果 */
static inline int hook_before(struct rdma_conn *conn, enum hook_at at, const char *call, int qp, long round, void *obj)
{
	struct hook_event ev = { .at = at, .when = HOOK_BEFORE, .call = call, .qp = qp, .rc = HOOK_PASS,
				 .round = round, .obj = obj };

	if (conn->hooks->n != 0)
		hook_emit(NULL, conn, &ev);
	return ev.rc;
}

/* 之后：一步做完了（rc 是它的结果，obj 给插件看） */
static inline void hook_after(struct rdma_conn *conn, enum hook_at at, int rc, void *obj)
{
	if (conn->hooks->n != 0) {
		struct hook_event ev = { .at = at, .qp = -1, .rc = rc, .obj = obj };

		hook_emit(NULL, conn, &ev);
	}
}

/* A区：对端通过 RDMA 访问/网络写入的地方；B区：本端准备发送或接收结果的地方 */
static inline uint8_t *area_a(struct rdma_conn *c, int i) { return c->buf + (size_t)i * c->slot; }
/* A 区 i 里收到的消息从哪里开始：--qp ud 时前 40 字节是网卡放进来的 GRH（op_rounds.c 的逐轮校验和 bench.c 的计时后校验共用） */
static inline uint8_t *recv_payload(struct rdma_conn *c, int i)
{
	return area_a(c, i) + (c->opt->qp_type == QPK_UD ? UD_GRH_LEN : 0);
}
static inline uint8_t *area_b(struct rdma_conn *c, int i) { return c->buf + ((size_t)c->num_qp + (size_t)i) * c->slot; }
/* SRQ 的接收缓冲区 b（wr_id 就是 b，见 rdma_common.c 的 post_receive）：有 R 区时是 R 区的第 b 块，否则是 A 区的第 b 块 */
static inline uint8_t *srq_area(struct rdma_conn *c, int b)
{
	return c->srq_bufs > 0 ? c->buf + (2 * (size_t)c->num_qp + (size_t)b) * c->slot : area_a(c, b);
}
/* SRQ 的接收缓冲区有几块 */
static inline int srq_area_count(const struct rdma_conn *c)
{
	return c->srq_bufs > 0 ? (int)c->srq_bufs : c->num_qp;
}

/*
 * 数据面的 wr_id：
 *   wr_id = (调用者的序号 << 8) | QP序号：共享 CQ 里的完成靠低 8 位（以及 wc.qp_num）区分来自哪个QP，
 *   高位留给调用者（基准测试用它找回这个 WR 的投递时刻）。普通模式序号为 0，wr_id 就等于 QP 序号。
 *   等完成的细节（--cq poll|event、超时、槽位记账）在 verbs/datapath.c
 */
#define WRID(qp, seq)  (((uint64_t)(seq) << 8) | (uint64_t)(qp))
static inline int wrid_qp(uint64_t wr_id) { return (int)(wr_id & 0xff); }
static inline uint64_t wrid_seq(uint64_t wr_id) { return wr_id >> 8; }

/* 一个要投递的发送 WR（post_send 把它变成 struct ibv_send_wr） */
struct send_req {
	enum ibv_wr_opcode opcode; /* SEND / RDMA_WRITE[_WITH_IMM] / RDMA_READ / 原子操作 */
	void *local;              /* 本地缓冲区（在 MR 内） */
	uint32_t len;             /* 字节数 */
	uint64_t remote_addr;     /* 单边/原子操作：对端虚拟地址 */
	uint32_t imm;             /* write_imm：立即数（主机字节序，发送时转网络序） */
	uint64_t compare_add;     /* fetch_add 的加数 / cmp_swap 的比较值 */
	uint64_t swap;            /* cmp_swap 的交换值 */
	uint64_t seq;             /* 放进 wr_id 高位的序号（普通模式 0） */
	int unsignaled;           /* 1 = 不要完成（选择性通知；QP 的 sq_sig_all=0 才有效） */
	int inline_data;          /* 1 = IBV_SEND_INLINE：CPU 把数据直接拷进 WQE，不用 lkey、返回后缓冲区即可重用 */
	struct ibv_ah *ah;        /* --qp ud 的 SEND：目的地 = 地址句柄 + 对端 QP 号 + Q_Key（NULL = RC） */
	uint32_t remote_qpn;
};

#endif
