#!/usr/bin/env bash
# tests/64-lab-stock.t - README 原样可用，在“原版” Debian 12 上、以普通用户 learner（TAP 输出；一对虚拟机，开机一次）
#   镜像来自 make stock-images（mmdebstrap：Debian 自己的内核和 initramfs、systemd、sudo、learner、nftables 服务未启用且规则集为空），
#   lab/stock-run 从缓存启动一对，tests/lab/stock-readme.sh 在两台里按 README 标记的顺序，以 learner 在登录 shell 里原样运行
#   每一块（sudo 只在 README 写了的地方）。harness 的替身（网络地址、NOPASSWD、代码树）和占位符替换（eth0 → 真实网卡名）
#   都打印成 TAP 注释。没有镜像时跳过；CI=true 时没有镜像算失败。
#   TODO（自动失效）：README 现在的防火墙块（nft insert rule inet filter …）在空规则集上失败（没有 inet filter 表）；
#   issue 36 重写这一块。块里还是这句、且执行前规则集为空时，这一项标 TODO，不让 make test 变红；块改了就是普通的测试。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
STEPS=tests/docs/readme-steps.sh
# 哪个镜像：debian12（默认，make test）| debian13（make test-stock STOCK="debian12 debian13"）；
# 哪个变体：plain（Debian 发的样子，默认）| nftdrop（nftables.service 启用、input policy drop；make test-stock）
#   | ufw（单独的镜像 debian12-ufw：Debian 12 的包做成 Ubuntu 的样子，netplan + systemd-networkd、ufw 启用；make test-stock）
D=${STOCK_DISTRO:-debian12}
F=${STOCK_FLAVOUR:-plain}
# 变体 ufw 是单独的镜像（debian12-ufw）；管事的防火墙是 ufw，README 的防火墙块按它选（tests/docs/readme-steps.sh 的 firewall=）
IMAGE=$D FW=nft
[[ $F == ufw ]] && IMAGE=$D-ufw FW=ufw
if [[ ! -r lab/stock/$IMAGE.packages ]]; then
    echo "1..0 # SKIP $D 没有变体 $F（没有 lab/stock/$IMAGE.packages）"
    exit 0
fi

if ! bash lab/stock-images --check "$IMAGE"; then
    if [[ ${CI:-} == true ]]; then
        echo "1..1"
        echo "not ok 1 - stock $IMAGE image in the cache ($(bash lab/stock-images --path "$IMAGE")): missing; run sudo make stock-images STOCK=$IMAGE (.ci/run does debian12)"
        exit 0
    fi
    echo "1..0 # SKIP 没有原版 $IMAGE 镜像: sudo make stock-images STOCK=$IMAGE"
    exit 0
fi

# 期望的结果名：跟着 README 的标记算（README 改了顺序或块，这里跟着变）
want=(stock-image-vm0 stock-image-vm1)
mapfile -t marks < <(bash "$STEPS" list "$FW")
for ((m = 0; m < ${#marks[@]}; m++)); do
    IFS=$'\t' read -r name where <<<"${marks[$m]}"
    case $where in
        both) want+=("$name-vm0" "$name-vm1") ;;
        vm0)
            IFS=$'\t' read -r _ nwhere <<<"${marks[$((m + 1))]:-}"
            if [[ $nwhere == vm1 ]]; then
                n=$(bash "$STEPS" raw "$name" | wc -l)
                for ((i = 0; i < n; i++)); do want+=("pair-$i-server" "pair-$i-client"); done
                m=$((m + 1))
            else
                want+=("$name-vm0")
            fi
            ;;
        vm1) want+=("$name-vm1") ;;
    esac
done
want+=(client-4791-needed machine-ids-differ)
# STOCK_REBOOT=1（make test-stock）：两台重启后再看一次（覆盖层跨过重启）
# 重启后：README 的持久化（rxe0.service、firewall-save / ufw）让 rxe0 和放行 4791 的规则回来，README 的第一对再跑一次
[[ ${STOCK_REBOOT:-0} == 1 ]] && want+=(after-reboot-vm0 after-reboot-vm1 after-reboot-pair-server after-reboot-pair-client)
echo "1..${#want[@]}"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
LAB_REBOOT=${STOCK_REBOOT:-0} lab/stock-run --distro "$D" --flavour "$F" tests/lab/stock-readme.sh >"$out" 2>&1
# 每一个替身和替换都打印出来
grep -E '^(STAND-IN|SUBSTITUTE) ' "$out" | sed 's/^/# /'

old_fw=0
bash "$STEPS" raw firewall-nft 2>/dev/null | grep -q '^sudo nft insert rule inet filter input' && old_fw=1
n=0 dumped=0
for name in "${want[@]}"; do
    n=$((n + 1))
    line=$(grep -m1 "^RESULT $name " "$out")
    if [[ $line == "RESULT $name ok "* ]]; then
        echo "ok $n - $name: ${line#RESULT "$name" ok }"
    elif [[ $name == firewall-nft-vm[01] && $old_fw == 1 && $line == *"（这一块之前规则集是空的）"* ]]; then
        echo "not ok $n - $name: ${line:-没有结果} # TODO README 的防火墙块在空的 nftables 规则集上失败（没有 inet filter 表），issue 36 重写它"
    else
        echo "not ok $n - $name: ${line:-没有结果}"
        ((dumped++)) || sed 's/^/# /' "$out"
    fi
done
