#!/usr/bin/env bash
# tests/lab/learner.sh - 文档里实验室的几行，由普通用户在他自己的克隆里原样运行（tests/36-lab-docs.t 调用；以 root 运行，打印 TAP 行）
# 用法: tests/lab/learner.sh 第一个用例的编号        （一共 4 个用例）
#   用户 learner（没有就 useradd -m 建），调用者的工作树复制到 ~learner/rocev2-lab-test（= git clone 再加上还没提交的改动）。
#   build/ 从调用者的树一起复制（时间戳不变，make 不必重编；这里测的是实验室和权限，不是编译器）。缓存就是调用者的缓存。
#   N.   bash lab/setup --check：以 0 退出、说“实验室已准备好”、这个克隆可写；缓存是空目录时以 1 退出，并给出确切的 sudo 命令
#   N+1. 留下属于 root 的文件（像用 sudo 运行过 make）：make demo 立刻失败（不开机），中英两句，给出 sudo chown -R "$USER": build logs；
#        照这条命令做了（root 运行，去掉 sudo）之后 --check 又以 0 退出
#   N+2. make demo：退出 0，两端都正常结束；克隆里没有不属于 learner 的文件
#   N+3. make exercise EX=3 REF=1（练习 3 的检查，程序自己的函数）：本机的规则和实验室里的真实 rxe 都通过
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
n=$((${1:?first test number} - 1))
NAMES=("learner: bash lab/setup --check says ready (and gives the exact sudo command for an empty cache)"
    "learner: a root-owned build/ or logs/ file stops make demo at once with the chown command, which fixes it"
    "learner: make demo in their own clone"
    "learner: make exercise EX=3 REF=1 passes the host rules and real rxe")
T=$(mktemp -d)
U=learner
# shellcheck source=tests/lib/tap.bash
. tests/lib/tap.bash   # ok 0|非0 描述 [诊断文件]（计数接着上面的 n）
if [[ $EUID -ne 0 ]]; then
    for name in "${NAMES[@]}"; do n=$((n + 1)); echo "ok $n # SKIP 要 root（建用户 $U、runuser）: $name"; done
    rm -rf "$T"
    exit 0
fi
id "$U" >/dev/null 2>&1 || useradd -m -s /bin/bash "$U" || { echo "useradd $U failed" >"$T/err"; }
H=$(getent passwd "$U" | cut -d: -f6)
D=$H/rocev2-lab-test
# shellcheck disable=SC2317  # 由 trap 调用
cleanup() { rm -rf "$T" "$D"; }
trap cleanup EXIT

# 克隆：git 知道的文件（已跟踪的、没被忽略的新文件；删掉了的不要）加上 build/ 里要用的部分
rm -rf "$D"
mkdir -p "$D"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
        [[ -e $f ]] && printf '%s\0' "$f"
    done | tar --null -T - -cf - | tar -xf - -C "$D"
else
    tar --exclude=./build --exclude=./logs -cf - . | tar -xf - -C "$D"
fi
[[ -d build ]] && tar --exclude=build/asan --exclude=build/fuzz --exclude=build/tests -cf - build | tar -xf - -C "$D"
chown -R "$U": "$D"

# 以 learner 在克隆里运行一行（登录用户那样的干净环境；只带进 make test 设的 LAB_RETRY_HUNG 和 LAB_KERNEL）
as_learner() {
    local envs=(HOME="$H" USER="$U" LOGNAME="$U" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8)
    [[ -n ${LAB_RETRY_HUNG:-} ]] && envs+=(LAB_RETRY_HUNG="$LAB_RETRY_HUNG")
    [[ -n ${LAB_KERNEL:-} ]] && envs+=(LAB_KERNEL="$LAB_KERNEL")
    runuser -u "$U" -- env -i "${envs[@]}" timeout 600 bash -c "cd $(printf %q "$D") && $1"
}

# ---- N. lab/setup --check ----
t0=$SECONDS bad=0
as_learner 'bash lab/setup --check' >"$T/check" 2>&1 || { echo "--check: 退出码不是 0" >>"$T/check"; bad=1; }
grep -qF '实验室已准备好 (lab ready)' "$T/check" || { echo '没有说 实验室已准备好' >>"$T/check"; bad=1; }
grep -qF "可写 (writable for $U)" "$T/check" || { echo "没有说这个克隆可写" >>"$T/check"; bad=1; }
E=$(mktemp -d)
chmod 755 "$E"
rc=0
as_learner "ROCE_LAB_CACHE=$E bash lab/setup --check" >"$T/empty" 2>&1 || rc=$?
((rc == 1)) || { echo "空缓存: 退出码 $rc（应为 1）" >>"$T/check"; bad=1; }
grep -qF "运行一次 (run once): sudo ROCE_LAB_CACHE=$E bash lab/setup" "$T/empty" \
    || { echo "空缓存: 没有给出 sudo ROCE_LAB_CACHE=$E bash lab/setup:"; cat "$T/empty"; } >>"$T/check"
grep -qF "运行一次 (run once): sudo ROCE_LAB_CACHE=$E bash lab/setup" "$T/empty" || bad=1
rm -rf "$E"
ok "$bad" "${NAMES[0]} ($((SECONDS - t0)) s)" "$T/check"

# ---- N+1. 属于 root 的文件 ----
t0=$SECONDS bad=0
mkdir -p "$D/logs"
: >"$D/logs/lab-console.log"    # root 建的（像 sudo make demo 留下的）
chown root: "$D/logs/lab-console.log"
[[ -e $D/build/rdma_client ]] && chown root: "$D/build/rdma_client"
rc=0
as_learner 'make demo' >"$T/owned" 2>&1 || rc=$?
took=$((SECONDS - t0))
{ ((rc != 0)) || echo "make demo 没有失败"; } >>"$T/owned.diag"
((rc != 0)) || bad=1
# shellcheck disable=SC2016  # $USER 是原样打印的命令里的字
for want in '错误: 这个克隆里有你（learner）写不了的文件' 'error: this clone has files you (learner) cannot write' \
    'sudo chown -R "$USER": '; do
    grep -qF -- "$want" "$T/owned" || { echo "没有: $want" >>"$T/owned.diag"; bad=1; }
done
grep -q 'booting guest' "$T/owned" && { echo "还是开机了" >>"$T/owned.diag"; bad=1; }
# 照它给的命令做（root 运行，去掉 sudo；$USER 是 learner，和学习者自己的 shell 一样）
fix=$(sed -n 's/^ .*运行一次: *\(sudo chown -R .*\)$/\1/p' "$T/owned" | head -n1)
# shellcheck disable=SC2016
if [[ $fix == 'sudo chown -R "$USER": '* ]]; then
    (cd "$D" && USER=$U eval "${fix#sudo }") || { echo "修复命令失败: $fix" >>"$T/owned.diag"; bad=1; }
    as_learner 'bash lab/setup --check' >>"$T/owned.diag" 2>&1 || { echo "照做之后 --check 仍不是 0" >>"$T/owned.diag"; bad=1; }
else
    echo '没找到修复命令（运行一次:  sudo chown -R …）' >>"$T/owned.diag"; bad=1
fi
((bad == 0)) || cat "$T/owned" >>"$T/owned.diag"
chown -R "$U": "$D"   # 修复命令没找到或没用时也还原：后面的用例测它们自己的事
ok "$bad" "${NAMES[1]} (make demo stopped after ${took} s; $((SECONDS - t0)) s)" "$T/owned.diag"

# ---- N+2. make demo ----
t0=$SECONDS bad=0
as_learner 'make demo' >"$T/demo" 2>&1 || { echo "make demo: 退出码不是 0" >>"$T/demo"; bad=1; }
for want in '服务端正常结束' '客户端正常结束'; do
    grep -qF "$want" "$T/demo" || { echo "没有: $want" >>"$T/demo"; bad=1; }
done
find "$D" ! -user "$U" -print | head -n 5 >"$T/foreign"
[[ -s $T/foreign ]] && { echo "克隆里有不属于 $U 的文件:"; cat "$T/foreign"; } >>"$T/demo"
[[ -s $T/foreign ]] && bad=1
((bad == 0)) || tail -n 40 "$T/demo" >"$T/demo.diag"
ok "$bad" "${NAMES[2]} ($((SECONDS - t0)) s)" "$T/demo.diag"

# ---- N+3. 一次练习的检查 ----
t0=$SECONDS bad=0
as_learner 'make exercise EX=3 REF=1' >"$T/ex" 2>&1 || { echo "make exercise: 退出码不是 0" >>"$T/ex"; bad=1; }
grep -qF '✓ 通过' "$T/ex" || { echo '没有 ✓ 通过' >>"$T/ex"; bad=1; }
((bad == 0)) || grep -vE '^(clang|cc) ' "$T/ex" | tail -n 40 >"$T/ex.diag"
ok "$bad" "${NAMES[3]} ($((SECONDS - t0)) s)" "$T/ex.diag"
