#!/usr/bin/env python3
"""tests/verbs-check/cases.py - verbs-check 的规则在最小的日志上（宿主机，不要设备；tests/verbs-check/verbs-check.bats 调用）。

一对正确的 RC 连接（A = 服务端 rxe0 QP 17，B = 客户端 rxe1 QP 18，各有 MR、CQ，按顺序销毁）是基础：它必须没有任何发现。
每个用例只改基础的一处，期待的发现（id 的集合，包括说明）必须正好出现：少一个（规则不触发）或多一个（误报）都失败。
    python3 tests/verbs-check/cases.py            全部用例，失败的说出来，退出码 = 失败的个数
    python3 tests/verbs-check/cases.py NAME...    只跑这些
    python3 tests/verbs-check/cases.py --list
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VC = os.path.join(ROOT, "tools", "verbs-check", "verbs-check")
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import verbs_rules as VR  # noqa: E402

STATE, ACCESS, PKEY, PORT, AV, MTU, TIMEOUT, RETRY, RNR, RQ_PSN, RD, MIN_RNR, SQ_PSN, DEST_RD, DQPN = (
    1, 8, 16, 32, 128, 256, 512, 1024, 2048, 4096, 8192, 32768, 65536, 131072, 1 << 20)
INIT_MASK = STATE | PKEY | PORT | ACCESS
RTR_MASK = STATE | AV | MTU | DQPN | RQ_PSN | DEST_RD | MIN_RNR
RTS_MASK = STATE | TIMEOUT | RETRY | RNR | SQ_PSN | RD


def v4gid(ip):
    return "00000000000000000000ffff" + "".join("%02x" % int(x) for x in ip.split("."))


def side(name, pid, dev, ip, peer_ip, qp, peer_qp, sq_psn, rq_psn, mr_addr, lkey, rkey, peer_mr, peer_rkey):
    """一边的日志（记录的列表），和记录器写的格式一样"""
    c, pd, cq, qh, mr = "0xc%d" % pid, "0xd%d" % pid, "0xe%d" % pid, "0xf%d" % pid, "0xa%d" % pid
    recs = [
        {"t": "start", "pid": pid, "ppid": 1, "argv": name},
        {"t": "open_device", "dev": dev, "ctx": c},
        {"t": "query_device", "ctx": c, "max_qp_wr": 1024, "max_sge": 4, "max_cqe": 4096, "max_srq_wr": 1024,
         "max_srq_sge": 4, "max_qp_rd_atom": 16, "max_qp_init_rd_atom": 16, "atomic_cap": 1, "ret": 0},
        {"t": "query_port", "ctx": c, "dev": dev, "port": 1, "state": 4, "active_mtu": 3, "max_mtu": 5,
         "link_layer": 2, "gid_tbl_len": 16, "ret": 0},
        {"t": "gid", "ctx": c, "port": 1, "index": 0, "gid": "fe800000000000000000000000000001", "gid_type": 2,
         "ifindex": 3, "ifname": "veth0", "ret": 0},
        {"t": "gid", "ctx": c, "port": 1, "index": 1, "gid": v4gid(ip), "gid_type": 2, "ifindex": 3,
         "ifname": "veth0", "ret": 0},
        {"t": "gid", "ctx": c, "port": 1, "index": 3, "gid": "0" * 32, "ret": 0},
        {"t": "gid", "ctx": c, "port": 1, "index": 4, "gid": v4gid(ip), "gid_type": 1, "ifindex": 3,
         "ifname": "veth0", "ret": 0},
        {"t": "alloc_pd", "ctx": c, "pd": pd},
        {"t": "reg_mr", "pd": pd, "addr": mr_addr, "len": 4096, "access": 15, "mr": mr, "lkey": lkey, "rkey": rkey},
        {"t": "create_cq", "ctx": c, "cqe_asked": 32, "channel": 0, "cq": cq, "cqe": 63},
        {"t": "create_qp", "pd": pd, "ctx": c, "type": 2, "sq_sig_all": 0, "send_cq": cq, "recv_cq": cq,
         "srq": "(nil)", "cap_asked": [16, 16, 1, 1, 0], "qph": qh, "qp": qp, "cap": [16, 16, 1, 1, 0]},
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 2, "mask": INIT_MASK, "qp_state": 1, "qp_access_flags": 14,
         "pkey_index": 0, "port_num": 1, "ret": 0},
        {"t": "post_recv", "qph": qh, "wr_id": 1, "num_sge": 1, "sge": [[mr_addr, 64, lkey]]},
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 2, "mask": RTR_MASK, "qp_state": 2,
         "ah": {"is_global": 1, "sgid_index": 1, "hop_limit": 64, "traffic_class": 0, "flow_label": 0, "sl": 0,
                "static_rate": 0, "port_num": 1, "dlid": 0, "src_path_bits": 0, "dgid": v4gid(peer_ip)},
         "path": {"gid_type": 2, "ndev": "veth0", "sgid": v4gid(ip), "route_ndev": "veth0", "route_local": 0},
         "path_mtu": 3, "rq_psn": rq_psn, "max_dest_rd_atomic": 1, "min_rnr_timer": 12, "dest_qp_num": peer_qp,
         "ret": 0},
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 2, "mask": RTS_MASK, "qp_state": 3, "timeout": 14,
         "retry_cnt": 7, "rnr_retry": 7, "sq_psn": sq_psn, "max_rd_atomic": 1, "ret": 0},
        {"t": "post_send", "qph": qh, "qp": qp, "wr_id": 2, "opcode": 2, "flags": 2, "num_sge": 1,
         "sge": [[mr_addr, 64, lkey]]},
        {"t": "post_send", "qph": qh, "qp": qp, "wr_id": 3, "opcode": 0, "flags": 2, "num_sge": 1,
         "sge": [[mr_addr, 64, lkey]], "raddr": peer_mr, "rkey": peer_rkey},
        {"t": "wc", "cq": cq, "wr_id": 2, "status": 0, "qp": qp, "vendor_err": 0, "opcode": 0, "byte_len": 64,
         "src_qp": 0, "wc_flags": 0},
        {"t": "wc", "cq": cq, "wr_id": 3, "status": 0, "qp": qp, "vendor_err": 0, "opcode": 1, "byte_len": 64,
         "src_qp": 0, "wc_flags": 0},
        {"t": "wc", "cq": cq, "wr_id": 1, "status": 0, "qp": qp, "vendor_err": 0, "opcode": 128, "byte_len": 64,
         "src_qp": 0, "wc_flags": 0},
        {"t": "destroy_qp", "qph": qh, "qp": qp, "ret": 0},
        {"t": "destroy_cq_begin", "cq": cq},
        {"t": "destroy_cq", "cq": cq, "ret": 0},
        {"t": "dereg_mr", "mr": mr, "ret": 0},
        {"t": "dealloc_pd", "pd": pd, "ret": 0},
        {"t": "close_device", "ctx": c, "ret": 0},
        {"t": "exit"},
    ]
    for i, r in enumerate(recs):
        r["seq"] = i
    return {"name": name, "pid": pid, "recs": recs}


def base():
    a = side("rdma_server", 100, "rxe0", "10.11.0.1", "10.11.0.2", 17, 18, 100, 500, 4096, 100, 200, 8192, 300)
    b = side("rdma_client", 200, "rxe1", "10.11.0.2", "10.11.0.1", 18, 17, 500, 100, 8192, 110, 300, 4096, 200)
    return a, b


def rec(s, t, n=0, **match):
    """s 里第 n 个类型为 t（且字段等于 match）的记录"""
    hits = [r for r in s["recs"] if r["t"] == t and all(r.get(k) == v for k, v in match.items())]
    return hits[n]


def drop(s, t, **match):
    s["recs"] = [r for r in s["recs"] if not (r["t"] == t and all(r.get(k) == v for k, v in match.items()))]


def insert_before(s, t, new, **match):
    i = s["recs"].index(rec(s, t, **match))
    s["recs"][i:i] = new if isinstance(new, list) else [new]


def sends(s, n, flags):
    q = rec(s, "create_qp")
    mr = rec(s, "reg_mr")
    return [{"t": "post_send", "qph": q["qph"], "qp": q["qp"], "wr_id": 10 + i, "opcode": 2, "flags": flags,
             "num_sge": 1, "sge": [[mr["addr"], 64, mr["lkey"]]]} for i in range(n)]


# ---- 用例：名字 → (判断方式, 改动, 期待的 id) ----
def c_clean(a, b):
    pass


def c_grh(a, b):
    rec(a, "modify_qp", qp_state=2)["ah"]["is_global"] = 0


def c_init_mask(a, b):
    rec(a, "modify_qp", qp_state=1)["mask"] = INIT_MASK & ~ACCESS


def c_forbidden(a, b):
    rec(a, "modify_qp", qp_state=2)["mask"] |= SQ_PSN


def c_mtu_invalid(a, b):
    rec(a, "modify_qp", qp_state=2)["path_mtu"] = 0


def c_mtu_big(a, b):
    rec(a, "modify_qp", qp_state=2)["path_mtu"] = 5


def c_sgid_empty(a, b):
    rec(a, "modify_qp", qp_state=2)["ah"]["sgid_index"] = 3


def c_gid_v1(a, b):
    rec(a, "modify_qp", qp_state=2)["ah"]["sgid_index"] = 4


def c_link_local(a, b):
    rec(a, "modify_qp", qp_state=2)["ah"]["sgid_index"] = 0


def c_caps(a, b):
    rec(a, "query_device")["max_qp_wr"] = 8


def c_sge_count(a, b):
    p = rec(a, "post_send", wr_id=2)
    p["num_sge"], p["sge"] = 2, p["sge"] * 2


def c_inline(a, b):
    rec(a, "post_send", wr_id=2)["flags"] = 2 | 8


def c_no_mr(a, b):
    rec(a, "post_send", wr_id=2)["sge"][0][2] = 101


def c_no_mr_range(a, b):
    rec(a, "post_recv")["sge"][0][1] = 8192


def c_atomic(a, b):
    p = rec(a, "post_send", wr_id=3)
    p["opcode"], p["raddr"], p["sge"][0][1] = 6, p["raddr"] + 4, 8


def c_atomic_len(a, b):
    p = rec(a, "post_send", wr_id=3)
    p["opcode"], p["sge"][0][1] = 5, 16


def send_wc(s, wr_id):
    q = rec(s, "create_qp")
    return {"t": "wc", "cq": q["send_cq"], "wr_id": wr_id, "status": 0, "qp": q["qp"], "vendor_err": 0, "opcode": 0,
            "byte_len": 64, "src_qp": 0, "wc_flags": 0}


def c_unsignaled(a, b):
    insert_before(a, "destroy_qp", sends(a, 16, 0))


def c_unsignaled_ok(a, b):
    """15 个不带信号 + 1 个带信号（它的完成取走了：16 个位置都释放）+ 15 个不带信号：队列从来没有超过 16"""
    signalled = sends(a, 1, 2)
    insert_before(a, "destroy_qp", sends(a, 15, 0) + signalled + [send_wc(a, signalled[0]["wr_id"])] + sends(a, 15, 0))


def c_remote_no_local(a, b):
    rec(a, "reg_mr")["access"] = 2


def c_busy(a, b):
    d = rec(a, "destroy_cq")
    insert_before(a, "destroy_qp", [{"t": "destroy_cq_begin", "cq": d["cq"]}, dict(d, ret=16, errno=16)])


def c_mr_before_qp(a, b):
    d = rec(a, "dereg_mr")
    drop(a, "dereg_mr")
    insert_before(a, "destroy_qp", d)


def c_unacked(a, b):
    cq = rec(a, "create_cq")["cq"]
    insert_before(a, "destroy_qp", [{"t": "get_cq_event", "cq": cq, "ret": 0}, {"t": "get_cq_event", "cq": cq, "ret": 0},
                                    {"t": "ack_cq_events", "cq": cq, "n": 1}])


def c_acked(a, b):
    cq = rec(a, "create_cq")["cq"]
    insert_before(a, "destroy_qp", [{"t": "get_cq_event", "cq": cq, "ret": 0}, {"t": "get_cq_event", "cq": cq, "ret": 0},
                                    {"t": "ack_cq_events", "cq": cq, "n": 2}])


def c_async(a, b):
    insert_before(a, "destroy_qp", {"t": "async_event", "ctx": rec(a, "open_device")["ctx"], "event": 3, "ret": 0})


TEARDOWN = ("destroy_qp", "destroy_cq_begin", "destroy_cq", "dereg_mr", "dealloc_pd", "close_device")


def c_leak(a, b):
    for t in TEARDOWN:
        drop(a, t)


def c_leak_rdmacm(a, b):
    """librdmacm 自己的设备和 PD 不算泄漏"""
    insert_before(a, "exit", [{"t": "open_device", "dev": "rxe1", "ctx": "0xrd", "by": "rdmacm"},
                              {"t": "alloc_pd", "ctx": "0xrd", "pd": "0xrp", "by": "rdmacm"}])


def c_no_exit(a, b):
    drop(a, "exit")
    for t in TEARDOWN:
        drop(a, t)


def c_wc_error(a, b):
    rec(a, "wc", wr_id=2).update(status=12)


def c_flush(a, b):
    rec(a, "wc", wr_id=1).update(status=5)


def c_flags(a, b):
    rec(a, "post_send", wr_id=2)["flags"] = 2 | 0x100


def c_timeout(a, b):
    rec(a, "modify_qp", qp_state=3)["timeout"] = 40


def c_failed(a, b):
    rec(a, "modify_qp", qp_state=2).update(ret=-1, errno=22)


def c_dqpn(a, b):
    rec(a, "modify_qp", qp_state=2)["dest_qp_num"] = 17   # 自己的 QP 号


def c_rqpsn(a, b):
    rec(a, "modify_qp", qp_state=2)["rq_psn"] = 501


def c_dgid(a, b):
    rec(a, "modify_qp", qp_state=2)["ah"]["dgid"] = v4gid("10.11.0.9")


def c_pair_mtu(a, b):
    rec(b, "query_port")["active_mtu"] = 2
    rec(b, "modify_qp", qp_state=2)["path_mtu"] = 2


def c_rd_small(a, b):
    rec(b, "modify_qp", qp_state=3)["max_rd_atomic"] = 4


def c_remote_rkey(a, b):
    rec(a, "post_send", wr_id=3)["rkey"] = 999


def c_remote_access(a, b):
    rec(b, "reg_mr")["access"] = 1


def c_remote_range(a, b):
    rec(a, "post_send", wr_id=3)["raddr"] += 4090


def c_qp_access(a, b):
    rec(b, "modify_qp", qp_state=1)["qp_access_flags"] = 0


def c_two_qps(a, b):
    """两边各两个 QP，创建的顺序相反：A 的 17 ↔ B 的 31，A 的 19 ↔ B 的 30（PSN 各不相同）。
    按位置配对（而不是按交换的 QP 号和 GID）就会把不相连的 QP 放在一起比，报出不存在的 PSN 错误"""
    for s, mine, peer, psns in ((a, (17, 19), (31, 30), ((100, 500), (101, 501))),
                                (b, (30, 31), (19, 17), ((501, 101), (500, 100)))):
        qrecs = [r for r in s["recs"] if r.get("qph") or r["t"] == "create_qp"]
        first = [copy.deepcopy(r) for r in qrecs]
        second = [copy.deepcopy(r) for r in qrecs]
        for recs, qp, pq, (sq, rq) in ((first, mine[0], peer[0], psns[0]), (second, mine[1], peer[1], psns[1])):
            for r in recs:
                r["qph"], r["qp"] = "0xq%d" % qp, qp
                if r.get("qp_state") == 2:
                    r["dest_qp_num"], r["rq_psn"] = pq, rq
                if r.get("qp_state") == 3:
                    r["sq_psn"] = sq
        keep = [r for r in s["recs"] if r not in qrecs]
        at = s["recs"].index(qrecs[0])
        s["recs"] = keep[:at] + first + second + keep[at:]
    for s in (a, b):
        for r in s["recs"]:
            if r["t"] == "wc":
                r["qp"] = rec(s, "create_qp")["qp"]


def c_two_qps_psn(a, b):
    c_two_qps(a, b)
    rec(a, "modify_qp", qp_state=2, qp=19)["rq_psn"] = 777


def c_wrong_ndev(a, b):
    rec(a, "modify_qp", qp_state=2)["path"]["route_ndev"] = "eth1"


def c_ndev_local(a, b):
    """目的地址是本机的（一台机器上的回环：内核答 local）：不是错的网卡"""
    rec(a, "modify_qp", qp_state=2)["path"].update(route_ndev="lo", route_local=1)


def c_ndev_unknown(a, b):
    """查不到路由（记录器写 null）：不猜"""
    rec(a, "modify_qp", qp_state=2)["path"]["route_ndev"] = None


def c_wrong_ndev_nogid(a, b):
    """程序没有查过 GID 表：用记录器自己查的条目（path.sgid）判断"""
    a["recs"] = [r for r in a["recs"] if r["t"] != "gid"]
    c_wrong_ndev(a, b)


def c_sq_full(a, b):
    insert_before(a, "destroy_qp", sends(a, 15, 2))     # 加上 wr 2、3 以后……wr 2、3 的完成已取走：15 个，没有超过


def c_sq_full_bad(a, b):
    insert_before(a, "destroy_qp", sends(a, 17, 2))


def c_sq_polled(a, b):
    """16 个带信号的 WR 占满队列，取走第一个的完成，再投一个：还是 16 个"""
    more = sends(a, 16, 2)
    insert_before(a, "destroy_qp", more + [send_wc(a, more[0]["wr_id"])] + sends(a, 1, 2))


def recvs(s, n, first=100):
    q = rec(s, "create_qp")
    mr = rec(s, "reg_mr")
    return [{"t": "post_recv", "qph": q["qph"], "wr_id": first + i, "num_sge": 1, "sge": [[mr["addr"], 64, mr["lkey"]]]}
            for i in range(n)]


def c_rq_full(a, b):
    insert_before(a, "destroy_qp", recvs(a, 17))


def c_rq_ok(a, b):
    insert_before(a, "destroy_qp", recvs(a, 16))


def c_cq_overflow(a, b):
    rec(a, "create_cq").update(cqe=8, cqe_asked=8)
    insert_before(a, "destroy_qp", recvs(a, 9))


def c_cq_fits(a, b):
    rec(a, "create_cq").update(cqe=8, cqe_asked=8)
    insert_before(a, "destroy_qp", recvs(a, 8))


def c_beyond_asked(a, b):
    """要了 10 个，驱动给了 16 个，用到 12 个：合法（说明）"""
    q = rec(a, "create_qp")
    q["cap_asked"] = [10, 16, 1, 1, 0]
    insert_before(a, "destroy_qp", sends(a, 12, 2))


def c_caps_cq(a, b):
    rec(a, "query_device")["max_cqe"] = 16


def c_rd_big(a, b):
    """RTR 的 max_dest_rd_atomic 超过设备的 max_qp_rd_atom（记录器自己问的 ibv_query_device 也算）"""
    rec(a, "query_device")["by"] = "verbs-check"
    rec(a, "modify_qp", qp_state=2)["max_dest_rd_atomic"] = 32


def c_caps_rd(a, b):
    rec(a, "modify_qp", qp_state=3)["max_rd_atomic"] = 32


def srq_recs(s, max_wr, n, asked=None):
    pd, mr = rec(s, "alloc_pd")["pd"], rec(s, "reg_mr")
    srq = "0x5%d" % s["pid"]
    return [{"t": "create_srq", "pd": pd, "max_wr_asked": asked or max_wr, "max_sge_asked": 1, "srq": srq,
             "max_wr": max_wr, "max_sge": 1}] + \
        [{"t": "post_srq_recv", "srq": srq, "wr_id": 200 + i, "num_sge": 1, "sge": [[mr["addr"], 64, mr["lkey"]]]}
         for i in range(n)] + [{"t": "destroy_srq", "srq": srq, "ret": 0}]


def c_srq_full(a, b):
    insert_before(a, "destroy_qp", srq_recs(a, 4, 5))


def c_srq_ok(a, b):
    insert_before(a, "destroy_qp", srq_recs(a, 4, 4))


def c_caps_srq(a, b):
    insert_before(a, "destroy_qp", srq_recs(a, 4, 0, asked=4096))


# ---- UD：两边各一个 UD QP（QP 号相同，和一台机器上两个设备一样），各有一个指向对端的 AH ----
UD_INIT = STATE | PKEY | PORT | 64      # IBV_QP_QKEY
QKEY = 0x11111111


def make_ud(s, peer_qp, peer_ip, ip):
    q = rec(s, "create_qp")
    c, pd, qh, qp = q["ctx"], q["pd"], q["qph"], q["qp"]
    q["type"] = 4
    for r in s["recs"]:
        if r["t"] == "modify_qp":
            r["type"] = 4
    i = s["recs"].index(rec(s, "modify_qp", qp_state=1))
    j = s["recs"].index(rec(s, "modify_qp", qp_state=3))
    ah = 7000 + s["pid"]
    mr = rec(s, "reg_mr")
    s["recs"][i:j + 1] = [
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 4, "mask": UD_INIT, "qp_state": 1, "pkey_index": 0,
         "port_num": 1, "qkey": QKEY, "ret": 0},
        {"t": "post_recv", "qph": qh, "wr_id": 1, "num_sge": 1, "sge": [[mr["addr"], 64, mr["lkey"]]]},
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 4, "mask": STATE, "qp_state": 2, "ret": 0},
        {"t": "modify_qp", "qph": qh, "qp": qp, "type": 4, "mask": STATE | SQ_PSN, "qp_state": 3, "sq_psn": 5, "ret": 0},
        {"t": "create_ah", "pd": pd, "ctx": c, "ah": ah, "is_global": 1, "sgid_index": 1, "port_num": 1,
         "dgid": v4gid(peer_ip),
         "path": {"gid_type": 2, "ndev": "veth0", "sgid": v4gid(ip), "route_ndev": "veth0", "route_local": 0}}]
    s["recs"] = [r for r in s["recs"] if not (r["t"] == "post_send" and r.get("wr_id") == 3)]
    p = rec(s, "post_send", wr_id=2)
    p.update(ah=ah, remote_qpn=peer_qp, remote_qkey=QKEY)
    insert_before(s, "destroy_cq_begin", {"t": "destroy_ah", "ah": ah, "ret": 0})
    for r in s["recs"]:
        if r["t"] == "wc" and r["wr_id"] == 3:
            s["recs"].remove(r)
            break


def ud(a, b):
    make_ud(a, 17, "10.11.0.2", "10.11.0.1")
    rec(b, "create_qp")["qp"] = 17
    for r in b["recs"]:
        if "qp" in r and r["t"] != "wc":
            r["qp"] = 17
        if r["t"] == "wc":
            r["qp"] = 17
    make_ud(b, 17, "10.11.0.1", "10.11.0.2")


def c_ud_clean(a, b):
    ud(a, b)


def c_ud_qpn(a, b):
    ud(a, b)
    rec(a, "post_send", wr_id=2)["remote_qpn"] = 18


def c_ud_qkey(a, b):
    ud(a, b)
    rec(a, "post_send", wr_id=2)["remote_qkey"] = 0x22222222


def c_ud_qkey_own(a, b):
    """remote_qkey 的最高位是 1：用发送 QP 自己的 qkey（和对端的一样）"""
    ud(a, b)
    rec(a, "post_send", wr_id=2)["remote_qkey"] = 0x80000000


def c_ud_qkey_own_bad(a, b):
    ud(a, b)
    rec(a, "post_send", wr_id=2)["remote_qkey"] = 0x80000000
    rec(a, "modify_qp", qp_state=1)["qkey"] = 0x33


def c_ud_dgid(a, b):
    """AH 指向自己的 GID（对端交换来的 QP 号是对的）"""
    ud(a, b)
    rec(a, "create_ah")["dgid"] = v4gid("10.11.0.1")


def c_ud_no_ah(a, b):
    ud(a, b)
    rec(a, "post_send", wr_id=2)["ah"] = 0


def c_ud_ah_pd(a, b):
    ud(a, b)
    rec(a, "create_ah")["pd"] = "0xotherpd"


CASES = {
    "clean": ("pair", c_clean, []),
    "rtr.grh": ("judge", c_grh, ["rtr.grh"]),
    "qp.mask_missing": ("judge", c_init_mask, ["qp.mask_missing"]),
    "qp.mask_forbidden": ("judge", c_forbidden, ["qp.mask_forbidden"]),
    "rtr.mtu_invalid": ("judge", c_mtu_invalid, ["rtr.mtu_invalid"]),
    "rtr.mtu_big": ("judge", c_mtu_big, ["rtr.mtu_big"]),
    "rtr.sgid_empty": ("judge", c_sgid_empty, ["rtr.sgid_empty"]),
    "gid.v1": ("judge", c_gid_v1, ["gid.v1"]),
    "gid.link_local": ("judge", c_link_local, ["gid.link_local", "gid.family"]),
    "caps.device": ("judge", c_caps, ["caps.device"]),
    "post.sge_count": ("judge", c_sge_count, ["post.sge_count"]),
    "send.inline_big": ("judge", c_inline, ["send.inline_big"]),
    "sge.no_mr": ("judge", c_no_mr, ["sge.no_mr"]),
    "sge.no_mr range": ("judge", c_no_mr_range, ["sge.no_mr"]),
    "atomic.align": ("judge", c_atomic, ["atomic.align"]),
    "atomic.len": ("judge", c_atomic_len, ["atomic.len"]),
    "send.unsignaled_run": ("judge", c_unsignaled, ["send.unsignaled_run"]),
    "unsignaled run broken by a signalled WR": ("judge", c_unsignaled_ok, []),
    "access.remote_without_local": ("judge", c_remote_no_local, ["access.remote_without_local"]),
    "cleanup.cq_before_qp (EBUSY)": ("judge", c_busy, ["cleanup.cq_before_qp"]),
    "cleanup.mr_before_qp (the QP posted WRs into it)": ("judge", c_mr_before_qp, ["cleanup.mr_before_qp"]),
    "cleanup.unacked": ("judge", c_unacked, ["cleanup.unacked"]),
    "cq events all acked": ("judge", c_acked, []),
    "cleanup.async_unacked": ("judge", c_async, ["cleanup.async_unacked"]),
    "cleanup.leak": ("judge", c_leak, ["cleanup.leak"]),
    "librdmacm's own objects are no leak": ("judge", c_leak_rdmacm, []),
    "no exit record: leaks not judged": ("judge", c_no_exit, ["exit.missing"]),
    "wc.error": ("judge", c_wc_error, ["wc.error"]),
    "wc.flush": ("judge", c_flush, ["wc.flush"]),
    "send.flags_unknown": ("judge", c_flags, ["send.flags_unknown"]),
    "rts.timeout_range": ("judge", c_timeout, ["rts.timeout_range"]),
    "call.failed": ("judge", c_failed, ["call.failed"]),
    "gid.wrong_ndev": ("judge", c_wrong_ndev, ["gid.wrong_ndev"]),
    "gid.wrong_ndev from the recorder's own GID lookup": ("judge", c_wrong_ndev_nogid, ["gid.wrong_ndev"]),
    "destination on this host (loopback, route local): no wrong NIC": ("judge", c_ndev_local, []),
    "no route found: no wrong-NIC guess": ("judge", c_ndev_unknown, []),
    "send queue at 15 of 16 after polling": ("judge", c_sq_full, []),
    "send.sq_full": ("judge", c_sq_full_bad, ["send.sq_full"]),
    "send queue: a polled signalled completion frees a slot": ("judge", c_sq_polled, []),
    "recv.rq_full": ("judge", c_rq_full, ["recv.rq_full"]),
    "receive queue exactly full": ("judge", c_rq_ok, []),
    "recv.rq_full (SRQ)": ("judge", c_srq_full, ["recv.rq_full"]),
    "SRQ exactly full": ("judge", c_srq_ok, []),
    "cq.overflow": ("judge", c_cq_overflow, ["cq.overflow"]),
    "CQ exactly full": ("judge", c_cq_fits, []),
    "caps.beyond_asked (note)": ("judge", c_beyond_asked, ["caps.beyond_asked"]),
    "caps.device (CQ cqe)": ("judge", c_caps_cq, ["caps.device"]),
    "caps.device (SRQ max_wr)": ("judge", c_caps_srq, ["caps.device"]),
    "caps.device (max_rd_atomic at RTS)": ("judge", c_caps_rd, ["caps.device"]),
    "rtr.rd_big (the recorder's own device query)": ("judge", c_rd_big, ["rtr.rd_big"]),
    "UD pair clean (same QP number on both devices)": ("pair", c_ud_clean, []),
    "ud.remote_qpn": ("pair", c_ud_qpn, ["ud.remote_qpn"]),
    "ud.qkey": ("pair", c_ud_qkey, ["ud.qkey"]),
    "UD remote_qkey with bit 31: the QP's own qkey, equal to the peer's": ("pair", c_ud_qkey_own, []),
    "ud.qkey (bit 31: the QP's own qkey differs)": ("pair", c_ud_qkey_own_bad, ["ud.qkey"]),
    "ud.ah_dgid": ("pair", c_ud_dgid, ["ud.ah_dgid"]),
    "ud.no_ah": ("judge", c_ud_no_ah, ["ud.no_ah"]),
    "ud.ah_pd": ("judge", c_ud_ah_pd, ["ud.ah_pd"]),
    "rtr.dqpn (own QP number)": ("pair", c_dqpn, ["rtr.dqpn"]),
    "rtr.rqpsn": ("pair", c_rqpsn, ["rtr.rqpsn"]),
    "rtr.dgid": ("pair", c_dgid, ["rtr.dgid"]),
    "rtr.mtu_big (the peer's smaller MTU)": ("pair", c_pair_mtu, ["rtr.mtu_big"]),
    "rtr.rd_small": ("pair", c_rd_small, ["rtr.rd_small"]),
    "pair.remote_mr (rkey)": ("pair", c_remote_rkey, ["pair.remote_mr"]),
    "pair.remote_mr (access)": ("pair", c_remote_access, ["pair.remote_mr"]),
    "pair.remote_mr (range)": ("pair", c_remote_range, ["pair.remote_mr"]),
    "pair.qp_access": ("pair", c_qp_access, ["pair.qp_access"]),
    "two QPs a side, created in opposite order: matched by QP number and GID": ("pair", c_two_qps, []),
    "two QPs a side: the PSN of the second pair": ("pair", c_two_qps_psn, ["rtr.rqpsn"]),
}

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+")
ID_RE = re.compile(r"^verbs-check: (?:error|warning|note|错误|警告|说明) (\S+) ")


def write(d, s):
    p = os.path.join(d, "%s.%d.log" % (s["name"], s["pid"]))
    with open(p, "w") as f:
        for i, r in enumerate(s["recs"]):
            if r["t"] != "start":
                r["seq"] = i
            f.write(json.dumps(r) + "\n")
    return p


def run_case(name):
    how, fn, want = CASES[name]
    a, b = base()
    fn(a, b)
    with tempfile.TemporaryDirectory() as d:
        pa, pb = write(d, a), write(d, b)
        args = [VC, "-v", "--lang", "en"] + (["--judge", pa] if how == "judge" else ["--pair", d])
        r = subprocess.run(args, capture_output=True, text=True)
    # 说明（合法的选择）里 verbs_rules 的一般说明（rtr.min_rnr、rts.timeout……）每个连接都有，不比较；verbs-check 自己的说明比较
    got = sorted({m.group(1) for ln in r.stderr.splitlines() for m in [ID_RE.match(ln)]
                  if m and not (m.group(1) in VR.BY_ID and VR.BY_ID[m.group(1)].get("severity") == "note")})
    ok = got == sorted(set(want))
    if how == "pair" and "pair: " not in r.stderr:
        ok = False
    if ok and not want and r.returncode != 0:
        ok = False
    if CJK.search(r.stderr):          # --lang en：连链接都指向英文版（TROUBLESHOOTING.en.md#gid-step-4，不是 #gid步骤4）
        ok, got = False, got + ["<Chinese in the English output: %s>" % CJK.search(r.stderr).group(0)]
    return ok, got, r.stderr


def main():
    args = sys.argv[1:]
    if args == ["--list"]:
        print("\n".join(CASES))
        return 0
    bad = 0
    for name in args or CASES:
        ok, got, err = run_case(name)
        if not ok:
            bad += 1
            print("FAIL %s: want %s, got %s" % (name, CASES[name][2], got))
            print("".join("    " + ln + "\n" for ln in err.splitlines()[:40]))
    print("%d cases, %d failed" % (len(args or CASES), bad))
    return min(bad, 100)


if __name__ == "__main__":
    sys.exit(main())
