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

#include "trace/trace.h"

/* 打印 “========== 步骤N: 标题 ==========”，N = ++*step；同时写 trace 的 step 事件（有 --trace 时） */
void step_title(const struct trace_ref *tr, unsigned *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* 打印 “错误: CALL 失败: strerror (errno=N)” 和 “提示: HINT” */
void verbs_error(const char *call, int err, const char *hint);
/* 同上，错误行以 “QP[qp] ” 开头（qp < 0 时不加） */
void verbs_error_qp(int qp, const char *call, int err, const char *hint);
const char *mtu_str(enum ibv_mtu mtu);
const char *qp_state_str(enum ibv_qp_state s);
void access_str(int access, char *out, size_t len);

#endif
