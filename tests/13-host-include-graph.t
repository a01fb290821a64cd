#!/usr/bin/env bash
# tests/13-host-include-graph.t - src/ 的依赖没有环（TAP，宿主机，1 秒）
#   模块 = 一个源文件去掉 .c/.h（x.c 和 x.h 是同一个模块）。A 依赖 B：A 的 .c 或 .h #include B 的头文件，
#   或者 A 的目标文件调用（nm 的 U）一个 B 的目标文件定义的名字。
#   1. 模块之间没有环（哪怕在同一个目录里：两个文件互相调用就是一个该拆开或合并的环）
#   2. 目录之间没有环（目录 = src/ 的一个子目录；课程的 rdma_common.c/.h、两个驱动程序各算一个）：
#      没有环，目录就能排成一层一层，每个箭头都向下（层的顺序和检查在 tests/19-host-layers.t）
#   需要 make 编译出的 build/obj/（make test 先 make all）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OBJ=${BUILD:-build}/obj
[[ -n ${LIST_FILES:-} ]] || echo "1..2"   # LIST_FILES=1：只列出读了哪些文件（tests/18-host-layout.t）
if [[ -z ${LIST_FILES:-} ]]; then [[ -f $OBJ/rdma_common.o ]] || make -s all >/dev/null; fi
python3 - "$OBJ" <<'PY'
import glob, os, re, subprocess, sys
sys.path.insert(0, "tests/docs")
from src_graph import module_edges, room_of, cycles

files = sorted(glob.glob("src/**/*.[ch]", recursive=True))
if os.environ.get("LIST_FILES"):
    print("\n".join(files))
    sys.exit(0)
edges, why = module_edges(sys.argv[1])
mods = sorted({m for e in edges for m in (e,)} | {b for bs in edges.values() for b in bs})
bad = cycles(mods, edges)
print("%s 1 - no cycle between the modules of src/ (includes and nm calls): %d modules" % ("not ok" if bad else "ok", len(mods)))
for c in bad:
    print("#   环: " + " ".join(c))
    for a in c:
        for b in sorted(edges.get(a, ())):
            if b in c:
                print("#     %s -> %s: %s" % (a, b, ", ".join(sorted(why[(a, b)]))))
rooms, rwhy = {}, {}
for a, bs in edges.items():
    for b in bs:
        ra, rb = room_of(a), room_of(b)
        if ra != rb:
            rooms.setdefault(ra, set()).add(rb)
            rwhy.setdefault((ra, rb), set()).add("%s -> %s" % (a, b))
names = sorted(set(rooms) | {b for bs in rooms.values() for b in bs})
bad = cycles(names, rooms)
print("%s 2 - no cycle between the folders of src/: %d folders and lesson files, %d arrows" % ("not ok" if bad else "ok", len(names), sum(len(v) for v in rooms.values())))
for c in bad:
    print("#   环: " + " ".join(c))
    for a in c:
        for b in sorted(rooms.get(a, ())):
            if b in c:
                print("#     %s -> %s: %s" % (a, b, "; ".join(sorted(rwhy[(a, b)]))))
PY
