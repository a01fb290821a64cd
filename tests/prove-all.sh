#!/usr/bin/env bash
# tests/prove-all.sh - make test 的实际内容：prove 运行 tests/*.t（先 00-lab.t，其余两个一起跑，见下）。
# 完整的 TAP（每个用例的 ok 行，bats 的用例带 “in N ms” 用时）存进 logs/test-output.log；
# 屏幕上只显示每个 .t 的结果、失败的用例和诊断（TAP 注释），不显示通过的用例。
# 有失败时在最后再把每个失败的 .t 的 “not ok” 行和诊断打印一遍：
# CI 往往只给看输出的结尾，中间的诊断看不到，结尾的这份摘要就是查原因的起点。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
mkdir -p logs
LOG=logs/test-output.log

# 两个阶段：
#   1. tests/00-lab.t 单独先跑：它检查实验室本身（lab/setup 幂等、启动、退出码），别的测试都靠它
#   2. 其余的 .t 同时跑 PROVE_JOBS 个（默认 2 = 这台机器的核数）。每个实验室测试是一台（或两台）TCG 虚拟机，
#      基本只用满一个核，所以两个一起跑差不多快一倍。每次 lab/run 有自己的临时目录和端口，互不干扰；
#      prove -j 把每个 .t 的输出攒齐了才打印，不会交错。慢的排在前面（SLOW_FIRST），两条队列结束得差不多一样早。
#   PROVE_JOBS=1 就是原来的一个接一个。
JOBS=${PROVE_JOBS:-2}
SLOW_FIRST=(tests/59-lab-bench.t tests/57-lab-cm.t tests/55-lab-docs.t tests/30-lab-pair.t tests/35-lab-ops.t
            tests/60-lab-many-clients.t tests/57-lab-cm-two-vms.t tests/37-lab-asan.t tests/61-lab-combos.t)
rest=()
for t in tests/*.t; do
    [[ $t == tests/00-lab.t || " ${SLOW_FIRST[*]} " == *" $t "* ]] || rest+=("$t")
done
order=()
for t in "${SLOW_FIRST[@]}"; do [[ -f $t ]] && order+=("$t"); done
order+=("${rest[@]}")

# 就是 /usr/bin/prove，只多了 $| = 1：输出进管道时 perl 默认攒满 4 KB 才写，CI 里会半天看不到进度
run_prove() {
    perl -MApp::Prove -e '$| = 1; my $app = App::Prove->new; $app->process_args(@ARGV); exit($app->run ? 0 : 1)' -- \
        --exec bash --timer --verbose "$@" 2>&1 | tee -a "$LOG" | grep --line-buffered -vE '^(ok [0-9]+|1\.\.[0-9]+$)'
    return "${PIPESTATUS[0]}"
}
: >"$LOG"
start=$SECONDS
rc=0
run_prove tests/00-lab.t || rc=$?
run_prove -j "$JOBS" "${order[@]}" || rc=$?
echo "make test: $(((SECONDS - start) / 60)) 分 $(((SECONDS - start) % 60)) 秒（PROVE_JOBS=$JOBS）" | tee -a "$LOG"
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
