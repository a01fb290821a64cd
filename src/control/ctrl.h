/*
 * ctrl.h - 控制平面接口：QP 状态机和数据面只通过它和对端说话
 *
 * RDMA 的 QP 在进入 RTR 之前必须知道对端的 QPN/PSN/GID，这些信息只能“带外”传递；
 * 之后每一轮还要交换几个小小的同步消息（“接收已投递”“写完了”）。做这两件事的通道叫控制平面。
 * 这里是它的接口：一张操作表（struct ctrl_ops），两个实现，都在课程之上（docs/PROJECT.md 的“层”）：
 *   TCP（connect/ctrl_tcp.c，包装 connect/tcp_socket.c）：HELLO 和同步消息走一条普通的 TCP 连接；
 *   CM （connect/cm_control.c，--cm）：librdmacm 建立连接；HELLO 和同步消息走一个专用的“控制QP”（见 cm_control.c 开头）。
 * rdma_common.c、op_rounds.c 只调用下面的 ctrl_* 函数，不知道用的是哪一种；program/program.c 选实现。
 * 出错时实现自己打印中文原因和提示并返回 -1；所有等待都有超时（-t）。
 */
#ifndef ROCE_CTRL_H
#define ROCE_CTRL_H

#include <stddef.h>
#include <stdint.h>

#include "cli/options.h"
#include "control/wire.h"

/* 同步标签：高 8 位是种类，低 24 位是轮次 */
enum sync_kind {
	SYNC_RTS = 1,       /* 双方都已到 RTS */
	SYNC_READY = 2,     /* 服务端已投递接收 / 已准备好数据 */
	SYNC_DONE = 3,      /* 客户端本轮的单边操作已完成 */
	SYNC_ACK = 4,       /* 服务端已校验本轮数据 */
	SYNC_BYE = 5,       /* 结束：交互模式里客户端读回最后一行（q）之后发，服务端收到才拆 QP */
	SYNC_ALIVE = 6,     /* 心跳：“我还在干活”（被动方等 DONE 时收到就接着等，见 ctrl_heartbeat） */
};
#define SYNC_TAG(kind, round) (((uint32_t)(kind) << 24) | ((uint32_t)(round) & 0xffffff))

struct ctrl;
struct step_watch;      /* console/verbs_print.h：步骤标题还要告诉谁（step_title），控制平面不看里面 */

/* 一种控制平面的实现：下面每个 ctrl_* 函数对应一项 */
struct ctrl_ops {
	/* 建立连接 */
	int (*establish)(struct ctrl *c, const struct step_watch *w, unsigned *step);
	/* 交换 HELLO：发本端的，收对端的并校验（wire.c 的 wire_decode_hello）；remote 为 NULL 时只发（对端的已经由 recv_hello 收到；只有实现了 recv_hello 的才会收到 NULL） */
	int (*exchange_hello)(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote);
	/* 只收 HELLO（多客户端服务端先收客户端的 HELLO，按它创建资源后再只发自己的）；不支持这种顺序的实现设为 NULL */
	int (*recv_hello)(struct ctrl *c, struct wire_hello *remote);
	/* 发一个同步消息 / 等一个同步消息 */
	int (*sync_send)(struct ctrl *c, uint32_t tag);
	int (*sync_wait)(struct ctrl *c, uint32_t tag);
	/* 对端有没有动静（消息或断开） */
	int (*poll_peer)(struct ctrl *c, int wait_ms);
	/* 对端连到的本端 IPv4 地址 */
	int (*local_ipv4)(struct ctrl *c, char *ip, size_t len);
	/* 关闭，可重复调用 */
	void (*close)(struct ctrl *c);
	/* 释放比设备（PD）活得久的部分；可以为 NULL（TCP 没有） */
	void (*release)(struct ctrl *c);
};

/*
 * 观察者：每条发出和收到的 HELLO、同步消息之后告诉它（--trace 写事件，plugins/ 的 trace；测试的插件在发出之后停一下）。
 * 控制平面不知道有谁在看：组装程序（program/program.c）和它装的插件用 ctrl_observe 装上（多客户端的会话：trace 插件在
 * HOOK_SESSION 里）；没装时每条消息只是一次判断
 */
struct ctrl_observer {
	void (*hello)(void *ctx, int send, const struct wire_hello *h);   /* send 非 0 = 发出，0 = 收到 */
	void (*sync)(void *ctx, int send, uint32_t tag);
	void *ctx;
};
#define CTRL_MAX_OBSERVERS 2

/* 一条控制平面连接 */
struct ctrl {
	const struct ctrl_ops *ops;     /* 用哪种实现（ctrl_tcp_init / ctrl_cm_init 设置） */
	const struct options *opt;      /* 角色、TCP端口、服务端地址、超时（只读） */
	long long last_alive_ms;        /* 上次发心跳（或任何同步消息）的时刻，ctrl_heartbeat 用 */
	void *impl;                     /* 实现自己的状态（ctrl_begin 分配，只有实现自己看得见里面；ctrl_release 释放） */
	int n_obs;                      /* 装了几个观察者 */
	struct ctrl_observer obs[CTRL_MAX_OBSERVERS];
};

/* 装一个观察者（在 ctrl_*_init/adopt 之后；装满了返回 -1） */
int ctrl_observe(struct ctrl *c, const struct ctrl_observer *o);

/* 选用 TCP 实现；只分配状态、记下参数，不打开任何 socket（之后 ctrl_close、ctrl_release 总是安全的）；内存不足返回 -1 */
int ctrl_tcp_init(struct ctrl *c, const struct options *opt);
/*
 * 多客户端服务端：TCP 连接已经由主线程 accept 好了（sock、对端地址 peer），交给这个会话；
 * 之后 ctrl_establish 只打印“已接受”的说明，ctrl_close 负责关闭 sock
 */
int ctrl_tcp_adopt(struct ctrl *c, const struct options *opt, int sock, const char *peer);
/*
 * 实现的 init 共用的开头：清空 c，分配 state_size 字节的实现状态（全 0，记在 c->impl）并返回它，记下操作表和参数。
 * 内存不足时打印错误并返回 NULL（c->ops 保持 NULL，之后 ctrl_close/ctrl_release 什么也不做）
 */
void *ctrl_begin(struct ctrl *c, const struct ctrl_ops *ops, const struct options *opt, size_t state_size);
/* 选用 CM 实现（--cm）；同样只记下参数（cm_control.c；数据QP经 CM 建连在 cm_qps.c） */
int ctrl_cm_init(struct ctrl *c, const struct options *opt);

/*
 * 建立控制平面连接（服务端 listen+accept，客户端 connect），打印自己的步骤标题和说明；
 * step 是步骤计数器，w 是这条连接的步骤标题还要告诉谁（step_title 的第一个参数，&conn->watch）。  @post 可以交换 HELLO 和同步消息
 */
int ctrl_establish(struct ctrl *c, const struct step_watch *w, unsigned *step);
/*
 * 交换 HELLO：发送本端的 local，接收并校验对端的写进 remote（两端同时先写后读），写 trace 的两个 hello 事件。
 * remote_known = 1：对端的 HELLO 已经先收到了（多客户端服务端，ctrl_recv_hello），只发本端的。
 * 实现不支持先收后发时打印错误并返回 -1
 */
int ctrl_exchange_hello(struct ctrl *c, const struct wire_hello *local, struct wire_hello *remote, int remote_known);
/* 只收 HELLO（多客户端服务端先收客户端的，之后 ctrl_exchange_hello(..., 1) 只发自己的）；实现不支持时打印错误并返回 -1 */
int ctrl_recv_hello(struct ctrl *c, struct wire_hello *remote);
/* 同步点：发送/等待一个带编号的同步消息（SYNC_TAG） */
int ctrl_sync_send(struct ctrl *c, uint32_t tag);
int ctrl_sync_wait(struct ctrl *c, uint32_t tag);
/* 实现共用：解码收到的同步消息并核对它是不是期望的 tag：是返回 0；是心跳返回 1（实现接着读下一条）；
 * 都不是时打印原因并返回 -1 */
int ctrl_check_sync(const uint8_t *buf, size_t len, uint32_t tag);
/*
 * 主动方在长时间的工作循环里（基准测试的计时循环、原子操作的多轮）时不时调用：距上次心跳超过 -t 的三分之一
 * 就发一个 SYNC_ALIVE。被动方这时在 ctrl_sync_wait 里等 DONE，每等到一个心跳就重新计时，所以：
 *   对端在干活 → 心跳不断，多长的运行都不会被 -t 截断；
 *   对端卡住（例如被 SIGSTOP）或机器消失 → 心跳停了，-t 之内就知道；对端退出 → 连接断开，马上知道。
 * 只在对端等着的时候用（对端自己也在忙数据面时不读控制消息，心跳会在 CM 控制QP上堆满接收槽）。
 * 发送失败返回 -1（已打印原因）。
 */
int ctrl_heartbeat(struct ctrl *c);
/* 最多等 wait_ms 毫秒看对端有没有动静：0 = 没有；1 = 有消息到达或对端已断开；-1 = 出错 */
int ctrl_poll_peer(struct ctrl *c, int wait_ms);
/* 对端连到的本端 IPv4 地址（文本，写进 ip）；不知道或不是 IPv4 返回 -1 */
int ctrl_local_ipv4(struct ctrl *c, char *ip, size_t len);
/*
 * 服务端开始等客户端了（listen / rdma_listen 之后）：有 --ready-file 时把一行 "ready tcp|cm PORT PID" 写进
 * 那个文件（先写临时文件再改名，读的人看不到半行）。给脚本和测试一个不依赖控制台文字的就绪标志；失败只警告
 */
void ctrl_announce_ready(const struct options *opt, const char *transport);
/* 关闭连接；只建立了一部分、或重复调用都安全 */
void ctrl_close(struct ctrl *c);
/* 释放控制平面里比 PD 活得久的部分（CM：cm_id 和事件通道，设备上下文归它们管）和实现的状态，在 device_destroy 之后调用；可重复调用 */
void ctrl_release(struct ctrl *c);

#endif
