#!/usr/bin/env bash
# tests/stock/cloud.sh - 云内核（TAP；make test-cloud 运行，不在 make test 里）：一对 Debian 12 的云内核镜像（lab/stock-images debian12-cloud：
# linux-image-cloud-amd64，分区过的磁盘上它自己的 GRUB，grub.cfg 由 Debian 的 update-grub 生成），lab/stock-run --flavour cloud 从磁盘启动，
# 所以重启后跑哪个内核是 GRUB 选的。虚拟机里 tests/lab/stock-cloud.sh 以 learner 原样运行：README 的快速开始（停在 modprobe）、
# ./diagnose.sh、QUICKFIX 的 cloud-kernel 块（以 sudo reboot 结束）；重启后看 uname -r、快速开始再来一次、一对、./diagnose.sh。
#   prove --exec bash tests/stock/cloud.sh
#   STOCK_CLOUD_OUT=文件  不启动虚拟机，只重新判断一次以前存下的输出（logs/stock-cloud.out）
# 没有镜像时：STOCK_REQUIRE=1（make test-cloud、make test-stock）或 CI=true 时算失败并说出命令，否则跳过。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
IMAGE=debian12-cloud

out=${STOCK_CLOUD_OUT:-}
if [[ -z $out ]]; then
    if ! bash lab/stock-images --check "$IMAGE" || ! bash lab/stock-repo --check bookworm; then
        if [[ ${CI:-} == true || ${STOCK_REQUIRE:-0} == 1 ]]; then
            echo "1..1"
            echo "not ok 1 - stock $IMAGE image and the bookworm mirror disk in the cache: missing; run sudo make stock-images STOCK=$IMAGE"
            exit 0
        fi
        echo "1..0 # SKIP 没有 $IMAGE 镜像或 bookworm 的软件源磁盘: sudo make stock-images STOCK=$IMAGE"
        exit 0
    fi
    mkdir -p logs
    out=logs/stock-cloud.out
    SECONDS=0
    # 两台各装一次通用内核（update-initramfs 在 TCG 下几分钟）再重启：总超时放宽
    LAB_TIMEOUT=${LAB_TIMEOUT:-3600} lab/stock-run --distro debian12 --flavour cloud tests/lab/stock-cloud.sh >"$out" 2>&1
    took=$SECONDS
fi
want=()
for v in 0 1; do want+=("cloud-image-vm$v" "quickstart-fails-vm$v" "diagnose-cloud-vm$v" "install-only-vm$v" "cloud-fix-vm$v"); done
for v in 0 1; do want+=("after-fix-kernel-vm$v" "after-fix-upgrade-vm$v" "after-fix-quickstart-vm$v"); done
want+=(after-fix-server after-fix-client after-fix-diagnose-vm0 after-fix-diagnose-vm1)
echo "1..${#want[@]}"
[[ -n ${took:-} ]] && echo "# lab/stock-run --flavour cloud tests/lab/stock-cloud.sh: $took s（输出: $out）"
grep -E '^(STAND-IN|SUBSTITUTE|BOOT|TIMING) ' "$out" | sed 's/^/# /'
results_to_tap "$out" 0 "${want[@]}"
