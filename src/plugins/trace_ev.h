/*
 * trace_ev.h - 要读 verbs 结构体的 trace 事件（trace_ev.c）：verbs 调用、QP 状态、完成
 */
#ifndef ROCE_TRACE_EV_H
#define ROCE_TRACE_EV_H

#include <infiniband/verbs.h>

#include "verbs/gid.h"
#include "plugins/trace.h"

/*
 * 一个 verbs 调用：trace_verbs_begin 写 call、ok（失败时还有 errno），打开 "res":{；
 * 调用者用 tj_* 写关键结果，再 trace_verbs_end 写出。
 */
void trace_verbs_begin(struct tj *j, const struct trace_ref *r, const char *call, int err);
void trace_verbs_end(const struct trace_ref *r, struct tj *j);
/* 没有结果要记的 verbs 调用（销毁类）：err = 0 表示成功 */
void trace_verbs_simple(const struct trace_ref *r, const char *call, int err);
/* ibv_query_qp 读回的状态（qp_state 事件） */
void trace_qp_state(const struct trace_ref *r, int qp, uint32_t qpn, const struct ibv_qp_attr *a);
/* 一个完成（wc 事件） */
void trace_wc(const struct trace_ref *r, const struct ibv_wc *wc);
/* 生命周期各步的关键结果（rdma_common.c 调用；没有 --trace 时什么也不做） */
void trace_device_list(const struct trace_ref *tr, struct ibv_device **list, int n);
void trace_port(const struct trace_ref *tr, int port, const struct ibv_port_attr *pa);
void trace_gid(const struct trace_ref *tr, const struct gid_info *g);
/* 一个只有一两个整数结果的调用：key2 为 NULL 时只写第一个 */
void trace_call(const struct trace_ref *tr, const char *call, const char *key1, long long v1,
		const char *key2, long long v2);
void trace_mr(const struct trace_ref *tr, const struct ibv_mr *mr, size_t len, const char *access);
/* 一个关于 QP[i] 的调用；psn < 0 时不写 psn */
void trace_qp_num(const struct trace_ref *tr, const char *call, int rc, int i, uint32_t qpn, long long psn);
/* GID 的 inet_ntop 文本（IPv4 映射地址是 "::ffff:10.11.0.1"） */
void tj_gid(struct tj *j, const char *key, const uint8_t raw[16]);

#endif
