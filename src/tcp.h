/*
 * tcp.h - 控制平面：用普通 TCP 交换 QP 信息、做同步点
 *
 * RDMA 的 QP 在进入 RTR 之前必须知道对端的 QPN/PSN/GID，而这些信息只能
 * “带外”传递——这里用一条 TCP 连接。所有等待都有超时，不会永远卡住。
 * 出错时函数自己打印中文原因和提示，返回 -1。
 */
#ifndef ROCE_TCP_H
#define ROCE_TCP_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

int tcp_listen(int port);
/* 等待一个客户端；peer 写入对端地址文本 */
int tcp_accept(int listen_fd, int timeout_ms, char *peer, size_t peerlen);
/* 连接服务端；连接被拒绝（服务端还没启动）时在超时内重试 */
int tcp_connect(const char *host, int port, int timeout_ms);

/* 完整读/写 len 字节（TCP 上短读短写很正常） */
int tcp_read_full(int fd, void *buf, size_t len, int timeout_ms, const char *what);
int tcp_write_full(int fd, const void *buf, size_t len, int timeout_ms, const char *what);

/* 发送本端 HELLO、接收并校验对端 HELLO（两端同时先写后读） */
int exchange_hello(int fd, const struct wire_hello *local, struct wire_hello *remote,
		   int timeout_ms);

/* 同步点：发送/等待一个带编号的同步消息 */
int sync_send(int fd, uint32_t tag, int timeout_ms);
int sync_wait(int fd, uint32_t tag, int timeout_ms);

/* 等待 fd 可读，最多 timeout_ms；返回 1 可读，0 超时，-1 出错 */
int tcp_wait_readable(int fd, int timeout_ms);

/* 同步标签：高 8 位是种类，低 24 位是轮次 */
enum sync_kind {
	SYNC_RTS = 1,       /* 双方都已到 RTS */
	SYNC_READY = 2,     /* 服务端已投递接收 / 已准备好数据 */
	SYNC_DONE = 3,      /* 客户端本轮的单边操作已完成 */
	SYNC_ACK = 4,       /* 服务端已校验本轮数据 */
	SYNC_BYE = 5,       /* 结束 */
};
#define SYNC_TAG(kind, round) (((uint32_t)(kind) << 24) | ((uint32_t)(round) & 0xffffff))

#endif
