#!/usr/bin/env bash
# 单边/原子/交互操作在 Soft-RoCE 实验室中的测试，TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing tests/lab/ops.bats
