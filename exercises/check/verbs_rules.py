"""verbs_rules.py - verbs 调用的一般规则，写成数据：哪个调用、哪个字段、什么条件、说什么、为什么、出处。

练习的检查（rules.py）用它们判断学习者的函数填出来的属性和 WR；别的检查 verbs 调用的工具也可以载入：
    import verbs_rules; verbs_rules.RULES; verbs_rules.QP_TRANSITIONS
    python3 exercises/check/verbs_rules.py --json      # 同样的内容，JSON
这里只有一般规则（对任何程序都成立）；练习专有的提示（用哪个 conn-> 字段）在 rules.py 的 M 里，和规则分开。

条件（condition）是数据，不是代码：
    {"kind": "mask_allowed", "transition": [from, to]}   掩码只能有 QP_TRANSITIONS 里这一步的必需位 + 可选位 + IBV_QP_STATE
    {"kind": "bits", "bits": N}                           值要放得进 N 位
    {"kind": "enum", "values": [...]}                     值要是其中之一
    {"kind": "flags", "known": {...}}                     标志位只能是这些
    {"kind": "set", "field_group": ...}                   字段要被赋值（两次探测用两种毒化字节，值跟着毒化字节变就是没赋值）
    {"kind": "note_if_nonzero"}                           合法的选择：通过，附一句它的意思
"""
import json
import sys

# ---- verbs.h 的常量 ----
QP_STATE, QP_CUR_STATE, QP_EN_SQD_ASYNC_NOTIFY = 1 << 0, 1 << 1, 1 << 2
QP_ACCESS_FLAGS, QP_PKEY_INDEX, QP_PORT, QP_QKEY, QP_AV, QP_PATH_MTU = 1 << 3, 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
QP_TIMEOUT, QP_RETRY_CNT, QP_RNR_RETRY, QP_RQ_PSN, QP_MAX_QP_RD_ATOMIC = 1 << 9, 1 << 10, 1 << 11, 1 << 12, 1 << 13
QP_ALT_PATH, QP_MIN_RNR_TIMER, QP_SQ_PSN, QP_MAX_DEST_RD_ATOMIC = 1 << 14, 1 << 15, 1 << 16, 1 << 17
QP_PATH_MIG_STATE, QP_CAP, QP_DEST_QPN, QP_RATE_LIMIT = 1 << 18, 1 << 19, 1 << 20, 1 << 25
MASK_NAMES = {
    QP_STATE: "IBV_QP_STATE", QP_CUR_STATE: "IBV_QP_CUR_STATE", QP_EN_SQD_ASYNC_NOTIFY: "IBV_QP_EN_SQD_ASYNC_NOTIFY",
    QP_ACCESS_FLAGS: "IBV_QP_ACCESS_FLAGS", QP_PKEY_INDEX: "IBV_QP_PKEY_INDEX", QP_PORT: "IBV_QP_PORT",
    QP_QKEY: "IBV_QP_QKEY", QP_AV: "IBV_QP_AV", QP_PATH_MTU: "IBV_QP_PATH_MTU", QP_TIMEOUT: "IBV_QP_TIMEOUT",
    QP_RETRY_CNT: "IBV_QP_RETRY_CNT", QP_RNR_RETRY: "IBV_QP_RNR_RETRY", QP_RQ_PSN: "IBV_QP_RQ_PSN",
    QP_MAX_QP_RD_ATOMIC: "IBV_QP_MAX_QP_RD_ATOMIC", QP_ALT_PATH: "IBV_QP_ALT_PATH",
    QP_MIN_RNR_TIMER: "IBV_QP_MIN_RNR_TIMER", QP_SQ_PSN: "IBV_QP_SQ_PSN",
    QP_MAX_DEST_RD_ATOMIC: "IBV_QP_MAX_DEST_RD_ATOMIC", QP_PATH_MIG_STATE: "IBV_QP_PATH_MIG_STATE",
    QP_CAP: "IBV_QP_CAP", QP_DEST_QPN: "IBV_QP_DEST_QPN", QP_RATE_LIMIT: "IBV_QP_RATE_LIMIT"}

SRC_QP_TABLE = ("Linux drivers/infiniband/core/verbs.c: qp_state_table / ib_modify_qp_is_ok() (rxe and mlx5_ib both "
                "call it; a mask with a bit outside required | optional | IBV_QP_STATE gets EINVAL)")

# 状态转换 → QP 类型 → (必需位, 可选位)：按内核的 qp_state_table 写（RC 和 UD；读过，没有抄代码）
QP_TRANSITIONS = {
    ("RESET", "INIT"): {"RC": (QP_PKEY_INDEX | QP_PORT | QP_ACCESS_FLAGS, 0),
                        "UD": (QP_PKEY_INDEX | QP_PORT | QP_QKEY, 0)},
    ("INIT", "RTR"): {"RC": (QP_AV | QP_PATH_MTU | QP_DEST_QPN | QP_RQ_PSN | QP_MAX_DEST_RD_ATOMIC | QP_MIN_RNR_TIMER,
                             QP_ALT_PATH | QP_ACCESS_FLAGS | QP_PKEY_INDEX),
                      "UD": (0, QP_PKEY_INDEX | QP_QKEY)},
    ("RTR", "RTS"): {"RC": (QP_TIMEOUT | QP_RETRY_CNT | QP_RNR_RETRY | QP_SQ_PSN | QP_MAX_QP_RD_ATOMIC,
                            QP_CUR_STATE | QP_ALT_PATH | QP_ACCESS_FLAGS | QP_MIN_RNR_TIMER | QP_PATH_MIG_STATE),
                     "UD": (QP_SQ_PSN, QP_CUR_STATE | QP_QKEY)},
}


def mask_names(m):
    return " | ".join(MASK_NAMES.get(1 << b, "bit%d" % b) for b in range(32) if m & (1 << b)) or "0"


def mask_check(transition, qp_type, mask):
    """(少了的位, 不允许的位, 允许的全部位)：ib_modify_qp_is_ok() 的规则"""
    req, opt = QP_TRANSITIONS[tuple(transition)][qp_type]
    allowed = req | opt | QP_STATE
    return req & ~mask | (QP_STATE & ~mask), mask & ~allowed, allowed


# enum ibv_rate（verbs.h）：0 = 端口的全速
RATES = {0: "IBV_RATE_MAX", 2: "2.5 Gb/s", 5: "5 Gb/s", 3: "10 Gb/s", 6: "20 Gb/s", 4: "30 Gb/s", 7: "40 Gb/s",
         8: "60 Gb/s", 9: "80 Gb/s", 10: "120 Gb/s", 11: "14 Gb/s", 12: "56 Gb/s", 13: "112 Gb/s", 14: "168 Gb/s",
         15: "25 Gb/s", 16: "100 Gb/s", 17: "200 Gb/s", 18: "300 Gb/s", 19: "28 Gb/s", 20: "50 Gb/s",
         21: "400 Gb/s", 22: "600 Gb/s", 23: "800 Gb/s", 24: "1200 Gb/s"}
# enum ibv_send_flags
SEND_FLAGS = {1: "IBV_SEND_FENCE", 2: "IBV_SEND_SIGNALED", 4: "IBV_SEND_SOLICITED", 8: "IBV_SEND_INLINE",
              16: "IBV_SEND_IP_CSUM"}
# enum ibv_qp_type / ibv_qp_state（只列这里会出现的）
QP_TYPES = {2: "IBV_QPT_RC", 3: "IBV_QPT_UC", 4: "IBV_QPT_UD"}
QP_STATES = {0: "IBV_QPS_RESET", 1: "IBV_QPS_INIT", 2: "IBV_QPS_RTR", 3: "IBV_QPS_RTS", 4: "IBV_QPS_SQD", 5: "IBV_QPS_SQE",
             6: "IBV_QPS_ERR"}
# enum ibv_mtu
MTUS = {1: "IBV_MTU_256", 2: "IBV_MTU_512", 3: "IBV_MTU_1024", 4: "IBV_MTU_2048", 5: "IBV_MTU_4096"}
# enum ibv_wc_opcode / ibv_wc_status（只列这里会出现的）
WC_OPCODES = {0: "IBV_WC_SEND", 1: "IBV_WC_RDMA_WRITE", 2: "IBV_WC_RDMA_READ", 3: "IBV_WC_COMP_SWAP",
              4: "IBV_WC_FETCH_ADD", 128: "IBV_WC_RECV", 129: "IBV_WC_RECV_RDMA_WITH_IMM"}
WR_OPCODES = {0: "IBV_WR_RDMA_WRITE", 1: "IBV_WR_RDMA_WRITE_WITH_IMM", 2: "IBV_WR_SEND", 3: "IBV_WR_SEND_WITH_IMM",
              4: "IBV_WR_RDMA_READ", 5: "IBV_WR_ATOMIC_CMP_AND_SWP", 6: "IBV_WR_ATOMIC_FETCH_AND_ADD"}
WC_STATUS = ["IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR", "IBV_WC_LOC_EEC_OP_ERR",
             "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
             "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
             "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR"]
# 失败的完成里有定义的字段（ibv_poll_cq(3)：只有 wr_id、status、qp_num、vendor_err）
WC_DEFINED_ON_ERROR = ("wr_id", "status", "qp_num", "vendor_err")


def named(table, v):
    """数字旁边写上名字：opcode=2 (IBV_WC_RDMA_READ)；不在表里时说出来"""
    if isinstance(table, list):
        name = table[v] if isinstance(v, int) and 0 <= v < len(table) else None
    else:
        name = table.get(v)
    return "%s (%s)" % (v, name) if name else "%s (?)" % v


# 一般规则：id、调用、字段、条件、消息（中, 英）、原因（中, 英）、出处
RULES = [
    {"id": "qp.mask_forbidden", "call": "ibv_modify_qp", "field": "attr_mask",
     "condition": {"kind": "mask_allowed", "table": "QP_TRANSITIONS"},
     "message": ("掩码带了 %(extra)s：%(qpt)s 的 %(tr)s 不允许它；允许的只有 %(allowed)s",
                 "the mask has %(extra)s, which %(qpt)s %(tr)s does not allow; the allowed set is %(allowed)s"),
     "reason": ("内核在调用驱动之前用 ib_modify_qp_is_ok() 查掩码：必需的位一个不能少，必需位 + 可选位 + IBV_QP_STATE 之外的位"
                "一个不能多，否则 ibv_modify_qp 返回 EINVAL（rxe 和 mlx5 都一样，实验室里在真实的 rxe 上看到过 RTR、RTS 的 EINVAL）。"
                "每一步的属性属于那一步：RTS 的 sq_psn/timeout/retry_cnt 不能提前在 RTR 给，RTR 的地址和对端 QP 号也不能留到 RTS 再给",
                "Before the driver sees it, the kernel checks the mask with ib_modify_qp_is_ok(): every required bit must be "
                "there and no bit outside required + optional + IBV_QP_STATE, or ibv_modify_qp returns EINVAL (rxe and mlx5 "
                "alike; seen on real rxe in the lab at RTR and at RTS). Each step's attributes belong to that step: RTS's "
                "sq_psn/timeout/retry_cnt cannot be given early at RTR, nor RTR's address and peer QPN late at RTS"),
     "source": SRC_QP_TABLE},
    {"id": "attr.unset", "call": "ibv_modify_qp / ibv_create_qp / ibv_post_send / ibv_post_recv", "field": "*",
     "condition": {"kind": "set"},
     "message": ("%(fields)s 没有赋值：两次探测用了不同的毒化字节（0xa5、0x5a），它的值跟着变（%(vals)s）",
                 "%(fields)s never set: the two probe runs used different poison bytes (0xa5, 0x5a) and the value followed "
                 "them (%(vals)s)"),
     "reason": ("结构体在栈上没有清零，你没赋值的字段就是上一次留在那里的字节：这一次碰巧是 0，下一次就不是。掩码里的那一组属性"
                "（比如 IBV_QP_AV 的整个 ah_attr）内核和网卡都会读。先清零（= { 0 }、复合字面量或 memset），再写你要的值",
                "The struct on the stack was never cleared, so a field you do not set holds whatever bytes were there: 0 by "
                "luck this time, something else the next. The kernel and the NIC read the whole group a mask bit names (all "
                "of ah_attr for IBV_QP_AV, say). Clear it first (= { 0 }, a compound literal or memset), then set what you want"),
     "source": "C11 6.7.9p10 (automatic storage is indeterminate); ibv_modify_qp(3), ibv_post_send(3)"},
    {"id": "attr.sl_range", "call": "ibv_modify_qp", "field": "ah_attr.sl", "condition": {"kind": "bits", "bits": 4},
     "message": ("ah_attr.sl=%(got)s：服务等级只有 4 位（0..15）", "ah_attr.sl=%(got)s: the service level has 4 bits (0..15)"),
     "reason": ("SL 是 4 位的字段（IB 规范的 LRH、verbs 的 ah_attr.sl）；RoCE 上它映射成 VLAN 优先级（PCP，3 位）。超出的值"
                "硬件截掉高位或拒绝，都不是你要的",
                "SL is a 4-bit field (the IB LRH, verbs ah_attr.sl); on RoCE it maps to the VLAN priority (PCP, 3 bits). Bigger "
                "values are truncated or refused by hardware, neither of which is what you meant"),
     "source": "IBTA spec vol. 1, LRH SL (4 bits); ibv_modify_qp(3)"},
    {"id": "attr.flow_label_range", "call": "ibv_modify_qp", "field": "ah_attr.grh.flow_label",
     "condition": {"kind": "bits", "bits": 20},
     "message": ("grh.flow_label=%(got)s：流标签只有 20 位", "grh.flow_label=%(got)s: the flow label has 20 bits"),
     "reason": ("flow_label 是 GRH（IPv6 头）的 20 位字段；RoCE v2 上 rxe 和 mlx5 用它算 UDP 源端口（ECMP 分流）。超出 20 位不是合法的值",
                "flow_label is the GRH's (IPv6 header's) 20-bit field; on RoCE v2 rxe and mlx5 derive the UDP source port "
                "from it (ECMP spreading). Above 20 bits it is not a valid value"),
     "source": "RFC 8200 (flow label, 20 bits); rdma_get_udp_sport() in Linux include/rdma/ib_verbs.h"},
    {"id": "attr.static_rate_bad", "call": "ibv_modify_qp", "field": "ah_attr.static_rate",
     "condition": {"kind": "enum", "values": sorted(RATES)},
     "message": ("ah_attr.static_rate=%(got)s 不是 enum ibv_rate 的值", "ah_attr.static_rate=%(got)s is not an enum ibv_rate value"),
     "reason": ("static_rate 限制这个 QP 发包的速率（enum ibv_rate：0 = 端口的全速，2 = 2.5 Gb/s……）；不在枚举里的值驱动拒绝"
                "（EINVAL）或按它不认识的速率发", "static_rate caps the QP's injection rate (enum ibv_rate: 0 = the port's full "
                "rate, 2 = 2.5 Gb/s, ...); a value outside the enum is refused (EINVAL) or misread by the driver"),
     "source": "enum ibv_rate in infiniband/verbs.h; ibv_modify_qp(3)"},
    {"id": "rtr.mtu_invalid", "call": "ibv_modify_qp", "field": "path_mtu", "condition": {"kind": "enum", "values": sorted(MTUS)},
     "message": ("path_mtu=%(got)s：不是 enum ibv_mtu 的值（IBV_MTU_256=1 … IBV_MTU_4096=5）",
                 "path_mtu=%(got)s: not an enum ibv_mtu value (IBV_MTU_256=1 ... IBV_MTU_4096=5)"),
     "reason": ("path_mtu 是 enum ibv_mtu 的编码，不是字节数：1024 字节写成 IBV_MTU_1024（3）。0 和大于 5 的值没有定义，ibv_modify_qp 返回 EINVAL",
                "path_mtu is an enum ibv_mtu code, not a byte count: 1024 bytes is IBV_MTU_1024 (3). 0 and values above 5 are "
                "undefined and ibv_modify_qp returns EINVAL"),
     "source": "enum ibv_mtu in infiniband/verbs.h; ibv_modify_qp(3)"},
    {"id": "rtr.rnr_range", "call": "ibv_modify_qp", "field": "min_rnr_timer", "condition": {"kind": "bits", "bits": 5},
     "message": ("min_rnr_timer=%(got)s 超出 0..31", "min_rnr_timer=%(got)s is outside 0..31"),
     "reason": ("min_rnr_timer 是 5 位的编码（表见 ibv_modify_qp(3)），超出范围 ibv_modify_qp 返回 EINVAL",
                "min_rnr_timer is a 5-bit code (table in ibv_modify_qp(3)); out of range, ibv_modify_qp returns EINVAL"),
     "source": "ibv_modify_qp(3); IBTA spec vol. 1 (RNR NAK timer, 5 bits)"},
    {"id": "rts.timeout_range", "call": "ibv_modify_qp", "field": "timeout", "condition": {"kind": "bits", "bits": 5},
     "message": ("timeout=%(got)s 超出 0..31", "timeout=%(got)s is outside 0..31"),
     "reason": ("timeout 是 5 位的指数（4.096 µs × 2^timeout）；超出范围 ibv_modify_qp 返回 EINVAL",
                "timeout is a 5-bit exponent (4.096 us x 2^timeout); out of range, ibv_modify_qp returns EINVAL"),
     "source": "ibv_modify_qp(3)"},
    {"id": "rts.retry_range", "call": "ibv_modify_qp", "field": "retry_cnt", "condition": {"kind": "bits", "bits": 3},
     "message": ("retry_cnt=%(got)s 超出 0..7", "retry_cnt=%(got)s is outside 0..7"),
     "reason": ("retry_cnt 只有 3 位", "retry_cnt has 3 bits"), "source": "ibv_modify_qp(3)"},
    {"id": "rts.rnr_range", "call": "ibv_modify_qp", "field": "rnr_retry", "condition": {"kind": "bits", "bits": 3},
     "message": ("rnr_retry=%(got)s 超出 0..7", "rnr_retry=%(got)s is outside 0..7"),
     "reason": ("rnr_retry 只有 3 位，7 = 无限重试", "rnr_retry has 3 bits, 7 = retry forever"), "source": "ibv_modify_qp(3)"},
    {"id": "send.flags_unknown", "call": "ibv_post_send", "field": "send_flags",
     "condition": {"kind": "flags", "known": {str(k): v for k, v in SEND_FLAGS.items()}},
     "message": ("send_flags=%(got)s 带了不是标志的位 %(bits)s", "send_flags=%(got)s has bits that are no flag: %(bits)s"),
     "reason": ("send_flags 只能是 IBV_SEND_FENCE | SIGNALED | SOLICITED | INLINE | IP_CSUM 的组合；别的位没有定义，驱动可以拒绝整个 WR。"
                "常见的来历是在没清零的 WR 上写 send_flags |= …：栈上的旧字节里什么位都可能有。实验室里量过（Debian 12 的 rxe）："
                "send_flags=0xa5a5a5a7（FENCE、SOLICITED 和不是标志的位）rxe 照样发；0x5a5a5a5a（多了 INLINE）让 64 字节的 SEND "
                "超过 max_inline_data=16，ibv_post_send 返回 EINVAL——rxe 拒绝的是 INLINE 这一位，不是不认识的位",
                "send_flags may only combine IBV_SEND_FENCE | SIGNALED | SOLICITED | INLINE | IP_CSUM; other bits are "
                "undefined and a driver may refuse the whole WR. The usual origin is send_flags |= ... on a WR that was never "
                "cleared: old stack bytes may hold any bit. Measured in the lab (Debian 12's rxe): send_flags=0xa5a5a5a7 "
                "(FENCE, SOLICITED and non-flag bits) is sent anyway; 0x5a5a5a5a (INLINE set as well) makes a 64-byte SEND "
                "exceed max_inline_data=16 and ibv_post_send returns EINVAL - rxe refuses the INLINE bit, not the unknown ones"),
     "source": "enum ibv_send_flags in infiniband/verbs.h; rdma-core providers/rxe/rxe.c validate_send_wr()"},
    {"id": "send.flags_ip_csum", "call": "ibv_post_send", "field": "send_flags",
     "condition": {"kind": "flags", "only_qp_types": ["UD", "RAW_PACKET"], "flag": "IBV_SEND_IP_CSUM"},
     "message": ("send_flags 带了 IBV_SEND_IP_CSUM：只给 UD/RAW_PACKET 的 QP、而且设备支持时用", "send_flags has IBV_SEND_IP_CSUM: it is for UD/RAW_PACKET QPs on devices that support it"),
     "reason": ("IP_CSUM 让网卡算 IP/TCP/UDP 校验和（IP over IB、RAW_PACKET）；RC 的 WR 带它没有意义，驱动可以拒绝",
                "IP_CSUM has the NIC compute IP/TCP/UDP checksums (IPoIB, RAW_PACKET); on an RC WR it means nothing and a "
                "driver may refuse it"), "source": "ibv_post_send(3)"},
    {"id": "wc.undefined", "call": "ibv_poll_cq", "field": "wc (status != IBV_WC_SUCCESS)",
     "condition": {"kind": "defined_fields", "fields": list(WC_DEFINED_ON_ERROR)},
     "message": ("失败的完成（%(status)s）你的判断跟着没有定义的字段变了：%(what)s",
                 "on a failed completion (%(status)s) your verdict followed undefined fields: %(what)s"),
     "reason": ("status 不是 IBV_WC_SUCCESS 时，完成里只有 wr_id、status、qp_num、vendor_err 有定义；opcode、byte_len、imm_data、"
                "wc_flags、src_qp……是网卡留下的任何值。检查时用两组不同的值填这些字段，你的函数给出了两个不同的结论：它读了它们",
                "When status is not IBV_WC_SUCCESS only wr_id, status, qp_num and vendor_err are defined; opcode, byte_len, "
                "imm_data, wc_flags, src_qp... hold whatever the NIC left. The check filled them with two different sets of "
                "values and your function reached two different verdicts: it reads them"),
     "source": "ibv_poll_cq(3): 'Not all wc attributes are always valid. If the completion status is other than "
               "IBV_WC_SUCCESS, only the following attributes are valid: wr_id, status, qp_num, and vendor_err'"},
]
BY_ID = {r["id"]: r for r in RULES}

# 合法的选择：通过，附一句它的意思（一般的；练习专有的说明在 rules.NOTES）
NOTES = {
    "attr.static_rate": ("static_rate=%(v)s：限速到 %(rate)s（0 = 端口全速；合法的选择）",
                         "static_rate=%(v)s: rate limited to %(rate)s (0 = the port's full rate; a legal choice)"),
    "attr.flow_label": ("flow_label=%(v)s：RoCE v2 上用它算 UDP 源端口（ECMP 分流），合法的选择",
                        "flow_label=%(v)s: on RoCE v2 it selects the UDP source port (ECMP spreading), a legal choice"),
    "attr.src_path_bits": ("src_path_bits=%(v)s：InfiniBand 的 LID 路径位，RoCE 上没有 LID，不起作用",
                           "src_path_bits=%(v)s: InfiniBand LID path bits; RoCE has no LIDs, so it has no effect"),
    "send.fence": ("send_flags 带了 IBV_SEND_FENCE：这个 WR 等前面的 READ/原子操作完成才开始，合法，只是慢一点",
                   "send_flags has IBV_SEND_FENCE: the WR waits for earlier READs/atomics to finish; legal, only slower"),
    "send.solicited": ("send_flags 带了 IBV_SEND_SOLICITED：对端用 ibv_req_notify_cq(cq, 1) 只等“请求了事件”的完成时，这一条会叫醒它；合法",
                       "send_flags has IBV_SEND_SOLICITED: a peer arming its CQ with ibv_req_notify_cq(cq, 1) (solicited only) "
                       "is woken by it; legal"),
}


def dump():
    return json.dumps({"rules": RULES, "notes": NOTES, "mask_names": {str(k): v for k, v in MASK_NAMES.items()},
                       "qp_transitions": {"%s->%s" % k: {t: {"required": mask_names(r), "optional": mask_names(o)}
                                                         for t, (r, o) in v.items()} for k, v in QP_TRANSITIONS.items()},
                       "wc_defined_on_error": WC_DEFINED_ON_ERROR, "source_qp_table": SRC_QP_TABLE},
                      ensure_ascii=False, indent=1)


if __name__ == "__main__":
    if "--json" in sys.argv:
        print(dump())
    else:
        print(__doc__)
