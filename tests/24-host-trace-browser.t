#!/usr/bin/env bash
# tests/24-host-trace-browser.t - 真正的浏览器打开 trace.html（TAP；不需要虚拟机，headless chromium，约 20 秒）
# 样例 write（tests/trace/fixtures，实验室里真实抓到的）渲染成页面，tests/trace/browser-check.py 让 chromium
# 运行页面自己的 JavaScript 后导出 DOM：两条泳道、每个 trace 事件一行、每个包一行且帧号一致、包所属的 WR
# 在页面上、每个步骤一节、点 QPN 高亮它再次出现的地方、点包打开详情；页面与 trace.txt 的事件数一致；
# 截图存到 logs/trace.png（检查是 1280 宽、不是空白的 PNG）。
# 英文（issue 28）：同一个样例注入 "lang":"en"（tests/trace/i18n.py），tests/trace/browser-check-en.py 做同样的检查
# （英文的泳道、按钮，DOM 里没有一个中文字），截图 logs/trace-en.png；有 tshark 时英文的故障画廊（rkey 那一种）
# 由 tests/gallery/browser-check.py 检查，截图 logs/gallery-en.png。
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
. tests/lib/tap.bash
if tools/trace/render "$F/write.server.jsonl" "$F/write.client.jsonl" --packets "$F/write.packets.jsonl" \
    --txt "$T/trace.txt" --html "$T/trace.html" 2>"$T/err"; then
    pass "render the write fixture"
else
    notok "render the write fixture" "$(cat "$T/err")"
fi
python3 tests/trace/browser-check.py --html "$T/trace.html" --trace "$F/write.server.jsonl" \
    --trace "$F/write.client.jsonl" --packets "$F/write.packets.jsonl" --txt "$T/trace.txt" \
    --png logs/trace.png >"$T/out" 2>&1
tap_lines "$T/out"

# 英文的页面
make -s build/locale/en/LC_MESSAGES/rocev2-learn-tools.mo >"$T/locale.out" 2>&1 || diag "make locale: $(head -2 "$T/locale.out")"
tests/trace/i18n.py prepare "$T/i18n" write >"$T/prepare.out" 2>&1
E=$T/i18n/en
if tools/trace/render "$E/write.server.jsonl" "$E/write.client.jsonl" --packets "$F/write.packets.jsonl" \
    --txt "$T/en.txt" --html "$T/en.html" 2>"$T/err"; then
    pass "render the write fixture with \"lang\":\"en\""
else
    notok "render the write fixture with \"lang\":\"en\"" "$(cat "$T/prepare.out" "$T/err")"
fi
python3 tests/trace/browser-check-en.py --html "$T/en.html" --trace "$E/write.server.jsonl" \
    --trace "$E/write.client.jsonl" --packets "$F/write.packets.jsonl" --txt "$T/en.txt" \
    --png logs/trace-en.png >"$T/out-en" 2>&1
tap_lines "$T/out-en"
if command -v tshark >/dev/null; then
    G=$T/i18n/gallery-en
    if tools/gallery/render --kinds "$G/kinds.txt" "$G" 2>"$T/err"; then
        pass "render the English failure gallery (the rkey kind, from the rkey fixture)"
        python3 tests/gallery/browser-check.py --html "$G/index.html" --json "$G/gallery.json" --png logs/gallery-en.png \
            >"$T/out-gallery" 2>&1
        tap_lines "$T/out-gallery"
    else
        notok "render the English failure gallery" "$(cat "$T/err")"
    fi
else
    diag "没有 tshark：英文的故障画廊不检查"
fi
plan "$n"  # 计划在最后（TAP 允许）：检查脚本打印几行事先不知道
