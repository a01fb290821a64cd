/*
 * verbs_print.h - 控制台输出的小工具：步骤标题、verbs 错误、枚举值的名字
 *
 * 不依赖任何资源结构体：步骤号由调用者的计数器决定（见 step_title），
 * 所以设备、连接、控制平面、数据面都能用它们打印。
 */
#ifndef ROCE_VERBS_PRINT_H
#define ROCE_VERBS_PRINT_H

#include <stddef.h>
#include <infiniband/verbs.h>

struct trace_ref;   /* console/trace.h：这一端的事件写到哪个 trace 文件（本层不看它里面，只转交） */

/* 打印 “========== 步骤N: 标题 ==========”，N = ++*step；再把标题交给装上的 step_sink（tr 原样转交） */
void step_title(const struct trace_ref *tr, unsigned *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 步骤标题的接收者：program.c 装上 trace_step（有 --trace 时写 trace 的 step 事件）；没装 = 只打印。
 * console/ 在最底层，不能调用上面的插件（plugins/trace_hooks.c），所以由组装程序的 program.c 把它接上 */
typedef void (*step_sink_fn)(const struct trace_ref *tr, unsigned n, const char *title);
void step_title_sink(step_sink_fn fn);

/* 打印 “错误: CALL 失败: strerror (errno=N)” 和 “提示: HINT” */
void verbs_error(const char *call, int err, const char *hint);
/* 同上，错误行以 “QP[qp] ” 开头（qp < 0 时不加） */
void verbs_error_qp(int qp, const char *call, int err, const char *hint);
const char *mtu_str(enum ibv_mtu mtu);
const char *qp_state_str(enum ibv_qp_state s);
void access_str(int access, char *out, size_t len);

#endif
