#!/usr/bin/env bash
# trace-scenarios.sh DIR - 在实验室虚拟机里（lab/run）跑 tests/38-lab-trace.t 的全部场景，一次启动：
# 每个场景用 lab/trace.sh 抓包 + 两端 --trace，写到 DIR/NAME-{server,client}.{jsonl,log} 和 DIR/NAME.pcap；
# 每个场景前后的 rxe RNR 计数写进 DIR/NAME.rnr（“前 后”）。
# 另外 DIR/plain-{server,client}.log：和 write 场景参数相同、但不加 --trace 的一次运行（比较控制台输出）。
# 检查都在宿主机上做（tests/trace/lab-check.py、tests/trace/browser-check.py）。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
DIR=$1
mkdir -p "$DIR"
rm -f "$DIR"/*

# 名字|两端共同的参数|只给服务端的|只给客户端的
SCENARIOS=(
    "send|-q 4 --op send --size 1500 --iters 2 -t 30||"
    "write|-q 4 --op write --size 2K --iters 2 -t 30||"
    "late-recv|-q 1 --op send --size 64 --iters 1 -t 30|--inject late-recv|"
    "rkey|-q 1 --op write --size 2K --iters 1 -t 30||--inject rkey"
    "read|-q 2 --op read --size 3K --iters 1 -t 30||"
    "fetch_add|-q 1 --op fetch_add --iters 2 -t 30||"
    "ud|--qp ud -q 2 --op send --size 256 --iters 2 -t 30||"
)

rnr_count() {
    local f v n=0
    for f in /sys/class/infiniband/rxe*/ports/1/hw_counters/{rcvd_rnr_err,send_rnr_err}; do
        read -r v <"$f"
        n=$((n + v))
    done
    echo "$n"
}

uname -r >"$DIR/kernel"   # tests/trace/lab-check.py：早于 6.1 的 rxe 对 rkey/原子操作的反应不同
for s in "${SCENARIOS[@]}"; do
    IFS='|' read -r name both sargs cargs <<<"$s"
    before=$(rnr_count)
    DEMO_ARGS=$both SERVER_ARGS=$sargs CLIENT_ARGS=$cargs TRACE_OUT=$DIR/$name bash lab/trace.sh || true
    echo "$before $(rnr_count)" >"$DIR/$name.rnr"
done

# 同样的 write，不加 --trace：控制台输出应该只差每次运行都不同的值
read -r -a args <<<"-q 4 --op write --size 2K --iters 2 -t 30"
build/rdma_server -d "$LAB_DEV0" "${args[@]}" >"$DIR/plain-server.log" 2>&1 &
spid=$!
build/rdma_client "$LAB_IP0" -d "$LAB_DEV1" "${args[@]}" >"$DIR/plain-client.log" 2>&1 || true
wait "$spid" || true
