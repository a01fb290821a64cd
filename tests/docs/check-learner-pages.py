#!/usr/bin/env python3
"""tests/docs/check-learner-pages.py - 给学习者的页面只说项目本身：没有本项目的 issue 编号，没有起草时的用语

规则（机械的，按行看，输出摘录之外；代码块也看）：
  1. 词 issue/issues（不分大小写）和 “PR #N” 只能作为别的项目的出处出现：紧跟在一个名字后面，
     “SPDK 的 issue 1697”、“Foo's issue 12”、“linux-rdma/rdma-core PR #461”、“owner/repo issue 7”；
     其余的（“（issue 39）”、“issue 的目标”）都算本项目的。
  2. 正文里（代码块之外）“#数字”只能接在 owner/repo 后面（canonical/cloud-init#4066）或上面那样的 “PR #”里；
     前面是行首、空白或括号、逗号的 “#39” 算本项目的 issue 编号。紧贴在别的字后面的（“消息#1”“C.QP0#1”“CPU#0”）、
     链接目标里的锚点（](#5-…)）、代码块里的（抓包的帧号 #1）不管。
  3. 起草时的用语：原稿、草稿、设计卡片、APPENDIX-DRAFTS，英文的 draft(s)、design card。
用法: check-learner-pages.py 文件…；退出码 0 = 没有，1 = 有（逐条打印 文件:行号: 原因: 这一行）。
"""
import re
import sys

NAME = r"[A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)?"
# 别的项目的出处：名字 + “ 的 ” / “'s ” / 空格（只有 owner/repo 才能只用空格）
ATTRIBUTED = re.compile(
    rf"(?:{NAME}(?: 的 |'s )|[A-Za-z0-9_.+-]+/[A-Za-z0-9_.+-]+ )(?:issues?|PR)\b", re.I)
ISSUE_WORD = re.compile(r"\b(?:issues?|PR(?= ?#\d))\b", re.I)
BARE_NUMBER = re.compile(r"(?:^|(?<=[\s(（，,、]))#\d+")
DRAFT = re.compile(r"原稿|草稿|设计卡片|APPENDIX-DRAFTS|\bdrafts?\b|\bdesign cards?\b", re.I)


def problems(line, code):
    line = re.sub(r"\]\([^)]*\)", "]()", line)
    attributed = [m.span() for m in ATTRIBUTED.finditer(line)]
    for m in ISSUE_WORD.finditer(line):
        if not any(a <= m.start() and m.end() <= b for a, b in attributed):
            yield f"本项目的 issue（“{m.group(0)}”不是别的项目的出处）"
    for m in [] if code else BARE_NUMBER.finditer(line):
        before = line[:m.start()]
        if not re.search(r"\bPR ?$", before, re.I):
            yield f"本项目的 issue 编号 “{m.group(0)}”"
    for m in DRAFT.finditer(line):
        yield f"起草时的用语 “{m.group(0)}”"


def main(files):
    bad = 0
    for path in files:
        exc = code = False
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if line.startswith("<!-- excerpt: "):
                    exc = True
                elif line.startswith("<!-- /excerpt -->"):
                    exc = False
                elif line.lstrip().startswith("```"):
                    code = not code
                elif not exc:
                    for why in problems(line, code):
                        print(f"{path}:{no}: {why}: {line.strip()[:160]}")
                        bad += 1
    print(f"# {len(files)} 个页面")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
