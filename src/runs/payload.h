/*
 * payload.h - 测试数据：每个QP、每一轮都不同，接收方逐字节校验（纯逻辑）
 */
#ifndef ROCE_PAYLOAD_H
#define ROCE_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

/*
 * 用可读的模式填满 buf：
 *   len ≥ 32 时以 "[client QP0 round1] " 之类的文字开头，其余是随 QP、轮次变化的字母；
 *   更短时全部是字母。who 是 "client" 或 "server"。
 */
void payload_fill(uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round);

/* 与 payload_fill 的结果比较：一致返回 -1，否则返回第一个不同字节的偏移 */
long payload_check(const uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round);

/* 与期望不同的字节总数（出错时帮助判断是整块没到还是个别字节错） */
size_t payload_diff_count(const uint8_t *buf, size_t len, const char *who, uint32_t qp, uint32_t round);

/* 取前 max 个字节做可打印的预览（不可打印字符显示为 '.'） */
void payload_preview(const uint8_t *buf, size_t len, char *out, size_t max);

/* write_imm 使用的立即数：轮次在高16位，QP 号在低16位 */
uint32_t payload_imm(uint32_t qp, uint32_t round);

/* 原子操作：QP i 的目标字初值，以及 fetch_add 每轮加的数 */
uint64_t atomic_initial(uint32_t qp);
uint64_t atomic_addend(uint32_t qp);

#endif
