#!/usr/bin/env bash
# tests/docs/readme-steps.sh - 取出 README.md 里标记过的“两台虚拟机”步骤（纯文本处理，宿主机和虚拟机里都能用）
#
# README 里每个要被测试的代码块前面有一行标记：
#   <!-- readme-steps: 名字 在哪儿 -->      在哪儿 = both | vm0 | vm1 | skip | not-in-lab
#   <!-- readme-steps: 名字 在哪儿 firewall=ufw|nft -->   只在“管事的防火墙”是它的机器上执行（README 第 5 步的判断顺序）
# 紧接着的 ```bash 代码块就是这一步（标记和代码块可以缩进，在列表里时就是这样）。
#
# 用法:
#   tests/docs/readme-steps.sh list [防火墙]            每个标记一行: 名字<TAB>在哪儿。防火墙 = 这台机器上管事的那个
#                                                      （nft，默认：实验室和 Debian 的样子；ufw：变体 ufw）；标了 firewall=别的 的块，
#                                                      在哪儿 写成 other-firewall（谁也不执行）
#   tests/docs/readme-steps.sh lines 名字 [防火墙]      这一步要执行的命令，一行一条（按下面的规则改写过）
#   tests/docs/readme-steps.sh raw 名字 [防火墙]        这一步的命令原样（只去掉空行、# 注释行和行首缩进；sudo 留着）：
#                                                      tests/70-stock-readme.t 在原版 Debian 虚拟机里以 learner 运行它们。
#                                                      给了防火墙时，行尾注释正好是另一个防火墙的名字（# ufw、# firewalld、# nft）的行不要
#
# 规则（tests/kernels/readme-steps.sh 在两台没有 RDMA 设备的实验室虚拟机里照这些规则执行；make test 里的 tests/70-stock-readme.t
# 在原版 Debian 上以 learner 用 raw 原样执行，sudo 留着）:
#   1. 空行和 # 开头的注释行不执行；行尾的 # 注释交给 bash 自己忽略
#   2. 行首的 sudo 去掉（虚拟机里就是 root，也没有 sudo）
#   3. 标成 skip 的块不执行：apt-get（虚拟机没有网络和 apt，包来自宿主机）、
#      编译（两台虚拟机共用同一个项目目录，测试开始前已在宿主机上编译过一次）。
#      标成 not-in-lab 的块也不执行：实验室做不出来的事（Ubuntu 的包、netplan、machine-id、
#      重启后还在的防火墙规则），README 在块前写明“没有在实验室验证”和出处
#   4. 服务端块（vm0）的第 i 条命令和客户端块（vm1）的第 i 条配对运行
#   5. 标了 firewall=X 的块只在管事的防火墙是 X 的机器上执行（list 的第二个参数）：实验室和 Debian 样子的原版镜像是 nft，
#      tests/70-stock-readme.t 的变体 ufw 是 ufw（那里 firewall-other 块只运行行尾注释是 # ufw 的那一行）
set -euo pipefail
README=${README:-$(dirname "${BASH_SOURCE[0]}")/../../README.md}

FIREWALLS="ufw firewalld nft"

list() {  # list [防火墙]
    local fw=${1:-nft}
    sed -nE 's/^[[:space:]]*<!-- readme-steps: ([a-z0-9-]+) (both|vm0|vm1|skip|not-in-lab)( firewall=([a-z]+))? -->$/\1\t\2\t\4/p' "$README" |
        while IFS=$'\t' read -r name where only; do
            [[ -z $only || $only == "$fw" ]] || where=other-firewall
            printf '%s\t%s\n' "$name" "$where"
        done
}

raw() {  # raw 名字 [防火墙]
    local fw=${2:-} t drop="-"
    # 没给防火墙：一行也不去掉
    [[ -z $fw ]] || for t in $FIREWALLS; do [[ $t == "$fw" ]] || drop+="|$t"; done
    awk -v want="$1" '
        $0 ~ "^[[:space:]]*<!-- readme-steps: " want " (both|vm0|vm1|skip|not-in-lab)( firewall=[a-z]+)? -->$" { armed = 1; next }
        armed && /^[[:space:]]*```bash$/ { inblock = 1; armed = 0; next }
        inblock && /^[[:space:]]*```$/ { exit }
        inblock { print }
    ' "$README" | sed -E 's/^[[:space:]]+//; /^(#|$)/d' | grep -vE "[[:space:]]#[[:space:]]*($drop)[[:space:]]*\$" || true
}

lines() { raw "$1" "${2:-}" | sed -E 's/^sudo //'; }

case ${1:-} in
    list) list "${2:-}" ;;
    lines|raw) [[ -n ${2:-} ]] || { echo "用法: $0 $1 名字 [防火墙]" >&2; exit 2; }; "$1" "$2" "${3:-}" ;;
    *) echo "用法: $0 list [防火墙] | lines 名字 [防火墙] | raw 名字 [防火墙]" >&2; exit 2 ;;
esac
