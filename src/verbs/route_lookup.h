/*
 * route_lookup.h - 问内核：到对端的 IPv4 报文从哪块网卡、用哪个源地址发出去（等同 ip route get）
 *
 * RTR 失败最常见的原因不在某一台机器上，而在两台之间的路径：RDMA 设备建在了不通往对端的网卡上
 * （VMware NAT + 仅主机网卡、VirtualBox 的 NAT、两块网卡各有一个 rxe）。程序用内核自己的路由表
 * （rtnetlink RTM_GETROUTE，不调用外部命令）回答“这条路走哪块网卡”，再去找建在那块网卡上的 RDMA 设备。
 */
#ifndef ROCE_ROUTE_LOOKUP_H
#define ROCE_ROUTE_LOOKUP_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/gid.h"

struct route_info {
	int local;                  /* 1 = 目的地址是本机自己的地址（内核答 local … dev lo） */
	char ndev[IF_NAMESIZE];     /* 出口网卡，例如 eth0 */
	char src[16];               /* 内核会用的源地址（点分十进制），可能为空 */
	unsigned mtu;               /* 出口网卡的 MTU（字节），查不到为 0 */
};

/* 客户端：到服务端的路径（verbs/selection.c 的 select_lookup_server 填写，选设备、选 GID 和 RTR 前的路径检查用；服务端保持全 0） */
struct peer_route {
	char server_addr[16];           /* 服务端的 IPv4（解析后）；空 = 不是 IPv4，不做路由检查 */
	int route_known;                /* 1 = route 有效 */
	struct route_info route;        /* 内核到服务端的路由（等同 ip route get） */
	char want_src[GID_IP_LEN];      /* 路由要求的源地址；自动选 GID 时优先选这个地址的条目 */
};

/*
 * 查 dst 的路由；src 非 NULL 时按“从这个源地址发出”查（策略路由会因此给出不同答案）。
 * 成功返回 0；失败返回 -1 并把中文原因写进 err（例如网络不可达）。
 */
int route_lookup(const char *dst, const char *src, struct route_info *out, char *err, size_t errlen);

/* 把主机名或 IPv4 文本解析成点分十进制；失败返回 -1（IPv6 也返回 -1：路径检查只做 IPv4） */
int route_resolve_ipv4(const char *host, char out[16]);

/* 路由结果的一句话：“走网卡 eth0，源地址 10.11.0.2” / “是本机地址（dev lo）” */
void route_describe(const struct route_info *r, char *out, size_t len);

#endif
