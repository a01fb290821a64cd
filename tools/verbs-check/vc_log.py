"""vc_log.py - 读记录器的日志（tools/verbs-check/recorder.c 写的，一行一条 JSON），唯一读它的地方。

日志常常是从另一台机器复制来的：可能被截断（程序被杀、复制中断）、是空的、来自别的版本、根本不是日志。
所以日志里的一切在这里按记录器的格式检查过才交给判断（vc_judge）：每条记录只留下这里认识、类型对的字段；
不合格的行跳过，记下行号和原因（vc_judge 把它们说成 log.cut、log.skipped）；整个文件不能用时抛出 NotALog。
原因是代号加参数，句子（中, 英）在 vc_rules.TEXT 里。
"""
import json
import os

MAX_LINE = 64 << 10      # 记录器一条记录最多 6144 字节（recorder.c 的 struct jb）；更长的行不是它写的


class NotALog(Exception):
    """整个文件不能用：why 是 vc_rules.TEXT 里的代号（log_open、log_empty、log_not_log），detail 填进句子"""

    def __init__(self, path, why, detail=""):
        super().__init__(path, why, detail)
        self.path, self.why, self.detail = path, why, detail


# ---------- 字段的类型：检查函数 + 名字的代号（vc_rules.TEXT["log_types"]） ----------
def _int(v):
    return type(v) is int and -(1 << 63) <= v < (1 << 64)          # u64 的地址、wr_id；bool 不算


def _cint(v):
    return type(v) is int and -(1 << 31) < v < (1 << 31)           # ret、errno：C 的 int（os.strerror 要的）


def _str(v):
    return type(v) is str and len(v) <= 4096


def _gid(v):
    return type(v) is str and len(v) == 32 and all(c in "0123456789abcdefABCDEF" for c in v)


def _caps(v):
    return type(v) is list and len(v) == 5 and all(_int(x) for x in v)


def _sges(v):
    return type(v) is list and all(type(s) is list and len(s) == 3 and all(_int(x) for x in s) for s in v)


def _str_or_null(v):
    return v is None or _str(v)


INT, CINT, STR, GID, CAPS, SGES, STRN = ((_int, "int"), (_cint, "int"), (_str, "str"), (_gid, "gid"), (_caps, "caps"),
                                         (_sges, "sges"), (_str_or_null, "str"))
AH_REQ = {"is_global": INT, "sgid_index": INT, "dgid": GID}
AH_OPT = {k: INT for k in ("hop_limit", "traffic_class", "flow_label", "sl", "static_rate", "port_num", "dlid",
                           "src_path_bits")}
PATH_REQ = {"sgid": GID}
PATH_OPT = {"gid_type": INT, "ndev": STR, "route_ndev": STRN, "route_local": INT}


def _obj(req, opt):
    def ok(v):
        return type(v) is dict and all(k in v and t[0](v[k]) for k, t in req.items()) and \
            all(t[0](v[k]) for k, t in opt.items() if k in v)
    return ok


AH, PATH = (_obj(AH_REQ, AH_OPT), "ah"), (_obj(PATH_REQ, PATH_OPT), "path")
ATTR = {k: INT for k in ("qp_state", "cur_qp_state", "qp_access_flags", "pkey_index", "port_num", "qkey", "path_mtu",
                         "timeout", "retry_cnt", "rnr_retry", "rq_psn", "max_rd_atomic", "min_rnr_timer", "sq_psn",
                         "max_dest_rd_atomic", "dest_qp_num")}


# 什么时候要某些字段：调用成功（ret 是 0 或者没有）、失败、有某个字段、掩码里有某一位
def OK(r):
    return r.get("ret", 0) == 0


def FAILED(r):
    return bool(r.get("ret"))


def HAS(k):
    return lambda r: k in r


def MASK(bit):
    return lambda r: bool(r["mask"] & bit)


# 每种记录：(必须有的字段, 可以有的字段, [(条件, 条件成立时必须有的字段)])。记录器写的每个字段都在这里（recorder.c 的 jb_*）；
# 判断只用这里列出的字段。seq、by、ret、errno 是大多数记录共有的
COMMON = {"seq": INT, "by": STR, "ret": CINT, "errno": CINT}
SCHEMA = {
    "start": ({"pid": INT}, {"ppid": INT, "run": STR, "argv": STR}, []),
    "open_device": ({"ctx": STR, "dev": STR}, {}, []),
    "close_device": ({"ctx": STR}, {}, []),
    "query_port": ({"ctx": STR, "port": INT}, {"dev": STR, "state": INT, "active_mtu": INT, "max_mtu": INT,
                                               "link_layer": INT, "gid_tbl_len": INT}, [(OK, ("active_mtu",))]),
    "query_device": ({"ctx": STR}, {k: INT for k in ("max_qp_wr", "max_sge", "max_cqe", "max_srq_wr", "max_srq_sge",
                                                     "max_qp_rd_atom", "max_qp_init_rd_atom", "atomic_cap")}, []),
    "gid": ({"ctx": STR, "port": INT, "index": INT}, {"gid": GID, "gid_type": INT, "ifindex": INT, "ifname": STR},
            [(OK, ("gid",))]),
    "alloc_pd": ({"ctx": STR}, {"pd": STR}, []),
    "dealloc_pd": ({"pd": STR}, {}, []),
    "reg_mr": ({"access": INT}, {"pd": STR, "addr": INT, "len": INT, "mr": STR, "lkey": INT, "rkey": INT},
               [(HAS("mr"), ("pd", "addr", "len", "lkey", "rkey"))]),
    "dereg_mr": ({"mr": STR}, {}, []),
    "create_cq": ({"ctx": STR}, {"cqe_asked": INT, "channel": INT, "cq": STR, "cqe": INT}, []),
    "get_cq_event": ({}, {"cq": STR}, [(OK, ("cq",))]),
    "ack_cq_events": ({"cq": STR, "n": INT}, {}, []),
    "poll_cq": ({}, {"cq": STR}, []),
    "destroy_cq_begin": ({"cq": STR}, {}, []),
    "destroy_cq": ({"cq": STR}, {}, []),
    "create_srq": ({"pd": STR}, {"max_wr_asked": INT, "max_sge_asked": INT, "srq": STR, "max_wr": INT, "max_sge": INT},
                   [(HAS("srq"), ("max_sge",))]),
    "destroy_srq": ({"srq": STR}, {}, []),
    "create_qp": ({"ctx": STR, "cap_asked": CAPS}, {"pd": STR, "type": INT, "sq_sig_all": INT, "send_cq": STR,
                                                    "recv_cq": STR, "srq": STR, "qph": STR, "qp": INT, "cap": CAPS},
                  [(HAS("qph"), ("pd", "type", "sq_sig_all", "send_cq", "recv_cq", "srq", "qp", "cap"))]),
    "modify_qp": ({"qph": STR, "mask": INT}, dict(ATTR, qp=INT, type=INT, ah=AH, path=PATH, cap=CAPS),
                  [(MASK(1), ("qp_state",)), (MASK(1 << 7), ("ah",)), (FAILED, ("errno",))]),
    "destroy_qp": ({"qph": STR}, {"qp": INT}, []),
    "create_ah": ({"ctx": STR, "pd": STR, "sgid_index": INT, "port_num": INT, "dgid": GID},
                  {"ah": INT, "is_global": INT, "path": PATH}, []),
    "destroy_ah": ({"ah": INT}, {}, []),
    "post_send": ({"qph": STR, "wr_id": INT, "opcode": INT, "flags": INT, "num_sge": INT},
                  {"qp": INT, "sge": SGES, "raddr": INT, "rkey": INT, "ah": INT, "remote_qpn": INT, "remote_qkey": INT},
                  [(HAS("raddr"), ("rkey",))]),
    "post_recv": ({"qph": STR, "wr_id": INT, "num_sge": INT}, {"sge": SGES}, []),
    "post_srq_recv": ({"srq": STR, "wr_id": INT, "num_sge": INT}, {"sge": SGES}, []),
    "wc": ({"cq": STR, "wr_id": INT, "status": INT, "qp": INT},
           {"vendor_err": INT, "opcode": INT, "byte_len": INT, "src_qp": INT, "wc_flags": INT}, []),
    "async_event": ({}, {"ctx": STR, "event": INT}, []),
    "ack_async_event": ({}, {"event": INT}, []),
    "unseen": ({"what": STR}, {}, []),
    "exit": ({}, {}, []),
}


def check(v):
    """一行解析出的 JSON → (干净的记录, None) 或 (None, (原因的代号, 参数))。干净的记录只有这里认识、类型对的字段"""
    if type(v) is not dict or not _str(v.get("t")):
        return None, ("log_not_record", {})
    t = v["t"]
    if t not in SCHEMA:
        return None, ("log_unknown_t", {"t": t[:40]})
    req, opt, cond = SCHEMA[t]
    req = dict(req) if t == "start" else dict(req, seq=INT)
    allowed = dict(COMMON, **opt, **req)
    for k, (ok, tname) in allowed.items():
        if (k in req or k in v) and not (k in v and ok(v[k])):
            return None, ("log_field", {"field": k, "type": tname})
    out = {"t": t}
    out.update({k: v[k] for k in allowed if k in v})
    for when, keys in cond:
        missing = [k for k in keys if k not in out]
        if missing and when(out):
            return None, ("log_field", {"field": missing[0], "type": allowed[missing[0]][1]})
    return out, None


def lines(f):
    """二进制的文件 → (行号, 字节或 None（太长）, 有没有换行)。太长的行不读进内存：先报告、再跳过它剩下的部分"""
    n = 0
    while True:
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        n += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            yield n, None, False
            while raw and not raw.endswith(b"\n"):
                raw = f.readline(1 << 20)
            continue
        yield n, raw, raw.endswith(b"\n")


def parse(raw):
    try:
        return json.loads(raw.decode("utf-8", errors="replace"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return _BAD


_BAD = object()


def _no_constant(name):
    raise ValueError(name)   # NaN、Infinity：记录器不写，JSON 也不允许


def read(path):
    """一个日志文件 → {"path", "name", "pid", "run", "argv", "recs", "exited", "skipped", "cut"}。
    skipped：[(行号, 原因的代号, 参数)]；cut：最后一行没写完时它的行号（前面完整的行照样判断）。
    第一行必须是记录器写的 start 记录，不然整个文件不是日志（NotALog）"""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise NotALog(path, "log_open", e.strerror or str(e)) from None
    recs, skipped, cut, start = [], [], None, None
    with f:
        try:
            for n, raw, whole in lines(f):
                if raw is None:
                    if start is None:
                        raise NotALog(path, "log_not_log")
                    skipped.append((n, "log_too_long", {"max": MAX_LINE}))
                    continue
                if not raw.strip():
                    continue
                v = parse(raw)
                rec, why = (None, ("log_json", {})) if v is _BAD else check(v)
                if start is None:
                    if rec is None or rec["t"] != "start":
                        raise NotALog(path, "log_not_log")
                    start = rec
                    continue
                if rec is not None:
                    recs.append(rec)
                elif not whole and v is _BAD:
                    cut = n             # 最后一行只写了一半（没有换行、不是完整的 JSON）
                else:
                    skipped.append((n,) + why)
        except OSError as e:     # 读的时候出错（比如是一个目录）
            raise NotALog(path, "log_open", e.strerror or str(e)) from None
    if start is None:
        raise NotALog(path, "log_empty")
    name = os.path.basename(path).rsplit(".", 2)[0]
    return {"path": path, "name": name, "pid": start.get("pid"), "run": start.get("run"), "argv": start.get("argv", ""),
            "recs": recs, "exited": any(r["t"] == "exit" for r in recs), "skipped": skipped, "cut": cut}
