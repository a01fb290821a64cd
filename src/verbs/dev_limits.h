/*
 * dev_limits.h - 选项对设备能力的检查（纯逻辑，可单元测试）
 *
 * 选项自己的上限（options.c）是本程序定的；设备还有自己的上限，由 ibv_query_device / ibv_query_port 读出：
 *   max_qp_wr  每个QP的队列最多几个 WR       ← --tx-depth（基准测试）或普通模式的固定深度
 *   max_cqe    一个 CQ 最多几个 WC 项        ← -q × (发送深度 + 接收深度)：所有QP共享一个 CQ
 *   max_qp     最多几个QP                    ← -q
 *   max_msg_sz 端口上一条消息最多几个字节    ← --size（--sweep 时是最大的 8 MiB）
 * 超出时 ibv_create_cq / ibv_create_qp / ibv_post_send 才会失败，而且错误码（EINVAL/ENOMEM）说不出是哪一项。
 * 所以在步骤3（查询端口）之后、创建任何资源之前先对一遍，说出是哪个上限、该改哪个选项。
 * rxe 的上限很宽（max_qp_wr 1048576，max_cqe 32767）；硬件网卡的往往紧得多。
 */
#ifndef ROCE_DEV_LIMITS_H
#define ROCE_DEV_LIMITS_H

#include <stddef.h>
#include <infiniband/verbs.h>

#include "cli/options.h"

/*
 * --srq 的 SRQ 要多深：普通模式每轮每个QP只在途 1 个接收，2×QP数就够；--bench 时像 perftest --use-srq 的 rx_depth：
 * 一个QP的接收队列深度给全部QP共用（QP 多时发送方可能碰到 RNR NAK——这正是 SRQ 要按在途消息数定深度的地方）
 */
uint32_t srq_depth_wanted(const struct options *o, const struct queue_caps *q);

/*
 * 都在上限内返回 0；否则返回 -1，err 里写明哪一项超了、上限是多少、改哪个选项。
 * --srq 时还对 SRQ 的三个上限：max_srq（0 = 设备不支持 SRQ）、max_srq_wr（SRQ 深度）、max_srq_sge（每个接收 1 个 SGE）
 */
int limits_check(const struct options *o, const struct ibv_device_attr *dev,
		 const struct ibv_port_attr *port, char *err, size_t errlen);

/*
 * 缓冲区要锁在物理内存里（ibv_reg_mr 会 pin 住页）：超过物理内存的一半就不试了，
 * 否则机器先开始换页、ibv_reg_mr 再以 ENOMEM 失败。phys 为 0（读不到）时不查。放得下返回 0
 */
int limits_memory(size_t len, size_t phys);
/* 步骤6 注册之前：按这台机器的物理内存查 limits_memory（超了打印错误，返回 -1）；超过 ulimit -l 时只警告 */
int limits_check_memory(size_t len);

#endif
