/*
 * 练习 11（步骤4）：选 GID —— 本端的包用哪个源地址
 * Exercise 11 (step 4): choosing the GID - which source address this end's packets carry
 *
 * 任务：tbl[0..n) 是端口 GID 表里的非空条目（ibv_query_gid_table 读出来的），src_ip 是内核通往对端的路由要的源地址
 *       （ip route get 的 src，点分十进制）。返回该用的那一项的 GID 索引；没有合适的返回 -1。
 * Task: tbl[0..n) are the non-empty entries of the port's GID table (as read by ibv_query_gid_table), src_ip is the source
 *       address the kernel's route to the peer wants (the src of ip route get, dotted decimal). Return the GID index of the
 *       entry to use, or -1 when none fits.
 *
 *   tbl[i].index  GID 索引（数组里的位置 i 不一定等于它：空条目不在 tbl 里）
 *                 the GID index (not necessarily the position i in the array: empty entries are not in tbl)
 *   tbl[i].kind   GID_KIND_ROCE_V1 / GID_KIND_ROCE_V2（同一个地址常有两项 / one address often has both）
 *   tbl[i].raw    16 字节；IPv4 地址是 ::ffff:a.b.c.d / 16 bytes; an IPv4 address is ::ffff:a.b.c.d
 *   可以用 / you may use: gid_is_ipv4_mapped(raw)、gid_to_ip(raw, buf)（buf 至少 GID_IP_LEN 字节）、GID_AUTO_MAX_INDEX
 *   RTR 的 ah_attr.grh.sgid_index 只有 8 位 / RTR's ah_attr.grh.sgid_index has 8 bits
 *
 * 检查：make exercise EX=11（你的是客户端：路由要的源地址是 rxe1 的 10.11.0.2）
 * Check: make exercise EX=11 (yours is the client: the route's source address is rxe1's 10.11.0.2)
 */
#include "exercise.h"

int gid_index_for(const struct gid_info *tbl, size_t n, const char *src_ip)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)tbl;
	(void)n;
	(void)src_ip;
	exercise_todo();
	return -1;
}
