#!/usr/bin/env bash
# tests/27-lossy-plot.t - make lossy 的图在真正的浏览器里（TAP；不需要虚拟机，headless chromium，约 10 秒）
# 提交的 docs/lossy/lossy.svg（make lossy 一次真实运行画的）在 chromium 里渲染：三条线（ours、perftest、iperf3）都在，
# 每条的点数和 docs/lossy/results.csv 里这个工具有相对吞吐量的行一样多、都画在坐标框里、线把点连起来
# （tests/lossy/svg-check.py）。再证明检查会失败：同一份 reps.csv 里把 perftest 的运行全标成失败，
# tools/lossy/report.sh 重新画（perftest 那条线没有点，只剩图例），检查必须报 not ok。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
D=docs/lossy
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v chromium >/dev/null && [[ ${CI:-} != true ]]; then
    echo "1..0 # SKIP chromium not installed (bash lab/setup installs it)"
    exit 0
fi
mkdir -p logs
n=0
out=()
tap_lines() {  # 检查脚本的 "ok …" / "not ok …" 行变成 TAP
    local l
    while IFS= read -r l; do
        case $l in
            "ok "*) n=$((n + 1)); out+=("ok $n - ${l#ok }") ;;
            "not ok "*) n=$((n + 1)); out+=("not ok $n - ${l#not ok }") ;;
            *) out+=("# $l") ;;
        esac
    done <"$1"
}
python3 tests/lossy/svg-check.py --svg "$D/lossy.svg" --series ours --series perftest --series iperf3 \
    --results "$D/results.csv" --png logs/lossy.png >"$T/out" 2>&1
tap_lines "$T/out"

# 反证：perftest 的运行全部失败 → 它那条线没有点
mkdir -p "$T/empty"
awk -F, -v OFS=, 'NR > 1 && $2 == "perftest" { $4 = "RETRY_EXC_ERR" } { print }' "$D/reps.csv" >"$T/empty/reps.csv"
n=$((n + 1))
if LOSSY_OUT=$T/empty tools/lossy/report.sh >"$T/report.out" 2>&1; then
    python3 tests/lossy/svg-check.py --svg "$T/empty/lossy.svg" --series ours --series perftest --series iperf3 \
        --points 1 >"$T/out-empty" 2>&1
    rc=$?
    if ((rc == 1)) && grep -q '^not ok series perftest \(is in the plot\|has 0 points\)' "$T/out-empty" \
        && ! grep -q '^not ok series \(ours\|iperf3\)' "$T/out-empty"; then
        out+=("ok $n - a plot whose perftest series has no points fails the check (and only that series)")
    else
        out+=("not ok $n - a plot whose perftest series has no points fails the check (and only that series)")
        while IFS= read -r l; do out+=("# $l"); done <"$T/out-empty"
    fi
else
    out+=("not ok $n - tools/lossy/report.sh on the edited reps.csv" "# $(tail -3 "$T/report.out")")
fi
echo "1..$n"
printf '%s\n' "${out[@]}"
