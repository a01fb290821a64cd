/*
 * rdma_common.h - RDMA verbs 资源的生命周期（服务端与客户端共用）
 *
 * 阅读顺序建议：先看本文件的结构体，再按 rdma_server.c / rdma_client.c 里的
 * 步骤顺序去看 rdma_common.c 中对应的函数。
 *
 *   设备列表 → 打开设备 → 查询端口 → 选GID → PD → MR → CQ → N个QP
 *   → RESET→INIT → (TCP交换连接信息) → INIT→RTR → RTR→RTS → 收发数据 → 逆序清理
 */
#ifndef ROCE_RDMA_COMMON_H
#define ROCE_RDMA_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "gid.h"
#include "options.h"
#include "route.h"
#include "wire.h"

#define CQ_SIZE        256     /* 所有QP共享一个CQ */
#define MAX_SEND_WR    16
#define MAX_RECV_WR    16

struct rdma_resources {
	const struct options *opt;      /* 命令行参数（只读） */
	unsigned step;                  /* 当前步骤号，用于打印 */

	struct ibv_device **dev_list;
	int num_devices;
	struct ibv_context *ctx;
	char dev_name[64];
	struct ibv_device_attr dev_attr;
	struct ibv_port_attr port_attr;
	struct gid_info gid;            /* 本端使用的 GID（含索引） */

	struct ibv_pd *pd;
	uint8_t *buf;                   /* A区 [0, num_qp*slot) + B区 [num_qp*slot, 2*num_qp*slot) */
	size_t buf_len;
	size_t slot;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	int num_qp;
	struct ibv_qp *qp[MAX_QP];
	uint32_t psn[MAX_QP];           /* 本端每个QP的起始包序号 */

	int listen_fd;
	int sock;                       /* 控制平面 TCP 连接 */
	struct wire_hello remote;       /* 对端的连接信息 */
	uint32_t peer_rkey;             /* 单边操作用的对端 rkey（--inject rkey 时故意改错） */
	enum ibv_mtu path_mtu;          /* 两端 active_mtu 的较小者 */

	/* 客户端：到服务端的路径（path.c） */
	char server_addr[16];           /* 服务端的 IPv4（解析后）；空 = 不是 IPv4，不做路由检查 */
	int route_known;                /* 1 = route 有效 */
	struct route_info route;        /* 内核到服务端的路由（等同 ip route get） */
	char want_src[GID_IP_LEN];      /* 路由要求的源地址；自动选 GID 时优先选这个地址的条目 */
};

/* A区：对端通过 RDMA 访问/网络写入的地方；B区：本端准备发送或接收结果的地方 */
static inline uint8_t *area_a(struct rdma_resources *r, int i) { return r->buf + (size_t)i * r->slot; }
static inline uint8_t *area_b(struct rdma_resources *r, int i) { return r->buf + ((size_t)r->num_qp + (size_t)i) * r->slot; }

void res_init(struct rdma_resources *res, const struct options *opt);

/* 资源初始化，每个函数对应一个步骤 */
int get_device_list(struct rdma_resources *res);
int open_device(struct rdma_resources *res);
int query_port(struct rdma_resources *res);
int choose_gid(struct rdma_resources *res);
int alloc_pd(struct rdma_resources *res);
int register_mr(struct rdma_resources *res, int access);
int create_cq(struct rdma_resources *res);
int create_qps(struct rdma_resources *res);

/* 步骤1-9 按顺序执行上面这些函数（服务端与客户端完全相同），任何一步失败返回 -1 */
int setup_local_resources(struct rdma_resources *res, int access);

/* 逆序释放所有资源；对只初始化了一部分的 res 也安全 */
void destroy_resources(struct rdma_resources *res);

#endif
