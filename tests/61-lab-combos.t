#!/usr/bin/env bash
# 不同功能的选项组合（--cm、--cq event、--bench、--trace、--clients）在 Soft-RoCE 实验室中，TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing tests/lab/combos.bats
