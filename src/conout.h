/*
 * conout.h - 控制台输出，可以给每一行加前缀（多客户端服务端用）
 *
 * 服务端同时服务几个客户端时，几个会话的输出交错在一起；每个会话的线程给自己设一个前缀
 * （例如 “[客户端3 10.11.0.2] ”），它打印的每一行都带上，读的人就分得清哪行是谁的。
 * 前缀是线程自己的（_Thread_local），线程之间不共享任何可变状态。
 *
 * 没有设前缀（单客户端、客户端程序）时，con_printf 就是 printf、con_eprintf 就是
 * fprintf(stderr, …)：输出一个字节都不变。
 * 有前缀时，一行攒齐了（遇到 '\n'）才整行写出：前缀和这一行拼成一块，锁住流（flockfile）
 * 写进去并立刻 fflush，所以两个线程的行、stdout 和 stderr 的行都不会在行中间交错。
 */
#ifndef ROCE_CONOUT_H
#define ROCE_CONOUT_H

#include <stdio.h>

/* 进程开始时调用一次（在任何输出之前）：stdout 改成按行缓冲 */
void con_init(void);
/* 设置本线程的行前缀；NULL 或 "" = 不加前缀（先把攒着的半行写出去） */
void con_set_prefix(const char *prefix);
/* 本线程的前缀（没有时是 ""） */
const char *con_prefix(void);
/* 相当于 printf / fprintf(stderr, …)，有前缀时每行加前缀 */
int con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int con_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 把本线程攒着的半行（没有换行结尾的）写出去；会话结束时调用 */
void con_flush(void);
/*
 * 本线程的错误去处（--trace 用它把错误写进 trace，控制台输出不受影响）：标准错误上每个以 “错误: ”
 * 开头的行，连同紧跟的 “提示: ” 行（没有就是 NULL），去掉这两个前缀后交给 fn(ctx, msg, hint)。
 * 下一个 “错误: ”、con_flush 或换一个去处时，还没等到提示的错误也交出去。fn 为 NULL = 不要。
 */
typedef void (*con_error_fn)(void *ctx, const char *msg, const char *hint);
void con_set_error_sink(con_error_fn fn, void *ctx);

/* 仅供测试：本线程改写到别的流（NULL = stdout/stderr） */
void con_set_streams(FILE *out, FILE *err);

#endif
