#!/usr/bin/env bash
# ASan+UBSan 版本（build/asan/，make asan）在 Soft-RoCE 实验室中运行：六种操作、交互模式、失败路径，TAP 输出
set -euo pipefail
cd "$(dirname "$0")/.."
# 一个故意堆越界的小程序，证明报告真的会被收集到（asan.bats 最后一个用例）；在宿主机编译，TCG 里编译太慢
printf '#include <stdlib.h>\nint main(void){volatile char *p=malloc(8);p[8]=1;free((void*)p);return 0;}\n' |
    clang -x c -fsanitize=address,undefined -g -o build/asan/planted-overflow -
exec lab/run bats --tap --timing tests/lab/asan.bats
