#!/usr/bin/env bash
# lab/gallery.sh [DIR] - 故障画廊：在实验室虚拟机里（lab/run）把每一种错误跑一遍，一次启动（make gallery、tests/58-lab-trace.t）。
# 种类表是 tools/gallery/kinds.txt（名字、参数、错在哪、怎么修）。整个画廊只抓一次包（veth0，DIR/gallery.pcap）：
# 种类一个接一个地跑，tools/gallery/render 按每一种两端 trace 的时间范围把包分开。每一种写出
# DIR/NAME-{server,client}.{jsonl,log}（两端的 --trace 和控制台输出）和 DIR/NAME.counters（前后的 rxe 计数）。
# 画页面在宿主机上：tools/gallery/render DIR。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=${1:-logs/gallery}

if [[ ${2:-} != --inner ]]; then
    mkdir -p "$DIR"
    rm -f "$DIR"/*.pcap "$DIR"/*.jsonl "$DIR"/*.log "$DIR"/*.counters "$DIR"/kernel
    uname -r >"$DIR/kernel"
    # -s 128：每个包只存前 128 字节，所有 RoCE 头都在
    exec tools/trace/capture -i veth0 -s 128 -w "$DIR/gallery.pcap" -- bash "$0" "$DIR" --inner
fi

# rxe 设备上几个计数的和（重传、RNR、PSN 不对的请求）
counters() {
    local c f v n
    for c in rcvd_rnr_err send_rnr_err retry_exceeded_err retry_rnr_exceeded_err completer_retry_err \
        rcvd_seq_err out_of_seq_request duplicate_request; do
        n=0
        for f in /sys/class/infiniband/rxe*/ports/1/hw_counters/"$c"; do
            [[ -r $f ]] || continue
            read -r v <"$f"
            n=$((n + v))
        done
        printf '%s=%s ' "$c" "$n"
    done
    echo
}

while IFS='|' read -r name both sargs cargs _; do
    [[ -z $name || $name == \#* ]] && continue
    echo "gallery: $name" >&2
    echo "before $(counters)" >"$DIR/$name.counters"
    DEMO_ARGS=$both SERVER_ARGS=$sargs CLIENT_ARGS=$cargs TRACE_OUT=$DIR/$name bash lab/trace.sh --pair >&2 || true
    echo "after $(counters)" >>"$DIR/$name.counters"
    sleep 0.2   # 最后的重传/应答落进这一种的时间范围里
done <tools/gallery/kinds.txt
