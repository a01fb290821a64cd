#!/usr/bin/env bash
# --bench lat|bw 与 --cq event 在 Soft-RoCE 实验室中的冒烟测试（小轮数，不断言快慢），TAP 输出
# valgrind 的慢用例（标 memcheck）在 make memcheck 里；这里只跑一个 valgrind 冒烟（pair.bats）
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing --filter-tags '!memcheck' tests/lab/bench.bats
