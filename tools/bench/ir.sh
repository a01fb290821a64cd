#!/usr/bin/env bash
# tools/bench/ir.sh [OUT] - 每次迭代的用户态指令数（callgrind），在实验室虚拟机里运行：lab/run tools/bench/ir.sh
# 客户端跑在 valgrind --tool=callgrind 下（服务端照常），2 字节的 --bench lat（send、write）和 ib_send_lat/ib_write_lat，
# 各跑 IR_N1 和 IR_N2 轮（默认 300、600）。之后在宿主机上：
#   tools/bench/cgfuncs.py OUT/ours-send-300.cg OUT/ours-send-600.cg 300 600
# 打印每个函数每轮的指令数和调用次数（差分去掉了启动和收尾）。结果和读法见 docs/bench/README.md 的“延迟差在哪里”。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=${1:-logs/ir}
N1=${IR_N1:-300} N2=${IR_N2:-600}
IP=10.11.0.1
mkdir -p "$OUT"
wait_port() {
    local i
    for ((i = 0; i < 200; i++)); do
        ss -ltn | grep -q ":$1 " && return 0
        sleep 0.05
    done
    return 1
}
for op in send write; do
    for n in "$N1" "$N2"; do
        timeout 600 build/rdma_server -d rxe0 -q 1 --bench lat --op "$op" --size 2 --iters "$n" -t 120 >"$OUT/ours-$op-$n.s.log" 2>&1 &
        sp=$!
        wait_port 18515
        timeout 900 valgrind --tool=callgrind --callgrind-out-file="$OUT/ours-$op-$n.cg" build/rdma_client "$IP" -d rxe1 -q 1 \
            --bench lat --op "$op" --size 2 --iters "$n" -t 120 >"$OUT/ours-$op-$n.c.log" 2>&1
        wait "$sp"
        timeout 600 "ib_${op}_lat" -d rxe0 -x 1 -F -s 2 -n "$n" >"$OUT/pt-$op-$n.s.log" 2>&1 &
        sp=$!
        wait_port 18515
        timeout 900 valgrind --tool=callgrind --callgrind-out-file="$OUT/pt-$op-$n.cg" "ib_${op}_lat" -d rxe1 -x 1 -F -s 2 -n "$n" "$IP" \
            >"$OUT/pt-$op-$n.c.log" 2>&1
        wait "$sp"
    done
done
ls "$OUT"/*.cg
