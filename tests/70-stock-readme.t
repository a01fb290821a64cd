#!/usr/bin/env bash
# tests/70-stock-readme.t - README 原样可用，在“原版” Debian 12 上、以普通用户 learner（TAP 输出；一对虚拟机，开机一次）
#   镜像来自 make stock-images（mmdebstrap：Debian 自己的内核和 initramfs、systemd、sudo、learner、nftables 服务未启用且规则集为空），
#   lab/stock-run 从缓存启动一对，tests/lab/stock-readme.sh 在两台里按 README 标记的顺序，以 learner 在登录 shell 里原样运行
#   每一块（sudo 只在 README 写了的地方）。harness 的替身（网络地址、NOPASSWD、代码树）和占位符替换（eth0 → 真实网卡名）
#   都打印成 TAP 注释。没有镜像时跳过；CI=true 或 STOCK_REQUIRE=1（make test-stock）时没有镜像算失败。
#   README 第 1–6 步之前先原样运行 README 顶上的快速开始（标记 quickstart；包从 lab/stock-repo 的软件源磁盘装，打印成 STAND-IN）。
#   它代替了 tests/56-lab-readme-steps.t（现在只在 make test-kernels 里，tests/kernels/readme-steps.sh）：那里独有的检查搬到了这里——
#   README 的标记和顺序（第 1 项）、本机的 rxe0 被自动选择、plain 上 README 的 nft 块之后改成默认丢弃、存下的规则原样恢复。
#   （原来的 TODO——README 的 nft 块在空规则集上失败——已失效：块现在自己建表和链；这个例外它会把 plain 上防火墙块真的失败也标成 TODO，删掉了。）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
STEPS=tests/docs/readme-steps.sh
# 哪个镜像：debian12（默认，make test）| debian13（make test-stock 两个都跑）；
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
    if [[ ${CI:-} == true || ${STOCK_REQUIRE:-0} == 1 ]]; then
        echo "1..1"
        echo "not ok 1 - stock $IMAGE image in the cache ($(bash lab/stock-images --path "$IMAGE")): missing; run sudo make stock-images STOCK=$IMAGE (.ci/run does debian12)"
        exit 0
    fi
    echo "1..0 # SKIP 没有原版 $IMAGE 镜像: sudo make stock-images STOCK=$IMAGE"
    exit 0
fi

# 期望的结果名：跟着 README 的标记算（README 改了顺序或块，这里跟着变）
want=(stock-image-vm0 stock-image-vm1)
# README 的快速开始（标记 quickstart）：learner 原样运行两台的行、没有路由时的两句、服务端/客户端和 README 引的最后几行
want+=(quickstart-vm0 quickstart-vm1 quickstart-noroute-vm0 quickstart-noroute-vm1)
# 一对只在快速开始打开了防火墙的变体上（plain 没有规则，ufw 有快速开始的 ufw 那一行）；nftdrop 要先走第 5 步
[[ $F == nftdrop ]] || want+=(quickstart-server quickstart-client)
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
# 测试自己在 README 的块之后多看的事（tests/lab/stock-readme.sh 的 after_*；原来在 tests/56-lab-readme-steps.t）
want+=(own-rxe0-vm0 own-rxe0-vm1 diagnose-fw-before-vm0 diagnose-fw-before-vm1 diagnose-fw-after-vm0 diagnose-fw-after-vm1)
[[ $F == plain ]] && want+=(default-deny-vm0 default-deny-vm1)
[[ $FW == nft ]] && want+=(firewall-restore-vm0 firewall-restore-vm1)
# verbs-check（issue 57）只用 README 装的东西：两边 ibv_rc_pingpong -g 1 干净，复制命令原样运行后 --pair 干净
want+=(verbs-check-vm0 verbs-check-vm1 verbs-check-pair)
want+=(client-4791-needed machine-ids-differ)
# STOCK_REBOOT=1（make test-stock）：两台重启后再看一次（覆盖层跨过重启）
# 重启后：README 的持久化（rxe0.service、firewall-save / ufw）让 rxe0 和放行 4791 的规则回来，README 的第一对再跑一次
[[ ${STOCK_REBOOT:-0} == 1 ]] && want+=(after-reboot-vm0 after-reboot-vm1 after-reboot-pair-server after-reboot-pair-client)
echo "1..$((${#want[@]} + 1))"

# 第 1 项（宿主机上，不开机）：README 的标记齐全、顺序对（原来在 tests/56-lab-readme-steps.t）：
# 网络和克隆（会重启）在建 rxe 之前，建 rxe 在持久化和防火墙之前，防火墙在运行之前；服务端和客户端的命令一样多
mlist=$(bash "$STEPS" list | tr '\t' ' ' | tr '\n' ',')
order=$(bash "$STEPS" list | cut -f1 | tr '\n' ' ')
nsrv=$(bash "$STEPS" raw server | wc -l) ncli=$(bash "$STEPS" raw client | wc -l)
bad=""
for m in "quickstart skip" "install skip" "build skip" "soft-roce both" "persist-rxe both" "firewall-nft both" "firewall-save both" "server vm0" "client vm1" \
    "ubuntu-modules not-in-lab" "firewall-other other-firewall" "clone not-in-lab" "static-netplan not-in-lab" \
    "static-nmcli not-in-lab" "static-ifupdown not-in-lab"; do
    [[ ,$mlist == *",$m,"* ]] || bad+=" 缺「$m」"
done
[[ $order == *"clone "*"static-ifupdown "*"soft-roce "*"persist-rxe "*"firewall-nft "*"firewall-save "*"server "* ]] || bad+=" 顺序不对"
((nsrv >= 2 && nsrv == ncli)) || bad+=" 服务端 $nsrv 条、客户端 $ncli 条"
if [[ -z $bad ]]; then
    echo "ok 1 - README 的标记齐全、顺序对（网络和克隆 → soft-roce → persist-rxe → 防火墙 → 运行），服务端 $nsrv 条、客户端 $ncli 条"
else
    echo "not ok 1 - README 的标记齐全、顺序对:$bad"
    echo "# 标记: $mlist"
    echo "# 顺序: $order"
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
LAB_REBOOT=${STOCK_REBOOT:-0} lab/stock-run --distro "$D" --flavour "$F" tests/lab/stock-readme.sh >"$out" 2>&1
# 每一个替身和替换都打印出来
grep -E '^(STAND-IN|SUBSTITUTE|TIMING) ' "$out" | sed 's/^/# /'

results_to_tap "$out" 1 "${want[@]}"
