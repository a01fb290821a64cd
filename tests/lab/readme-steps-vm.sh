#!/usr/bin/env bash
# tests/lab/readme-steps-vm.sh - 在两台没有 RDMA 设备的实验室虚拟机里，原样执行 README 的两台虚拟机步骤
# （由 tests/kernels/readme-steps.sh（make test-kernels）通过 LAB_TOPOLOGY=two-vms LAB_RXE=none lab/run 调用，两台里都运行；
#  LAB_VM=0 是服务端 10.11.0.1，1 是客户端 10.11.0.2，每台只有 eth0，和刚装好的真实虚拟机一样）。
#
# 命令从 README.md 取（tests/docs/readme-steps.sh，规则写在那里）。这里另外做的只有测试自己需要的事:
#   - README 的防火墙块在**空的**规则集上原样执行（和刚装好的 Debian 一样，测试不替它建表：块自己要能建出
#     inet filter 表和 input 链；旧的只有 nft insert 的写法在这里报 “Error: Could not process rule: No such file or directory”）。
#     块执行完以后，测试把 README 建的 input 链改成“默认拒绝”（policy drop，再在 README 的规则后面放行 lo、
#     已建立的连接和 ICMP），像一台加固过的主机：README 的 nft 规则必须足够让这一对程序通过
#     （UDP 4791 两台都要开：对端的 ACK 和 READ 响应也是发到 4791 的）；
#   - 两台之间的先后：lab/run 给两台的共享目录 $LAB_SYNC 里放标记文件（tests/lab/peer.bash，每次等待有写明的上限，
#     对端放弃时立刻失败）。客户端等两台都配置好、服务端的第 i 条命令已经在 18515 上监听，才运行第 i 条客户端命令；
#   - 最后反过来证明“两台都要开 4791”：客户端那台重新丢弃进来的 UDP 4791（服务端照旧放行），
#     再跑一对 write：服务端的 ACK 进不来，客户端重传 retry_cnt 次后 RETRY_EXC_ERR。
# 每个结果打印一行 “RESULT 名字 ok|fail 说明”。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

STEPS=tests/docs/readme-steps.sh
VM=${LAB_VM:?只在 two-vms 实验室里运行}
OUT=${TMPDIR:-/tmp}/readme-steps
mkdir -p "$OUT"
# shellcheck source=tests/lab/peer.bash
. tests/lab/peer.bash

result() {  # result 名字 0|非0 说明 [日志]
    if [[ $2 == 0 ]]; then echo "RESULT $1 ok $3"; else
        echo "RESULT $1 fail $3"
        [[ -n ${4:-} && -f $4 ]] && sed 's/^/    | /' "$4"
    fi
}

# README 的防火墙块之后: 它建的 input 链改成默认拒绝，只额外放行 lo、已建立的连接和 ICMP（放在 README 的规则后面）
# shellcheck disable=SC2317  # 经 run_block 的参数间接调用
default_deny() {
    nft -f - <<'NFT' || return 1
add rule inet filter input iif lo accept
add rule inet filter input ct state established,related accept
add rule inet filter input meta l4proto { icmp, ipv6-icmp } accept
chain inet filter input { policy drop; }
NFT
    nft list ruleset
    [[ $(nft list chain inet filter input) == *'policy drop;'* ]]
}

# README 的“保存规则”块（not-in-lab）改两处后执行：/etc 在虚拟机里是只读的，写到临时文件；没有 systemd，不 enable 服务。
# 然后清空规则集、用保存的文件恢复，规则必须和保存前一模一样（之后的服务端/客户端就跑在恢复出来的规则上）
save_restore() {
    local log=$OUT/firewall-save.log conf=$OUT/nftables.conf cmd before rc=0
    before=$(nft list ruleset)
    : >"$log"
    while IFS= read -r cmd; do
        cmd=${cmd//\/etc\/nftables.conf/$conf}
        cmd=${cmd% && sudo systemctl enable nftables}
        cmd=${cmd//sudo /}
        echo "+ $cmd" >>"$log"
        bash -c "$cmd" >>"$log" 2>&1 </dev/null || { rc=$?; break; }
    done < <("$STEPS" lines firewall-save)
    if ((rc == 0)); then
        { echo "+ nft flush ruleset; nft -f $conf"; nft flush ruleset && nft -f "$conf"; } >>"$log" 2>&1 || rc=$?
    fi
    if ((rc == 0)) && [[ $(nft list ruleset) != "$before" ]]; then
        { echo "恢复出来的规则和保存前不同:"; nft list ruleset; } >>"$log"
        rc=1
    fi
    result "firewall-save-vm$VM" "$rc" "VM$VM: README 的「firewall-save」块（写到临时文件、不 enable 服务）保存的规则，清空后能原样恢复" "$log"
    return "$rc"
}

run_block() {  # run_block 名字 [之后]：逐条执行，任何一条失败就算这一步失败；成功后再运行“之后”（测试自己的事），它失败也算失败
    local name=$1 after=${2:-} log=$OUT/$1.log cmd rc=0
    : >"$log"
    while IFS= read -r cmd; do
        echo "+ $cmd" >>"$log"
        timeout 120 bash -c "$cmd" >>"$log" 2>&1 </dev/null || { rc=$?; echo "  (退出码 $rc)" >>"$log"; }
        ((rc == 0)) || break
    done < <("$STEPS" lines "$name")
    if ((rc == 0)) && [[ -n $after ]]; then
        echo "+ （测试）$after" >>"$log"
        "$after" >>"$log" 2>&1 || { rc=$?; echo "  (测试自己的 $after 失败，退出码 $rc)" >>"$log"; }
    fi
    result "$name-vm$VM" "$rc" "VM$VM: README 的「$name」步骤逐条执行${after:+（之后: $after）}，退出码 $rc" "$log"
    return "$rc"
}

# ---------- 两台都做的步骤（README 里的顺序） ----------
while IFS=$'\t' read -r name where; do
    [[ $where == both ]] || continue
    # 持久化的块要 systemd 和可写的 /etc（实验室都没有）：rxe0.service 不执行（tests/70-stock-readme.t 在原版 Debian 上重启验证），
    # firewall-save 由 save_restore 改两处后执行
    [[ $name == persist-rxe || $name == firewall-save ]] && continue
    if [[ $name == firewall-nft ]]; then
        # 刚启动的虚拟机: 规则集是空的，README 的块要自己建表和链
        if [[ -n $(nft list ruleset) ]]; then
            result "$name-vm$VM" 1 "VM$VM: 防火墙块之前规则集就不是空的，测不出 README 的块能不能自己建表"
            continue
        fi
        run_block "$name" default_deny && save_restore
    else
        run_block "$name"
    fi
done < <("$STEPS" list)
# 配置完的样子：自己的 rxe0 建在 eth0 上，GID 是自己的地址
ok=1
grep -q "rxe0.*10.11.0.$((VM + 1)).*<== 自动选择" "$OUT/soft-roce.log" 2>/dev/null && ok=0
result "own-rxe0-vm$VM" "$ok" "VM$VM: show_gids 显示本机的 rxe0（eth0，10.11.0.$((VM + 1))）被自动选择" "$OUT/soft-roce.log"
peer_ready setup

# ---------- 服务端 / 客户端配对 ----------
mapfile -t SRV < <("$STEPS" lines server)
mapfile -t CLI < <("$STEPS" lines client)
if [[ $VM == 0 ]]; then
    need_peer setup "pair-0-server"
    for i in "${!SRV[@]}"; do
        log=$OUT/server-$i.log
        timeout $((PEER_BOUND + 60)) bash -c "${SRV[$i]}" >"$log" 2>&1 </dev/null &
        SERVE_PID=$!
        # README 的服务端命令原样执行（不能加 --ready-file）：等它在 18515 上监听，再告诉 VM1
        if ! listen_wait 18515 "$SERVE_PID"; then
            peer_abort "pair-$i-server（没有在 18515 上监听）"
            wait "$SERVE_PID"
            result "pair-$i-server" 1 "VM0 \`${SRV[$i]}\` 没有在 18515 上开始监听（上限 ${PEER_BOUND}s）" "$log"
            exit 0
        fi
        peer_ready "srv-$i"
        rc=0
        serve_wait || rc=$?
        ((rc == 2)) && { echo "RESULT pair-$i-server fail $PEER_WHY"; exit 0; }
        result "pair-$i-server" "$rc" "VM0 \`${SRV[$i]}\` 退出码 $rc" "$log"
    done
    # 反证：VM1 丢弃进来的 4791 之后，这一对必须失败
    need_peer vm1-drops-4791 client-4791-needed
    serve 18515 "$OUT/server-neg.log" timeout $((PEER_BOUND + 60)) build/rdma_server -q 1 --op write -t 5 \
        --accept-timeout "$PEER_BOUND" || exit 0
    serve_wait
    peer_done
else
    need_peer setup "pair-0-client"
    for i in "${!CLI[@]}"; do
        log=$OUT/client-$i.log
        need_peer "srv-$i" "pair-$i-client"
        timeout 180 bash -c "${CLI[$i]}" >>"$log" 2>&1 </dev/null
        rc=$?
        ok=$rc
        ((rc == 0)) && ! grep -q '完成并校验通过' "$log" && ok=1
        result "pair-$i-client" "$ok" "VM1 \`${CLI[$i]}\` 退出码 $rc（要求 0 且数据校验通过）" "$log"
    done
    nft insert rule inet filter input udp dport 4791 drop
    peer_ready vm1-drops-4791
    need_peer listen-18515 client-4791-needed
    SECONDS=0
    timeout 120 build/rdma_client 10.11.0.1 -q 1 --op write -t 20 >"$OUT/client-neg.log" 2>&1 </dev/null
    rc=$? took=$SECONDS ok=1
    [[ $rc == 1 ]] && grep -q 'transport retry counter exceeded' "$OUT/client-neg.log" && ((took < 15)) && ok=0
    result client-4791-needed "$ok" "只有服务端放行 4791 时: 客户端退出码 $rc，${took}s 内 RETRY_EXC_ERR（ACK 也发往客户端的 4791）" "$OUT/client-neg.log"
    peer_done
fi
exit 0
