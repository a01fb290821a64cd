#!/usr/bin/env bash
# tests/40-lab-kernels.t - 另外两个内核的开机冒烟和实验室私有的 apt 配置（TAP；make test 里只有这一点点，
# 三个内核上的完整子集是 make test-kernels）。“另外两个” = 5.10、6.1、6.12 里 LAB_KERNEL（默认 6.1）以外的。
#   1. 私有 apt 配置：LAB_KERNEL=6.12 lab/setup --resolve 用临时缓存（lists 从真缓存复制，只刷新 140 kB 的 InRelease）
#      解析出 linux-image-6.12.*；sources.list 只有 trixie 一行，lists 里只有 trixie，apt.conf 只指向缓存
#   2. 每个内核的缓存在（没有就以 root 运行 LAB_KERNEL=... lab/setup：5.10 下载 64 MB、13–35 s，6.12 下载 118 MB、约 27 s；
#      CI 里 .ci/run 已经预先准备好）
#   3.. 每个内核一次启动（tests/lab/kernel-smoke.sh）：lab/run 的第一行点名内核，uname -r 对得上，一对 write_imm 通过，QP 没开远端权限时的状态（qpaccess）；
#      --srq 拆除时 LAST_WQE_REACHED 的个数（srq：5.10 是 0 个，6.12 是每个QP一个）；
#      5.10 上 fetch_add 以 RETRY_EXC_ERR 结束且提示点名内核；6.12 上 --cm 的 0x30e 说出两个 FLUSH 位
#   最后. 宿主机的 /etc/apt、/var/lib/apt、/var/cache/apt 和 dpkg 状态从头到尾没变
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
# shellcheck source=lab/kernel.bash
. lab/kernel.bash
# shellcheck source=tests/lab/results-tap.bash
. tests/lab/results-tap.bash
ROOT=${ROCE_LAB_CACHE:-/var/cache/rocev2-lab}
CUR=${LAB_KERNEL:-$LAB_KERNEL_DEFAULT}
OTHERS=()
for k in "${LAB_KERNELS[@]}"; do [[ $k == "$CUR" ]] || OTHERS+=("$k"); done
T=$(mktemp -d /var/tmp/rocev2-kernels.XXXXXX)
chmod 755 "$T"   # apt 以 _apt 用户写 lists/partial，上层目录要能进
trap 'rm -rf "$T"' EXIT
START=$SECONDS

host_apt_sum() {
    find /etc/apt /var/lib/apt /var/cache/apt -printf '%p %s %T@ %m\n' 2>/dev/null | LC_ALL=C sort | md5sum
    md5sum /var/lib/dpkg/status
}

# 每个其它内核：第一次启动的 stderr 第一行、冒烟的结果名
names=()
for k in "${OTHERS[@]}"; do
    names+=("kernel-$k" "pair-$k" "qpaccess-$k" "srq-$k")
    [[ $k == 5.10 ]] && names+=(atomic-5.10)
    [[ $k == 6.12 ]] && names+=(flush-6.12)
done
total=$((2 + ${#OTHERS[@]} + ${#names[@]}))
echo "1..$total"
. tests/lib/tap.bash
before=$(host_apt_sum)

# ---- 1. 私有 apt 配置 ----
A=$T/linux-6.12/apt
mkdir -p "$A"
[[ -d $ROOT/linux-6.12/apt/lists ]] && cp -a "$ROOT/linux-6.12/apt/lists" "$A/"
rm -f "$A/lists/lock"
rc=0
pkg=$(LAB_KERNEL=6.12 ROCE_LAB_CACHE=$T bash lab/setup --resolve 2>"$T/resolve.err") || rc=$?
bad=0
[[ $rc == 0 && $pkg == linux-image-6.12.*-amd64 ]] || { echo "--resolve: 退出码 $rc，包名 '$pkg'" >>"$T/resolve.err"; bad=1; }
mapfile -t src <"$A/sources.list" 2>/dev/null
[[ ${#src[@]} == 1 && ${src[0]} == "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "*" trixie main" ]] \
    || { echo "sources.list 不是只有 trixie 一行: ${src[*]}" >>"$T/resolve.err"; bad=1; }
others=$(find "$A/lists" -maxdepth 1 -name '*_dists_*' ! -name '*_dists_trixie_*' | head -3)
[[ -z $others ]] || { echo "lists 里有别的发行版（宿主机的源混进来了？）: $others" >>"$T/resolve.err"; bad=1; }
if grep -q '/etc/apt' "$A/apt.conf" 2>/dev/null || ! grep -q "Dir::State::lists \"$A/lists\"" "$A/apt.conf" 2>/dev/null; then
    echo "apt.conf 没有把 lists 放在缓存里，或指向了 /etc/apt" >>"$T/resolve.err"; bad=1
fi
ok "$bad" "private apt config: LAB_KERNEL=6.12 lab/setup --resolve → $pkg, only trixie in sources.list and lists ($((SECONDS - START)) s)" "$T/resolve.err"

# ---- 2. 其它内核的缓存 ----
for k in "${OTHERS[@]}"; do
    c=$(lab_kernel_cache "$k" "$ROOT")
    t0=$SECONDS rc=0
    if [[ ! -r $c/lab.env ]]; then
        if [[ $EUID == 0 ]]; then
            LAB_KERNEL=$k bash lab/setup >"$T/setup-$k.log" 2>&1 || rc=$?
        else
            echo "没有 $c/lab.env，又不是 root：先 sudo LAB_KERNEL=all bash lab/setup" >"$T/setup-$k.log"; rc=1
        fi
        ok "$rc" "LAB_KERNEL=$k cache prepared by lab/setup ($((SECONDS - t0)) s)" "$T/setup-$k.log"
    else
        ok 0 "LAB_KERNEL=$k cache present ($c)"
    fi
done

# ---- 3. 每个其它内核一次启动 ----
next=$((n))
for k in "${OTHERS[@]}"; do
    c=$(lab_kernel_cache "$k" "$ROOT")
    # shellcheck disable=SC1091
    kver=$(. "$c/lab.env" 2>/dev/null && echo "${LAB_KVER:-}")
    t0=$SECONDS
    LAB_KERNEL=$k lab/run tests/lab/kernel-smoke.sh "$kver" "$k" >"$T/out-$k" 2>"$T/err-$k"
    first=$(head -n1 "$T/err-$k")
    want="lab: kernel: Linux $kver (LAB_KERNEL=$k)"
    # 第一行点名内核：算进 kernel-$k（不对就在最前面放一行 fail，results_to_tap 取第一个匹配）
    if [[ $first != "$want" ]]; then
        { echo "RESULT kernel-$k fail lab/run 的第一行是 '$first'，不是 '$want'"; cat "$T/out-$k"; } >"$T/x" && mv "$T/x" "$T/out-$k"
    fi
    cat "$T/err-$k" >>"$T/out-$k"
    echo "# LAB_KERNEL=$k: $((SECONDS - t0)) s"
    sel=("kernel-$k" "pair-$k" "qpaccess-$k" "srq-$k")
    [[ $k == 5.10 ]] && sel+=(atomic-5.10)
    [[ $k == 6.12 ]] && sel+=(flush-6.12)
    results_to_tap "$T/out-$k" "$next" "${sel[@]}"
    next=$((next + ${#sel[@]}))
done
n=$next

# ---- 最后：宿主机的 apt 没动 ----
after=$(host_apt_sum)
[[ $before == "$after" ]]
ok $? "host /etc/apt, /var/lib/apt, /var/cache/apt and dpkg status unchanged (checksums before and after)"
echo "# 用时 $((SECONDS - START)) s"
