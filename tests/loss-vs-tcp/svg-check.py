#!/usr/bin/env python3
"""tests/loss-vs-tcp/svg-check.py - open the make loss-vs-tcp plot (gnuplot SVG) in headless chromium and check every series has points

    svg-check.py --svg lossy.svg --series ours --series perftest --series iperf3 [--points N | --results results.csv]
                 [--png OUT.png] [--chromium PATH]

The SVG is put inline into a page with a small script; chromium renders it, runs the script and --dump-dom
gives back what the script measured on the rendered picture (getBoundingClientRect, so positions after layout):
  - the plot area = the largest closed border path (gnuplot draws the frame as "M… L… L… L… Z");
  - for each gnuplot_plot_N group: its key text (the series' name), its point symbols (<use>) except the key's
    own sample (the one beside the key text, outside the plot area), the rendered box of each point;
  - whether the series' line has at least one drawn segment inside the plot area.
Checks: every --series is there, has at least --points points (default 2) — with --results (report.sh's
results.csv) exactly as many as that file has rows with a relative throughput for the series —, every point has a non-empty box
inside the plot area, and the line connects them. A series whose data were all missing (gnuplot then draws only
the key sample) fails. With --png: a screenshot (checked to be a PNG 1000 wide that is not blank).
Prints one "ok …" / "not ok …" line per check, exits 1 if any failed.
"""
import argparse
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
_spec = importlib.util.spec_from_file_location("trace_browser_check", os.path.join(ROOT, "tests/trace/browser-check.py"))
bc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bc)   # run_chromium, png_info, screenshot (the trace page's checker)

PROBE = r"""
<script>
(function(){
  function box(el){ var r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }
  var area = null, best = 0;
  document.querySelectorAll('svg path').forEach(function(p){
    var d = (p.getAttribute('d') || '').trim();
    if(!/^M[-\d.]+,[-\d.]+( L[-\d.]+,[-\d.]+){4} Z$/.test(d)) return;
    var b = box(p); if(b[2] * b[3] > best){ best = b[2] * b[3]; area = b; }
  });
  var series = [];
  document.querySelectorAll('svg g[id^="gnuplot_plot_"]').forEach(function(g){
    var t = g.querySelector('text'); var tb = t ? box(t) : null;
    var pts = [], key = 0, at = [];
    g.querySelectorAll('use').forEach(function(u){
      var b = box(u), cx = b[0] + b[2] / 2, cy = b[1] + b[3] / 2;
      if(tb && cx > tb[0] + tb[2] && Math.abs(cy - (tb[1] + tb[3] / 2)) < 8){ key++; return; }
      pts.push(b);
      var m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(u.getAttribute('transform') || '');
      if(m) at.push([+m[1], +m[2]]);
    });
    function isPoint(x, y){ return at.some(function(q){ return Math.abs(q[0] - x) < 0.05 && Math.abs(q[1] - y) < 0.05; }); }
    /* a piece of the line joins two different points (error bars and their caps do not) */
    var segs = 0;
    g.querySelectorAll('path').forEach(function(p){
      var d = p.getAttribute('d') || '', m, re = /([ML])([-\d.]+),([-\d.]+)/g, prev = null;
      while((m = re.exec(d))){
        var x = +m[2], y = +m[3];
        if(m[1] === 'L' && prev && prev[0] !== x && isPoint(prev[0], prev[1]) && isPoint(x, y)) segs++;
        prev = [x, y];
      }
    });
    series.push({id: g.id, name: t ? t.textContent.trim() : '', points: pts, key: key, segments: segs});
  });
  document.body.setAttribute('data-probe', JSON.stringify({area: area, series: series}));
})();
</script>
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--svg", required=True)
    ap.add_argument("--series", action="append", required=True)
    ap.add_argument("--points", type=int, default=2)
    ap.add_argument("--results")
    ap.add_argument("--png")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    a = ap.parse_args()
    check = tap.Checks()

    with open(a.svg, encoding="utf-8") as f:
        svg = f.read()
    svg = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", "", svg)
    tmp = tempfile.mkdtemp(prefix="lossy-svg-")
    try:
        page = os.path.join(tmp, "page.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body style='margin:0'>"
                    + svg + PROBE + "</body></html>")
        p = bc.run_chromium(a.chromium, ["--dump-dom", "file://" + page])
        dom = p.stdout.decode("utf-8", "replace")
        m = re.search(r'data-probe="([^"]*)"', dom)
        check(p.returncode == 0 and m is not None, "chromium rendered " + os.path.basename(a.svg),
              "rc=%d %s" % (p.returncode, p.stderr.decode()[-300:]))
        if not m:
            return 1
        probe = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                           .replace("&gt;", ">"))
        area = probe["area"]
        check(area is not None and area[2] > 100 and area[3] > 100, "the plot area (border) is drawn", str(area))
        by_name = {s["name"]: s for s in probe["series"]}
        want = {}
        if a.results:
            import csv
            with open(a.results, encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    if row["rel"]:
                        want[row["tool"]] = want.get(row["tool"], 0) + 1
        for name in a.series:
            s = by_name.get(name)
            check(s is not None, "series %s is in the plot" % name, "series found: %s" % sorted(by_name))
            if s is None:
                continue
            pts = s["points"]
            if a.results:
                check(len(pts) == want.get(name, 0) and pts, "series %s has %d points (results.csv: %d)"
                      % (name, len(pts), want.get(name, 0)), "key samples: %d" % s["key"])
            else:
                check(len(pts) >= a.points, "series %s has %d points (at least %d)" % (name, len(pts), a.points),
                      "key samples: %d" % s["key"])
            inside = [b for b in pts if area and b[2] > 0 and b[3] > 0
                      and area[0] - 1 <= b[0] + b[2] / 2 <= area[0] + area[2] + 1
                      and area[1] - 1 <= b[1] + b[3] / 2 <= area[1] + area[3] + 1]
            check(pts and len(inside) == len(pts), "series %s: every point is rendered inside the plot area" % name,
                  "%d of %d inside %s" % (len(inside), len(pts), area))
            check(len(pts) < 2 or s["segments"] >= len(pts) - 1, "series %s: the line joins its points" % name,
                  "%d line segments for %d points" % (s["segments"], len(pts)))
        if a.png:
            bc.screenshot(a.chromium, page, a.png, 1000, 560, check)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
