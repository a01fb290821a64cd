#!/usr/bin/env bash
# 用户的“两台 Soft-RoCE 虚拟机”场景：服务端在 VM0，客户端在 VM1（qemu socket 网卡相连），TAP 输出
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "1..3"
rc=0
LAB_TOPOLOGY=two-vms LAB_PASSENV=DEMO_ARGS DEMO_ARGS="-q 2 --op write_imm --size 4K --iters 2" \
    lab/run lab/demo.sh >"$out" 2>&1 || rc=$?
if [[ $rc == 0 ]]; then echo "ok 1 - two VMs: demo pair exits 0"; else echo "not ok 1 - two VMs: demo pair exits 0 (rc=$rc)"; sed 's/^/# /' "$out"; fi
if grep -qF 'QP[1] 完成: RECV_RDMA_WITH_IMM imm_data=0x00020001（第2轮, QP1）byte_len=4096' "$out"; then
    echo "ok 2 - VM0 server got the immediate and verified the data"
else
    echo "not ok 2 - VM0 server got the immediate and verified the data"
fi
if grep -qF '全部 2 轮 × 2 个QP 完成并校验通过' "$out" && grep -qF 'GID 0000:0000:0000:0000:0000:ffff:0a0b:0002 (10.11.0.2)' "$out"; then
    echo "ok 3 - VM1 client finished; peers addressed each other by their IPv4 GIDs"
else
    echo "not ok 3 - VM1 client finished; peers addressed each other by their IPv4 GIDs"
fi
