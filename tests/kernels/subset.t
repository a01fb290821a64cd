#!/usr/bin/env bash
# tests/kernels/subset.t - make test-kernels 的单机部分：一次启动，8 个 bats 文件里各挑几个用例（TAP）。
# 挑的是按内核可能不同的行为（原子操作、错误的 rkey、CM、MTU、RNR/重试、计数器、valgrind/ASan 下的清理），
# 每个文件至少一个；名字前缀列在下面（bats -f 的正则，按用例名匹配）。由 tests/kernels/run.sh 用 LAB_KERNEL 调用。
set -euo pipefail
cd "$(dirname "$0")/../.."
PICK=(
    # pair.bats
    '^num_qp 4 ' '^every step title appears' '^different NIC MTUs' '^valgrind: server and client run clean'
    # ops.bats
    '^write_imm: ' '^fetch_add: ' '^cmp_swap: ' '^interactive session driven by a pipe'
    # cm.bats
    '^cm: every operation' '^cm: the output shows' '^cm: nobody listening' '^cm: address nobody has' '^cm: the peer vanishing'
    # asan.bats
    '^asan: failure paths' '^asan: a planted heap overflow'
    # scripts.bats
    '^健康的实验室: diagnose' '^坏掉: ip link set veth0 down'
    # bench.bats / many.bats / combos.bats
    '^bench lat: ' '^8 clients at once' '^--cm × --cq event'
)
filter=$(IFS='|'; echo "${PICK[*]}")
# asan.bats 的最后一个用例要一个故意越界的小程序（同 tests/33-lab-asan.t）
printf '#include <stdlib.h>\nint main(void){volatile char *p=malloc(8);p[8]=1;free((void*)p);return 0;}\n' |
    clang -x c -fsanitize=address,undefined -g -o build/asan/planted-overflow -
exec lab/run bats --tap --timing -f "$filter" tests/lab/pair.bats tests/lab/ops.bats tests/lab/cm.bats \
    tests/lab/asan.bats tests/lab/scripts.bats tests/lab/bench.bats tests/lab/many.bats tests/lab/combos.bats
