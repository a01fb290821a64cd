#!/usr/bin/env bash
# lab/trace.sh - 在实验室虚拟机里跑一对带 --trace 的程序，同时在 RoCE 网卡上抓包（由 make trace 调用）
#   单机拓扑：在 veth0 上抓（每个包恰好一次），服务端在 rxe0 (10.11.0.1)，客户端在 rxe1
#   two-vms：VM0 在 eth0 上抓并跑服务端，VM1 跑客户端
# 参数：DEMO_ARGS 同时给两端（和 make demo 一样）；SERVER_ARGS 只给服务端、CLIENT_ARGS 只给客户端
# （例如 SERVER_ARGS="--inject late-recv"、CLIENT_ARGS="--inject rkey"）。
# 写出（TRACE_OUT，默认 logs/trace）：$TRACE_OUT-server.jsonl、$TRACE_OUT-client.jsonl、$TRACE_OUT.pcap，
# 以及两端的控制台输出 $TRACE_OUT-server.log、$TRACE_OUT-client.log。
# 宿主机上的 make trace 再用 tools/trace/render 画成 logs/trace.txt、logs/trace.html。
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a both <<<"${DEMO_ARGS:-}"
read -r -a sargs <<<"${SERVER_ARGS:-}"
read -r -a cargs <<<"${CLIENT_ARGS:-}"
# -s 128：每个包只存前 128 字节，所有 RoCE 头都在，文件小得多
SNAP=128
OUT=${TRACE_OUT:-logs/trace}
mkdir -p "$(dirname "$OUT")"

server() {
    build/rdma_server -d "$LAB_DEV0" "${both[@]}" "${sargs[@]}" --trace "$OUT-server.jsonl"
}

# 单机：抓包包住这一对程序
pair() {
    local src=0 crc=0 spid
    server >"$OUT-server.log" 2>&1 &
    spid=$!
    build/rdma_client "$LAB_IP0" -d "$LAB_DEV1" -t 30 "${both[@]}" "${cargs[@]}" \
        --trace "$OUT-client.jsonl" >"$OUT-client.log" 2>&1 || crc=$?
    wait "$spid" || src=$?
    printf 'trace: 服务端退出码 %d，客户端退出码 %d（控制台输出在 %s-server.log、%s-client.log）\n' "$src" "$crc" "$OUT" "$OUT"
}

if [[ ${1:-} == --pair ]]; then
    pair
    exit 0
fi

if [[ -z ${LAB_VM:-} ]]; then
    rm -f "$OUT-server.jsonl" "$OUT-client.jsonl" "$OUT.pcap"
    exec tools/trace/capture -i veth0 -s "$SNAP" -w "$OUT.pcap" -- bash "$0" --pair
fi
# two-vms：两台共用项目目录，各自只删自己要写的文件
if [[ $LAB_VM == 0 ]]; then
    rm -f "$OUT-server.jsonl" "$OUT.pcap"
    # 开始监听后在两台共享的目录里写就绪文件，VM1 等它（lab/run 的 LAB_SYNC）
    [[ -n ${LAB_SYNC:-} ]] && sargs+=(--ready-file "$LAB_SYNC/vm0.trace-ready")
    rc=0
    tools/trace/capture -i eth0 -s "$SNAP" -w "$OUT.pcap" -- bash -c "$(declare -f server); $(declare -p both sargs OUT); server" \
        >"$OUT-server.log" 2>&1 || rc=$?
    echo "trace: 服务端退出码 $rc"
    exit 0
fi
# VM1：客户端不给 -d，按路由自己选（和两台真实的虚拟机一样）。先等 VM0 的服务端开始监听（就绪文件，上限 180 秒），
# 不估它要多久；-t 60 内重试连接只是兜底
rm -f "$OUT-client.jsonl"
if [[ -n ${LAB_SYNC:-} ]]; then
    for ((i = 0; i < 900; i++)); do [[ -e $LAB_SYNC/vm0.trace-ready ]] && break; sleep 0.2; done
fi
rc=0
build/rdma_client "$LAB_IP0" -t 60 "${both[@]}" "${cargs[@]}" --trace "$OUT-client.jsonl" \
    >"$OUT-client.log" 2>&1 || rc=$?
echo "trace: 客户端退出码 $rc"
