#!/usr/bin/env python3
"""tests/verbs-check/malformed.py - verbs-check 读到坏的日志（宿主机；tests/verbs-check/verbs-check.bats 调用）。

学习者用 scp 从另一台机器复制日志：文件可能被截断（程序被杀、复制中断）、是空的、来自别的版本、是二进制垃圾、
很大、某一行是合法的 JSON 却不是记录（列表、数字、没有 "t"、字段的类型不对），目录里可能没有日志或者只有无关的文件。
每种都要：标准错误上没有 Python 的 traceback、退出码在文档说的 0/1/2 里、能判断的照样判断并说出跳过了哪个文件的哪一行；
最常见的情况（最后一行只写了一半）还要判断完整的行、说出被截断的那一行。
最后是一个固定种子的随机变异循环：在 tests/verbs-check/logs/ 的真实日志上截断、翻转字节、删掉或重复一行。
    python3 tests/verbs-check/malformed.py        每个检查一行 ok/not ok，退出码 1 = 有失败
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VC = os.path.join(ROOT, "tools", "verbs-check", "verbs-check")
LOGS = os.path.join(ROOT, "tests", "verbs-check", "logs")
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import tap  # noqa: E402

check = tap.Checks()
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")
EXITS = (0, 1, 2)          # docs/VERBS-CHECK.md：0 没有错误，1 有错误（--pair：没有一对），2 用法错或读不了的输入
SEED = 20261129
VARIANTS = 160


def run(*args, lang="en"):
    r = subprocess.run([VC, "--lang", lang] + list(args), capture_output=True, text=True, timeout=60,
                       errors="replace")
    return r.returncode, r.stderr


def sane(what, rc, err, exits=EXITS, lang="en"):
    """每个运行都要的：没有 traceback、没有内部错误、退出码在文档的集合里、英文输出里没有中文"""
    ok = "Traceback" not in err and "internal error" not in err and "内部出错" not in err and rc in exits
    if lang == "en" and CJK.search(err):
        ok = False
    check(ok, what + ": no traceback, exit %s in %s" % (rc, list(exits)), err[-1500:])
    return ok


def copy_pair(d, case="rc"):
    dst = os.path.join(d, case)
    shutil.copytree(os.path.join(LOGS, case), dst)
    return dst, sorted(os.path.join(dst, f) for f in os.listdir(dst))


def cut_inside_line(data):
    """在最后一个 modify_qp（连接已经建好）和文件结尾的中间、某一行的中间截断：返回 (截断后的字节, 被截断的行号，从 1 数)"""
    last = data.rindex(b'"t":"modify_qp"')
    at = last + (len(data) - last) // 2
    while data[at - 1:at] == b"\n" or data[at:at + 1] == b"\n":
        at += 1
    return data[:at], data[:at].count(b"\n") + 1


def names_line(err, path, line):
    return "%s:%d" % (os.path.basename(path), line) in err


def names_cut(err, path, line):
    """log.cut 的头一行说出被截断的那一行：verbs-check: warning log.cut  [DIR/FILE:LINE]"""
    return re.search(r"log\.cut .*%s:%d\]" % (re.escape(os.path.basename(path)), line), err) is not None


# ---------- 每一种坏输入 ----------
def t_truncated(d):
    for lang in ("en", "zh"):
        dst, (a, _) = copy_pair(os.path.join(d, "cut-" + lang))
        data = open(a, "rb").read()
        cut, line = cut_inside_line(data)
        open(a, "wb").write(cut)
        rc, err = run("--pair", dst, lang=lang)
        what = "truncated last line (%s)" % lang
        sane(what, rc, err, (0, 1), lang)
        check(names_cut(err, a, line), what + ": log.cut names %s:%d" % (os.path.basename(a), line), err[-800:])
        check(("pair: " if lang == "en" else "两边：") in err, what + ": the complete lines are still judged as a pair",
              err[-800:])
        if lang == "zh":
            hit = [ln for ln in err.splitlines() if names_line(ln, a, line)]
            check(hit and CJK.search(hit[0]), what + ": the note is in Chinese by default", hit)
        rc, err = run("--judge", a, lang=lang)
        sane(what + ", --judge", rc, err, (0, 1), lang)
        check(names_cut(err, a, line), what + ", --judge: log.cut names the cut line", err[-800:])


def t_empty(d):
    p = os.path.join(d, "empty.log")
    open(p, "w").close()
    rc, err = run("--judge", p)
    sane("empty file, --judge", rc, err, (2,))
    check(p in err, "empty file, --judge: names the file", err)
    dst, _ = copy_pair(d, "ours")
    open(os.path.join(dst, "late.log"), "w").close()
    rc, err = run("--pair", dst)
    sane("empty file beside two good logs, --pair DIR", rc, err, (0, 1))
    check("late.log" in err and "pair: " in err, "empty file in DIR: named and skipped, the two good logs are judged", err)


def t_garbage(d):
    rnd = random.Random(SEED)
    p = os.path.join(d, "garbage.log")
    open(p, "wb").write(bytes(rnd.randrange(256) for _ in range(8192)))
    rc, err = run("--judge", p)
    sane("binary garbage, --judge", rc, err, (2,))
    check(p in err, "binary garbage: names the file", err)
    rc, err = run("--judge", p, lang="zh")
    sane("binary garbage, --judge (zh)", rc, err, (2,), lang="zh")
    check(CJK.search(err), "binary garbage: the message is in Chinese by default", err)


def t_foreign_version(d):
    """别的版本的记录器：start 一样，多了不认识的记录类型和字段，一个字段的类型变了"""
    src = os.path.join(LOGS, "rc-nogrh")
    dst = os.path.join(d, "other")
    shutil.copytree(src, dst)
    a = os.path.join(dst, sorted(os.listdir(dst))[0])
    lines = open(a).read().splitlines()
    lines.insert(2, json.dumps({"t": "query_gid_table", "seq": 99, "ctx": "0x1", "n": 4}))
    rec = json.loads(lines[3])
    rec["version"] = 2
    lines[3] = json.dumps(rec)
    i = next(i for i, ln in enumerate(lines) if '"t":"create_qp"' in ln.replace(" ", ""))
    rec = json.loads(lines[i])
    rec["qp"] = str(rec["qp"])
    lines[i] = json.dumps(rec)
    open(a, "w").write("\n".join(lines) + "\n")
    rc, err = run("--judge", a)
    sane("record type and field type from another version", rc, err, (0, 1))
    check(names_line(err, a, 3), "unknown record type: names its line", err)
    check(names_line(err, a, i + 1), "field of the wrong type: names its line", err)
    check(not names_line(err, a, 4), "an extra unknown field in a known record is not a problem", err)


BAD_LINES = [
    ("a list", "[1, 2, 3]"), ("a number", "42"), ("a string", '"post_send"'), ("null", "null"),
    ("a record without t", '{"seq": 5, "qph": "0x1"}'), ("t not a string", '{"t": 5, "seq": 5}'),
    ("post_send without qph", '{"t": "post_send", "seq": 5, "wr_id": 1, "opcode": 0, "flags": 2, "num_sge": 1}'),
    ("wr_id a string", '{"t": "post_send", "seq": 5, "qph": "0x1", "qp": 1, "wr_id": "x", "opcode": 0, "flags": 2, "num_sge": 1}'),
    ("a bool for an int", '{"t": "wc", "seq": 5, "cq": "0x1", "wr_id": 1, "status": true, "qp": 1}'),
    ("sge of the wrong shape", '{"t": "post_recv", "seq": 5, "qph": "0x1", "wr_id": 1, "num_sge": 1, "sge": [[1, 2]]}'),
    ("gid not hex", '{"t": "gid", "seq": 5, "ctx": "0x1", "port": 1, "index": 0, "gid": "zz", "ret": 0}'),
    ("a float", '{"t": "ack_cq_events", "seq": 5, "cq": "0x1", "n": 1.5}'),
    ("errno out of range", '{"t": "dereg_mr", "seq": 5, "mr": "0x1", "ret": 1, "errno": 99999999999999999999}'),
    ("NaN", '{"t": "ack_cq_events", "seq": 5, "cq": "0x1", "n": NaN}'),
    ("an object in a string field", '{"t": "open_device", "seq": 5, "dev": {"a": 1}, "ctx": "0x1"}'),
]


def t_bad_lines(d):
    for k, (what, bad) in enumerate(BAD_LINES):
        dst, (a, _) = copy_pair(os.path.join(d, "bad%d" % k))
        lines = open(a).read().splitlines()
        at = len(lines) // 2
        lines.insert(at, bad)
        open(a, "w").write("\n".join(lines) + "\n")
        rc, err = run("--pair", dst)
        ok = sane("line that is %s" % what, rc, err, (0, 1))
        if ok:
            check(names_line(err, a, at + 1) and "pair: " in err,
                  "line that is %s: names %s:%d and still judges the pair" % (what, os.path.basename(a), at + 1),
                  err[-800:])


def t_huge(d):
    p = os.path.join(d, "huge.log")
    start = open(os.path.join(LOGS, "rc-nogrh", sorted(os.listdir(os.path.join(LOGS, "rc-nogrh")))[0])).readline()
    with open(p, "w") as f:
        f.write(start)
        f.write('{"t":"exit","seq":1,"pad":"' + "x" * (24 << 20))   # 24 MB 的一行，没有换行
    t0 = time.time()
    rc, err = run("--judge", p)
    sane("a 24 MB line", rc, err, (0, 1))
    check(names_line(err, p, 2) and time.time() - t0 < 10, "a 24 MB line: named as line 2, within 10 s", err[-600:])
    q = os.path.join(d, "huge-garbage.log")
    with open(q, "wb") as f:
        f.write(b"\x00\xff" * (12 << 20))
    t0 = time.time()
    rc, err = run("--judge", q)
    sane("24 MB of garbage without a newline", rc, err, (2,))
    check(q in err and time.time() - t0 < 10, "24 MB of garbage: named, within 10 s", err[-600:])


def t_dirs(d):
    e = os.path.join(d, "nothing")
    os.makedirs(e)
    rc, err = run("--pair", e)
    sane("--pair on an empty folder", rc, err, (1, 2))
    check(e in err, "--pair on an empty folder: says so, naming it", err)
    u = os.path.join(d, "unrelated")
    os.makedirs(os.path.join(u, "sub"))
    open(os.path.join(u, "README.txt"), "w").write("hello\n")
    open(os.path.join(u, "notes.log"), "w").write("2026-11-29 started the server\nok\n")
    open(os.path.join(u, "sub", "x.log"), "w").write("[1,2]\n")
    rc, err = run("--pair", u)
    sane("--pair on a folder of unrelated files", rc, err, (1, 2))
    check("notes.log" in err and "x.log" in err, "unrelated *.log files are named", err)
    rc, err = run("--pair", os.path.join(d, "no-such-folder"))
    sane("--pair on a missing path", rc, err, (2,))
    check("no-such-folder" in err, "--pair on a missing path: names it", err)
    rc, err = run("--judge", e)
    sane("--judge on a folder", rc, err, (2,))
    check(e in err, "--judge on a folder: names it", err)
    dst, (a, _) = copy_pair(d, "ours")
    rc, err = run("--pair", a, os.path.join(d, "missing.log"))
    sane("--pair A.log missing.log", rc, err, (2,))
    check("missing.log" in err, "--pair A.log missing.log: names the missing one", err)


# ---------- 随机变异（固定种子） ----------
def load_cli():
    loader = importlib.machinery.SourceFileLoader("verbs_check_cli", VC)
    spec = importlib.util.spec_from_loader("verbs_check_cli", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def call(cli, args):
    """在这个进程里运行 verbs-check（快：几百次不用每次启动 Python）；异常原样变成 traceback 文字"""
    err, saved = io.StringIO(), sys.argv
    sys.argv = [VC, "--lang", "en"] + args
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = cli.main()
    except SystemExit as e:
        rc = e.code
    except Exception:   # noqa: BLE001  这就是要找的：一个 traceback
        import traceback
        rc = "exception"
        err.write("Traceback\n" + traceback.format_exc())
    finally:
        sys.argv = saved
    return rc, err.getvalue()


def mutate(rnd, data):
    kind = rnd.choice(("truncate", "flip", "drop", "dup"))
    lines = data.split(b"\n")
    if kind == "truncate":
        at = rnd.randrange(1, len(data))
        return kind, data[:at], (at, data[:at])
    if kind == "flip":
        b = bytearray(data)
        for _ in range(rnd.randint(1, 8)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        return kind, bytes(b), None
    i = rnd.randrange(max(len(lines) - 1, 1))
    if kind == "drop":
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return kind, b"\n".join(lines), None


def t_fuzz(d):
    cli = load_cli()
    rnd = random.Random(SEED)
    cases = ["rc-nogrh", "ours", "rc", "ud", "srq"]
    weights = [8, 8, 1, 1, 1]        # 小的日志多变几次：时间花在变异上而不是解析上
    bad, cut_named, cut_total = [], 0, 0
    t0 = time.time()
    for n in range(VARIANTS):
        case = rnd.choices(cases, weights)[0]
        dst = os.path.join(d, "fuzz%d" % n)
        dst, paths = copy_pair(dst, case)
        victim = rnd.choice(paths)
        data = open(victim, "rb").read()
        kind, new, cut = mutate(rnd, data)
        open(victim, "wb").write(new)
        args = ["--pair", dst] if rnd.random() < 0.7 else ["--judge", victim]
        rc, err = call(cli, args)
        ok = rc in EXITS and "Traceback" not in err and "internal error" not in err and not CJK.search(err)
        if ok and cut and b"\n" in cut[1] and not cut[1].endswith(b"\n"):
            cut_total += 1
            line = cut[1].count(b"\n") + 1
            if names_cut(err, victim, line):
                cut_named += 1
            else:
                ok = False
        if not ok:
            bad.append("variant %d (%s %s of %s, %s): exit %s\n%s" % (n, kind, cut[0] if cut else "",
                                                                        os.path.basename(victim), args[0], rc, err[-1200:]))
        shutil.rmtree(dst)
    secs = time.time() - t0
    check(not bad, "%d seeded mutations (seed %d) of the lab logs: no traceback, exit in %s" % (VARIANTS, SEED, list(EXITS)),
          "%d bad; first: %s" % (len(bad), bad[0] if bad else ""))
    check(cut_total and cut_named == cut_total, "the truncated ones (%d with a cut inside a line after the first): each names its cut line"
          % cut_total, "%d of %d named" % (cut_named, cut_total))
    print("# the mutation loop took %.1f s" % secs)


def main():
    with tempfile.TemporaryDirectory() as d:
        for t in (t_truncated, t_empty, t_garbage, t_foreign_version, t_bad_lines, t_huge, t_dirs, t_fuzz):
            sub = os.path.join(d, t.__name__)
            os.makedirs(sub)
            try:
                t(sub)
            except Exception as e:   # noqa: BLE001  测试自己的错误也要说出来，不要让后面的检查不运行
                check(False, "%s ran to the end" % t.__name__, repr(e))
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
