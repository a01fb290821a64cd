#!/usr/bin/env bash
# --cm（librdmacm 建连，cm.bats）在单机 Soft-RoCE 实验室中：所有操作 × 16 个QP、交互模式、连接过程的输出、
# 失败路径（REJECTED、ENODEV、解析超时、只有一端 --cm、参数不一致、对端消失）和 ASan 版本；
# 以及不同功能的选项组合（combos.bats：--cm、--cq event、--bench、--trace、--clients）。一次启动，TAP 输出。
# valgrind 的用例（标 memcheck）在 make memcheck 里
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/cm.bats tests/lab/combos.bats
