#!/usr/bin/env python3
"""tests/docs/en-links.py - 英文页里指向中文页的链接，中文页有了英文版就换到英文版上（同一处：锚点按 exercises/check/doclinks.py
的规则对应）

英文版是几个人分头写的：先写好的英文页只能链接还没有英文版的中文页；英文版合进来以后运行一次 --apply，
链接就都指向英文页。tests/docs/check-parity.py 把“还指向有英文版的中文页”的链接算作问题，所以不会忘。
用法: en-links.py [--apply] [英文页 …]   不给页面时：docs/pages.txt 里所有的英文页；不加 --apply 只打印要改的
退出码: 0 没有要改的（或 --apply 改好了），1 有要改的（没加 --apply）
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import doclinks  # noqa: E402


def learner_pages():
    out = []
    with open(os.path.join(ROOT, "docs/pages.txt"), encoding="utf-8") as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if len(parts) == 2 and parts[0] == "learner":
                out.append(parts[1])
    return out


def stale_links(page, zh_pages):
    """page（英文页）里指向有英文版的中文页的链接: [(行号, 原链接, 新链接)]"""
    out, fence = [], False
    base = os.path.dirname(page)
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            for link in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+://", link) or link.startswith("#"):
                    continue
                path, _, frag = link.partition("#")
                target = os.path.normpath(os.path.join(base, path))
                if target not in zh_pages or (doclinks.twin(target) == page and no <= 8):   # 开头的语言链接指向自己的中文版：留着
                    continue
                twin = doclinks.twin(target)
                if not os.path.exists(os.path.join(ROOT, twin)):
                    continue
                new = doclinks.en_link(target + ("#" + frag if frag else ""))
                npath, _, nfrag = new.partition("#")
                rel = os.path.relpath(npath, base or ".")
                out.append((no, link, rel + ("#" + nfrag if nfrag else "")))
    return out


def main(argv):
    apply = "--apply" in argv
    argv = [a for a in argv if a != "--apply"]
    pages = learner_pages()
    zh = {p for p in pages if not p.endswith(".en.md")}
    todo = argv or [p for p in pages if p.endswith(".en.md")]
    n = 0
    for page in todo:
        changes = stale_links(page, zh)
        n += len(changes)
        for no, old, new in changes:
            print(f"{page}:{no}: ({old}) → ({new})")
        if apply and changes:
            text = open(os.path.join(ROOT, page), encoding="utf-8").read()
            for _, old, new in changes:
                text = text.replace("](" + old + ")", "](" + new + ")")
            open(os.path.join(ROOT, page), "w", encoding="utf-8").write(text)
    return 0 if apply or n == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
