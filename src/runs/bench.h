/*
 * bench.h - 基准测试（--bench lat|bw）：perftest 样式的延迟/带宽测量（bench.c）
 */
#ifndef ROCE_BENCH_H
#define ROCE_BENCH_H

#include "verbs/rdma_types.h"

/* 双方都到 RTS 并同步之后调用；按 --bench/--op/--size（或 --sweep）测量、计时后校验、打印表格 */
int run_bench(struct rdma_conn *conn);

#endif
