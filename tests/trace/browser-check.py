#!/usr/bin/env python3
"""tests/trace/browser-check.py - open a rendered trace.html in a real browser (headless chromium) and check the DOM

    browser-check.py --html trace.html --trace S.jsonl --trace C.jsonl --packets P.jsonl|P.pcap
                     [--txt trace.txt] [--png OUT.png] [--chromium PATH]

What it checks, on the DOM chromium built after running the page's own JavaScript:
  - both lanes are there (server rdma_server, client rdma_client);
  - every trace event is one row in its lane (count per lane = lines of that trace file);
  - every captured packet is one packet row, with the same frame numbers;
  - every packet row tied to a WR names a WR that has its post_send row on the page;
  - one section per step the traces printed;
  - the JavaScript works: a click on the first highlighted QPN marks more than one place (the step-11
    value and where it reappears), a click on a packet row opens the detail panel with its raw JSON;
  - with --txt: trace.txt's header counts (events per side, packets) equal the page's.
With --png: a screenshot (1280 wide), checked to be a PNG of that width that is not blank.
With --readme-png OUT --readme-step N: the picture for the README, the same page with only the header,
the step-11 table and step N's section (the other steps hidden), checked the same way.
Prints one line per check ("ok ..." / "not ok ..."), exits 1 if any failed.
"""
import argparse
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402  tests/lib/tap.py：共用的 check

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# appended to a copy of the page: exercise the page's click handlers, leave the results in the DOM
PROBE = r"""
<script>
(function(){
  function click(el){ el.dispatchEvent(new MouseEvent('click', {bubbles:true, cancelable:true})); }
  var r = {};
  var q = document.querySelector('svg .hl.qpn') || document.querySelector('.hl.qpn');
  if(q){ click(q); r.hl_key = q.getAttribute('data-k'); r.hl_on = document.querySelectorAll('.hl.on').length; }
  var p = document.querySelector('g.pkt');
  if(p){ click(p.querySelector('rect') || p); r.detail_open = document.getElementById('detail').classList.contains('open');
         r.detail_text = document.getElementById('detail-body').textContent.length;
         r.detail_frame = p.getAttribute('data-frame'); }
  document.body.setAttribute('data-probe', JSON.stringify(r));
})();
</script>
"""


class Dom(html.parser.HTMLParser):
    """collects the rows (<g data-row>), step sections, the lanes' text and the probe result"""

    def __init__(self):
        super().__init__()
        self.rows = []
        self.sections = []
        self.probe = None
        self.in_lanes = 0
        self.lanes_text = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body" and "data-probe" in a:
            self.probe = json.loads(a["data-probe"])
        if tag == "g" and "data-row" in a:
            self.rows.append(a)
        if tag == "section" and a.get("id", "").startswith("sec-"):
            self.sections.append(a.get("data-step"))
        if tag == "div" and a.get("id") == "lanes":
            self.in_lanes = 1
        elif self.in_lanes and tag == "div":
            self.in_lanes += 1

    def handle_endtag(self, tag):
        if self.in_lanes and tag == "div":
            self.in_lanes -= 1

    def handle_data(self, data):
        if self.in_lanes:
            self.lanes_text += data


def run_chromium(exe, args, timeout=120):
    profile = tempfile.mkdtemp(prefix="trace-chromium-")
    cmd = [exe, "--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           "--user-data-dir=" + profile]
    if os.geteuid() == 0:
        cmd.append("--no-sandbox")      # chromium refuses to run as root with its sandbox
    try:
        return subprocess.run(cmd + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def load_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def load_packets(path):
    if path.endswith(".jsonl"):
        return load_lines(path)
    out = subprocess.run([os.path.join(ROOT, "tools/trace/decode"), path], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def png_info(path):
    """(width, height, distinct byte values in the decompressed image data)"""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    w, h = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    return w, h, len(set(raw[:2000000]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--trace", action="append", required=True)
    ap.add_argument("--packets", required=True)
    ap.add_argument("--txt")
    ap.add_argument("--png")
    ap.add_argument("--readme-png")
    ap.add_argument("--readme-step", default="15")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()
    check = tap.Checks()

    traces = {}
    for t in a.trace:
        ev = load_lines(t)
        traces[ev[0]["role"]] = ev
    packets = load_packets(a.packets)

    tmp = tempfile.mkdtemp(prefix="trace-browser-")
    try:
        page = os.path.join(tmp, "probe.html")
        with open(a.html, encoding="utf-8") as f:
            text = f.read()
        with open(page, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", PROBE + "</body>", 1))
        p = run_chromium(a.chromium, ["--dump-dom", "file://" + page])
        dom = p.stdout.decode("utf-8", "replace")
        check(p.returncode == 0 and "<svg" in dom, "chromium --dump-dom ran", "rc=%d" % p.returncode if p.returncode == 0 else p.stderr.decode()[-300:])
        d = Dom()
        d.feed(dom)

        check("服务端 rdma_server" in d.lanes_text and "客户端 rdma_client" in d.lanes_text, "two lanes",
              repr(d.lanes_text[:120]))
        for role, ev in traces.items():
            n = sum(1 for r in d.rows if "lane-" + role in r.get("class", "").split())
            check(n == len(ev), "%s lane: one row per trace event" % role, "%d rows, %d events" % (n, len(ev)))
        pkt_rows = [r for r in d.rows if "pkt" in r.get("class", "").split()]
        frames = sorted(int(r["data-frame"]) for r in pkt_rows)
        check(frames == sorted(int(p["frame"]) for p in packets), "one packet row per captured packet",
              "%d rows, %d packets" % (len(pkt_rows), len(packets)))
        posted = {r.get("data-wr") for r in d.rows if r.get("data-ev") == "post_send"}
        tied = [r.get("data-wr") for r in pkt_rows if r.get("data-wr")]
        check(tied and all(w in posted for w in tied), "packets tied to WRs that are on the page",
              "%d of %d packets tied, WRs %s" % (len(tied), len(pkt_rows), " ".join(sorted(set(tied)))[:200]))
        steps = {str(e["n"]) for ev in traces.values() for e in ev if e["ev"] == "step"}
        # section 0 holds what comes before step 1 (the start event)
        check(set(d.sections) - {"0"} == steps, "one section per step", "%d steps" % len(steps)
              if set(d.sections) - {"0"} == steps else "%s vs %s" % (sorted(d.sections), sorted(steps)))
        pr = d.probe or {}
        check(pr.get("hl_on", 0) > 1, "click on a QPN highlights where it reappears",
              "%s marked %s places" % (pr.get("hl_key"), pr.get("hl_on")))
        check(pr.get("detail_open") is True and pr.get("detail_text", 0) > 50,
              "click on a packet opens its details", "frame %s, %s characters" % (pr.get("detail_frame"), pr.get("detail_text")))
        if a.txt:
            with open(a.txt, encoding="utf-8") as f:
                head = f.read(4000)
            for role, name in (("server", "服务端"), ("client", "客户端")):
                m = re.search(r"^%s: .*，(\d+) 个事件）" % name, head, re.M)
                n = sum(1 for r in d.rows if "lane-" + role in r.get("class", "").split())
                if role in traces:
                    check(m is not None and int(m.group(1)) == n, "trace.txt and page agree: %s events" % role,
                          "txt %s, page %d" % (m.group(1) if m else "?", n))
            m = re.search(r"(\d+) 个 RoCE v2 包", head)
            check(m is not None and int(m.group(1)) == len(pkt_rows), "trace.txt and page agree: packets",
                  "txt %s, page %d" % (m.group(1) if m else "?", len(pkt_rows)))
        if a.png:
            screenshot(a.chromium, a.html, a.png, 1280, 1400, check)
        if a.readme_png:
            short = os.path.join(tmp, "readme.html")
            hide = ("<style>section.step:not(#sec-%s){display:none}#wrs,#detail{display:none}</style>"
                    % a.readme_step)
            with open(short, "w", encoding="utf-8") as f:
                f.write(text.replace("</head>", hide + "</head>", 1))
            screenshot(a.chromium, short, a.readme_png, 1280, 1150, check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_code()


def screenshot(exe, page, out, width, height, check):
    p = run_chromium(exe, ["--screenshot=" + os.path.abspath(out), "--window-size=%d,%d" % (width, height),
                           "file://" + os.path.abspath(page)])
    info = png_info(out) if os.path.exists(out) else None
    check(info is not None and info[0] == width and info[2] > 20, "screenshot " + out,
          "%s, %s bytes" % (info, os.path.getsize(out) if os.path.exists(out) else 0)
          if info else p.stderr.decode()[-300:])


if __name__ == "__main__":
    sys.exit(main())
