/*
 * wc_check.h - 一个工作完成(WC)是不是我们期望的那个（纯逻辑，可单元测试）
 *
 * status 成功只说明“网卡做完了”；教学程序还要确认做完的是哪件事：
 * opcode 对不对、RDMA READ/接收的长度对不对、WRITE_WITH_IMM 的立即数和 IBV_WC_WITH_IMM 标志对不对。
 */
#ifndef ROCE_WC_CHECK_H
#define ROCE_WC_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct wc_expect {
	enum ibv_wc_opcode opcode;
	int check_len;          /* 1 = byte_len 必须等于 len（接收、RDMA READ 的完成才有意义） */
	uint32_t len;
	int check_imm;          /* 1 = 必须带 IBV_WC_WITH_IMM，且立即数等于 imm */
	uint32_t imm;           /* 主机字节序（wc.imm_data 在线上是网络字节序） */
};

/* 符合返回 0；不符返回 -1，并把中文原因写进 err */
int wc_check(const struct ibv_wc *wc, const struct wc_expect *e, char *err, size_t errlen);

/*
 * --srq 的接收请求的 wr_id = WRID_SRQ | 缓冲区号（缓冲区可以多于 256 块，低 8 位不是QP号；哪个QP收到的看 wc.qp_num）。
 * 出错的完成里 opcode 没有定义（ibv_poll_cq(3)：只有 wr_id、status、qp_num、vendor_err 有效），所以“这是 SRQ 的接收”
 * 只能从 wr_id 认出来：这一位就是标记。放在第 48 位：比 WRID 的最大值（序号 MAX_ITERS < 2^20，左移 8 位）高得多，
 * 又在 2^53 以下（trace 的 JSON 在浏览器里是 double，不丢位）
 */
#define WRID_SRQ (UINT64_C(1) << 48)
static inline uint64_t wrid_srq(int b) { return WRID_SRQ | (uint32_t)b; }
static inline int wrid_is_srq(uint64_t wr_id) { return (wr_id & WRID_SRQ) != 0; }
static inline int wrid_srq_buf(uint64_t wr_id) { return (int)(uint32_t)wr_id; }

/*
 * 一个出错的完成是谁的，写成给人看的标签（buf）：“QP[3]”，或 SRQ 的接收“SRQ 的接收（缓冲区 300，QP[1]）”。
 * wr_qp = wr_id 的低 8 位（不是 SRQ 的接收时就是QP序号，verbs/rdma_types.h 的 wrid_qp），
 * qp_by_num = 按 wc.qp_num 找到的本端QP序号（-1 = 不是本端的）。
 * 返回发送 WR 所在的QP序号；SRQ 的接收返回 -1（它不是哪个QP上的发送，缓冲区号更不是QP号）
 */
int wc_error_owner(uint64_t wr_id, int wr_qp, int qp_by_num, char *buf, size_t len);

/* IBV_WC_RDMA_READ → "RDMA_READ"；未知值 → "UNKNOWN"（控制台和 trace 的 wc 事件共用） */
const char *wc_opcode_str(enum ibv_wc_opcode op);

#endif
