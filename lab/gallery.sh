#!/usr/bin/env bash
# lab/gallery.sh [DIR] - 故障画廊：在实验室虚拟机里（lab/run）把每一种错误跑一遍，一次启动（make gallery、tests/38-lab-trace.t）。
# 种类表是 tools/gallery/kinds.txt（名字、参数、错在哪、怎么修）。整个画廊只抓一次包（veth0，DIR/gallery.pcap）：
# 种类一个接一个地跑，tools/gallery/render 按每一种两端 trace 的时间范围把包分开。每一种写出
# DIR/NAME-{server,client}.{jsonl,log}（两端的 --trace 和控制台输出）。两端都带 --counters：各自设备端口计数的差值
# 在 trace 的 counters 事件里、含义在控制台输出里（docs/COUNTERS.md），画廊自己不再读 hw_counters。
# 画页面在宿主机上：tools/gallery/render DIR。
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=${1:-logs/gallery}

if [[ ${2:-} != --inner ]]; then
    mkdir -p "$DIR"
    rm -f "$DIR"/*.pcap "$DIR"/*.jsonl "$DIR"/*.log "$DIR"/*.counters "$DIR"/kernel   # *.counters: 旧版本写的
    uname -r >"$DIR/kernel"
    # -s 128：每个包只存前 128 字节，所有 RoCE 头都在
    exec tools/trace/capture -i veth0 -s 128 -w "$DIR/gallery.pcap" -- bash "$0" "$DIR" --inner
fi

while IFS='|' read -r name both sargs cargs _; do
    [[ -z $name || $name == \#* ]] && continue
    echo "gallery: $name" >&2
    DEMO_ARGS="--counters $both" SERVER_ARGS=$sargs CLIENT_ARGS=$cargs TRACE_OUT=$DIR/$name bash lab/trace.sh --pair >&2 || true
    sleep 0.2   # 最后的重传/应答落进这一种的时间范围里
done <tools/gallery/kinds.txt
