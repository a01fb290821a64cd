#!/usr/bin/env bash
# tests/13-include-graph.t - src/ 的模块之间没有环（TAP，宿主机，不到 1 秒）
# 模块 = 文件名去掉 .c/.h；X.c 或 X.h 里 #include "Y.h" 就是一条边 X → Y。有环的一组模块互相依赖，
# 读代码的人找不到起点（issue 24）。KNOWN 里是还没拆开的环，写明原因；多出任何别的环，或 KNOWN 的环已经拆开了
# （那就把它从 KNOWN 删掉），测试都失败。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
# 没有已知的环了（path ⇄ rdma_common 在选择规则搬进 selection.c 后拆开）；新的环都算失败
KNOWN=""
[[ -n ${LIST_FILES:-} ]] || echo "1..1"   # LIST_FILES=1：只列出读了哪些文件（tests/18-layout.t）
out=$(python3 - "$KNOWN" <<'PY'
import glob, os, re, sys
edges = {}
files = sorted(glob.glob("src/**/*.[ch]", recursive=True))
if os.environ.get("LIST_FILES"):
    print("\n".join(files))
    sys.exit(0)
def node(path):   # src/control/wire.h → control/wire
    return os.path.relpath(path, "src").rsplit(".", 1)[0]
for f in files:
    a = node(f)
    for m in re.finditer(r'^#include "([^"]+)\.h"', open(f, encoding="utf-8").read(), re.M):
        # 先找同一目录（C 的规则），再找 src/（-Isrc）
        here = os.path.join(os.path.dirname(f), m.group(1) + ".h")
        b = node(here) if os.path.exists(here) else m.group(1)
        if b != a:
            edges.setdefault(a, set()).add(b)
index, low, stack, on, sccs = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in sorted(edges.get(v, ())):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(" ".join(sorted(comp)))
for v in sorted(edges):
    if v not in index:
        visit(v)
known = set(k for k in sys.argv[1].split(",") if k)
bad = 0
for c in sccs:
    if c not in known:
        print("环: " + c + "（" + "; ".join(a + " → " + b for a in c.split() for b in sorted(edges.get(a, ())) if b in c.split()) + "）")
        bad = 1
for k in known - set(sccs):
    print("KNOWN 里的环已经不在了，从 KNOWN 删掉: " + k)
    bad = 1
print("模块 %d 个，环 %d 个（允许 %d 个）" % (len(set(edges) | {b for s in edges.values() for b in s}), len(sccs), len(known)))
sys.exit(bad)
PY
)
rc=$?
[[ -n ${LIST_FILES:-} ]] && { printf '%s\n' "$out"; exit 0; }
if ((rc == 0)); then echo "ok 1 - no include cycle between src/ modules${KNOWN:+ except the known one ($KNOWN)}"; else echo "not ok 1 - include cycles between src/ modules"; fi
printf '%s\n' "$out" | sed 's/^/# /'
exit 0
