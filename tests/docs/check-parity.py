#!/usr/bin/env python3
"""tests/docs/check-parity.py - 每个学习者页面和它的英文版（twin）同步

哪些是一对（清单 docs/pages.txt 里的 learner 页面；规则是机械的）：
  - 顶层的页面 X.md 的英文版是 docs/X.en.md（README.md → docs/README.en.md，TROUBLESHOOTING.md → docs/TROUBLESHOOTING.en.md）；
  - docs/ 下的 docs/Y.md → docs/Y.en.md；子目录的 README 在它旁边：lab/README.md → lab/README.en.md，
    docs/bench/README.md → docs/bench/README.en.md；
  - 名字以 .en.md 结尾的是英文版本身，不再找它的英文版；
  - GENERATED 里的页面是脚本生成的数据表（每次 make bench / make loss-vs-tcp 都重写），没有英文版：
    它们的列名本来就是英文，讲解它们的页面（bench/README、LOSS-VS-TCP）有英文版。
每一对检查（中文页 zh，英文页 en）：
  1. 两个都存在；英文页在清单里（learner）。
  2. 语言链接：两页开头（前 LINK_LINES 行）各有一个链接指向对方（相对路径），两个方向都要。
  3. 英文页里没有中文（链接目标 ](…) 里的中文标题锚点除外）。
  4. 标题一一对应：# 到 ######（代码块里的不算）按顺序的级别序列相同（个数、顺序、级别）。英文页里只有英文读者需要的一节
     （怎样得到英文输出）在标题前一行标 <!-- en-only -->，它不算。
  5. 命令一样：中文页代码块（```text 的输出块和摘录除外）里的每一行命令（# 注释行除外），以及正文里以命令开头的 `行内代码`，
     去掉行尾注释、“ --lang en”、多余的空白，<对端IP> 当作 <peer IP> 之后，都出现在英文页的代码块或 `行内代码` 里。
  6. 引用的错误一样：中文页正文里引用的每一句错误（规则和 check-error-index.py 一样：英文原话原样；程序的中文错误经
     po/en.po 译成英文）都在英文页的正文（反引号里）。
  7. 英文页不链接已经有英文版的中文页（开头的语言链接除外）：tests/docs/en-links.py --apply 把它们换到英文版上。
另外（不给页面时）docs/README.en.md 链接到每一个英文页（“README.en 列出全部”）。
用法: check-parity.py [--manifest docs/pages.txt] [中文页 …]   （仓库根目录运行；不给页面时查清单里的全部）
      check-parity.py --pairs                                    只列出清单里的每一对和它们在不在
退出码 0 = 全部同步，1 = 有问题（逐条打印）。最后一行 “# N 对” 给 tests/26-host-docs.t 用。
"""
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK_LINES = 8
GENERATED = {"docs/bench/results.md": "tools/bench/report.sh", "docs/loss-vs-tcp/results.md": "tools/loss-vs-tcp/report.sh"}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
CMD_START = re.compile(r"^(sudo |\./|build/|ip |rdma |ibv_|ib_|modprobe |modinfo |ulimit |uname|apt-get |make |lab/|bash |"
                       r"nft |ufw |firewall-cmd |tcpdump |rping |git )")

_spec = importlib.util.spec_from_file_location("error_index", ROOT / "tests/docs/check-error-index.py")
EI = importlib.util.module_from_spec(_spec)
sys.argv, _argv = sys.argv[:1], sys.argv     # check-error-index 在导入时读 sys.argv
_spec.loader.exec_module(EI)
sys.argv = _argv
EI.ROOT = ROOT


def twin_of(page):
    """中文页 → 英文页的路径（字符串，相对仓库根）"""
    p = Path(page)
    if p.parent == Path("."):
        return str(Path("docs") / (p.stem + ".en.md"))
    return str(p.parent / (p.stem + ".en.md"))


def manifest(path="docs/pages.txt"):
    pages = []
    for line in (ROOT / path).read_text(encoding="utf-8").splitlines():
        parts = line.split("#", 1)[0].split()
        if len(parts) == 2 and parts[0] == "learner":
            pages.append(parts[1])
    return pages


def pairs(pages):
    """清单里的页面 → [(中文页, 英文页)]；英文页自己和生成的页面不成对"""
    out = []
    for p in pages:
        if p.endswith(".en.md") or p in GENERATED:
            continue
        out.append((p, twin_of(p)))
    return out


def blocks(text):
    """每一行的类别: (TEXT|CODE|OUT|EXC, 行)；OUT = ```text 块，EXC = 摘录里"""
    kind, exc, out = None, False, []
    for line in text.splitlines():
        if line.startswith("<!-- excerpt: "):
            exc = True
            continue
        if line.startswith("<!-- /excerpt -->"):
            exc = False
            continue
        s = line.lstrip()
        if s.startswith("```"):
            kind = None if kind else ("OUT" if s[3:].strip() in ("text", "console-output", "diff", "json") else "CODE")
            continue
        out.append(("EXC" if exc else (kind or "TEXT"), line))
    return out


def headings(text):
    """标题的级别序列；前一行是 <!-- en-only --> 的标题（只有英文读者需要的一节，例如怎样得到英文输出）不算"""
    out, prev = [], ""
    for k, l in blocks(text):
        if k == "TEXT" and re.match(r"^#{1,6} ", l) and prev != "<!-- en-only -->":
            out.append(len(l) - len(l.lstrip("#")))
        if l.strip():
            prev = l.strip()
    return out


def norm(cmd):
    cmd = re.sub(r"(^|\s)#.*$", "", cmd)
    cmd = cmd.replace(" --lang en", "").replace("<对端IP>", "<peer IP>")
    return re.sub(r"\s+", " ", cmd).strip()


def commands(text, inline_all=False):
    """代码块里的命令行和正文里以命令开头的 `行内代码`（inline_all：正文里的每段行内代码）"""
    out = set()
    for k, l in blocks(text):
        if k == "CODE" and not l.lstrip().startswith("#"):
            c = norm(l)
            if c:
                out.add(c)
        elif k == "TEXT":
            for q in re.findall(r"`([^`]+)`", l):
                if inline_all or CMD_START.match(q):
                    c = norm(q)
                    if c:
                        out.add(c)
    return out


def links_to(text, src, target):
    """text（文件 src）的开头 LINK_LINES 行里有指向 target 的相对链接"""
    for line in text.splitlines()[:LINK_LINES]:
        for link in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", line):
            if (ROOT / src).parent.joinpath(link).resolve() == (ROOT / target).resolve():
                return True
    return False


LABELS = {"[失败] ": "[FAIL] ", "[警告] ": "[WARN] ", "错误: ": "error: ", "警告: ": "warning: ", "提示: ": "hint: "}
# 程序的中文错误，在 po 里没有一条 msgid 能整句对上（引用省略了一段，或者是几段拼起来的）：中文引用 → 程序印的英文（照 msgstr 填值）
EXCEPT = {
    "CAS(期望 …) 应成功/应失败…": "CAS(compare …) should succeed",
    "ibv_poll_cq() 失败 (返回 -N)": "ibv_poll_cq() failed (returned -N)",
    "rdma_bind_addr() 失败: No such device": "rdma_bind_addr() failed: No such device",
    "rdma_bind_addr() 失败: No such device (errno=19)": "rdma_bind_addr() failed: No such device (errno=19)",
    "ibv_get_device_list() 失败: …": "ibv_get_device_list() failed: ",
}


def po_all():
    """po/en.po 和 po/sh/en.po（脚本的 $变量 当作 %s）的 (msgid, msgstr)"""
    sh = [(re.sub(r"\$\{?[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\}?", "%s", a), re.sub(r"\$\{?[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\}?", "%s", b))
          for a, b in EI.po_pairs(ROOT / "po/sh/en.po")]
    return EI.po_pairs(ROOT / "po/en.po") + sh


def english_of(q, po):
    """引用的中文错误 q → 程序用 --lang en 印的英文（整句，或 … 之前能确定的开头）；英文的引用原样；找不到时 None"""
    if not CJK.search(q):
        return q
    if q in EXCEPT:
        return EXCEPT[q]
    for cand in (EI.translate(q, po), EI.translate_prefix(q.split("…")[0], po)):   # 标签在 msgid 里的（“  警告: 需要锁定 …”）
        if cand and not CJK.search(cand):
            return cand.rstrip()
    label = next((z for z in LABELS if q.startswith(z)), "")
    body = q[len(label):]
    for cand in (EI.translate(body, po), EI.translate_prefix(body.split("…")[0], po)):
        if cand and not CJK.search(cand):
            return LABELS.get(label, "") + cand.rstrip()
    return None


def quoted_errors(doc, po):
    """doc 正文里引用的每一句错误（check-error-index 的规则，再加 “错误: ”等标签和 … 省略的开头）: (行号, 引用, 该有的英文)"""
    for no, q, _ in EI.quoted_errors(doc, po):
        yield no, q, english_of(q, po)


def check_pair(zh, en, po):
    bad = []
    if not (ROOT / zh).exists():
        return [f"{zh}: 不存在"]
    if not (ROOT / en).exists():
        return [f"{zh}: 没有英文版 {en}"]
    tz = (ROOT / zh).read_text(encoding="utf-8")
    te = (ROOT / en).read_text(encoding="utf-8")
    if not links_to(tz, zh, en):
        bad.append(f"{zh}: 前 {LINK_LINES} 行没有指向英文版 {en} 的链接")
    if not links_to(te, en, zh):
        bad.append(f"{en}: 前 {LINK_LINES} 行没有指向中文版 {zh} 的链接")
    for no, line in enumerate(te.splitlines(), 1):
        if CJK.search(re.sub(r"\]\([^)]*\)", "]()", line)):
            bad.append(f"{en}:{no}: 有中文（链接目标之外）: {line.strip()[:100]}")
    hz, he = headings(tz), headings(te)
    if hz != he:
        bad.append(f"{zh} → {en}: 标题不是一一对应（中文 {len(hz)} 个，英文 {len(he)} 个；级别序列 {''.join(map(str, hz))} / {''.join(map(str, he))}）")
    ce = commands(te, inline_all=True)
    for c in sorted(commands(tz)):
        if not CJK.search(c) and c not in ce:
            bad.append(f"{zh}: 命令不在 {en} 里: {c}")
    quoted_en = "\n".join(q for _, q in EI.text_quotes(ROOT / en))
    for no, q, want in quoted_errors(zh, po):
        if want is None:
            bad.append(f"{zh}:{no}: 引用的中文错误在 po/en.po 里找不到 msgid: {q}")
        elif not EI.found(want, quoted_en):
            bad.append(f"{zh}:{no}: 引用的错误 “{q}” 不在 {en} 的正文（反引号里）（要找: {want}）")
    return bad


def main(argv):
    man = "docs/pages.txt"
    if argv[:1] == ["--manifest"]:
        man, argv = argv[1], argv[2:]
    all_pairs = pairs(manifest(man))
    if argv[:1] == ["--pairs"]:
        for zh, en in all_pairs:
            print(f"{zh} → {en}{'' if (ROOT / en).exists() else '  (missing)'}")
        for g, tool in GENERATED.items():
            print(f"{g}: generated by {tool}, no twin")
        return 0
    todo = [(z, twin_of(z)) for z in argv] if argv else all_pairs
    po = po_all()
    learner = set(manifest(man))
    problems = []
    for g, tool in GENERATED.items():
        if not (ROOT / tool).exists():
            problems.append(f"{g}: 生成它的 {tool} 不存在（GENERATED 过时了）")
    spec = importlib.util.spec_from_file_location("en_links", ROOT / "tests/docs/en-links.py")
    el = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(el)
    zh_pages = {p for p in manifest(man) if not p.endswith(".en.md")}
    for zh, en in todo:
        problems += check_pair(zh, en, po)
        if (ROOT / en).exists():
            for no, old, new in el.stale_links(en, zh_pages):
                problems.append(f"{en}:{no}: 链接到中文页 ({old})，它的英文版已经有了: ({new})（python3 tests/docs/en-links.py --apply {en}）")
        if (ROOT / en).exists() and en not in learner and en != "docs/README.en.md":
            problems.append(f"{man}: 英文版 {en} 不在清单里（learner {en}）")
    readme_en = (ROOT / "docs/README.en.md").read_text(encoding="utf-8")
    linked = {(ROOT / "docs" / l).resolve() for l in re.findall(r"\]\(([^)\s#]+)", readme_en)}
    for zh, en in all_pairs if not argv else []:
        if en != "docs/README.en.md" and (ROOT / en).resolve() not in linked:
            problems.append(f"docs/README.en.md: 没有链接到英文版 {en}")
    for p in problems:
        print(p)
    print(f"# {len(todo)} 对")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
