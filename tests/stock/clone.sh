#!/usr/bin/env bash
# tests/stock/clone.sh - 克隆的那一例（TAP；make test-stock 运行，不在 make test 里）：README 第 2 步“从克隆来的两台虚拟机”。
# 两台 Ubuntu 样子的 Debian 12（镜像 debian12-ufw：netplan + systemd-networkd）的克隆，MAC 不同、machine-id 相同，
# 接在 qemu 的组播集线器上，第三台（实验室的小虚拟机）运行 dnsmasq（lab/stock-run --clone，tests/lab/stock-clone.sh、stock-hub.sh）：
#   1. 两台用 netplan 的 dhcp4 拿到同一个地址（networkd 的 DHCP client id = IAID + DUID，DUID 由 machine-id 算出：
#      systemd.network(5) ClientIdentifier= 默认 duid，networkd.conf(5) DUIDType= 默认 vendor，“hashed contents of machine-id”）；
#   2. 克隆出来的那台（VM1）以 learner 原样运行 README 的 clone 块（新 machine-id + sudo reboot）；
#   3. 重启后两台的地址不同了。
#   prove --exec bash tests/stock/clone.sh
#   STOCK_CLONE_OUT=文件  不启动虚拟机，只重新判断一次以前存下的输出（logs/stock-clone.out）
# 没有镜像时跳过；CI=true 时算失败。约 2–4 分钟（三台虚拟机，VM1 重启一次）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
IMAGE=debian12-ufw

out=${STOCK_CLONE_OUT:-}
if [[ -z $out ]]; then
    if ! bash lab/stock-images --check "$IMAGE"; then
        if [[ ${CI:-} == true || ${STOCK_REQUIRE:-0} == 1 ]]; then
            echo "1..1"
            echo "not ok 1 - stock $IMAGE image in the cache: missing; run sudo make stock-images STOCK=$IMAGE"
            exit 0
        fi
        echo "1..0 # SKIP 没有原版 $IMAGE 镜像: sudo make stock-images STOCK=$IMAGE"
        exit 0
    fi
    if ! command -v dnsmasq >/dev/null; then
        [[ ${CI:-} == true ]] && { echo "1..1"; echo "not ok 1 - dnsmasq on the host (sudo bash lab/setup installs dnsmasq-base)"; exit 0; }
        echo "1..0 # SKIP 宿主机上没有 dnsmasq（sudo bash lab/setup 装 dnsmasq-base）"
        exit 0
    fi
    mkdir -p logs
    out=logs/stock-clone.out
    SECONDS=0
    lab/stock-run --distro debian12 --flavour ufw --clone tests/lab/stock-clone.sh >"$out" 2>&1
    echo "# lab/stock-run --flavour ufw --clone tests/lab/stock-clone.sh: $SECONDS s（输出: $out）"
fi
grep -E '^(STAND-IN|CLONE) ' "$out" | sed 's/^/# /'

want=(dhcp-vm0 dhcp-vm1 clone-same-address clone-block-vm1 clone-fixed clone-vm0-kept)
echo "1..$((${#want[@]} + 1))"
results_to_tap "$out" 0 "${want[@]}"
n=${#want[@]}
# dnsmasq 那一边：两台的 MAC 都在它的日志里拿到过 DHCPACK，client id 一样的那两次给的是同一个地址
n=$((n + 1))
acks=$(grep -E 'DHCPACK\(eth0\) 10\.11\.0\.[0-9]+ 52:54:00:0b:00:0[12]' "$out" | sed -E 's/.*DHCPACK\(eth0\) ([0-9.]+) ([0-9a-f:]+).*/\1 \2/' | sort -u)
if [[ $(grep -c ' 52:54:00:0b:00:01$' <<<"$acks") -ge 1 && $(grep -c ' 52:54:00:0b:00:02$' <<<"$acks") -ge 1 ]]; then
    echo "ok $n - hub: dnsmasq 的 DHCPACK（地址 MAC）: $(tr '\n' ',' <<<"$acks")"
else
    echo "not ok $n - hub: dnsmasq 的日志里没有两台的 DHCPACK: $(tr '\n' ',' <<<"$acks")"
    ((RESULTS_DUMPED++)) || sed 's/^/# /' "$out"
fi
