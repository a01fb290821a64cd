#!/usr/bin/env python3
"""tests/gallery/browser-check.py - open the failure gallery page in headless chromium and check the DOM

    browser-check.py --html index.html --json gallery.json [--png OUT.png] [--section-png KIND OUT.png]

Checks on the DOM chromium built: one summary row and one section per kind of tools/gallery/kinds.txt, in
its order; every section shows each side's error lines from the traces (gallery.json), the verdict on the
wire that the capture gave (data-wire), one packet row per captured packet of that kind, a NAK row when the
verdict is a NAK, and the fix; each side's port counters (--counters) under that side: the read's state
(data-read), one row per moved counter with its delta, as gallery.json has them for that side, and the summary
row's two counter cells. --png: a screenshot of the whole page (1280 wide); --section-png: the page
with only the summary and that kind's section (for docs/). Each screenshot is checked to be a PNG of that
width that is not blank. One line per check, exit 1 if any failed.
"""
import argparse
import html.parser
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402  tests/lib/tap.py：共用的 check

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def trace_check_module():
    """run_chromium / png_info / screenshot of tests/trace/browser-check.py (one way to drive chromium)"""
    path = os.path.join(ROOT, "tests", "trace", "browser-check.py")
    loader = importlib.machinery.SourceFileLoader("trace_browser_check", path)
    spec = importlib.util.spec_from_loader("trace_browser_check", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.summary, self.sections, self.cur, self.stack = [], [], None, []
        self.row_ctr, self.ctr_side, self.td_side = {}, None, None   # 表里每一行的两格计数；节里正在读的那一端

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "")
        if tag == "tr" and "data-kind" in a:
            self.summary.append(a["data-kind"])
        if tag == "td" and "ctr" in cls.split() and self.summary and self.cur is None:
            self.td_side = a.get("data-side")
            self.row_ctr.setdefault(self.summary[-1], {})[self.td_side] = ""
        if tag == "section" and "kind" in cls.split():
            self.cur = {"kind": a.get("data-kind"), "text": "", "wire": None, "pkt_rows": 0, "nak_rows": 0, "fix": False,
                        "ctr": {}}
            self.sections.append(self.cur)
        if self.cur is not None:
            if tag == "p" and "wire" in cls.split():
                self.cur["wire"] = a.get("data-wire")
            if tag == "p" and "fix" in cls.split():
                self.cur["fix"] = True
            if tag == "div" and "ctr" in cls.split():
                self.ctr_side = a.get("data-side")
                self.cur["ctr"][self.ctr_side] = {"read": a.get("data-read"), "dev": a.get("data-dev"), "moved": {}}
            if tag == "tr" and "data-counter" in a and self.ctr_side:
                self.cur["ctr"][self.ctr_side]["moved"][a["data-counter"]] = int(a.get("data-delta", "0"))
            if tag == "tr" and self.stack and "packets" in self.stack[-1]:
                self.cur["pkt_rows"] += 1
                self.cur["nak_rows"] += "nak" in cls.split() or "rnr" in cls.split()
        if tag == "table":
            self.stack.append(cls)

    def handle_endtag(self, tag):
        if tag == "table" and self.stack:
            self.stack.pop()
        if tag == "div" and self.ctr_side and (self.stack == [] or "ctr" not in self.stack[-1]):
            self.ctr_side = None
        if tag == "td":
            self.td_side = None
        if tag == "section":
            self.cur = None

    def handle_data(self, data):
        if self.td_side:
            self.row_ctr[self.summary[-1]][self.td_side] += data
        if self.cur is not None:
            self.cur["text"] += data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--png")
    ap.add_argument("--section-png", nargs=2, metavar=("KIND", "OUT"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()
    tb = trace_check_module()
    g = json.load(open(a.json, encoding="utf-8"))
    kinds = [k["name"] for k in g["kinds"]]
    check = tap.Checks()

    page = os.path.abspath(a.html)
    p = tb.run_chromium(a.chromium, ["--dump-dom", "file://" + page])
    dom_text = p.stdout.decode("utf-8", "replace")
    check(p.returncode == 0 and "<section" in dom_text, "chromium --dump-dom ran on the gallery page", p.stderr.decode()[-300:])
    d = Dom()
    d.feed(dom_text)
    check(d.summary == kinds, "summary table: one row per kind, in kinds.txt's order", "%s vs %s" % (d.summary, kinds))
    check([s["kind"] for s in d.sections] == kinds, "one section per kind, in order", str([s["kind"] for s in d.sections]))
    by = {s["kind"]: s for s in d.sections}
    bad = []
    for k in g["kinds"]:
        s = by.get(k["name"])
        if s is None:
            continue
        text = re.sub(r"\s+", " ", s["text"])
        msgs = [er["msg"] for r in ("server", "client") for er in k["sides"][r]["errors"]]
        if not all(re.sub(r"\s+", " ", m) in text for m in msgs) or not msgs:
            bad.append("%s: 错误行" % k["name"])
        if s["wire"] != k["wire"]["kind"]:
            bad.append("%s: data-wire %s ≠ %s" % (k["name"], s["wire"], k["wire"]["kind"]))
        if s["pkt_rows"] != len(k["packets"]) + (1 if k["packets"] else 0):   # + 表头
            bad.append("%s: 包的行 %d ≠ %d" % (k["name"], s["pkt_rows"] - 1, len(k["packets"])))
        if k["wire"]["kind"] in ("NAK", "RNR_NAK") and s["nak_rows"] < 1:
            bad.append("%s: 没有标红的 NAK 行" % k["name"])
        if not s["fix"]:
            bad.append("%s: 没有“怎么修”" % k["name"])
    check(not bad, "every section: both sides' errors from the traces, the wire verdict, one row per packet, the NAK row, the fix",
          "; ".join(bad))
    bad = []
    for k in g["kinds"]:
        s = by.get(k["name"])
        for r in ("server", "client"):
            c = k["sides"][r].get("counters")
            got = (s or {}).get("ctr", {}).get(r)
            read = "none" if c is None else "end" if c.get("present", True) else "absent"
            if got is None or got["read"] != read or got["moved"] != ((c or {}).get("moved") if read == "end" else {}):
                bad.append("%s %s: %s ≠ %s %s" % (k["name"], r, got, read, (c or {}).get("moved")))
            cell = d.row_ctr.get(k["name"], {}).get(r, "")
            if not cell.strip() or any(n not in cell for n in (c or {}).get("moved", {})):
                bad.append("%s %s: 表里的计数格 %r" % (k["name"], r, cell))
    check(not bad, "counters: every section shows each side's own counters (the read's state, one row per moved counter "
          "with its delta) and the summary row names them per side", "; ".join(bad)[:600])
    if a.png:
        tb.screenshot(a.chromium, a.html, a.png, 1280, 2400, check)
    if a.section_png:
        kind, out = a.section_png
        fd, short = tempfile.mkstemp(suffix=".html", dir=os.path.dirname(page))
        os.close(fd)
        try:
            with open(page, encoding="utf-8") as f:
                src = f.read()
            hide = "<style>section.kind:not(#%s){display:none}</style></body>" % kind
            with open(short, "w", encoding="utf-8") as f:
                f.write(src.replace("</body>", hide))
            tb.screenshot(a.chromium, short, out, 1280, 1500, check)   # 两端的计数也在图里
        finally:
            os.unlink(short)
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
