#!/usr/bin/env bash
# tools/console-diff/run.sh - 两个版本的控制台输出是不是一样（“行为不变”的证据）
#
#   tools/console-diff/run.sh REV_A REV_B          两个 git 版本各跑一遍全部配方，比较规整后的输出
#   tools/console-diff/run.sh --base DIR REV_B     和存下的一次运行（--save 的目录）比较，只跑 REV_B
#   tools/console-diff/run.sh --save DIR REV       跑 REV，把原始和规整后的日志存进 DIR（基线，可以放在仓库外面）
#   tools/console-diff/run.sh --compare DIR_A DIR_B  只比较两次存下的运行（不开实验室）
#   tools/console-diff/run.sh --normalise FILE     打印 FILE 规整后的样子（调规整的规则用）
#   选项 --out DIR：每次运行的目录放在哪儿（默认 logs/console-diff/）
#
# 每个版本：在临时目录里 git worktree add（调用者的工作树和 build/ 不动），make，然后一次 lab/run（单虚拟机，
# rxe0/rxe1）运行 tools/console-diff/recipes.sh 的全部配方，两边的控制台输出和退出码存到 DIR/raw/。
# 配方、实验室（lab/）和本工具总是用这个脚本所在的树里的那一份，被测的版本只换程序本身（src/、po/、Makefile）
# 和它的 diagnose.sh/show_gids.sh。比较之前“规整”（normalise.sed 和下面的 normalise）：每次运行都不同的值（QP号、PSN、
# rkey/lkey、地址、fe80 GID、临时端口、用时、速率、延迟、计数的值；PID、日期和临时路径不出现在这些输出里）换成 …，
# 文字（步骤号、标题、verbs 调用名、说明、提示、行序）不动；出现与否或位置看时机的几行单独处理（见 normalise）。
# 打印每个不一样的配方的 unified diff，最后一行 “N 个配方，M 个相同，K 个不同”；有不同的退出 1。
# 规整总是从 raw/ 重新做：存下的基线在规则改进之后照样能用。
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
HERE=$ROOT/tools/console-diff
OUTROOT=$ROOT/logs/console-diff
# 虚拟机里配方写日志的目录（相对于被测版本的 worktree；出现在 --trace 的路径里，所以每次都一样）
LABOUT=logs/console-diff-raw

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }

# ---------------------------------------------------------------- 规整
# normalise FILE [SIDE]：规整后的内容写到 stdout。
# 1. normalise.sed 换掉数值；
# 2. 有没有都看时机的行：完成通道第一次等到事件时的三行说明（第一个完成是等事件等到的，还是在武装之前就轮询取到了）、
#    收尾时“已确认剩下的 N 个完成事件”（N=0 时不打印）。它们从文件里拿出来，追加到 SIDE（normalise_dir 把一次运行
#    所有文件的这些行去重排序，作为一个配方 timing-lines 来比：文字照比，在哪个配方里出现不比）；没给 SIDE 就打印在末尾；
# 3. 位置看时机的行挪到文件末尾：--cm 的断开（对端先断开时本端打印 DISCONNECTED 事件而不再 rdma_disconnect，
#    两种换成同一个记号）；
# 4. --cm 的服务端：控制连接和每个数据QP的连接请求到达的先后看时机（程序自己也说“到达顺序不定”）。紧跟在
#    CONNECT_REQUEST 事件（和第一个请求的会话号）后面的“↑ 控制连接，来自 …”“↑ QP[…]”换成同一个记号，原来的行
#    排序后放在末尾：请求的个数、每一行的文字照比，只有先后不比；
# 5. 两个客户端同时连的服务端（clients-par）：行交错。带 [客户端N …] 前缀的行按客户端分组放在后面；“接受第 N 个客户端”
#    和“会话结束”两种行（先后看时机，其中的个数也是）换掉个数、排序后放在最后；其余的行照原来的顺序；
# 6. 只在一个配方里看时机的值（timing_by_recipe）：inject-flush 先报告哪个QP失败、peer-closed 的 FIN 还是 RST
normalise() {
    local f=$1 side=${2:-}
    sed -E -f "$HERE/normalise.sed" "$f" | awk -v side="$side" '
        function away(line) { if (side != "") print line >> side; else tl[++nt] = line }
        /^  \[完成通道\] / { away($0); blk = 1; next }
        blk && (/^             → / || /^  说明: 先武装、后取空/) { away($0); next }
        { blk = 0 }
        /^已确认剩下的 … 个完成事件/ { away($0); next }
        /^  CM事件: RDMA_CM_EVENT_DISCONNECTED（/ || /^rdma_disconnect\(\): / { fl[++nf] = "〈--cm 的断开：本端 rdma_disconnect() 或对端先断开〉"; next }
        /^  CM事件: RDMA_CM_EVENT_CONNECT_REQUEST（/ { req = 1; print; next }
        req && /^    会话号 / { print; next }
        req && (/^    ↑ 控制连接，来自 / || /^    ↑ QP\[…\]$/) { ar[++na] = $0; print "    ↑ 〈哪一个连接请求：到达顺序看时机，console-diff 排序后放在末尾〉"; req = 0; next }
        { req = 0 }
        { print }
        END {
            if (na) { print "---- 连接请求的到达顺序取决于时机（console-diff 排了序）----"; for (i = 1; i <= na; i++) print ar[i] | "LC_ALL=C sort"; close("LC_ALL=C sort") }
            if (nf) { print "---- 位置取决于时机的行（console-diff 挪到这里）----"; for (i = 1; i <= nf; i++) print fl[i] }
            if (nt) { print "---- 有没有取决于时机的行（console-diff 挪到这里）----"; for (i = 1; i <= nt; i++) print tl[i] }
        }' |
        if [[ $(basename "$f") == clients-par.server.log ]]; then
            sed -E -e 's/（正在服务 [0-9]+ 个）/（正在服务 … 个）/' -e 's/（成功 [0-9]+，失败 [0-9]+，还在服务 [0-9]+ 个）/（成功 …，失败 …，还在服务 … 个）/' |
                awk '
                /^\[客户端[0-9]+ / { k = $1; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } grp[k] = grp[k] $0 "\n"; next }
                /^接受第 [0-9]+ 个客户端 / || /^客户端[0-9]+ .* 的会话结束: / { fl[++nf] = $0; next }
                { print }
                END {
                    for (i = 1; i <= nk; i++) { print "---- " keys[i] "] 的行（console-diff 按客户端分组）----"; printf "%s", grp[keys[i]] }
                    print "---- 先后取决于时机的行（console-diff 排了序）----"
                    for (i = 1; i <= nf; i++) print fl[i] | "LC_ALL=C sort"
                }'
        else
            timing_by_recipe "$(basename "$f")"
        fi
}

# timing_by_recipe FILE_NAME：只在一个配方的一种行上才看时机的值（stdin → stdout）。每条规则只认一个配方的一个日志、
# 一种句子，别的配方里同样的句子照比（tests/console-diff/normalise.bats 检查合并了该合并的、没吃掉真的不同）：
#   inject-flush.client.log：两个QP都在发，先报告哪个QP的 RETRY_EXC 失败看时机（QP 号换成 …，状态和说明照比）；
#   peer-closed.server.log：对端关掉 TCP 时，我们的 HELLO 它读了没有决定内核发 FIN 还是 RST（“，连接被重置”有没有看时机；
#   收到的字节数照比）
timing_by_recipe() {
    case $1 in
        inject-flush.client.log)
            sed -E 's/^(错误: 工作完成\(WC\)失败: QP)\[[0-9]+\]( 状态=transport retry counter exceeded \(12\) )/\1[…]\2/' ;;
        peer-closed.server.log)
            sed -E 's/^(错误: 对端关闭了连接（连接信息头只收到 [0-9]+\/[0-9]+ 字节)(，连接被重置)?）$/\1〈，连接被重置：有没有看时机〉）/' ;;
        *) cat ;;
    esac
}

# normalise_dir RAW NORM：比较的文件 = 控制台日志（*.log）和退出码（*.rc）；--trace 的 JSON Lines 不比（不是控制台）。
# 有没有看时机的行（见 normalise）去重排序后写成 NORM/timing-lines.log
normalise_dir() {
    local raw=$1 norm=$2 f side
    rm -rf "$norm"
    mkdir -p "$norm"
    side=$(mktemp)
    for f in "$raw"/*.log "$raw"/*.rc; do
        [[ -f $f ]] || continue
        normalise "$f" "$side" >"$norm/$(basename "$f")"
    done
    LC_ALL=C sort -u "$side" >"$norm/timing-lines.log"
    rm -f "$side"
}

# ---------------------------------------------------------------- 运行一个版本
WT_TMP=""
cleanup() {
    if [[ -n $WT_TMP ]]; then
        git -C "$ROOT" worktree remove --force "$WT_TMP/wt" 2>/dev/null || true
        rm -rf "$WT_TMP"
        git -C "$ROOT" worktree prune 2>/dev/null || true
    fi
}
trap cleanup EXIT

# run_rev REV DEST：DEST/raw（原始日志）、DEST/norm、DEST/meta.txt、DEST/build.log、DEST/lab.out
run_rev() {
    local rev=$1 dest=$2 commit wt t0 rc=0
    commit=$(git -C "$ROOT" rev-parse --verify "$rev^{commit}") || { echo "错误: 不认识的版本 $rev" >&2; exit 2; }
    t0=$SECONDS
    rm -rf "$dest"
    mkdir -p "$dest/raw"
    WT_TMP=$(mktemp -d /tmp/console-diff.XXXXXX)
    chmod 755 "$WT_TMP"   # 配方 memlock 以 nobody 运行客户端：它得能进到 build/
    wt=$WT_TMP/wt
    echo "== $rev ($commit): git worktree $wt" >&2
    git -C "$ROOT" worktree add --detach -q "$wt" "$commit"
    # 配方、实验室和本工具用这棵树的：两个版本跑的是同一组配方、同一个实验室
    rm -rf "$wt/lab" "$wt/tools/console-diff"
    mkdir -p "$wt/tools" "$wt/tests/docs"
    cp -a "$ROOT/lab" "$wt/lab"
    cp -a "$HERE" "$wt/tools/console-diff"
    cp "$ROOT/tests/docs/update-excerpts.sh" "$wt/tests/docs/update-excerpts.sh"
    echo "== $rev: make" >&2
    if ! make -C "$wt" -j2 all >"$dest/build.log" 2>&1; then
        tail -n 30 "$dest/build.log" >&2
        echo "错误: $rev 编译失败（$dest/build.log）" >&2
        exit 1
    fi
    echo "== $rev: 实验室（一次开机，全部配方）" >&2
    (cd "$wt" && LAB_TIMEOUT=${LAB_TIMEOUT:-1800} lab/run bash tools/console-diff/recipes.sh "$LABOUT") >"$dest/lab.out" 2>&1 || rc=$?
    if ((rc != 0)); then
        tail -n 30 "$dest/lab.out" >&2
        echo "错误: lab/run 以 $rc 退出（$dest/lab.out）" >&2
        exit 1
    fi
    # 宿主机（内核没有 RDMA）上的配方：和摘录的 host-enosys 一样
    if [[ ! -e /sys/class/infiniband ]]; then
        (cd "$wt" && env -i PATH="$PATH" timeout 60 build/rdma_client 10.11.0.1 -q 1 >"$LABOUT/host-enosys.log" 2>&1 </dev/null; \
            echo "rc=$?" >"$LABOUT/host-enosys.rc") || true
    fi
    cp -a "$wt/$LABOUT/." "$dest/raw/"
    normalise_dir "$dest/raw" "$dest/norm"
    {
        echo "rev=$rev"
        echo "commit=$commit"
        echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "lab_kernel=${LAB_KERNEL:-default}"
        echo "tool_commit=$(git -C "$ROOT" rev-parse HEAD)"
        echo "seconds=$((SECONDS - t0))"
    } >"$dest/meta.txt"
    cleanup
    WT_TMP=""
    echo "== $rev: $(grep -c '^recipe ' "$dest/lab.out" || true) 个实验室配方，用时 $((SECONDS - t0)) 秒 → $dest" >&2
}

# ---------------------------------------------------------------- 比较
# 配方名 = 文件名去掉 .server.log/.client.log/.client1.log/.log/.rc 之类的尾巴（第一个点之前）
recipe_of() { local b=${1##*/}; echo "${b%%.*}"; }

# compare DIR_A DIR_B：两边都从 raw/ 用现在的规则重新规整（写到 $OUTROOT/norm-a、norm-b，存下的目录不动），
# 逐个配方 diff -u；有不同返回 1
compare() {
    local ra=$1 rb=$2 a=$OUTROOT/norm-a b=$OUTROOT/norm-b tmp name f n=0 same=0 differ=0 differing=()
    mkdir -p "$OUTROOT"
    for d in "$ra" "$rb"; do
        [[ -d $d/raw ]] || { echo "错误: $d/raw 不存在（不是 run.sh 存下的运行？）" >&2; exit 2; }
    done
    normalise_dir "$ra/raw" "$a"
    normalise_dir "$rb/raw" "$b"
    tmp=$(mktemp)
    for name in $( (cd "$a" && ls; cd "$b" && ls) | sed 's/\..*//' | sort -u); do
        n=$((n + 1))
        : >"$tmp"
        for f in $( (cd "$a" && ls; cd "$b" && ls) | grep -E "^$name\\." | sort -u); do
            if [[ ! -f $a/$f ]]; then
                echo "只在 B 里有: $f" >>"$tmp"
            elif [[ ! -f $b/$f ]]; then
                echo "只在 A 里有: $f" >>"$tmp"
            else
                diff -u --label "A/$f" --label "B/$f" "$a/$f" "$b/$f" >>"$tmp" || true
            fi
        done
        if [[ -s $tmp ]]; then
            differ=$((differ + 1))
            differing+=("$name")
            echo "======== 配方 $name 不同"
            cat "$tmp"
        else
            same=$((same + 1))
        fi
    done
    rm -f "$tmp"
    echo "A: $(meta_line "$ra")"
    echo "B: $(meta_line "$rb")"
    ((differ == 0)) || echo "不同的配方: ${differing[*]}"
    echo "$n 个配方，$same 个相同，$differ 个不同"
    ((differ == 0))
}

meta_line() { [[ -f $1/meta.txt ]] && tr '\n' ' ' <"$1/meta.txt"; echo "($1)"; }

# ---------------------------------------------------------------- 参数
MODE=revs BASE="" SAVE=""
while (($#)); do
    case $1 in
        --out) OUTROOT=$(realpath -m "${2:?}"); shift 2 ;;
        --base) MODE=base BASE=$(realpath "${2:?}"); shift 2 ;;
        --save) MODE=save SAVE=$(realpath -m "${2:?}"); shift 2 ;;
        --compare) MODE=compare; shift ;;
        --normalise) normalise "${2:?}"; exit 0 ;;
        -h|--help) usage ;;
        -*) echo "错误: 不认识的选项 $1" >&2; usage ;;
        *) break ;;
    esac
done

case $MODE in
    revs)
        (($# == 2)) || usage
        run_rev "$1" "$OUTROOT/a"
        run_rev "$2" "$OUTROOT/b"
        compare "$OUTROOT/a" "$OUTROOT/b" | tee "$OUTROOT/diff.txt"
        ;;
    base)
        (($# == 1)) || usage
        run_rev "$1" "$OUTROOT/b"
        compare "$BASE" "$OUTROOT/b" | tee "$OUTROOT/diff.txt"
        ;;
    save)
        (($# == 1)) || usage
        run_rev "$1" "$SAVE"
        ;;
    compare)
        (($# == 2)) || usage
        compare "$(realpath "$1")" "$(realpath "$2")"
        ;;
esac
