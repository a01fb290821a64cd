/*
 * kernel_note.h - rxe 的行为随内核版本变化的地方：WC 失败时按运行的内核补一句（纯逻辑，可单元测试）
 *
 * 实验室实测（docs/KERNELS.md）：Debian 11 的 5.10 上，rxe 的响应方不执行原子操作（fetch_add/cmp_swap），
 * 对错误的 rkey 也不回 NAK，两者在请求方都以 RETRY_EXC_ERR 结束（重传 retry_cnt 次没有应答）；
 * 6.1 和 6.12 上原子操作成功，错误的 rkey 得到 REM_ACCESS_ERR。5.10 与 6.1 之间的内核没有测试。
 * 故障画廊（docs/GALLERY.md）：sge.lkey 不对的 WR 在 5.10 上 LOC_PROT_ERR，6.1 上 LOC_QP_OP_ERR，6.12 上它自己就是 WR_FLUSH_ERR
 * （只测了这一种原因、只在 6.12.117+deb13 上测过）。
 */
#ifndef ROCE_KERNEL_NOTE_H
#define ROCE_KERNEL_NOTE_H

#include <stddef.h>
#include <infiniband/verbs.h>

/* 从 uname 的 release（"5.10.0-32-amd64"、"6.12.117+deb13-amd64"）读出主、次版本号；读不出返回 -1 */
int kernel_version(const char *release, int *major, int *minor);

/*
 * 设备是 rxe 时，状态 st 在内核 release 上有没有已知的、与版本有关的另一种原因：
 * 有就把说明写进 buf（点名内核、说清在哪个内核上实测、哪些没测）并返回 buf；没有返回 NULL。
 * send_in_flight：出错的这个QP上还有没取到完成的 signaled 发送 WR（发送队列记账）。WR_FLUSH_ERR 的说明只在
 * 实测过的那一种情形打印：6.12 起、这是程序取到的第一条错误完成、而且QP上有在途的发送 WR（那个 WR 本身出错，
 * 例如 sge.lkey 不对）。没有在途的发送 WR 时被冲刷的是接收请求——那就是提示说的普通情形（QP 先进了 ERR），不补这句。
 */
const char *rxe_kernel_note(enum ibv_wc_status st, const char *release, int send_in_flight, char *buf, size_t len);

/*
 * 本程序的接收走 SRQ（--srq）时，6.1 的 rxe 的已知故障（实验室实测，docs/KERNELS.md）：发送方重传（超时，或几个QP共用的
 * SRQ 被取空、接收方回了 RNR NAK）时，偶尔一个接收以 LOC_QP_OP_ERR 完成、发送方收到 REM_OP_ERR，或者两边都是
 * REM_INV_REQ_ERR。st 是这三种之一、内核是 6.1 时把说明写进 buf 并返回它；否则 NULL
 */
const char *rxe_srq_retry_note(enum ibv_wc_status st, const char *release, char *buf, size_t len);

#endif
