"""vc_judge.py - verbs-check 的判断：读记录器的日志（一行一条 JSON），按规则给出发现。

一边（judge_process）：沿着一个进程的日志走一遍，记住设备、端口、GID、MR、CQ、QP 的状态，每条调用按规则判断；
练习也知道的规则（掩码、字段范围、send_flags）交给 exercises/check/verbs_rules.py（同一个 id、字段和解释），
要看整个日志的规则和两边的规则（judge_pair）在 vc_rules.py。
发现：{"id", "field", "seen", "severity", "message", "reason", "source", "link", "where"}。
"""
import glob
import ipaddress
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vc_rules as R  # noqa: E402

ROOT = os.environ.get("VERBS_CHECK_ROOT") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import verbs_rules as VR  # noqa: E402

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
    recs = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for ln in f:
            ln = ln.strip()
            if not ln.startswith("{"):
                continue
            try:
                recs.append(json.loads(ln))
            except ValueError:
                continue   # 进程被杀时最后一行可能只写了一半
    start = next((r for r in recs if r["t"] == "start"), {})
    name = os.path.basename(path).rsplit(".", 2)[0]
    return {"path": path, "name": name, "pid": start.get("pid"), "argv": start.get("argv", ""), "recs": recs,
            "exited": any(r["t"] == "exit" for r in recs)}


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
    elif t == "create_cq" and "cq" in r:
        p.cqs[r["cq"]] = {"ctx": r["ctx"], "by": r.get("by"), "alive": True, "events": 0, "acked": 0}
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
    elif t == "create_srq" and "srq" in r:
        p.srqs[r["srq"]] = {"by": r.get("by"), "alive": True, "max_sge": r["max_sge"]}
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
        p.ahs[r["ah"]] = {"by": r.get("by"), "alive": True, "dgid": r["dgid"], "ctx": r["ctx"], "pd": r["pd"],
                          "sgid": g["gid"] if g else None}
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


def create_qp(p, r):
    asked = dict(zip(CAP_NAMES, r["cap_asked"]))
    dev = p.dev.get(r["ctx"])
    if dev:
        for cap, lim in (("max_send_wr", "max_qp_wr"), ("max_recv_wr", "max_qp_wr"), ("max_send_sge", "max_sge"),
                         ("max_recv_sge", "max_sge")):
            if asked[cap] > dev[lim] and not (cap == "max_recv_wr" and r.get("srq") not in (None, "(nil)")):
                p.rule("caps.device", {"cap": "cap." + cap, "got": asked[cap], "max": "%s=%s" % (lim, dev[lim])},
                       (cap, r["seq"]), "ibv_create_qp")
    if "qph" not in r:
        p.rule("call.failed", {"call": "ibv_create_qp", "err": os.strerror(r.get("errno") or 0)}, ("cq", r["seq"]),
               "ibv_create_qp")
        return
    p.qps[r["qph"]] = {"qp": r["qp"], "type": QPT.get(r["type"], str(r["type"])), "ctx": r["ctx"], "pd": r["pd"],
                       "send_cq": r["send_cq"], "recv_cq": r["recv_cq"], "srq": r["srq"], "sig_all": r["sq_sig_all"],
                       "cap": dict(zip(CAP_NAMES, r["cap"])), "state": "RESET", "alive": True, "by": r.get("by"),
                       "run": 0, "port": 1, "access": 0, "rtr": None, "rts": None, "sends": []}


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
    if g is None:
        return   # 程序没有查过这个条目：不猜
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
    if r["opcode"] in NEED:
        q["sends"].append({"op": r["opcode"], "raddr": r.get("raddr", 0), "rkey": r.get("rkey", 0),
                           "len": sum(s[1] for s in sges) if r["opcode"] not in (WR_CAS, WR_FAA) else 8,
                           "where": where})
    if r.get("ret"):
        p.rule("call.failed", {"call": "ibv_post_send", "err": "%s (errno=%s)" % (os.strerror(abs(r["ret"])), r["ret"])},
               (q["qp"], "post"), where)


def post_recv(p, r):
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
    sge_in_mr(p, key, r, label, r.get("sge", []))
    if r.get("ret"):
        p.rule("call.failed", {"call": label, "err": os.strerror(abs(r["ret"]))}, (key, "post"), label)


def wc(p, r):
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
        tail.append("%s: %s" % (T["see"][i], f["link"]))
    if tail:
        lines.append("    " + "; ".join(tail))
    return "\n".join(lines)
