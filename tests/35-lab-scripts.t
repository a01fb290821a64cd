#!/usr/bin/env bash
# show_gids.sh / diagnose.sh 在 Soft-RoCE 实验室（qemu 里的真实 rdma_rxe）中的测试，TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
exec lab/run bats --tap --timing tests/lab/scripts.bats
