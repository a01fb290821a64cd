#!/usr/bin/env bash
# tests/verbs-check/lab-provoke.sh - 在实验室虚拟机里（lab/run 之下，一台机器、rxe0/veth0 和 rxe1/veth1）让 verbs-check 的
# 路径、UD 和深度规则在真实的 rxe 上各触发一次（make verbs-check-lab 的最后一步）。
#   bash tests/verbs-check/lab-provoke.sh OUTDIR [CASE...]
# CASE（默认全部）：
#   wrong-nic  ibv_rc_pingpong -d rxe1 的对端（中继 relay.py 假扮的服务端）通告 10.98.0.5，而内核到 10.98.0.0/24 的路由
#              走 veth0（这一例临时加的路由），rxe1 的 GID 在 veth1 上 → gid.wrong_ndev。10.98.0.5 没有人应答 ARP：
#              RTR 解析不到邻居、失败，程序退出（rxe 的包跟着路由走；硬件网卡从 rxe1 的端口发，一样到不了）
#   ud-qpn     ibv_ud_pingpong 一对，中继把客户端的 QP 号加 1 再交给服务端 → 服务端的 ud.remote_qpn（--pair）
#   ud-dgid    中继把客户端的 GID 换成服务端自己的 10.11.0.1 → 服务端的 AH 指向自己：ud.ah_dgid（--pair）
#   sq rq cq ud-pd   build/tests/vc-depth（tests/verbs-check/vc-depth.c）→ send.sq_full、recv.rq_full、cq.overflow、ud.ah_pd
# 每个 CASE 在 OUTDIR/CASE/ 里留下输出；最后每个 CASE 一行：它的错误和警告的 id（一边的和 --pair 的）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
OUT=$1
shift
VC=build/verbs-check
DEV0=${LAB_DEV0:-rxe0} DEV1=${LAB_DEV1:-rxe1}
CASES=("$@")
((${#CASES[@]})) || CASES=(wrong-nic ud-qpn ud-dgid sq rq cq ud-pd)

wait_port() {
    local i
    for ((i = 0; i < 300; i++)); do
        [[ -n $(ss -Hltn "sport = :$1") ]] && return 0
        sleep 0.1
    done
    return 1
}

# ud_pair DIR RELAY_OPTION...：服务端（rxe0）、中继、客户端（rxe1，连中继），两边都在 verbs-check 下。-n 1：服务端收到一个、
# 回一个就正常退出；回的那个到不了客户端，客户端等到 timeout（TCG 下 Python 起动就要几秒，所以给 30 秒）
ud_pair() {
    local d=$1 spid rpid
    shift
    timeout -k 5 40 $VC --lang en --log "$d/logs" -- ibv_ud_pingpong -d "$DEV0" -g 1 -n 1 -p 18601 >"$d/s.out" 2>"$d/s.err" &
    spid=$!
    wait_port 18601 || echo "server did not listen on 18601" >>"$d/s.err"
    python3 tests/verbs-check/relay.py 18602 18601 "$@" >"$d/relay.out" 2>&1 &
    rpid=$!
    wait_port 18602
    timeout -k 5 30 $VC --lang en --log "$d/logs" -- ibv_ud_pingpong -d "$DEV1" -g 1 -n 1 -p 18602 127.0.0.1 >"$d/c.out" 2>"$d/c.err"
    wait "$spid"
    kill "$rpid" 2>/dev/null
    wait "$rpid" 2>/dev/null
    $VC --lang en --pair "$d/logs" >"$d/pair.out" 2>&1
}

for c in "${CASES[@]}"; do
    d=$OUT/$c
    rm -rf "$d"
    mkdir -p "$d/logs"
    case $c in
    wrong-nic)
        ip route add 10.98.0.0/24 dev veth0
        ip route get 10.98.0.5 from 10.11.0.2 >"$d/route.out" 2>&1
        python3 tests/verbs-check/relay.py 18600 fake --server-gid 10.98.0.5 --server-qpn 17 >"$d/relay.out" 2>&1 &
        rpid=$!
        wait_port 18600
        timeout -k 5 60 $VC --lang en --log "$d/logs" -- ibv_rc_pingpong -d "$DEV1" -g 1 -n 1 -p 18600 127.0.0.1 \
            >"$d/c.out" 2>"$d/c.err"
        kill "$rpid" 2>/dev/null
        wait "$rpid" 2>/dev/null
        ip route del 10.98.0.0/24 dev veth0 ;;
    ud-qpn) ud_pair "$d" --client-qpn-add 1 ;;
    ud-dgid) ud_pair "$d" --client-gid 10.11.0.1 ;;
    sq | rq | cq | ud-pd)
        timeout -k 5 20 $VC --lang en --log "$d/logs" -- build/tests/vc-depth "$DEV0" 1 "$c" >"$d/c.out" 2>"$d/c.err" ;;
    *) echo "unknown case $c" >"$d/c.err" ;;
    esac
done

for c in "${CASES[@]}"; do
    d=$OUT/$c
    printf '%-10s %s\n' "$c" \
        "$(cat "$d"/*.err "$d"/pair.out 2>/dev/null | grep -o '^verbs-check: \(error\|warning\) [^ ]* [^ ]*' |
            cut -d' ' -f3,4 | sort -u | tr '\n' ' ')"
done
