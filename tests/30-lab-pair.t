#!/usr/bin/env bash
# 核心服务端/客户端在 Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）中的测试，TAP 输出
# valgrind 的慢用例（标 memcheck）在 make memcheck 里；这里只跑一个 valgrind 冒烟（pair.bats）
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/pair.bats
