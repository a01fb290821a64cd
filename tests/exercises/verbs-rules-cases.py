"""verbs-rules-cases.py - verbs_rules.py 的每条一般规则：一个让它成立的记录、一个它不能成立的合法记录（tests/exercises/checker-cases.sh 调用）。

查：
  1. 每条规则（verbs_rules.RULES 的每个 id）在 CASES 里有一对记录；触发的记录给出这个 id，合法的记录不给；
  2. 每个发现的 message、reason 两种语言都有，英文里没有汉字，中文和英文不一样；出处不空；severity 是 error 或 note；
  3. rules.py 自己的规则（M、NOTES）没有和 verbs_rules 重复的：id 不同，解释的文字也不是一般规则的原因；
     练习的提示（HINTS、NOTE_HINTS）只挂在存在的一般规则上。
失败时把原因写到标准输出，退出码 1。用法: python3 tests/exercises/verbs-rules-cases.py
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "exercises", "check"))
import verbs_rules as VR   # noqa: E402
import rules               # noqa: E402

RC_INIT = VR.QP_STATE | VR.QP_PKEY_INDEX | VR.QP_PORT | VR.QP_ACCESS_FLAGS
RC_RTR = (VR.QP_STATE | VR.QP_AV | VR.QP_PATH_MTU | VR.QP_DEST_QPN | VR.QP_RQ_PSN | VR.QP_MAX_DEST_RD_ATOMIC
          | VR.QP_MIN_RNR_TIMER)
RC_RTS = VR.QP_STATE | VR.QP_TIMEOUT | VR.QP_RETRY_CNT | VR.QP_RNR_RETRY | VR.QP_SQ_PSN | VR.QP_MAX_QP_RD_ATOMIC
PORT = {"link_layer": "Ethernet", "pkey_tbl_len": 1, "active_mtu": 3}
GRH = {"sgid_index": 1, "hop_limit": 64, "traffic_class": 0, "flow_label": 0}
AH = {"sl": 0, "static_rate": 0, "src_path_bits": 0, "is_global": 1, "port_num": 1, "grh": GRH}


def init(**attr):
    a = dict({"qp_state": 1, "pkey_index": 0, "port_num": 1, "qp_access_flags": 2}, **attr)
    return {"call": "ibv_modify_qp", "qp_type": "RC", "from": "RESET", "to": "INIT", "mask": RC_INIT, "attr": a, "port": PORT}


def rtr(mask=RC_RTR, ah=None, grh=None, **attr):
    a = dict({"qp_state": 2, "path_mtu": 3, "dest_qp_num": 0x12, "rq_psn": 5, "max_dest_rd_atomic": 1, "min_rnr_timer": 12,
              "ah_attr": dict(AH, **(ah or {}), grh=dict(GRH, **(grh or {})))}, **attr)
    return {"call": "ibv_modify_qp", "qp_type": "RC", "from": "INIT", "to": "RTR", "mask": mask, "attr": a, "port": PORT,
            "peer": {"active_mtu": 3}, "device": {"max_qp_rd_atom": 128}}


def rts(mask=RC_RTS, **attr):
    a = dict({"qp_state": 3, "sq_psn": 7, "timeout": 14, "retry_cnt": 6, "rnr_retry": 6, "max_rd_atomic": 1}, **attr)
    return {"call": "ibv_modify_qp", "qp_type": "RC", "from": "RTR", "to": "RTS", "mask": mask, "attr": a}


def send(flags, qp_type="RC", **extra):
    return dict({"call": "ibv_post_send", "qp_type": qp_type, "wr": {"wr_id": 1, "opcode": 2, "send_flags": flags, "num_sge": 1}},
                **extra)


WC_FAIL = {"call": "ibv_poll_cq", "wc": {"status": 12, "wr_id": 1, "qp_num": 0x11}}

# 规则 id → (触发它的记录, 合法的记录)
CASES = {
    "qp.mask_forbidden": (rtr(mask=RC_RTR | VR.QP_SQ_PSN), rtr(mask=RC_RTR | VR.QP_PKEY_INDEX)),
    "qp.mask_missing": (rtr(mask=RC_RTR & ~VR.QP_RQ_PSN), rtr()),
    "attr.unset": (dict(rtr(), unset={"ah_attr.sl": [0xa5, 0x5a]}), dict(rts(), unset={"ah_attr.sl": [0xa5, 0x5a]})),
    "attr.sl_range": (rtr(ah={"sl": 16}), rtr(ah={"sl": 15})),
    "attr.flow_label_range": (rtr(grh={"flow_label": 1 << 20}), rtr(grh={"flow_label": (1 << 20) - 1})),
    "attr.static_rate_bad": (rtr(ah={"static_rate": 1}), rtr(ah={"static_rate": 3})),
    "rtr.mtu_invalid": (rtr(path_mtu=1024), rtr(path_mtu=3)),
    "rtr.rnr_range": (rtr(min_rnr_timer=32), rtr(min_rnr_timer=31)),
    "rts.timeout_range": (rts(timeout=32), rts(timeout=31)),
    "rts.retry_range": (rts(retry_cnt=8), rts(retry_cnt=7)),
    "rts.rnr_range": (rts(rnr_retry=8), rts(rnr_retry=7)),
    "send.flags_unknown": (send(0xa5a5a5a7), send(2 | 8 | 1 | 4)),
    "send.flags_ip_csum": (send(2 | 16), send(2 | 16, qp_type="UD")),
    "wc.undefined": (dict(WC_FAIL, used=["wr_id", "opcode"]), dict(WC_FAIL, used=["wr_id", "qp_num", "status"])),
    "attr.static_rate": (rtr(ah={"static_rate": 7}), rtr(ah={"static_rate": 0})),
    "attr.flow_label": (rtr(grh={"flow_label": 0x12345}), rtr(grh={"flow_label": 1 << 20})),
    "attr.src_path_bits": (rtr(ah={"src_path_bits": 1}), rtr()),
    "send.fence": (send(2 | 1), send(2)),
    "send.solicited": (send(2 | 4), send(2 | 1)),
    "rtr.hop0": (rtr(grh={"hop_limit": 0}), rtr(grh={"hop_limit": 1})),
    "rtr.grh": (rtr(ah={"is_global": 0}), dict(rtr(ah={"is_global": 0}), port={"link_layer": "InfiniBand"})),
    "init.pkey": (init(pkey_index=1), init()),
    "rtr.mtu_big": (dict(rtr(path_mtu=4), peer={"active_mtu": 5}), dict(rtr(path_mtu=3), peer={"active_mtu": 5})),
    "rtr.rd_big": (rtr(max_dest_rd_atomic=129), rtr(max_dest_rd_atomic=128)),
    "rts.timeout0": (rts(timeout=0), rts(timeout=1)),
    "access.remote_without_local": ({"call": "ibv_reg_mr", "access": 2}, {"call": "ibv_reg_mr", "access": 1 | 2 | 4 | 8}),
    "rtr.min_rnr": (rtr(min_rnr_timer=0), rtr(min_rnr_timer=32)),
    "rtr.hop": (rtr(grh={"hop_limit": 1}), rtr(grh={"hop_limit": 0})),
    "rts.timeout": (rts(timeout=14), rts(timeout=0)),
    "rts.retry": (rts(retry_cnt=6), rts(retry_cnt=7)),
    "rts.retry7": (rts(retry_cnt=7), rts(retry_cnt=6)),
    "rts.rnr": (rts(rnr_retry=0), rts(rnr_retry=8)),
    "rtr.sl": (rtr(grh={"traffic_class": 0x20}), rtr(ah={"sl": 16})),
    "init.local_write": (init(qp_access_flags=1 | 2), init()),
    "cleanup.cq_before_qp": ({"call": "ibv_destroy_cq", "alive": {"qp": 2, "cq": 1}}, {"call": "ibv_destroy_cq", "alive": {"qp": 0, "cq": 1}}),
    "cleanup.srq_before_qp": ({"call": "ibv_destroy_srq", "alive": {"qp": 1}}, {"call": "ibv_destroy_srq", "alive": {"cq": 1}}),
    "cleanup.channel_before_cq": ({"call": "ibv_destroy_comp_channel", "alive": {"cq": 1}},
                                  {"call": "ibv_destroy_comp_channel", "alive": {"qp": 0, "cq": 0}}),
    "cleanup.mr_before_qp": ({"call": "ibv_dereg_mr", "alive": {"qp": 1}}, {"call": "ibv_dereg_mr", "alive": {"qp": 0}}),
    "cleanup.ah_before_qp": ({"call": "ibv_destroy_ah", "alive": {"qp": 1}}, {"call": "ibv_destroy_ah", "alive": {}}),
    "cleanup.ack_after_cq": ({"call": "ibv_ack_cq_events", "alive": {"cq": 0}}, {"call": "ibv_ack_cq_events", "alive": {"cq": 1}}),
}
HAN = re.compile(r"[\u4e00-\u9fff]")


def main():
    bad = []
    ids = [r["id"] for r in VR.RULES]
    if len(set(ids)) != len(ids):
        bad.append("duplicate rule ids in verbs_rules")
    for rid in ids:
        if rid not in CASES:
            bad.append("%s: no firing/legal record pair in CASES" % rid)
            continue
        fire, legal = CASES[rid]
        got = {lang: [f for f in VR.check(fire, lang) if f["id"] == rid] for lang in ("zh", "en")}
        if not got["en"]:
            bad.append("%s: does not fire on %r (fired: %s)" % (rid, fire, [f["id"] for f in VR.check(fire)]))
        elif rid in [f["id"] for f in VR.check(legal)]:
            bad.append("%s: fires on the legal record %r" % (rid, legal))
        for zh, en in zip(got["zh"], got["en"]):
            if not all((zh["message"], zh["reason"], en["message"], en["reason"], en["source"])):
                bad.append("%s: empty message/reason/source" % rid)
            if HAN.search(en["message"] + en["reason"] + en["source"]):
                bad.append("%s: Chinese in the English finding: %s" % (rid, en["message"]))
            if not HAN.search(zh["message"] + zh["reason"]) or zh["message"] == en["message"]:
                bad.append("%s: the Chinese finding is not Chinese: %s" % (rid, zh["message"]))
            if en["severity"] not in ("error", "note") or not {"id", "field", "seen", "severity", "message", "reason",
                                                                     "source", "link"} <= set(en):
                bad.append("%s: finding keys/severity: %s" % (rid, sorted(en)))
    for rid in set(CASES) - set(ids):
        bad.append("%s: in CASES but not a verbs_rules rule" % rid)
    # rules.py：自己的规则不重复一般规则
    dup = (set(rules.OWN_M) | set(rules.OWN_NOTES)) & set(ids)
    if dup:
        bad.append("rules.py repeats general rules: %s" % sorted(dup))
    reasons = {t for r in VR.RULES for t in r["reason"]}
    same = [k for k in rules.OWN_M if set(rules.M[k][2]) & reasons]
    if same:
        bad.append("rules.py explanations copy a general rule's reason: %s" % same)
    for table, keys in (("HINTS", rules.HINTS), ("NOTE_HINTS", rules.NOTE_HINTS)):
        stray = [k for k in keys if k not in VR.BY_ID]
        if stray:
            bad.append("rules.%s has hints for no general rule: %s" % (table, stray))
    print("\n".join(bad) if bad else "ok %d rules" % len(ids))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
