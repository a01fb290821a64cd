#!/usr/bin/env bash
# tests/kernels/readme-steps.sh - README 的两台虚拟机步骤原样可用，在实验室的内核上（TAP 输出；两台虚拟机，约 2 分钟）
#   只在 make test-kernels 里（tests/kernels/run.sh：5.10、6.1、6.12 各一次）。以前是 make test 里的 tests/56-lab-readme-steps.t；
#   make test 里由 tests/70-stock-readme.t（原版 Debian 12、learner、sudo 照 README 写的）代替，这里独有的检查（标记和顺序、
#   本机的 rxe0、默认丢弃、保存的规则原样恢复）也搬过去了。这里留下的是“照 README 自己 modprobe、rdma link add”在每个内核上都行。
#   1. README 里标记了安装、编译、Soft-RoCE、防火墙、服务端、客户端这几步，服务端和客户端的命令一样多；
#      实验室做不出来的块（Ubuntu 的 linux-modules-extra、克隆机的 machine-id、三种静态地址、保存 nft 规则）
#      标成 not-in-lab，不执行；ufw/firewalld 的块标了 firewall=ufw，实验室（nft）不执行它（tests/70-stock-readme.t 的变体 ufw 执行）；网络和克隆的块在建 rxe 的块之前（克隆机要重启，重启会清掉 rxe0 和 nft insert 的规则）
#   2.. 在两台“刚装好、没有 RDMA 设备”的虚拟机里（LAB_RXE=none：只有 eth0，modprobe 可用）照 README 做：
#      每台自己 modprobe rdma_rxe、rdma link add rxe0 …、在空的规则集上开防火墙（README 的块自己建表和链，
#      之后测试把链改成默认拒绝），然后第 i 条服务端命令配第 i 条客户端命令，
#      两端都必须退出 0。执行规则（去掉 sudo、跳过 apt-get 和编译……）写在 tests/docs/readme-steps.sh 开头。
#   README 的 rxe0.service 块（persist-rxe）要 systemd，这里不执行（tests/70-stock-readme.t 在原版 Debian 上重启验证）。
#   README 的“保存规则”块改两处后执行（写到临时文件、不 enable 服务：虚拟机的 /etc 只读、没有 systemd），
#   清空规则集后用保存的文件恢复，规则必须一模一样；之后的一对对程序跑在恢复出来的规则上。
#   最后: 客户端那台重新丢弃 UDP 4791，一对 write 必须以 RETRY_EXC_ERR 失败（“两台都要开 4791”是真的）。
# 改坏 README 里这几块命令（比如 rdma link add 写错网卡、防火墙只在一台开 4791），这个测试就失败。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
STEPS=tests/docs/readme-steps.sh
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
out=$(mktemp)
trap 'rm -f "$out"' EXIT

mapfile -t srv < <("$STEPS" lines server)
mapfile -t cli < <("$STEPS" lines client)
want=(soft-roce-vm0 soft-roce-vm1 own-rxe0-vm0 own-rxe0-vm1 firewall-nft-vm0 firewall-nft-vm1 firewall-save-vm0 firewall-save-vm1)
for i in "${!srv[@]}"; do want+=("pair-$i-server" "pair-$i-client"); done
want+=(client-4791-needed)
echo "1..$((${#want[@]} + 1))"

marks=$("$STEPS" list | tr '\t' ' ' | tr '\n' ',')
bad=0
for m in "install skip" "build skip" "soft-roce both" "firewall-nft both" "server vm0" "client vm1" \
    "ubuntu-modules not-in-lab" "firewall-other other-firewall" "clone not-in-lab" "static-netplan not-in-lab" \
    "static-nmcli not-in-lab" "static-ifupdown not-in-lab" "firewall-save both" "persist-rxe both"; do
    [[ ,$marks == *",$m,"* ]] || bad=1
done
# 顺序: 网络和克隆（会重启）在建 rxe 之前，建 rxe 在防火墙之前，防火墙在运行之前
order=$("$STEPS" list | cut -f1 | tr '\n' ' ')
[[ $order == *"clone "*"static-ifupdown "*"soft-roce "*"firewall-nft "*"server "* ]] || bad=1
((${#srv[@]} >= 2 && ${#srv[@]} == ${#cli[@]})) || bad=1
if ((bad == 0)); then
    echo "ok 1 - README marks install/build (skipped), soft-roce, firewall-nft, server and client blocks, and the not-in-lab ones, clone before rxe; ${#srv[@]} server and ${#cli[@]} client commands"
else
    echo "not ok 1 - README marks install/build (skipped), soft-roce, firewall-nft, server and client blocks, and the not-in-lab ones, clone before rxe; ${#srv[@]} server and ${#cli[@]} client commands"
    echo "# 标记: $marks"
    echo "# 顺序: $order"
fi

LAB_TOPOLOGY=two-vms LAB_RXE=none \
    lab/run tests/lab/readme-steps-vm.sh >"$out" 2>&1
results_to_tap "$out" 1 "${want[@]}"
