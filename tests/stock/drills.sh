#!/usr/bin/env bash
# tests/stock/drills.sh - 演练（TAP；make test-stock 运行，不在 make test 里）：在一对原版 Debian 12 虚拟机里
# （lab/stock-run --flavour nftdrop：nftables.service 启用、input policy drop），learner 把 README、QUICKFIX、TROUBLESHOOTING
# 引用的每个建 rxe、防火墙、memlock 的错误做一次（tests/lab/stock-drills.sh），这里把虚拟机打印的原话和文档里引的原话对照：
# 两边都要有同一句。虚拟机打印的不一样时，改的是文档。
#   prove --exec bash tests/stock/drills.sh
#   STOCK_DRILLS_OUT=文件  不启动虚拟机，只重新判断一次以前存下的输出（logs/stock-drills.out）
# 没有镜像时跳过；CI=true 时算失败。一对开机一次，约 60 s。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
D=${STOCK_DISTRO:-debian12}

out=${STOCK_DRILLS_OUT:-}
if [[ -z $out ]]; then
    if ! bash lab/stock-images --check "$D"; then
        if [[ ${CI:-} == true || ${STOCK_REQUIRE:-0} == 1 ]]; then
            echo "1..1"
            echo "not ok 1 - stock $D image in the cache: missing; run sudo make stock-images STOCK=$D"
            exit 0
        fi
        echo "1..0 # SKIP 没有原版 $D 镜像: sudo make stock-images STOCK=$D"
        exit 0
    fi
    mkdir -p logs
    out=logs/stock-drills.out
    SECONDS=0
    lab/stock-run --distro "$D" --flavour nftdrop tests/lab/stock-drills.sh >"$out" 2>&1
    echo "# lab/stock-run --flavour nftdrop tests/lab/stock-drills.sh: $SECONDS s（输出: $out）"
fi
grep -E '^STAND-IN ' "$out" | sed 's/^/# /'

# 一次演练的输出（DRILL-BEGIN 和 DRILL-END 之间）和退出码。
# 判断时先把 body 的输出存进变量再找，不要 body | grep -q：grep -q 一找到就退出，awk 再写就被 SIGPIPE 杀掉（141），
# 在 pipefail 下整条管道算失败——同一份输出重新判断 40 次里有 1 次说“没有「完成并校验通过」”（最后一项，负载高时见过）
body() { awk -v h="DRILL-BEGIN $1 $2 rc=" -v e="DRILL-END $1 $2" 'index($0, h) == 1 { p = 1; next } $0 == e { p = 0 } p' "$out"; }
rc_of() { sed -n "s/^DRILL-BEGIN $1 $2 rc=\([0-9]*\)$/\1/p" "$out" | head -n 1; }
# 文档里 <!-- excerpt: 名字 --> 的 ```text 块（行尾空格去掉）
excerpt() {
    awk -v n="<!-- excerpt: $2 -->" '$0 == n { a = 1; next } a && /^```text$/ { p = 1; next } p && /^```$/ { exit } p' "$1" | sed 's/[[:space:]]*$//'
}

WHY=""
. tests/lib/tap.bash
# check 名字 说明 条件函数 参数...：条件函数成功就 ok，否则 not ok（WHY 是它留下的原因）并打印这次演练的输出
check() {
    local name=$1 what=$2 vm=$3 drill=$4
    shift 4
    WHY=""
    if [[ -z $(rc_of "$vm" "$drill") ]]; then
        WHY="没有这次演练的输出（$vm $drill）"
        notok "$name: $what: $WHY"
        return
    fi
    if "$@" "$vm" "$drill"; then pass "$name: $what"; else
        notok "$name: $what: $WHY"
        body "$vm" "$drill" | sed 's/^/#   | /'
    fi
}
# 条件：退出码
rc_is() { local want=$1 got; got=$(rc_of "$2" "$3"); [[ $got == "$want" ]] || { WHY="退出码 $got，应为 $want"; return 1; }; }
rc_nonzero() { local got; got=$(rc_of "$1" "$2"); [[ $got != 0 ]] || { WHY="退出码 0，应失败"; return 1; }; }
# 条件：文档（一个或几个文件）里有这句，虚拟机的输出里也有；文件 句子 vm 演练
quoted() {
    local docs=$1 q=$2 vm=$3 drill=$4 f
    for f in $docs; do
        grep -qF -- "$q" "$f" || { WHY="$f 里没有引这句「$q」"; return 1; }
    done
    [[ $(body "$vm" "$drill") == *"$q"* ]] || { WHY="文档引的「$q」，虚拟机里打印的不是这句"; return 1; }
    rc_nonzero "$vm" "$drill"
}
# 条件：文档的 excerpt 块每一行都在输出里
excerpt_in() {
    local f=$1 name=$2 vm=$3 drill=$4 line got
    got=$(body "$vm" "$drill" | sed 's/[[:space:]]*$//')
    [[ -n $(excerpt "$f" "$name") ]] || { WHY="$f 里没有 excerpt $name"; return 1; }
    while IFS= read -r line; do
        grep -qxF -- "$line" <<<"$got" || { WHY="$f 的 excerpt $name 这一行虚拟机没有打印: 「$line」"; return 1; }
    done < <(excerpt "$f" "$name")
    rc_nonzero "$vm" "$drill"
}
# 条件：learner 默认的 memlock 够 README 的例子（2 MiB），且 QUICKFIX 第 6 节写的就是这个数
memlock_default() {
    local v
    v=$(body "$1" "$2" | sed -n '2p')
    [[ $v == unlimited || ($v =~ ^[0-9]+$ && $v -ge 2048) ]] || { WHY="learner 的 ulimit -l 是 $v KiB，不够 README 的例子要的 2 MiB"; return 1; }
    grep -qF "Debian 12 上是 $v" QUICKFIX.md || { WHY="虚拟机里 learner 的 ulimit -l 是 $v，QUICKFIX 第 6 节没有写这个数（「Debian 12 上是 $v」）"; return 1; }
}
# 条件：sudo ./diagnose.sh --peer 在防火墙一节说出 policy drop 的链和修复命令，文档引了这句
diag_names_fw() {
    local got q='nft 的 input 链 (inet filter input) 默认策略是 drop，且没有放行 UDP 4791 的规则'
    got=$(body "$1" "$2")
    grep -qF -- "$q" TROUBLESHOOTING.md || { WHY="TROUBLESHOOTING.md 里没有引这句「$q」"; return 1; }
    # 链里只放行 lo、已建立的连接、ICMP 和 18515：一定丢掉对端的 4791，是失败（退出码 1），不是警告
    [[ $got == *"[失败] $q"* ]] || { WHY="diagnose.sh 没有以「失败」指出 policy drop 的链"; return 1; }
    rc_nonzero "$1" "$2" || return 1
    [[ $got == *"修复: sudo nft insert rule inet filter input udp dport 4791 accept"* ]] || { WHY="没有给出放行 4791 的修复"; return 1; }
}
# 条件：learner 不加 sudo 运行 diagnose.sh：说读不了防火墙，不给防火墙“通过”，结论不说“全部检查通过”
diag_learner() {
    local got last
    got=$(body "$1" "$2")
    grep -qF '那一项是“跳过”' README.md || { WHY='README 里没有「那一项是“跳过”」'; return 1; }
    [[ $got == *"[跳过] 没有检查防火墙: 读 nft/iptables/ufw 的规则要 root"* ]] || { WHY="没有说读不了防火墙"; return 1; }
    [[ $got != *"[通过] nft"* && $got != *"[通过] ufw"* && $got != *"[通过] iptables"* ]] || { WHY='给了没查过的防火墙「通过」'; return 1; }
    last=$(grep '^结论: ' <<<"$got" | tail -n 1)
    [[ $last != "结论: 全部检查通过" && $last == *"没有检查"* ]] || { WHY="结论「$last」没有说有的项没查"; return 1; }
}
pair_ok() {
    rc_is 0 "$1" "$2" || return 1
    [[ $(body "$1" "$2") == *完成并校验通过* ]] || { WHY='没有「完成并校验通过」'; return 1; }
}
setup_ok() { grep -q "^RESULT drill-setup-$1 ok" "$out" || { WHY=$(grep -m1 "^RESULT drill-setup-$1 \|^RESULT drill-" "$out"); return 1; }; }

# 计划行放在最后（TAP 允许）：项数跟着上面的演练走
for vm in vm0 vm1; do
    n=$((n + 1)); WHY=""
    if setup_ok "$vm"; then echo "ok $n - setup-$vm: 网络、sudo、代码树"; else echo "not ok $n - setup-$vm: ${WHY:-没有结果}"; tap_failed=$((tap_failed + 1)); fi
done
# 建 rxe 的错误原话由 QUICKFIX（第 0 节的表）和 TROUBLESHOOTING（症状索引和安装一节）引；README 只指过去（每件事只说一次，
# 2026-11-29 起 README 不再抄这些原话）
Q0="QUICKFIX.md TROUBLESHOOTING.md"
check einval-vm1 "内核加载不了 rdma_rxe 时 rdma link add 的原话" vm1 einval quoted "$Q0" "error: Invalid argument"
for vm in vm0 vm1; do
    check "no-such-device-$vm" "README 快速开始那一行原样（没有 eth0）" "$vm" no-such-device quoted "$Q0" "error: No such device"
    check "create-$vm" "rdma link add rxe0 在真实网卡上" "$vm" create rc_is 0
    check "file-exists-$vm" "同一条 rdma link add 第二次" "$vm" file-exists quoted "$Q0" "error: File exists"
    check "file-exists-netdev-$vm" "新名字 rxe1 建在已有 rxe0 的网卡上（文档: 「这块网卡上已经有 rxe」）" "$vm" file-exists-netdev quoted "$Q0" "error: File exists"
done
check name-taken-vm0 "名字 rxe0 用在另一块网卡（veth x0）上" vm0 name-taken quoted "$Q0" "error: Too many open files in system"
check memlock-default-vm1 "learner 默认的 ulimit -l 够 README 的例子，QUICKFIX 写的是这个数" vm1 memlock-default memlock_default
check memlock-vm1 "ulimit -l 64 的 learner 运行 -q 1 --size 1M：TROUBLESHOOTING 的 excerpt memlock 原样" vm1 memlock excerpt_in TROUBLESHOOTING.md memlock
check memlock-raise-vm1 "普通用户调不高硬限制（QUICKFIX 第 6 节的原话）" vm1 memlock-raise quoted QUICKFIX.md "cannot modify limit: Operation not permitted"
for vm in vm0 vm1; do
    check "fw-partial-$vm" "README 的 nft 块少了 4791 那一行（policy drop 的规则集上）" "$vm" fw-partial rc_is 0
done
check fw-client-vm1 "只放行了 18515：客户端 RETRY_EXC_ERR，TROUBLESHOOTING 的 excerpt firewall-client 原样" vm1 fw-client excerpt_in TROUBLESHOOTING.md firewall-client
for vm in vm0 vm1; do
    check "diagnose-peer-$vm" "sudo ./diagnose.sh --peer 指出 policy drop 的链和修复" "$vm" diagnose-peer diag_names_fw
    check "diagnose-learner-$vm" "learner 不加 sudo 的 ./diagnose.sh 不给没查过的防火墙「通过」" "$vm" diagnose-learner diag_learner
    check "fw-fixed-$vm" "补上 4791 那一行" "$vm" fw-fixed rc_is 0
done
check fixed-server-vm0 "补上以后同一对：服务端" vm0 fixed-server rc_is 0
check fixed-client-vm1 "补上以后同一对：客户端完成并校验通过" vm1 fixed-client pair_ok
echo "1..$n"
((tap_failed == 0)) || echo "# 完整输出: $out"
