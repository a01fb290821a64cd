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

/*
 * 步骤标题还要告诉谁：观察者的上下文。设备和每条连接各带一个（verbs/rdma_types.h 的 watch），步骤函数原样转交，
 * 本层不看 ctx 里面。组装程序（program/program.c）填：有 --trace 时是 trace 插件（plugins/trace_hooks.c，写 step 事件），
 * 多客户端的会话由它在 HOOK_SESSION 里换成这个会话的；note 为 NULL = 只打印。
 * console/ 在最底层，不能调用上面的插件，所以由组装程序把它接上
 */
struct step_watch {
	void (*note)(void *ctx, unsigned n, const char *title);
	void *ctx;
};

/* 打印 “========== 步骤N: 标题 ==========”，N = ++*step；再把标题交给 w 的 note（w 或 note 为 NULL 时只打印） */
void step_title(const struct step_watch *w, unsigned *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* 打印 “错误: CALL 失败: strerror (errno=N)” 和 “提示: HINT” */
void verbs_error(const char *call, int err, const char *hint);
/* 同上，错误行以 “QP[qp] ” 开头（qp < 0 时不加） */
void verbs_error_qp(int qp, const char *call, int err, const char *hint);
const char *mtu_str(enum ibv_mtu mtu);
const char *qp_state_str(enum ibv_qp_state s);
void access_str(int access, char *out, size_t len);

#endif
