#!/usr/bin/env bash
# 两台虚拟机之间路径上的错误（RDMA 设备建错网卡、两个设备只有一个通往服务端、两端 MTU 不同、对端地址不存在、对端防火墙丢弃 UDP 4791），TAP 输出。
# 场景和断言在 tests/lab/two-vms-paths.sh 里（两台虚拟机里都运行它），这里把 RESULT 行变成 TAP。
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
out=$(mktemp)
trap 'rm -f "$out"' EXIT
want=(wrong-nic-auto wrong-nic-explicit wrong-nic-diagnose two-devices-fixed fixed-diagnose server-after-fix
      mtu-server mtu-client unreachable
      firewall-client firewall-diagnose firewall-fixed-client firewall-fixed-server)
echo "1..${#want[@]}"
# 它把各场景的日志写到 logs/paths-*.log；tests/36-lab-docs.t 的文档摘录直接用这一次的（EXCERPTS_REUSE_PATHS）
rm -f logs/paths-*.log
LAB_TOPOLOGY=two-vms lab/run tests/lab/two-vms-paths.sh >"$out" 2>&1
results_to_tap "$out" 0 "${want[@]}"
