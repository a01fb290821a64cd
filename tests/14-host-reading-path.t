#!/usr/bin/env bash
# tests/14-host-reading-path.t - 代码读起来像课程：从 main 到数据面的 verbs 调用、到把 HELLO 写进 TCP 连接的函数不超过 5 层（TAP，宿主机，不到 1 秒）
# 调用图从 src/*.c 的文本读出（函数定义 = 行首的名字加括号、下一行是 "{"；调用 = 函数体里的 "名字("；
# 同一文件里的 static 函数优先）。函数体里提到一张函数表（如 op_rounds.c 的 op_rounds）算作调用表里的每个函数；
# 经操作表的成员调用（c->ops->exchange_hello(...)）算作调用每张 struct 表里填在这个成员上的函数（.exchange_hello = tcp_exchange_hello），
# 所以经函数表或函数指针的一次调用算一层（issue 24）；同样，作为参数传给 X 的函数（data_plane(conn, send_round)）
# 算作 X 调用它。帧数把 main 算作第 1 层，调用 verbs 的函数是最后一层。
# 上限是 5（issue 46）：交换连接信息经控制平面的接口（ctrl_exchange_hello → TCP 实现的 tcp_exchange_hello）多了一层；
# 到 send() 本身是 6 层（tcp_exchange_hello → tcp_write_full → send），打印出来。
# 每条路径打印出来（函数和文件），docs/FLOW.md 的阅读路径就是它。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
MAX=5
[[ -n ${LIST_FILES:-} ]] || echo "1..6"   # LIST_FILES=1：只列出读了哪些文件（tests/18-host-layout.t）
python3 - "$MAX" <<'PY'
import glob, os, re, sys
from collections import deque

MAX = int(sys.argv[1])
defs = {}       # (file, name) -> body
static = set()  # (file, name)
tables = {}     # (file, table name) -> [function names]
members = {}    # 操作表的成员名 -> [(file, function name)]：struct 表里的 .member = function
files = sorted(glob.glob("src/**/*.c", recursive=True))
if os.environ.get("LIST_FILES"):
    print("\n".join(files))
    sys.exit(0)
for f in files:
    text = open(f, encoding="utf-8").read()
    base = os.path.basename(f)
    # 注释和字符串里的“名字(”不算调用
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    for m in re.finditer(r'^((?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b)(\w+)\(([^;{]*?)\)\n\{\n(.*?)\n\}\n', text, re.M | re.S):
        defs[(base, m.group(2))] = m.group(4)
        if m.group(1).lstrip().startswith("static"):
            static.add((base, m.group(2)))
    for m in re.finditer(r'^(?:static\s+)?(?:const\s+)?\w+\s+(\w+)(?:\[[^\]]*\])+\s*=\s*\{(.*?)\n\};', text, re.M | re.S):
        tables[(base, m.group(1))] = re.findall(r'\b([a-z_]\w*)\b', m.group(2))
    for m in re.finditer(r'^(?:static\s+)?(?:const\s+)?struct\s+\w+\s+\w+\s*=\s*\{(.*?)\n\};', text, re.M | re.S):
        for member, fn in re.findall(r'\.(\w+)\s*=\s*([a-z_]\w*)\b', m.group(1)):
            members.setdefault(member, []).append((base, fn))

names = {}
for (f, n) in defs:
    names.setdefault(n, []).append(f)

def resolve(f, n):
    if (f, n) in defs:
        return (f, n)
    outside = [g for g in names.get(n, []) if (g, n) not in static]
    return (outside[0], n) if outside else None

def args_of(body, start):
    # 从 "(" 之后起到配对的 ")" 为止的实参文字
    depth, k = 1, start
    while k < len(body) and depth:
        depth += {"(": 1, ")": -1}.get(body[k], 0)
        k += 1
    return body[start:k - 1]

edges = {}
passed = []   # (调用者所在的文件, 被调用的名字, 作为实参传过去的函数名)
for (f, n), body in defs.items():
    out = set()
    for m in re.finditer(r'\b([A-Za-z_]\w*)\s*\(', body):
        t = resolve(f, m.group(1))
        if t and t != (f, n):
            out.add(t)
        for a in re.findall(r'\b([A-Za-z_]\w*)\b(?!\s*\()', args_of(body, m.end())):
            if a in names and t:
                passed.append((t, resolve(f, a)))
    for m in re.finditer(r'->\s*(\w+)\s*\(', body):
        for tf, c in members.get(m.group(1), ()):
            t = resolve(tf, c)
            if t:
                out.add(t)
    for (tf, tn), fns in tables.items():
        if tf == f and re.search(r'\b' + tn + r'\b', body):
            for c in fns:
                t = resolve(f, c)
                if t:
                    out.add(t)
    edges[(f, n)] = out
for t, a in passed:
    if a and a != t:
        edges.setdefault(t, set()).add(a)

def path(src, dst):
    prev, q = {src: None}, deque([src])
    while q:
        v = q.popleft()
        if v == dst:
            p = []
            while v:
                p.append(v)
                v = prev[v]
            return p[::-1]
        for w in sorted(edges.get(v, ())):
            if w not in prev:
                prev[w] = v
                q.append(w)
    return None

def via(main, mid, dst):
    a, b = path(main, mid), path(mid, dst)
    return a + b[1:] if a and b else None

def show(p):
    return " → ".join("%s (%s)" % (n, f) for f, n in p)

def calls(fn, verb):
    return fn in defs and re.search(r'\b' + verb + r'\(', defs[fn]) is not None

checks = [
    ("client TCP SEND: main → the function that calls the data ibv_post_send",
     ("rdma_client.c", "main"), ("rdma_client.c", "send_round"), ("rdma_common.c", "post_send"), "ibv_post_send"),
    ("client TCP SEND: main → the function that calls ibv_poll_cq",
     ("rdma_client.c", "main"), ("rdma_client.c", "send_round"), ("rdma_common.c", "poll_completions"), "ibv_poll_cq"),
    ("server TCP SEND: main → the function that calls the data ibv_post_send",
     ("rdma_server.c", "main"), ("rdma_server.c", "send_round"), ("rdma_common.c", "post_send"), "ibv_post_send"),
    ("server TCP SEND: main → the function that calls ibv_post_recv",
     ("rdma_server.c", "main"), ("rdma_server.c", "send_round"), ("rdma_common.c", "post_receive"), "ibv_post_recv"),
    ("client TCP: main → the TCP implementation's exchange of connection information, which writes the HELLO (tcp_write_full → send)",
     ("rdma_client.c", "main"), ("rdma_client.c", "tcp_steps"), ("ctrl_tcp.c", "tcp_exchange_hello"), "tcp_write_full"),
    ("client --cm SEND: main → the function that calls the data ibv_post_send (CM setup first, then the same data plane)",
     ("rdma_client.c", "main"), ("rdma_client.c", "send_round"), ("rdma_common.c", "post_send"), "ibv_post_send"),
]
for k, (what, main, mid, dst, verb) in enumerate(checks, 1):
    p = via(main, mid, dst)
    extra = ""
    if "--cm" in what:
        # --cm：main 先调用 cm_steps（CM 建连，connect/），再调用和 TCP 模式同一个 data_plane
        m, cm, dp = main, resolve("rdma_client.c", "cm_steps"), resolve("rdma_client.c", "data_plane")
        if cm not in edges.get(m, ()) or dp not in edges.get(m, ()):
            p = None
        extra = "; CM setup: " + show([m, cm]) + " → " + ", ".join(sorted(n for f, n in edges.get(cm, ())))
    ok = p is not None and calls(dst, verb) and len(p) <= MAX
    print("%s %d - %s: %d frames (max %d)" % ("ok" if ok else "not ok", k, what, len(p) if p else -1, MAX))
    if verb == "tcp_write_full" and calls(("tcp_socket.c", verb), "send"):
        extra = " → send"
    print("#   " + (show(p) + " → " + verb if p else "no path found") + extra)
    if not calls(dst, verb):
        print("#   %s does not call %s" % (dst[1], verb))
PY
