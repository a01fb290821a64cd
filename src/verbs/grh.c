/*
 * grh.c - UD 接收缓冲区前 40 字节的解码（见 grh.h）
 */
#include "verbs/grh.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

int grh_decode(const uint8_t *buf, size_t len, struct grh_info *g)
{
	memset(g, 0, sizeof(*g));
	if (buf == NULL || len < GRH_LEN)
		return -1;
	if (buf[20] == 0x45) {   /* RoCE v2 over IPv4：后 20 字节是 IPv4 头 */
		const uint8_t *ip = buf + 20;

		g->kind = GRH_IPV4;
		g->ip_len = (uint16_t)((ip[2] << 8) | ip[3]);
		g->ttl = ip[8];
		inet_ntop(AF_INET, ip + 12, g->src, sizeof(g->src));
		inet_ntop(AF_INET, ip + 16, g->dst, sizeof(g->dst));
		return 0;
	}
	g->kind = GRH_IPV6;      /* GRH / IPv6 头：载荷长度 4..5，hop limit 7，源 8..23，目的 24..39 */
	g->ip_len = (uint16_t)((buf[4] << 8) | buf[5]);
	g->ttl = buf[7];
	inet_ntop(AF_INET6, buf + 8, g->src, sizeof(g->src));
	inet_ntop(AF_INET6, buf + 24, g->dst, sizeof(g->dst));
	return 0;
}

void grh_hex(const uint8_t *buf, char *out, size_t outlen)
{
	size_t n = 0;

	if (outlen == 0)
		return;
	out[0] = '\0';
	for (int i = 0; i < GRH_LEN && n + 4 < outlen; i++)
		n += (size_t)snprintf(out + n, outlen - n, "%02x%s", buf[i], i == 19 ? "\n" : i == GRH_LEN - 1 ? "" : " ");
}
