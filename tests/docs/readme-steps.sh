#!/usr/bin/env bash
# tests/docs/readme-steps.sh - 取出 README.md 里标记过的“两台虚拟机”步骤（纯文本处理，宿主机和虚拟机里都能用）
#
# README 里每个要被测试的代码块前面有一行标记：
#   <!-- readme-steps: 名字 在哪儿 -->      在哪儿 = both | vm0 | vm1 | skip | not-in-lab
# 紧接着的 ```bash 代码块就是这一步（标记和代码块可以缩进，在列表里时就是这样）。
#
# 用法:
#   tests/docs/readme-steps.sh list            每个标记一行: 名字<TAB>在哪儿
#   tests/docs/readme-steps.sh lines 名字      这一步要执行的命令，一行一条（按下面的规则改写过）
#   tests/docs/readme-steps.sh raw 名字        这一步的命令原样（只去掉空行、# 注释行和行首缩进；sudo 留着）：
#                                             tests/64-lab-stock.t 在原版 Debian 虚拟机里以 learner 运行它们
#
# 规则（tests/56-lab-readme-steps.t 在两台没有 RDMA 设备的实验室虚拟机里照这些规则原样执行）:
#   1. 空行和 # 开头的注释行不执行；行尾的 # 注释交给 bash 自己忽略
#   2. 行首的 sudo 去掉（虚拟机里就是 root，也没有 sudo）
#   3. 标成 skip 的块不执行：apt-get（虚拟机没有网络和 apt，包来自宿主机）、
#      编译（两台虚拟机共用同一个项目目录，测试开始前已在宿主机上编译过一次）。
#      标成 not-in-lab 的块也不执行：实验室做不出来的事（Ubuntu 的包、netplan、machine-id、
#      重启后还在的防火墙规则），README 在块前写明“没有在实验室验证”和出处
#   4. 服务端块（vm0）的第 i 条命令和客户端块（vm1）的第 i 条配对运行
set -euo pipefail
README=${README:-$(dirname "${BASH_SOURCE[0]}")/../../README.md}

list() {
    sed -nE 's/^[[:space:]]*<!-- readme-steps: ([a-z0-9-]+) (both|vm0|vm1|skip|not-in-lab) -->$/\1\t\2/p' "$README"
}

raw() {
    awk -v want="$1" '
        $0 ~ "^[[:space:]]*<!-- readme-steps: " want " (both|vm0|vm1|skip|not-in-lab) -->$" { armed = 1; next }
        armed && /^[[:space:]]*```bash$/ { inblock = 1; armed = 0; next }
        inblock && /^[[:space:]]*```$/ { exit }
        inblock { print }
    ' "$README" | sed -E 's/^[[:space:]]+//; /^(#|$)/d'
}

lines() { raw "$1" | sed -E 's/^sudo //'; }

case ${1:-} in
    list) list ;;
    lines|raw) [[ -n ${2:-} ]] || { echo "用法: $0 $1 名字" >&2; exit 2; }; "$1" "$2" ;;
    *) echo "用法: $0 list | lines 名字 | raw 名字" >&2; exit 2 ;;
esac
