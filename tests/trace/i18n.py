#!/usr/bin/env -S python3 -S
"""tests/trace/i18n.py - inputs for the language checks of tests/25-trace-render.t (issue 28), one process.

  i18n.py prepare OUT NAME...   from tests/trace/fixtures:
      OUT/en/NAME.{server,client}.jsonl   "lang":"en" in the start record (as src/trace/trace.c writes it) and the
                                          traces' own Chinese text (step titles, errors, hints, res values)
                                          replaced by ASCII: an English run's trace
      OUT/zh/NAME.{server,client}.jsonl   "lang":"zh" added, nothing else changed
      OUT/mixed/write.{server,client}.jsonl  server English, client Chinese (both texts plain)
      OUT/gallery-zh/, OUT/gallery-en/    a one-kind gallery run (the rkey kind of tools/gallery/kinds.txt)
                                          made of the rkey fixture: what lab/gallery.sh writes, plus kinds.txt;
                                          -en has English traces and the console lines the page picks up in
                                          English (the injection's words)
  i18n.py cjk FILE...           every line with a Chinese character (CJK ideographs, CJK and full-width
                                punctuation), as FILE:LINE: text; exit 1 if there is one
"""
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(HERE, "fixtures")
CJK = re.compile("[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")


def plain(v):
    """the same value with every run of Chinese replaced by "~" (what an English run would have had there)"""
    if isinstance(v, str):
        return CJK.sub("~", v)
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def trace(src, dst, lang, strip):
    out = []
    for line in open(src, encoding="utf-8"):
        if not line.strip():
            continue
        e = json.loads(line)
        if strip:
            e = plain(e)
        if e.get("ev") == "start" and lang:
            e["lang"] = lang          # src/trace/trace.c trace_start: the last field of the start record
        out.append(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def console(src, dst, english):
    """a fixture log (each line: read time, TAB, the line) → the console output lab/gallery.sh keeps"""
    out = []
    for line in open(src, encoding="utf-8"):
        text = line.rstrip("\n").split("\t", 1)[-1]
        if english:
            if text.startswith("故障注入(--inject rkey): "):
                m = re.search(r"rkey (0x[0-9a-f]+) 改成 (0x[0-9a-f]+)", text)
                text = ("Fault injection (--inject rkey): deliberately changing the peer's rkey %s to %s; expect the "
                        "peer NIC to deny access (REM_ACCESS_ERR)" % m.groups())
            text = plain(text)
        out.append(text)
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def gallery(d, english):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for r in ("server", "client"):
        trace(os.path.join(FIX, "rkey.%s.jsonl" % r), os.path.join(d, "rkey-%s.jsonl" % r),
              "en" if english else None, english)
        console(os.path.join(FIX, "rkey.%s.log" % r), os.path.join(d, "rkey-%s.log" % r), english)
    shutil.copy(os.path.join(FIX, "rkey.pcap"), os.path.join(d, "gallery.pcap"))
    with open(os.path.join(d, "kernel"), "w") as f:
        f.write("6.1.0-fixture\n")
    with open(os.path.join(d, "rkey.counters"), "w") as f:
        f.write("before rcvd_seq_err=0 duplicate_request=0 \nafter rcvd_seq_err=0 duplicate_request=2 \n")
    with open(os.path.join(ROOT, "tools", "gallery", "kinds.txt"), encoding="utf-8") as f:
        rows = [l for l in f if l.startswith("rkey|")]
    with open(os.path.join(d, "kinds.txt"), "w", encoding="utf-8") as f:
        f.writelines(rows)


def prepare(out, names):
    for name in names:
        for r in ("server", "client"):
            src = os.path.join(FIX, "%s.%s.jsonl" % (name, r))
            trace(src, os.path.join(out, "en", "%s.%s.jsonl" % (name, r)), "en", True)
            trace(src, os.path.join(out, "zh", "%s.%s.jsonl" % (name, r)), "zh", False)
    trace(os.path.join(FIX, "write.server.jsonl"), os.path.join(out, "mixed", "write.server.jsonl"), "en", True)
    trace(os.path.join(FIX, "write.client.jsonl"), os.path.join(out, "mixed", "write.client.jsonl"), "zh", True)
    gallery(os.path.join(out, "gallery-zh"), False)
    gallery(os.path.join(out, "gallery-en"), True)


def cjk(paths):
    bad = 0
    for p in paths:
        for n, line in enumerate(open(p, encoding="utf-8"), 1):
            if CJK.search(line):
                bad += 1
                if bad <= 20:
                    print("%s:%d: %s" % (p, n, line.strip()[:160]))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "prepare":
        prepare(argv[1], argv[2:])
        return 0
    if len(argv) >= 2 and argv[0] == "cjk":
        return cjk(argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
