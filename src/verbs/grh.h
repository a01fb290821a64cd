/*
 * grh.h - UD 接收缓冲区前面的 40 字节（纯逻辑，可单元测试）
 *
 * UD 的每个接收完成都带 IBV_WC_GRH：网卡把报文的全局路由头放在接收缓冲区的最前面 40 字节，数据从第 40 字节开始。
 * InfiniBand 和 RoCE v1 上这 40 字节就是 GRH（IPv6 头的格式：源 GID 在 8..23，目的 GID 在 24..39）。
 * RoCE v2 的报文没有 GRH，只有 IP 头：IPv4 时前 20 字节不用（内容未定义，rxe 填 0），后 20 字节是 IPv4 头
 * （源地址在 32..35，目的地址在 36..39）；IPv6 时 40 字节就是 IPv6 头（源、目的地址在 8..23、24..39）。
 * 分辨的办法和 rdma-core、内核一样：看第 20 字节（IPv4 头的第一个字节）是不是 0x45（版本 4、头长 20 字节）。
 */
#ifndef ROCE_GRH_H
#define ROCE_GRH_H

#include <stddef.h>
#include <stdint.h>

#define GRH_LEN 40

enum grh_kind { GRH_IPV4, GRH_IPV6 };

struct grh_info {
	enum grh_kind kind;
	char src[48];           /* 源地址：IPv4 点分十进制，或 IPv6/GID 的文本 */
	char dst[48];
	uint8_t ttl;            /* IPv4 的 TTL 或 IPv6 的 hop limit */
	uint16_t ip_len;        /* IPv4 的总长度或 IPv6 的载荷长度（字节） */
};

/* 解码 40 字节；长度不够返回 -1 */
int grh_decode(const uint8_t *buf, size_t len, struct grh_info *g);

/* 40 字节的十六进制，分两行（各 20 字节），给控制台打印 */
void grh_hex(const uint8_t *buf, char *out, size_t outlen);

#endif
