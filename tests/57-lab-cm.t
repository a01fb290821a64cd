#!/usr/bin/env bash
# --cm（librdmacm 建连）在单机 Soft-RoCE 实验室中：所有操作 × 1/4/16 个QP、交互模式、连接过程的输出、
# valgrind 的慢用例（标 memcheck）在 make memcheck 里；这里只跑一个 valgrind 冒烟（pair.bats）
# 失败路径（REJECTED、ENODEV、解析超时、只有一端 --cm、参数不一致、对端消失）和 ASan 版本，TAP 输出（一次启动）
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/cm.bats
