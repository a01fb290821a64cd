/*
 * trace.h - --trace FILE：把程序做的每件事写成 JSON Lines（格式 v2，见 docs/TRACE.md）
 *
 * 每行一个事件：步骤、verbs 调用和关键结果、读回的 QP 状态、投递的 WR、轮询到的完成、
 * 控制平面消息、错误。tools/trace/render 把两端的 trace 和抓包合成一条时间线。
 * 写 trace 不改变控制台输出的任何一个字节。
 *
 * 没有全局状态：打开的 trace（struct trace）由 program.c 创建，写的时候给一个 struct trace_ref（trace 指针 + 会话号）。
 * 课程的类型里没有它：trace 插件（trace_hooks.c 的 trace_watch）把它放进设备和连接的观察者上下文（struct step_watch）。
 * 几条连接（多客户端服务端的几个线程）可以共用一个 trace 文件：每行在一把互斥锁下整行写出，行与行不会交错；
 * 会话号写进每个事件的 "conn" 字段。trace 指针为 NULL（没有 --trace）时下面所有函数什么也不做。
 * 控制台上的 “错误/提示” 经 con_set_error_sink（conout.h，每个线程自己设）变成 error 事件：program.c 为主线程设好；
 * 多客户端服务端的每个会话线程由 trace 插件在 HOOK_SESSION 里再设一次（ctx = 这个会话的 struct trace_ref）。
 *
 * 本模块只是写出的一层：不调用 libibverbs（可以单元测试），也不知道命令行和控制平面。要读 verbs 结构体的事件在
 * plugins/trace_ev.c，记下这次运行的参数的 start 事件在 plugins/trace_hooks.c，控制平面的 HELLO 和同步消息在 plugins/ctrl_trace.c。
 */
#ifndef ROCE_TRACE_H
#define ROCE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TRACE_VERSION 2         /* v2（issue 39）：新增 counters 事件（--counters），其余和 v1 一样 */
#define TRACE_LINE_MAX 8192     /* 一个事件一行的上限（16 个QP 的 HELLO 也不到 3 KiB） */
#define PSN_MASK 0xffffffu      /* PSN 是 24 位的 */

#include "plugins/trace_ref.h"   /* struct trace_ref：写到哪个 trace、哪个会话 */

/* 一个正在拼装的事件（一行 JSON）；空间不够时 overflow=1，整行不写 */
struct tj {
	char buf[TRACE_LINE_MAX];
	size_t len;
	int need_comma;         /* 下一个值前面要不要逗号 */
	int overflow;
};

/*
 * 打开/关闭。role 是写进每个事件的 "server" 或 "client"（字符串常量，trace 只借用）。trace_open 失败时返回 NULL 并把中文原因写进 err。
 * trace_close 写 end 事件（退出码）并关闭文件；t 为 NULL 时什么也不做。
 */
struct trace *trace_open(const char *path, const char *role, char *err, size_t errlen);
void trace_close(struct trace *t, int exit_code);

/* ---------- 拼一个事件 ---------- */

/* 开始一个事件：{"v":1,"ev":EV,"role":..,"t_real":..,"t_mono":..[,"conn":N] */
void tj_begin(struct tj *j, const struct trace_ref *r, const char *ev);
/* 同上，时间和角色由调用者给出（单元测试用） */
void tj_begin_at(struct tj *j, const char *role, const char *ev, int conn,
		 const struct timespec *real, const struct timespec *mono);
void tj_str(struct tj *j, const char *key, const char *s);      /* 字符串（按 JSON 转义） */
void tj_int(struct tj *j, const char *key, long long v);
void tj_bool(struct tj *j, const char *key, int v);
void tj_hex(struct tj *j, const char *key, uint64_t v, int width); /* "0x..."，至少 width 位 */
void tj_obj(struct tj *j, const char *key);    /* "key":{ ；key 为 NULL 时只写 {（数组元素） */
void tj_arr(struct tj *j, const char *key);    /* "key":[ */
void tj_close(struct tj *j, char c);           /* 写 } 或 ] */
void tj_item_str(struct tj *j, const char *s); /* 数组里的一个字符串 */
/* 结束并写出这一行（在 trace 的锁下整行写、立即刷新）；r->t 为 NULL 时什么也不做 */
void trace_emit(const struct trace_ref *r, struct tj *j);
/* 结束这一行但不写（单元测试用）：返回以 '\n' 结尾的文本，overflow 时返回 NULL */
const char *tj_finish(struct tj *j);
/* trace 是否打开（调用者据此跳过只为 trace 才需要的额外查询） */
int trace_on(const struct trace_ref *r);

/* ---------- PSN ---------- */

/* (psn + n) mod 2^24 */
uint32_t psn_add(uint32_t psn, uint32_t n);
/*
 * 一个发送 WR 占用几个 PSN（= 请求方发出、或 READ 时对端回来的包数）：
 *   SEND/WRITE: ceil(len / mtu)，0 字节算 1；READ: 响应包个数 ceil(len / mtu)；原子操作: 1
 * mtu 是字节数；is_atomic 非 0 时不看 len
 */
uint32_t psn_npkts(uint64_t len, uint32_t mtu_bytes, int is_atomic);

/* ---------- 不依赖 verbs 的事件 ---------- */

void trace_step(const struct trace_ref *r, unsigned n, const char *title);
void trace_error(const struct trace_ref *r, const char *msg, const char *hint);

/* 一个投递成功的发送 WR（post_send 事件） */
struct trace_wr {
	int qp;
	uint32_t qpn, dest_qpn;
	uint64_t wr_id;
	const char *opcode;     /* "SEND"、"RDMA_WRITE"… */
	uint32_t len;
	uint64_t local_addr, remote_addr;
	uint32_t lkey, rkey;
	int has_remote;         /* 单边/原子操作才写 remote_addr/rkey */
	int has_imm;
	uint32_t imm;           /* 主机字节序 */
	int has_psn;            /* 0 = 插件没记下这个QP的起始PSN（内存不够），不写 psn_first */
	uint32_t psn_first, npkts, mtu;
	int signaled;           /* IBV_SEND_SIGNALED：这个 WR 要一个完成 */
	int inline_data;        /* IBV_SEND_INLINE：数据由 CPU 拷进 WQE */
};
void trace_post_send(const struct trace_ref *r, const struct trace_wr *w);
void trace_post_recv(const struct trace_ref *r, int qp, uint32_t qpn, uint64_t wr_id,
		     uint32_t len, uint64_t addr);

/* con_set_error_sink 的回调：ctx 是 struct trace_ref * */
void trace_error_sink(void *ctx, const char *msg, const char *hint);

#endif
