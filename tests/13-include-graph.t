#!/usr/bin/env bash
# tests/13-include-graph.t - src/ 的依赖没有环（TAP，宿主机，1 秒）
#   读代码的人要有个起点（issue 24）：先读 rdma_common.h（结构体），再读 rdma_common.c（步骤），细节在下面几层。
#   1. 头文件之间（#include "X.h"）没有环。一个 .c 可以包含下层的头文件，下层的头文件也可以包含 rdma_common.h（要它的结构体）：
#      那不是环——rdma_common.c 调用 verbs/datapath.c 的函数，datapath.c 只用 rdma_common.h 里的结构体，不调用 rdma_common.c
#   2. 目标文件之间（谁调用谁定义的函数，nm）没有跨目录的环：同一个目录里拆开的几个文件（比如 bench.c 和 bench_report.c）
#      可以互相调用，打印出来；不同目录之间有环就失败（那是两层互相依赖）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OBJ=${BUILD:-build}/obj
[[ -n ${LIST_FILES:-} ]] || echo "1..2"   # LIST_FILES=1：只列出读了哪些文件（tests/18-layout.t）
out=$(python3 - <<'PY'
import glob, os, re, sys
files = sorted(glob.glob("src/**/*.[ch]", recursive=True))
if os.environ.get("LIST_FILES"):
    print("\n".join(files))
    sys.exit(0)
edges = {}
for f in files:
    if not f.endswith(".h"):
        continue
    for m in re.finditer(r'^#include "([^"]+\.h)"', open(f, encoding="utf-8").read(), re.M):
        here = os.path.join(os.path.dirname(f), m.group(1))
        b = here if os.path.exists(here) else os.path.join("src", m.group(1))
        if b != f:
            edges.setdefault(f, set()).add(b)
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
            sccs.append(sorted(comp))
for v in sorted(edges):
    if v not in index:
        visit(v)
for c in sccs:
    print("头文件的环: " + " ".join(c))
print("头文件 %d 个，环 %d 个" % (len([f for f in files if f.endswith(".h")]), len(sccs)))
sys.exit(1 if sccs else 0)
PY
)
rc=$?
if [[ -n ${LIST_FILES:-} ]]; then printf '%s\n' "$out"; exit 0; fi
if ((rc == 0)); then echo "ok 1 - no include cycle between the headers of src/"; else echo "not ok 1 - include cycles between headers"; fi
printf '%s\n' "$out" | sed 's/^/# /'

[[ -f $OBJ/rdma_common.o ]] || make -s all >/dev/null
out=$(python3 - "$OBJ" <<'PY'
import glob, os, subprocess, sys
root = sys.argv[1]
# 只看现在的源文件编出来的目标文件（build/ 里可能还留着改名前的旧 .o）
objs = sorted(os.path.join(root, os.path.relpath(c, "src"))[:-2] + ".o" for c in glob.glob("src/**/*.c", recursive=True))
defs, undefs, owner = {}, {}, {}
for o in objs:
    d, u = set(), set()
    for l in subprocess.run(["nm", o], capture_output=True, text=True).stdout.split("\n"):
        p = l.split()
        if len(p) == 3 and p[1] in "TDBR":
            d.add(p[2])
        elif len(p) == 2 and p[0] == "U":
            u.add(p[1])
    defs[o], undefs[o] = d, u
    for s in d:
        owner[s] = o
edges = {o: {owner[s] for s in undefs[o] if s in owner and owner[s] != o} for o in objs}
index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in sorted(edges[v]):
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
            sccs.append(sorted(os.path.relpath(x, root) for x in comp))
bad = 0
for v in objs:
    if v not in index:
        visit(v)
for c in sccs:
    dirs = {os.path.dirname(x) for x in c}
    cross = len(dirs) > 1
    bad |= cross
    print(("跨目录的环: " if cross else "同一目录里互相调用（允许）: ") + " ".join(c))
print("目标文件 %d 个" % len(objs))
sys.exit(bad)
PY
)
rc=$?
if ((rc == 0)); then echo "ok 2 - no call cycle between objects of different folders (nm)"; else echo "not ok 2 - call cycles between folders"; fi
printf '%s\n' "$out" | sed 's/^/# /'
exit 0
