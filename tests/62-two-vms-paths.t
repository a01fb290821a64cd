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
# 它把各场景的日志写到 logs/paths-*.log。
# make test 里 tests/36-lab-docs.t 先跑（编号在前），它的文档摘录要这些日志，所以同一个脚本它已经在两台虚拟机里跑过一次
# （tests/docs/update-excerpts.sh：输出 logs/excerpts/two-vms-paths.out，日志 logs/excerpts/paths-*.log）。
# LAB_REUSE_SINCE（tests/prove-all.sh 设的标记文件，这次 make test 开始时建的）在时，那一次的输出比标记新、比两个程序、
# 这个脚本和 lab/ 的启动脚本都新、每个场景都有 RESULT 行，就直接把它变成 TAP，不再开一次两台虚拟机（省下整个文件，约 45 秒）；
# 否则（单独运行这个文件、缺了哪一行、文件旧了）照旧自己跑
reuse=logs/excerpts/two-vms-paths.out
fresh() {
    local f name
    [[ -n ${LAB_REUSE_SINCE:-} && -f $LAB_REUSE_SINCE && -f $reuse ]] || return 1
    for f in "$LAB_REUSE_SINCE" build/rdma_server build/rdma_client tests/lab/two-vms-paths.sh tests/lab/peer.bash lab/run lab/guest.sh; do
        [[ $reuse -nt $f ]] || return 1
    done
    for name in "${want[@]}"; do grep -q "^RESULT $name " "$reuse" || return 1; done
}
rm -f logs/paths-*.log
if fresh; then
    echo "# 用 tests/36-lab-docs.t 在这次 make test 里跑过的一次（$reuse，$(date -r "$reuse" +%T)，同一个 build），不再开机"
    cp "$reuse" "$out"
    cp logs/excerpts/paths-*.log logs/ 2>/dev/null
else
    LAB_TOPOLOGY=two-vms lab/run tests/lab/two-vms-paths.sh >"$out" 2>&1
fi
results_to_tap "$out" 0 "${want[@]}"
