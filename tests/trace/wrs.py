#!/usr/bin/env -S python3 -S
"""tests/trace/wrs.py - facts the test checks the renderer against, read straight from the fixtures.

  wrs.py TRACE.jsonl                 one line per post_send: LABEL OPCODE PSN_FIRST NPKTS DEST_QPN LEN
                                     (LABEL as the renderer names it: C.QP0#1 = client QP[0], 1st WR)
  wrs.py --frames TRACE PACKETS      one line per WR: LABEL REQUEST_FRAMES RESPONSE_FRAMES, found here
                                     independently of tools/trace/render (dest QPN + PSN range mod 2^24)
  wrs.py --shift SECONDS FILE [EV]   the file with every t_mono/t_real/t moved by SECONDS (another clock);
                                     with EV only the events of that type (a clock that lies)
  wrs.py --hello TRACE               ROLE QP QPN PSN of the local HELLO (step 11)
  wrs.py --all DIR NAME...           all of the above for every fixture, one process (the test is run
                                     on slow machines where every process start counts), lines:
                                       NAME wr LABEL OPCODE PSN_FIRST NPKTS DEST_QPN LEN QPN RKEY
                                       NAME frames LABEL REQUEST_FRAMES RESPONSE_FRAMES
                                       NAME hello ROLE QP QPN PSN IP
                                       NAME mr ROLE ADDR RKEY        (the MR announced in the HELLO)
                                       NAME packets COUNT
                                       NAME dqpn_to QPN IP COUNT    (packets sent to that QPN at that IP)
                                       NAME orig VALUE              (AtomicAckETH original values)
                                       NAME imm VALUE               (ImmDt values)
                                       NAME accepted FRAME          (last SEND copy before the first ACK)
"""
import datetime
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(l) for l in fh if l.strip()]


def wrs(path):
    out = []
    seq = {}
    for e in load(path):
        if e.get("ev") != "post_send":
            continue
        q = e["qp"]
        seq[q] = seq.get(q, 0) + 1
        label = "%s.QP%d#%d" % ("S" if e["role"] == "server" else "C", q, seq[q])
        out.append((label, e["opcode"], e["psn_first"], e["npkts"], e["dest_qpn"], e["len"], e["qpn"],
                    e.get("rkey", "-")))
    return out


def frame_lines(trace, packets):
    """Requests go to the peer's IP, responses come back to this host's IP (both sides can have the same
    QPN, and even the same PSNs: seen in the send fixture)."""
    pk = load(packets)
    own = [ip for _, _, _, _, ip in hello_lines(trace)][:1] or [None]
    for label, op, first, n, dest, _, qpn, _ in wrs(trace):
        req = [p["frame"] for p in pk if p["dqpn"] == dest and ((p["psn"] - first) & 0xFFFFFF) < n
               and (p["opcode"] & 0x1F) not in range(0x0D, 0x13) and p["dst"] != own[0]]
        resp = [p["frame"] for p in pk if p["dqpn"] == qpn and ((p["psn"] - first) & 0xFFFFFF) < n
                and (p["opcode"] & 0x1F) in range(0x0D, 0x13) and p["dst"] == own[0]]
        yield label, ",".join("#%d" % f for f in req) or "-", ",".join("#%d" % f for f in resp) or "-"


def frames(trace, packets):
    for line in frame_lines(trace, packets):
        print(*line)


def hello_lines(path):
    for e in load(path):
        if e.get("ev") == "ctrl_send" and e.get("msg") == "HELLO":
            for i, q in enumerate(e["hello"]["qps"]):
                g = q.get("gid", "")
                yield e["role"], i, q["qpn"], q["psn"], g.replace("::ffff:", "")


def everything(d, names):
    for name in names:
        pk = load("%s/%s.packets.jsonl" % (d, name))
        print(name, "packets", len(pk))
        counts = {}
        for p in pk:
            counts[(p["dqpn"], p["dst"])] = counts.get((p["dqpn"], p["dst"]), 0) + 1
        for (q, ip), c in sorted(counts.items()):
            print(name, "dqpn_to", q, ip, c)
        for p in pk:
            if "atomic_ack" in p:
                print(name, "orig", p["atomic_ack"]["orig"])
            if "imm" in p:
                print(name, "imm", p["imm"])
        acks = [p["frame"] for p in pk if p.get("aeth", {}).get("kind") == "ACK"]
        sends = [p["frame"] for p in pk if p["opcode"] in (0, 1, 2, 3, 4, 5) and acks and p["frame"] < acks[0]]
        if sends:
            print(name, "accepted", sends[-1])
        for role in ("server", "client"):
            trace = "%s/%s.%s.jsonl" % (d, name, role)
            for w in wrs(trace):
                print(name, "wr", *w)
            for line in frame_lines(trace, "%s/%s.packets.jsonl" % (d, name)):
                print(name, "frames", *line)
            for line in hello_lines(trace):
                print(name, "hello", *line)
            for e in load(trace):
                if e.get("ev") == "ctrl_send" and e.get("msg") == "HELLO":
                    print(name, "mr", role, e["hello"]["addr"], e["hello"]["rkey"])


def shift(seconds, path, only=None):
    for e in load(path):
        if only is not None and e.get("ev") != only:
            print(json.dumps(e, ensure_ascii=False, separators=(",", ":")))
            continue
        if "t_mono" in e:
            e["t_mono"] = round(e["t_mono"] + seconds, 6)
        if "t" in e:
            e["t"] = round(e["t"] + seconds, 6)
        if "t_real" in e:
            t = datetime.datetime.strptime(e["t_real"], "%Y-%m-%dT%H:%M:%S.%fZ") + datetime.timedelta(seconds=seconds)
            e["t_real"] = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        print(json.dumps(e, ensure_ascii=False, separators=(",", ":")))


def hello(path):
    for line in hello_lines(path):
        print(*line)


def main():
    a = sys.argv[1:]
    if a[:1] == ["--frames"]:
        frames(a[1], a[2])
    elif a[:1] == ["--shift"]:
        shift(float(a[1]), a[2], a[3] if len(a) > 3 else None)
    elif a[:1] == ["--hello"]:
        hello(a[1])
    elif a[:1] == ["--all"]:
        everything(a[1], a[2:])
    else:
        for w in wrs(a[0]):
            print(*w)


if __name__ == "__main__":
    main()
