#!/usr/bin/env python3
"""tests/docs/check-code-links.py - 代码打印的每个页面链接都能打开，中文和英文两种模式都查

哪些链接（机械地找）：
  - 练习检查的 “参见:/see:”（exercises/check/rules.py 的 M 表的最后一项）：中文模式原样打印，英文模式打印
    exercises/check/doclinks.py 的 en_link() 换过的；两个都要指向存在的文件和锚点（GitHub 的标题锚点或 <a id>）；
    英文版存在时英文模式必须换到英文版上。
  - 程序和脚本打印的文字里提到的页面（po/en.po、po/sh/en.po 里 msgid 和 msgstr 中的 “路径.md”）：文件存在；
    后面跟着 「标题」（中文）或 (section: Title)（英文）时，那个文件里有这个标题；msgstr（英文模式）里提到的页面
    有英文版时必须是英文版。
用法: check-code-links.py；退出码 0 = 全部能打开，1 = 有打不开的（逐条打印）；最后一行 “# N 个链接”。
"""
import importlib.util
import os
import re
import sys
from pathlib import Path

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import doclinks  # noqa: E402
import rules  # noqa: E402

# po 文件的 (msgid, msgstr) 用 check-error-index.py 的 po_pairs（和 check-parity.py 一样载入它）
_spec = importlib.util.spec_from_file_location("error_index", os.path.join(ROOT, "tests/docs/check-error-index.py"))
EI = importlib.util.module_from_spec(_spec)
sys.argv, _argv = sys.argv[:1], sys.argv     # check-error-index 在导入时读 sys.argv
_spec.loader.exec_module(EI)
sys.argv = _argv

REF = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.md)(?:「([^」]+)」| \(section: ([^)]+)\))?")


def resolves(link):
    """PATH#ANCHOR 能打开：问题（字符串）或 None"""
    path, _, frag = link.partition("#")
    a = doclinks.anchors(path)
    if a is None:
        return "文件不存在"
    if frag and frag not in a[0] and frag not in a[1]:
        return "没有锚点 #" + frag
    return None


def has_title(path, title):
    a = doclinks.anchors(path)
    return a is not None and doclinks.slug(title) in a[0]


def main():
    bad, n = [], 0
    for mid, entry in sorted(rules.M.items()):
        link = entry[3]
        if not link:
            continue
        en = doclinks.en_link(link)
        for lang, lk in (("zh", link), ("en", en)):
            n += 1
            why = resolves(lk)
            if why:
                bad.append(f"rules.py {mid}（{lang}）: {lk}: {why}")
        twin = doclinks.twin(link.partition("#")[0])
        if os.path.exists(os.path.join(ROOT, twin)) and not en.startswith(twin):
            bad.append(f"rules.py {mid}: 英文版 {twin} 存在，英文模式却打印 {en}")
    for po in ("po/en.po", "po/sh/en.po"):
        for msgid, msgstr in EI.po_pairs(Path(ROOT, po)):
            for lang, text in (("zh", msgid), ("en", msgstr)):
                for m in REF.finditer(text):
                    path, title = m.group(1), m.group(2) or m.group(3)
                    n += 1
                    if not os.path.exists(os.path.join(ROOT, path)):
                        bad.append(f"{po}（{lang}）: 提到的 {path} 不存在: {text[:80]}")
                        continue
                    if title and not has_title(path, title):
                        bad.append(f"{po}（{lang}）: {path} 里没有标题「{title}」")
                    if lang == "en" and not path.endswith(".en.md") and os.path.exists(os.path.join(ROOT, doclinks.twin(path))):
                        bad.append(f"{po}（en）: 英文模式提到 {path}，它的英文版 {doclinks.twin(path)} 存在: {text[:80]}")
    for b in bad:
        print(b)
    print(f"# {n} 个链接")
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
