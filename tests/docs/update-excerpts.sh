#!/usr/bin/env bash
# tests/docs/update-excerpts.sh - 从实验室的真实运行重新生成文档里的输出摘录
#
# 文档（README.md TROUBLESHOOTING.md QUICKFIX.md QP_STATE_USAGE.md docs/*.md，英文版 docs/*.en.md 也在内）里的程序输出都不是手写的。
# 英文页的摘录名是中文那个加 .en（cut_NAME.en）：同一个配方加 --lang en 再跑一次（只跑英文页用到的几个，实验室里多约 10 秒）。
# 每段摘录夹在两行标记之间（标记各占一行，在 ``` 代码块外面）：
#     <!-- excerpt: NAME -->
#     ```text
#     ...由本脚本写入...
#     ```
#     <!-- /excerpt -->
# NAME 对应下面 cut_NAME 函数，它从 logs/excerpts/ 里某个配方（recipe）的完整日志中
# 按正则（不是按行号）截取需要的行。
#
# 用法（仓库根目录，需要先 make 和 bash lab/setup）：
#   tests/docs/update-excerpts.sh            = --run 然后 --apply（make docs-excerpts）
#   tests/docs/update-excerpts.sh --run      在实验室里跑全部配方（一次 lab/run），完整日志存到 logs/excerpts/
#   tests/docs/update-excerpts.sh --apply    从 logs/excerpts/ 截取摘录，改写四个文档里“含义变了”的摘录
#   tests/docs/update-excerpts.sh --check    同 --apply，但只比较不改文件；含义有变化则退出 1（tests/36-lab-docs.t 用）
#   tests/docs/update-excerpts.sh --mask     把标准输入里每次运行都不同的值换成 …（见 mask）
#   tests/docs/update-excerpts.sh --list     列出所有摘录名
#   tests/docs/update-excerpts.sh --in-lab   （由 --run 通过 lab/run 在虚拟机里调用）
# 唯一不在实验室里跑的配方是 host-enosys：它在宿主机（内核没有 RDMA）上运行客户端。
#
# 比较之前先“屏蔽”每次运行都不同的值（PSN、QP号、rkey/lkey、内存地址、fe80 链路本地 GID、用时、MB/s、UD 的 GRH 里 IPv4 头的标识和校验和），
# 所以只有含义的变化才算不一致。--apply 只改写含义变了的摘录，其余保持原样：
# 审阅者在 git diff 里看到的每一处摘录变化都是程序输出真的变了，而不是随机数。
# 另外 tests/docs/key-sentences.txt 列出关键的讲解句子，每句都必须在真实运行的日志里逐字出现——
# 改了讲解的意思，就得同时改这个文件，审阅者在 diff 里一眼就能看到。
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=logs/excerpts
DOCS=(README.md TROUBLESHOOTING.md QUICKFIX.md QP_STATE_USAGE.md docs/*.md)
SERVER=build/rdma_server
CLIENT=build/rdma_client

# ======================================================================
# 配方：在虚拟机里运行（rxe0 = 10.11.0.1 / veth0，rxe1 = 10.11.0.2 / veth1）
# ======================================================================

# 等服务端开始监听（或已经退出）
wait_listen() {  # wait_listen LOG PID
    local i
    for ((i = 0; i < 600; i++)); do
        grep -q -e '等待客户端连接' -e 'Waiting for a client' "$1" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || return 0
        sleep 0.1
    done
    return 0
}

# pair NAME "服务端参数" "客户端参数" [客户端标准输入的文字]
# 服务端: build/rdma_server -d rxe0 参数；客户端: build/rdma_client 10.11.0.1 -d rxe1 参数
pair() {
    local name=$1 sargs cargs spid src=0 crc=0
    read -r -a sargs <<<"$2"
    read -r -a cargs <<<"$3"
    echo "recipe $name: $SERVER -d rxe0 $2 | $CLIENT 10.11.0.1 -d rxe1 $3" >&2
    timeout 120 "$SERVER" -d rxe0 "${sargs[@]}" >"$OUT/$name.server.log" 2>&1 &
    spid=$!
    wait_listen "$OUT/$name.server.log" "$spid"
    if (($# >= 4)); then
        printf '%s' "$4" | timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${cargs[@]}" >"$OUT/$name.client.log" 2>&1 || crc=$?
    else
        timeout 120 "$CLIENT" 10.11.0.1 -d rxe1 "${cargs[@]}" >"$OUT/$name.client.log" 2>&1 </dev/null || crc=$?
    fi
    wait "$spid" || src=$?
    echo "server=$src client=$crc" >"$OUT/$name.rc"
}

# single NAME 命令...：只运行一个命令（stdout+stderr 合并）
single() {
    local name=$1 rc=0
    shift
    echo "recipe $name: $*" >&2
    timeout 120 "$@" >"$OUT/$name.log" 2>&1 </dev/null || rc=$?
    echo "rc=$rc" >"$OUT/$name.rc"
}

# 服务端 + 一个假的对端（bash 的 /dev/tcp）；$2 是发给服务端的字节
fake_peer() {
    local name=$1 data=$2 spid src=0 fd
    echo "recipe $name: $SERVER -d rxe0 + fake peer" >&2
    timeout 120 "$SERVER" -d rxe0 >"$OUT/$name.server.log" 2>&1 &
    spid=$!
    wait_listen "$OUT/$name.server.log" "$spid"
    exec {fd}<>/dev/tcp/10.11.0.1/18515
    printf '%b' "$data" >&"$fd"
    if [[ $name == peer-closed ]]; then
        exec {fd}>&-
        wait "$spid" || src=$?
    else
        wait "$spid" || src=$?
        exec {fd}>&-
    fi
    echo "server=$src" >"$OUT/$name.rc"
}

in_lab() {
    mkdir -p "$OUT"
    # ---- 正常运行 ----
    pair send "" ""
    # 最初版本的位置参数写法
    local spid src=0 crc=0
    echo "recipe positional: $SERVER rxe0 18515 1 4 | $CLIENT 10.11.0.1 rxe1 18515 1 4" >&2
    timeout 120 "$SERVER" rxe0 18515 1 4 >"$OUT/positional.server.log" 2>&1 &
    spid=$!
    wait_listen "$OUT/positional.server.log" "$spid"
    timeout 120 "$CLIENT" 10.11.0.1 rxe1 18515 1 4 >"$OUT/positional.client.log" 2>&1 || crc=$?
    wait "$spid" || src=$?
    echo "server=$src client=$crc" >"$OUT/positional.rc"

    pair qp-state-0 "-q 2 --qp-state 0" "-q 2 --qp-state 0"
    pair write "-q 2 --op write --size 4K --iters 2" "-q 2 --op write --size 4K --iters 2"
    pair write-1m "-q 1 --op write --size 1M --iters 3" "-q 1 --op write --size 1M --iters 3"
    pair read "-q 2 --op read --size 4K" "-q 2 --op read --size 4K"
    pair write-imm "-q 2 --op write_imm --iters 2" "-q 2 --op write_imm --iters 2"
    pair fetch-add "-q 2 --op fetch_add --iters 3" "-q 2 --op fetch_add --iters 3"
    pair cmp-swap "-q 2 --op cmp_swap --iters 2 --offset 8" "-q 2 --op cmp_swap --iters 2 --offset 8"
    pair interactive "--interactive" "--interactive" $'hello\nworld\nq\n'
    # RC 之外：UD 和 SRQ（docs/QP-TYPES.md）
    pair ud "-q 2 --qp ud --op send --size 64 --iters 2" "-q 2 --qp ud --op send --size 64 --iters 2"
    pair srq "-q 4 --srq --op send --size 512 --iters 2" "-q 4 --srq --op send --size 512 --iters 2"
    pair english "-q 2 --lang en" "-q 2 --lang en"
    pair counters "-q 4 --size 4K --counters" "-q 4 --size 4K --counters"
    single dry-run "$CLIENT" 10.11.0.1 -d rxe1 --op write --size 1M --iters 10 --dry-run
    single show-gids ./show_gids.sh
    single show-gids-en ./show_gids.sh --lang en
    single diagnose ./diagnose.sh

    # ---- 参数/配置错误 ----
    single bad-qp "$SERVER" -q 17
    pair mismatch-qp "-q 4" "-q 2"
    pair mismatch-op "--op write" "--op read"
    pair mismatch-size "--size 128" ""
    single unknown-dev "$CLIENT" 10.11.0.1 -d mlx5_9
    single gid-empty "$CLIENT" 10.11.0.1 -d rxe1 -g 5
    single gid-range "$CLIENT" 10.11.0.1 -d rxe1 -g 5000
    single gid-ll "$SERVER" -d rxe0 -g 0 --accept-timeout 1
    pair gid-mixed "-q 1 -g 0 -t 3" "-q 1 -t 3"
    # 普通用户、锁页内存只有 64 KiB：ibv_reg_mr 以 ENOMEM 失败（root 有 CAP_IPC_LOCK，不受限制）
    single memlock runuser -u nobody -- bash -c "ulimit -l 64; exec $CLIENT 10.11.0.1 -d rxe1 -q 1 --size 1M"

    # 英文页（docs/*.en.md）的摘录 NAME.en：同一个配方加 --lang en 再跑一次，只跑英文页用到的（这 3 个和最后的 diagnose-port-down.en）
    single gid-empty.en "$CLIENT" 10.11.0.1 -d rxe1 -g 5 --lang en
    pair gid-mixed.en "-q 1 -g 0 -t 3 --lang en" "-q 1 -t 3 --lang en"
    single memlock.en runuser -u nobody -- bash -c "ulimit -l 64; exec $CLIENT 10.11.0.1 -d rxe1 -q 1 --size 1M --lang en"

    # ---- 控制平面错误 ----
    single no-server "$CLIENT" 10.11.0.1 -d rxe1 -p 18599 -t 2
    # 英文（issue 28，docs/README.en.md）：一对 --lang en 和没有服务端时的错误+提示
    single no-server-en "$CLIENT" 10.11.0.1 -d rxe1 -p 18599 -t 2 --lang en
    fake_peer magic 'GET / HTTP/1.0\r\nHost: x\r\nUser-Agent: test-test-test\r\n\r\n'
    fake_peer peer-closed 'RCV2'
    # ibv_rc_pingpong 也默认用 TCP 18515：它连我们的服务端 / 我们的客户端连它
    echo "recipe rc-pingpong" >&2
    local pp
    timeout 120 "$SERVER" -d rxe0 -t 5 >"$OUT/rc-pingpong.server.log" 2>&1 &
    pp=$!
    wait_listen "$OUT/rc-pingpong.server.log" "$pp"
    # rc_pingpong 的客户端有时把我们的 HELLO 当成它的地址继续往下走，卡在它自己的 RTR 上（我们的服务端早已退出）：5 秒就够
    timeout 5 ibv_rc_pingpong -d rxe1 -g 1 -n 1 10.11.0.1 >"$OUT/rc-pingpong.pp-client.log" 2>&1 || true
    wait "$pp" || true
    timeout 30 ibv_rc_pingpong -d rxe0 -g 1 -n 1 -p 18610 >"$OUT/rc-pingpong.pp-server.log" 2>&1 &
    pp=$!
    for ((i = 0; i < 100; i++)); do [[ -n $(ss -Hltn 'sport = :18610') ]] && break; sleep 0.1; done
    timeout 60 "$CLIENT" 10.11.0.1 -d rxe1 -p 18610 -t 5 >"$OUT/rc-pingpong.client.log" 2>&1 </dev/null || true
    wait "$pp" || true
    # perftest（ib_send_bw）也默认用 TCP 18515：它连我们的服务端 / 我们的客户端连它
    echo "recipe perftest" >&2
    timeout 120 "$SERVER" -d rxe0 -t 5 >"$OUT/perftest.server.log" 2>&1 &
    pp=$!
    wait_listen "$OUT/perftest.server.log" "$pp"
    timeout 30 ib_send_bw -d rxe1 -x 1 -F 10.11.0.1 >"$OUT/perftest.pt-client.log" 2>&1 || true
    wait "$pp" || true
    timeout 30 ib_send_bw -d rxe0 -x 1 -F -p 18611 >"$OUT/perftest.pt-server.log" 2>&1 &
    pp=$!
    for ((i = 0; i < 100; i++)); do [[ -n $(ss -Hltn 'sport = :18611') ]] && break; sleep 0.1; done
    timeout 60 "$CLIENT" 10.11.0.1 -d rxe1 -p 18611 -t 5 >"$OUT/perftest.client.log" 2>&1 </dev/null || true
    kill "$pp" 2>/dev/null || true
    wait "$pp" || true
    local first
    echo "recipe port-in-use" >&2
    timeout 60 "$SERVER" -d rxe0 -p 18600 --accept-timeout 20 >"$OUT/port-in-use.first.log" 2>&1 &
    first=$!
    wait_listen "$OUT/port-in-use.first.log" "$first"
    single port-in-use "$SERVER" -d rxe0 -p 18600
    kill "$first" 2>/dev/null || true
    wait "$first" 2>/dev/null || true

    # ---- 数据面错误 ----
    # 故障注入：客户端故意用错误的 rkey 做 RDMA WRITE → 对端网卡拒绝（REM_ACCESS_ERR）
    pair inject-rkey "-q 1 --op write -t 3" "-q 1 --op write -t 3 --inject rkey"
    # 故障注入：客户端在发出之前改坏一个字节 → 服务端的逐字节校验失败
    pair inject-payload "-q 1 --op write --size 4K -t 3" "-q 1 --op write --size 4K -t 3 --inject payload"
    # 对端地址消失：交互模式下两端都到了 RTS，之后删掉服务端网卡的 IPv4 地址（它的 GID 随之消失），
    # 客户端的 RDMA WRITE 得不到应答。服务端连 TCP（走 lo 到 10.11.0.1）也收不到了，只能等很久才发现（实测约 20 秒）：
    # 文档只摘客户端这一边，所以客户端结束后就结束服务端，不等它。
    # 客户端的标准输入是一个管道，地址删掉之后才写进 hello 和 q（不猜时间：以前是先睡 6 秒，服务端慢于 6 秒时 hello 会在删地址之前发出）
    echo "recipe peer-gone" >&2
    src=0 crc=0
    timeout 40 "$SERVER" -d rxe0 -q 1 --interactive >"$OUT/peer-gone.server.log" 2>&1 &
    spid=$!
    wait_listen "$OUT/peer-gone.server.log" "$spid"
    local cin cpid i
    exec {cin}> >(exec timeout 60 "$CLIENT" 10.11.0.1 -d rxe1 -q 1 --interactive -t 20 >"$OUT/peer-gone.client.log" 2>&1)
    cpid=$!
    for ((i = 0; i < 300; i++)); do
        grep -q '服务端只盯着' "$OUT/peer-gone.server.log" && break
        sleep 0.1
    done
    ip addr del 10.11.0.1/24 dev veth0
    printf 'hello\nq\n' >&"$cin"
    exec {cin}>&-
    wait "$cpid" || crc=$?
    kill "$spid" 2>/dev/null
    wait "$spid" || src=$?
    echo "server=$src client=$crc" >"$OUT/peer-gone.rc"

    # ---- 弄坏实验室（放在最后，不恢复：虚拟机随后就关掉）----
    # rxe1 绑定的网卡 down：端口不再 ACTIVE
    ip link set veth1 down
    sleep 1
    single port-down "$CLIENT" 10.11.0.1 -d rxe1
    single diagnose-port-down ./diagnose.sh rxe1
    single diagnose-port-down.en ./diagnose.sh --lang en rxe1
    echo "recipes done" >&2
}

# logs/paths-*.log 齐全（tests/lab/two-vms-paths.sh 写的 6 个）且都比 build 出的两个程序新
paths_logs_fresh() {
    local f n=0
    for f in logs/paths-*.log; do
        [[ -f $f && $f -nt $SERVER && $f -nt $CLIENT ]] || return 1
        n=$((n + 1))
    done
    ((n >= 6))
}

run_recipes() {
    [[ -x $SERVER && -x $CLIENT ]] || { echo "错误: 先运行 make" >&2; exit 1; }
    local keep
    keep=$(mktemp -d)
    cp "$OUT"/host-enosys.* "$OUT"/host-enosys-en.* "$keep"/ 2>/dev/null || true
    rm -rf "$OUT"
    mkdir -p "$OUT"
    cp "$keep"/* "$OUT"/ 2>/dev/null || true
    rm -rf "$keep"
    lab/run tests/docs/update-excerpts.sh --in-lab
    # 两台虚拟机之间的路径错误（RDMA 设备建错网卡等）：tests/lab/two-vms-paths.sh 把日志写到 logs/paths-*.log
    # EXCERPTS_REUSE_PATHS=1（tests/36-lab-docs.t）：tests/62-two-vms-paths.t 已经用同一个 build 跑过这个脚本，
    # 它的日志都比两个程序新就直接用，不再开一次两台虚拟机。make test 里 36 排在 62 前面，所以是反过来的：
    # 这里跑一次、输出存进 $OUT/two-vms-paths.out，62 在同一次 make test 里直接用它（LAB_REUSE_SINCE，见 62）
    if [[ ${EXCERPTS_REUSE_PATHS:-0} == 1 ]] && paths_logs_fresh; then
        echo "两台虚拟机的路径日志: 用 tests/62-two-vms-paths.t 刚留下的 logs/paths-*.log" >&2
        cp logs/paths-*.log "$OUT"/
    else
        rm -f logs/paths-*.log
        LAB_TOPOLOGY=two-vms lab/run tests/lab/two-vms-paths.sh >"$OUT/two-vms-paths.out" 2>&1 || true
        mv logs/paths-*.log "$OUT"/ 2>/dev/null || true
    fi
    # 宿主机（内核没有 RDMA）上的配方
    if [[ ! -e /sys/class/infiniband ]]; then
        single host-enosys "$CLIENT" 10.11.0.1 -q 1
        single host-enosys-en "$CLIENT" 10.11.0.1 -q 1 --lang en     # docs/KERNELS.en.md
    else
        echo "注意: 这台机器有 /sys/class/infiniband，保留旧的 host-enosys 摘录" >&2
    fi
}

# ======================================================================
# 截取：每个摘录一个 cut_NAME 函数，按字面子串（不是行号）从完整日志里取行
# ======================================================================

# 去掉开头和结尾的空行
trim() { awk 'NF { for (; blank > 0; blank--) print ""; print; started = 1; next } started { blank++ }'; }

# step FILE TITLE：标题含 TITLE 的那个“步骤”块（到下一个步骤标题之前；英文的日志是 “========== Step N: ”）
step() {
    awk -v t="$2" '/^========== (步骤|Step )[0-9]+: / { if (on) exit; if (index($0, t)) on = 1 } on' "$OUT/$1" | trim
}
# span FILE START [END]：从第一行含 START 的行，到其后第一行含 END 的行之前（END 为空则到文件尾）
span() {
    awk -v a="$2" -v b="${3:-}" '!on && index($0, a) { on = 1; print; next } on && b != "" && index($0, b) { exit } on' "$OUT/$1" | trim
}
# pick FILE PATTERN...：含任一字面子串的行
pick() {
    local f=$1 args=()
    shift
    for p in "$@"; do args+=(-e "$p"); done
    grep -F "${args[@]}" "$OUT/$f" || true
}
whole() { trim <"$OUT/$1"; }

# 摘录名 → 截取方法（改这里就能改摘录的范围）
cut_dry-run() { whole dry-run.log; }
cut_show-gids() { whole show-gids.log; }
cut_show-gids-en() { whole show-gids-en.log; }
cut_diagnose() { whole diagnose.log; }
cut_send-server-head() { span send.server.log '========================================' '步骤5:'; }
cut_positional-server-gid() { step positional.server.log '步骤4:'; }
cut_send-client-exchange() { step send.client.log '步骤11:'; }
cut_send-server-data() { span send.server.log '步骤14:' '步骤16:'; }
cut_send-client-data() { step send.client.log '步骤15:'; }
cut_send-server-cleanup() { span send.server.log '步骤16:'; }
cut_write-server-data() { step write.server.log '步骤15:'; }
cut_write-client-data() { step write.client.log '步骤15:'; }
cut_write-1m-client-data() { step write-1m.client.log '步骤15:'; }
cut_read-client-data() { step read.client.log '步骤15:'; }
cut_write-imm-server-data() { step write-imm.server.log '步骤15:'; }
cut_fetch-add-client-data() { step fetch-add.client.log '步骤15:'; }
cut_fetch-add-server-data() { step fetch-add.server.log '步骤15:'; }
cut_cmp-swap-client-data() { step cmp-swap.client.log '步骤15:'; }
cut_interactive-server() { step interactive.server.log '交互模式'; }
cut_interactive-client() { step interactive.client.log '交互模式'; }
cut_qp-init() { step send.server.log 'RESET->INIT'; }
cut_qp-rtr() { step send.server.log 'INIT->RTR'; }
cut_qp-rts() { step send.server.log 'RTR->RTS'; }
cut_qp-state-0() { step qp-state-0.server.log 'INIT->RTR'; }
cut_host-enosys() { span host-enosys.log '步骤1:'; }
cut_host-enosys-en() { span host-enosys-en.log 'Step 1:'; }
cut_unknown-dev() { step unknown-dev.log '步骤2:'; }
cut_gid-empty() { step gid-empty.log '步骤4:'; }
cut_gid-range() { pick gid-range.log '错误:'; }
cut_gid-ll() { step gid-ll.log '步骤4:'; }
cut_accept-timeout() { pick gid-ll.log '等待客户端连接超时' '提示: 客户端启动了吗'; }
cut_gid-mixed-server() { step gid-mixed.server.log 'INIT->RTR'; }
cut_gid-mixed-debug() { span gid-mixed.server.log '错误: 修改QP[0]到RTR状态失败' '请检查:'; }
cut_memlock() { step memlock.log '步骤6:'; }
cut_bad-qp() { whole bad-qp.log; }
cut_mismatch-qp-server() { step mismatch-qp.server.log '步骤11:'; }
cut_mismatch-qp-client() { step mismatch-qp.client.log '步骤11:'; }
cut_mismatch-op-server() { step mismatch-op.server.log '步骤11:'; }
cut_mismatch-size-client() { step mismatch-size.client.log '步骤11:'; }
cut_no-server() { step no-server.log '步骤10:'; }
cut_counters-client() { span counters.client.log '端口计数（--counters）' '========== 步骤'; }
cut_english-server-11-13() { span english.server.log '========== Step 11:' '========== Step 14:'; }
cut_english-no-server() { span no-server-en.log '========== Step 10:' 'Device list freed'; }
cut_magic() { step magic.server.log '步骤11:'; }
cut_peer-closed() { step peer-closed.server.log '步骤11:'; }
cut_rc-pingpong-server() { step rc-pingpong.server.log '步骤11:'; }
cut_rc-pingpong-client() { step rc-pingpong.client.log '步骤11:'; }
cut_perftest-server() { step perftest.server.log '步骤11:'; }
cut_perftest-itself() { pick perftest.pt-client.log 'not compatible'; }
cut_port-in-use() { step port-in-use.log '步骤10:'; }
cut_inject-rkey-client-wc() { pick inject-rkey.client.log '故障注入('; step inject-rkey.client.log '步骤15:'; }
cut_inject-rkey-server() { step inject-rkey.server.log '步骤15:'; }
cut_inject-payload-client() { pick inject-payload.client.log '故障注入(' '错误:'; }
cut_inject-payload-server() { step inject-payload.server.log '步骤15:'; }
cut_ud-steps() { step ud.server.log 'RESET->INIT'; step ud.server.log 'INIT->RTR'; step ud.server.log 'RTR->RTS'; step ud.client.log '创建地址句柄AH'; }
cut_ud-grh() { span ud.server.log '接收缓冲区的前 40 字节' '  QP[0] 第1轮收到'; }
cut_srq() { step srq.server.log '创建共享接收队列SRQ'; pick srq.server.log '创建4个RC QP' 'SRQ 限位已装上' '  IBV_EVENT_SRQ_LIMIT_REACHED' 'SRQ: 缓冲区' '异步事件:' '说明: SRQ 里的接收请求' '已销毁SRQ'; }
cut_wrong-nic-auto() { step paths-wrong-nic-auto.log '步骤2:'; }
cut_firewall-client() { span paths-firewall-client.log '错误: 工作完成(WC)失败' '========== 步骤'; }
cut_firewall-diagnose() { span paths-firewall-diagnose.log '== 6.' '== 7.'; }
cut_mtu-server() { pick paths-mtu-server.log '本地连接信息:' '远端连接信息:' '路径MTU取两端' '路径检查（RTR 之前）' '网卡 eth0 的 MTU' '全部 '; }
cut_unreachable() { span paths-unreachable.log '========== 步骤2:' '选择设备:'; step paths-unreachable.log '步骤10:'; }
cut_wrong-nic-diagnose() { span paths-wrong-nic-diagnose.log '== 7. 对端' '========== 总结'; }
cut_wrong-nic-explicit-gid() { span paths-wrong-nic-explicit.log '  → 索引' '  说明: GID'; }
cut_wrong-nic-explicit-rtr() { span paths-wrong-nic-explicit.log '错误: 修改QP[0]到RTR状态失败' '请检查:'; }
cut_two-devices-route() { span paths-two-devices.log '到服务端 10.11.0.1 的路由' '选择设备:'; }
cut_two-devices-path() { pick paths-two-devices.log '路径检查（RTR 之前）' '网卡 eth0 的 MTU'; }
cut_peer-gone-client() { step peer-gone.client.log '交互模式'; }
cut_port-down() { step port-down.log '步骤3:'; }
cut_diagnose-port-down() { whole diagnose-port-down.log; }
# 英文页的摘录：名字是中文那个加 .en，取同一个配方加 --lang en 的那次运行（英文页里程序的输出也是真实运行的，不是手译的）
cut_gid-empty.en() { step gid-empty.en.log 'Step 4:'; }
cut_gid-mixed-debug.en() { span gid-mixed.en.server.log 'error: Failed to move QP[0] to RTR' 'Please check:'; }
cut_memlock.en() { step memlock.en.log 'Step 6:'; }
cut_diagnose-port-down.en() { whole diagnose-port-down.en.log; }

list_names() { declare -F | awk '$3 ~ /^cut_/ { sub(/^cut_/, "", $3); print $3 }'; }

# 生成全部摘录到目录 $1（每个摘录一个文件）；任何摘录为空都算错
make_excerpts() {
    local dir=$1 name bad=0
    [[ -d $OUT ]] || { echo "错误: 没有 $OUT/；先运行 $0 --run（需要实验室）" >&2; return 1; }
    for name in $(list_names); do
        "cut_$name" >"$dir/$name" 2>/dev/null || true
        if [[ ! -s $dir/$name ]]; then
            echo "错误: 摘录 '$name' 是空的：配方的输出变了，或 $OUT/ 不完整？请修改 cut_$name" >&2
            bad=1
        fi
    done
    return "$bad"
}

# 把文档 $1 的标记区域替换成目录 $2 里的摘录，写到 stdout
rewrite_doc() {
    awk -v dir="$2" -v doc="$1" '
        /^<!-- excerpt: [A-Za-z0-9_.-]+ -->$/ {
            if (inside) { printf "%s:%d: 摘录标记没有闭合\n", doc, NR > "/dev/stderr"; err = 1 }
            name = $3; file = dir "/" name
            print; print "```text"; n = 0
            while ((getline line < file) > 0) { print line; n++ }
            if (n == 0) { printf "%s:%d: 未知的摘录名 %s（--list 查看）\n", doc, NR, name > "/dev/stderr"; err = 1 }
            close(file); print "```"; inside = 1; next
        }
        /^<!-- \/excerpt -->$/ { if (!inside) { printf "%s:%d: 多余的 /excerpt\n", doc, NR > "/dev/stderr"; err = 1 } inside = 0; print; next }
        !inside { print }
        END { if (inside) { printf "%s: 摘录标记没有闭合\n", doc > "/dev/stderr"; err = 1 } exit err }
    ' "$1"
}

# 每次运行都不同的值 → …（两边都屏蔽之后再比较）
mask() {
    sed -E -e 's/fe80:[0-9a-f:]+/fe80:…/g' \
        -e 's/(PSN |psn=)0x[0-9a-f]+/\10x…/g' \
        -e 's/(QP号:? |qp_num=)0x[0-9a-f]+/\10x…/g' \
        -e 's/(rkey[ =]|lkey[ =])0x[0-9a-f]+/\10x…/g' -e 's/改成 0x[0-9a-f]{8}/改成 0x…/g' \
        -e 's/0x[0-9a-f]{12,16}/0x…/g' \
        -e 's/用时 [0-9.]+ 秒/用时 … 秒/g' \
        -e 's/平均 [0-9.]+ MB\/s/平均 … MB\/s/g' \
        -e 's/^(    45 00 00 [0-9a-f]{2}) [0-9a-f]{2} [0-9a-f]{2} (40 00 40 11) [0-9a-f]{2} [0-9a-f]{2}/\1 … … \2 … …/'
}

# 文档里现有的摘录（不含 ``` 行）写到目录 $1，每个摘录一个文件
doc_excerpts() {
    local doc
    for doc in "${DOCS[@]}"; do
        [[ -f $doc ]] || continue
        awk -v dir="$1" '
            /^<!-- excerpt: [A-Za-z0-9_.-]+ -->$/ { file = dir "/" $3; printf "" > file; on = 1; next }
            /^<!-- \/excerpt -->$/ { if (on) close(file); on = 0; next }
            on && !/^```/ { print > file }
        ' "$doc"
    done
}

# --apply / --check：屏蔽易变值后比较；--apply 只替换含义变了的摘录
apply_or_check() {
    local mode=$1 tmp doc name rc=0 changed=()
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    mkdir -p "$tmp/x" "$tmp/old"
    make_excerpts "$tmp/x" || return 1
    doc_excerpts "$tmp/old"
    for name in $(list_names); do
        [[ -f $tmp/old/$name ]] || continue     # 没有文档用到的摘录
        if diff -u --label "文档里的 $name（已屏蔽）" --label "这次运行的 $name（已屏蔽）" \
            <(mask <"$tmp/old/$name") <(mask <"$tmp/x/$name") >"$tmp/diff"; then
            cp "$tmp/old/$name" "$tmp/x/$name"   # 含义相同：保留文档里的原文
        else
            changed+=("$name")
            cat "$tmp/diff" >&2
        fi
    done
    if ((${#changed[@]})); then
        echo "含义变了的摘录（${#changed[@]} 个）: ${changed[*]}" >&2
        [[ $mode == check ]] && echo "程序输出变了：确认变化是有意的，然后运行 make docs-excerpts，在 git diff 里审阅这些摘录" >&2
        rc=1
    fi
    [[ $mode == check ]] && return "$rc"
    for doc in "${DOCS[@]}"; do
        [[ -f $doc ]] || continue
        rewrite_doc "$doc" "$tmp/x" >"$tmp/doc" || return 1
        if ! cmp -s "$doc" "$tmp/doc"; then
            cat "$tmp/doc" >"$doc"
            echo "已更新 $doc（git diff $doc 查看）" >&2
        fi
    done
    return 0
}

# 被 source 时（tools/console-diff/recipes.sh 借用上面的配方函数 pair/single/fake_peer/in_lab）只定义函数
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

case ${1:-} in
    --in-lab) in_lab ;;
    --run) run_recipes ;;
    --apply) apply_or_check apply ;;
    --check) apply_or_check check ;;
    --mask) mask ;;
    --list) list_names ;;
    "") run_recipes && apply_or_check apply ;;
    *) sed -n '2,29p' "$0" >&2; exit 2 ;;
esac
