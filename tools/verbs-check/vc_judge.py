"""vc_judge.py - verbs-check 的判断：读记录器的日志（一行一条 JSON），按规则给出发现。

一边（judge_process）：沿着一个进程的日志走一遍，记住设备、端口、GID、MR、CQ、QP 的状态，每条调用按规则判断；
练习也知道的规则（掩码、字段范围、send_flags）交给 exercises/check/verbs_rules.py（同一个 id、字段和解释），
要看整个日志的规则和两边的规则（judge_pair）在 vc_rules.py。
发现：{"id", "field", "seen", "severity", "message", "reason", "source", "link", "where"}。
"""
import collections
import glob
import ipaddress
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vc_rules as R  # noqa: E402
import vc_log as L  # noqa: E402

ROOT = os.environ.get("VERBS_CHECK_ROOT") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import verbs_rules as VR  # noqa: E402
import doclinks  # noqa: E402  英文模式下链接指向英文版（exercise.py 也这样）

QPT = {2: "RC", 3: "UC", 4: "UD"}
STATES = {0: "RESET", 1: "INIT", 2: "RTR", 3: "RTS", 4: "SQD", 5: "SQE", 6: "ERR"}
M_STATE, M_ACCESS, M_AV, M_MTU, M_RQ_PSN, M_SQ_PSN = 1, 1 << 3, 1 << 7, 1 << 8, 1 << 12, 1 << 16
SIGNALED, INLINE = 2, 8
WR_WRITE, WR_WRITE_IMM, WR_SEND, WR_SEND_IMM, WR_READ, WR_CAS, WR_FAA = 0, 1, 2, 3, 4, 5, 6
A_LOCAL_WRITE, A_REMOTE_WRITE, A_REMOTE_READ, A_REMOTE_ATOMIC = 1, 2, 4, 8
ACCESS_NAMES = {1: "IBV_ACCESS_LOCAL_WRITE", 2: "IBV_ACCESS_REMOTE_WRITE", 4: "IBV_ACCESS_REMOTE_READ",
                8: "IBV_ACCESS_REMOTE_ATOMIC"}
NEED = {WR_WRITE: A_REMOTE_WRITE, WR_WRITE_IMM: A_REMOTE_WRITE, WR_READ: A_REMOTE_READ, WR_CAS: A_REMOTE_ATOMIC,
        WR_FAA: A_REMOTE_ATOMIC}
MTU_BYTES = {1: 256, 2: 512, 3: 1024, 4: 2048, 5: 4096}
LL_ETHERNET = 2
EBUSY = 16


def lang_of(argv_lang=None):
    """界面语言，和程序（src/console/i18n.c）一样选：--lang；否则 LANGUAGE（冒号分隔的优先列表）里第一个认得的；
    否则 LC_ALL、LC_MESSAGES、LANG 里第一个非空的说了算（像 setlocale：LC_ALL=C 时 LANG=en_US 不起作用），en 开头是英文；默认中文"""
    if argv_lang:
        return "en" if argv_lang.startswith("en") else "zh"
    for item in os.environ.get("LANGUAGE", "").split(":"):
        if item.startswith(("en", "zh")):
            return item[:2]
    for v in ("LC_ALL", "LC_MESSAGES", "LANG"):
        val = os.environ.get(v)
        if val:
            return "en" if val.startswith("en") else "zh"
    return "zh"


def access_names(a):
    return " | ".join(n for b, n in sorted(ACCESS_NAMES.items()) if a & b) or "0"


def gid_ip(hexgid):
    try:
        ip = ipaddress.IPv6Address(bytes.fromhex(hexgid))
    except ValueError:
        return None
    return ip.ipv4_mapped or ip


def gid_text(hexgid):
    ip = gid_ip(hexgid)
    return str(ip) if ip is not None else hexgid


def finding(rule, vals, lang, where, seen=None):
    """一条规则 + 看到的值 → 一个发现（规则来自 vc_rules 或 verbs_rules；消息和原因用同一组值填）"""
    i = 1 if lang == "en" else 0
    fill = dict(vals)
    msg = rule["message"][i] % fill
    reason = rule["reason"][i] % fill
    field = rule["field"] % fill if "%(" in rule["field"] else rule["field"]
    return {"id": rule["id"], "field": field, "seen": seen if seen is not None else msg, "message": msg,
            "reason": reason, "severity": rule.get("severity", "error"), "source": rule.get("source", ""),
            "link": rule.get("link", "docs/VERBS-CHECK.md"), "where": where}


# ---------- 练习的规则（verbs_rules.py）：一条调用 → 发现 ----------
LINK_DEFAULT = "docs/VERBS-CHECK.md"


def general_check(record, lang):
    """verbs_rules.check(record, lang)：练习和 verbs-check 共用的一般规则（同一个 id、字段、消息、原因）。
    记录的格式见 verbs_rules.py 的说明；这里把日志里的一条调用写成那样的记录"""
    out = VR.check(record, lang)
    for f in out:
        f["link"] = f.get("link") or LINK_DEFAULT
    return out


def nest(flat):
    """{"ah_attr.grh.dgid": x} → {"ah_attr": {"grh": {"dgid": x}}}"""
    out = {}
    for k, v in flat.items():
        d = out
        parts = k.split(".")
        for p in parts[:-1]:
            d = d.setdefault(p, {})
        d[parts[-1]] = v
    return out


# ---------- 日志 ----------
def load(path):
    """读一个日志：检查在 vc_log.read 一个地方（日志是对端的数据，用之前先检查）；不能用时抛出 vc_log.NotALog"""
    return L.read(path)


def log_findings(p, final):
    """读日志时跳过的行 → log.skipped（每种原因一个发现，说出行号）；最后一行只写了一半 → log.cut。
    程序还在运行时（-v 的中途判断）最后一行可能正在写：那时不说 log.cut"""
    i = 1 if p.lang == "en" else 0
    log = p.log
    groups = collections.OrderedDict()
    for n, why, vals in log.get("skipped", []):
        groups.setdefault((why, tuple(sorted(vals.items()))), []).append(n)
    for (why, vals), ns in groups.items():
        vals = dict(vals)
        if "type" in vals:
            vals["type"] = R.TEXT["log_types"][i].get(vals["type"], vals["type"])
        lines = R.TEXT["log_one" if len(ns) == 1 else "log_more"][i] % {"first": ns[0], "n": len(ns), "more": len(ns) - 1}
        p.add(finding(R.BY_ID["log.skipped"], {"lines": lines, "why": R.TEXT[why][i] % vals}, p.lang,
                      "%s:%d" % (log["path"], ns[0])), ("skipped", why, ns[0]))
    if log.get("cut") and final:
        p.add(finding(R.BY_ID["log.cut"], {"line": log["cut"], "n": len(log["recs"])}, p.lang,
                      "%s:%d" % (log["path"], log["cut"])), "cut")


def logs_in(d):
    return sorted(glob.glob(os.path.join(d, "*.log")))


class Proc:
    """一个进程的状态，沿着日志更新"""

    def __init__(self, log, lang):
        self.log, self.lang = log, lang
        self.label = "%s %s" % (log["name"], log["pid"])
        self.ctx = {}        # ctx → {"dev", "by"}
        self.ports = {}      # (ctx, port) → query_port 记录
        self.dev = {}        # ctx → query_device 记录
        self.gids = {}       # (ctx, port, index) → gid 记录
        self.pds, self.mrs, self.cqs, self.srqs, self.qps, self.ahs = {}, [], {}, {}, {}, {}
        self.async_got = self.async_acked = 0
        self.findings, self.notes = [], []
        self._seen = {}

    # 同一处的同一个发现只报一次，后面的只计数
    def add(self, f, key):
        k = (f["id"], key)
        if k in self._seen:
            self._seen[k]["count"] += 1
            return
        f["count"] = 1
        f.setdefault("where", self.label)
        self._seen[k] = f
        (self.notes if f["severity"] == "note" else self.findings).append(f)

    def rule(self, rid, vals, key, where):
        self.add(finding(R.BY_ID[rid], vals, self.lang, "%s, %s" % (self.label, where)), key)

    def port_of(self, q):
        return self.ports.get((q["ctx"], q.get("port") or 1), {})

    def mr_for(self, lkey, addr, length, key="lkey", need=0, live=True):
        """lkey（或 rkey）对上、[addr, addr+len) 在里面、权限够的 MR；没有时说出最接近的原因"""
        same = [m for m in self.mrs if m.get(key) == lkey and (m["alive"] or not live)]
        if not same:
            return None, "no_key"
        inside = [m for m in same if m["addr"] <= addr and addr + length <= m["addr"] + m["len"]]
        if not inside:
            return None, "range"
        ok = [m for m in inside if m["access"] & need == need]
        return (ok[0], None) if ok else (None, "access")


WHY = {"no_key": ("没有这个 key 的 MR", "no MR has this key"), "range": ("有这个 key 的 MR，但范围不包括它", "an MR has this key but does not cover the range"),
       "access": ("范围对，但 MR 没有需要的权限", "the range is right but the MR lacks the access")}


def why(code, lang):
    return WHY[code][1 if lang == "en" else 0]


def judge_process(log, lang, final=True):
    """一个进程的日志 → Proc（findings、notes，以及 --pair 要用的 QP 信息）"""
    p = Proc(log, lang)
    log_findings(p, final)
    for r in log["recs"]:
        step(p, r)
    if final:
        finish(p)
    return p


def step(p, r):  # noqa: C901  一条记录一个分支：按调用分派
    t, lang = r["t"], p.lang
    if t == "open_device":
        p.ctx[r["ctx"]] = {"dev": r["dev"], "by": r.get("by"), "alive": True}
    elif t == "close_device":
        if r["ctx"] in p.ctx:
            p.ctx[r["ctx"]]["alive"] = False
    elif t == "query_port" and r.get("ret") == 0:
        p.ports[(r["ctx"], r["port"])] = r
    elif t == "query_device" and r.get("ret") == 0:
        p.dev[r["ctx"]] = r
    elif t == "gid" and r.get("ret") == 0:
        p.gids[(r["ctx"], r["port"], r["index"])] = r
    elif t == "alloc_pd" and r.get("pd") not in (None, "(nil)"):
        p.pds[r["pd"]] = {"ctx": r["ctx"], "by": r.get("by"), "alive": True}
    elif t == "dealloc_pd":
        destroyed(p, r, p.pds.get(r["pd"]), "ibv_dealloc_pd", "PD")
    elif t == "reg_mr":
        reg_mr(p, r)
    elif t == "dereg_mr":
        # 还在的 QP 里，投递过指向这个 MR 的 WR 的（同一个 PD 里别的 QP 不用它，不算）
        users = next((m["users"] for m in p.mrs if m["mr"] == r["mr"] and m["alive"]), set())
        order(p, "ibv_dereg_mr", {"qp": sum(1 for h in users if p.qps.get(h, {}).get("alive"))}, r)
        for m in p.mrs:
            if m["mr"] == r["mr"] and m["alive"]:
                destroyed(p, r, m, "ibv_dereg_mr", "MR")
    elif t == "create_cq":
        create_cq(p, r)
    elif t == "get_cq_event" and r.get("ret") == 0 and r["cq"] in p.cqs:
        p.cqs[r["cq"]]["events"] += 1
    elif t == "ack_cq_events" and r["cq"] in p.cqs:
        order(p, "ibv_ack_cq_events", {"cq": int(p.cqs[r["cq"]]["alive"])}, r)
        p.cqs[r["cq"]]["acked"] += r["n"]
    elif t == "destroy_cq_begin" and r["cq"] in p.cqs:
        users = sum(1 for q in p.qps.values() if q["alive"] and r["cq"] in (q["send_cq"], q["recv_cq"]))
        order(p, "ibv_destroy_cq", {"qp": users}, r)
        c = p.cqs[r["cq"]]
        if c["events"] > c["acked"]:
            p.rule("cleanup.unacked", {"cq": r["cq"], "got": c["events"], "acked": c["acked"]}, r["cq"], "ibv_destroy_cq")
    elif t == "destroy_cq":
        destroyed(p, r, p.cqs.get(r["cq"]), "ibv_destroy_cq", "CQ")
    elif t == "create_srq":
        create_srq(p, r)
    elif t == "destroy_srq":
        order(p, "ibv_destroy_srq", {"qp": sum(1 for q in p.qps.values() if q["alive"] and q["srq"] == r["srq"])}, r)
        destroyed(p, r, p.srqs.get(r["srq"]), "ibv_destroy_srq", "SRQ")
    elif t == "create_qp":
        create_qp(p, r)
    elif t == "modify_qp":
        modify_qp(p, r)
    elif t == "destroy_qp":
        destroyed(p, r, p.qps.get(r["qph"]), "ibv_destroy_qp", "QP")
    elif t == "create_ah" and r.get("ah"):
        g = p.gids.get((r["ctx"], r["port_num"] or 1, r["sgid_index"])) if r.get("is_global") else None
        g = g or (r.get("path") if r.get("is_global") else None)
        p.ahs[r["ah"]] = {"by": r.get("by"), "alive": True, "dgid": r["dgid"], "ctx": r["ctx"], "pd": r["pd"],
                          "sgid": (g.get("gid") or g.get("sgid")) if g else None}
        wrong_ndev(p, r.get("path"), r["sgid_index"], r["dgid"], (r["ah"], "ndev"), "ibv_create_ah")
    elif t == "destroy_ah":
        pd = (p.ahs.get(r["ah"]) or {}).get("pd")
        order(p, "ibv_destroy_ah", {"qp": sum(1 for q in p.qps.values() if q["alive"] and q["type"] == "UD" and
                                              q["pd"] == pd)}, r)
        destroyed(p, r, p.ahs.get(r["ah"]), "ibv_destroy_ah", "AH")
    elif t == "post_send":
        post_send(p, r)
    elif t in ("post_recv", "post_srq_recv"):
        post_recv(p, r)
    elif t == "wc":
        wc(p, r)
    elif t == "async_event" and r.get("ret") == 0:
        p.async_got += 1
    elif t == "ack_async_event":
        p.async_acked += 1
    elif t == "unseen":
        p.add({"id": "unseen", "field": r["what"], "seen": R.TEXT["unseen_ex"][lang == "en"] % r, "message": "",
               "reason": "", "severity": "note", "source": "", "link": "docs/VERBS-CHECK.md"}, r["what"])


def order(p, call, alive, r):
    """销毁的顺序：verbs_rules 的 cleanup.*（这一刻还在用它的对象）"""
    for f in general_check({"call": call, "alive": alive}, p.lang):
        f["where"] = "%s, %s" % (p.label, call)
        p.add(f, (call, r["seq"], f["id"]))
        p.ordered = r["seq"]


def destroyed(p, r, obj, call, kind):
    if r.get("ret", 0) == 0:
        if obj is not None:
            obj["alive"] = False
        return
    if r.get("errno") == EBUSY and getattr(p, "ordered", None) is not None and r["seq"] - p.ordered <= 1:
        return   # cleanup.*_before_qp 已经说了为什么
    if r.get("errno") == EBUSY:
        users = users_of(p, r, kind)
        p.rule("cleanup.busy", {"call": call, "what": kind, "users": users}, (call, r["seq"]), call)
    else:
        p.rule("call.failed", {"call": call, "err": os.strerror(r.get("errno") or 0)}, (call, r["seq"]), call)


def users_of(p, r, kind):
    if kind == "CQ":
        qs = [str(q["qp"]) for q in p.qps.values() if q["alive"] and r["cq"] in (q["send_cq"], q["recv_cq"])]
        return "QP " + ", ".join(qs) if qs else "?"
    if kind == "PD":
        n_mr = sum(1 for m in p.mrs if m["alive"] and m["pd"] == r["pd"])
        n_qp = sum(1 for q in p.qps.values() if q["alive"] and q["pd"] == r["pd"])
        return "%d MR, %d QP" % (n_mr, n_qp)
    if kind == "SRQ":
        return "QP " + ", ".join(str(q["qp"]) for q in p.qps.values() if q["alive"] and q["srq"] == r["srq"])
    return "?"


def reg_mr(p, r):
    a = r["access"]
    for f in general_check({"call": "ibv_reg_mr", "access": a}, p.lang):
        f["where"] = "%s, ibv_reg_mr" % p.label
        p.add(f, ("mr", r["seq"], f["id"]))
    if "mr" in r:
        p.mrs.append({"mr": r["mr"], "pd": r["pd"], "addr": r["addr"], "len": r["len"], "access": a,
                      "lkey": r["lkey"], "rkey": r["rkey"], "alive": True, "by": r.get("by"),
                      "users": set()})
    elif r.get("errno"):
        p.rule("call.failed", {"call": "ibv_reg_mr", "err": os.strerror(r["errno"])}, ("reg_mr", r["seq"]), "ibv_reg_mr")


CAP_NAMES = ("max_send_wr", "max_recv_wr", "max_send_sge", "max_recv_sge", "max_inline_data")


def over_device(p, ctx, call, caps, key):
    """要的容量超过设备的上限（ibv_query_device；程序不问时记录器在打开设备时问过一次）：caps = [(名字, 要的, 上限的名字)]"""
    dev = p.dev.get(ctx)
    if not dev:
        return
    for cap, got, lim in caps:
        if got is not None and dev.get(lim) is not None and got > dev[lim]:
            p.rule("caps.device", {"call": call, "cap": cap, "got": got, "max": "%s=%s" % (lim, dev[lim])},
                   (cap, key), call)


def create_cq(p, r):
    over_device(p, r["ctx"], "ibv_create_cq", [("cqe", r.get("cqe_asked"), "max_cqe")], r["seq"])
    if "cq" not in r:
        return
    p.cqs[r["cq"]] = {"ctx": r["ctx"], "by": r.get("by"), "alive": True, "events": 0, "acked": 0,
                      "cqe": r.get("cqe"), "cqe_asked": r.get("cqe_asked")}


def create_srq(p, r):
    ctx = p.pds.get(r["pd"], {}).get("ctx")
    over_device(p, ctx, "ibv_create_srq", [("max_wr", r.get("max_wr_asked"), "max_srq_wr"),
                                           ("max_sge", r.get("max_sge_asked"), "max_srq_sge")], r["seq"])
    if "srq" not in r:
        return
    p.srqs[r["srq"]] = {"by": r.get("by"), "alive": True, "max_sge": r["max_sge"], "max_wr": r.get("max_wr"),
                        "max_wr_asked": r.get("max_wr_asked"), "rq": collections.deque(), "depth_off": False}


def create_qp(p, r):
    asked = dict(zip(CAP_NAMES, r["cap_asked"]))
    srq = r.get("srq") not in (None, "(nil)")
    over_device(p, r["ctx"], "ibv_create_qp",
                [("cap." + cap, asked[cap], lim) for cap, lim in
                 (("max_send_wr", "max_qp_wr"), ("max_recv_wr", "max_qp_wr"), ("max_send_sge", "max_sge"),
                  ("max_recv_sge", "max_sge")) if not (srq and cap in ("max_recv_wr", "max_recv_sge"))], r["seq"])
    if "qph" not in r:
        p.rule("call.failed", {"call": "ibv_create_qp", "err": os.strerror(r.get("errno") or 0)}, ("cq", r["seq"]),
               "ibv_create_qp")
        return
    p.qps[r["qph"]] = {"qp": r["qp"], "type": QPT.get(r["type"], str(r["type"])), "ctx": r["ctx"], "pd": r["pd"],
                       "send_cq": r["send_cq"], "recv_cq": r["recv_cq"], "srq": r["srq"], "sig_all": r["sq_sig_all"],
                       "cap": dict(zip(CAP_NAMES, r["cap"])), "state": "RESET", "alive": True, "by": r.get("by"),
                       "run": 0, "port": 1, "access": 0, "rtr": None, "rts": None, "sends": [], "asked": asked,
                       # 深度：发送队列里还没释放的 WR（wr_id, 带信号），其中带信号的个数；接收队列里还没完成的 wr_id
                       "sq": collections.deque(), "sq_sig": 0, "rq": collections.deque(), "depth_off": False,
                       "qkey": None, "ud_sends": {}}


def modify_qp(p, r):
    q = p.qps.get(r["qph"])
    if q is None:
        return
    mask = r["mask"]
    to = STATES.get(r["qp_state"], "?") if mask & M_STATE else q["state"]
    tr = [q["state"], to]
    where = "ibv_modify_qp(QP %s, %s->%s)" % (q["qp"], tr[0], tr[1])
    ah = r.get("ah", {})
    rec = modify_record(p, q, r, tr)
    for f in general_check(rec, p.lang):
        f["where"] = "%s, %s" % (p.label, where)
        p.add(f, (q["qp"], f["id"]))
    if "port_num" in r:
        q["port"] = r["port_num"]
    if "qp_access_flags" in r:
        q["access"] = r["qp_access_flags"]
    if "qkey" in r and not r.get("ret"):
        q["qkey"] = r["qkey"]
    if "max_rd_atomic" in r:
        over_device(p, q["ctx"], where, [("max_rd_atomic", r["max_rd_atomic"], "max_qp_init_rd_atom")], q["qp"])
    if to == "RTR" and mask & M_AV and q["type"] in ("RC", "UC"):
        rtr_address(p, q, r, where)
    if r.get("ret"):
        p.rule("call.failed", {"call": where, "err": "%s (errno=%s)" % (os.strerror(r["errno"]), r["errno"])},
               (q["qp"], r["seq"]), where)
        return
    q["state"] = to
    if to == "RTR":
        q["rtr"] = {k: r.get(k) for k in ("dest_qp_num", "rq_psn", "path_mtu", "max_dest_rd_atomic")}
        q["rtr"]["ah"] = ah
        q["rtr"]["rec"] = r
        q["rtr"]["sgid"] = sgid_of(p, q, ah)
        q["rtr"]["active_mtu"] = p.port_of({"ctx": q["ctx"], "port": ah.get("port_num") or q["port"]}).get("active_mtu")
    if to == "RTS" and q["rts"] is None:
        q["rts"] = {k: r.get(k) for k in ("sq_psn", "max_rd_atomic")}


ATTR_KEYS = ("qp_state", "cur_qp_state", "qp_access_flags", "pkey_index", "port_num", "qkey", "path_mtu", "timeout",
             "retry_cnt", "rnr_retry", "rq_psn", "max_rd_atomic", "min_rnr_timer", "sq_psn", "max_dest_rd_atomic",
             "dest_qp_num")


def modify_record(p, q, r, tr, peer=None):
    """日志里的一条 modify_qp → verbs_rules 的记录（端口、设备是这个 QP 的；peer 是 --pair 时对端的端口）"""
    attr = {k: r[k] for k in ATTR_KEYS if k in r}
    ah = r.get("ah")
    if ah:
        attr["ah_attr"] = {k: ah[k] for k in ("is_global", "sl", "static_rate", "port_num", "src_path_bits") if k in ah}
        attr["ah_attr"]["grh"] = {k: ah[k] for k in ("sgid_index", "hop_limit", "traffic_class", "flow_label", "dgid")
                                  if k in ah}
    port = p.port_of({"ctx": q["ctx"], "port": (ah or {}).get("port_num") or r.get("port_num") or q["port"]})
    rec = {"call": "ibv_modify_qp", "qp_type": q["type"], "from": tr[0], "to": tr[1], "mask": r["mask"], "attr": attr}
    if port:
        rec["port"] = {"active_mtu": port["active_mtu"], "gid_tbl_len": port.get("gid_tbl_len"),
                       "link_layer": {1: "InfiniBand", 2: "Ethernet"}.get(port.get("link_layer"), "?")}
    dev = p.dev.get(q["ctx"])
    if dev:
        rec["device"] = {k: v for k, v in dev.items() if k.startswith("max_") or k == "atomic_cap"}
    if peer:
        rec["peer"] = peer
    return rec


def sgid_of(p, q, ah):
    if not ah.get("is_global"):
        return None
    g = p.gids.get((q["ctx"], ah.get("port_num") or q["port"], ah["sgid_index"]))
    return g["gid"] if g else None


def rtr_address(p, q, r, where):
    ah = r["ah"]
    if not ah.get("is_global"):
        return     # RoCE 上没有 GRH：verbs_rules 的 rtr.grh
    g = p.gids.get((q["ctx"], ah.get("port_num") or q["port"], ah["sgid_index"]))
    path = r.get("path")
    if g is None and path:
        g = {"gid": path["sgid"], "gid_type": path.get("gid_type")}   # 记录器自己查的条目
    if g is None:
        return   # 程序没有查过这个条目，记录器也没查到：不猜
    idx = ah["sgid_index"]
    if int(g["gid"], 16) == 0:
        p.rule("rtr.sgid_empty", {"got": idx}, (q["qp"], "sgid"), where)
        return
    ip, dip = gid_ip(g["gid"]), gid_ip(ah["dgid"])
    if g.get("gid_type") == 1:
        p.rule("gid.v1", {"got": idx, "gid": gid_text(g["gid"])}, (q["qp"], "v1"), where)
    if ip is not None and ip.version == 6 and ip.is_link_local:
        p.rule("gid.link_local", {"got": idx, "ip": ip}, (q["qp"], "ll"), where)
    if ip is not None and dip is not None and ip.version != dip.version and int(ah["dgid"], 16):
        p.rule("gid.family", {"sgid": ip, "dgid": dip}, (q["qp"], "fam"), where)
    wrong_ndev(p, path, idx, ah["dgid"], (q["qp"], "ndev"), where)


def wrong_ndev(p, path, idx, dgid, key, where):
    """源 GID 所在的网卡不是内核到对端的路由出去的那块（记录器按源地址查的路由，见 recorder.c 的 jb_path）。
    目的地址是本机的（同一台机器、同一个设备：回环）、路由查不到的（gid.family、call.failed 说）不判断"""
    if not path or not path.get("ndev") or not path.get("route_ndev") or path.get("route_local"):
        return
    if path["ndev"] != path["route_ndev"]:
        p.rule("gid.wrong_ndev", {"got": idx, "ip": gid_text(path["sgid"]), "dip": gid_text(dgid), "ndev": path["ndev"],
                                  "route": path["route_ndev"]}, key, where)


def sge_in_mr(p, q, r, where, sges):
    for i, (addr, length, lkey) in enumerate(sges):
        if length == 0:
            continue
        mr, code = p.mr_for(lkey, addr, length)
        if mr is not None and r.get("qph"):
            mr["users"].add(r["qph"])
        if mr is None:
            p.rule("sge.no_mr", {"i": i, "addr": addr, "len": length, "lkey": lkey, "why": why(code, p.lang)},
                   (q, lkey, code), where)


def post_send(p, r):
    q = p.qps.get(r["qph"])
    if q is None:
        return
    where = "ibv_post_send(QP %s, wr_id=%s)" % (q["qp"], r["wr_id"])
    wr = {"wr_id": r["wr_id"], "opcode": r["opcode"], "send_flags": r["flags"], "num_sge": r["num_sge"]}
    if r.get("sge"):
        wr["sg_list"] = dict(zip(("addr", "length", "lkey"), r["sge"][0]))
    if "raddr" in r:
        wr["wr"] = {"rdma": {"remote_addr": r["raddr"], "rkey": r["rkey"]}}
    rec = {"call": "ibv_post_send", "qp_type": q["type"], "wr": wr, "qp_cap": q["cap"]}
    for f in general_check(rec, p.lang):
        f["where"] = "%s, %s" % (p.label, where)
        p.add(f, (q["qp"], f["id"]))
    sges = r.get("sge", [])
    if r["num_sge"] > q["cap"]["max_send_sge"]:
        p.rule("post.sge_count", {"got": r["num_sge"], "cap": "max_send_sge", "max": q["cap"]["max_send_sge"]},
               (q["qp"], "sge"), where)
    elif r["num_sge"] > q["asked"]["max_send_sge"]:
        beyond(p, "QP %s" % q["qp"], "cap.max_send_sge", r["num_sge"], q["asked"]["max_send_sge"],
               q["cap"]["max_send_sge"], where)
    if r["flags"] & INLINE:
        total = sum(s[1] for s in sges)
        if total > q["cap"]["max_inline_data"]:
            p.rule("send.inline_big", {"got": total, "max": q["cap"]["max_inline_data"]}, (q["qp"], "inl"), where)
    else:
        sge_in_mr(p, q["qp"], r, where, sges)
    if r["opcode"] in (WR_CAS, WR_FAA):
        if r.get("raddr", 0) % 8:
            p.rule("atomic.align", {"addr": r["raddr"]}, (q["qp"], "al"), where)
        if sges and sges[0][1] != 8:
            p.rule("atomic.len", {"got": sges[0][1]}, (q["qp"], "alen"), where)
    if not q["sig_all"] and not r["flags"] & SIGNALED:
        q["run"] += 1
        if q["run"] >= q["cap"]["max_send_wr"] > 0:
            p.rule("send.unsignaled_run", {"qp": q["qp"], "got": q["run"], "max": q["cap"]["max_send_wr"]},
                   (q["qp"], "run"), where)
    else:
        q["run"] = 0
    if q["type"] == "UD":
        ud_send(p, q, r, where)
    if not r.get("ret"):
        send_depth(p, q, r, where)
    if r["opcode"] in NEED:
        q["sends"].append({"op": r["opcode"], "raddr": r.get("raddr", 0), "rkey": r.get("rkey", 0),
                           "len": sum(s[1] for s in sges) if r["opcode"] not in (WR_CAS, WR_FAA) else 8,
                           "where": where})
    if r.get("ret"):
        p.rule("call.failed", {"call": "ibv_post_send", "err": "%s (errno=%s)" % (os.strerror(abs(r["ret"])), r["ret"])},
               (q["qp"], "post"), where)


def post_recv(p, r):
    q = s = None
    if r["t"] == "post_srq_recv":
        s = p.srqs.get(r["srq"])
        maxsge, label, key = (s or {}).get("max_sge", 1 << 30), "ibv_post_srq_recv(SRQ)", r["srq"]
    else:
        q = p.qps.get(r["qph"])
        if q is None:
            return
        maxsge, label, key = q["cap"]["max_recv_sge"], "ibv_post_recv(QP %s)" % q["qp"], q["qp"]
    if r["num_sge"] > maxsge:
        p.rule("post.sge_count", {"got": r["num_sge"], "cap": "max_recv_sge", "max": maxsge}, (key, "sge"), label)
    elif q is not None and r["num_sge"] > q["asked"]["max_recv_sge"]:
        beyond(p, "QP %s" % q["qp"], "cap.max_recv_sge", r["num_sge"], q["asked"]["max_recv_sge"], maxsge, label)
    sge_in_mr(p, key, r, label, r.get("sge", []))
    if r.get("ret"):
        p.rule("call.failed", {"call": label, "err": os.strerror(abs(r["ret"]))}, (key, "post"), label)
        return
    recv_depth(p, q, s, r, label)


# ---------- 队列的深度：发送队列、接收队列（SRQ）、CQ ----------
def beyond(p, what, cap, got, asked, given, where):
    """用到的比要的多、在驱动给的之内：合法的选择（说明）"""
    p.rule("caps.beyond_asked", {"what": what, "cap": cap, "got": got, "asked": asked, "max": given}, (what, cap), where)


def send_depth(p, q, r, where):
    """硬件的规则：发送队列的位置要等这个 QP 上一个带信号的完成被取走才释放（它和它前面不带信号的）。
    程序把 QP 带进了错误状态（失败的完成）以后不再判断：那时的发现是 wc.error"""
    if q["depth_off"]:
        return
    signaled = bool(q["sig_all"] or r["flags"] & SIGNALED)
    q["sq"].append((r["wr_id"], signaled))
    q["sq_sig"] += signaled
    n, mx = len(q["sq"]), q["cap"]["max_send_wr"]
    if n > mx and q["run"] < mx:      # 一长串不带信号的 WR 是 send.unsignaled_run 说的原因
        why = ("%d 个带信号、%d 个不带信号" % (q["sq_sig"], n - q["sq_sig"]), "%d signalled, %d unsignalled" % (q["sq_sig"], n - q["sq_sig"]))
        p.rule("send.sq_full", {"qp": q["qp"], "got": n, "max": mx, "why": why[p.lang == "en"]}, (q["qp"], "sqfull"), where)
    elif n > q["asked"]["max_send_wr"] and n <= mx:
        beyond(p, "QP %s" % q["qp"], "cap.max_send_wr", n, q["asked"]["max_send_wr"], mx, where)
    if signaled:
        cq_depth(p, q["send_cq"], where)


def recv_depth(p, q, s, r, where):
    if q is None and s is None:
        return      # 投递到一个日志里没有创建过的 SRQ（创建它的那行被跳过了）：没有深度可比
    if s is not None:
        if s["depth_off"] or s.get("max_wr") is None:
            return
        s["rq"].append(r["wr_id"])
        if len(s["rq"]) > s["max_wr"]:
            p.rule("recv.rq_full", {"what": "SRQ", "got": len(s["rq"]), "cap": "max_wr", "max": s["max_wr"]},
                   (r["srq"], "rqfull"), where)
        for cq in {x["recv_cq"] for x in p.qps.values() if x["alive"] and x["srq"] == r["srq"]}:
            cq_depth(p, cq, where)
        return
    if q["depth_off"] or q["srq"] in p.srqs:
        return
    q["rq"].append(r["wr_id"])
    n, mx = len(q["rq"]), q["cap"]["max_recv_wr"]
    if n > mx:
        p.rule("recv.rq_full", {"what": "QP %s" % q["qp"], "got": n, "cap": "max_recv_wr", "max": mx}, (q["qp"], "rqfull"),
               where)
    elif n > q["asked"]["max_recv_wr"]:
        beyond(p, "QP %s" % q["qp"], "cap.max_recv_wr", n, q["asked"]["max_recv_wr"], mx, where)
    cq_depth(p, q["recv_cq"], where)


def cq_depth(p, cqh, where):
    """这个 CQ 上最多可能同时有多少完成还没取走：挂在它上面的 QP 的带信号的发送 + 接收 + 它们的 SRQ 里的接收"""
    c = p.cqs.get(cqh)
    if c is None or not c.get("cqe"):
        return
    qs = [q for q in p.qps.values() if q["alive"] and not q["depth_off"]]
    sends = sum(q["sq_sig"] for q in qs if q["send_cq"] == cqh)
    recvs = sum(len(q["rq"]) for q in qs if q["recv_cq"] == cqh)
    srqs = {q["srq"] for q in qs if q["recv_cq"] == cqh and q["srq"] in p.srqs}
    recvs += sum(len(p.srqs[x]["rq"]) for x in srqs if not p.srqs[x]["depth_off"])
    n = sends + recvs
    if n > c["cqe"]:
        what = ("%d 个带信号的发送、%d 个接收" % (sends, recvs), "%d signalled sends, %d receives" % (sends, recvs))
        p.rule("cq.overflow", {"cq": cqh, "got": n, "max": c["cqe"], "what": what[p.lang == "en"]}, (cqh, "cqover"), where)
    elif c.get("cqe_asked") is not None and n > c["cqe_asked"]:
        beyond(p, "CQ %s" % cqh, "cqe", n, c["cqe_asked"], c["cqe"], where)


def wc_frees(p, r):
    """一个取走的完成释放的位置：发送的（带信号的）释放它和它前面的；接收的释放它自己（SRQ 的从 SRQ 里）。
    失败的完成：QP 进了错误状态，这个 QP（和它的 SRQ）的深度不再判断"""
    qs = [q for q in p.qps.values() if q["alive"] and q["qp"] == r["qp"] and r["cq"] in (q["send_cq"], q["recv_cq"])]
    if not qs:
        return
    q = qs[0]
    if r["status"] != 0:
        q["depth_off"] = True
        q["sq"].clear(), q["rq"].clear()
        q["sq_sig"] = 0
        if q["srq"] in p.srqs:
            p.srqs[q["srq"]]["depth_off"] = True
        return
    if r.get("opcode", 0) & 128:   # IBV_WC_RECV、IBV_WC_RECV_RDMA_WITH_IMM
        rq = p.srqs[q["srq"]]["rq"] if q["srq"] in p.srqs else q["rq"]
        if r["wr_id"] in rq:
            rq.remove(r["wr_id"])
        elif rq:
            rq.popleft()
        return
    sq = q["sq"]
    idx = next((i for i, (w, sig) in enumerate(sq) if sig and w == r["wr_id"]), None)
    if idx is None:
        idx = next((i for i, (w, sig) in enumerate(sq) if sig), None)
    for _ in range(idx + 1 if idx is not None else 0):
        q["sq_sig"] -= sq.popleft()[1]


# ---------- UD 的发送 ----------
def ud_send(p, q, r, where):
    """一边：没有 AH、AH 在另一个 PD；记下每种（remote_qpn, remote_qkey, AH）给 --pair"""
    ah = r.get("ah")
    if ah is None:
        return
    if ah == 0:
        p.rule("ud.no_ah", {}, (q["qp"], "noah"), where)
    elif ah in p.ahs and p.ahs[ah]["pd"] != q["pd"]:
        p.rule("ud.ah_pd", {"qp": q["qp"], "ahpd": p.ahs[ah]["pd"], "qppd": q["pd"]}, (q["qp"], "ahpd"), where)
    q["ud_sends"].setdefault((r.get("remote_qpn"), r.get("remote_qkey"), ah), where)


def wc(p, r):
    wc_frees(p, r)
    st = r["status"]
    if st == 0:
        return
    name = VR.named(VR.WC_STATUS, st)
    if st == 5:
        p.rule("wc.flush", {"n": "", "qp": r["qp"]}, (r["qp"], "flush"), "ibv_poll_cq")
        return
    cause = R.WC_CAUSES.get(st, ("", ""))[1 if p.lang == "en" else 0]
    p.rule("wc.error", {"qp": r["qp"], "wr_id": r["wr_id"], "status": name, "cause": cause}, (r["qp"], st), "ibv_poll_cq")


def finish(p):
    """日志的结尾：没确认的异步事件、泄漏"""
    if p.async_got > p.async_acked:
        p.rule("cleanup.async_unacked", {"got": p.async_got, "acked": p.async_acked}, "async", "exit")
    if not p.log["exited"]:
        t = R.TEXT["proc_exit"][p.lang == "en"]
        p.add({"id": "exit.missing", "field": "", "seen": t, "message": t, "reason": "", "severity": "note",
               "source": "", "link": "docs/VERBS-CHECK.md"}, "exit")
        return
    mine = lambda o: o.get("alive") and o.get("by") != "rdmacm"  # noqa: E731
    left = []
    for kind, objs in (("QP", p.qps.values()), ("SRQ", p.srqs.values()), ("CQ", p.cqs.values()), ("MR", p.mrs),
                       ("AH", p.ahs.values()), ("PD", p.pds.values()), ("ibv_context", p.ctx.values())):
        n = sum(1 for o in objs if mine(o))
        if n:
            left.append("%d %s" % (n, kind))
    if left:
        p.rule("cleanup.leak", {"what": ", ".join(left)}, "leak", "exit")


# ---------- 两边 ----------
def src_gids(p):
    return {q["rtr"]["sgid"] for q in p.qps.values() if q["rtr"] and q["rtr"]["sgid"]} | \
        {a["sgid"] for a in p.ahs.values() if a.get("sgid")}


def dgids(p):
    return {q["rtr"]["ah"].get("dgid") for q in p.qps.values() if q["rtr"] and q["rtr"]["ah"].get("is_global")} | \
        {a["dgid"] for a in p.ahs.values()}


def connected(a, b):
    return bool(dgids(a) & src_gids(b)) or bool(dgids(b) & src_gids(a))


def match_qps(a, b):
    """a 的每个已到 RTR 的 QP → b 里和它连着的 QP：先看 b 的 QP 把 dest_qp_num 指向它、dgid 是它的源 GID，
    再看它的 dest_qp_num 指向 b 的哪个 QP（一台机器上两个设备的 QP 号可能相同，所以 GID 也要对上）"""
    qa = [q for q in a.qps.values() if q["rtr"] and q["type"] in ("RC", "UC")]
    qb = [q for q in b.qps.values() if q["rtr"] and q["type"] in ("RC", "UC")]
    out, used = {}, set()
    for q in qa:
        cand = [x for x in qb if id(x) not in used and x["rtr"]["dest_qp_num"] == q["qp"] and
                x["rtr"]["ah"].get("dgid") == q["rtr"]["sgid"]]
        cand = cand or [x for x in qb if id(x) not in used and x["rtr"]["dest_qp_num"] == q["qp"]]
        cand = cand or [x for x in qb if id(x) not in used and q["rtr"]["dest_qp_num"] == x["qp"]]
        if cand:
            out[id(q)] = cand[0]
            used.add(id(cand[0]))
    return qa, out


def judge_pair(a, b, lang):
    """a 这一边的 QP 按 b 判断（调用两次：a→b、b→a）"""
    judge_pair_ud(a, b, lang)
    qa, m = match_qps(a, b)
    b_qpns = sorted({q["qp"] for q in b.qps.values() if q["type"] in ("RC", "UC")})
    for q in qa:
        rtr = q["rtr"]
        where = "ibv_modify_qp(QP %s, INIT->RTR)" % q["qp"]
        if rtr["dest_qp_num"] not in b_qpns:
            a.rule("rtr.dqpn", {"got": rtr["dest_qp_num"], "peer": b.label, "want": ", ".join(map(str, b_qpns))},
                   (q["qp"], "dqpn"), where)
        x = m.get(id(q))
        if x is None:
            continue
        pq = x["qp"]
        if x["rts"] and rtr["rq_psn"] is not None and x["rts"]["sq_psn"] != rtr["rq_psn"]:
            a.rule("rtr.rqpsn", {"got": rtr["rq_psn"], "pqp": pq, "want": x["rts"]["sq_psn"]}, (q["qp"], "psn"), where)
        if rtr["ah"].get("is_global") and x["rtr"]["sgid"] and rtr["ah"]["dgid"] != x["rtr"]["sgid"]:
            a.rule("rtr.dgid", {"got": gid_text(rtr["ah"]["dgid"]), "pqp": pq, "want": gid_text(x["rtr"]["sgid"])},
                   (q["qp"], "dgid"), where)
        if x["rtr"].get("active_mtu"):
            rec = modify_record(a, q, rtr["rec"], ["INIT", "RTR"], peer={"active_mtu": x["rtr"]["active_mtu"]})
            for f in general_check(rec, lang):
                if f["id"] == "rtr.mtu_big":
                    f["where"] = "%s, %s" % (a.label, where)
                    a.add(f, (q["qp"], f["id"]))
        if x["rts"] and rtr["max_dest_rd_atomic"] is not None and (x["rts"]["max_rd_atomic"] or 0) > rtr["max_dest_rd_atomic"]:
            a.rule("rtr.rd_small", {"got": rtr["max_dest_rd_atomic"], "pqp": pq, "want": x["rts"]["max_rd_atomic"]},
                   (q["qp"], "rd"), where)
        remote_ops(a, b, q, x, lang)


def peer_gids(b):
    """对端的 GID：它用作源的（RTR、AH），和它的 UD QP 所在设备上查到的条目"""
    ctxs = {x["ctx"] for x in b.qps.values() if x["type"] == "UD"}
    return src_gids(b) | {g["gid"] for (c, _, _), g in b.gids.items() if c in ctxs and int(g["gid"], 16)}


def judge_pair_ud(a, b, lang):
    """a 的 UD 发送按 b 判断：AH 的 dgid 是 b 的 GID 时 remote_qpn 要是 b 的 UD QP、Q_Key 要是那个 QP 的；
    remote_qpn 是 b 的 UD QP 而 dgid 不是 b 的 GID 时是 AH 错了。两样都不是 b 的：发给别人的，不判断"""
    b_ud = {x["qp"]: x for x in b.qps.values() if x["type"] == "UD"}
    if not b_ud:
        return
    gids = peer_gids(b)
    want = ", ".join(map(str, sorted(b_ud)))
    for q in [q for q in a.qps.values() if q["type"] == "UD"]:
        for (rqpn, rqkey, ah), where in q["ud_sends"].items():
            dgid = (a.ahs.get(ah) or {}).get("dgid")
            to_b = dgid in gids
            x = b_ud.get(rqpn)
            if to_b and x is None:
                a.rule("ud.remote_qpn", {"got": rqpn, "peer": b.label, "want": want}, (q["qp"], "udqpn", rqpn), where)
            elif x is not None and dgid is not None and not to_b:
                a.rule("ud.ah_dgid", {"got": gid_text(dgid), "pqp": x["qp"], "want": ", ".join(sorted(map(gid_text, gids)))},
                       (q["qp"], "ahdgid", ah), where)
            if x is None or rqkey is None or x["qkey"] is None:
                continue
            eff = q["qkey"] if rqkey & 0x80000000 else rqkey
            if eff is not None and eff != x["qkey"]:
                a.rule("ud.qkey", {"got": hex(rqkey), "eff": hex(eff), "pqp": x["qp"], "want": hex(x["qkey"])},
                       (q["qp"], "qkey", rqkey), where)


def remote_ops(a, b, q, x, lang):
    """q（在 a）发出的 RDMA/原子 WR 对 b 的 MR；x（q 在 b 的对端）的权限"""
    opname = {WR_WRITE: "RDMA WRITE", WR_WRITE_IMM: "RDMA WRITE_WITH_IMM", WR_READ: "RDMA READ",
              WR_CAS: "ATOMIC CMP_AND_SWP", WR_FAA: "ATOMIC FETCH_AND_ADD"}
    for s in q["sends"]:
        need = NEED[s["op"]]
        mr, code = b.mr_for(s["rkey"], s["raddr"], max(s["len"], 1), key="rkey", need=need, live=False)
        if mr is None:
            a.rule("pair.remote_mr", {"op": opname[s["op"]], "raddr": s["raddr"], "len": s["len"], "rkey": s["rkey"],
                                      "need": access_names(need), "why": why(code, lang)}, (q["qp"], "rmr", code),
                   s["where"])
        if not x["access"] & need:
            b.rule("pair.qp_access", {"op": opname[s["op"]], "need": access_names(need), "qp": x["qp"],
                                      "got": "%s (%s)" % (hex(x["access"]), access_names(x["access"]))},
                   (x["qp"], "qacc", need), "ibv_modify_qp(QP %s, RESET->INIT)" % x["qp"])


def pairs(procs):
    """日志里互相连着的进程对"""
    cands = [p for p in procs if any(q["rtr"] for q in p.qps.values()) or p.ahs]
    out = []
    for i, a in enumerate(cands):
        for b in cands[i + 1:]:
            if connected(a, b):
                out.append((a, b))
    return out


# ---------- 输出 ----------
def render(f, lang):
    i = 1 if lang == "en" else 0
    T = R.TEXT
    sev = T["sev"][i][f["severity"]]
    cnt = " (x%d)" % f["count"] if f.get("count", 1) > 1 else ""
    lines = ["verbs-check: %s %s %s [%s]%s" % (sev, f["id"], f["field"], f.get("where", ""), cnt),
             "    %s: %s" % (T["seen"][i], f["message"] or f["seen"])]
    if f.get("reason"):
        lines.append("    %s: %s" % (T["why"][i], f["reason"]))
    tail = []
    if f.get("source"):
        tail.append("%s: %s" % (T["source"][i], f["source"]))
    if f.get("link"):
        tail.append("%s: %s" % (T["see"][i], doclinks.en_link(f["link"]) if lang == "en" else f["link"]))
    if tail:
        lines.append("    " + "; ".join(tail))
    return "\n".join(lines)
