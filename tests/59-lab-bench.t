#!/usr/bin/env bash
# --bench lat|bw 与 --cq event 在 Soft-RoCE 实验室中的冒烟测试（小轮数，不断言快慢），TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing tests/lab/bench.bats
