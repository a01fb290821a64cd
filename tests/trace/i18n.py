#!/usr/bin/env -S python3 -S
"""tests/trace/i18n.py - inputs for the language checks of tests/23-host-trace-render.t (issue 28), one process.

  i18n.py prepare OUT NAME...   from tests/trace/fixtures:
      OUT/en/NAME.{server,client}.jsonl   "lang":"en" in the start record (as src/plugins/trace.c writes it) and the
                                          traces' own Chinese text (step titles, errors, hints, res values)
                                          replaced by ASCII: an English run's trace
      OUT/zh/NAME.{server,client}.jsonl   "lang":"zh" added, nothing else changed
      OUT/mixed/write.{server,client}.jsonl  server English, client Chinese (both texts plain)
      OUT/gallery-zh/, OUT/gallery-en/    a one-kind gallery run (the rkey kind of tools/gallery/kinds.txt)
                                          made of the rkey fixture: what lab/gallery.sh writes, plus kinds.txt;
                                          -en has English traces and the console lines the page picks up in
                                          English (the injection's words, the --counters block); both sides'
                                          traces get the "counters" event a --counters run writes (trace v2)
                                          and their logs its block, with what 6.1 measured for this kind
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
            e["lang"] = lang          # src/plugins/trace_hooks.c trace_start: the last field of the start record
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


# rkey 在 6.1 上实测的（docs/GALLERY.md）：两端各收发一个包（请求、NAK）；块的文字照程序打印的（po/en.po 的译文）
CTR_MOVED = {"sent_pkts": 1, "rcvd_pkts": 1}
CTR_BLOCK = {
    False: ["端口计数（--counters）: {dev} 端口 1，数据面开始和结束各读一次 /sys/class/infiniband/{dev}/ports/1/hw_counters"
            "（结束时先等 22 ms：内核把读到的值缓存 lifespan=12 ms）",
            "  rcvd_pkts                     +1  rxe 每收下一个检查都通过的包（包头、QP 号、ICRC）加一；硬件上对应端口计数 port_rcv_packets",
            "  sent_pkts                     +1  rxe 每把一个包交给 IP 层发出就加一（请求、ACK、READ 响应都算）；"
            "硬件上对应端口计数 port_xmit_packets（ports/N/counters/）",
            "  其余 13 个没动"],
    True: ["Port counters (--counters): {dev} port 1, read once at the start and once at the end of the data plane from "
           "/sys/class/infiniband/{dev}/ports/1/hw_counters (waiting 22 ms before the end read: the kernel caches the values "
           "for lifespan=12 ms)",
           "  rcvd_pkts                     +1  rxe adds one for every received packet that passes its checks (headers, QP "
           "number, ICRC); on hardware this is the port counter port_rcv_packets",
           "  sent_pkts                     +1  rxe adds one for every packet it hands to the IP layer (requests, ACKs and READ "
           "responses alike); on hardware this is the port counter port_xmit_packets (ports/N/counters/)",
           "  the other 13 did not move"],
}


def add_counters(trace_path, log_path, dev, english):
    """what --counters adds to a run: the "counters" event before "end" (trace v2), the block at the end of the log"""
    ev = [json.loads(l) for l in open(trace_path, encoding="utf-8") if l.strip()]
    for e in ev:
        e["v"] = 2
    end = next(i for i, e in enumerate(ev) if e["ev"] == "end")
    c = {k: ev[end][k] for k in ("v", "role", "t_real", "t_mono") if k in ev[end]}
    c.update(ev="counters", dev=dev, port=1, scope="data_plane", present=True, lifespan_ms=12, shared=False,
             moved=CTR_MOVED, unreadable=[])
    ev.insert(end, c)
    with open(trace_path, "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in ev))
    with open(log_path, "a", encoding="utf-8") as f:
        f.write("\n".join(l.format(dev=dev) for l in CTR_BLOCK[english]) + "\n")


def gallery(d, english):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for r in ("server", "client"):
        trace(os.path.join(FIX, "rkey.%s.jsonl" % r), os.path.join(d, "rkey-%s.jsonl" % r),
              "en" if english else None, english)
        console(os.path.join(FIX, "rkey.%s.log" % r), os.path.join(d, "rkey-%s.log" % r), english)
        add_counters(os.path.join(d, "rkey-%s.jsonl" % r), os.path.join(d, "rkey-%s.log" % r),
                     "rxe0" if r == "server" else "rxe1", english)
    shutil.copy(os.path.join(FIX, "rkey.pcap"), os.path.join(d, "gallery.pcap"))
    with open(os.path.join(d, "kernel"), "w") as f:
        f.write("6.1.0-fixture\n")
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
