#!/usr/bin/env bash
# tests/19-host-layers.t - 层次（TAP，宿主机，1 秒）：src/ 的每个目录在一层上，箭头只向下
#   层的顺序只写在一个地方：docs/PROJECT.md 的“层”一节（<!-- layers --> 和 <!-- /layers --> 之间的表，第 1 层在最下面）。
#   依赖 = #include 和目标文件里真正引用的符号（nm，tests/docs/src_graph.py）：在源码里自己写一行 extern 声明绕不过去。
#   1. src/ 的每个目录和顶层文件都在表里，表里的都存在
#   2. 没有向上的箭头：一个模块只包含、只调用同一层或更低层的模块（同一层的目录之间没有环由 tests/13-host-include-graph.t 检查）
#   3. 插桩（plugins/）只由组装程序（program/）装上：别的模块不引用 plugins/ 定义的任何符号
#   4. 两个驱动程序（rdma_server.o、rdma_client.o）不引用 trace 和注入的符号（trace_*、tj_*、inject_*，以及 plugins/ 定义的）
#   需要 make 编译出的 build/obj/（make test 先 make all）。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
OBJ=${BUILD:-build}/obj
echo "1..4"
[[ -f $OBJ/rdma_common.o ]] || make -s all >/dev/null
python3 - "$OBJ" <<'PY'
import glob, os, re, subprocess, sys
sys.path.insert(0, "tests/docs")
from src_graph import module_edges, room_of

text = open("docs/PROJECT.md", encoding="utf-8").read()
block = re.search(r'<!-- layers -->(.*?)<!-- /layers -->', text, re.S)
layer = {}
for row in (block.group(1) if block else "").split("\n"):
    m = re.match(r'\|\s*(\d+)\s*\|([^|]*)\|', row)
    if m:
        for name in re.findall(r'`([^`]+)`', m.group(2)):
            layer[name.replace(".h", ".c")] = int(m.group(1))
edges, why = module_edges(sys.argv[1])
rooms = {room_of(m) for m in edges}
missing = sorted(rooms - set(layer))
extra = sorted(set(layer) - rooms)
ok = bool(layer) and not missing and not extra
print("%s 1 - every folder of src/ stands on one layer of docs/PROJECT.md (%d layers, %d folders and files)"
      % ("ok" if ok else "not ok", len(set(layer.values())), len(rooms)))
if not layer:
    print("#   docs/PROJECT.md 里没有 <!-- layers --> 表")
for r in missing:
    print("#   不在表里: " + r)
for r in extra:
    print("#   表里有、src/ 里没有: " + r)

up = []
for a, bs in sorted(edges.items()):
    for b in sorted(bs):
        la, lb = layer.get(room_of(a)), layer.get(room_of(b))
        if la is not None and lb is not None and lb > la:
            up.append("%s (层 %d) -> %s (层 %d): %s" % (a, la, b, lb, ", ".join(sorted(why[(a, b)]))))
print("%s 2 - no arrow runs up a layer (%d arrows between modules)" % ("not ok" if up else "ok", sum(len(v) for v in edges.values())))
for u in up:
    print("#   " + u)

plug = [(a, b) for a, bs in edges.items() for b in bs if room_of(b) == "plugins/" and room_of(a) not in ("plugins/", "program/")]
print("%s 3 - only program/ plugs the instrumentation in (nothing else references plugins/)" % ("not ok" if plug else "ok"))
for a, b in sorted(plug):
    print("#   %s -> %s: %s" % (a, b, ", ".join(sorted(why[(a, b)]))))

def nm(o, flag):
    out = subprocess.run(["nm", flag, o], capture_output=True, text=True).stdout
    return {l.split()[-1] for l in out.split("\n") if l.strip()}
plugin_syms = set()
for c in glob.glob("src/plugins/*.c"):
    plugin_syms |= nm(os.path.join(sys.argv[1], os.path.relpath(c, "src"))[:-2] + ".o", "--defined-only")
bad = []
for d in ("rdma_server", "rdma_client"):
    for s in sorted(nm(os.path.join(sys.argv[1], d + ".o"), "-u")):
        if s in plugin_syms or re.match(r'(trace_|tj_|inject_)', s):
            bad.append("%s.o: %s" % (d, s))
print("%s 4 - the drivers reference no trace or inject symbol" % ("not ok" if bad else "ok"))
for b in bad:
    print("#   " + b)
PY
