# tests/unit/fake-env.bash - 伪造的 sysfs 和网络命令（scripts.bats、scripts-i18n.bats 用 load 加载）
# 调用者设好 FAKE（RDMA_SYSFS_ROOT）、FAKE_IP（假 ip/ping 的回答目录）、NET_SYSFS_ROOT
# shellcheck shell=bash

# mk_port DEV PORT [STATE] [PHYS]
mk_port() {
    local d=$FAKE/$1/ports/$2
    mkdir -p "$d/gids" "$d/gid_attrs/types" "$d/gid_attrs/ndevs"
    echo "${3:-4: ACTIVE}" >"$d/state"
    echo "${4:-5: LinkUp}" >"$d/phys_state"
}

# add_gid DEV PORT IDX GID TYPE NDEV
add_gid() {
    local d=$FAKE/$1/ports/$2
    # 覆盖之前的空槽位（空槽位的 types/ndevs 是目录）
    if [[ -d $d/gid_attrs/types/$3 ]]; then rmdir "$d/gid_attrs/types/$3" "$d/gid_attrs/ndevs/$3"; fi
    echo "$4" >"$d/gids/$3"
    echo "$5" >"$d/gid_attrs/types/$3"
    echo "$6" >"$d/gid_attrs/ndevs/$3"
}

# write_fake_net_cmds 目录 —— 在目录里写假的 ip 和 ping（放在 PATH 前面用）：回答来自 $FAKE_IP 里的文件，
# 每次调用记在 $FAKE_IP/calls
write_fake_net_cmds() {
    local BIN=$1
    cat >"$BIN/ip" <<'EOF'
#!/usr/bin/env bash
# 伪造的 ip: route get 的回答在 route_参数（空格换成 _），没有这个文件就是网络不可达
d=$FAKE_IP
args="$*"
echo "ip $args" >>"$d/calls"
case $args in
    "-4 -o addr show" | "-4 -o addr show up") cat "$d/addr" 2>/dev/null ;;
    "route get "*)
        key=${args#route get }
        if [[ -f $d/route_${key// /_} ]]; then
            cat "$d/route_${key// /_}"
        else
            echo "RTNETLINK answers: Network is unreachable" >&2
            exit 2
        fi
        ;;
    "neigh show "*) cat "$d/neigh_$3" 2>/dev/null ;;
esac
exit 0
EOF
    cat >"$BIN/ping" <<'EOF'
#!/usr/bin/env bash
# 伪造的 ping: $FAKE_IP/ping_max = 能到对端的最大 IP 包（字节，-s + 28），0 = 完全不通
echo "ping $*" >>"$FAKE_IP/calls"
size=56 max=1500
while (($# > 0)); do
    if [[ $1 == -s ]]; then size=$2; fi
    shift
done
if [[ -f $FAKE_IP/ping_max ]]; then max=$(<"$FAKE_IP/ping_max"); fi
if ((size + 28 <= max)); then
    echo "1 packets transmitted, 1 received, 0% packet loss, time 0ms"
    exit 0
fi
echo "1 packets transmitted, 0 received, 100% packet loss, time 1000ms"
exit 1
EOF
    chmod +x "$BIN/ip" "$BIN/ping"
}

# fake_route "route get 后面的参数" "回答"
fake_route() {
    printf '%s\n' "$2" >"$FAKE_IP/route_${1// /_}"
}

# fake_netdev 网卡 MTU [flags] —— 默认 UP、有载波（flags 0x1003）
fake_netdev() {
    mkdir -p "$NET_SYSFS_ROOT/$1"
    echo "${3:-0x1003}" >"$NET_SYSFS_ROOT/$1/flags"
    echo "$2" >"$NET_SYSFS_ROOT/$1/mtu"
}
