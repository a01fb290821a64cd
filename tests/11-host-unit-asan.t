#!/usr/bin/env bash
# C 单元测试的 ASan+UBSan 版本（build/asan/tests/unit_tests，make asan）：任何 sanitizer 报告都让进程非零退出
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
CMOCKA_MESSAGE_OUTPUT=TAP exec build/asan/tests/unit_tests
