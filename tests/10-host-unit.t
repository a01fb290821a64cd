#!/usr/bin/env bash
# C 单元测试（cmocka，TAP 输出）：不需要 RDMA 设备
set -euo pipefail
cd "$(dirname "$0")/.."
CMOCKA_MESSAGE_OUTPUT=TAP exec build/tests/unit_tests
