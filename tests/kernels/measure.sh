#!/usr/bin/env bash
# tests/kernels/measure.sh - 在实验室虚拟机里量出 rxe 在这个内核上的行为（docs/KERNELS.md 的表就是它的输出）。
# 用法（宿主机，仓库根目录，先 make）：
#   for k in 5.10 6.1 6.12; do LAB_KERNEL=$k lab/run tests/kernels/measure.sh >logs/kernels/facts-$k.txt; done
# 每个事实一行 “FACT 名字 值”；单机拓扑（rxe0 在 veth0，rxe1 在 veth1），一次启动约 1–3 分钟（TCG）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
S=build/rdma_server C=build/rdma_client
O=${TMPDIR:-/tmp}/measure
mkdir -p "$O"
fact() { printf 'FACT %s %s\n' "$1" "$2"; }
cnt() { local v=0; read -r v <"/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null; echo "${v:-0}"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# 一对：服务端 rxe0（--cm 时 0.0.0.0），客户端 rxe1；SARGS/CARGS 只给一端；结果在 src/crc/took(ms)
pair() {
    local name=$1 i sdev=(-d rxe0) t0
    shift
    [[ $1 == --cm ]] && sdev=()
    # shellcheck disable=SC2086  # SARGS/CARGS 是要拆开的几个参数
    timeout 60 "$S" "${sdev[@]}" "$@" ${SARGS:-} >"$O/$name-s.log" 2>&1 &
    local sp=$!
    for ((i = 0; i < 300; i++)); do grep -q '等待客户端连接' "$O/$name-s.log" && break; sleep 0.1; done
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    timeout 60 "$C" 10.11.0.1 -d rxe1 "$@" ${CARGS:-} >"$O/$name-c.log" 2>&1
    crc=$?
    took=$(ms "$t0")
    wait "$sp"
    src=$?
}
wc_status() { grep -m1 -o '状态=[^)]*)' "$1" | sed 's/状态=//; s/ /_/g'; }

fact kernel "$(uname -r)"
ibv_devinfo -v -d rxe0 >"$O/devinfo" 2>&1
for k in vendor_id atomic_cap active_mtu max_mtu max_qp max_qp_wr max_cqe max_mr_size; do
    fact "devinfo.$k" "$(awk -v k="$k:" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$O/devinfo" | tr ' ' '_')"
done
ip link set veth0 mtu 9000; ip link set veth1 mtu 9000; sleep 0.5
fact mtu9000.active_mtu "$(ibv_devinfo -d rxe0 | awk '$1 == "active_mtu:" { print $2 $3; exit }')"
ip link set veth0 mtu 1500; ip link set veth1 mtu 1500; sleep 0.5
fact mtu1500.active_mtu "$(ibv_devinfo -d rxe0 | awk '$1 == "active_mtu:" { print $2 $3; exit }')"
hw=""
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do hw+=${f##*/},; done
fact hw_counters "${hw%,}"

for op in send write read write_imm fetch_add cmp_swap; do
    size=(--size 4K); [[ $op == fetch_add || $op == cmp_swap ]] && size=()
    pair "op-$op" --op "$op" -q 1 "${size[@]}" --iters 2 -t 10
    fact "op.$op" "server=$src client=$crc ${took}ms $(wc_status "$O/op-$op-c.log")"
done
grep -q '提示(内核)' "$O/op-fetch_add-c.log" && fact op.fetch_add.kernel_note yes

# 错误的 rkey：抓包看线上有没有 NAK
tcpdump -i veth0 -w "$O/rkey.pcap" -U udp port 4791 2>/dev/null & tp=$!; sleep 1
CARGS="--inject rkey" pair rkey --op write -q 1 --size 2K --iters 1 -t 10
sleep 0.5; kill "$tp"; wait "$tp" 2>/dev/null
fact inject.rkey "server=$src client=$crc ${took}ms $(wc_status "$O/rkey-c.log")"
fact inject.rkey.wire "$(tshark -r "$O/rkey.pcap" -T fields -e infiniband.bth.opcode -e infiniband.aeth.syndrome 2>/dev/null | sort | uniq -c | awk '{printf "%s×op%s/syn%s ", $1, $2, ($3 == "" ? "-" : $3)}')"

# 原子操作的线上
tcpdump -i veth0 -w "$O/fa.pcap" -U udp port 4791 2>/dev/null & tp=$!; sleep 1
pair fa --op fetch_add -q 1 --iters 1 -t 10
sleep 0.5; kill "$tp"; wait "$tp" 2>/dev/null
fact fetch_add.wire "$(tshark -r "$O/fa.pcap" -T fields -e infiniband.bth.opcode -e infiniband.aeth.syndrome 2>/dev/null | sort | uniq -c | awk '{printf "%s×op%s/syn%s ", $1, $2, ($3 == "" ? "-" : $3)}')"

# RNR：服务端晚投递接收（--inject late-recv），rxe 的计数
r0=$(cnt rxe1 rcvd_rnr_err) s0=$(cnt rxe0 send_rnr_err)
SARGS="--inject late-recv" pair rnr --op send -q 1 --size 64 --iters 1 -t 30
fact rnr.late_recv "server=$src client=$crc ${took}ms rxe1.rcvd_rnr_err+$(($(cnt rxe1 rcvd_rnr_err) - r0)) rxe0.send_rnr_err+$(($(cnt rxe0 send_rnr_err) - s0))"

# 丢弃所有 RoCE（UDP 4791）：本程序 retry_cnt=6；ibv_rc_pingpong 用 retry_cnt=7
nft add table inet m && nft add chain inet m in '{ type filter hook input priority 0; }' && nft add rule inet m in udp dport 4791 drop
e0=$(cnt rxe1 retry_exceeded_err)
pair drop --op write -q 1 --size 4K --iters 1 -t 10
fact drop.retry_cnt6 "client=$crc ${took}ms $(wc_status "$O/drop-c.log") rxe1.retry_exceeded_err+$(($(cnt rxe1 retry_exceeded_err) - e0))"
timeout 12 ibv_rc_pingpong -d rxe0 -g 1 -n 5 >"$O/pp-s.log" 2>&1 & pp=$!
sleep 1
t0=$(date +%s%N)
timeout 10 ibv_rc_pingpong -d rxe1 -g 1 -n 5 10.11.0.1 >"$O/pp-c.log" 2>&1
prc=$?
fact drop.retry_cnt7.ibv_rc_pingpong "client_exit=$prc $(ms "$t0")ms $(grep -m1 -o 'Failed status [^(]*([0-9]*)' "$O/pp-c.log" | tr ' ' '_')"
wait "$pp" 2>/dev/null
nft delete table inet m

# CM：被动方 INIT 的权限位、RTR/RTS 的属性；没人监听、地址不存在的用时
pair cm --cm --op write -q 1 --size 4K --iters 1 -t 10
fact cm.pair "server=$src client=$crc"
fact cm.init.passive "$(grep -m1 -o 'qp_access_flags=0x[0-9a-f]*' "$O/cm-s.log")"
fact cm.init.active "$(grep -m1 -o 'qp_access_flags=0x[0-9a-f]*' "$O/cm-c.log")"
fact cm.rts "$(grep -m1 -o 'timeout=[0-9]* retry_cnt=[0-9]* rnr_retry=[0-9]*' "$O/cm-c.log" | tr ' ' ',')"
fact cm.rtr "$(grep -m1 -o 'path_mtu=[0-9]*.*min_rnr_timer=[0-9]*' "$O/cm-c.log" | sed 's/dest_qp_num=[^ ]* rq_psn=[^ ]* //' | tr ' ' ',')"
t0=$(date +%s%N)
timeout 30 "$C" 10.11.0.1 --cm -d rxe1 -q 1 -t 20 >"$O/cm-nolisten.log" 2>&1
fact cm.nobody_listening "exit=$? $(ms "$t0")ms $(grep -m1 -o 'REJECTED，status=[0-9]*' "$O/cm-nolisten.log")"
t0=$(date +%s%N)
timeout 30 "$C" 10.11.0.9 --cm -d rxe1 -q 1 -t 5 >"$O/cm-noaddr.log" 2>&1
fact cm.address_nobody_has "exit=$? $(ms "$t0")ms $(grep -m1 -o 'ADDR_ERROR（status=-*[0-9]*' "$O/cm-noaddr.log")"
mkdir -p "logs/kernels/$(uname -r)"
cp "$O"/*.log "$O"/*.pcap "logs/kernels/$(uname -r)/" 2>/dev/null || true
