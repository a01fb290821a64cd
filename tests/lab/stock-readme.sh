#!/usr/bin/env bash
# tests/lab/stock-readme.sh - 在一对原版 Debian 虚拟机里（lab/stock-run，root 运行本脚本；LAB_VM=0 是服务端 10.11.0.1，
# 1 是客户端 10.11.0.2），以 learner 在登录 shell 里原样执行 README 标记过的步骤（tests/70-stock-readme.t 调用）。
#
# 命令原样来自 README（tests/docs/readme-steps.sh raw：sudo 留着，只有 README 写了 sudo 的地方才用 sudo），
# 按 README 里标记的顺序执行：both 两台各做；vm0 块和紧跟着的 vm1 块第 i 条配第 i 条（服务端/客户端）；
# skip、not-in-lab 不执行。每一块之后两台对齐（tests/lab/peer.bash 的标记，有上限），再做下一块。
# harness 额外做的事（“替身”）和替换都以 STAND-IN / SUBSTITUTE 开头打印出来：
#   - 网络：虚拟化软件本来会给网卡一个地址；这里没有 DHCP，harness 用 ifupdown 配静态地址（/etc/network/interfaces.d/rocev2-lab）
#   - sudo：/etc/sudoers.d/rocev2-lab 给 learner NOPASSWD（镜像里 learner 在 sudo 组，本来要输密码）
#   - 代码：README 的 clone + make 由宿主机上编译好的树代替，复制到 ~learner/rocev2-learn；每块在 cd ~/rocev2-learn 之后运行
#   - 替换：只有 README 点名的占位符：网卡 eth0 → 这台的真实网卡名，<对端IP> → 另一台的地址；
#     地址 10.11.0.1/10.11.0.2 和 README 一样，不替换
# 每个结果打印一行 “RESULT 名字 ok|fail 说明”。
set -uo pipefail
P=${LAB_PROJ_RO:?只在 lab/stock-run 里运行}
VM=${LAB_VM:?}
STEPS=$P/tests/docs/readme-steps.sh
# shellcheck source=tests/lab/peer.bash
. "$P/tests/lab/peer.bash"
OUT=/tmp/stock-readme
mkdir -p "$OUT"
chmod 755 "$OUT"
# shellcheck source=tests/lab/stock-common.bash
. "$P/tests/lab/stock-common.bash"
# 管事的防火墙：变体 ufw 上是 ufw（README 第 5 步的顺序），别的是 nft；README 的防火墙块按它选
FW=nft
[[ ${STOCK_FLAVOUR:-plain} == ufw ]] && FW=ufw

# README 的一行 → 这台上要运行的一行（只替换 README 点名的占位符：eth0，和 <对端IP>），有替换就打印
subst() {
    local line=$1 new
    new=$(sed -E "s/(^|[^[:alnum:]_])eth0([^[:alnum:]_]|$)/\\1$NIC\\2/g; s/<对端IP>/$PEERIP/g; s/route get 10\\.11\\.0\\.2 /route get $PEERIP /g" <<<"$line")
    [[ $new == "$line" ]] || echo "SUBSTITUTE vm$VM: '$line' → '$new'" >&2
    printf '%s\n' "$new"
}

# 一块（both）：逐条执行，任何一条失败就停在这一条
run_block() {  # run_block 名字
    local name=$1 log=$OUT/$1.log sh=$OUT/$1.sh line rc=0 before
    before=$(nft list ruleset 2>&1)
    : >"$sh"
    while IFS= read -r line; do
        line=$(subst "$line" 2>>"$OUT/subst.log")
        # shellcheck disable=SC2016  # 写进块脚本：$? 和 $rc 在 learner 的 shell 里展开
        printf 'printf "+ %%s\\n" %q\n%s\nrc=$?; if ((rc != 0)); then echo "  (退出码 $rc)"; return "$rc"; fi\n' "$line" "$line" >>"$sh"
    done < <(bash "$STEPS" raw "$name" "$FW")
    chmod 644 "$sh"
    cat "$OUT/subst.log" 2>/dev/null
    : >"$OUT/subst.log"
    as_learner "$sh" >"$log" 2>&1 || rc=$?
    local note=""
    [[ -z $before ]] && note="（这一块之前规则集是空的）"
    result "$name-vm$VM" "$rc" "VM$VM: README 的「$name」以 learner 逐条执行，退出码 $rc$note" "$log"
}

# 配对（vm0 块第 i 条 ↔ vm1 块第 i 条）
run_pair() {  # run_pair 服务端块 客户端块
    local srv=() cli=() i line log sh rc
    mapfile -t srv < <(bash "$STEPS" raw "$1")
    mapfile -t cli < <(bash "$STEPS" raw "$2")
    if [[ $VM == 0 ]]; then
        for i in "${!srv[@]}"; do
            log=$OUT/server-$i.log sh=$OUT/server-$i.sh
            line=$(subst "${srv[$i]}")
            # README 的服务端命令原样执行：等 18515 进入 LISTEN 再告诉 VM1
            if ! learner_serve "$line" "$sh" "$log" "pair-$i-server"; then
                wait "$SERVE_PID"
                result "pair-$i-server" 1 "VM0 \`$line\` 没有在 18515 上开始监听（上限 ${PEER_BOUND}s）" "$log"
                return
            fi
            peer_ready "srv-$i"
            rc=0
            serve_wait || rc=$?
            ((rc == 2)) && { echo "RESULT pair-$i-server fail $PEER_WHY"; return; }
            result "pair-$i-server" "$rc" "VM0 learner \`$line\` 退出码 $rc" "$log"
        done
    else
        for i in "${!cli[@]}"; do
            log=$OUT/client-$i.log sh=$OUT/client-$i.sh
            need_peer "srv-$i" "pair-$i-client"
            line=$(subst "${cli[$i]}")
            printf '%s\n' "$line" >"$sh"
            chmod 644 "$sh"
            rc=0
            as_learner "$sh" >"$log" 2>&1 || rc=$?
            local ok=$rc
            ((rc == 0)) && ! grep -q '完成并校验通过' "$log" && ok=1
            result "pair-$i-client" "$ok" "VM1 learner \`$line\` 退出码 $rc（要求 0 且数据校验通过）" "$log"
        done
    fi
}

# ---------- LAB_BOOT=2：重启之后（make test-stock，STOCK_REBOOT=1） ----------
# README 的持久化：rxe0 的 systemd 单元（persist-rxe）让 rxe0 开机回来；nft 的规则由 firewall-save 存进 /etc/nftables.conf，
# ufw 的规则 ufw 自己存着。重启后两台都要有 rxe0 和放行 4791 的规则，README 的第一对服务端/客户端原样再跑一次
after_reboot() {
    local log=$OUT/after-reboot.log ok=1 devs rules what
    stock_find_nic
    peer_ready b2-up
    need_peer b2-up "after-reboot-vm$VM"
    # 单元在 network-online.target 之后才运行：等 rxe0 出现（上限 60 秒）
    local i
    for ((i = 0; i < 300; i++)); do
        [[ -e /sys/class/infiniband/rxe0 ]] && break
        peer_nap 0.2
    done
    {
        echo "+ systemctl status rxe0.service"; systemctl --no-pager status rxe0.service
        echo "+ ibv_devices（learner）"; runuser -l learner -c ibv_devices
        echo "+ rdma link show"; rdma link show
        echo "+ nft list ruleset"; nft list ruleset
        [[ $FW == ufw ]] && { echo "+ ufw status"; ufw status; }
    } >"$log" 2>&1
    devs=$(ls /sys/class/infiniband 2>/dev/null)
    rules=$(nft list ruleset 2>&1)
    # 覆盖层跨过了重启：第一次开机复制的代码树和 sudoers 还在，开机计数是 2
    local kept=0
    [[ -d $TREE/build && -f /etc/sudoers.d/rocev2-lab && $LAB_BOOT == 2 ]] && kept=1
    if [[ $FW == ufw ]]; then
        # ufw allow 的规则 ufw 自己存着（/etc/ufw/user.rules），开机时 ufw.service 装回去
        local st
        st=$(ufw status 2>&1)
        [[ $kept == 1 && $devs == rxe0 && $st == *"Status: active"* && $st == *"4791/udp"*ALLOW* ]] && ok=0
        what="ufw 还是 active，README 的 ufw allow 4791/udp 还在（ufw 自己保存）"
    elif [[ ${STOCK_FLAVOUR:-plain} == nftdrop ]]; then
        [[ $kept == 1 && $devs == rxe0 && $rules == *"policy drop"* && $rules == *"udp dport 4791 accept"* ]] && ok=0
        what="/etc/nftables.conf 装回了 policy drop 和 README 的 udp dport 4791 accept"
    else
        [[ $kept == 1 && $devs == rxe0 && $rules == *"udp dport 4791 accept"* ]] && ok=0
        what="nftables 服务装回了 README 的 udp dport 4791 accept"
    fi
    result "after-reboot-vm$VM" "$ok" "VM$VM 重启后（覆盖层还在，开机第 $LAB_BOOT 次）: rxe0 由 README 的 rxe0.service 建回来了（$devs），$what" "$log"
    # README 的第一对原样再跑一次
    local srv cli line sh rc
    srv=$(bash "$STEPS" raw server | head -n 1)
    cli=$(bash "$STEPS" raw client | head -n 1)
    if [[ $VM == 0 ]]; then
        sh=$OUT/b2-server.sh log=$OUT/b2-server.log
        line=$(subst "$srv" 2>/dev/null)
        if ! learner_serve "$line" "$sh" "$log" after-reboot-pair-server; then
            wait "$SERVE_PID"
            result after-reboot-pair-server 1 "VM0 重启后 \`$line\` 没有在 18515 上开始监听" "$log"
        else
            peer_ready b2-srv
            rc=0
            serve_wait || rc=$?
            result after-reboot-pair-server "$rc" "VM0 重启后 learner \`$line\` 退出码 $rc" "$log"
        fi
    else
        need_peer b2-srv after-reboot-pair-client
        sh=$OUT/b2-client.sh log=$OUT/b2-client.log
        line=$(subst "$cli" 2>/dev/null)
        printf '%s\n' "$line" >"$sh"
        chmod 644 "$sh"
        rc=0
        as_learner "$sh" >"$log" 2>&1 || rc=$?
        ok=$rc
        ((rc == 0)) && ! grep -q '完成并校验通过' "$log" && ok=1
        result after-reboot-pair-client "$ok" "VM1 重启后 learner \`$line\` 退出码 $rc（要求 0 且数据校验通过）" "$log"
    fi
    peer_ready b2-done
    need_peer b2-done "after-reboot-vm$VM"
    exit 0
}

if ((${LAB_BOOT:-1} >= 2)); then after_reboot; fi

# ---------- 镜像本身是不是“原版”的样子 ----------
{
    read -r pid1 </proc/1/comm
    mid=$(</etc/machine-id)
    nfts=$(systemctl is-enabled nftables.service 2>&1)
    rules=$(nft list ruleset 2>&1)
    uidl=$(id learner 2>&1)
    limits=$(runuser -l learner -c 'ulimit -l; ulimit -n' 2>&1 | tr '\n' ' ')
    echo "image: pid1=$pid1 kernel=$(uname -r) machine-id=$mid nftables.service=$nfts ruleset=[${rules}] learner=[$uidl] learner limits (-l -n)=[$limits]"
    if [[ $FW == ufw ]]; then
        ufws=$(ufw status 2>&1)
        netd=$(systemctl is-active systemd-networkd.service 2>&1)
        ifupd=$(command -v ifup || echo none)
        echo "ufw: status=[$ufws] systemd-networkd=$netd ifup=$ifupd netplan=$(command -v netplan || echo none)"
    fi
} >"$OUT/image.log" 2>&1
cat "$OUT/image.log"
ok=1
if [[ ${STOCK_FLAVOUR:-plain} == nftdrop ]]; then
    # 变体：nftables.service 启用，开机就载入 input policy drop
    [[ $pid1 == systemd && $nfts == enabled && $rules == *"policy drop"* && $uidl == "uid=1000(learner)"*"(sudo)"* ]] && ok=0
    fw="nftables.service $nfts、input 链 policy drop"
elif [[ $FW == ufw ]]; then
    # 变体 ufw：Ubuntu 的样子（netplan + systemd-networkd，没有 ifupdown），ufw 开机就启用；
    # ufw 经 iptables-nft 建的表 nft list ruleset 里看得见（README 第 5 步第 1 条说的）
    [[ $pid1 == systemd && $ufws == "Status: active"* && $netd == active && $ifupd == none && $rules == *ufw-user-input* &&
        $uidl == "uid=1000(learner)"*"(sudo)"* ]] && ok=0
    fw="ufw ${ufws%%$'\n'*}、systemd-networkd $netd、没有 ifupdown、nft list ruleset 里有 ufw 的链"
else
    [[ $pid1 == systemd && $nfts == disabled && -z $rules && $uidl == "uid=1000(learner)"*"(sudo)"* ]] && ok=0
    fw="nftables.service $nfts、规则集为空"
fi
result "stock-image-vm$VM" "$ok" "PID 1 是 systemd，内核 $(uname -r)，$fw，learner uid 1000 在 sudo 组，limits（-l -n）: $limits" "$OUT/image.log"
printf '%s\n' "$mid" >"$LAB_SYNC/vm$VM.machine-id"

# ---------- 替身：网络、sudo、代码 ----------
stock_setup "network-vm$VM" || exit 0
[[ $NIC == eth0 ]] || echo "SUBSTITUTE vm$VM: 占位符 eth0 → $NIC（README: 「eth0 换成通往对端的网卡」）"
echo "SUBSTITUTE vm$VM: 地址不替换：README 写的服务端 10.11.0.1、客户端 10.11.0.2 就是这一对的地址；占位符 <对端IP> → $PEERIP"
if stock_mirror; then :; else result "mirror-vm$VM" 1 "没有软件源的磁盘（卷标 rocev2-mirror）: sudo bash lab/stock-repo"; peer_abort "软件源"; exit 0; fi

# ---------- README 的快速开始（标记 quickstart）：以 learner 原样运行 ----------
# 行尾注释说了在哪台：「服务端」只在 VM0、「客户端」只在 VM1、「只在 Ubuntu 上」哪台都不运行（这是 Debian），其余两台都运行，
# 按顺序写进同一个脚本（第 4 行设的 NIC 给第 5 行用）。唯一的替换：取网卡那一行里的对端地址（README：「10.11.0.2 换成对端的地址」）。
# 然后配对运行服务端/客户端，两端的最后几行和 README 引的原话对照。做完以后 harness 删掉 rxe0（打印出来），README 的第 1–6 步从头再来
quick_lines() {  # quick_lines both|server|client|ubuntu：快速开始里这一类的行
    local line
    while IFS= read -r line; do
        case $line in
            *'#'*'只在 Ubuntu'*) [[ $1 == ubuntu ]] && printf '%s\n' "$line" ;;
            # 「只在 ufw 启用时」：管事的防火墙是 ufw 的那台（变体 ufw）当作两台的行运行，别处不运行（打印出来）
            *'#'*'只在 ufw'*) if [[ $FW == ufw ]]; then [[ $1 == both ]] && printf '%s\n' "$line"; else [[ $1 == ubuntu ]] && printf '%s\n' "$line"; fi ;;
            *'#'*'服务端'*) [[ $1 == server ]] && printf '%s\n' "$line" ;;
            *'#'*'客户端 '*) [[ $1 == client ]] && printf '%s\n' "$line" ;;
            *) [[ $1 == both ]] && printf '%s\n' "$line" ;;
        esac
    done < <(bash "$STEPS" raw quickstart)
}
quick_peer() {  # 取网卡那一行：README 写的对端地址是 10.11.0.2（服务端上的对端），客户端上换成 10.11.0.1
    local new=${1//route get 10.11.0.2 /route get $PEERIP }
    [[ $new == "$1" ]] || echo "SUBSTITUTE vm$VM: 快速开始 '$1' → '$new'（README: 「10.11.0.2 换成对端的地址」）" >&2
    printf '%s\n' "$new"
}
# README 引的成功时的原话：服务端/客户端的最后一行和两端都有的「全部 … 完成并校验通过，用时 … 秒」
# shellcheck disable=SC2016  # sed 的正则里的反引号是 Markdown 的，不是命令替换
quick_quotes() {
    local para
    para=$(grep -m1 '成功时服务端的最后一行是' "$P/README.md")
    Q_SRV=$(sed -nE 's/.*成功时服务端的最后一行是 `([^`]*)`.*/\1/p' <<<"$para")
    Q_CLI=$(sed -nE 's/.*客户端的是 `([^`]*)`.*/\1/p' <<<"$para")
    Q_ALL=$(sed -nE 's/.*都是`([^`]*)`.*/\1/p; s/.*都是 `([^`]*)`.*/\1/p' <<<"$para" | head -n 1)
}
quick_check_tail() {  # quick_check_tail 日志 最后一行：最后一个非空行是它，往上有 Q_ALL（用时的数字不比）
    local last pat
    last=$(grep -v '^[[:space:]]*$' "$1" | tail -n 1)
    pat=$(sed -E 's/[0-9]+\.[0-9]+ 秒/[0-9]+.[0-9]+ 秒/' <<<"$Q_ALL")
    [[ -n $2 && $last == "$2" ]] && grep -qE "^$pat\$" "$1"
}
run_quickstart() {
    local sh=$OUT/quickstart.sh log=$OUT/quickstart.log line rc=0 ok=1 nic_out ubu t0=$SECONDS
    ubu=$(quick_lines ubuntu)
    echo "STEP vm$VM: 快速开始里这几行不运行（这是 Debian；ufw 那一行只在 ufw 启用时运行）: $ubu"
    : >"$sh"
    while IFS= read -r line; do
        line=$(quick_peer "$line")
        # shellcheck disable=SC2016  # 写进块脚本：$? 和 $rc 在 learner 的 shell 里展开
        printf 'printf "+ %%s\\n" %q\n%s\nrc=$?; if ((rc != 0)); then echo "  (退出码 $rc)"; return "$rc"; fi\n' "$line" "$line" >>"$sh"
    done < <(quick_lines both)
    chmod 644 "$sh"
    as_learner "$sh" >"$log" 2>&1 || rc=$?
    nic_out=$(sed -n 's/^NIC=//p' "$log" | tail -n 1)
    [[ $rc == 0 && $nic_out == "$NIC" && -e /sys/class/infiniband/rxe0 ]] && ok=0
    result "quickstart-vm$VM" "$ok" "VM$VM: README 的快速开始（两台的 $(quick_lines both | wc -l) 行）以 learner 原样运行，退出码 $rc，打印的 NIC=$nic_out（真实网卡 $NIC），rxe0 建好了" "$log"
    # 没有到对端的路由时，取网卡那一行报什么（README 引了这两句）：对端换成一个没有路由的地址（192.0.2.1，TEST-NET-1）
    local nr=$OUT/quickstart-noroute.sh nrlog=$OUT/quickstart-noroute.log
    quick_lines both | grep -F 'route get' | sed 's/route get 10\.11\.0\.2 /route get 192.0.2.1 /' >"$nr"
    chmod 644 "$nr"
    as_learner "$nr" >"$nrlog" 2>&1
    ok=1
    grep -qF 'RTNETLINK answers: Network is unreachable' "$nrlog" && grep -qF 'NIC: parameter null or not set' "$nrlog" &&
        grep -qF 'RTNETLINK answers: Network is unreachable' "$P/README.md" && grep -qF 'NIC: parameter null or not set' "$P/README.md" && ok=0
    result "quickstart-noroute-vm$VM" "$ok" "VM$VM: 没有到对端的路由（192.0.2.1）时取网卡那一行报 README 引的两句" "$nrlog"
    peer_ready quick-rxe
    need_peer quick-rxe "quickstart-pair-vm$VM"
    quick_quotes
    if [[ ${STOCK_FLAVOUR:-plain} == nftdrop ]]; then
        # nftdrop 的 input 链 policy drop 挡着 18515 和 4791：快速开始只替 ufw 放行（README：别的防火墙见第 5 步），
        # 这里它的一对本来就过不了；第 5 步的 nft 块之后的一对照常检查
        echo "NOTE vm$VM: nftdrop（input policy drop）上快速开始的一对不跑：README 让 ufw 以外的防火墙去第 5 步，第 5 步之后的一对照常检查"
    else
        if [[ $VM == 0 ]]; then
            line=$(quick_lines server)
            if ! learner_serve "$line" "$OUT/quick-server.sh" "$OUT/quick-server.log" quickstart-server; then
                wait "$SERVE_PID"
                result quickstart-server 1 "VM0 \`$line\` 没有在 18515 上开始监听" "$OUT/quick-server.log"
            else
                peer_ready quick-srv
                rc=0
                serve_wait || rc=$?
                ok=1
                ((rc == 0)) && quick_check_tail "$OUT/quick-server.log" "$Q_SRV" && ok=0
                result quickstart-server "$ok" "VM0 learner 快速开始的 \`$line\` 退出码 $rc，最后一行是 README 引的「$Q_SRV」，往上有「$Q_ALL」（用时不比）" "$OUT/quick-server.log"
            fi
        else
            need_peer quick-srv quickstart-client
            line=$(quick_lines client)
            printf '%s\n' "$line" >"$OUT/quick-client.sh"
            chmod 644 "$OUT/quick-client.sh"
            rc=0
            as_learner "$OUT/quick-client.sh" >"$OUT/quick-client.log" 2>&1 || rc=$?
            ok=1
            ((rc == 0)) && quick_check_tail "$OUT/quick-client.log" "$Q_CLI" && ok=0
            result quickstart-client "$ok" "VM1 learner 快速开始的 \`$line\` 退出码 $rc，最后一行是 README 引的「$Q_CLI」，往上有「$Q_ALL」（用时不比）" "$OUT/quick-client.log"
        fi
    fi
    peer_ready quick-done
    need_peer quick-done "quickstart-vm$VM"
    echo "TIMING vm$VM: 快速开始（apt-get、make、建 rxe、没有路由的一行、一对）$((SECONDS - t0)) s"
    # README 的第 4 步从没有 rxe 的样子开始（快速开始和第 1–6 步是同一件事的两种写法）
    rdma link delete rxe0 >/dev/null 2>&1
    stand "快速开始之后 harness 运行 rdma link delete rxe0（rdma_rxe 还加载着），README 的第 1–6 步从头再做一遍"
    # ufw 上快速开始的 ufw allow 规则 ufw 自己存着：删掉，第 5 步之前的 diagnose 才看得到没放行时的样子
    if [[ $FW == ufw ]]; then
        ufw delete allow 4791/udp >/dev/null 2>&1
        ufw delete allow 18515/tcp >/dev/null 2>&1
        stand "快速开始之后 harness 运行 ufw delete allow 4791/udp、ufw delete allow 18515/tcp（第 5 步之前回到 ufw 默认拒绝的样子）"
    fi
}

# ---------- 测试自己在某几块之后多看的事（从 tests/56-lab-readme-steps.t 搬来） ----------
# soft-roce 之后：show_gids 显示本机的 rxe0（本机网卡、本机地址）被自动选择
after_soft_roce() {
    local ok=1
    grep -q "rxe0.*$MYIP.*<== 自动选择" "$OUT/soft-roce.log" 2>/dev/null && ok=0
    result "own-rxe0-vm$VM" "$ok" "VM$VM: README 的 ./show_gids.sh 显示本机的 rxe0（$NIC，$MYIP）被自动选择" "$OUT/soft-roce.log"
}
# firewall-nft 之后（plain：之前规则集是空的）：测试把 input 链改成默认丢弃（只另外放行 lo、已建立的连接、ICMP），
# 之后的服务端/客户端就只靠 README 放行的规则通过（README 的规则够用）
after_firewall_nft() {
    [[ ${STOCK_FLAVOUR:-plain} == plain ]] || return 0
    local log=$OUT/default-deny.log rc=0
    nft -f - >"$log" 2>&1 <<'NFT' || rc=$?
add rule inet filter input iif lo accept
add rule inet filter input ct state established,related accept
add rule inet filter input meta l4proto { icmp, ipv6-icmp } accept
chain inet filter input { policy drop; }
NFT
    nft list ruleset >>"$log" 2>&1
    [[ $rc == 0 && $(nft list chain inet filter input 2>&1) == *'policy drop;'* ]] || rc=1
    stand "防火墙: README 的 nft 块之后，测试把 inet filter input 改成 policy drop（另外只放行 lo、已建立的连接、ICMP），之后的程序只靠 README 的放行规则"
    result "default-deny-vm$VM" "$rc" "VM$VM: README 的 nft 块之后 input 链改成默认丢弃" "$log"
}
# 管事的防火墙的那一块（ufw 上 firewall-other 的 ufw 一行，别处 firewall-nft）前后，learner 用 sudo 运行 ./diagnose.sh（README 出错时让做的），
# 看第 6 节：之前 ufw（默认拒绝）、nftdrop（policy drop）上是“失败”并给出这个防火墙自己的修复命令，plain（空规则集）上是“通过”；
# 之后第 6 节没有“失败”、管事的那个是“通过”。ufw 上不该出现往 ufw 的表里插 nft/iptables 规则的修复
diag_fw() {  # diag_fw before|after
    local log=$OUT/diagnose-fw-$1.log sec rc=0 ok=1 want
    printf 'sudo ./diagnose.sh\n' >"$OUT/diagnose-fw.sh"
    chmod 644 "$OUT/diagnose-fw.sh"
    as_learner "$OUT/diagnose-fw.sh" >"$log" 2>&1 || rc=$?
    sec=$(sed -n '/^== 6\./,/^$/p' "$log")
    if [[ $1 == before && $FW == ufw ]]; then
        want="[失败] ufw 已启用、默认拒绝进来的报文，且没有放行 UDP 4791 的规则"
        [[ $sec == *"$want"* && $sec == *"修复: sudo ufw allow 4791/udp"* && $sec != *"sudo nft insert"* && $sec != *"sudo iptables"* ]] && ok=0
    elif [[ $1 == before && ${STOCK_FLAVOUR:-plain} == nftdrop ]]; then
        want="[失败] nft 的 input 链 (inet filter input) 默认策略是 drop"
        [[ $sec == *"$want"* && $sec == *"修复: sudo nft insert rule inet filter input udp dport 4791 accept"* ]] && ok=0
    elif [[ $1 == before ]]; then
        want="[通过] nft 规则没有拦截 UDP 4791"
        [[ $sec == *"$want"* ]] && ok=0
    else
        want="[通过] nft 规则没有拦截 UDP 4791"
        [[ $FW == ufw ]] && want="[通过] ufw 已启用，并放行了 UDP 4791"
        [[ $sec == *"$want"* && $sec != *"[失败]"* ]] && ok=0
    fi
    result "diagnose-fw-$1-vm$VM" "$ok" "VM$VM: 防火墙那一块之$([[ $1 == before ]] && echo 前 || echo 后)，sudo ./diagnose.sh 的第 6 节有「$want」（退出码 $rc）" "$log"
}

# firewall-save 之后：清空规则集，用 README 存下的 /etc/nftables.conf 恢复，规则必须和保存前一模一样
after_firewall_save() {
    local log=$OUT/firewall-restore.log before rc=0
    before=$(nft list ruleset 2>&1)
    { echo "+ nft flush ruleset; nft -f /etc/nftables.conf"; nft flush ruleset && nft -f /etc/nftables.conf; } >"$log" 2>&1 || rc=$?
    if ((rc == 0)) && [[ $(nft list ruleset 2>&1) != "$before" ]]; then
        { echo "恢复出来的规则和保存前不同:"; nft list ruleset; } >>"$log" 2>&1
        rc=1
    fi
    result "firewall-restore-vm$VM" "$rc" "VM$VM: README 的 firewall-save 存下的 /etc/nftables.conf 清空后原样恢复规则" "$log"
}

run_quickstart
# 两台都做完快速开始再做第 1–6 步
peer_ready quick-end
need_peer quick-end "quickstart-vm$VM"

# ---------- README 的顺序 ----------
mapfile -t marks < <(bash "$STEPS" list "$FW")
k=0
for ((m = 0; m < ${#marks[@]}; m++)); do
    IFS=$'\t' read -r name where <<<"${marks[$m]}"
    case $where in
        both)
            [[ $name == firewall-nft && $FW == nft || $name == firewall-other && $FW == ufw ]] && diag_fw before
            run_block "$name"
            [[ $name == firewall-nft && $FW == nft || $name == firewall-other && $FW == ufw ]] && diag_fw after
            case $name in
                soft-roce) after_soft_roce ;;
                firewall-nft) after_firewall_nft ;;
                firewall-save) after_firewall_save ;;
            esac
            ;;
        vm0)
            IFS=$'\t' read -r next nwhere <<<"${marks[$((m + 1))]:-}"
            if [[ $nwhere == vm1 ]]; then
                echo "STEP vm$VM: $name + $next（服务端/客户端配对）"
                run_pair "$name" "$next"
                m=$((m + 1))
            else
                [[ $VM == 0 ]] && run_block "$name"
            fi
            ;;
        vm1) [[ $VM == 1 ]] && run_block "$name" ;;
        *) echo "STEP vm$VM: $name 不执行（$where）"; continue ;;
    esac
    # 两台都做完这一块再做下一块
    k=$((k + 1))
    peer_ready "block-$k"
    need_peer "block-$k" "after-$name-vm$VM"
done

# ---------- verbs-check（issue 57）：只用 README 装的东西，learner 在 verbs-check 下运行 ibv_rc_pingpong -g 1 ----------
# 端口用默认的 18515（README 的防火墙块只放行它和 4791）。两边干净、每边打印带对端地址的复制命令；VM1 原样运行它（这台原版机器上没有 scp：替身从共享目录复制 VM0 的日志，打印成 STAND-IN），
# --pair 配成一对、干净。TIMING 行是它用的秒数
stock_vc() {
    local sh=$OUT/vc.sh log=$OUT/vc.log rc=0 ok=1 cmd want
    SECONDS=0
    if [[ $VM == 0 ]]; then
        if ! learner_serve 'build/verbs-check --log ~/vc -- ibv_rc_pingpong -g 1 -n 20' "$sh" "$log" verbs-check-vm0; then
            wait "$SERVE_PID"
            result verbs-check-vm0 1 "VM0 learner 的 ibv_rc_pingpong 没有在 18515 上监听" "$log"
            return
        fi
        peer_ready vc-18515
        # 客户端走完（vm1.vc-client-done）后服务端最多再等 30 秒：客户端失败时它不会自己结束（上限还有 as_learner 的 timeout）
        local left=-1 pp
        while kill -0 "$SERVE_PID" 2>/dev/null; do
            ((left < 0)) && [[ -e $LAB_SYNC/vm1.vc-client-done ]] && left=150
            ((left == 0)) && break
            ((left > 0)) && left=$((left - 1))
            peer_nap 0.2
        done
        pp=$(pgrep -x ibv_rc_pingpong) && kill -INT "$pp"
        wait "$SERVE_PID" || rc=$?
        mkdir -p "$LAB_SYNC/stock-vc"
        cp "$HOMEDIR"/vc/*.log "$LAB_SYNC/stock-vc/" 2>/dev/null
        peer_ready vc-logs
        want="scp '10.11.0.2:$HOMEDIR/vc/*.log' $HOMEDIR/vc/10.11.0.2/"
    else
        need_peer vc-18515 verbs-check-vm1
        echo 'build/verbs-check --log ~/vc -- ibv_rc_pingpong -g 1 -n 20 10.11.0.1' >"$sh"
        chmod 644 "$sh"
        as_learner "$sh" >"$log" 2>&1 || rc=$?
        peer_ready vc-client-done
        want="scp '10.11.0.1:$HOMEDIR/vc/*.log' $HOMEDIR/vc/10.11.0.1/"
    fi
    sed 's/^/    | /' "$log"
    ((rc == 0)) && grep -qF "$want" "$log" && ! grep -q '^verbs-check: \(错误\|警告\) ' "$log" && ok=0
    result "verbs-check-vm$VM" "$ok" "VM$VM learner: verbs-check -- ibv_rc_pingpong -g 1 退出码 $rc，没有错误和警告，复制命令里是对端的地址" "$log"
    [[ $VM == 1 ]] || { echo "TIMING verbs-check-vm0 ${SECONDS}s"; return; }
    need_peer vc-logs verbs-check-pair
    cmd=$(grep -A1 '^verbs-check: 对端的日志不在这里' "$log" | sed -n '2s/^ *//p')
    mkdir -p /tmp/vc-stand-in
    cp "$LAB_SYNC"/stock-vc/*.log /tmp/vc-stand-in/
    # shellcheck disable=SC2016  # 替身脚本里的 $1、$2 由替身自己展开
    printf '#!/bin/bash\n[[ $1 == %q ]] || { echo "scp stand-in: unexpected $1" >&2; exit 1; }\ncp /tmp/vc-stand-in/*.log "$2"\n' \
        "10.11.0.1:$HOMEDIR/vc/*.log" >/tmp/vc-stand-in/scp
    chmod -R a+rX /tmp/vc-stand-in
    chmod 755 /tmp/vc-stand-in/scp
    stand "verbs-check 的复制命令原样运行，scp 是替身（原版镜像里没有 scp/sshd）：只认 10.11.0.1:$HOMEDIR/vc/*.log，从共享目录复制 VM0 的日志"
    # shellcheck disable=SC2016  # $PATH 在 learner 的 shell 里展开
    printf 'PATH=/tmp/vc-stand-in:$PATH\n%s\n' "$cmd" >"$OUT/vc-pair.sh"
    chmod 644 "$OUT/vc-pair.sh"
    rc=0
    as_learner "$OUT/vc-pair.sh" >"$OUT/vc-pair.log" 2>&1 || rc=$?
    sed 's/^/    | /' "$OUT/vc-pair.log"
    ok=1
    ((rc == 0)) && grep -q '^verbs-check: 两边：' "$OUT/vc-pair.log" && ! grep -q '^verbs-check: \(错误\|警告\) ' "$OUT/vc-pair.log" && ok=0
    result verbs-check-pair "$ok" "VM1 learner 原样运行复制命令（$cmd）：--pair 退出码 $rc，两边配成一对，没有错误和警告" "$OUT/vc-pair.log"
    echo "TIMING verbs-check-vm1 ${SECONDS}s"
}
stock_vc

# ---------- 反证：“两台都要放行 UDP 4791”（测试自己的一步，不是 README 的命令） ----------
# VM1 另建一张表丢弃进来的 UDP 4791（另一张表里的 drop 不受 README 的 accept 影响），VM0 照旧；
# 一对 write 必须以 RETRY_EXC_ERR 失败：服务端的 ACK 也是发往客户端的 4791
if [[ $VM == 0 ]]; then
    need_peer vm1-drops-4791 client-4791-needed
    if serve 18515 "$OUT/server-neg.log" timeout "$((PEER_BOUND + 60))" "$P/build/rdma_server" -q 1 --op write -t 5 \
        --accept-timeout "$PEER_BOUND"; then
        serve_wait
    fi
else
    nft -f - <<'NFT'
table inet rocev2neg {
    chain input {
        type filter hook input priority -10;
        udp dport 4791 drop
    }
}
NFT
    echo "STAND-IN vm1: 反证: 测试在 VM1 上加表 inet rocev2neg 丢弃进来的 UDP 4791（VM0 不变）"
    peer_ready vm1-drops-4791
    need_peer listen-18515 client-4791-needed
    SECONDS=0
    timeout 120 "$P/build/rdma_client" 10.11.0.1 -q 1 --op write -t 20 >"$OUT/client-neg.log" 2>&1 </dev/null
    rc=$? took=$SECONDS ok=1
    [[ $rc == 1 ]] && grep -q 'transport retry counter exceeded' "$OUT/client-neg.log" && ((took < 15)) && ok=0
    result client-4791-needed "$ok" "只有服务端放行 4791 时: 客户端退出码 $rc，${took}s 内 RETRY_EXC_ERR（ACK 也发往客户端的 4791）" "$OUT/client-neg.log"
    nft delete table inet rocev2neg
fi

# 两台的 machine-id 不同：VM0 是镜像构建时写的那个，VM1 的来自内核命令行 systemd.machine_id=
if [[ $VM == 1 ]]; then
    m0=$(<"$LAB_SYNC/vm0.machine-id") m1=$(<"$LAB_SYNC/vm1.machine-id")
    ok=1
    [[ $m0 == "${STOCK_MACHINE_ID:-}" && -n $m1 && $m0 != "$m1" ]] && ok=0
    result machine-ids-differ "$ok" "VM0 $m0（镜像构建时写的: ${STOCK_MACHINE_ID:-?}），VM1 $m1"
fi
# STOCK_REBOOT=1（make test-stock）：两台都走到这里后重启，开机后（LAB_BOOT=2）看 README 的持久化（after_reboot）
if [[ ${STOCK_REBOOT:-0} == 1 ]]; then
    peer_ready b1-end
    need_peer b1-end "after-reboot-vm$VM"
    echo "STEP vm$VM: 重启（systemctl reboot，覆盖层留着）"
    exit 200
fi
peer_done
exit 0
