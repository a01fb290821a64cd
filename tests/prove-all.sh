#!/usr/bin/env bash
# tests/prove-all.sh [层] - make test 的实际内容：prove 依次运行 tests/*.t；make check 是 tests/prove-all.sh host，
# 只跑宿主机这一层（tests/*-host-*.t，不开虚拟机）。文件名里的层：NN-host-*（宿主机）、NN-lab-*（一台虚拟机）、
# NN-two-vms-*（两台）、NN-stock-*（原版 Debian），见 docs/DEVELOPING.md
# 完整的 TAP（每个用例的 ok 行，bats 的用例带 “in N ms” 用时）存进 logs/test-output.log；
# 屏幕上只显示每个 .t 的结果、失败的用例和诊断（TAP 注释），不显示通过的用例。
# 有失败时在最后再把每个失败的 .t 的 “not ok” 行和诊断打印一遍：
# CI 往往只给看输出的结尾，中间的诊断看不到，结尾的这份摘要就是查原因的起点。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
mkdir -p logs
# make check：宿主机这一层（tests/*-host-*.t）两个一起跑：它们不开虚拟机，互不相干，各自基本只用一个核；prove -j2 把每个文件的输出
# 攒到它跑完再整段打印，所以屏幕和日志里不会交错。最长的几个先开始（只是排队的先后，不挑测试）：20（shellcheck + bats，
# 约 65 s）、21（练习的样例）、26（文档）、15（四种编译）排在最后时，别的早跑完了，剩一个核空着（2026-11-29：排在前面 87 s，
# 按编号 133 s，一个接一个 4 分半）。make test 里也这样跑，在实验室之前。
# 实验室的几层（一台、两台虚拟机、原版镜像）一个接一个地跑。试过两个实验室一起跑（prove -j2）：每个实验室虚拟机
# 本身就用到两个核（-smp 2，两端程序忙等完成），两台一起跑时每个测试慢 2–3 倍（37-lab-cm.t 155 s → 379 s，
# 39-lab-bench.t 160 s → 446 s），总时间反而更长。
# make test 里先跑宿主机这一层（和 make check 一样 -j2），再一个接一个地跑实验室的几层。试过让宿主机这一层（-j1、nice 10）
# 在后台和实验室同时跑（2026-11-29）：实验室的虚拟机要第二个核的时候拿不到（TCG 的翻译缓存、内存带宽 nice 也管不了），
# 30–33 从 364 s 变成 598 s，宿主机这一层自己 510 s；比先跑宿主机（约 135 s）再跑实验室多用约 100 s，所以不这样做。
HOST=(tests/20-host-*.t tests/21-host-*.t tests/26-host-*.t tests/15-host-*.t)
for t in tests/*-host-*.t; do [[ " ${HOST[*]} " == *" $t "* ]] || HOST+=("$t"); done
LAB=()
for t in tests/*.t; do [[ $t == tests/*-host-*.t ]] || LAB+=("$t"); done
case ${1:-all} in
    all) LOG=logs/test-output.log WHAT="make test" ;;
    host) LAB=() LOG=logs/check-output.log WHAT="make check" ;;
    *) echo "用法: tests/prove-all.sh [all|host]" >&2; exit 2 ;;
esac
start=$SECONDS
# 界面语言固定成默认的中文（测试里比较的是中文输出；要英文的用例自己设 --lang en 或 LANG=en_US.UTF-8），
# 不受跑测试的机器的 LANG/LANGUAGE 影响（src/console/i18n.h）
export LANG=C.UTF-8
# 客户机内核偶尔会卡死（lab/README“见过的挂起”：6.1 的 rxe 或 TCG，不是被测程序的问题）：单机的实验室运行在新虚拟机里重跑一次
export LAB_RETRY_HUNG=1
# 这次运行开始的标记：比它新的实验室输出是这次 make test 里、用同一个 build 跑出来的。tests/62-two-vms-paths.t 借它直接用
# tests/36-lab-docs.t 刚跑过的两台虚拟机的那一次（同一个脚本，36 的文档摘录也要它的日志），不再开一次机
: >logs/.prove-all-start
export LAB_REUSE_SINCE=$PWD/logs/.prove-all-start
unset LANGUAGE LC_ALL LC_MESSAGES
# 就是 /usr/bin/prove，只多了 $| = 1：输出进管道时 perl 默认攒满 4 KB 才写，CI 里会半天看不到进度。
# run_prove 日志 几个一起 文件...：完整的 TAP 追加到日志，屏幕上去掉通过的用例；返回 prove 的退出码
run_prove() {
    local log=$1 jobs=$2
    shift 2
    perl -MApp::Prove -e '$| = 1; my $app = App::Prove->new; $app->process_args(@ARGV); exit($app->run ? 0 : 1)' -- \
        --exec bash --timer --verbose -j "$jobs" "$@" 2>&1 | tee -a "$log" | grep --line-buffered -vE '^(ok [0-9]+|1\.\.[0-9]+$)'
    return "${PIPESTATUS[0]}"
}
: >"$LOG"
rc=0
run_prove "$LOG" 2 "${HOST[@]}" || rc=1
if ((${#LAB[@]})); then
    run_prove "$LOG" 1 "${LAB[@]}" || rc=1
fi
echo "$WHAT: $(((SECONDS - start) / 60)) 分 $(((SECONDS - start) % 60)) 秒" | tee -a "$LOG"
if ((rc != 0)); then
    echo
    echo "========== 失败摘要（完整输出: $LOG）=========="
    # 每个 .t 的标题行之后的 not ok 行和 # 注释（"# ok" 之类的进度注释除外），最多 150 行
    awk '
        /^(\[[0-9:]+\] )?tests\/[^ ]+\.t / { file = $0; sub(/^\[[0-9:]+\] /, "", file); sub(/ .*/, "", file); shown = 0; next }
        /^not ok/ || (/^#/ && !/^# ok/) {
            if (!shown) { print "--- " file; shown = 1 }
            print
        }' "$LOG" | head -n 150
fi
exit "$rc"
