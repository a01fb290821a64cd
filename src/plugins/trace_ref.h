/*
 * trace_ref.h - 写到哪个 trace 的引用（只有这个类型；写 trace 的函数在 trace.h）
 *
 * program/program.h 的 struct program 按值放着这个进程的一个，所以它单独一个头文件：组装程序不必带上 trace 的全部接口。
 * 设备和连接里没有它：trace 插件把指向它的指针放进它们的观察者上下文（trace_hooks.h 的 trace_watch）。
 */
#ifndef ROCE_TRACE_REF_H
#define ROCE_TRACE_REF_H

struct trace;

/* 写到哪个 trace、哪个会话（0 = 不写 "conn" 字段，单客户端就是这样）；t 为 NULL = 没有 --trace */
struct trace_ref {
	struct trace *t;
	int conn;
};

#endif
