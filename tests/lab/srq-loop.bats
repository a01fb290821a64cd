#!/usr/bin/env bats
# srq-loop.bats - 手工复现用，不在 make test 里（docs/KERNELS.md 的“6.1：--srq 的带宽测试偶尔……”）：
# bench.bats 的 check_bench bw send 4 --srq 那一对循环 SRQ_LOOP_N 次（默认 20），虚拟机里旁边两个忙循环（SRQ_BUSY=0 不要），
# 每次打印 rxe 计数的变化；失败时打印两边的错误行和前后的全部计数，日志拷到 logs/srq-fail-N-*.log。
#   SRQ_LOOP_N=30 LAB_KERNEL=6.1 LAB_PASSENV=SRQ_LOOP_N lab/run bats --tap tests/lab/srq-loop.bats
# 变量 SLOG/CLOG/SRC/CRC 由 helpers.bash 的函数设置（shellcheck 看不到）
# shellcheck disable=SC2153
load helpers
# 一个设备的全部 hw_counters：名字=值 …
ctr() { local d=/sys/class/infiniband/$1/ports/1/hw_counters f; for f in "$d"/*; do printf '%s=%s ' "${f##*/}" "$(<"$f")"; done; }
# 两次计数之间变了的那几个（名字=差）
delta() { local a b k v out=""; declare -A o; for a in $1; do o[${a%%=*}]=${a#*=}; done
    for b in $2; do k=${b%%=*} v=${b#*=}; [[ $k == *pkts* || $k == rdma_* || $k == lifespan ]] && continue
        (( v != ${o[$k]:-0} )) && out+="$k=$((v - ${o[$k]:-0})) "; done; printf '%s' "$out"; }
@test "srq loop" {
    local n=${SRQ_LOOP_N:-20} fail=0 busy=() i
    if [[ ${SRQ_BUSY:-1} == 1 ]]; then for i in 1 2; do (while :; do :; done) & busy+=($!); done; fi
    for ((i = 1; i <= n; i++)); do
        local c0 c1
        c0=$(ctr rxe0) c1=$(ctr rxe1)
        run_pair --bench bw --op send -q 4 --size "${SRQ_SIZE:-4096}" --iters "${SRQ_ITERS:-200}" -t 60 --srq
        if [[ $SRC != 0 || $CRC != 0 ]]; then
            fail=$((fail + 1))
            echo "# run $i FAIL src=$SRC crc=$CRC" >&3
            grep -h '错误' "$SLOG" "$CLOG" | sed 's/^/#   /' >&3
            echo "#   rxe0 before: $c0" >&3; echo "#   rxe0 after:  $(ctr rxe0)" >&3
            echo "#   rxe1 before: $c1" >&3; echo "#   rxe1 after:  $(ctr rxe1)" >&3
            cp "$SLOG" "logs/srq-fail-$i-server.log"; cp "$CLOG" "logs/srq-fail-$i-client.log"
        else
            echo "# run $i ok $(delta "$c1" "$(ctr rxe1)") | srv $(delta "$c0" "$(ctr rxe0)")" >&3
        fi
    done
    ((${#busy[@]})) && kill "${busy[@]}" 2>/dev/null || true
    echo "# kernel $(uname -r): $fail failures of $n" >&3
    dmesg | grep -i rxe | tail -20 | sed 's/^/# dmesg: /' >&3 || true
}
