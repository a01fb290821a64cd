#!/usr/bin/env bash
# lab/stock.bash：原版 Debian 镜像（make stock-images）的名字、缓存键和缓存位置。
# lab/stock-images、lab/stock-run 和测试都 source 它（bash；不要直接执行）。
#   debian12 = Debian 12（bookworm），debian13 = Debian 13（trixie）
# 缓存键 = 镜像格式版本 + lab/stock/<发行版>.packages + README 安装行的哈希：任何一个变了就是另一个目录，要重建。

STOCK_DISTROS=(debian12 debian13)
# 改了 lab/stock-images 里镜像的做法（用户、单元、hook）就加一
STOCK_FORMAT=4
STOCK_LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

stock_suite() {
    case $1 in
        debian12) echo bookworm ;;
        debian13) echo trixie ;;
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
    { echo "format=$STOCK_FORMAT suite=$(stock_suite "$distro")"; cat "$pk"
      echo "readme-install:"; stock_readme_packages; } | sha256sum | cut -c1-12
}

stock_root() { echo "${ROCE_LAB_CACHE:-/var/cache/rocev2-lab}/stock"; }

# 镜像目录：<缓存>/stock/<发行版>-<键>/，里面 root.qcow2（plain）、root-nftdrop.qcow2（变体）、vmlinuz、initrd.img、image.env
# shellcheck disable=SC2034  # 给 source 它的脚本用（lab/stock-run）
STOCK_FLAVOURS=(plain nftdrop)
stock_dir() {
    local key
    key=$(stock_key "$1") || return 1
    echo "$(stock_root)/$1-$key"
}
