#!/usr/bin/env bash
# tests/lab/verbs-check-two-vms.sh - verbs-check（issue 57）在学习者真实的两台虚拟机上（两台里都运行；LAB_VM=0 是
# 10.11.0.1，1 是 10.11.0.2）。tests/lab/cm-two-vms.sh 在最后 source 它（tests/63-two-vms-cm.t 的同一次开机）；
# 也可以单独运行：LAB_TOPOLOGY=two-vms lab/run bash tests/lab/verbs-check-two-vms.sh
#   vc-rc        两边 verbs-check --log /tmp/vc -- ibv_rc_pingpong -g 1（1 = ::ffff:10.11.0.x，IPv4-mapped 的 RoCE v2 条目）：
#                两边退出 0、没有错误和警告；每边退出时打印学习者要敲的复制命令（对端的地址来自 GID）
#   vc-pair      VM1 原样运行它打印的命令（scp 的替身从共享目录复制 VM0 的日志，打印成 STAND-IN），--pair 配成一对、干净
#   vc-wrong-gid 两边 -g 0（fe80:: 链路本地地址）：这一对慢得像卡住（实测 5 轮每轮约 160 ms，-g 1 时不到 1 ms；5000 轮 120 s 也跑不完）；
#                一边就说出 gid.link_local，字段 ah_attr.grh.sgid_index。VM1 带 -v：程序还在运行（卡住）时发现已经打印了；
#                然后像学习者一样 Ctrl-C
# 每个结果一行 “RESULT 名字 ok|fail 说明”；输出也存在 logs/verbs-check-two-vms-vmN.out（文档里的例子来自它）。
set -uo pipefail
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
    # shellcheck source=tests/lab/peer.bash
    . tests/lab/peer.bash
    VC_STANDALONE=1
fi

VC=build/verbs-check
VCD=/tmp/vc
VCO=${TMPDIR:-/tmp}/vc-two
rm -rf "$VCD" "$VCO"
mkdir -p "$VCD" "$VCO"

vc_result() {  # vc_result 名字 0|非0 说明 [文件...]
    local n=$1 rc=$2 why=$3
    shift 3
    if [[ $rc == 0 ]]; then
        echo "RESULT $n ok $why"
    else
        echo "RESULT $n fail $why"
        [[ $# -gt 0 ]] && sed 's/^/    | /' "$@"
    fi
}

# 一边的错误和警告（说明不算）
vc_bad() { grep -q '^verbs-check: \(错误\|警告\) ' "$@"; }

# vc_show 标题 文件：把输出原样打印（文档里的例子从这里来）
vc_show() { echo "===== VM$LAB_VM $1"; cat "$2"; }

if [[ $LAB_VM == 0 ]]; then
    # vc_serve 名字 端口 -g 参数...：服务端在 verbs-check 下后台运行，TCP 端口监听后告诉对端 vc-listen-端口；
    # 退出码写进 vrc（对端放弃时停掉它，vrc=2）
    vc_serve() {
        local name=$1 port=$2
        shift 2
        timeout 120 "$VC" --log "$VCD/$name" -- ibv_rc_pingpong -p "$port" "$@" >"$VCO/$name.out" 2>"$VCO/$name.err" </dev/null &
        SERVE_PID=$!
        if ! listen_wait "$port" "$SERVE_PID" 60; then
            peer_abort "VM0 的 ibv_rc_pingpong 没有在 $port 上监听"
            vc_result "$name-server" 1 "ibv_rc_pingpong 没有在 $port 上监听" "$VCO/$name.err"
            return 1
        fi
        peer_ready "vc-listen-$port"
        vrc=0
        serve_wait || vrc=$?
    }
    SECONDS=0
    vc_serve vc-rc 18541 -g 1 -n 20 || return 0 2>/dev/null || exit 0
    vc_show "verbs-check --log $VCD/vc-rc -- ibv_rc_pingpong -p 18541 -g 1 -n 20 (exit $vrc)" "$VCO/vc-rc.err"
    ok=1
    [[ $vrc == 0 ]] && ! vc_bad "$VCO/vc-rc.err" && grep -qF "scp '10.11.0.2:$VCD/vc-rc/*.log' $VCD/vc-rc/10.11.0.2/" "$VCO/vc-rc.err" && ok=0
    vc_result vc-rc-server "$ok" "VM0: -g 1 退出 $vrc，没有错误和警告，打印了从 10.11.0.2 复制的命令" "$VCO/vc-rc.err"
    # 学习者的 scp 要从这台复制的日志：放进共享目录（scp 的替身从那里拿）
    mkdir -p "$LAB_SYNC/vc-vm0"
    cp "$VCD"/vc-rc/*.log "$LAB_SYNC/vc-vm0/"
    peer_ready vc-logs
    # 错的 GID 索引：这一对慢得像卡住，像学习者一样在 VM1 的发现出来后按 Ctrl-C
    timeout 120 "$VC" --log "$VCD/vc-wrong-gid" -- ibv_rc_pingpong -p 18542 -g 0 -n 5000 \
        >"$VCO/vc-wrong-gid.out" 2>"$VCO/vc-wrong-gid.err" </dev/null &
    vpid=$!
    if listen_wait 18542 "$vpid" 60; then
        peer_ready vc-listen-18542
        peer_wait vc-gid-done 120
        pp=$(pgrep -x ibv_rc_pingpong) && kill -INT "$pp"
    else
        peer_abort "VM0 的 ibv_rc_pingpong 没有在 18542 上监听"
    fi
    wait "$vpid"
    vrc=$?
    vc_show "verbs-check --log $VCD/vc-wrong-gid -- ibv_rc_pingpong -p 18542 -g 0 -n 5000 (exit $vrc after Ctrl-C)" "$VCO/vc-wrong-gid.err"
    ok=1
    grep -q '^verbs-check: 警告 gid.link_local ah_attr.grh.sgid_index' "$VCO/vc-wrong-gid.err" && ok=0
    vc_result vc-wrong-gid-server "$ok" "VM0: -g 0 名叫 gid.link_local（程序卡住，Ctrl-C 后退出 $vrc）" "$VCO/vc-wrong-gid.err"
    echo "TIMING verbs-check-two-vms VM0 ${SECONDS}s"
else
    SECONDS=0
    need_peer vc-listen-18541 vc-rc
    timeout 120 "$VC" --log "$VCD/vc-rc" -- ibv_rc_pingpong -p 18541 -g 1 -n 20 10.11.0.1 >"$VCO/vc-rc.out" 2>"$VCO/vc-rc.err"
    vrc=$?
    vc_show "verbs-check --log $VCD/vc-rc -- ibv_rc_pingpong -p 18541 -g 1 -n 20 10.11.0.1 (exit $vrc)" "$VCO/vc-rc.err"
    # 复制命令：提示的下一行，原样
    cmd=$(grep -A1 '^verbs-check: 对端的日志不在这里' "$VCO/vc-rc.err" | sed -n '2s/^ *//p')
    want="mkdir -p $VCD/vc-rc/10.11.0.1 && scp '10.11.0.1:$VCD/vc-rc/*.log' $VCD/vc-rc/10.11.0.1/ && build/verbs-check --pair $VCD/vc-rc"
    ok=1
    [[ $vrc == 0 && $cmd == "$want" ]] && ! vc_bad "$VCO/vc-rc.err" && grep -q 'bytes in' "$VCO/vc-rc.out" && ok=0
    vc_result vc-rc "$ok" "VM1: -g 1 退出 $vrc，没有错误和警告，复制命令是 $cmd" "$VCO/vc-rc.err"
    # scp 的替身：这两台虚拟机里没有 sshd。只认 10.11.0.1:$VCD/vc-rc/*.log，从共享目录里 VM0 放的日志复制
    need_peer vc-logs vc-pair
    mkdir -p "$VCO/bin"
    # shellcheck disable=SC2016  # 替身脚本里的 $1、$2 由替身自己展开
    printf '#!/bin/bash\n[[ $1 == %q ]] || { echo "scp stand-in: unexpected $1" >&2; exit 1; }\ncp %q/vc-vm0/*.log "$2"\n' \
        "10.11.0.1:$VCD/vc-rc/*.log" "$LAB_SYNC" >"$VCO/bin/scp"
    chmod +x "$VCO/bin/scp"
    echo "STAND-IN scp: 没有 sshd；替身只认 10.11.0.1:$VCD/vc-rc/*.log，从共享目录复制 VM0 的日志"
    PATH=$VCO/bin:$PATH bash -c "$cmd" >"$VCO/pair.out" 2>&1
    prc=$?
    vc_show "$cmd (exit $prc)" "$VCO/pair.out"
    ok=1
    [[ $prc == 0 ]] && grep -q '^verbs-check: 两边：ibv_rc_pingpong [0-9]* ↔ 10.11.0.1/ibv_rc_pingpong [0-9]*' "$VCO/pair.out" &&
        ! vc_bad "$VCO/pair.out" && ok=0
    vc_result vc-pair "$ok" "VM1: 复制命令原样运行，--pair 退出 $prc，两边配成一对，没有错误和警告" "$VCO/pair.out"
    # 错的 GID 索引（0 = fe80:: 链路本地）：程序慢得像卡住。
    # -v：发现在它发生时就打印——程序还在运行时它已经在输出里；然后像学习者一样按 Ctrl-C（SIGINT 给程序）
    need_peer vc-listen-18542 vc-wrong-gid
    timeout 120 "$VC" -v --log "$VCD/vc-wrong-gid" -- ibv_rc_pingpong -p 18542 -g 0 -n 5000 10.11.0.1 >"$VCO/vc-wrong-gid.all" 2>&1 &
    vpid=$!
    live=no
    for ((i = 0; i < 600; i++)); do
        if grep -q '^verbs-check: 警告 gid.link_local' "$VCO/vc-wrong-gid.all"; then
            pp=$(pgrep -x ibv_rc_pingpong) && kill -0 "$pp" && live="yes (ibv_rc_pingpong $pp still running)"
            break
        fi
        kill -0 "$vpid" 2>/dev/null || break
        peer_nap 0.1
    done
    pp=$(pgrep -x ibv_rc_pingpong) && kill -INT "$pp"
    wait "$vpid"
    vrc=$?
    peer_ready vc-gid-done
    vc_show "verbs-check -v --log $VCD/vc-wrong-gid -- ibv_rc_pingpong -p 18542 -g 0 -n 5000 10.11.0.1 (exit $vrc after Ctrl-C; stdout and stderr in one file)" "$VCO/vc-wrong-gid.all"
    ok=1
    [[ $live == yes* ]] && grep -q '^verbs-check: 说明 exit.missing' "$VCO/vc-wrong-gid.all" && ok=0
    vc_result vc-wrong-gid "$ok" "VM1: -g 0 名叫 gid.link_local；-v 打印它时程序还在运行: $live；Ctrl-C 后退出 $vrc" "$VCO/vc-wrong-gid.all"
    echo "TIMING verbs-check-two-vms VM1 ${SECONDS}s"
fi
mkdir -p logs
for f in "$VCO"/*.err "$VCO"/*.all "$VCO"/pair.out; do
    [[ -f $f ]] && { echo "== $f"; cat "$f"; }
done >"logs/verbs-check-two-vms-vm$LAB_VM.out" 2>/dev/null || true
[[ -n ${VC_STANDALONE:-} ]] && peer_done
true
