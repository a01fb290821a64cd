#!/usr/bin/env bash
# tests/kernels/run.sh - make test-kernels：实验室测试的代表子集，在 Debian 的 5.10、6.1、6.12 上各跑一遍。
#   tests/kernels/run.sh [系列...]      默认三个都跑；例如 tests/kernels/run.sh 5.10
# 子集（每种实验室测试文件都有代表；按内核不同的行为都在里面）：
#   单机 bats，一次启动（tests/kernels/subset.t）：pair.bats 4 个、ops.bats 5 个（含原子操作和错误的 rkey）、
#     cm.bats 5 个（含每种操作、CM 的输出、没人监听、地址不存在、对端消失）、asan.bats 2 个、scripts.bats 2 个、
#     bench.bats 1 个、many.bats 1 个、combos.bats 1 个
#   两台虚拟机：60-two-vms-pair.t（demo）、62-two-vms-paths.t（错网卡、MTU、防火墙 → RETRY_EXC_ERR）、
#     tests/kernels/readme-steps.sh（LAB_RXE=none，照 README 自己 modprobe rdma_rxe、rdma link add；make test 里是 70-stock-readme.t）
#   抓包和解码：38-lab-trace.t；终端里的 shell：34-lab-shell.t；实验室本身：30-lab-smoke.t
#   不在子集里：36-lab-docs.t（文档摘录按定义就是默认内核 6.1 的输出）、63-two-vms-cm.t（--cm 已由 cm.bats
#     覆盖）、其余 bats 用例（与内核无关的参数和错误路径，make test 在 6.1 上全跑）
# 每个内核的完整 TAP 在 logs/test-kernels-<系列>.log；最后打印每个内核一行的摘要。缺缓存时先 lab/setup（root）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
# shellcheck source=lab/kernel.bash
. lab/kernel.bash
KERNELS=("$@")
((${#KERNELS[@]})) || KERNELS=("${LAB_KERNELS[@]}")
for k in "${KERNELS[@]}"; do lab_kernel_check "$k" || exit 2; done
FILES=(tests/30-lab-smoke.t tests/kernels/subset.t tests/60-two-vms-pair.t tests/62-two-vms-paths.t
       tests/34-lab-shell.t tests/kernels/readme-steps.sh tests/38-lab-trace.t)
mkdir -p logs
summary=()
rc=0
for k in "${KERNELS[@]}"; do
    log=logs/test-kernels-$k.log
    t0=$SECONDS
    echo "========== LAB_KERNEL=$k =========="
    if ! LAB_KERNEL=$k bash lab/setup >"$log" 2>&1; then
        echo "LAB_KERNEL=$k: lab/setup 失败（$log）"; summary+=("$k: lab/setup failed"); rc=1; continue
    fi
    krc=0
    # prove 的输出进管道时 perl 默认攒满 4 KB 才写：和 tests/prove-all.sh 一样加 $| = 1
    LAB_KERNEL=$k perl -MApp::Prove -e '$| = 1; my $app = App::Prove->new; $app->process_args(@ARGV); exit($app->run ? 0 : 1)' \
        -- --exec bash --timer --verbose "${FILES[@]}" 2>&1 | tee -a "$log" \
        | grep --line-buffered -vE '^(ok [0-9]+|1\.\.[0-9]+$)' || true
    krc=${PIPESTATUS[0]}
    ((krc == 0)) || rc=1
    res=$(grep -E '^Result: ' "$log" | tail -1)
    tests=$(grep -E '^Files=' "$log" | tail -1 | sed 's/,  *[0-9]* wallclock.*//')
    fails=$(grep -cE '^not ok' "$log")
    kver=$(grep -m1 -oE 'lab: kernel: Linux [^ ]+' "$log" | sed 's/lab: kernel: Linux //')
    summary+=("$k (${kver:-?}): ${res#Result: } — $tests, $fails not ok, $(((SECONDS - t0) / 60)) min $(((SECONDS - t0) % 60)) s")
done
echo
echo "========== make test-kernels 摘要 =========="
printf '%s\n' "${summary[@]}"
exit "$rc"
