#!/usr/bin/env python3
"""tests/trace/lab-check.py DIR NAME... - check the traces the programs wrote (--trace) against the capture

For each scenario NAME in DIR (written by tests/lab/trace-scenarios.sh: NAME-server.jsonl,
NAME-client.jsonl, NAME-server.log, NAME-client.log, NAME.pcap, NAME.rnr), independently of
tools/trace/render:
  - every line is a v2 event with role, t_real, t_mono; the last one is "end" with the exit code;
  - every posted WR has its packets: dest QPN = the WR's dest_qpn, PSN in [psn_first, psn_first+npkts)
    mod 2^24, sent from this side's IP (its GID) to the other side's; all npkts request PSNs for
    SEND/WRITE, the request and all npkts responses for READ, request and AtomicAckETH for atomics
    (rkey: the NAKed request may stop after its first packet);
  - the PSN each side printed at step 8 (console "起始PSN=") is the psn_first of its first WR on that QP
    and the PSN of the first request packet that QP sent;
  - per scenario: late-recv = RNR NAK on the wire, the SEND sent again, rxe's RNR counters went up,
    both sides succeeded; rkey = NAK REM_ACCESS_ERR and a failed WC; read = Response First/Middle/Last;
    fetch_add = FetchAdd + ATOMIC Acknowledge.
  --plain: DIR/plain-*.log (the write scenario without --trace) equals DIR/write-*.log once the
    values that differ on every run (QPN, PSN, keys, addresses, times) are masked.
Prints "ok ..." / "not ok ..." lines, exits 1 if any failed.
"""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402  tests/lib/tap.py：共用的 check

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MASK = 0xffffff
check = tap.Checks()


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def packets_of(pcap):
    out = subprocess.run([os.path.join(ROOT, "tools/trace/decode"), pcap], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def ip_of(trace):
    for e in trace:
        if e["ev"] == "verbs" and e.get("call") == "ibv_query_gid_table":
            return e["res"]["gid"].replace("::ffff:", "")
    return None


def in_range(psn, first, n):
    return (psn - first) & MASK < n


def is_request(p):
    return "Acknowledge" not in p["opname"] and "Response" not in p["opname"]


def console_psns(log):
    """{qp: start psn} from 'QP[i]: qp_num=0x..  起始PSN=0x..'"""
    out = {}
    with open(log, encoding="utf-8") as f:
        for m in re.finditer(r"^QP\[(\d+)\]: qp_num=0x[0-9a-f]+  起始PSN=0x([0-9a-f]+)", f.read(), re.M):
            out[int(m.group(1))] = int(m.group(2), 16)
    return out


def check_events(name, role, trace, want_exit):
    bad = [e for e in trace if e.get("v") != 2 or e.get("role") != role or "t_real" not in e
           or not isinstance(e.get("t_mono"), float)]
    check(not bad and trace and trace[0]["ev"] == "start" and trace[-1]["ev"] == "end",
          "%s %s: %d events, all v2 with role and both timestamps, start … end" % (name, role, len(trace)),
          json.dumps(bad[:1], ensure_ascii=False) if bad else "")
    check(trace[-1].get("exit") == want_exit, "%s %s: end exit=%s" % (name, role, want_exit),
          "" if trace[-1].get("exit") == want_exit else "got %s" % trace[-1].get("exit"))


def check_errors(name, role, trace, log):
    """every console error ("错误: ...") is an error event with the same text and hint.
    The program hands (error, hint) to the trace as it prints them (con_error/con_hint), so an event's text can run over
    several console lines: the error is every line from "错误: " up to the hint (or the next "错误: "/end of the
    error's own lines), the hint every line from "提示: " up to the next line that starts a new message."""
    with open(log, encoding="utf-8") as f:
        lines = f.read().splitlines()
    want = []
    for i, l in enumerate(lines):
        if l.startswith("错误: "):
            hint = None
            for j in range(i + 1, len(lines)):
                if lines[j].startswith("提示: "):
                    hint = lines[j][len("提示: "):]
                    break
                if not lines[j].startswith(" "):
                    break
            want.append((l[len("错误: "):], hint))
    got = [(e["msg"].split("\n")[0], e["hint"].split("\n")[0] if e.get("hint") else None)
           for e in trace if e["ev"] == "error"]
    check(got == want, "%s %s: %d console errors = error events (text and hint)" % (name, role, len(want)),
          "" if got == want else "console %s, trace %s" % (want, got))


def check_wrs(name, role, trace, ip, peer_ip, pkts, partial):
    posts = [e for e in trace if e["ev"] == "post_send"]
    missing = []
    for e in posts:
        first, n, dq = e["psn_first"], e["npkts"], e["dest_qpn"]
        req = {p["psn"] for p in pkts if p["src"] == ip and p["dst"] == peer_ip and p["dqpn"] == dq
               and is_request(p) and in_range(p["psn"], first, n)}
        resp = {p["psn"] for p in pkts if p["src"] == peer_ip and p["dst"] == ip and p["dqpn"] == e["qpn"]
                and not is_request(p) and in_range(p["psn"], first, n)}
        op = e["opcode"]
        if op == "RDMA_READ":
            ok = req == {first} and len(resp) == n
        elif op.startswith("ATOMIC") and partial:
            ok = first in req
        elif op.startswith("ATOMIC"):
            ok = req == {first} and any(p["opname"] == "RC ATOMIC Acknowledge" and p["psn"] == first
                                        and p["dst"] == ip for p in pkts)
        elif partial:
            ok = first in req
        else:
            ok = len(req) == n
        if not ok:
            missing.append("QP%d %s psn 0x%06x+%d: req %s resp %s" % (e["qp"], op, first, n, sorted(req), sorted(resp)))
    check(not missing, "%s %s: each of %d posted WRs has its packets" % (name, role, len(posts)), "; ".join(missing[:3]))
    # the PSN ranges of one QP's WRs follow each other without overlap, and every request packet this side
    # sent falls into one of them
    overlap, stray = [], []
    for dq in {e["dest_qpn"] for e in posts}:
        mine = [e for e in posts if e["dest_qpn"] == dq]
        psns = [(e["psn_first"] + k) & MASK for e in mine for k in range(e["npkts"] if e["opcode"] != "RDMA_READ" else 1)]
        if len(set(psns)) != len(psns):
            overlap.append("dest QPN %d: %d PSNs, %d distinct" % (dq, len(psns), len(set(psns))))
        for p in pkts:
            if p["src"] == ip and p["dst"] == peer_ip and p["dqpn"] == dq and is_request(p) and p["psn"] not in psns:
                stray.append("frame %d psn 0x%06x" % (p["frame"], p["psn"]))
        # READ responses come back to this QP, one PSN each, all inside the READ's npkts
        qpn = mine[0]["qpn"]
        full = {(e["psn_first"] + k) & MASK for e in mine for k in range(e["npkts"])}
        for p in pkts:
            if p["src"] == peer_ip and p["dst"] == ip and p["dqpn"] == qpn and "READ Response" in p["opname"] \
                    and p["psn"] not in full:
                stray.append("response frame %d psn 0x%06x" % (p["frame"], p["psn"]))
    check(not overlap and not stray, "%s %s: WR PSN ranges disjoint, every request packet inside one" % (name, role),
          "; ".join((overlap + stray)[:3]))
    return posts


def check_start_psn(name, role, log, posts, ip, pkts):
    printed = console_psns(log)
    bad = []
    seen = 0
    for qp, psn in printed.items():
        mine = [e for e in posts if e["qp"] == qp]
        if not mine:
            continue
        seen += 1
        dq = mine[0]["dest_qpn"]
        reqs = sorted((p for p in pkts if p["src"] == ip and p["dqpn"] == dq and is_request(p)), key=lambda p: p["frame"])
        if mine[0]["psn_first"] != psn or not reqs or reqs[0]["psn"] != psn:
            bad.append("QP%d printed 0x%06x, trace 0x%06x, wire %s" % (qp, psn, mine[0]["psn_first"],
                                                                       "0x%06x" % reqs[0]["psn"] if reqs else "none"))
    if seen:
        check(not bad, "%s %s: first PSN on the wire = PSN printed at step 8 (%d QPs)" % (name, role, seen), "; ".join(bad))


def rxe_before_6_1(d):
    """the guest's kernel (trace-scenarios.sh writes uname -r to DIR/kernel) is older than 6.1: rxe there neither
    executes atomics nor NAKs a wrong rkey; the requester retries and ends in RETRY_EXC_ERR (docs/KERNELS.md)"""
    try:
        with open(os.path.join(d, "kernel")) as f:
            m = re.match(r"(\d+)\.(\d+)", f.read())
    except OSError:
        return False
    return bool(m) and (int(m.group(1)), int(m.group(2))) < (6, 1)


def check_silent_responder(name, c, pkts, req_name):
    """old rxe: no NAK and no atomic ACK on the wire, the request sent again, the client's WC is RETRY_EXC_ERR"""
    kinds = {(p.get("aeth") or {}).get("kind") for p in pkts}
    reqs = [p["psn"] for p in pkts if p["opname"].startswith(req_name)]
    bad_wc = [e for e in c if e["ev"] == "wc" and e["status"] == "transport retry counter exceeded"]
    check("NAK" not in kinds and "RC ATOMIC Acknowledge" not in {p["opname"] for p in pkts}
          and len(reqs) > len(set(reqs)) and len(bad_wc) == 1,
          "%s (kernel before 6.1): no NAK/ATOMIC Acknowledge, %s sent %d times, a RETRY_EXC_ERR WC"
          % (name, req_name, len(reqs)), "aeth %s, %d WCs" % (sorted(k for k in kinds if k), len(bad_wc)))


def scenario(d, name):
    s = load(os.path.join(d, name + "-server.jsonl"))
    c = load(os.path.join(d, name + "-client.jsonl"))
    pkts = packets_of(os.path.join(d, name + ".pcap"))
    sip, cip = ip_of(s), ip_of(c)
    old = rxe_before_6_1(d)
    fails = name == "rkey" or (old and name == "fetch_add")
    check_events(name, "server", s, 1 if fails else 0)
    check_events(name, "client", c, 1 if fails else 0)
    check(len(pkts) > 0 and sip and cip, "%s: %d packets captured, IPs %s / %s" % (name, len(pkts), sip, cip))
    for role, tr, ip, peer in (("server", s, sip, cip), ("client", c, cip, sip)):
        check_errors(name, role, tr, os.path.join(d, "%s-%s.log" % (name, role)))
        posts = check_wrs(name, role, tr, ip, peer, pkts, partial=fails)
        check_start_psn(name, role, os.path.join(d, "%s-%s.log" % (name, role)), posts, ip, pkts)
    kinds = [(p.get("aeth") or {}).get("kind") for p in pkts]
    names = {p["opname"] for p in pkts}
    if name == "late-recv":
        with open(os.path.join(d, name + ".rnr")) as f:
            before, after = map(int, f.read().split())
        sends = [p["psn"] for p in pkts if p["opname"].startswith("RC SEND")]
        check("RNR_NAK" in kinds and len(sends) > len(set(sends)) and after > before,
              "late-recv: RNR NAK on the wire, the SEND sent again, rxe RNR counters %d → %d" % (before, after),
              "aeth %s, SEND psns %s" % (sorted({k for k in kinds if k}), sends))
    if old and name in ("rkey", "fetch_add"):
        check_silent_responder(name, c, pkts, "RC RDMA WRITE First" if name == "rkey" else "RC FetchAdd")
        return
    if name == "rkey":
        naks = [p["aeth"].get("nak") for p in pkts if (p.get("aeth") or {}).get("kind") == "NAK"]
        bad_wc = [e for e in c if e["ev"] == "wc" and e["status"] == "remote access error"]
        check(naks == ["REM_ACCESS_ERR"] and len(bad_wc) == 1, "rkey: NAK REM_ACCESS_ERR and a failed WC",
              "%s, %d WCs" % (naks, len(bad_wc)))
    if name == "read":
        check({"RC RDMA READ Request", "RC RDMA READ Response First", "RC RDMA READ Response Middle",
               "RC RDMA READ Response Last"} <= names, "read: Request + Response First/Middle/Last", str(sorted(names)))
    if name == "fetch_add":
        check({"RC FetchAdd", "RC ATOMIC Acknowledge"} <= names, "fetch_add: FetchAdd + ATOMIC Acknowledge", str(sorted(names)))


def masked(path):
    with open(path, encoding="utf-8") as f:
        t = f.read()
    t = re.sub(r" --trace \S+", "", t)
    # 客户端比服务端先到时会打印一行“连接…被拒绝…重试”：这取决于两个进程谁先启动，不是 --trace 造成的
    t = re.sub(r"(?m)^连接 \S+ 被拒绝（服务端可能还没开始监听）.*\n", "", t)
    t = re.sub(r"0x[0-9a-fA-F]+", "0x_", t)
    t = re.sub(r"\d+\.\d+", "_._", t)
    return t


def plain(d):
    for role in ("server", "client"):
        a, b = masked(os.path.join(d, "write-%s.log" % role)), masked(os.path.join(d, "plain-%s.log" % role))
        diff = [(x, y) for x, y in zip(a.splitlines(), b.splitlines()) if x != y]
        check(a == b and len(a) > 1000, "console of %s with --trace = without (masked, %d lines)" % (role, a.count("\n")),
              "" if a == b else "first difference: %s" % (diff[:1] or "length %d vs %d" % (len(a), len(b))))


def main():
    args = sys.argv[1:]
    d = args.pop(0)
    for name in args:
        if name == "--plain":
            plain(d)
        else:
            scenario(d, name)
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
