/*
 * ack_timeout.h - RC 的 ACK 超时（RTS 的 timeout 指数，--ack-timeout）：它是什么意思（纯逻辑）
 *
 * IB 规范（卷 1 的 C9-140..C9-142，内核 ib_srp.c 的 srp_compute_rq_tmo 引的就是这几条）：本地 ACK 超时 = 4.096 µs × 2^timeout，timeout 是 5 位（0..31），
 * 0 表示不用定时器（无限等待）；网卡实际等的时间可以到这个值的 4 倍。
 * rxe 把它换成 jiffies（rxe_qp.c 的 rxe_qp_from_attr：nsecs_to_jiffies 向下取整，结果是 0 就用 1 个 jiffy），
 * 所以实际的定时器粒度是内核的 1/HZ（Debian 的 5.10/6.1/6.12 都是 HZ=250：4 ms）。docs/LOSS-RECOVERY.md 有量过的例子，
 * 那张表的算法在 tests/unit/test_options.c 的 rxe_jiffies（程序自己不需要它）
 */
#ifndef ROCE_ACK_TIMEOUT_H
#define ROCE_ACK_TIMEOUT_H

#include <stddef.h>

#define ACK_TIMEOUT_DEFAULT 14      /* TCP 模式的默认值：4.096 µs × 2^14 ≈ 67 ms */
#define ACK_TIMEOUT_MAX     31      /* 5 位 */

/* 4.096 µs × 2^n，单位 µs（n = 0 时返回 0：不用定时器） */
double ack_timeout_us(unsigned n);
/* 人看的时间：“4.1us”“2.1ms”“67ms”“2.1s”“2.4h”；n = 0 时是“∞”。返回 buf */
const char *ack_timeout_str(unsigned n, char *buf, size_t len);
/* RTS 讲解的第一行（已翻译，不带换行）：timeout=N 表示什么 */
const char *ack_timeout_explain(unsigned n, char *buf, size_t len);

#endif
