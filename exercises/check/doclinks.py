"""doclinks.py - 代码打印的页面链接，英文模式下换成英文版：TROUBLESHOOTING.md#x → docs/TROUBLESHOOTING.en.md#y

英文版的位置（docs/pages.txt 的约定，tests/docs/check-parity.py 检查）：顶层的 X.md → docs/X.en.md，docs/Y.md → docs/Y.en.md，
子目录的 README.md 在旁边 README.en.md。锚点：两页都有的 <a id="…"></a> 原样用；否则按标题的序号对应（两版的标题一一对应，
check-parity.py 检查），取英文版同一个序号的标题的锚点（GitHub 的规则）。英文版还没有时原样返回中文的链接。
exercise.py（练习的 “see:”）和 tests/docs/en-links.py（英文页里指向中文页的链接）都用它。
"""
import os
import re

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def twin(path):
    """中文页（相对仓库根）→ 英文版的路径"""
    d, f = os.path.split(path)
    stem = f[:-3] if f.endswith(".md") else f
    return os.path.join(d or "docs", stem + ".en.md")


def slug(title):
    """GitHub 的标题锚点：小写，去掉字母、数字、空格、_、- 以外的字符，空格变 -"""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def anchors(path):
    """(按顺序的标题锚点, 显式的 <a id> → 同一行的第一个 id)；文件不存在时 None。一行上几个 <a id> 时第一个是这一节的，
    后面的是搬走的小节留下的旧锚点"""
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        return None
    heads, ids, seen, fence, prev = [], {}, {}, False, ""
    with open(full, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            en_only, prev = prev == "<!-- en-only -->", line.strip() or prev
            found = re.findall(r'<a id="([^"]+)"></a>', line)
            ids.update((i, found[0]) for i in found)
            m = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
            if m and not en_only:   # 只有英文读者需要的一节（<!-- en-only -->）在中文页里没有对应的标题
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                heads.append(s if n == 0 else "%s-%d" % (s, n))
    return heads, ids


def en_link(link):
    """PATH[#ANCHOR]（相对仓库根）→ 英文版的同一处；英文版不存在时原样"""
    path, _, frag = link.partition("#")
    en = twin(path)
    zh_a, en_a = anchors(path), anchors(en)
    if en_a is None:
        return link
    if not frag:
        return en
    if frag in en_a[1]:
        return en + "#" + frag
    if zh_a and frag in zh_a[0] and len(zh_a[0]) == len(en_a[0]):
        return en + "#" + en_a[0][zh_a[0].index(frag)]
    if zh_a and zh_a[1].get(frag) in en_a[1]:
        return en + "#" + zh_a[1][frag]     # 旧锚点：它所在那一节的 id
    return en
