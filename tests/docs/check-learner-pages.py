#!/usr/bin/env python3
"""tests/docs/check-learner-pages.py - 给学习者的页面只说项目本身：没有本项目的 issue 编号，没有起草和开发时的用语

哪些页面给学习者：docs/pages.txt（清单；--manifest 时读它，并且仓库里每个 .md 都要在清单里、清单里的每个都要存在）。

规则（机械的，按行看，输出摘录之外；代码块也看）：
  1. 词 issue/issues（不分大小写）和 “PR #N” 只能作为别的项目的出处出现：紧跟在一个名字后面，
     “SPDK 的 issue 1697”、“Foo's issue 12”、“linux-rdma/rdma-core PR #461”、“owner/repo issue 7”；
     其余的（“（issue 39）”、“issue 的目标”）都算本项目的。
  2. 正文里（代码块之外）“#数字”只能接在 owner/repo 后面（canonical/cloud-init#4066）或上面那样的 “PR #”里；
     前面是行首、空白或括号、逗号的 “#39” 算本项目的 issue 编号。紧贴在别的字后面的（“消息#1”“C.QP0#1”“CPU#0”）、
     链接目标里的锚点（](#5-…)）、代码块里的（抓包的帧号 #1）不管。
  3. 起草时的用语：原稿、草稿、设计卡片、APPENDIX-DRAFTS，英文的 draft(s)、design card。
  4. 开发时的用语（DEVTALK，每条带原因）：别的工程师/负载来自谁、变异检查（mutation lab）、TODO/FIXME、没达到的目标、
     “后来加的”、“还没有做的/后续”（路线图）、“早期版本的竞争”、只给测试用的环境变量（ROCE_TEST_…）、给译者的规则；
     这些放进 docs/DEVELOPING.md。
  5. 不链接到 tests/ 下的文件（链接目标里有 tests/ 这一段）：测试是开发者的，学习者页面写结论，出处链接到 DEVELOPING.md。
用法: check-learner-pages.py 文件…
      check-learner-pages.py --manifest docs/pages.txt：检查清单里的 learner 页面（从仓库根目录运行）
退出码 0 = 没有，1 = 有（逐条打印 文件:行号: 原因: 这一行）。
"""
import os
import re
import subprocess
import sys

NAME = r"[A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)?"
# 别的项目的出处：名字 + “ 的 ” / “'s ” / 空格（只有 owner/repo 才能只用空格）
ATTRIBUTED = re.compile(
    rf"(?:{NAME}(?: 的 |'s )|[A-Za-z0-9_.+-]+/[A-Za-z0-9_.+-]+ )(?:issues?|PR)\b", re.I)
ISSUE_WORD = re.compile(r"\b(?:issues?|PR(?= ?#\d))\b", re.I)
BARE_NUMBER = re.compile(r"(?:^|(?<=[\s(（，,、]))#\d+")
DRAFT = re.compile(r"原稿|草稿|设计卡片|APPENDIX-DRAFTS|\bdrafts?\b|\bdesign cards?\b", re.I)
DEVTALK = [
    (re.compile(r"别的工程师|other engineers?", re.I), "开发时的用语（机器上谁在干什么）"),
    (re.compile(r"变异检查的实验室|mutation lab|\bmutants?\b", re.I), "开发时的用语（变异检查）"),
    (re.compile(r"\b(?:TODO|FIXME)\b"), "开发时的用语（TODO）"),
    (re.compile(r"目标[^。；]{0,20}没有达到|missed (?:the |its )?target", re.I), "开发时的用语（没达到的开发目标）"),
    (re.compile(r"是后来加的|were added later", re.I), "开发时的用语（什么时候加的）"),
    (re.compile(r"还没有做的|可能的后续|\broadmap\b|not done yet", re.I), "开发时的用语（路线图）"),
    (re.compile(r"早期版本|an earlier version", re.I), "开发时的用语（旧版本的问题）"),
    (re.compile(r"仅供测试|ROCE_TEST_[A-Z_]+|test[- ]only", re.I), "开发时的用语（只给测试用的开关）"),
    (re.compile(r"给译者|for translators", re.I), "开发时的用语（给译者的规则）"),
]
TESTS_LINK = re.compile(r"\]\((?:\.\./)*(?:\./)?tests/[^)]*\)")


def problems(line, code):
    for m in TESTS_LINK.finditer(line):
        yield f"链接到 tests/（{m.group(0)[2:-1]}）：学习者页面写结论，测试的出处放进 docs/DEVELOPING.md"
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
    for rx, why in DEVTALK:
        for m in rx.finditer(line):
            yield f"{why} “{m.group(0)}”"


def all_md():
    """仓库里的每个 .md（git 跟踪的；不在 git 里时走目录，跳过 build/ logs/）"""
    try:
        out = subprocess.run(["git", "ls-files", "*.md"], capture_output=True, text=True, check=True).stdout.split()
        if out:
            return set(out)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = set()
    for d, dirs, files in os.walk("."):
        dirs[:] = [x for x in dirs if x not in (".git", "build", "logs", "node_modules")]
        found |= {os.path.relpath(os.path.join(d, f)) for f in files if f.endswith(".md")}
    return found


def read_manifest(path):
    """清单 → (learner 页面, 问题)"""
    pages, kinds, bad = [], {}, []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2 or parts[0] not in ("learner", "developer"):
                bad.append(f"{path}:{no}: 格式是“learner|developer 路径”: {line}")
                continue
            kind, page = parts
            if page in kinds:
                bad.append(f"{path}:{no}: {page} 写了两次")
            kinds[page] = kind
            if not os.path.isfile(page):
                bad.append(f"{path}:{no}: 没有这个页面: {page}")
            elif kind == "learner":
                pages.append(page)
    for page in sorted(all_md() - set(kinds)):
        bad.append(f"{path}: 仓库里的 {page} 不在清单里（learner 还是 developer？）")
    return pages, bad


def main(files):
    bad = 0
    if files[:1] == ["--manifest"]:
        files, problems_ = read_manifest(files[1])
        for p in problems_:
            print(p)
        bad += len(problems_)
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
