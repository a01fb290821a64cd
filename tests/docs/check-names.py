#!/usr/bin/env python3
"""tests/22-host-names.t 的检查：注释和文档里点名的本项目的文件和函数都还在（改名、删除之后没有留下旧名字）。

看哪些地方：src/ 里每个 .c/.h 的注释；仓库里每个 .md（logs/、tests/ 和 docs/dev/ 下的除外：docs/dev/ 是开发者的研究笔记，记的是当时量到的）里反引号中的词和写成 name() 的词。
- 文件名（x.c、x.h、src/a/b.c）和 src/ 下的目录（src/a/）：src/ 开头的路径必须存在；别的名字必须是仓库里某个文件的名字
  （tests/fuzz/fuzz_hello.c、tools/bench/nsir.c 也是本项目的）。带目录、又不在本仓库的路径（drivers/infiniband/…）不算本项目的：
  它必须真的不存在于仓库，并且以别的项目的目录开头（FOREIGN_DIRS）。
- 函数名（小写、带下划线的词，snake_case）：必须是本项目的代码里出现的标识符或字符串（src/ 去掉注释之后的代码，以及
  tests/、tools/、lab/、scripts/ 和仓库顶层的脚本——变异补丁 tests/mutation/ 和 logs/ 不算）。
  别的项目的名字：ibv_*、rdma_*（librdmacm）、rxe_*、ib_*（内核）等前缀一律放过；其余的写在 tests/docs/names-foreign.txt，
  每行一个，注明出处。改名以后旧名字不会再出现在代码里，点名它的注释或文档就失败。
输出：每个找不到的名字一行“文件: 名字”；没有时什么也不打印。退出码 = 找不到的个数 > 0。
"""
import os
import re
import subprocess
import sys

FOREIGN_PREFIX = re.compile(r'^(ibv_|rdma_|rxe_|ib_|mlx5_|ucma_|nldev_|roce_|perftest_|hns_)')
FOREIGN_DIRS = ("drivers/", "include/", "libibverbs/", "librdmacm/", "providers/", "net/", "kernel/")
FILE_TOK = re.compile(r'(?<![\w.\-/])((?:[\w\-]+/)*[\w\-]*\w\.[ch])\b(?!\.)')
NAME_TOK = re.compile(r'(?<![\w.\-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b(?![.\-]\w)')


def strip_comments(text):
    code, com = [], []
    for m in re.finditer(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|[^/"\']+|.', text, re.S):
        t = m.group(0)
        if t.startswith(("/*", "//")):
            com.append(t)
            code.append("\n" * t.count("\n"))
        else:
            code.append(t)
    return "".join(code), "".join(com)


def main():
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split("\n")
    tracked = [f for f in tracked if f and os.path.isfile(f)]
    foreign = set()
    with open("tests/docs/names-foreign.txt", encoding="utf-8") as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip()
            if line:
                foreign.add(line)
    known, comments = set(), {}
    for f in tracked:
        if f.startswith(("tests/mutation/", "logs/", "docs/")) or f.endswith((".md", ".po", ".pot", ".png", ".svg", ".json", ".csv", ".txt")):
            continue
        try:
            text = open(f, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        if f.endswith((".c", ".h")):   # C 的注释不算“代码里出现”：tests/ 的注释里留着的旧名字也不能让它过关
            text, com = strip_comments(text)
            if f.startswith("src/"):
                comments[f] = com
        known |= set(re.findall(r'[A-Za-z_]\w*', text))
    basenames = {os.path.basename(f) for f in tracked}
    bad = set()

    def file_ok(tok):
        b = os.path.basename(tok)
        if tok.startswith("src/"):
            return os.path.exists(tok)
        if "/" in tok and (os.path.exists(tok) or os.path.exists("src/" + tok)):
            return True
        if tok.startswith(FOREIGN_DIRS) or FOREIGN_PREFIX.match(b) or tok in foreign:
            return True
        return b in basenames

    def name_ok(tok):
        return tok in known or tok in foreign or FOREIGN_PREFIX.match(tok) is not None

    def check(where, text, names):
        for m in FILE_TOK.finditer(text):
            if not file_ok(m.group(1)):
                bad.add((where, m.group(1)))
        for m in re.finditer(r'(?<![\w./-])(src/[a-z_]+/)', text):   # 目录：src/ 下的子目录
            if not os.path.isdir(m.group(1)):
                bad.add((where, m.group(1)))
        for n in names:
            if not name_ok(n):
                bad.add((where, n))

    for f, com in sorted(comments.items()):
        check(f, com, NAME_TOK.findall(com))
    for f in tracked:
        if not f.endswith(".md") or f.startswith(("logs/", "tests/", "docs/dev/")):
            continue
        text = open(f, encoding="utf-8").read()
        ticks = re.findall(r'`([^`\n]+)`', text)
        names = re.findall(r'\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\(\)', text)
        names += [t.rstrip("()") for t in ticks if re.fullmatch(r'[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\(\))?', t)]
        check(f, "\n".join(ticks), names)
    for where, tok in sorted(bad):
        print("%s: %s" % (where, tok))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
