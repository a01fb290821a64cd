#!/usr/bin/env python3
"""tests/gallery/check.py - what the failure gallery measured on real rxe is what the gallery says

    check.py DIR/gallery.json      (written by tools/gallery/render from one lab/gallery.sh run)

One line per check ("ok ..." / "not ok ..."), exit 1 if any failed. For every kind in tools/gallery/kinds.txt:
both sides exit 1; the status each side gets (the first failed completion, or the errno of a refused
ibv_post_send); and the packet that carried the verdict, from the capture: the NAK and its AETH syndrome,
the RNR NAK, the unanswered retransmissions, or no packet at all; and each side's port counters (the
programs' own --counters, the "counters" event of each side's trace): which error counters moved on the
server's device and which on the client's, and each side's sent_pkts against the packets the capture saw
leaving that side. Measured on rxe, kernels 5.10, 6.1 and 6.12 (docs/KERNELS.md, docs/GALLERY.md); where a
kernel differs the expectation says so.
"""
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402  tests/lib/tap.py：共用的 check

def version(kernel):
    m = re.match(r"(\d+)\.(\d+)", kernel)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


# 早于 6.1 的 rxe 对 rkey/MR 权限不对的请求不回 NAK，请求方重传到 RETRY_EXC_ERR（docs/KERNELS.md）
def old_rxe(kernel):
    return version(kernel) < (6, 1)


# sge.lkey 不对：实测 5.10 LOC_PROT_ERR（和硬件一样），6.1 LOC_QP_OP_ERR，6.12 那个 WR 自己就是 WR_FLUSH_ERR
def lkey_status(kernel):
    v = version(kernel)
    return "LOC_PROT_ERR" if v < (6, 1) else "LOC_QP_OP_ERR" if v < (6, 12) else "WR_FLUSH_ERR"


# 客户端的输出里有“提示(内核): ”的种类（rxe 与内核版本有关的那一句，src/verbs/kernel_note.c）
def kernel_note_expected(name, kernel):
    return (name in ("rkey", "mr-access", "qp-access", "flush", "qpn", "psn") and old_rxe(kernel)) or \
           (name == "lkey" and version(kernel) >= (6, 12))


def expect(name, kernel):
    """(server status, client status, wire kind, NAK name or None, retransmissions: None = any, 0, or '>0')"""
    access = ("-", "RETRY_EXC_ERR", "no_answer", None, ">0") if old_rxe(kernel) else \
             ("-", "REM_ACCESS_ERR", "NAK", "REM_ACCESS_ERR", 0)
    return {
        "small-recv": ("LOC_QP_OP_ERR", "REM_OP_ERR", "NAK", "REM_OP_ERR", 0),
        "rnr-retry0": ("-", "RNR_RETRY_EXC_ERR", "RNR_NAK", None, 0),
        "lkey": ("-", lkey_status(kernel), "none", None, 0),
        "rkey": access,
        "mr-access": access,
        "flush": ("WR_FLUSH_ERR", "RETRY_EXC_ERR", "no_answer", None, ">0"),
        "inline": ("-", "errno=22", "none", None, 0),
        "qpn": ("-", "RETRY_EXC_ERR", "no_answer", None, ">0"),
        "psn": ("-", "RETRY_EXC_ERR", "NAK", "PSN_SEQ_ERR", ">0"),
        # QP 没开远端权限：rxe check_op_valid → NAK Invalid Request（0x61）；5.10 不回 NAK（实测 5.10/6.1/6.12）
        "qp-access": ("-", "RETRY_EXC_ERR", "no_answer", None, ">0") if old_rxe(kernel) else
                     ("-", "REM_INV_REQ_ERR", "NAK", "INV_REQ", 0),
    }.get(name)


# 每一端设备上动了的“错误”计数（收发包、完成数和 ack_deferred 以外的，src/plugins/counters.c 的含义表）：
# {计数: 差值或 (最小, 最大)}，别的错误计数一个也不许动。实测 5.10、6.1、6.12 各两次以上（docs/GALLERY.md 的“计数”）：
# 没有应答时请求方重传 retry_cnt=6 轮（completer_retry_err，每个 QP 6），然后 retry_exceeded_err（每个 QP 1）。
# flush 有两个 QP：客户端在 QP[0] 的错误处就结束数据面，QP[1] 最后一轮重传和它的 RETRY_EXC_ERR 可能落在结束时的读之后
# （6.1 上五次里一次是 retry_exceeded_err +1），所以只要求 QP[0] 的那一份
QUIET = ("sent_pkts", "rcvd_pkts", "rdma_sends", "rdma_recvs", "ack_deferred")
RETRY_EXC = {"completer_retry_err": 6, "retry_exceeded_err": 1}


def expect_counters(name, kernel):
    """(server's error counters, client's error counters)"""
    access = ({}, RETRY_EXC) if old_rxe(kernel) else ({}, {})
    return {
        "small-recv": ({}, {}),
        "rnr-retry0": ({"send_rnr_err": 1}, {"rcvd_rnr_err": 1, "retry_rnr_exceeded_err": 1}),
        "lkey": ({}, {}),
        "rkey": access,
        "mr-access": access,
        "qp-access": access,
        "flush": ({}, {"completer_retry_err": (6, 12), "retry_exceeded_err": (1, 2)}),   # 两个 QP
        "inline": ({}, {}),
        "qpn": ({}, RETRY_EXC),
        "psn": ({"out_of_seq_request": 1}, RETRY_EXC),
    }.get(name)


def counters_match(got, want):
    """got {name: delta} against want {name: delta or (lo, hi)}: the same names, each delta as wanted"""
    if got is None or set(got) != set(want):
        return False
    return all(lo <= got[n] <= hi for n, (lo, hi) in ((n, w if isinstance(w, tuple) else (w, w)) for n, w in want.items()))


def error_counters(side):
    c = side.get("counters")
    return None if c is None else {n: v for n, v in c["moved"].items() if n not in QUIET}


# 出错那一端的提示（src/verbs/hints.c，加上 src/verbs/kernel_note.c 的那一句）要说到这一种的原因：画廊和提示说的是同一件事
HINT_SAYS = {
    "small-recv": (("server", "收到的 SEND 比投递的接收缓冲区大"), ("client", "SEND 比对端投递的接收缓冲区大")),
    "rnr-retry0": (("client", "rnr_retry=0"),),
    "lkey": (("client", "lkey"),),
    "rkey": (("client", "rkey"),),
    "mr-access": (("client", "权限"),),
    "flush": (("server", "ibv_modify_qp 把它改到了 ERR"),),
    "inline": (("client", "max_inline_data"),),
    "qpn": (("client", "dest_qp_num"),),
    "psn": (("client", "sq_psn"),),
    "qp-access": (("client", "qp_access_flags"),),
}


def hint_text(side):
    return "\n".join([er["hint"] for er in side["errors"]] + side["kernel_note"])


def status_of(side):
    bad = [w["status"] for w in side["wcs"] if w["code"] != 0]
    if bad:
        return bad[0]
    for er in side["errors"]:
        m = re.search(r"ibv_post_send\(\) 失败: .*\((errno=\d+)\)", er["msg"])
        if m:
            return m.group(1)
    return "-"


def check_counters(check, k, kernel):
    """each side's counters from its own --counters: the error counters of that side, and sent_pkts = the packets
    the capture saw leaving that side"""
    name, sides = k["name"], k["sides"]
    want = expect_counters(name, kernel)
    got = {r: error_counters(sides[r]) for r in ("server", "client")}
    detail = "server %s, client %s" % (got["server"], got["client"])
    check(want is not None and counters_match(got["server"], want[0]) and counters_match(got["client"], want[1]),
          "%s: counters per side: server %s, client %s" % (name, want and (want[0] or "no error counter moved"),
                                                            want and (want[1] or "no error counter moved")), detail)
    sent = {r: (sides[r]["counters"] or {}).get("moved", {}).get("sent_pkts", 0) for r in ("server", "client")}
    wire = {r: sum(1 for p in k["packets"] if p["to"] != r) for r in ("server", "client")}
    check(all(sides[r]["counters"] is not None for r in sides) and sent == wire,
          "%s: each side's sent_pkts is what the capture saw leaving it" % name, "counters %s, capture %s" % (sent, wire))
    c = sides["client"].get("counters") or {}
    said = [n for n in c.get("moved", {}) if n not in QUIET and not c.get("meaning", {}).get(n)]
    check(not said, "%s: every moved error counter comes with the meaning the program printed" % name, str(said))


def main():
    g = json.load(open(sys.argv[1], encoding="utf-8"))
    kernel = g["kernel"]
    check = tap.Checks()

    names = [k["name"] for k in g["kinds"]]
    check(len(names) >= 10 and all(expect(n, kernel) for n in names), "gallery: every kind has an expectation (%d kinds)" % len(names),
          " ".join(n for n in names if not expect(n, kernel)))
    for k in g["kinds"]:
        ex = expect(k["name"], kernel)
        if ex is None:
            continue
        s, c, w = k["sides"]["server"], k["sides"]["client"], k["wire"]
        got_s, got_c = status_of(s), status_of(c)
        want_s, want_c, want_w, want_nak, want_retx = ex
        detail = "server %s exit %s, client %s exit %s, wire %s" % (got_s, s["exit"], got_c, c["exit"], w["text"])
        check(s["exit"] == 1 and c["exit"] == 1, "%s: both sides exit 1" % k["name"], detail)
        check(got_s == want_s and got_c == want_c,
              "%s: server %s, client %s" % (k["name"], want_s, want_c), detail)
        retx_ok = want_retx is None or (w["retx"] > 0 if want_retx == ">0" else w["retx"] == want_retx)
        check(w["kind"] == want_w and (want_nak is None or w.get("nak") == want_nak) and retx_ok,
              "%s: on the wire %s%s%s" % (k["name"], want_w, " " + want_nak if want_nak else "",
                                          ", retransmitted" if want_retx == ">0" else ", no retransmission" if want_retx == 0 else ""),
              detail)
        says = HINT_SAYS.get(k["name"], ())
        missing = [(r, w) for r, w in says if w not in hint_text(k["sides"][r])]
        check(says and not missing, "%s: the hint names the cause (%s)" % (k["name"], "; ".join("%s: %s" % rw for rw in says)),
              str(missing))
        note = bool(c["kernel_note"])
        check(note == kernel_note_expected(k["name"], kernel),
              "%s: the client %s the rxe kernel note" % (k["name"], "prints" if kernel_note_expected(k["name"], kernel) else "does not print"),
              " | ".join(c["kernel_note"])[:200])
        check_counters(check, k, kernel)
        if k["name"] == "flush":
            flushed = [w for w in s["wcs"] if w["status"] == "WR_FLUSH_ERR"]
            qps = int(re.search(r"-q (\d+)", k["both"]).group(1))
            check(len(flushed) == qps and len({w["qp_num"] for w in flushed}) == qps,
                  "flush: every outstanding receive (one per QP, %d QPs) completes WR_FLUSH_ERR" % qps, str(s["wcs"]))
        # 每一种的注入都在出错的那一端说了它做了什么；跳过本程序检查的那一种还要说 guard bypassed
        said = s["inject"] + c["inject"]
        check(any("--inject " + k["name"] in l for l in said) and
              (k["name"] != "inline" or any("guard bypassed" in l for l in said)),
              "%s: the injecting side says what it did, at the point where it happens" % k["name"], " | ".join(said)[:300])
    # 页面上的错误就是 trace 里的错误，带提示
    hints = all(er["hint"] for k in g["kinds"] for r in ("server", "client") for er in k["sides"][r]["errors"]
                if "WC" in er["msg"])
    check(hints, "every WC error in the gallery comes with a hint")
    return check.exit_code()


if __name__ == "__main__":
    sys.exit(main())
