#!/usr/bin/env python3
"""tests/docs/check-error-index.py - README.md 和 QUICKFIX.md 引用的每一句错误，都在英文的错误索引（docs/TROUBLESHOOTING.en.md 开头的
“## Index: the line you see”）里；以前引用过的每一句错误（tests/docs/error-lines.txt）还在某个学习者页面里；
TROUBLESHOOTING.md 和它的英文版正文里引用的每一句错误都在各自页首的索引里

哪些算“引用的错误”（机械的规则）：正文里（代码块和摘录之外）反引号中的一段，
  - 以英文的错误开头：error: / Error: / E: / Failed / Couldn't / cannot，前面可以有程序名（modprobe: FATAL、ulimit: …）；
    它原样（… 之前的部分）出现在索引里；
  - 或者是程序的中文错误（含“失败”，不是诊断脚本的 “[失败]” 标签）：在 po/en.po 里找能印出它的 msgid（%s/%d 当任意文字；
    引用只有冒号前那一段时只比 msgid 冒号前那一段），把同样的值填进 msgstr，得到的英文出现在索引里。
找不到 msgid 的中文引用写在 EXCEPT 里（英文的写法），现在只有一条。
README.md 和 QUICKFIX.md 引用的每一句英文错误也要在 TROUBLESHOOTING.md 的正文里（反引号里）：搜英文原话的人落到那里。
另外，TROUBLESHOOTING.md “## GID（步骤4）”一节每个 ### 标题里引用的中文错误也都要在索引里：“错误: ”“警告: ”换成 error:/warning:，
引用里 … 之前的部分当作程序那句话的开头，在 po/en.po 里找能以它开头的 msgid，英文取到它用到的最后一个值为止。
用法: check-error-index.py [仓库目录]；退出码 0 = 全部找到，1 = 有缺的（逐条打印）。
      check-error-index.py --pair 中文页 英文页 [仓库目录]：同样的规则，但找的是英文页的正文（反引号里的每一段，
      代码块和摘录之外；例如 QUICKFIX.md 引用的每一句错误都在 docs/QUICKFIX.en.md 的正文里）。
"""
import re
import sys
from pathlib import Path

ARGS = sys.argv[1:]
PAIR = None
if ARGS[:1] == ["--pair"]:
    PAIR, ARGS = (ARGS[1], ARGS[2]), ARGS[3:]
ROOT = Path(ARGS[0] if ARGS else Path(__file__).resolve().parents[2])
ENGLISH = re.compile(r"^((modprobe|modinfo|ulimit)(: [a-z ]+)?: )?(error|Error|ERROR|FATAL|E|Failed|Couldn't|cannot)\b")
# 引用里省略了一部分（…）的中文错误，po 的 msgid 对不上：中文引用 → 索引里该有的英文
EXCEPT = {"connect(…) 失败: Connection refused": "connect(…) failed: Connection refused"}


def text_quotes(path):
    """正文（代码块和摘录之外）里反引号中的每一段: (行号, 文字)"""
    code = exc = False
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("<!-- excerpt: "):
            exc = True
        elif line.startswith("<!-- /excerpt -->"):
            exc = False
        elif line.lstrip().startswith("```"):
            code = not code
        elif not code and not exc:
            for q in re.findall(r"`([^`]+)`", line):
                yield no, q


def po_pairs(path):
    """po 文件里的 (msgid, msgstr)，多行的拼起来"""
    pairs, cur, key = [], {}, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        m = re.match(r'^(msgid|msgstr) "(.*)"$', line)
        if m:
            key = m.group(1)
            cur[key] = m.group(2)
        elif line.startswith('"') and key:
            cur[key] += line[1:-1]
        else:
            if cur.get("msgid") and cur.get("msgstr"):
                pairs.append((unesc(cur["msgid"]), unesc(cur["msgstr"])))
            cur, key = {}, None
    return pairs


def unesc(s):
    return s.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\").strip()


FMT = re.compile(r"%[-0-9.]*(?:l|ll|z)?[sdux]")


def fill(fmt, values):
    it = iter(values)
    return FMT.sub(lambda _m: next(it, "…"), fmt)


def translate(quote, pairs):
    """能印出 quote 的 msgid 的 msgstr，填上同样的值；找不到时 None。几条都能印出时取字面文字最多的那条
    （“修改QP[%d]到RTR状态失败: …” 胜过 “修改QP[%d]到%s失败”）"""
    best = (-1, None)
    for msgid, msgstr in pairs:
        for cut in (False, True):
            mid, mstr = msgid, msgstr
            if cut:  # 引用只有冒号前那一段
                if ": " not in msgid or ": " not in msgstr:
                    continue
                mid, mstr = msgid.split(": ")[0], msgstr.split(": ")[0]
            pieces = FMT.split(mid)
            rx = "(.*?)".join(re.escape(p) for p in pieces)
            m = re.fullmatch(rx, quote)
            if m and len(FMT.findall(mstr)) == len(m.groups()):
                best = max(best, (len("".join(pieces)), fill(mstr, m.groups())), key=lambda b: b[0])
    return best[1]


def quoted_errors(doc, pairs):
    """doc 正文里引用的每一句错误: (行号, 引用, 该有的英文)；中文错误在 po 里找不到 msgid 时英文是 None"""
    for no, q in text_quotes(ROOT / doc):
        if ENGLISH.match(q):
            yield no, q, q
        elif "失败" in q and not q.startswith("["):
            yield no, q, EXCEPT.get(q) or translate(q, pairs)


LABELS = {"错误: ": "error: ", "警告: ": "warning: "}
INDEX_PAGE = "docs/TROUBLESHOOTING.en.md"
KEPT = "tests/docs/error-lines.txt"


def check_ts_index(pairs):
    """TROUBLESHOOTING.md 和它的英文版：正文里引用的每一句错误都在页首的索引里（索引在 “## 索引”/“## Index” 那一节）"""
    bad = 0
    for page, head in (("TROUBLESHOOTING.md", "## 索引："), (INDEX_PAGE, "## Index: ")):
        text = (ROOT / page).read_text(encoding="utf-8")
        m = re.search(r"^" + re.escape(head) + r".*?\n(.*?)(?=^## )", text, re.S | re.M)
        if not m:
            print(f"{page}: 没有 “{head}” 一节")
            bad += 1
            continue
        first = text[:m.end()].count("\n") + 1
        for no, q, _ in quoted_errors(page, pairs):
            if no > first and q not in m.group(1):
                print(f"{page}:{no}: 引用的错误不在页首的索引里: {q}")
                bad += 1
    return bad


def check_kept():
    """KEPT 里的每一句（TROUBLESHOOTING 改成索引之前引用过的错误）原样在某个学习者页面（docs/pages.txt）里：返回缺的条数"""
    pages = []
    for line in (ROOT / "docs/pages.txt").read_text(encoding="utf-8").splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 2 and parts[0] == "learner":
            pages.append((ROOT / parts[1]).read_text(encoding="utf-8"))
    text = "\n".join(pages)
    bad = n = 0
    for line in (ROOT / KEPT).read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        n += 1
        if not found(line, text):   # … 是省略的一段
            print(f"{KEPT}: 这一句错误以前引用过，现在哪个学习者页面里都没有了: {line}")
            bad += 1
    if n < 100:
        print(f"{KEPT} 只有 {n} 句")
        bad += 1
    return bad
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def translate_prefix(q0, pairs):
    """q0 是程序某句话的开头（引用里 … 之前的部分）：找能以它开头的 msgid，返回英文里确定的那一段开头
    （到 q0 用到的最后一个 %s/%d 的值为止；值里还有中文时递归翻译）；找不到时 None。几条都行时取对上的字面文字最多的"""
    best = (-1, None)
    for msgid, msgstr in pairs:
        pieces = FMT.split(msgid.split("\n")[0].split("\037")[0].strip())
        en_pieces = FMT.split(msgstr.split("\n")[0].split("\037")[0].strip())
        if len(pieces) != len(en_pieces):
            continue
        got = walk(q0, pieces)
        if got is None or got[0] < 2 or got[0] <= best[0]:
            continue
        lit, values, whole = got
        vals = []
        for v in values:
            if CJK.search(v):
                v = translate_prefix(v, pairs)
                if v is None:
                    break
            vals.append(v)
        else:
            en = "".join(en_pieces[i] + vals[i] for i in range(len(vals)))
            best = (lit, en + en_pieces[-1] if whole else en)
    return best[1]


def walk(q0, pieces):
    """q0 和 msgid 的字面文字（pieces，%x 分开的）对齐：(对上的字面字数, 用到的值, q0 是不是整句) 或 None"""
    rest, values, lit = q0, [], 0
    for k, piece in enumerate(pieces):
        if not rest.startswith(piece):
            return (lit + len(rest), values, False) if piece.startswith(rest) else None
        rest, lit = rest[len(piece):], lit + len(piece)
        if k == len(pieces) - 1:
            return (lit, values, True) if rest == "" else None
        nxt = pieces[k + 1]
        # 值到哪里为止：第一个让后面的文字和下一段字面文字对得上（或 q0 在那段文字里结束）的位置
        for c in range(len(rest) + 1):
            tail = rest[c:]
            if nxt and (tail.startswith(nxt) or (nxt.startswith(tail) and tail)):
                break
        else:
            c = len(rest)
        values.append(rest[:c])
        rest = rest[c:]
        if rest == "":
            return (lit, values, False)
    return None


def gid_heading_errors(pairs):
    """TROUBLESHOOTING.md 的“## GID（步骤4）”一节里每个 ### 标题引用的中文错误: (行号, 引用, 英文里确定的开头)"""
    section = False
    for no, line in enumerate((ROOT / "TROUBLESHOOTING.md").read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("## "):
            section = line.startswith("## GID（")
        elif section and line.startswith("### "):
            for q in re.findall(r"`([^`]+)`", line):
                if not CJK.search(q):
                    continue
                label = next((zh for zh in LABELS if q.startswith(zh)), "")
                whole = translate_prefix(q.split("…")[0], pairs)       # 标签在 msgid 里的（“  警告: 没有 …”）
                body = translate_prefix(q[len(label):].split("…")[0], pairs)
                found = [e for e in (whole, body and LABELS.get(label, "") + body) if e and not CJK.search(e)]
                yield no, q, max(found, key=len) if found else None


def found(want, haystack):
    """want 在 haystack 里；want 里的 … 是省略的一段：各段按顺序出现在同一行里（… 之前的开头至少要有）"""
    parts = [p.strip() for p in want.split("…")]
    if len(parts) == 1:
        return want.strip() in haystack
    rx = ".*?".join(re.escape(p) for p in parts if p)
    return re.search(rx, haystack) is not None


def check(docs, haystack, where, pairs):
    """docs 引用的每一句错误（… 之前的部分）都在 haystack 里；返回 (缺的条数, 引用的条数)"""
    bad = seen = 0
    for doc in docs:
        for no, q, want in quoted_errors(doc, pairs):
            if want is None:
                print(f"{doc}:{no}: 引用的中文错误在 po/en.po 里找不到 msgid: {q}")
                bad += 1
                continue
            seen += 1
            if not found(want, haystack):
                print(f"{doc}:{no}: 引用的错误 “{q}” 不在 {where} 里（要找: {want}）")
                bad += 1
    return bad, seen


def main():
    pairs = po_pairs(ROOT / "po/en.po")
    if PAIR:
        zh, en = PAIR
        haystack = "\n".join(q for _, q in text_quotes(ROOT / en))
        bad, seen = check([zh], haystack, f"{en} 的正文（反引号里）", pairs)
    else:
        text = (ROOT / INDEX_PAGE).read_text(encoding="utf-8")
        m = re.search(r"^## Index: the line you see\n(.*?)(?=^## )", text, re.S | re.M)
        if not m:
            print(f"{INDEX_PAGE} 里没有 “## Index: the line you see” 一节")
            return 1
        bad, seen = check(("README.md", "QUICKFIX.md"), m.group(1), f"{INDEX_PAGE} 的索引", pairs)
        # 学习者搜英文原话时落到 TROUBLESHOOTING：README、QUICKFIX 引用的每一句英文错误那里也有
        trouble = "\n".join(q for _, q in text_quotes(ROOT / "TROUBLESHOOTING.md"))
        for doc in ("README.md", "QUICKFIX.md"):
            for no, q in text_quotes(ROOT / doc):
                if ENGLISH.match(q) and q.split("…")[0].rstrip() not in trouble:
                    print(f"{doc}:{no}: 引用的英文错误 “{q}” 不在 TROUBLESHOOTING.md 的正文里（反引号里）")
                    bad += 1
        for no, q, want in gid_heading_errors(pairs):
            seen += 1
            if want is None:
                print(f"TROUBLESHOOTING.md:{no}: GID 一节标题里的中文错误在 po/en.po 里找不到 msgid: {q}")
                bad += 1
            elif not found(want, m.group(1)):
                print(f"TROUBLESHOOTING.md:{no}: GID 一节的错误 “{q}” 不在 {INDEX_PAGE} 的索引里（要找: {want}）")
                bad += 1
        bad += check_kept()
        bad += check_ts_index(pairs)
    print(f"# {seen} 句引用的错误")
    return 1 if bad or seen == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
