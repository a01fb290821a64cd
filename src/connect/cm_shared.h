/*
 * cm_shared.h - --cm 的两半共用的部分：cm_control.c（控制平面：CM 事件、地址、控制QP 上的消息）
 * 和 cm_qps.c（数据QP 经 CM 建连）。驱动程序不直接用它。
 *
 * 一个数据QP一个 rdma_cm_id，另加一个“控制连接”的 cm_id；k = -1 表示控制连接，k = i 表示 QP[i]。
 * 所有 cm_id 的事件从同一个事件通道读（cm_wait_event_ack），等待都有超时并说出原因。
 */
#ifndef ROCE_CM_SHARED_H
#define ROCE_CM_SHARED_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "control/ctrl.h"

#define CM_CTL_RECV     8               /* 控制QP上预先投递的接收个数 */

/* CM 实现的状态（struct ctrl 的 impl） */
struct ctrl_cm {
	struct rdma_event_channel *ch;  /* 事件通道：本连接所有 cm_id 的事件都从这里读 */
	struct rdma_cm_id *listen_id;   /* 服务端：监听用的 cm_id */
	struct rdma_cm_id *ctl_id;      /* 控制连接的 cm_id */
	struct rdma_cm_id *first;       /* 第一个解析出/收到的 cm_id：它的设备就是本连接的设备（不单独销毁） */
	struct rdma_cm_id *qp_id[MAX_QP]; /* 每个数据QP一个 cm_id：qp_id[i] ↔ QP[i] */
	uint32_t nonce;                 /* 会话号：客户端自己随机取的；服务端是这个会话第一个请求里的 */
	int session_set;                /* 服务端：已经收下了一个会话的第一个请求（之后只认同一个地址和会话号） */
	struct sockaddr_storage session_addr; /* 服务端：这个会话的客户端地址（只比 IP，不比端口：每个 cm_id 的端口不同） */
	int num_qp;                     /* 数据QP个数（qp_id 的有效项数） */
	struct ibv_cq *scq, *rcq;       /* 控制QP自己的发送/接收 CQ（不占用数据面的 CQ） */
	struct ibv_qp *qp;              /* 控制QP：HELLO 与同步消息的 SEND/RECV */
	struct ibv_mr *mr;              /* 控制QP的收发缓冲区 */
	uint8_t *buf;                   /* CM_CTL_RECV 个接收槽 + 1 个发送槽 */
	int have_msg;                   /* poll_peer 先收到、还没被 sync_wait 取走的一条消息 */
	uint32_t msg_len;               /* 这条消息的长度（内容在 buf 的暂存槽里） */
	uint8_t peer_rd_atom;           /* 服务端：连接请求事件里的 initiator_depth = 客户端给的 responder_resources（≤ 它的 max_qp_rd_atom） */
	uint8_t peer_init_rd_atom;      /* 服务端：连接请求事件里的 responder_resources = 客户端给的 initiator_depth */
	struct wire_rd_depth rd;        /* conn_param 的 initiator_depth = rd.out、responder_resources = rd.in（wire_rd_depth 算出） */
	int disconnected;               /* 已收到 RDMA_CM_EVENT_DISCONNECTED */
	int established;                /* 连接已建立（关闭时才需要 rdma_disconnect） */
};

/* 一条控制平面连接里的 CM 状态（只有 --cm 的连接有） */
static inline struct ctrl_cm *cm_of(const struct ctrl *c) { return c->impl; }

/* 拒绝原因（服务端 rdma_reject 的 private data 里） */
enum cm_reason { CM_OK = 0, CM_REJ_NUM_QP = 1, CM_REJ_OP = 2, CM_REJ_UNEXPECTED = 3, CM_REJ_BUSY = 4 };

/* private data 里的“自我介绍”，网络字节序，16 字节 */
struct cm_priv {
	uint32_t magic;
	uint16_t version;
	uint16_t len;           /* 本结构的长度：接收方总看到 56 字节，真正的长度要自己带 */
	uint16_t index;         /* 0 = 控制连接，i+1 = 数据QP[i] */
	uint16_t num_qp;
	uint8_t op;
	uint8_t reason;         /* 只在拒绝时有意义（enum cm_reason） */
	uint16_t reserved;
	uint32_t nonce;         /* 会话号：客户端每次运行随机取一个，它的所有连接请求都带同一个（拒绝时为 0） */
};

/*
 * 服务端收到一个连接请求时怎么办（纯逻辑，tests/unit/test_cm_request.c）。一个会话的全部请求（控制连接 + 每个QP一个）
 * 都来自第一个请求的那个客户端：同一个地址、同一个会话号。会话开始之后（session_set），别的地址、别的会话号、
 * 不是本项目格式的请求都属于另一个客户端——只拒绝它（CM_REFUSE_STRAY），本会话接着等自己的请求；
 * 本会话里已经占了的序号（重复的请求）也一样。其余的交给 check_request（参数不对就拒绝并结束这次建连）。
 */
enum cm_verdict { CM_CHECK = 0, CM_REFUSE_STRAY = 1 };
static inline enum cm_verdict cm_request_verdict(int session_set, uint32_t session_nonce, int same_addr, int ok_priv,
						 const struct cm_priv *p, int slot_taken)
{
	if (session_set && (!ok_priv || !same_addr || p->nonce != session_nonce))
		return CM_REFUSE_STRAY;
	if (ok_priv && slot_taken)
		return CM_REFUSE_STRAY;
	return CM_CHECK;
}

/* 填一条自我介绍（index：0 = 控制连接，i+1 = QP[i]；reason 只在拒绝时非 0；nonce = 会话号） */
void cm_priv_encode(struct cm_priv *p, int index, int num_qp, int op, int reason, uint32_t nonce);
/* "ip:port"（IPv4/IPv6），写进 out 并返回它 */
const char *cm_addr_str(const struct sockaddr *sa, char *out, size_t len);

/* 新建一个 cm_id，k+2 放进它的 context（事件里用 cm_index_of 取回） */
int cm_create_id(struct ctrl *c, struct rdma_cm_id **id, int k);
/* 事件属于哪个连接：-1 = 控制连接，i = QP[i] */
static inline int cm_index_of(const struct rdma_cm_id *id) { return (int)(uintptr_t)id->context - 2; }
/* 客户端：一个 cm_id 的地址解析 + 路由解析（src_text 用在错误提示里；verbose 打印事件） */
int cm_resolve(struct ctrl *c, struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst,
	       const char *src_text, int verbose);
/* 等一个 want 类型的事件并 ack，最多 timeout_ms 毫秒；*id（可为 NULL）= 事件的 cm_id。别的事件：打印原因，返回 -1 */
int cm_wait_event_ack(struct ctrl *c, enum rdma_cm_event_type want, int timeout_ms, const char *what,
		      struct rdma_cm_id **id);
/* 服务端：等一个连接请求，检查自我介绍（不对就 rdma_reject 并说明），放进 qp_id[] / ctl_id；*id = 新的 cm_id */
int cm_get_request(struct ctrl *c, int timeout_ms, const char *what, struct rdma_cm_id **id);

/* 控制QP：自己的两个小 CQ、MR 和缓冲区（在数据QP所在的 PD/设备上），QP 留在 RESET */
int cm_create_ctl_qp(struct ctrl *c, struct ibv_pd *pd, struct ibv_context *ctx);
/* 控制QP到 INIT 之后：投递全部 CM_CTL_RECV 个接收槽 */
int cm_post_ctl_recvs(struct ctrl *c);
/* 查一下 CM 事件（最多等 wait_ms）：别人的连接请求拒绝掉；DISCONNECTED 记下来并返回 1 */
int cm_check_events(struct ctrl *c, int wait_ms);
/* 控制平面（ctrl.h 的 ctrl_ops）里 CM 的四项（cm_control.c）：等连接建好、本端的 IPv4 地址、关闭、释放 cm_id 和事件通道 */
int cm_establish(struct ctrl *c, const struct step_watch *w, unsigned *step);
int cm_local_ipv4(struct ctrl *c, char *ip, size_t len);
void cm_close(struct ctrl *c);
void cm_release(struct ctrl *c);
/* 控制平面的四项，在控制QP上（cm_ctl_qp.c，操作表 cm_ops 也在那里）：交换 HELLO、同步消息、对端还在不在 */
int cm_exchange_hello(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote);
int cm_sync_send(struct ctrl *c, uint32_t tag);
int cm_sync_wait(struct ctrl *c, uint32_t tag);
int cm_poll_peer(struct ctrl *c, int wait_ms);

#endif
