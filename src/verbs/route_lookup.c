/*
 * route_lookup.c - 用 rtnetlink 向内核查一条 IPv4 路由（RTM_GETROUTE），和 `ip route get DST [from SRC]` 一样
 */
#include "verbs/route_lookup.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

struct route_req {
	struct nlmsghdr nh;
	struct rtmsg rt;
	char attrs[64];
};

static void add_addr_attr(struct route_req *req, unsigned short type, const struct in_addr *a)
{
	struct rtattr *rta = (struct rtattr *)(void *)((char *)req + NLMSG_ALIGN(req->nh.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(sizeof(*a));
	memcpy(RTA_DATA(rta), a, sizeof(*a));
	req->nh.nlmsg_len = NLMSG_ALIGN(req->nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

static unsigned netdev_mtu(const char *ndev)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	unsigned mtu = 0;

	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ndev);
	if (ioctl(fd, SIOCGIFMTU, &ifr) == 0)
		mtu = (unsigned)ifr.ifr_mtu;
	close(fd);
	return mtu;
}

/* 解析内核的回答：RTM_NEWROUTE（RTA_OIF、RTA_PREFSRC、rtm_type）或 NLMSG_ERROR */
static int parse_reply(const char *buf, ssize_t len, struct route_info *out, int *err)
{
	const struct nlmsghdr *nh = (const struct nlmsghdr *)(const void *)buf;
	const struct rtmsg *rt;
	const struct rtattr *rta;
	int alen, oif = 0;

	if (len < (ssize_t)sizeof(*nh) || !NLMSG_OK(nh, (unsigned)len))
		return -1;
	if (nh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nh);

		*err = -e->error;
		return -1;
	}
	if (nh->nlmsg_type != RTM_NEWROUTE)
		return -1;
	rt = NLMSG_DATA(nh);
	out->local = rt->rtm_type == RTN_LOCAL;
	alen = (int)RTM_PAYLOAD(nh);
	for (rta = RTM_RTA(rt); RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
		if (rta->rta_type == RTA_OIF)
			memcpy(&oif, RTA_DATA(rta), sizeof(oif));
		else if (rta->rta_type == RTA_PREFSRC)
			inet_ntop(AF_INET, RTA_DATA(rta), out->src, sizeof(out->src));
	}
	if (oif != 0 && if_indextoname((unsigned)oif, out->ndev) == NULL)
		out->ndev[0] = '\0';
	return 0;
}

int route_lookup(const char *dst, const char *src, struct route_info *out, char *err, size_t errlen)
{
	struct route_req req;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 1 };
	struct in_addr d, s;
	char buf[4096];
	ssize_t n;
	int fd, e = 0;

	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, dst, &d) != 1 || (src != NULL && inet_pton(AF_INET, src, &s) != 1)) {
		snprintf(err, errlen, _("不是 IPv4 地址: %s"), dst);
		return -1;
	}
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.rt.rtm_family = AF_INET;
	req.rt.rtm_dst_len = 32;
	add_addr_attr(&req, RTA_DST, &d);
	if (src != NULL) {
		req.rt.rtm_src_len = 32;
		add_addr_attr(&req, RTA_SRC, &s);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) {
		snprintf(err, errlen, _("socket(NETLINK_ROUTE) 失败: %s"), strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0 ||
	    (n = recv(fd, buf, sizeof(buf), 0)) < 0) {
		snprintf(err, errlen, _("向内核查询路由失败: %s"), strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (parse_reply(buf, n, out, &e) != 0) {
		const char *why = e ? strerror(e) : _("无法解析的回答");

		if (src != NULL)
			snprintf(err, errlen, _("内核没有从 %s 到 %s 的路由: %s"), src, dst, why);
		else
			snprintf(err, errlen, _("内核没有到 %s 的路由: %s"), dst, why);
		return -1;
	}
	if (out->ndev[0] != '\0')
		out->mtu = netdev_mtu(out->ndev);
	if (out->src[0] == '\0' && src != NULL)   /* 指定了源地址时内核不再回答 PREFSRC */
		snprintf(out->src, sizeof(out->src), "%s", src);
	return 0;
}

int route_resolve_ipv4(const char *host, char out[16])
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	int rc;

	if (getaddrinfo(host, NULL, &hints, &ai) != 0 || ai == NULL)
		return -1;
	rc = inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)ai->ai_addr)->sin_addr, out, 16) ? 0 : -1;
	freeaddrinfo(ai);
	return rc;
}

void route_describe(const struct route_info *r, char *out, size_t len)
{
	if (r->local)
		snprintf(out, len, _("是本机自己的地址（内核答 local … dev lo）"));
	else
		snprintf(out, len, _("走网卡 %s，源地址 %s"), r->ndev[0] ? r->ndev : "?", r->src[0] ? r->src : "?");
}
