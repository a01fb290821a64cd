#!/usr/bin/env bash
# lab/kernel.bash：LAB_KERNEL（实验室启动哪个 Debian 内核）的取值和缓存位置。
# lab/setup、lab/run 和测试都 source 它（bash；不要直接执行）。
#   LAB_KERNEL=6.1   Debian 12（bookworm）自己的内核，来自宿主机自己的 apt 源（默认）
#   LAB_KERNEL=5.10  Debian 11（bullseye）的内核，经实验室私有的 apt 配置下载
#   LAB_KERNEL=6.12  Debian 13（trixie）的内核，同上
# 每个内核一份缓存：6.1 用缓存根目录本身（和以前一样），其它放在 根目录/linux-<系列>/。

LAB_KERNELS=(5.10 6.1 6.12)
LAB_KERNEL_DEFAULT=6.1

# 内核系列对应的 Debian 发行版代号；6.1 为空 = 用宿主机自己的 apt 源
lab_kernel_suite() {
    case $1 in
        5.10) echo bullseye ;;
        6.1) echo "" ;;
        6.12) echo trixie ;;
        *) return 1 ;;
    esac
}

# 检查 LAB_KERNEL 的值；不认识就说明可选值并返回 1
lab_kernel_check() {
    lab_kernel_suite "$1" >/dev/null && return 0
    printf 'LAB_KERNEL must be one of: %s (got %q)\n' "${LAB_KERNELS[*]}" "$1" >&2
    return 1
}

# 系列 $1 的缓存目录；$2 = 缓存根目录
lab_kernel_cache() {
    if [[ $1 == "$LAB_KERNEL_DEFAULT" ]]; then echo "$2"; else echo "$2/linux-$1"; fi
}
