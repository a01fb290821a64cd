/*
 * hints.h - 把工作完成(WC)的错误状态翻译成“原因 + 该查什么”（纯逻辑）
 */
#ifndef ROCE_HINTS_H
#define ROCE_HINTS_H

#include <infiniband/verbs.h>

/* 返回中文提示；未知状态返回通用提示，从不返回 NULL */
const char *wc_status_hint(enum ibv_wc_status status);

/*
 * ibv_get_device_list() 返回 NULL 时按 errno 给提示。ENOSYS(38) 的真实含义：
 * libibverbs 打不开 /sys/class/infiniband_verbs —— 内核根本没有 RDMA，或者有 RDMA 设备但 ib_uverbs 没加载。
 */
const char *device_list_hint(int err);

#endif
