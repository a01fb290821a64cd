#!/usr/bin/env bash
# tests/25-host-loss-vs-tcp-plot.t - make loss-vs-tcp 的图在真正的浏览器里（TAP；不需要虚拟机，headless chromium，约 10 秒）
# 提交的 docs/loss-vs-tcp/lossy.svg（make loss-vs-tcp 一次真实运行画的）在 chromium 里渲染：三条线（ours、perftest、iperf3）都在，
# 每条的点数和 docs/loss-vs-tcp/results.csv 里这个工具有相对吞吐量的行一样多、都画在坐标框里、线把点连起来
# （tests/loss-vs-tcp/svg-check.py）。再证明检查会失败：同一份 reps.csv 里把 perftest 的运行全标成失败，
# tools/loss-vs-tcp/report.sh 重新画（perftest 那条线没有点，只剩图例），检查必须报 not ok。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
D=docs/loss-vs-tcp
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v chromium >/dev/null && [[ ${CI:-} != true ]]; then
    echo "1..0 # SKIP chromium not installed (bash lab/setup installs it)"
    exit 0
fi
mkdir -p logs
. tests/lib/tap.bash
python3 tests/loss-vs-tcp/svg-check.py --svg "$D/lossy.svg" --series ours --series perftest --series iperf3 \
    --results "$D/results.csv" --png logs/lossy.png >"$T/out" 2>&1
tap_lines "$T/out"

# 反证：perftest 的运行全部失败 → 它那条线没有点
mkdir -p "$T/empty"
awk -F, -v OFS=, 'NR > 1 && $2 == "perftest" { $4 = "RETRY_EXC_ERR" } { print }' "$D/reps.csv" >"$T/empty/reps.csv"
if LOSSY_OUT=$T/empty tools/loss-vs-tcp/report.sh >"$T/report.out" 2>&1; then
    python3 tests/loss-vs-tcp/svg-check.py --svg "$T/empty/lossy.svg" --series ours --series perftest --series iperf3 \
        --points 1 >"$T/out-empty" 2>&1
    rc=$?
    if ((rc == 1)) && grep -q '^not ok series perftest \(is in the plot\|has 0 points\)' "$T/out-empty" \
        && ! grep -q '^not ok series \(ours\|iperf3\)' "$T/out-empty"; then
        pass "a plot whose perftest series has no points fails the check (and only that series)"
    else
        notok "a plot whose perftest series has no points fails the check (and only that series)"
        diag_file "$T/out-empty"
    fi
else
    notok "tools/loss-vs-tcp/report.sh on the edited reps.csv" "$(tail -3 "$T/report.out")"
fi
plan "$n"  # 计划在最后（TAP 允许）：检查脚本打印几行事先不知道
