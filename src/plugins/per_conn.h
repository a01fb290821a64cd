/*
 * per_conn.h - 插件自己的、每条连接一份的状态（插件的上下文里放一张这样的表，连接的结构体里不为插件留字段）
 *
 * 按连接（struct rdma_conn 的地址）找。多客户端服务端每个会话一条连接、各在自己的线程里，
 * 同一个插件的上下文被几个线程同时用，所以表加锁。最多 MAX_PARALLEL 条连接同时有状态（--parallel 的上限）。
 */
#ifndef ROCE_PER_CONN_H
#define ROCE_PER_CONN_H

#include <pthread.h>

#include "verbs/rdma_types.h"

struct per_conn {
	pthread_mutex_t lock;
	struct per_conn_entry {
		const struct rdma_conn *conn;   /* NULL = 空位 */
		void *state;
	} e[MAX_PARALLEL];
};

/* 装插件时调用一次：表是空的 */
void per_conn_init(struct per_conn *t);
/* 记下 conn 的状态（state 不为 NULL）；表满了返回 -1，state 仍归调用者 */
int per_conn_put(struct per_conn *t, const struct rdma_conn *conn, void *state);
/* 看 conn 的状态（不删掉；状态只由这条连接自己的线程用）；没有时返回 NULL */
void *per_conn_get(struct per_conn *t, const struct rdma_conn *conn);
/* 取走 conn 的状态：返回它并从表里删掉；没有时返回 NULL */
void *per_conn_take(struct per_conn *t, const struct rdma_conn *conn);

#endif
