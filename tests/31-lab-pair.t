#!/usr/bin/env bash
# 核心服务端/客户端（pair.bats）、单边/原子/交互操作（ops.bats）和 UD/SRQ（qptypes.bats）在 Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）中，
# 一次启动，TAP 输出。valgrind 的用例（标 memcheck）在 make memcheck 里；make test 里的内存检查是 ASan+UBSan（33-lab-asan.t）
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/pair.bats tests/lab/ops.bats tests/lab/qptypes.bats
