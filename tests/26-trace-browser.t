#!/usr/bin/env bash
# tests/26-trace-browser.t - 真正的浏览器打开 trace.html（TAP；不需要虚拟机，headless chromium，约 20 秒）
# 样例 write（tests/trace/fixtures，实验室里真实抓到的）渲染成页面，tests/trace/browser-check.py 让 chromium
# 运行页面自己的 JavaScript 后导出 DOM：两条泳道、每个 trace 事件一行、每个包一行且帧号一致、包所属的 WR
# 在页面上、每个步骤一节、点 QPN 高亮它再次出现的地方、点包打开详情；页面与 trace.txt 的事件数一致；
# 截图存到 logs/trace.png（检查是 1280 宽、不是空白的 PNG）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
F=tests/trace/fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if ! command -v chromium >/dev/null && [[ ${CI:-} != true ]]; then
    echo "1..0 # SKIP chromium not installed (bash lab/setup installs it)"
    exit 0
fi
mkdir -p logs
n=0
out=()
if tools/trace/render "$F/write.server.jsonl" "$F/write.client.jsonl" --packets "$F/write.packets.jsonl" \
    --txt "$T/trace.txt" --html "$T/trace.html" 2>"$T/err"; then
    n=1; out+=("ok 1 - render the write fixture")
else
    n=1; out+=("not ok 1 - render the write fixture" "# $(cat "$T/err")")
fi
python3 tests/trace/browser-check.py --html "$T/trace.html" --trace "$F/write.server.jsonl" \
    --trace "$F/write.client.jsonl" --packets "$F/write.packets.jsonl" --txt "$T/trace.txt" \
    --png logs/trace.png >"$T/out" 2>&1
while IFS= read -r l; do
    n=$((n + 1))
    case $l in
        "ok "*) out+=("ok $n - ${l#ok }") ;;
        "not ok "*) out+=("not ok $n - ${l#not ok }") ;;
        *) n=$((n - 1)); out+=("# $l") ;;
    esac
done <"$T/out"
echo "1..$n"
printf '%s\n' "${out[@]}"
