#!/usr/bin/env bats
# 单元测试: diagnose.sh / show_gids.sh 的英文界面（bash 的 $"…" + gettext，文本域 rocev2-learn-sh，po/sh/en.po）
#
#   1. 默认（中文）输出和加英文之前逐字节相同: 同一批伪造环境里跑加英文之前那个提交（ZH_BASE）的脚本和现在的脚本，
#      stdout、stderr、退出码都一样；中文时 fork 的次数也不多（有 strace 时）
#   2. --lang en、LANG=en_US.UTF-8（这台机器没生成这个 locale）: 关键行是英文，一个汉字都没有
#   3. --lang zh 盖过 LANG=en_US.UTF-8；选语言的规则和 C 程序（src/console/i18n.c）一样
#   4. --lang 的值不对 → 退出 2
#   5. po/sh/en.po 齐全（没有空的、fuzzy 的译文），从现在的脚本抽出的每个 msgid 都在里面（po/sh/extract --check）
#      ——加了没翻译的句子，这一项就失败
# 伪造 sysfs / ip / ping 的做法和 tests/unit/scripts.bats 一样（RDMA_SYSFS_ROOT 等环境变量、PATH 前面的假命令）。

bats_require_minimum_version 1.5.0

# mk_port、add_gid、伪造的 ip/ping、fake_route、fake_netdev（和 scripts.bats 共用）
load fake-env

# 汉字和全角标点（英文输出里一个都不该有）
CJK='[\x{3000}-\x{303f}\x{3400}-\x{9fff}\x{ff00}-\x{ffef}\x{201c}\x{201d}]'

setup_file() {
    REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
    export REPO
    # build/locale/en/LC_MESSAGES/rocev2-learn-sh.mo
    make -s -C "$REPO" locale >&2
    # 加英文之前最后一个提交的脚本（和它们 source 的 src/gid_rule.sh）: 中文输出的基准。
    # 以后有意改了中文输出（不只是加英文），把 ZH_BASE 换成改动之后的提交，并在提交说明里写明
    # 41879aa（issue 36）: 防火墙读不出时说“跳过”不说“通过”、memlock 的修复在 8 MiB 时是可选的、--peer 两台都运行、./show_gids.sh
    # c6be88c（issue 35）: 有 [跳过] 的项时结论不说“全部检查通过”，说几项没有检查
    # e664f8b（issue 35）: nft 的 input 链 policy drop、只放行 lo/已建立/ICMP/TCP、没放行 4791 时是“失败”不是“警告”
    # 3c96e4b（diagnose 只看管事的防火墙：ufw 启用 → 只看 ufw、默认拒绝且没放行 4791 是“失败”；firewalld 在运行 → 只看它；出方向那句不再提 firewalld）
    # 5547229（云内核的修复：装通用内核并删掉云内核和它的元包再重启——只装不删时 GRUB 默认启动版本号更大的云内核）
    # 5bdbf8b（issue 54）: 开机自动创建 rxe 的 systemd 单元和 README 第 4 步的一字不差（去掉 Description、ExecStop 两行）
    ZH_BASE=5bdbf8b
    HEADDIR=$BATS_FILE_TMPDIR/head
    mkdir -p "$HEADDIR/src" "$HEADDIR/scripts"
    if git -C "$REPO" rev-parse --verify -q "$ZH_BASE^{commit}" >/dev/null 2>&1; then
        git -C "$REPO" show "$ZH_BASE:diagnose.sh" >"$HEADDIR/diagnose.sh"
        git -C "$REPO" show "$ZH_BASE:show_gids.sh" >"$HEADDIR/show_gids.sh"
        # 共用的 shell 库: 较早的提交在 src/，c67ad79 起在 scripts/；只取 gid_rule.sh（ui_lang.sh 缺了时脚本就是中文）
        git -C "$REPO" show "$ZH_BASE:scripts/gid_rule.sh" >"$HEADDIR/scripts/gid_rule.sh" 2>/dev/null ||
            git -C "$REPO" show "$ZH_BASE:src/gid_rule.sh" >"$HEADDIR/src/gid_rule.sh"
        chmod +x "$HEADDIR/diagnose.sh" "$HEADDIR/show_gids.sh"
    fi
    export HEADDIR ZH_BASE
}

setup() {
    DG=$REPO/diagnose.sh
    SG=$REPO/show_gids.sh
    if [[ -d /dev/shm && -w /dev/shm ]]; then
        TOP=$(mktemp -d /dev/shm/scripts-i18n.XXXXXX)
    else
        TOP=$BATS_TEST_TMPDIR/top
        mkdir -p "$TOP"
    fi
}

teardown() {
    if [[ $TOP == /dev/shm/scripts-i18n.* ]]; then rm -rf "$TOP"; fi
}

# 干净的语言环境（不受跑测试的机器的 LANG/LANGUAGE 影响）: zh_env / en_env 命令…
zh_env() { env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u TEXTDOMAIN LANG=C.UTF-8 "$@"; }
en_env() { env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u TEXTDOMAIN LANG=en_US.UTF-8 "$@"; }

# 文件里有汉字就打印出来（带行号）并返回 0
has_cjk() { LC_ALL=C.UTF-8 grep -nP "$CJK" "$@"; }

# ---------- 伪造的环境（每个场景从空目录开始）----------
# 目录: $TOP/ib（RDMA_SYSFS_ROOT）、verbs、module、dev、net（NET_SYSFS_ROOT）、ipd（假 ip 的回答）、bin（假命令）
fresh() {
    rm -rf "${TOP:?}"/*
    FAKE=$TOP/ib BIN=$TOP/bin FAKE_IP=$TOP/ipd
    mkdir -p "$FAKE" "$TOP/verbs" "$TOP/module/ib_uverbs" "$TOP/module/rdma_cm" "$TOP/module/rdma_ucm" \
        "$TOP/dev" "$TOP/net" "$FAKE_IP" "$BIN"
    echo 6 >"$TOP/verbs/abi_version"
    : >"$TOP/dev/rdma_cm"
    export RDMA_SYSFS_ROOT=$FAKE RDMA_VERBS_SYSFS_ROOT=$TOP/verbs MODULE_SYSFS_ROOT=$TOP/module \
        RDMA_DEV_ROOT=$TOP/dev NET_SYSFS_ROOT=$TOP/net FAKE_IP
    unset KERNEL_RELEASE OS_RELEASE_FILE KERNEL_MODULES_ROOT
    DG_ARGS=(--port 1) SG_ARGS=() XPATH=""
}



# rxe 风格的小表: 0 = fe80 链路本地，1 = ::ffff:IPv4，再加两个空槽位 —— fx_rxe DEV NDEV v4hex
fx_rxe() {
    mk_port "$1" 1
    add_gid "$1" 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" "$2"
    add_gid "$1" 1 1 "0000:0000:0000:0000:0000:ffff:$3" "RoCE v2" "$2"
    echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$FAKE/$1/ports/1/gids/2"
    echo 0000:0000:0000:0000:0000:0000:0000:0000 >"$FAKE/$1/ports/1/gids/3"
}


# 假的 ip / ping（PATH 前面）: route get 的回答在 $FAKE_IP/route_参数，ping 能到的最大 IP 包在 $FAKE_IP/ping_max
fake_net_cmds() {
    write_fake_net_cmds "$BIN"
    XPATH=$BIN
}

# 客户端: eth0 10.20.0.1 通往对端 10.20.0.2；veth9 192.168.56.101 不通往对端
client_net() {
    fake_net_cmds
    printf '%s\n' "1: lo    inet 127.0.0.1/8 scope host lo" \
        "2: eth0    inet 10.20.0.1/24 brd 10.20.0.255 scope global eth0" \
        "3: veth9    inet 192.168.56.101/24 scope global veth9" >"$FAKE_IP/addr"
    fake_route "10.20.0.2" "10.20.0.2 dev eth0 src 10.20.0.1 uid 0"
    echo "10.20.0.2 dev eth0 lladdr 52:54:00:12:34:56 REACHABLE" >"$FAKE_IP/neigh_10.20.0.2"
    fake_netdev eth0 1500
    fake_netdev veth9 1500
}

# ---------- 场景: 每个 sc_* 搭好环境，设置 DG_ARGS（diagnose 的参数）和 SG_ARGS（show_gids 的，空 = 不带参数）----------
sc_healthy() {
    fx_rxe rxe0 lo 7f00:0001
}
sc_mixed() {
    # mlx5 风格（v1/v2）、只有 IPv6 的 rxe1、GID 表全空的 rxe2、读不到类型的条目
    mk_port mlx5_0 1
    add_gid mlx5_0 1 0 fe80:0000:0000:0000:0202:c9ff:fe00:0001 "IB/RoCE v1" eth1
    add_gid mlx5_0 1 1 fe80:0000:0000:0000:0202:c9ff:fe00:0001 "RoCE v2" eth1
    add_gid mlx5_0 1 2 0000:0000:0000:0000:0000:ffff:c0a8:0105 "IB/RoCE v1" eth1
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:206d "RoCE v2" veth0
    add_gid rxe1 1 1 2001:0db8:0000:0000:0000:0000:0000:0001 "RoCE v2" veth0
    mk_port rxe2 1
    echo 0000:0000:0000:0000:0000:ffff:0a00:0009 >"$FAKE/rxe2/ports/1/gids/0"
    mk_port rxe3 1
    mkdir -p "$FAKE/rxe4/ports"
}
sc_down() {
    # 端口 DOWN: veth0 没有 UP；rxe1 的 veth1 UP 但没有载波，veth 对端 veth0 没有 UP；lo 的 MTU 太小
    mk_port rxe0 1 "1: DOWN" "3: Disabled"
    add_gid rxe0 1 0 0000:0000:0000:0000:0000:ffff:0a0b:0001 "RoCE v2" veth0
    mk_port rxe1 1 "1: DOWN" "2: Polling"
    add_gid rxe1 1 0 0000:0000:0000:0000:0000:ffff:0a0b:0002 "RoCE v2" veth1
    fx_rxe rxe2 lo 7f00:0001
    fake_netdev veth0 1500 0x1002
    echo 3 >"$NET_SYSFS_ROOT/veth0/ifindex"
    echo 2 >"$NET_SYSFS_ROOT/veth0/iflink"
    fake_netdev veth1 1500
    echo 2 >"$NET_SYSFS_ROOT/veth1/ifindex"
    echo 3 >"$NET_SYSFS_ROOT/veth1/iflink"
    echo lowerlayerdown >"$NET_SYSFS_ROOT/veth1/operstate"
    fake_netdev lo 576 0x9
    DG_ARGS=(--port 1)
}
sc_nodev() {
    # 什么都没有: 没有 RDMA 设备、没有 infiniband_verbs、没有 rdma_rxe（Debian cloud 内核）
    rm -rf "$TOP/verbs" "$TOP/module"/* "$TOP/dev/rdma_cm"
    export KERNEL_RELEASE=6.1.0-56-cloud-amd64 OS_RELEASE_FILE=$TOP/os-release KERNEL_MODULES_ROOT=$TOP/lib-modules
    echo 'ID=debian' >"$OS_RELEASE_FILE"
    # modinfo 找不到模块（不看这台机器的内核）
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modinfo"
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modprobe"
    chmod +x "$BIN/modinfo" "$BIN/modprobe"
    XPATH=$BIN
}
sc_nodev_ubuntu() {
    sc_nodev
    export KERNEL_RELEASE=6.8.0-45-generic
    echo 'ID=ubuntu' >"$OS_RELEASE_FILE"
    DG_ARGS=(--port 1 rxe5)
}
sc_errno38() {
    # 有 RDMA 设备，但 ib_uverbs 没加载；rdma_ucm 也没加载
    fx_rxe rxe0 lo 7f00:0001
    rm -rf "$TOP/verbs" "$TOP/module"/* "$TOP/dev/rdma_cm"
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modinfo"
    printf '#!/bin/sh\nexit 1\n' >"$BIN/modprobe"
    chmod +x "$BIN/modinfo" "$BIN/modprobe"
    XPATH=$BIN
}
sc_ucm_container() {
    fx_rxe rxe0 lo 7f00:0001
    rm -rf "$TOP/module/ib_uverbs" "$TOP/verbs" "$TOP/dev/rdma_cm"
    mkdir -p "$TOP/module/ib_uverbs"
}
sc_peer_ok() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    mk_port rxe1 1
    add_gid rxe1 1 0 fe80:0000:0000:0000:5c5b:28ff:fe89:2000 "RoCE v2" eth0
    add_gid rxe1 1 3 0000:0000:0000:0000:0000:ffff:0a14:0001 "RoCE v2" eth0
    DG_ARGS=(--port 1 --peer 10.20.0.2) SG_ARGS=(--peer 10.20.0.2)
}
sc_peer_wrongnic() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    DG_ARGS=(--port 1 --peer 10.20.0.2) SG_ARGS=(--peer 10.20.0.2)
}
sc_peer_nogid() {
    # rxe1 在出口网卡 eth0 上，但它的 IPv4 条目是别的地址
    client_net
    fx_rxe rxe1 eth0 0a14:0063
    DG_ARGS=(--port 1 --peer 10.20.0.2) SG_ARGS=(--peer 10.20.0.2)
}
sc_peer_fail() {
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    echo 0 >"$FAKE_IP/ping_max"
    echo "10.20.0.2 dev eth0  FAILED" >"$FAKE_IP/neigh_10.20.0.2"
    DG_ARGS=(--port 1 --peer 10.20.0.2)
}
sc_peer_noroute() {
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    fake_route "10.99.0.2" "10.99.0.2 uid 0"
    DG_ARGS=(--port 1 --peer 10.99.0.1) SG_ARGS=(--peer 10.99.0.2)
}
sc_peer_local() {
    fake_net_cmds
    printf '%s\n' "2: eth0    inet 10.0.2.15/24 scope global eth0" >"$FAKE_IP/addr"
    fake_route "10.0.2.15" "local 10.0.2.15 dev lo table local src 10.0.2.15 uid 0"
    fake_netdev eth0 1500
    fx_rxe rxe0 eth0 0a00:020f
    DG_ARGS=(--port 1 --peer 10.0.2.15) SG_ARGS=(--peer 10.0.2.15)
}
sc_peer_single() {
    fake_net_cmds
    printf '%s\n' "2: veth0    inet 10.11.0.1/24 scope global veth0" \
        "3: veth1    inet 10.11.0.2/24 scope global veth1" >"$FAKE_IP/addr"
    fake_route "10.11.0.1" "local 10.11.0.1 dev lo table local src 10.11.0.1 uid 0"
    fake_route "10.11.0.1 from 10.11.0.2" "10.11.0.1 from 10.11.0.2 dev veth1 table 100 uid 0"
    fake_netdev veth0 1500
    fake_netdev veth1 1500
    fx_rxe rxe0 veth0 0a0b:0001
    fx_rxe rxe1 veth1 0a0b:0002
    DG_ARGS=(--port 1 --peer 10.11.0.1) SG_ARGS=(--peer 10.11.0.1)
}
sc_peer_mtu() {
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    echo 1000 >"$FAKE_IP/ping_max"
    DG_ARGS=(--port 1 --peer 10.20.0.2)
}
sc_peer_mtu_tiny() {
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    echo 200 >"$FAKE_IP/ping_max"
    DG_ARGS=(--port 1 --peer 10.20.0.2)
}
sc_cm_match() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    DG_ARGS=(--port 1 --cm-addr 192.168.56.101)
}
sc_cm_nomatch() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    mk_port rxe1 1
    add_gid rxe1 1 0 0000:0000:0000:0000:0000:ffff:0a14:0001 "IB/RoCE v1" eth0
    DG_ARGS=(--port 1 --cm-addr 10.20.0.1)
}
sc_cm_nodev() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    DG_ARGS=(--port 1 --cm-addr 10.20.0.1)
}
sc_cm_other() {
    client_net
    fx_rxe rxe0 veth9 c0a8:3865
    DG_ARGS=(--port 1 --cm-addr 10.99.0.77)
}
sc_cm_any() {
    fx_rxe rxe0 lo 7f00:0001
    DG_ARGS=(--port 1 --cm-addr 0.0.0.0)
}
sc_firewall() {
    # 防火墙规则只在 root 下读；假的 nft / iptables / ufw / firewall-cmd
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    cat >"$BIN/nft" <<'EOF'
#!/usr/bin/env bash
printf 'table inet filter {\n\tchain input {\n\t\ttype filter hook input priority filter; policy accept;\n\t\tudp dport 4791 drop\n\t}\n\tchain output {\n\t\ttype filter hook output priority filter; policy drop;\n\t}\n}\n'
EOF
    cat >"$BIN/iptables" <<'EOF'
#!/usr/bin/env bash
if [[ $* == "-S OUTPUT" ]]; then
    printf '%s\n' "-P OUTPUT ACCEPT" "-A OUTPUT -p udp -m udp --dport 4791 -j DROP"
else
    printf '%s\n' "-P INPUT DROP"
fi
EOF
    cat >"$BIN/ufw" <<'EOF'
#!/usr/bin/env bash
printf 'Status: active\nDefault: deny (incoming), deny (outgoing), disabled (routed)\n'
EOF
    cat >"$BIN/firewall-cmd" <<'EOF'
#!/usr/bin/env bash
case $1 in
    --state) echo running ;;
    --list-all) printf 'public (active)\n  target: default\n  ports: 18515/tcp\n' ;;
esac
EOF
    chmod +x "$BIN/nft" "$BIN/iptables" "$BIN/ufw" "$BIN/firewall-cmd"
    DG_ARGS=(--port 1 --peer 10.20.0.2)
}
sc_firewall2() {
    # nft 的 input 链 policy drop 且没放行；firewalld 用 rich rule 丢弃 4791
    client_net
    fx_rxe rxe1 eth0 0a14:0001
    printf '#!/usr/bin/env bash\nprintf "table inet fw {\\n\\tchain inbound {\\n\\t\\ttype filter hook input priority filter; policy drop;\\n\\t}\\n}\\n"\n' >"$BIN/nft"
    cat >"$BIN/ufw" <<'EOF'
#!/usr/bin/env bash
printf 'Status: active\n\nTo    Action    From\n4791/udp    ALLOW IN    Anywhere\n4791/udp    DENY OUT    Anywhere\n'
EOF
    cat >"$BIN/firewall-cmd" <<'EOF'
#!/usr/bin/env bash
case $1 in
    --state) echo running ;;
    --list-all) printf 'public (active)\n  target: default\n  ports: 18515/tcp\n  rich rules:\n\trule family="ipv4" port port="4791" protocol="udp" drop\n' ;;
esac
EOF
    chmod +x "$BIN/nft" "$BIN/ufw" "$BIN/firewall-cmd"
    DG_ARGS=(--port 1 --peer 10.20.0.2)
}
sc_usage() {
    fx_rxe rxe0 lo 7f00:0001
}

SCENARIOS=(healthy mixed down nodev nodev_ubuntu errno38 ucm_container peer_ok peer_wrongnic peer_nogid peer_fail
    peer_noroute peer_local peer_single peer_mtu peer_mtu_tiny cm_match cm_nomatch cm_nodev cm_other cm_any
    firewall firewall2)

# 用法错误等: "脚本 参数…"（show_gids / diagnose），在 sc_usage 的环境里跑
USAGE_CASES=("dg --bogus" "dg --port abc" "dg --port" "dg rxe0 rxe1" "dg --peer host.example" "dg --cm-addr x"
    "dg -- rxe0 rxe1" "sg --bogus" "sg rxe0 abc" "sg rxe0 1 2" "sg ../x" "sg --peer 1.2.3.256" "sg rxe7" "sg rxe0 2"
    "sg --peer")

# run_script 目录 dg|sg 语言环境(zh_env|en_env) 输出前缀 参数… —— stdout、stderr、退出码分别存成文件
run_script() {
    local dir=$1 which=$2 lang_env=$3 out=$4 rc=0 prog
    shift 4
    prog=$dir/diagnose.sh
    if [[ $which == sg ]]; then prog=$dir/show_gids.sh; fi
    PATH=${XPATH:+$XPATH:}$PATH "$lang_env" "$prog" "$@" >"$out.out" 2>"$out.err" </dev/null || rc=$?
    echo "$rc" >"$out.rc"
}

# same_output 前缀A 前缀B —— 两次运行的 stdout、stderr、退出码都逐字节相同
same_output() {
    local f
    for f in out err rc; do
        if ! cmp -s "$1.$f" "$2.$f"; then
            echo "different $f: $1 vs $2" >&2
            diff "$1.$f" "$2.$f" | head -20 >&2
            return 1
        fi
    done
}

# ===================== 1. 中文（默认）输出不变 =====================

@test "i18n 1: 默认（中文）输出和加英文之前（ZH_BASE）的脚本逐字节相同 —— diagnose.sh / show_gids.sh，$((${#SCENARIOS[@]})) 个伪造环境 + 用法错误" {
    [[ -s $HEADDIR/diagnose.sh ]] || skip "没有提交 $ZH_BASE 可以比较（浅克隆？）"
    local sc n=0 c which
    local -a args
    mkdir -p "$BATS_TEST_TMPDIR/o"
    for sc in "${SCENARIOS[@]}"; do
        fresh
        "sc_$sc"
        run_script "$HEADDIR" dg zh_env "$BATS_TEST_TMPDIR/o/$sc.dg.head" "${DG_ARGS[@]}"
        run_script "$REPO" dg zh_env "$BATS_TEST_TMPDIR/o/$sc.dg.now" "${DG_ARGS[@]}"
        same_output "$BATS_TEST_TMPDIR/o/$sc.dg.head" "$BATS_TEST_TMPDIR/o/$sc.dg.now"
        run_script "$HEADDIR" sg zh_env "$BATS_TEST_TMPDIR/o/$sc.sg.head" "${SG_ARGS[@]}"
        run_script "$REPO" sg zh_env "$BATS_TEST_TMPDIR/o/$sc.sg.now" "${SG_ARGS[@]}"
        same_output "$BATS_TEST_TMPDIR/o/$sc.sg.head" "$BATS_TEST_TMPDIR/o/$sc.sg.now"
        n=$((n + 2))
    done
    fresh
    sc_usage
    for c in "${USAGE_CASES[@]}"; do
        which=${c%% *}
        read -r -a args <<<"${c#* }"
        run_script "$HEADDIR" "$which" zh_env "$BATS_TEST_TMPDIR/o/u$n.head" "${args[@]}"
        run_script "$REPO" "$which" zh_env "$BATS_TEST_TMPDIR/o/u$n.now" "${args[@]}"
        same_output "$BATS_TEST_TMPDIR/o/u$n.head" "$BATS_TEST_TMPDIR/o/u$n.now"
        n=$((n + 1))
    done
    echo "$n runs compared"
    # 至少有一次失败项、一次通过、一次用法错误，比较才有意义
    grep -q '^\[失败\]' "$BATS_TEST_TMPDIR"/o/*.dg.now.out
    grep -q '^\[通过\]' "$BATS_TEST_TMPDIR"/o/*.dg.now.out
    grep -qx 2 "$BATS_TEST_TMPDIR"/o/u*.now.rc
}

@test "i18n 1: 中文在别的语言环境里也不变（LANG=zh_CN.UTF-8、LANGUAGE=zh_CN:en、LC_ALL=C 盖过 LANG=en_US）" {
    local v
    fresh
    sc_peer_ok
    run_script "$REPO" dg zh_env "$BATS_TEST_TMPDIR/ref" "${DG_ARGS[@]}"
    for v in "LANG=zh_CN.UTF-8" "LANGUAGE=zh_CN:en LANG=en_US.UTF-8" "LC_ALL=C LANG=en_US.UTF-8" \
        "LC_MESSAGES=zh_CN.UTF-8 LANG=en_US.UTF-8" "LANGUAGE=fr LANG=de_DE.UTF-8"; do
        # shellcheck disable=SC2086  # v 是几个 VAR=值
        PATH=${XPATH:+$XPATH:}$PATH env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG $v "$DG" "${DG_ARGS[@]}" \
            >"$BATS_TEST_TMPDIR/v.out" 2>"$BATS_TEST_TMPDIR/v.err" || true
        cmp "$BATS_TEST_TMPDIR/ref.out" "$BATS_TEST_TMPDIR/v.out" || { echo "differs under $v"; return 1; }
    done
    grep -q '^\[通过\] 通往 10.20.0.2 的 RDMA 设备' "$BATS_TEST_TMPDIR/ref.out"
}

@test "i18n 1: 中文时 fork/exec 的次数和加英文之前的脚本一样（strace；英文只多一次 exec，不多 fork）" {
    command -v strace >/dev/null || skip "没有 strace"
    [[ -s $HEADDIR/diagnose.sh ]] || skip "没有提交 $ZH_BASE 可以比较（浅克隆？）"
    local dir kind n
    local -A count=()
    fresh
    sc_peer_ok
    for dir in "$HEADDIR" "$REPO"; do
        # -ff：每个进程一个文件。都写进一个文件时，两个进程同时在系统调用里，strace 会把一次 execve 拆成
        # “<unfinished ...>”和“<... execve resumed>”两行，数 " = 0" 的 execve 就时多时少（CI 里见过 18 对 19）
        rm -f "$BATS_TEST_TMPDIR"/st.*
        PATH=${XPATH:+$XPATH:}$PATH strace -ff -qq -e trace=clone,clone3,fork,vfork,execve -o "$BATS_TEST_TMPDIR/st" \
            env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$dir/diagnose.sh" "${DG_ARGS[@]}" >/dev/null 2>&1 || true
        for kind in fork exec; do
            if [[ $kind == fork ]]; then
                n=$(cat "$BATS_TEST_TMPDIR"/st.* | grep -cE '^(clone|clone3|fork|vfork)\(')
            else
                n=$(cat "$BATS_TEST_TMPDIR"/st.* | grep -cE '^execve\(.* = 0$')
            fi
            count[$dir.$kind]=$n
        done
    done
    echo "HEAD: ${count[$HEADDIR.fork]} forks ${count[$HEADDIR.exec]} execs; now: ${count[$REPO.fork]} forks ${count[$REPO.exec]} execs"
    [ "${count[$REPO.fork]}" -le "${count[$HEADDIR.fork]}" ]
    [ "${count[$REPO.exec]}" -le "${count[$HEADDIR.exec]}" ]
    # 英文（环境里没有 LANGUAGE=en）: 重新 exec 自己一次，fork 数不变
    rm -f "$BATS_TEST_TMPDIR"/st.*
    PATH=${XPATH:+$XPATH:}$PATH strace -ff -qq -e trace=clone,clone3,fork,vfork,execve -o "$BATS_TEST_TMPDIR/st" \
        env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=en_US.UTF-8 "$DG" "${DG_ARGS[@]}" >/dev/null 2>&1 || true
    n=$(cat "$BATS_TEST_TMPDIR"/st.* | grep -cE '^(clone|clone3|fork|vfork)\(')
    local execs
    execs=$(cat "$BATS_TEST_TMPDIR"/st.* | grep -cE '^execve\(.* = 0$')
    echo "English: $n forks, $execs execs"
    [ "$n" -le "${count[$HEADDIR.fork]}" ]
    [ "$execs" -le $((count[$HEADDIR.exec] + 1)) ]
}

# ===================== 2. 英文 =====================

@test "i18n 2: --lang en 和 LANG=en_US.UTF-8（locale 没生成）—— 所有场景的输出里没有一个汉字，两种方式输出相同" {
    local sc c which n=0
    local -a args
    if locale -a 2>/dev/null | grep -qix 'en_US.utf-\?8'; then echo "(note: en_US.UTF-8 is generated here)"; fi
    mkdir -p "$BATS_TEST_TMPDIR/e"
    for sc in "${SCENARIOS[@]}"; do
        fresh
        "sc_$sc"
        run_script "$REPO" dg zh_env "$BATS_TEST_TMPDIR/e/$sc.dg.opt" --lang en "${DG_ARGS[@]}"
        run_script "$REPO" dg en_env "$BATS_TEST_TMPDIR/e/$sc.dg.env" "${DG_ARGS[@]}"
        same_output "$BATS_TEST_TMPDIR/e/$sc.dg.opt" "$BATS_TEST_TMPDIR/e/$sc.dg.env"
        run_script "$REPO" sg zh_env "$BATS_TEST_TMPDIR/e/$sc.sg.opt" "${SG_ARGS[@]}" --lang=en
        run_script "$REPO" sg en_env "$BATS_TEST_TMPDIR/e/$sc.sg.env" "${SG_ARGS[@]}"
        same_output "$BATS_TEST_TMPDIR/e/$sc.sg.opt" "$BATS_TEST_TMPDIR/e/$sc.sg.env"
    done
    fresh
    sc_usage
    for c in "${USAGE_CASES[@]}" "dg -h" "sg --help" "dg --lang fr" "sg --lang"; do
        which=${c%% *}
        read -r -a args <<<"${c#* }"
        run_script "$REPO" "$which" en_env "$BATS_TEST_TMPDIR/e/u$n.env" "${args[@]}"
        n=$((n + 1))
    done
    run -1 has_cjk "$BATS_TEST_TMPDIR"/e/*.out "$BATS_TEST_TMPDIR"/e/*.err
    echo "$output"
    # 真的是英文（没翻译时 gettext 会原样返回中文，上一行就会失败；这里再确认几个标签都出现了）
    cat "$BATS_TEST_TMPDIR"/e/*.out >"$BATS_TEST_TMPDIR/all"
    grep -q '^\[PASS\] ' "$BATS_TEST_TMPDIR/all"
    grep -q '^\[FAIL\] ' "$BATS_TEST_TMPDIR/all"
    grep -q '^\[WARN\] ' "$BATS_TEST_TMPDIR/all"
    grep -q '^\[SKIP\] ' "$BATS_TEST_TMPDIR/all"
    grep -q '^       fix: ' "$BATS_TEST_TMPDIR/all"
    grep -q '^       evidence: ' "$BATS_TEST_TMPDIR/all"
    grep -q '^Result: ' "$BATS_TEST_TMPDIR/all"
}

@test "i18n 2: diagnose.sh 英文的关键行 —— 通过/失败行、修复、总结" {
    fresh
    sc_healthy
    # 这台机器的 memlock 太低时会多一个失败项，所以这里不看退出码
    run en_env "$DG" --port 1 --cm-addr 0.0.0.0
    [ "${lines[0]}" = "RoCEv2 environment diagnosis  (sysfs: $FAKE, TCP port: 1, CM address: 0.0.0.0)" ]
    [[ $output == *"== 1. Tools =="* ]]
    [[ $output == *"[PASS] found RDMA devices: rxe0"* ]]
    [[ $output == *"[PASS] rxe0 port 1 state: 4: ACTIVE, physical state: 5: LinkUp"* ]]
    [[ $output == *"[PASS] RoCE v2 IPv4 GID: index 1 = 0000:0000:0000:0000:0000:ffff:7f00:0001 (127.0.0.1) → use -g 1"* ]]
    [[ $output == *"       full GID table: ./show_gids.sh rxe0 1"* ]]
    [[ $output == *"[PASS] TCP port 1 is free (no process listens on it)"* ]]
    [[ $output == *"== 8. RDMA CM address 0.0.0.0 "* ]]
    [[ $output == *"========== Summary =========="$'\n'"passed: "*"  warnings: "*"  failed: "*"  skipped: "* ]]
    [[ ${lines[-1]} == "Result: "* ]]

    fresh
    sc_peer_wrongnic
    PATH=${XPATH:+$XPATH:}$PATH run -1 en_env "$DG" "${DG_ARGS[@]}"
    [[ $output == *"[PASS] route: 10.20.0.2 goes out through netdev eth0, source address 10.20.0.1"* ]]
    [[ $output == *"[FAIL] no RDMA device on netdev eth0: packets to 10.20.0.2 leave through eth0, so the RDMA device must be created on eth0"* ]]
    [[ $output == *"       fix: sudo rdma link add rxe1 type rxe netdev eth0"* ]]
    [[ $output == *"[WARN] rxe0 port 1 is on netdev veth9, which does not lead to 10.20.0.2 (the route uses eth0)"* ]]
    [[ $output == *$'\n'"Fixes to apply, in this order:"$'\n'"  1. "* ]]
    [[ $output =~ $'\n'"  "[0-9]+". sudo rdma link add rxe1 type rxe netdev eth0"$'\n' ]]
    [[ ${lines[-1]} == "Result: problems found: "*"; apply the fixes above in order, then run ./diagnose.sh again" ]]

    fresh
    sc_down
    PATH=${XPATH:+$XPATH:}$PATH run -1 en_env "$DG" "${DG_ARGS[@]}"
    [[ $output == *"[FAIL] rxe0 port 1 is not ACTIVE: state 1: DOWN, physical state 3: Disabled"* ]]
    [[ $output == *"       cause: the bound netdev veth0 is not UP (ip link set ... down)"* ]]
    [[ $output == *"       fix: sudo ip link set veth0 up"* ]]
    [[ $output == *"[WARN] netdev lo has an MTU of only 576, so the RoCE active_mtu can only be 256"* ]]
}

@test "i18n 2: show_gids.sh 英文 —— 表头不变、标记和说明行是英文、错误和提示" {
    fresh
    sc_peer_single
    PATH=${XPATH:+$XPATH:}$PATH run -0 --separate-stderr en_env "$SG" --peer 10.11.0.1
    [ "${lines[0]}" = "DEV     PORT    INDEX   GID                                     IPv4            VER     DEV" ]
    [[ ${lines[3]} == *" 10.11.0.1       v2      veth0   <== auto-selected <== 10.11.0.1 itself (the peer in the single-host lab)" ]]
    [[ $output == *"<== auto-selected <== to 10.11.0.1"* ]]
    [[ $output == *"auto-selected: rxe0 port 1 → GID index 1 (RoCE v2, IPv4 10.11.0.1)  use: -g 1"* ]]
    [[ $output == *"to 10.11.0.1: route goes out through netdev veth1, source address 10.11.0.2 → rxe1 port 1 GID index 1 (RoCE v2, IPv4 10.11.0.2)  use: -d rxe1 -g 1  (single-host lab: "* ]]
    [ "${lines[-1]}" = "n_gids_found=4" ]
    [ -z "$stderr" ]

    run -1 --separate-stderr en_env "$SG" rxe7
    [[ $stderr == "error: device 'rxe7' does not exist. Existing RDMA devices: rxe0 rxe1" ]]
    fresh
    run -1 --separate-stderr en_env "$SG"
    [[ $stderr == "error: no RDMA device found ($FAKE is missing or empty)."* ]]
    [[ $stderr == *"sudo rdma link add rxe0 type rxe netdev <netdev>    # e.g. eth0, see 'ip -br link'"* ]]
    run -1 has_cjk <<<"$stderr"
}

@test "i18n 2: -h 是英文、列出 --lang；两个脚本的中文 -h 也列出 --lang" {
    local s
    for s in "$DG" "$SG"; do
        run -0 en_env "$s" -h
        [[ ${lines[0]} == "usage: ${s##*/} [-h|--help] [--lang zh|en] "* ]]
        [[ $output == *"  --lang zh|en  output language"* ]]
        run -1 has_cjk <<<"$output"
        run -0 zh_env "$s" --help
        [[ ${lines[0]} == "用法: ${s##*/} [-h|--help] [--lang zh|en] "* ]]
        [[ $output == *"  --lang zh|en  输出用哪种语言"* ]]
    done
}

@test "i18n 2: 没有消息目录时英文退回中文，不报错（脚本复制到没有 build/locale 的目录）" {
    local d=$BATS_TEST_TMPDIR/nocat
    mkdir -p "$d/scripts"
    cp "$DG" "$SG" "$d/"
    cp "$REPO/scripts/gid_rule.sh" "$d/scripts/"
    fresh
    sc_healthy
    run_script "$d" sg zh_env "$BATS_TEST_TMPDIR/zh"
    run_script "$d" sg en_env "$BATS_TEST_TMPDIR/en"
    same_output "$BATS_TEST_TMPDIR/zh" "$BATS_TEST_TMPDIR/en"
    run_script "$d" dg en_env "$BATS_TEST_TMPDIR/en" --lang en --port 1
    [ ! -s "$BATS_TEST_TMPDIR/en.err" ]
    grep -q '^\[通过\] 找到 RDMA 设备: rxe0$' "$BATS_TEST_TMPDIR/en.out"
}

@test "i18n 2: 从别的目录、经符号链接运行，英文照样找到 build/locale" {
    fresh
    sc_healthy
    ln -s "$SG" "$BATS_TEST_TMPDIR/sg-link"
    cd "$BATS_TEST_TMPDIR"
    run -0 en_env ./sg-link
    [[ $output == *"auto-selected: rxe0 port 1 → GID index 1 (RoCE v2, IPv4 127.0.0.1)  use: -g 1"* ]]
    cd "$REPO/src"
    run -0 en_env bash ../diagnose.sh --port 1
    [[ $output == *"[PASS] found RDMA devices: rxe0"* ]]
}

@test "i18n 2: 被 source 时（单元测试调用纯函数）不重新 exec，纯函数照常工作" {
    # shellcheck disable=SC2016  # 单引号里的 $ 给子 bash 展开
    run -0 en_env bash -c 'source "$1" && parse_neigh "10.0.0.1 dev eth0 lladdr 52:54:00:12:34:56 REACHABLE" && echo "[$NEIGH_STATE|$NEIGH_LLADDR] $UI_LANG"' _ "$DG"
    [ "$output" = "[REACHABLE|52:54:00:12:34:56] en" ]
}

# ===================== 3. 选语言的规则 =====================

@test "i18n 3: --lang zh 盖过 LANG=en_US.UTF-8 和 LANGUAGE=en（输出和默认逐字节相同）；--lang en 盖过 LANGUAGE=zh_CN" {
    fresh
    sc_peer_ok
    run_script "$REPO" dg zh_env "$BATS_TEST_TMPDIR/def" "${DG_ARGS[@]}"
    run_script "$REPO" dg en_env "$BATS_TEST_TMPDIR/zh" --lang zh "${DG_ARGS[@]}"
    same_output "$BATS_TEST_TMPDIR/def" "$BATS_TEST_TMPDIR/zh"
    PATH=${XPATH:+$XPATH:}$PATH LANGUAGE=en LANG=en_US.UTF-8 "$DG" "${DG_ARGS[@]}" --lang=zh >"$BATS_TEST_TMPDIR/zh2.out" 2>&1 || true
    cmp "$BATS_TEST_TMPDIR/def.out" "$BATS_TEST_TMPDIR/zh2.out"
    run_script "$REPO" sg zh_env "$BATS_TEST_TMPDIR/sdef" "${SG_ARGS[@]}"
    run_script "$REPO" sg en_env "$BATS_TEST_TMPDIR/szh" "${SG_ARGS[@]}" --lang zh
    same_output "$BATS_TEST_TMPDIR/sdef" "$BATS_TEST_TMPDIR/szh"
    # 最后一个 --lang 为准；-- 之后的不算
    PATH=${XPATH:+$XPATH:}$PATH run en_env "$SG" --lang zh --lang en
    [[ ${lines[-2]} == "auto-selected: "* ]]
    run en_env "$SG" --lang zh -- --lang=en
    [ "$status" -eq 1 ]
    [[ $output == "错误: 设备 '--lang=en' 不存在"* ]]
    PATH=${XPATH:+$XPATH:}$PATH run env LANGUAGE=zh_CN:en LANG=zh_CN.UTF-8 "$SG" --lang en
    [[ ${lines[-2]} == "auto-selected: "* ]]
}

@test "i18n 3: 环境变量的规则和 C 程序一样 —— LANGUAGE 第一个 en/zh 项、再 LC_ALL、LC_MESSAGES、LANG 第一个非空的" {
    local v want
    fresh
    sc_healthy
    # "环境变量…|期望的语言"
    for v in "LANGUAGE=en LANG=C|en" "LANGUAGE=fr:en_GB LANG=C|en" "LANGUAGE=de:zh_TW LANG=en_US.UTF-8|zh" \
        "LANGUAGE=fr LANG=en_US.UTF-8|en" "LC_ALL=C LANG=en_US.UTF-8|zh" "LC_ALL=en_GB.UTF-8 LANG=C|en" \
        "LC_MESSAGES=en_US.UTF-8 LANG=zh_CN.UTF-8|en" "LC_MESSAGES=C.UTF-8 LANG=en_US.UTF-8|zh" "LANG=en|en" \
        "LANG=zh_CN.UTF-8|zh" "LANG=C.UTF-8|zh" "TEXTDOMAIN=rocev2-learn-sh LANGUAGE=en LC_ALL=C.UTF-8 LANG=zh_CN.UTF-8|en"; do
        want=${v##*|}
        # shellcheck disable=SC2086  # 几个 VAR=值
        run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG -u TEXTDOMAIN ${v%|*} "$SG"
        [ "$status" -eq 0 ]
        if [[ $want == en ]]; then
            [[ ${lines[-2]} == "auto-selected: "* ]] || { echo "$v: not English: ${lines[-2]}"; return 1; }
        else
            [[ ${lines[-2]} == "自动选择: "* ]] || { echo "$v: not Chinese: ${lines[-2]}"; return 1; }
        fi
    done
}

# ===================== 4. --lang 的值不对 =====================

@test "i18n 4: --lang 的值不对或缺值 → 退出 2，说明可选 zh、en（按环境的语言）" {
    local s
    for s in "$DG" "$SG"; do
        run zh_env "$s" --lang fr
        [ "$status" -eq 2 ]
        [[ $output == *"错误: --lang 无效: 'fr'（可选 zh、en）"* ]]
        [[ $output == *"运行 '${s##*/} --help' 查看用法"* ]]
        run en_env "$s" --lang=EN
        [ "$status" -eq 2 ]
        [[ $output == *"error: invalid --lang: 'EN' (use zh or en)"* ]]
        [[ $output == *"run '${s##*/} --help' for usage"* ]]
        run en_env "$s" --lang
        [ "$status" -eq 2 ]
        [[ $output == "error: --lang needs zh or en"* ]]
        run zh_env "$s" --lang ""
        [ "$status" -eq 2 ]
    done
}

# ===================== 5. 消息目录齐全 =====================

@test "i18n 5: po/sh/en.po 齐全 —— 没有空的、fuzzy 的译文，译文里没有汉字，msgfmt --check 通过" {
    local po=$REPO/po/sh/en.po
    [ -f "$po" ]
    run -0 msgattrib --untranslated --no-obsolete "$po"
    [[ $output != *msgid* ]]
    run -0 msgattrib --only-fuzzy --no-obsolete "$po"
    [[ $output != *msgid* ]]
    run -0 msgfmt --check --statistics -o /dev/null "$po"
    echo "$output"
    [[ $output =~ ^([0-9]+)\ translated\ messages\.$ ]]
    ((BASH_REMATCH[1] >= 250))
    msgexec -i "$po" 0 | tr '\0' '\n' >"$BATS_TEST_TMPDIR/msgstr"
    run -1 has_cjk "$BATS_TEST_TMPDIR/msgstr"
}

@test "i18n 5: 从现在的脚本抽出的每个 msgid 都在 en.po 里有译文（po/sh/extract --check；加了没翻译的句子就失败）" {
    run "$REPO/po/sh/extract" --check
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "i18n 5: po/sh/extract --check 真的能发现没翻译的句子、空的、带汉字的、少了变量或引号没转义的译文（在副本里改）" {
    local d=$BATS_TEST_TMPDIR/copy
    mkdir -p "$d/scripts" "$d/po/sh"
    cp "$DG" "$SG" "$d/"
    cp "$REPO/scripts/gid_rule.sh" "$d/scripts/"
    cp "$REPO/po/sh/extract" "$REPO/po/sh/en.po" "$d/po/sh/"
    run -0 "$d/po/sh/extract" --check
    # 1. 脚本里加一句没翻译的
    printf '%s\n' 'new_msg() { echo $"一句还没翻译的话"; }' >>"$d/show_gids.sh"
    run -1 "$d/po/sh/extract" --check
    [[ $output == *"一句还没翻译的话"* ]]
    cp "$SG" "$d/"
    # 2. 删掉一条译文（msgstr 变空）
    awk '!done && /^msgstr "\[FAIL\]"$/ { print "msgstr \"\""; done = 1; next } { print }' "$REPO/po/sh/en.po" >"$d/po/sh/en.po"
    run ! cmp -s "$REPO/po/sh/en.po" "$d/po/sh/en.po"
    run -1 "$d/po/sh/extract" --check
    [[ $output == *"[失败]"* ]]
    # 3. 译文里还留着汉字
    sed 's/^msgstr "\[FAIL\]"$/msgstr "[失败]"/' "$REPO/po/sh/en.po" >"$d/po/sh/en.po"
    run -1 "$d/po/sh/extract" --check
    [[ $output == *"Chinese characters"* ]]
    # 4. 译文里少了 msgid 的变量、有没转义的引号（bash 展开译文时会出错，msgfmt 看不出来）
    # shellcheck disable=SC2016  # 单引号里是 po 文件里的 $ 字面
    sed 's/^msgstr "tool \$t: \$CMD_PATH"$/msgstr "tool: $CMD_PATH"/; s/^msgstr "ufw is not active"$/msgstr "ufw is \\"not\\" active"/' \
        "$REPO/po/sh/en.po" >"$d/po/sh/en.po"
    [ "$(diff "$REPO/po/sh/en.po" "$d/po/sh/en.po" | grep -c '^>')" -eq 2 ]
    run -1 "$d/po/sh/extract" --check
    # shellcheck disable=SC2016
    [[ $output == *'工具 $t: $CMD_PATH'*'($t differs)'* ]]
    [[ $output == *'unescaped " or ` in the translation of: ufw 未启用'* ]]
    # 5. po/sh/extract（不带 --check）把新句子并进 en.po，msgstr 为空
    cp "$REPO/po/sh/en.po" "$d/po/sh/en.po"
    printf '%s\n' 'new_msg() { echo $"又一句新的话"; }' >>"$d/diagnose.sh"
    run -0 "$d/po/sh/extract"
    [[ $output == *"1 untranslated"* ]]
    grep -A1 -F 'msgid "又一句新的话"' "$d/po/sh/en.po" | grep -qx 'msgstr ""'
    [ -f "$d/po/sh/rocev2-learn-sh.pot" ]
}

@test "i18n 5: make locale 编出的 rocev2-learn-sh.mo 是 en.po 现在的内容（英文确实从它来）" {
    local mo=$REPO/build/locale/en/LC_MESSAGES/rocev2-learn-sh.mo
    [ -f "$mo" ]
    [ ! "$REPO/po/sh/en.po" -nt "$mo" ]
    run -0 env LANGUAGE=en LC_ALL=C.UTF-8 TEXTDOMAINDIR="$REPO/build/locale" gettext rocev2-learn-sh '[通过]'
    [ "$output" = "[PASS]" ]
}
