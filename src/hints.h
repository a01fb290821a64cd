/*
 * hints.h - 把工作完成(WC)的错误状态翻译成“原因 + 该查什么”（纯逻辑）
 */
#ifndef ROCE_HINTS_H
#define ROCE_HINTS_H

#include <infiniband/verbs.h>

/* 返回中文提示；未知状态返回通用提示，从不返回 NULL */
const char *wc_status_hint(enum ibv_wc_status status);

#endif
