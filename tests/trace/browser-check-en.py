#!/usr/bin/env python3
"""tests/trace/browser-check-en.py - the English trace.html (traces with "lang":"en") in headless chromium

    browser-check-en.py --html trace.html --trace S.jsonl --trace C.jsonl --packets P.jsonl
                        [--txt trace.txt] [--png OUT.png] [--chromium PATH]

The checks of tests/trace/browser-check.py on the DOM chromium built after running the page's JavaScript
(it drives chromium the same way), with the page's English labels: <html lang="en">; the lanes "server
rdma_server" / "client rdma_client"; one row per trace event in its lane; one packet row per captured
packet; a click on a QPN marks where it reappears; a click on a packet opens its details, whose button says
"close"; not one Chinese character in the DOM (the English traces carry none either); with --txt: trace.txt's
header counts equal the page's. --png: a screenshot (1280 wide), checked not to be blank.
One line per check ("ok ..." / "not ok ..."), exit 1 if any failed.
"""
import argparse
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
CJK = re.compile("[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# after the probe of browser-check.py: the text of the detail panel's button
PROBE_CLOSE = r"""
<script>
(function(){
  var r = JSON.parse(document.body.getAttribute('data-probe') || '{}');
  var b = document.getElementById('detail-close');
  r.close = b ? b.textContent : null;
  document.body.setAttribute('data-probe', JSON.stringify(r));
})();
</script>
"""


def base():
    loader = importlib.machinery.SourceFileLoader("trace_browser_check", os.path.join(HERE, "browser-check.py"))
    spec = importlib.util.spec_from_loader("trace_browser_check", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--trace", action="append", required=True)
    ap.add_argument("--packets", required=True)
    ap.add_argument("--txt")
    ap.add_argument("--png")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()
    tb = base()
    check = tap.Checks()

    traces = {}
    for t in a.trace:
        ev = tb.load_lines(t)
        traces[ev[0]["role"]] = ev
    packets = tb.load_packets(a.packets)
    tmp = tempfile.mkdtemp(prefix="trace-browser-en-")
    try:
        page = os.path.join(tmp, "probe.html")
        with open(a.html, encoding="utf-8") as f:
            text = f.read()
        with open(page, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", tb.PROBE + PROBE_CLOSE + "</body>", 1))
        p = tb.run_chromium(a.chromium, ["--dump-dom", "file://" + page])
        dom = p.stdout.decode("utf-8", "replace")
        check(p.returncode == 0 and "<svg" in dom, "English page: chromium --dump-dom ran",
              "" if p.returncode == 0 else p.stderr.decode()[-300:])
        d = tb.Dom()
        d.feed(dom)
        check(re.search(r'<html lang="en"', dom) is not None, "English page: <html lang=\"en\">")
        check("server rdma_server" in d.lanes_text and "client rdma_client" in d.lanes_text, "English page: two lanes",
              repr(d.lanes_text[:120]))
        found = CJK.findall(dom)
        check(not found, "English page: no Chinese character in the DOM", "".join(found)[:40])
        for role, ev in traces.items():
            n = sum(1 for r in d.rows if "lane-" + role in r.get("class", "").split())
            check(n == len(ev), "English page: %s lane: one row per trace event" % role, "%d rows, %d events" % (n, len(ev)))
        pkt_rows = [r for r in d.rows if "pkt" in r.get("class", "").split()]
        frames = sorted(int(r["data-frame"]) for r in pkt_rows)
        check(frames == sorted(int(x["frame"]) for x in packets), "English page: one packet row per captured packet",
              "%d rows, %d packets" % (len(pkt_rows), len(packets)))
        pr = d.probe or {}
        check(pr.get("hl_on", 0) > 1, "English page: click on a QPN highlights where it reappears",
              "%s marked %s places" % (pr.get("hl_key"), pr.get("hl_on")))
        check(pr.get("detail_open") is True and pr.get("detail_text", 0) > 50 and pr.get("close") == "close",
              "English page: click on a packet opens its details (button \"close\")",
              "frame %s, %s characters, button %s" % (pr.get("detail_frame"), pr.get("detail_text"), json.dumps(pr.get("close"))))
        if a.txt:
            with open(a.txt, encoding="utf-8") as f:
                head = f.read(4000)
            for role in traces:
                m = re.search(r"^%s: .*, (\d+) events?\)" % role, head, re.M)
                n = sum(1 for r in d.rows if "lane-" + role in r.get("class", "").split())
                check(m is not None and int(m.group(1)) == n, "English trace.txt and page agree: %s events" % role,
                      "txt %s, page %d" % (m.group(1) if m else "?", n))
            m = re.search(r"(\d+) RoCE v2 packets", head)
            check(m is not None and int(m.group(1)) == len(pkt_rows), "English trace.txt and page agree: packets",
                  "txt %s, page %d" % (m.group(1) if m else "?", len(pkt_rows)))
        if a.png:
            tb.screenshot(a.chromium, a.html, a.png, 1280, 1400, check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
