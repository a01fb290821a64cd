#!/usr/bin/env bash
# tests/lab/kernel-smoke.sh - 一个内核上的开机冒烟（由 tests/40-lab-kernels.t 经 LAB_KERNEL=... lab/run 调用）。
# 打印 “RESULT 名字 ok|fail 说明” 行：
#   kernel-<系列>   虚拟机里 uname -r 就是 $1（lab.env 里的内核）
#   pair-<系列>     一对 write_imm（2 个QP × 4 KiB × 2 轮）两端都退出 0
#   5.10：atomic-5.10  fetch_add 以 RETRY_EXC_ERR 结束，提示点名这个内核和实测范围（kernel_note.c）
#   6.12：flush-6.12   --cm 的被动方 rdma_init_qp_attr(INIT) 给 0x30e，程序说出两个 FLUSH 位
#   qpaccess-<系列>  服务端QP的 qp_access_flags 没有 REMOTE_WRITE（--inject qp-access）：客户端的 WRITE 得到的状态
#                    （6.1 在故障画廊里测，tests/38-lab-trace.t）
#   srq-<系列>     --srq 的 4 个QP：销毁前改到 ERR，等 IBV_EVENT_QP_LAST_WQE_REACHED 的个数按内核（实测：5.10、6.1 的 rxe
#                  一个也不发，等满上限；6.12 发，每个QP一个）；两端都打印这一行（6.1 在 tests/lab/qptypes.bats 里查）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
want_kver=$1 series=$2
OUT=${TMPDIR:-/tmp}/kernel-smoke
mkdir -p "$OUT"

result() {  # result 名字 0|非0 说明 [日志...]
    if [[ $2 == 0 ]]; then
        echo "RESULT $1 ok $3"
    else
        echo "RESULT $1 fail $3"
        local f
        for f in "${@:4}"; do [[ -f $f ]] && sed 's/^/    | /' "$f"; done
    fi
}
has() { grep -qF -- "$2" "$1"; }

# 服务端后台（rxe0；--cm 时监听 0.0.0.0，地址决定设备）、客户端前台（rxe1）；$1 = 日志前缀，其余是两端共同的参数；
# 只给服务端的参数放在数组 SERVER_EXTRA 里
SERVER_EXTRA=()
pair() {
    local p=$1 i sdev=(-d "$LAB_DEV0")
    shift
    [[ $1 == --cm ]] && sdev=()
    rm -f "$OUT/$p.ready"
    timeout 60 build/rdma_server "${sdev[@]}" "${SERVER_EXTRA[@]}" --ready-file "$OUT/$p.ready" "$@" >"$OUT/$p-s.log" 2>&1 &
    spid=$!
    for ((i = 0; i < 300; i++)); do [[ -s $OUT/$p.ready ]] && break; kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
    timeout 60 build/rdma_client "$LAB_IP0" -d "$LAB_DEV1" "$@" >"$OUT/$p-c.log" 2>&1
    crc=$?
    wait "$spid"
    src=$?
}

kver=$(uname -r)
[[ $kver == "$want_kver" ]]
result "kernel-$series" $? "虚拟机里 uname -r = $kver（期望 $want_kver）"

pair pair --op write_imm -q 2 --size 4K --iters 2 -t 20
ok=1
[[ $src == 0 && $crc == 0 ]] && has "$OUT/pair-c.log" '全部 2 轮 × 2 个QP 完成并校验通过' && ok=0
result "pair-$series" "$ok" "write_imm 2 QP × 4 KiB × 2 轮：服务端 $src，客户端 $crc" "$OUT/pair-s.log" "$OUT/pair-c.log"

if [[ $series == 5.10 ]]; then
    pair atomic --op fetch_add -q 1 --iters 1 -t 10
    ok=1
    [[ $crc == 1 ]] && has "$OUT/atomic-c.log" '状态=transport retry counter exceeded (12)' \
        && has "$OUT/atomic-c.log" "提示(内核): 这台机器运行的内核是 $kver。" \
        && has "$OUT/atomic-c.log" '实测于 5.10（Debian 11）；6.1、6.12 上原子操作成功，错误的 rkey 得到 REM_ACCESS_ERR；5.10 与 6.1 之间的内核没有测试。' \
        && ok=0
    result atomic-5.10 "$ok" "fetch_add：客户端 $crc，RETRY_EXC_ERR，提示点名内核 $kver 和实测范围" "$OUT/atomic-c.log"
fi
if [[ $series == 6.12 ]]; then
    pair flush --cm --op write -q 1 --iters 1 -t 10
    ok=1
    [[ $src == 0 && $crc == 0 ]] && has "$OUT/flush-s.log" 'qp_access_flags=0x30e' \
        && has "$OUT/flush-s.log" '（0x30e = REMOTE_WRITE|REMOTE_READ|REMOTE_ATOMIC|FLUSH_GLOBAL|FLUSH_PERSISTENT：' \
        && ok=0
    result flush-6.12 "$ok" "--cm：被动方 INIT 0x30e，说出 FLUSH_GLOBAL|FLUSH_PERSISTENT（服务端 $src，客户端 $crc）" "$OUT/flush-s.log"
fi

# QP 没开远端权限：rxe 的 check_op_valid 回 NAK Invalid Request，不是 REM_ACCESS_ERR（那是 MR 的事）
SERVER_EXTRA=(--inject qp-access)
pair qpaccess --op write -q 1 --size 2K --iters 1 -t 20
SERVER_EXTRA=()
ok=1
# 实测：5.10 的 rxe 不回 NAK，请求方重传到 RETRY_EXC_ERR（和 rkey/MR 权限一样，提示(内核)说出来）；6.1、6.12 是 REM_INV_REQ_ERR
if [[ $series == 5.10 ]]; then
    [[ $crc == 1 && $src == 1 ]] && has "$OUT/qpaccess-c.log" '状态=transport retry counter exceeded (12)' \
        && has "$OUT/qpaccess-c.log" "提示(内核): 这台机器运行的内核是 $kver。" && ok=0
else
    [[ $crc == 1 && $src == 1 ]] && has "$OUT/qpaccess-c.log" '状态=remote invalid request error (9)' && ok=0
fi
result "qpaccess-$series" "$ok" "--inject qp-access，WRITE：客户端 $crc（$(grep -m1 -o '状态=[^)]*)' "$OUT/qpaccess-c.log")），服务端 $src" \
    "$OUT/qpaccess-c.log"

# SRQ 的拆除：用 SRQ 的QP先改到 ERR，等 LAST_WQE_REACHED（有上限）再销毁；rxe 发不发这个事件按内核不同（docs/QP-TYPES.md）
pair srq --srq -q 4 --iters 2 -t 20
want=0
[[ $series == 6.12 ]] && want=4
ok=1
line='^用 SRQ 的 4 个QP已改到 ERR（ibv_modify_qp），[0-9]+ ms 内 '$want' 个收到了 IBV_EVENT_QP_LAST_WQE_REACHED$'
[[ $src == 0 && $crc == 0 ]] && grep -qE "$line" "$OUT/srq-s.log" && grep -qE "$line" "$OUT/srq-c.log" && ok=0
result "srq-$series" "$ok" "--srq 4 个QP：两端 $want 个 LAST_WQE_REACHED（$(grep -ho '[0-9]* ms 内 [0-9]* 个收到了' "$OUT/srq-s.log" "$OUT/srq-c.log" | tr '\n' ' ')）；服务端 $src，客户端 $crc" \
    "$OUT/srq-s.log" "$OUT/srq-c.log"
