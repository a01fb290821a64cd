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
/* 相当于 printf / fprintf(stderr, …)，有前缀时每行加前缀 */
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 一行解释（教学用的“为什么”）：“  说明: ” + 文字，跟在它解释的那一行后面 */
void con_explain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 把本线程攒着的半行（没有换行结尾的）写出去；会话结束时调用 */
void con_flush(void);
/*
 * 错误和提示：每个错误都经 con_error 打印（“错误: ” + 文字），提示经 con_hint（“提示: ” + 文字）或者写在同一个
 * con_error 里、用 CON_HINT 隔开："…失败\n" CON_HINT "检查…\n"。控制台上的字节和直接打印一样；同时把
 * （错误，提示）这一对直接交给本线程的错误去处（--trace 把它写成 error 事件），不再从控制台的文字里认。
 * 没有等到提示的错误在下一个错误、con_flush 或换去处时交出去（提示为 NULL）。
 */
#define CON_HINT "\x1f"
void con_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 本线程的错误去处：fn(ctx, 错误, 提示或 NULL)，文字不带 “错误: ”“提示: ” 和结尾的换行。fn 为 NULL = 不要 */
typedef void (*con_error_fn)(void *ctx, const char *msg, const char *hint);
void con_set_error_sink(con_error_fn fn, void *ctx);

/* 仅供测试：本线程改写到别的流（NULL = stdout/stderr） */
void con_set_streams(FILE *out, FILE *err);

#endif
