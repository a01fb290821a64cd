#!/usr/bin/env python3
"""tests/unit/check-verdicts.py - 每一句判定都有测试断言（issue 44）

diagnose.sh 的判定行是 pass/warn/fail/skip 的调用: `fail $"nft 规则丢弃/拒绝了 UDP $ROCE_UDP_PORT"`，
打印成 "[失败] nft 规则丢弃/拒绝了 UDP 4791"（判定词是 po 里翻译前的 [通过]/[警告]/[失败]/[跳过]，
见 diagnose.sh 的 pass()/warn()/fail()/skip()）。show_gids.sh 没有这四个函数：它的判定行是以
"错误: " "警告: " "注意: " "自动选择: " "通往 $peer: " 开头的句子（标签就是判定词，写在句子里）。

对每一个判定行，把 $"…" 里的句子拆成字面段和变量段（$x、${…}、$((…))），得到它的“稳定前缀”：
句子开头最短的一段，里面至少有 MIN_CHARS（8）个非空白的字面字（句子没这么多就是整句），并且同一个脚本、
同一个判定词的别的句子都不以它开头（不唯一就再往后多取，直到唯一）。测试里的断言必须含判定词，紧跟着能匹配
这个前缀的文字（变量段匹配任意文字，例如测试里的 4791、$DEV0、rxe0）。同一位置能匹配几个句子的前缀时
（"[通过] 工具 rdma: …" 也匹配 "工具 $t: "），只算字面字最多的那个。

断言 = 测试文件里一行中被 && / || 分开的一段里的引号字面量（"…" '…' $'…'），几段字面量之间当作 glob 的 *；
这一段里有 != 、以 ! 开头（! grep、[[ ! …）或 grep -v 的算否定，不算断言；# 开头的注释行不算。
只认中文的判定词（英文的 [PASS] 等由 tests/unit/scripts-i18n.bats 整体检查）。

用法: check-verdicts.py [--list] [测试文件…]（默认 tests/unit/*.bats 和 tests/lab/scripts.bats）
  有判定行没有断言时列出它们（脚本:行号 判定词 句子）并以 1 退出；diagnose.sh 里有不是 `词 $"句子"` 样子的
  pass/warn/fail/skip 调用（认不出它打印什么）时以 2 退出；--list 列出每个判定行、它的前缀和断言它的位置。
"""
import glob
import os
import re
import sys

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DIAG_WORDS = {"pass": "[通过]", "warn": "[警告]", "fail": "[失败]", "skip": "[跳过]"}
SG_LABELS = ("错误: ", "警告: ", "注意: ", "自动选择: ", "通往 $peer: ")
MIN_CHARS = 8

# $"…"（里面的 \" 之类的转义照样跳过）
MSGID = re.compile(r'\$"(((?:[^"\\]|\\.)*))"')
# 任何一个 pass/warn/fail/skip 的调用（行首或 ; && || ( ) { } then else do 之后），用来核对上面的格式没有漏掉的
ANY_CALL = re.compile(r'(?:^|[;&|(){}]|\bthen|\belse|\bdo)\s*(pass|warn|fail|skip)(?:\s|$)(?!\s*\(\))', re.M)
DIAG_CALL = re.compile(r'(?:^|[\s;(){}|&])(pass|warn|fail|skip) \$"((?:[^"\\]|\\.)*)"')


def split_template(msg):
    """句子 → [('lit', 文字) | ('var', 原文)]"""
    parts, i, lit = [], 0, ""
    while i < len(msg):
        c = msg[i]
        if c == "\\" and i + 1 < len(msg):
            lit += msg[i + 1]
            i += 2
            continue
        if c == "$" and i + 1 < len(msg):
            j = None
            if msg.startswith("$((", i):
                depth, j = 0, i + 1
                while j < len(msg):
                    if msg[j] == "(":
                        depth += 1
                    elif msg[j] == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                j += 1
            elif msg[i + 1] == "{":
                depth, j = 0, i + 1
                while j < len(msg):
                    if msg[j] == "{":
                        depth += 1
                    elif msg[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                j += 1
            else:
                m = re.match(r"[A-Za-z_][A-Za-z0-9_]*|[0-9*@#?$!-]", msg[i + 1:])
                if m:
                    j = i + 1 + m.end()
            if j:
                if lit:
                    parts.append(("lit", lit))
                    lit = ""
                parts.append(("var", msg[i:j]))
                i = j
                continue
        lit += c
        i += 1
    if lit:
        parts.append(("lit", lit))
    return parts


def calls(path, rx):
    """整个文件里的匹配（句子可以跨行），跳过 # 注释行里的；结果 [(行号, 匹配)]"""
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        text = f.read()
    out = []
    for m in rx.finditer(text):
        at = m.start(1)
        start = text.rfind("\n", 0, at) + 1
        if text[start:at].lstrip().startswith("#"):
            continue
        out.append((text.count("\n", 0, at) + 1, m))
    return out


def verdict_sites():
    """[(脚本, 行号, 判定词, 句子, 模板)]"""
    sites = []
    for n, m in calls("diagnose.sh", DIAG_CALL):
        sites.append(("diagnose.sh", n, DIAG_WORDS[m.group(1)], m.group(2), split_template(m.group(2))))
    for n, m in calls("show_gids.sh", MSGID):
        msg = m.group(1)
        label = next((lb for lb in SG_LABELS if msg.lstrip(" ").startswith(lb)), None)
        if label is None:
            continue
        tmpl = split_template(msg.lstrip(" "))
        # 只有标签、后面全是变量的（die_usage 的 "错误: $*"）不是判定
        if not any(k == "lit" and len(t.strip()) > len(label.strip()) for k, t in tmpl):
            continue
        sites.append(("show_gids.sh", n, label.strip().rstrip(":"), msg, tmpl))
    return sites


def tokens(tmpl):
    """模板 → 逐字的记号：字面的每个字一个，变量一个 None"""
    out = []
    for kind, text in tmpl:
        if kind == "lit":
            out.extend(text)
        else:
            out.append(None)
    return out


def key_tokens(site, sites):
    """稳定前缀：模板开头最短的一段（在字面字上结束），其中至少 MIN_CHARS 个非空白的字面字（句子没这么多就是整句），
    并且同一脚本、同一判定词的别的句子都不以它开头"""
    script, _, word, _, tmpl = site
    toks = tokens(tmpl)
    others = [tokens(s[4]) for s in sites if s is not site and s[0] == script and s[2] == word]
    need = min(MIN_CHARS, sum(1 for t in toks if t is not None and not t.isspace()))
    seen = 0
    for k, t in enumerate(toks, 1):
        if t is None:
            continue
        if not t.isspace():
            seen += 1
        if seen >= need and not any(o[:k] == toks[:k] for o in others):
            return toks[:k]
    return toks


def key_regex(site, toks):
    rx = re.escape(site[2] + " ") if site[0] == "diagnose.sh" else ""
    for t in toks:
        rx += r"[\s\S]*?" if t is None else re.escape(t)
    return re.compile(rx)


def find_all(text, word):
    i = text.find(word)
    while i >= 0:
        yield i
        i = text.find(word, i + 1)


def split_pieces(line):
    """一行 → [(这一段在引号外的文字, [引号里的字面量…])]，按引号外的 && / || 分段"""
    pieces, outside, lits, i, n = [], "", [], 0, len(line)
    while i < n:
        c = line[i]
        if line.startswith("$'", i) or c in "\"'":
            q = "'" if c != '"' else '"'
            i += 2 if c == "$" else 1
            s = ""
            while i < n and line[i] != q:
                if line[i] == "\\" and q == '"' and i + 1 < n:
                    s += line[i + 1]
                    i += 2
                    continue
                s += line[i]
                i += 1
            i += 1
            lits.append(s)
            outside += " Q "
            continue
        if line.startswith("&&", i) or line.startswith("||", i):
            pieces.append((outside, lits))
            outside, lits = "", []
            i += 2
            continue
        outside += c
        i += 1
    pieces.append((outside, lits))
    return pieces


def negative(outside):
    o = outside.strip()
    return ("!=" in o or o.startswith("!") or o.startswith("[[ !") or o.startswith("[ !")
            or re.search(r"\bgrep\s+-\w*v", o) is not None)


def assertions(files):
    """[(文件:行号, 断言文字)]：字面量之间用 \\0 连接（glob 的 *）"""
    out = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.lstrip().startswith("#"):
                    continue
                for outside, lits in split_pieces(line.rstrip("\n")):
                    if lits and not negative(outside):
                        out.append(("%s:%d" % (os.path.relpath(path, REPO), n), "\0".join(lits)))
    return out


def main(argv):
    listing = "--list" in argv
    files = [a for a in argv if a != "--list"]
    if not files:
        files = sorted(glob.glob(os.path.join(REPO, "tests/unit/*.bats"))) + [os.path.join(REPO, "tests/lab/scripts.bats")]
    sites = verdict_sites()
    # 核对: diagnose.sh 里每个 pass/warn/fail/skip 的调用都是 `词 $"句子"` 的样子（不是就没法知道它打印什么）
    parsed = {n for n, _ in calls("diagnose.sh", DIAG_CALL)}
    odd = [n for n, _ in calls("diagnose.sh", ANY_CALL) if n not in parsed]
    if odd or not parsed:
        print("diagnose.sh 里有认不出的判定调用（要写成 pass/warn/fail/skip $\"句子\"）: 行 %s" % odd)
        return 2
    asserts = assertions(files)
    keys = [key_tokens(s, sites) for s in sites]
    rxs = [key_regex(s, k) for s, k in zip(sites, keys)]
    weight = [sum(1 for t in k if t is not None) for k in keys]
    where = [[] for _ in sites]
    # 断言里可能出现判定行的位置: diagnose.sh 的判定词，show_gids.sh 的标签（"错误"、"通往"……）
    anchors = {s[2] if s[0] == "diagnose.sh" else s[2].split("$")[0].strip() for s in sites}
    for loc, text in asserts:
        # 在每个判定词（show_gids.sh 是标签）出现的位置试每个句子的前缀。同一位置匹配几个句子时（"工具 rdma: " 也匹配
        # "工具 $t: "），只算字面字最多的那个（同一脚本里）；一句断言里可以有几个判定行，各算各的
        starts = sorted({i for w in anchors for i in find_all(text, w)})
        for pos in starts:
            hits = [i for i, rx in enumerate(rxs) if rx.match(text, pos)]
            for i in hits:
                if not any(sites[j][0] == sites[i][0] and weight[j] > weight[i] for j in hits):
                    if loc not in where[i]:
                        where[i].append(loc)
    missing = []
    for s, k, w in zip(sites, keys, where):
        key = "".join("…" if t is None else t for t in k)
        if listing:
            print("%s:%d %s %s  ⇐ %s" % (s[0], s[1], s[2], key, ", ".join(w) or "（没有）"))
        if not w:
            missing.append("%s:%d %s %s" % (s[0], s[1], s[2], s[3].split("\n")[0]))
    n_diag = sum(1 for s in sites if s[0] == "diagnose.sh")
    print("# 判定行: diagnose.sh %d 个，show_gids.sh %d 个；没有断言的 %d 个" % (n_diag, len(sites) - n_diag, len(missing)))
    for m in missing:
        print("没有测试断言: " + m)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
