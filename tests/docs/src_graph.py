"""src/ 的模块图（tests/13-host-include-graph.t 和 tests/19-host-layers.t 共用）：谁 #include 谁、谁调用谁定义的名字（nm）。"""
import glob
import os
import re
import subprocess
import sys


def module_of(path):
    """src/a/b.c、src/a/b.h → a/b；src/rdma_common.c → rdma_common"""
    return os.path.relpath(path, "src").rsplit(".", 1)[0]


def room_of(mod):
    """模块所在的目录（a/），课程和驱动程序的顶层文件各算一个（rdma_common.c）"""
    return mod.split("/")[0] + "/" if "/" in mod else mod + ".c"


def module_edges(objdir):
    """返回 (edges, why)：edges[a] = {b, ...}，why[(a, b)] = {"#include", 调用的名字, ...}"""
    edges, why = {}, {}

    def add(a, b, reason):
        if a != b:
            edges.setdefault(a, set()).add(b)
            why.setdefault((a, b), set()).add(reason)

    for f in sorted(glob.glob("src/**/*.[ch]", recursive=True)):
        edges.setdefault(module_of(f), set())
        for m in re.finditer(r'^#include "([^"]+\.h)"', open(f, encoding="utf-8").read(), re.M):
            here = os.path.join(os.path.dirname(f), m.group(1))
            target = here if os.path.exists(here) else os.path.join("src", m.group(1))
            add(module_of(f), module_of(target), "#include")
    owner, undef = {}, {}
    # 只看现在的源文件编出来的目标文件（build/ 里可能还留着改名前的旧 .o）
    for c in sorted(glob.glob("src/**/*.c", recursive=True)):
        o = os.path.join(objdir, os.path.relpath(c, "src"))[:-2] + ".o"
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.split("\n"):
            p = line.split()
            if len(p) == 3 and p[1] in "TDBR":
                owner[p[2]] = module_of(c)
            elif len(p) == 2 and p[0] == "U":
                undef.setdefault(module_of(c), set()).add(p[1])
    for a, names in undef.items():
        for s in names:
            if s in owner:
                add(a, owner[s], s)
    return edges, why


def cycles(nodes, edges):
    """强连通分量里多于一个节点的（Tarjan）：每个是一个环"""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out
