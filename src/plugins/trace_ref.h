/*
 * trace_ref.h - 设备和每条连接持有的 trace 引用（只有这个类型；写 trace 的函数在 trace.h）
 *
 * verbs/rdma_types.h 的设备和连接按值放着它，所以它单独一个头文件：课程的类型不必带上 trace 的全部接口。
 */
#ifndef ROCE_TRACE_REF_H
#define ROCE_TRACE_REF_H

struct trace;

/* 设备和连接持有的引用：写到哪个 trace、哪个会话（0 = 不写 "conn" 字段，单客户端就是这样）；t 为 NULL = 没有 --trace */
struct trace_ref {
	struct trace *t;
	int conn;
};

#endif
