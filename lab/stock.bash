#!/usr/bin/env bash
# lab/stock.bash：原版 Debian 镜像（make stock-images）的名字、缓存键和缓存位置。
# lab/stock-images、lab/stock-run 和测试都 source 它（bash；不要直接执行）。
#   debian12 = Debian 12（bookworm），debian13 = Debian 13（trixie）；
#   debian12-ufw、debian13-ufw = 变体 ufw 的镜像（Debian 12/13 的包做成 Ubuntu 的样子：netplan + systemd-networkd、ufw 启用），自己一个目录、自己的键
# 缓存键 = 镜像格式版本 + lab/stock/<发行版>.packages + README 安装行的哈希：任何一个变了就是另一个目录，要重建。

STOCK_DISTROS=(debian12 debian13)
# lab/stock-images all 建的全部镜像（变体 ufw 是单独的一个镜像：包不一样，不能从同一个根目录派生）
# shellcheck disable=SC2034  # 给 source 它的脚本用
STOCK_IMAGES=(debian12 debian13 debian12-ufw debian13-ufw debian12-cloud)
# 改了 lab/stock-images 里镜像的做法（用户、单元、hook）就加一
STOCK_FORMAT=4
# 变体 ufw 的镜像的做法（netplan、ufw 的离线启用）改了就加一
STOCK_UFW_FORMAT=2
# 变体 cloud 的镜像的做法（分区、GRUB、harness 盘）改了就加一
STOCK_CLOUD_FORMAT=1
STOCK_LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

stock_suite() {
    case $1 in
        debian12 | debian12-ufw | debian12-cloud) echo bookworm ;;
        debian13 | debian13-ufw) echo trixie ;;
        *) printf 'unknown stock image %q (known: %s)\n' "$1" "${STOCK_DISTROS[*]}" >&2; return 1 ;;
    esac
}

# README 安装块里 apt-get install 的包名（一行一个，按 README 的顺序）
stock_readme_packages() {
    bash "$STOCK_LAB_DIR/../tests/docs/readme-steps.sh" lines install |
        sed -nE 's/^.*apt-get install (.*)$/\1/p' | tr ' ' '\n' | grep -vE '^(-|$)'
}

# 缓存键（12 位十六进制）
stock_key() {
    local distro=$1 pk=$STOCK_LAB_DIR/stock/$1.packages
    [[ -r $pk ]] || { echo "missing $pk" >&2; return 1; }
    { echo "format=$STOCK_FORMAT suite=$(stock_suite "$distro")"
      [[ $distro == *-ufw ]] && echo "ufw-format=$STOCK_UFW_FORMAT"
      [[ $distro == *-cloud ]] && echo "cloud-format=$STOCK_CLOUD_FORMAT"
      cat "$pk"
      echo "readme-install:"; stock_readme_packages; } | sha256sum | cut -c1-12
}

stock_root() { echo "${ROCE_LAB_CACHE:-/var/cache/rocev2-lab}/stock"; }

# 镜像目录：<缓存>/stock/<发行版>-<键>/，里面 root.qcow2（plain）、root-nftdrop.qcow2（变体）、vmlinuz、initrd.img、image.env；
# 变体 ufw 在 <缓存>/stock/debian12-ufw-<键>/ 里（root-ufw.qcow2）
# shellcheck disable=SC2034  # 给 source 它的脚本用（lab/stock-run）
STOCK_FLAVOURS=(plain nftdrop ufw cloud)
# 变体 → 镜像名（stock_image debian12 ufw → debian12-ufw，cloud → debian12-cloud）和镜像里的 qcow2 文件名
stock_image() { if [[ $2 == ufw || $2 == cloud ]]; then echo "$1-$2"; else echo "$1"; fi; }
stock_qcow2() { if [[ $1 == plain ]]; then echo root.qcow2; else echo "root-$1.qcow2"; fi; }
stock_dir() {
    local key
    key=$(stock_key "$1") || return 1
    echo "$(stock_root)/$1-$key"
}

# 给虚拟机的软件源（lab/stock-repo）：快速开始和安装块点名的包（Ubuntu 那一行除外），加上云内核那一例换上的通用内核、
# 云内核的元包（修复以后 apt-get -s dist-upgrade 看它会不会回来：源里有它才算数）和 perftest
STOCK_MIRROR_FORMAT=1
stock_mirror_packages() {
    { bash "$STOCK_LAB_DIR/../tests/docs/readme-steps.sh" raw quickstart | grep -v '只在 Ubuntu' |
        sed -nE 's/^.*apt-get install ([^#&;|]*).*$/\1/p' | tr ' ' '\n'
      stock_readme_packages
      printf '%s\n' linux-image-amd64 linux-image-cloud-amd64 perftest; } | grep -vE '^(-.*|)$' | awk '!seen[$0]++'
}
stock_mirror_disk() {  # stock_mirror_disk bookworm|trixie
    local key
    key=$({ echo "mirror-format=$STOCK_MIRROR_FORMAT suite=$1"; stock_mirror_packages; } | sha256sum | cut -c1-12)
    echo "$(stock_root)/mirror-$1-$key.ext4"
}
