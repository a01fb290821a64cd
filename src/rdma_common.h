/*
 * rdma_common.h - RDMA verbs 资源的生命周期和 QP 状态机（服务端与客户端共用）
 *
 * 课程就是 src/ 顶层的四个文件（用户设计卡片上的那四个）：
 *   rdma_common.h   本文件：每一步的函数（它们用的结构体在 verbs/rdma_types.h：设备、连接、插桩的接缝、缓冲区的分区）
 *   rdma_common.c   每一步的 verbs 调用，从上到下就是步骤的顺序（生命周期、状态转换）：
 *                     设备列表 → 打开设备 → 端口 → GID → PD                    （struct rdma_device，每个进程一份）
 *                     MR → CQ →（SRQ）→ N 个QP                                 （struct rdma_conn，每个对端一份）
 *                     RESET→INIT →（交换连接信息）→ INIT→RTR → RTR→RTS
 *                     post_receive / post_send / poll_completions
 *                     清理：先连接、后设备，各自逆序
 *   rdma_server.c   服务端：main = 建连（TCP 或 --cm 的步骤列表）→ 数据面 → 清理；默认 --op send 的一轮
 *   rdma_client.c   客户端：同上
 * 读的顺序：verbs/rdma_types.h 的结构体、本文件的步骤，再按驱动程序里的步骤列表去看 rdma_common.c 里对应的函数。
 * 其余的（选设备的规则、控制平面和线上格式、别的操作、--cm、多客户端、UD/SRQ、基准测试、trace、故障注入、计数）
 * 在 src/ 的子目录里，地图在 docs/PROJECT.md；trace 和注入只经插桩的接缝（rdma_types.h 的 struct hook_event）进来。
 */
#ifndef ROCE_RDMA_COMMON_H
#define ROCE_RDMA_COMMON_H

#include "verbs/rdma_types.h"   /* 结构体（设备、连接、插桩的接缝）、缓冲区的分区、WRID、struct send_req */

/*
 * 设备。step 是打印步骤号用的计数器（由调用者提供：设备的步骤排在连接的步骤前面）。
 * device_init 之后，无论 device_create 成功、失败在哪一步，device_destroy 都安全。
 */
void device_init(struct rdma_device *dev, const struct options *opt);
/* 没有装插件的接缝（没有 --trace、--inject、--counters） */
extern const struct rdma_hooks no_hooks;
/* 步骤1-4：用哪个设备、哪个端口、哪个 GID（客户端按到服务端的路由选，记在 peer 里）
 * @post dev->ctx、dev_attr、port_attr（ACTIVE）、gid 有效 */
int device_select(struct rdma_device *dev, struct peer_route *peer, unsigned *step);
/* 步骤5：PD  @pre device_select 成功  @post dev->pd 有效 */
int alloc_pd(struct rdma_device *dev, unsigned *step);
/* 步骤1-5 = device_select + alloc_pd；任何一步失败返回 -1 */
int device_create(struct rdma_device *dev, struct peer_route *peer, unsigned *step);
/* 逆序释放 PD、设备、设备列表；只做了一部分也安全 */
void device_destroy(struct rdma_device *dev);

/* device_select 的各步 */
int get_device_list(struct rdma_device *dev, unsigned *step);
int open_device(struct rdma_device *dev, struct peer_route *peer, unsigned *step);
int query_port(struct rdma_device *dev, unsigned *step);
int choose_gid(struct rdma_device *dev, const struct peer_route *peer, unsigned *step);
/* 选项对设备上限（dev_limits.h）：超出时打印哪一项、上限多少并返回 -1（TCP 步骤3 之后、--cm 接过设备之后、每个会话的 conn_create） */
int check_limits(const struct rdma_device *dev, const struct options *o);

/*
 * 连接。conn_init 之后，无论 conn_create 成功、失败在哪一步，conn_destroy 都安全。
 */
void conn_init(struct rdma_conn *conn, struct rdma_device *dev, const struct options *opt);
/* 步骤6-8：MR、CQ、QP（服务端与客户端完全相同），QP 留在 RESET。
 * 接着由调用者做 RESET→INIT：TCP 模式 modify_qps_to_init（本文件），--cm 按 rdma_init_qp_attr（connect/cm_qps.c 的 cm_connect_qps）
 * @pre conn->dev 已 device_create  @post 全部 QP 在 RESET；任何一步失败返回 -1 */
int conn_create(struct rdma_conn *conn, int access);
/* 关闭控制平面，逆序释放 QP、CQ、MR、缓冲区；只做了一部分也安全（不碰设备） */
void conn_destroy(struct rdma_conn *conn);

/* conn_create 的各步 */
int register_mr(struct rdma_conn *conn, int access);
int create_cq(struct rdma_conn *conn);
int create_srq(struct rdma_conn *conn);
int create_qps(struct rdma_conn *conn);

/*
 * 课（LESSON）：每一步里真正要学的那一点，抽成一个只填属性/WR、返回掩码的函数（不打印、不经插桩的接缝），步骤函数调用它。
 * 练习（exercises/、docs/EXERCISES.md）要学习者自己写的就是这些函数。十二个课都定义在 rdma_common.c、都只在这里声明一次
 * （exercises/exercise.h 和 exercises/check/probe.c 也包含本文件）。
 * LESSON 的记号：练习版（-DROCE_EXERCISE）里 LESSON 是弱符号，学习者的同名函数（强符号）在链接时顶替它；
 * 普通版里 LESSON 是空的，什么都不变（同一个文件里的调用者照样可以内联它们）。学习者的文件不带 -DROCE_EXERCISE 编译
 */
#ifdef ROCE_EXERCISE
#define LESSON __attribute__((weak))
#else
#define LESSON
#endif

/* 步骤4：GID 表里通往对端的那一项（源地址 src_ip 的 RoCE v2 条目）的 GID 索引；没有返回 -1 */
LESSON int gid_index_for(const struct gid_info *tbl, size_t n, const char *src_ip);
/* 步骤6：MR 的权限（操作 op、本端的角色 role），IBV_ACCESS_* 的组合；mr_access 在 --interactive 和 write 延迟乒乓时另有规定 */
LESSON int mr_access_for(enum rdma_op op, enum role role);
int mr_access(const struct options *o);
/* 步骤8：QP i 的 ibv_qp_init_attr（类型、CQ、SRQ、队列深度、inline） */
LESSON void qp_init_attr_for(const struct rdma_conn *conn, struct ibv_qp_init_attr *init);
/* 步骤9 RESET→INIT：填 attr（MR 的权限 access 推出 QP 的 qp_access_flags），返回 ibv_modify_qp 的掩码 */
LESSON int init_attr_for(const struct rdma_conn *conn, int access, struct ibv_qp_attr *attr);
/* 步骤12 INIT→RTR：QP i 的属性（对端是谁、路径MTU、GRH），返回掩码  @pre 已交换连接信息 */
LESSON int rtr_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr);
/* 步骤13 RTR→RTS：QP i 的属性（本端 PSN、重传），返回掩码 */
LESSON int rts_attr_for(const struct rdma_conn *conn, int i, struct ibv_qp_attr *attr);

/*
 * QP 状态机（步骤9、11-13）：RESET→INIT →（交换连接信息）→ INIT→RTR → RTR→RTS；RC 和 UD 各自的属性并排写在 rdma_common.c。
 * 每次转换后用 ibv_query_qp 读回并打印（verbs/qp_print.c）。--cm 时属性来自 rdma_init_qp_attr（connect/cm_qps.c）
 */
/* @pre QP 已创建（RESET）  @post 全部 QP 在 INIT，qp_access_flags = access 去掉 LOCAL_WRITE */
int modify_qps_to_init(struct rdma_conn *conn, int access);
/* 控制平面：通过 conn->ctrl 交换 HELLO，校验两端参数一致，打印双方信息
 * @pre QP 在 INIT，控制平面已连上  @post conn->remote、path_mtu、rd、peer_rkey 有效 */
int exchange_connection_info(struct rdma_conn *conn);
/* @pre QP 在 INIT，已交换连接信息  @post 全部 QP 在 RTR */
int modify_qps_to_rtr(struct rdma_conn *conn);
/* @pre QP 在 RTR  @post 全部 QP 在 RTS */
int modify_qps_to_rts(struct rdma_conn *conn);
/* 把 QP i 改到 ERR（任何状态都可以）：之后它上面没完成的 WR 都以 WR_FLUSH_ERR 完成 */
int modify_qp_to_err(struct rdma_conn *conn, int i);

/*
 * 数据面（步骤15 起）：post_receive、post_send（单个或链表）、poll_completions（等齐 n 个）。wr_id 的编法见 rdma_types.h 的 WRID；
 * 等完成的细节（--cq poll|event、超时、槽位记账）在 verbs/datapath.c
 */
/* 一个接收请求：QP i 的接收队列，--srq 时共用的 SRQ（i 是缓冲区号，完成的 wc.qp_num 才说明是哪个QP收到的） */
int post_receive(struct rdma_conn *conn, int i, void *addr, uint32_t len);
/* 在 QP i 上用一次 ibv_post_send 投递 n 个 WR（n = 1 是一个 WR；n > 1 是链表，1 ≤ n ≤ MAX_POST_LIST，options.h） */
int post_send(struct rdma_conn *conn, int i, const struct send_req *reqs, int n);
/* 轮询 n 个完成，带超时；任何 WC 错误都打印状态与提示并返回 -1 */
int poll_completions(struct rdma_conn *conn, int n, struct ibv_wc *wcs);

/* 数据面的课：步骤15 的接收 WR，发送 WR 的公共部分，RDMA WRITE/READ 的对端地址和 rkey，原子操作的四个值 */
LESSON void recv_wr_for(const struct rdma_conn *conn, int i, void *addr, uint32_t len, struct ibv_recv_wr *wr,
			struct ibv_sge *sge);
LESSON void send_wr_for(const struct rdma_conn *conn, int i, const struct send_req *req, struct ibv_send_wr *wr,
			struct ibv_sge *sge);
LESSON void rdma_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr);
LESSON void atomic_wr_for(const struct rdma_conn *conn, const struct send_req *req, struct ibv_send_wr *wr);
/* 数据面的课：取到的一个完成——成功了吗、是不是本端这个 QP 的（--srq 的接收另有规则，见 rdma_common.c 的 check_wc） */
enum wc_verdict { WC_MINE = 0, WC_FAILED = 1, WC_NOT_MINE = 2 };
LESSON enum wc_verdict wc_verdict_for(const struct rdma_conn *conn, const struct ibv_wc *wc);

/* 一个 send_req → 一个 ibv_send_wr（用上面的课；sge 由调用者提供，生命期要覆盖 ibv_post_send）。基准测试在计时之前用它建好 WR */
void build_wr(struct rdma_conn *conn, int i, const struct send_req *req, struct ibv_send_wr *wr, struct ibv_sge *sge);
/* 取出的 r 个完成：告诉插桩，检查状态（错误时打印状态与提示），按硬件规则还发送队列的槽；有错返回 -1 */
int reap_wcs(struct rdma_conn *conn, struct ibv_wc *wcs, int r);
/* poll_cq_batch 取到了东西（r ≠ 0）之后：r < 0 打印出错；否则 reap_wcs，返回 r 或 -1 */
int poll_cq_took(struct rdma_conn *conn, struct ibv_wc *wcs, int r);
/*
 * 取出 CQ 里现有的完成（最多 max 个，可能是 0 个），不等待；任何 WC 错误都打印并返回 -1。
 * 内联：忙等时绝大多数是空轮询，一圈只有 ibv_poll_cq 本身（基准测试的计时循环，docs/dev/bench-records.md）
 */
static inline int poll_cq_batch(struct rdma_conn *conn, struct ibv_wc *wcs, int max)
{
	int r = ibv_poll_cq(conn->cq, max, wcs);

	return r == 0 ? 0 : poll_cq_took(conn, wcs, r);
}

/* 清理一条连接的一步：销毁哪一种对象（课 teardown_order_for 排顺序，conn_destroy 照着做） */
enum teardown { TD_QPS = 0, TD_SRQ, TD_AH, TD_CQ_EVENTS, TD_CQ, TD_CHANNEL, TD_MR, TD_COUNT };
/* 最后一步：这条连接的对象按什么顺序销毁，写进 order（至少 TD_COUNT 项），返回个数 */
LESSON int teardown_order_for(const struct rdma_conn *conn, enum teardown *order);

/* 最后一个步骤“清理资源”：先 conn_destroy，再 device_destroy，最后 ctrl_release（CM 的 cm_id 与事件通道） */
void destroy_resources(struct rdma_device *dev, struct rdma_conn *conn);

#endif
