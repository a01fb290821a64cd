#!/usr/bin/env bash
# tests/lab/stock-hub.sh - 克隆的那一例（lab/stock-run --clone）里的第三台：实验室的小虚拟机（lab/run，LAB_HUB：eth0 在 qemu 的
# 组播“集线器”上），在这个网段上运行 dnsmasq 当 DHCP 服务器，像虚拟化软件的“NAT 网络”/“仅主机”网卡里的 DHCP。
# 两台克隆机（原版的 Ubuntu 样子的 Debian 12）在同一个集线器上向它要地址。
#   STOCK_HUB_DIR（宿主机上项目目录里的一个目录，虚拟机里可写）：ready（dnsmasq 在运行）、leases（dnsmasq 的租约文件）、
#   stop（lab/stock-run 写：两台克隆机都做完了）
# dnsmasq 的日志（--log-dhcp：每个 DISCOVER/OFFER/REQUEST/ACK，带 MAC 和 client id）就是本脚本的输出。
set -euo pipefail
D=${STOCK_HUB_DIR:?lab/stock-run --clone 设置}
BOUND=${STOCK_HUB_BOUND:-900}
ip addr add 10.11.0.254/24 dev eth0
ip link set eth0 up
echo "hub: eth0 $(cat /sys/class/net/eth0/address) 10.11.0.254/24, dnsmasq $(dnsmasq --version | head -n 1 | cut -d' ' -f3)，地址池 10.11.0.100–10.11.0.199"
# --port=0：不做 DNS；--conf-file=/dev/null：不读宿主机的配置；租约文件在共享目录里，结束后打印
dnsmasq --keep-in-foreground --conf-file=/dev/null --port=0 --user=root --interface=eth0 --bind-interfaces \
    --dhcp-range=10.11.0.100,10.11.0.199,255.255.255.0,1h --dhcp-leasefile="$D/leases" --pid-file="$D/pid" --log-dhcp --log-facility=- 2>&1 &
pid=$!
exec {nap}<> <(:)
for ((i = 0; i < 50; i++)); do
    [[ -n $(ss -Hlun 'sport = :67' 2>/dev/null) ]] && break
    read -r -t 0.2 -u "$nap" _ || true
done
: >"$D/ready"
for ((i = 0; i < BOUND * 2; i++)); do
    [[ -e $D/stop ]] && break
    kill -0 "$pid" 2>/dev/null || { echo "hub: dnsmasq 退出了"; exit 1; }
    read -r -t 0.5 -u "$nap" _ || true
done
kill "$pid"
wait "$pid" 2>/dev/null || true
echo "hub: 租约（dnsmasq 的 leases：到期时间 MAC 地址 主机名 client-id）:"
sed 's/^/hub:   /' "$D/leases"
