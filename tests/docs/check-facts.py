#!/usr/bin/env python3
"""tests/docs/check-facts.py - 学习者页面里会跟着代码变的事实，从代码算出来对照（tests/26-host-docs.t 第 17 项）

页面 = docs/pages.txt 里的 learner 页面。每一类按行看，代码块和摘录也看（摘录由实验室的 tests/36-lab-docs.t 对照真实运行）：
  1. 常量：反引号里的常量名（`FOO_BAR`）要出现在 src/、装好的 verbs/rdma_cm 头文件（/usr/include/infiniband、rdma）、
     实验室和测试的脚本、Makefile 里，或是其中某个名字去掉前缀的简称（`LOC_ACCESS_ERR` = IBV_WC_LOC_ACCESS_ERR）；
     内核的名字（RXE_、RESPST_、COMPST_、AETH_、IB_、CONFIG_ 开头）和 EXTERNAL 里别的程序的环境变量不算。
     （“`CQ_SIZE` 256”这种不存在的常量就在这里被抓到）
  2. HELLO 的大小：“N 个 QP 的连接信息（…）有 M 字节”/“HELLO … N QPs … M bytes”里 M = WIRE_HEADER_LEN + N × WIRE_QP_LEN；
     “H 字节头 + … × Q 字节”里 H、Q 就是这两个常量（src/control/wire.h）。
  3. CQ 的容量：“N 项的 CQ”里 N 是默认的容量；“默认 Q × (D + D) = C 项”里 Q = DEFAULT_NUM_QP、D = NORMAL_QUEUE_DEPTH、C = Q × 2D（src/cli/options.h、
     options.c 的 queue_caps）；页面里任何 “a × (b + c) = d” 都要算得对。
  4. --tx-depth 的上限：“`--tx-depth` 超过 N”要 N < MAX_QUEUE_DEPTH（超不过上限的事不会发生），“`--tx-depth` 最大 N”要 N = MAX_QUEUE_DEPTH。
  5. 计数的个数：“rxe 的 N 个计数”“它的 N 个计数”里 N = src/plugins/counters.c 含义表的条数；“16 个：15 个计数和 `lifespan`”里
     15 也是它、16 = 15 + 1。
  6. 引用的程序错误：TROUBLESHOOTING.md 和 docs/OPTIONS.md（参数错误的表搬到了那里）表头第一列是“错误信息”的表里，第一列每段反引号里的中文错误都能由程序印出：
     po/en.po 的某个 msgid（或 src/ 里 snprintf(err, errlen, "…") 这样不翻译的格式，它的 %s 可以是另一个 msgid）
     和引用对得上——引用里的 … 可以代替任何一段，msgid 的 %s/%d 可以是 … 或一段不含空白的文字；只比到 msgid 的第一个换行。
  7. 练习的步骤号：每个练习的函数做出来的东西，在真实运行的记录（tests/trace/fixtures/*.jsonl，实验室里的 rxe 录的）里出现在
     第几步（EXERCISE_EVENTS：函数 → 它做出来的事件），就是 docs/EXERCISES.md、docs/EXERCISES.en.md 的表、exercises/start/NN-*.c
     开头的“步骤N/step N”和 exercises/check/exercise.py 的 EXERCISES 里写的步骤号。
  8. 脚本和代码里“路径/README.md 的“X””“README 的“X””（= 顶层 README.md）：X 是那个文件里某个标题（或以粗体开头的段落）的一部分。
  9. 摘录前面三行里说“`make demo DEMO_ARGS="…"`”的，就是 tests/docs/update-excerpts.sh 录这段摘录时给那一端的参数（pair 的配方）。
用法: check-facts.py（从仓库根目录运行）；退出码 0 = 都对，1 = 有不对的（逐条打印 文件:行号: 原因）。
"""
import glob
import json
import os
import re
import sys
from functools import lru_cache

BAD = []


def bad(where, why):
    BAD.append(f"{where}: {why}")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def learner_pages():
    pages = []
    for line in read("docs/pages.txt").splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 2 and parts[0] == "learner":
            pages.append(parts[1])
    return pages


def define(name, path):
    m = re.search(rf"#define\s+{name}\s+\(?(\d+)", read(path))
    if not m:
        sys.exit(f"{path} 里找不到 #define {name}")
    return int(m.group(1))


def lines_of(pages):
    for p in pages:
        for no, line in enumerate(read(p).splitlines(), 1):
            yield f"{p}:{no}", line


# ---------- 1. 常量 ----------
KERNEL_PREFIX = re.compile(r"^(RXE_|RESPST_|COMPST_|AETH_|IB_|CONFIG_)")
EXTERNAL = {"LD_PRELOAD", "GRUB_CMDLINE_LINUX", "APT_CONFIG"}


def check_constants(lines):
    corpus = []
    for f in glob.glob("src/**/*.[ch]", recursive=True) + glob.glob("/usr/include/infiniband/*.h") + \
            glob.glob("/usr/include/rdma/*.h") + glob.glob("lab/*") + glob.glob("tests/**/*.sh", recursive=True) + \
            glob.glob("tests/**/*.bats", recursive=True) + glob.glob("tools/**/*", recursive=True) + ["Makefile"]:
        if os.path.isfile(f):
            corpus.append(read(f))
    corpus = "\n".join(corpus)
    known = set()
    for name in re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b", corpus):
        parts = name.split("_")   # IBV_WC_LOC_ACCESS_ERR 也让简称 LOC_ACCESS_ERR、WC_LOC_ACCESS_ERR 算数
        known |= {"_".join(parts[i:]) for i in range(len(parts) - 1)}
    n = 0
    for where, line in lines:
        for name in re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])`", line):
            n += 1
            if name not in known and not KERNEL_PREFIX.match(name) and name not in EXTERNAL:
                bad(where, f"常量 `{name}` 在 src/、verbs/rdma_cm 的头文件和实验室的脚本里都没有（也不是哪个常量的简称）")
    return n


# ---------- 2. HELLO ----------
def check_hello(lines):
    hdr = define("WIRE_HEADER_LEN", "src/control/wire.h")
    per = define("WIRE_QP_LEN", "src/control/wire.h")
    n = 0
    for where, line in lines:
        for m in re.finditer(r"(\d+) 个 ?QP 的连接信息[^，。；]*?有 (\d+) 字节|HELLO[^.;]*? (\d+) QPs?[^.;]*? (\d+) bytes", line):
            qps, size = (int(m.group(1)), int(m.group(2))) if m.group(1) else (int(m.group(3)), int(m.group(4)))
            n += 1
            if size != hdr + qps * per:
                bad(where, f"{qps} 个 QP 的 HELLO 是 {hdr} + {qps} × {per} = {hdr + qps * per} 字节，不是 {size}")
        for m in re.finditer(r"(\d+) ?字节(?:的)?头 ?\+ ?(?:num_qp|\d+) ?× ?(\d+) ?字节", line):
            n += 1
            if (int(m.group(1)), int(m.group(2))) != (hdr, per):
                bad(where, f"HELLO 是 {hdr} 字节头 + 每个 QP {per} 字节（src/control/wire.h），不是 {m.group(0)}")
    return n


# ---------- 3. CQ ----------
def check_cq(lines):
    qp = define("DEFAULT_NUM_QP", "src/cli/options.h")
    depth = define("NORMAL_QUEUE_DEPTH", "src/cli/options.h")
    if "q->cqe = (uint32_t)o->num_qp * (q->send_wr + q->recv_wr);" not in read("src/cli/options.c"):
        sys.exit("src/cli/options.c 的 queue_caps 不再是 num_qp × (send_wr + recv_wr)：更新第 3 类")
    n = 0
    for where, line in lines:
        for m in re.finditer(r"(\d+) ?× ?\((?:发送 )?(\d+) ?\+ ?(?:接收 )?(\d+)\) ?= ?(\d+)", line):
            a, b, c, d = map(int, m.groups())
            n += 1
            if a * (b + c) != d:
                bad(where, f"{a} × ({b} + {c}) = {a * (b + c)}，不是 {d}")
        for m in re.finditer(r"(\d+) ?项的 ?CQ", line):
            n += 1
            if int(m.group(1)) != qp * 2 * depth:
                bad(where, f"CQ 的容量随 -q 和队列深度变（QP 数 × (发送深度 + 接收深度)），默认 {qp} × ({depth} + {depth}) = "
                           f"{qp * 2 * depth} 项，不是固定的 {m.group(1)} 项")
        for m in re.finditer(r"默认 ?(\d+) ?× ?\((\d+) ?\+ ?(\d+)\) ?= ?(\d+) ?项", line):
            a, b, c, d = map(int, m.groups())
            if (a, b, c, d) != (qp, depth, depth, qp * 2 * depth):
                bad(where, f"默认的 CQ 是 DEFAULT_NUM_QP × (NORMAL_QUEUE_DEPTH + NORMAL_QUEUE_DEPTH) = "
                           f"{qp} × ({depth} + {depth}) = {qp * 2 * depth} 项，不是 {m.group(0)}")
    return n


# ---------- 4. --tx-depth ----------
def check_tx_depth(lines):
    cap = define("MAX_QUEUE_DEPTH", "src/cli/options.h")
    n = 0
    for where, line in lines:
        for m in re.finditer(r"`--tx-depth` ?(超过|最大) ?(\d+)", line):
            n += 1
            v = int(m.group(2))
            if m.group(1) == "超过" and v >= cap:
                bad(where, f"`--tx-depth` 最大 {cap}（MAX_QUEUE_DEPTH），超不过 {v}")
            if m.group(1) == "最大" and v != cap:
                bad(where, f"`--tx-depth` 最大 {cap}（MAX_QUEUE_DEPTH），不是 {v}")
    return n


# ---------- 5. 计数 ----------
def check_counters(lines):
    src = read("src/plugins/counters.c")
    table = src[src.index("ctr_infos[] = {"):]
    table = table[:table.index("};")]
    count = len(re.findall(r'\{ "[a-z_]+",', table))
    n = 0
    for where, line in lines:
        for m in re.finditer(r"(?:rxe|它) ?的 ?(\d+) ?个计数", line):
            n += 1
            if int(m.group(1)) != count:
                bad(where, f"rxe 的计数是 {count} 个（src/plugins/counters.c 的含义表），不是 {m.group(1)}")
        for m in re.finditer(r"(\d+) ?个：(\d+) ?个计数和 `lifespan`", line):
            n += 1
            if (int(m.group(1)), int(m.group(2))) != (count + 1, count):
                bad(where, f"hw_counters 目录里是 {count} 个计数 + lifespan = {count + 1} 个名字，不是 {m.group(0)}")
    return n


# ---------- 6. 引用的程序错误 ----------
def po_msgids(path):
    ids, cur, key = [], None, None
    for line in read(path).splitlines() + [""]:
        m = re.match(r'^(msgid|msgstr|msgid_plural) "(.*)"$', line)
        if m:
            key = m.group(1)
            if key == "msgid":
                cur = m.group(2)
        elif line.startswith('"') and key == "msgid":
            cur += line[1:-1]
        else:
            if cur:
                ids.append(cur.replace('\\"', '"').replace("\\\\", "\\"))
            cur, key = None, None
    return ids


CONV = re.compile(r"%[-0-9.*]*(?:l|ll|z|h)?[sduxXcfg]")
ELL = object()
CNV = object()


def fmt_tokens(fmt):
    fmt = re.split(r"\\n|\\037|\n|\x1f", fmt)[0]
    out, pos = [], 0
    for m in CONV.finditer(fmt):
        out += list(fmt[pos:m.start()]) + [CNV]
        pos = m.end()
    return tuple(out + list(fmt[pos:].replace("%%", "%")))


def quote_tokens(q):
    return tuple(ELL if ch == "…" else ch for ch in q)


def may_start(f, q):
    """f 能不能是以 q 开头的那句话：开头的字面文字对得上（遇到 %s 或 … 就不再比）"""
    for a, b in zip(f, q):
        if a is CNV or b is ELL:
            return True
        if a != b:
            return False
    return True


def glob_match(f, q, inner=()):
    """f（msgid 的记号）和 q（引用的记号）能不能是同一句话。inner 非空时 f 的 %s 也可以是 inner 里的某一句（整句）"""
    @lru_cache(maxsize=None)
    def m(i, j):
        if i == len(f) and j == len(q):
            return True
        if j < len(q) and q[j] is ELL:
            if m(i, j + 1) or (i < len(f) and m(i + 1, j)):
                return True
        if i < len(f) and f[i] is CNV:
            if m(i + 1, j):
                return True
            if j < len(q) and q[j] is not ELL and not q[j].isspace() and m(i, j + 1):
                return True
            if inner:
                subs = [g for g in inner if may_start(g, q[j:])]
                for k in range(j + 1, len(q) + 1):
                    if any(glob_match(g, q[j:k]) for g in subs) and m(i + 1, k):
                        return True
        if i < len(f) and j < len(q) and f[i] is not CNV and q[j] is not ELL and f[i] == q[j]:
            return m(i + 1, j + 1)
        return False
    return m(0, 0)


def check_quotes():
    ids = [fmt_tokens(x) for x in po_msgids("po/en.po")]
    plain = set()
    for f in glob.glob("src/**/*.c", recursive=True):
        plain |= set(re.findall(r'(?:snprintf|set_err)\(err, errlen, "([^"]*)"', read(f)))
    plain = [fmt_tokens(x) for x in plain]
    n = 0
    table = False
    for doc, no, line in ((d, no, l) for d in ("TROUBLESHOOTING.md", "docs/OPTIONS.md")
                          for no, l in enumerate(read(d).splitlines(), 1)):
        if re.match(r"^\| *错误信息 *\|", line):
            table = True
            continue
        if not line.startswith("|"):
            table = False
            continue
        if not table or re.match(r"^\|[-| ]+\|$", line):
            continue
        first = line.split("|")[1]
        for q in re.findall(r"`([^`]+)`", first):
            if not re.search(r"[\u4e00-\u9fff]", q):
                continue
            n += 1
            qt = quote_tokens(q)
            if any(glob_match(f, qt) for f in ids if may_start(f, qt)):
                continue
            if any(glob_match(f, qt, tuple(ids)) for f in plain):
                continue
            bad(f"{doc}:{no}", f"程序印不出这一句（po/en.po 里没有对得上的 msgid）: `{q}`")
    return n


# ---------- 7. 练习的步骤号 ----------
# 练习的函数 → 它做出来的东西在 trace 里是哪个事件（第一次出现的那一步）：(fixture, 事件种类, 字段, 值)
EXERCISE_EVENTS = {
    "qp_init_attr_for": ("send.server", "verbs", "call", "ibv_create_qp"),
    "init_attr_for": ("send.server", "qp_state", "state", "INIT"),
    "rtr_attr_for": ("send.server", "qp_state", "state", "RTR"),
    "rts_attr_for": ("send.server", "qp_state", "state", "RTS"),
    "recv_wr_for": ("send.server", "post_recv", None, None),
    "send_wr_for": ("send.client", "post_send", None, None),
    "rdma_wr_for": ("write.client", "post_send", None, None),
    "atomic_wr_for": ("fetch_add.client", "post_send", None, None),
    "wc_verdict_for": ("send.server", "wc", None, None),
    "mr_access_for": ("send.server", "verbs", "call", "ibv_reg_mr"),
    "gid_index_for": ("send.server", "verbs", "call", "ibv_query_gid_table"),
    "teardown_order_for": ("send.server", "verbs", "call", "ibv_destroy_qp"),
}


def step_of(fixture, ev, field, value):
    step = None
    for line in read(f"tests/trace/fixtures/{fixture}.jsonl").splitlines():
        e = json.loads(line)
        if e.get("ev") == "step":
            step = e["n"]
        elif e.get("ev") == ev and (field is None or e.get(field) == value):
            return step
    sys.exit(f"tests/trace/fixtures/{fixture}.jsonl 里没有 {ev} {field}={value}")


def check_steps():
    src = read("exercises/check/exercise.py")
    table = {}
    for m in re.finditer(r'\((\d+), "(\d+)", "(\d\d-[a-z-]+\.c)", "([a-z_]+)"', src):
        table[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
    if len(table) < 12:
        sys.exit(f"exercises/check/exercise.py 的 EXERCISES 只读出 {len(table)} 个练习")
    n = 0
    for num, (step_py, fname, func) in sorted(table.items()):
        if func not in EXERCISE_EVENTS:
            bad("exercises/check/exercise.py", f"练习 {num} 的函数 {func} 不在 check-facts.py 的 EXERCISE_EVENTS 里")
            continue
        want = str(step_of(*EXERCISE_EVENTS[func]))
        n += 1
        if step_py != want:
            bad("exercises/check/exercise.py", f"练习 {num}（{func}）写的是步骤{step_py}，真实运行里它做出来的东西在步骤{want}")
        for doc in ("docs/EXERCISES.md", "docs/EXERCISES.en.md"):
            for no, line in enumerate(read(doc).splitlines(), 1):
                m = re.match(rf"^\| {num} \| (\d+) \|.*`{func}`", line)
                if m and m.group(1) != want:
                    bad(f"{doc}:{no}", f"练习 {num}（{func}）写的是步骤{m.group(1)}，真实运行里是步骤{want}")
        head = "\n".join(read(f"exercises/start/{fname}").splitlines()[:4])
        for got in re.findall(r"（步骤(\d+)）|\(step (\d+)\)", head):
            got = got[0] or got[1]
            if got != want:
                bad(f"exercises/start/{fname}", f"开头写的是步骤{got}，真实运行里是步骤{want}")
    return n


# ---------- 8. README 的某一节 ----------
def check_readme_refs():
    def sections(path):
        """标题和以粗体开头的段落（“**延迟差在哪里（…）。**”）"""
        text = read(path)
        return re.findall(r"^#+ (.*)$", text, re.M) + re.findall(r"^\*\*([^*]+)\*\*", text, re.M)
    files = [f for f in glob.glob("lab/*") + glob.glob("scripts/*") + glob.glob("tools/**/*", recursive=True) +
             glob.glob("src/**/*.[ch]", recursive=True) + ["Makefile", "diagnose.sh", "show_gids.sh"] if os.path.isfile(f)]
    n = 0
    for f in files:
        for no, line in enumerate(read(f).splitlines(), 1):
            for m in re.finditer(r"((?:[\w.-]+/)*README(?:\.md)?)[^“”。\n]{0,10}的“([^”]+)”", line):
                n += 1
                doc = m.group(1) if m.group(1).endswith(".md") else m.group(1) + ".md"
                if not os.path.isfile(doc):
                    bad(f"{f}:{no}", f"没有 {doc}（“{m.group(0)}”）")
                elif not any(m.group(2) in h for h in sections(doc)):
                    bad(f"{f}:{no}", f"{doc} 里没有叫“{m.group(2)}”的一节（标题或粗体开头的段落）")
    return n


# ---------- 9. 摘录前面说的命令 ----------
def check_excerpt_commands(pages):
    recipes = read("tests/docs/update-excerpts.sh")
    pairs = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(r'^\s*pair ([\w.-]+) "([^"]*)" "([^"]*)"', recipes, re.M)}
    n = 0
    for p in pages:
        lines = read(p).splitlines()
        for no, line in enumerate(lines, 1):
            m = re.match(r"^<!-- excerpt: ([A-Za-z0-9_.-]+) -->$", line)
            if not m:
                continue
            said = re.findall(r'`make (?:demo|trace) DEMO_ARGS="([^"]*)"`', " ".join(lines[max(0, no - 4):no - 1]))
            cut = re.search(rf"^cut_{re.escape(m.group(1))}\(\) {{ \w+ ([\w.-]+)\.(server|client)\.log", recipes, re.M)
            if not said or not cut or cut.group(1) not in pairs:
                continue
            n += 1
            ran = pairs[cut.group(1)][0 if cut.group(2) == "server" else 1]
            if sorted(said[-1].split()) != sorted(ran.split()):
                bad(f"{p}:{no}", f"正文说摘录 {m.group(1)} 来自 DEMO_ARGS=\"{said[-1]}\"，它是用 \"{ran}\" 录的"
                                 f"（tests/docs/update-excerpts.sh 的 pair {cut.group(1)}）")
    return n


def main():
    pages = learner_pages()
    lines = list(lines_of(pages))
    counts = {
        "constants": check_constants(lines), "hello": check_hello(lines), "cq": check_cq(lines),
        "tx-depth": check_tx_depth(lines), "counters": check_counters(lines), "quotes": check_quotes(),
        "exercise steps": check_steps(), "readme refs": check_readme_refs(),
        "excerpt commands": check_excerpt_commands(pages),
    }
    for b in BAD:
        print(b)
    print(f"# {sum(counts.values())} 处事实: " + "，".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if BAD or not all(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
