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

/* IBV_WC_RDMA_READ → "RDMA_READ"；未知值 → "UNKNOWN"（控制台和 trace 的 wc 事件共用） */
const char *wc_opcode_str(enum ibv_wc_opcode op);

#endif
