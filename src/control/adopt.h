/*
 * adopt.h - 多客户端服务端：一个会话用什么参数（纯逻辑，可单元测试）
 *
 * 一对一时两端的 -q/--op/--size/--iters/--offset 必须完全一样。服务多个客户端时，
 * 服务端命令行里明确给了的值仍然必须一样（不一样时握手照常报错，两端都看得到）；
 * 没给的听客户端的——客户端的 HELLO 先到，服务端据此为这个客户端创建 MR/CQ/QP。
 * 上限：QP 最多 MAX_QP 个、消息大小不超过 size_cap。
 * 这里不再检查客户端的值：每个字段（offset 的对齐和范围、size、iters、flags……）在
 * wire_decode_hello 里已经检查过，没通过的 HELLO 到不了这里。
 */
#ifndef ROCE_ADOPT_H
#define ROCE_ADOPT_H

#include <stddef.h>
#include <infiniband/verbs.h>

#include "cli/options.h"
#include "control/wire.h"

/* 服务端不给 --size 时，每个客户端每个QP的消息大小上限（启动时打印） */
#define SESSION_SIZE_CAP   (1u << 20)

/*
 * 由服务端参数 server 和客户端 HELLO 的头部 client 得到这个会话的参数 out（先整体复制 server）。
 * @pre client 是 wire_decode_hello 返回 WIRE_OK 的结果。
 * 返回 0。客户端要的超过上限时返回 -1，why 写明原因；out 里保留服务端能接受的值，
 * 随后的握手会因两端不一致而失败（客户端也会看到是哪一项）。
 * notes 里写下听了客户端的那几项（例如 "-q 8 --size 4096"，都没有时为空串）。
 */
int adopt_client_options(const struct options *server, const struct wire_hello *client,
			 size_t size_cap, struct options *out, char *notes, size_t notes_len,
			 char *why, size_t why_len);

/*
 * --cm 的服务端（被动方）在 rdma_accept 之前就把QP转到 RTR/RTS，属性来自 rdma_init_qp_attr。那时内核里存的还是
 * 连接请求（REQ）里的值（内核 cm_req_handler：responder_resources = REQ 的 initiator_depth），也就是客户端设备的
 * 上限；协商后的值 rd 只随 REP 发给对端。所以和 librdmacm 自己的 ucma_modify_qp_rtr/_rts 一样，把这两项换成协商值：
 *   RTR: max_dest_rd_atomic = rd.in（本端同时接受几个对端发起的 READ/原子）
 *   RTS: max_rd_atomic      = rd.out（本端同时发起几个 READ/原子）
 * 否则 rxe 客户端（128）对 mlx5 服务端（上限 16）时，服务端的 RTR 以 EINVAL 失败。其它状态不动。
 * 返回 rdma_init_qp_attr 原来给的值（改了哪一项就是哪一项的旧值；没改返回 -1）。
 */
int adopt_negotiated_rd(struct ibv_qp_attr *a, struct wire_rd_depth rd);

#endif
