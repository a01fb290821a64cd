"""verbs_rules.py - verbs 调用的一般规则，写成数据：哪个调用、哪个字段、什么条件、多严重、说什么、为什么、出处、链接。

这里只有一般规则（对任何 verbs 程序都成立）；练习专有的提示（用哪个 conn-> 字段、哪一课）在 rules.py，按规则 id 分开放。
练习的检查（rules.py）和检查真实程序的 verbs 调用日志的工具（issue 57 的 verbs-check）用同一个接口：

    import verbs_rules
    verbs_rules.check(record, lang) -> [finding]      # lang: "en" 或 "zh"
    verbs_rules.RULES / BY_ID / QP_TRANSITIONS         # 规则本身（数据）
    python3 exercises/check/verbs_rules.py --json      # 同样的内容，JSON

稳定的接口：以后只加（记录的键、发现的键、规则、条件的种类），不改名、不删。

记录（record）：一个普通的 dict，描述看到的一次 verbs 调用。字段名和 verbs.h 的结构体成员一样；嵌套的结构体可以写成嵌套的
dict，也可以写成点分的键（{"ah_attr": {"grh": {"flow_label": 1}}} 和 {"ah_attr.grh.flow_label": 1} 一样）。没给的键不判断。
    {"call": "ibv_modify_qp", "qp_type": "RC" | "UD", "from": "INIT", "to": "RTR",   # 状态：RESET INIT RTR RTS
     "mask": int,                                    # attr_mask（IBV_QP_* 位）
     "attr": {"qp_state": 2, "path_mtu": 3, "min_rnr_timer": 12, "timeout": 14, "retry_cnt": 6, "rnr_retry": 7,
              "ah_attr": {"sl": 0, "static_rate": 0, "src_path_bits": 0, "is_global": 1, "port_num": 1,
                          "grh": {"sgid_index": 1, "hop_limit": 64, "traffic_class": 0, "flow_label": 0, "dgid": "…"}}, …},
     "port": {"active_mtu": 3, "link_layer": "Ethernet", "gid_tbl_len": 16, "pkey_tbl_len": 1},     # ibv_query_port（可选）
     "peer": {"active_mtu": 3},                      # 对端的端口（可选，连接信息里交换来的）
     "device": {"max_qp_rd_atom": 128, "max_qp_init_rd_atom": 128, …},                            # ibv_query_device（可选）
     "unset": {"ah_attr.sl": [0xa5, 0x5a]}}          # 可选：知道没有赋值的字段（比如两次毒化字节不同的探测）
    只判断调用会读的字段：modify_qp 只读掩码里有的那一组（ah_attr.* 是 IBV_QP_AV，ah_attr.grh.* 还要 is_global=1）。
    {"call": "ibv_create_qp", "qp_type": "RC", "init_attr": {"qp_type": 2, "send_cq": …, "srq": 0,
                                                           "cap": {"max_send_wr": …, "max_recv_wr": …, …}, "sq_sig_all": 0},
     "device": {…}, "unset": {…}}                    # SRQ 时 cap.max_recv_wr/max_recv_sge 不读
    {"call": "ibv_post_send", "qp_type": "RC", "wr": {"wr_id": …, "opcode": 2, "send_flags": 2, "num_sge": 1,
                                                      "sg_list": {"addr": …, "length": …, "lkey": …}, "imm_data": …,
                                                      "wr": {"rdma": {"remote_addr": …, "rkey": …}}},
     "qp_cap": {"max_inline_data": 16, …}, "unset": {…}}   # imm_data 只在 *_WITH_IMM 时读，wr.rdma.* 只在 RDMA 时读
    {"call": "ibv_post_recv", "wr": {…}, "unset": {…}}
    {"call": "ibv_poll_cq", "wc": {"status": 12, "opcode": …, …},
     "used": ["opcode", "byte_len"],                 # 程序的判断用到了哪些字段
     "evidence": "…"}                                # 可选：怎么知道的（写进消息）
    {"call": "ibv_reg_mr", "access": int}            # IBV_ACCESS_* 位
    {"call": "ibv_destroy_cq" | "ibv_destroy_srq" | "ibv_destroy_comp_channel" | "ibv_dereg_mr" | "ibv_destroy_ah"
             | "ibv_ack_cq_events", "alive": {"qp": 2, "cq": 1, …}}   # 调用的这一刻还在的对象，按种类计数（qp srq cq mr ah channel）
    别的调用（选 GID……）的记录和规则以后加；不认识的 call 没有发现。

发现（finding）：{"id", "field", "seen", "severity", "message", "reason", "source", "link", "values"}
    severity "error" 是设备或内核会拒绝、或者规范说没有定义的；"note" 是合法的选择，附一句它的意思。
    message、reason 按 lang；每条规则两种语言都有（RULES 里是 (中, 英)）。link 是 TROUBLESHOOTING.md 或 docs/GALLERY.md
    的标题（相对项目根目录），没有合适的标题时是 None。values 是填进消息的参数（rules.py 用它加上练习的提示）。

条件（condition）是数据，由这里的一个小求值器（_fires）判断：
    {"kind": "mask_allowed"}                掩码有 QP_TRANSITIONS 里这一步的必需位 + 可选位 + IBV_QP_STATE 之外的位
    {"kind": "mask_required"}               掩码少了这一步的必需位（表里没有的转换或 QP 类型不判断）
    {"kind": "bits", "bits": N}             值放不进 N 位
    {"kind": "enum", "values": [...]}       值不是其中之一
    {"kind": "flags", "known": {...}}       有不是这些标志的位
    {"kind": "flag_qp_types", "flag": F, "only_qp_types": [...]}   标志 F 用在了别的 QP 类型上
    {"kind": "set"}                         调用会读的字段在记录的 unset 里
    {"kind": "defined_fields", "fields": [...]}  失败的完成（status != 0）上，程序用了 fields 以外的字段
    {"kind": "equals" | "not_equal", "value": V}          值等于 / 不等于 V
    {"kind": "above" | "at_least", "limit": "device.max_qp_rd_atom"}   值大于 / 不小于记录里那个上限（记录里没有就不判断）
    {"kind": "above_path_mtu"}              path_mtu 大于本端 port.active_mtu 和 peer.active_mtu 的较小者
    {"kind": "flags_imply", "if_any": A, "need": B}   带了 A 里的某一位却没有 B
    {"kind": "users_alive", "users": "qp"}  销毁的时候还有用着它的对象（alive 里这种对象的个数 > 0）
    {"kind": "object_gone", "object": "cq"} 调用要用的对象已经销毁了（alive 里是 0）
    "when": {"port.link_layer": "Ethernet"} 任何条件都可以带：记录里这些值相等时才判断
    合法的选择（severity "note"）：
    {"kind": "note_nonzero", "also": {名字: 字段}}   值（或 also 里的字段）非零
    {"kind": "note_flag", "flag": F}        带了标志 F
    {"kind": "note_range", "bits": N, "nonzero": bool, "except": [...], "only": [...]}   合法范围里的值
    "unless": 规则 id（同一字段的错误成立时不说）、"meaning": MEANINGS 里的名字（按值算出的一句话，中英两种）、"hex": 十六进制写
条件的种类只加不改；真要代码的条件在这里写成有名字的种类（above_path_mtu），不在规则里写代码。
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
    {"id": "qp.mask_missing", "call": "ibv_modify_qp", "field": "attr_mask",
     "condition": {"kind": "mask_required", "table": "QP_TRANSITIONS"},
     "message": ("掩码里少了 %(missing)s：%(qpt)s 的 %(tr)s 必需 %(required)s",
                 "the mask lacks %(missing)s; %(qpt)s %(tr)s requires %(required)s"),
     "reason": ("内核的 ib_modify_qp_is_ok() 给每一步、每种 QP 类型列了必需的属性（RC 的 RTR 要地址、对端 QP 号、PSN、MTU……）。"
                "少了一位，ibv_modify_qp 在调用驱动之前就返回 EINVAL；属性里写了值也没用，掩码没有那一位内核就不读它",
                "The kernel's ib_modify_qp_is_ok() lists the required attributes of each step and QP type (RC's RTR needs the "
                "address, the peer QPN, the PSN, the MTU...). With one bit missing ibv_modify_qp returns EINVAL before the "
                "driver is called; a value in the attr does not help, since without its mask bit the kernel never reads it"),
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
     "condition": {"kind": "bits", "bits": 20, "hex": True},
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
     "condition": {"kind": "flag_qp_types", "flag": 16, "only_qp_types": ["UD", "RAW_PACKET"]},
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
# 一般规则的严重程度和文档里的链接（TROUBLESHOOTING.md / docs/GALLERY.md 的标题；没有合适的标题时是 None）
_TS_RTR = "TROUBLESHOOTING.md#qp-转到-rtr-失败"
_LINK = {"qp.mask_forbidden": _TS_RTR, "qp.mask_missing": _TS_RTR, "rtr.mtu_invalid": _TS_RTR,
         "rts.rnr_range": "docs/GALLERY.md#rnr-retry0", "send.flags_unknown": "docs/GALLERY.md#inline"}

# 合法的选择（severity "note"）：通过，附一句它的意思。条件同样是数据
RULES += [
    {"id": "attr.static_rate", "call": "ibv_modify_qp", "field": "ah_attr.static_rate", "severity": "note",
     "condition": {"kind": "note_nonzero", "unless": "attr.static_rate_bad"},
     "message": ("static_rate=%(v)s：限速到 %(rate)s（0 = 端口全速；合法的选择）",
                 "static_rate=%(v)s: rate limited to %(rate)s (0 = the port's full rate; a legal choice)"),
     "reason": ("static_rate 限制这个 QP 的发包速率；不限速写 0（IBV_RATE_MAX）", "static_rate caps this QP's injection rate; 0 "
                "(IBV_RATE_MAX) means no cap"), "source": "enum ibv_rate in infiniband/verbs.h; ibv_modify_qp(3)", "link": None},
    {"id": "attr.flow_label", "call": "ibv_modify_qp", "field": "ah_attr.grh.flow_label", "severity": "note",
     "condition": {"kind": "note_nonzero", "unless": "attr.flow_label_range", "hex": True},
     "message": ("flow_label=%(v)s：RoCE v2 上用它算 UDP 源端口（ECMP 分流），合法的选择",
                 "flow_label=%(v)s: on RoCE v2 it selects the UDP source port (ECMP spreading), a legal choice"),
     "reason": ("0 表示不指定；非零的流标签让同一条流走同一条路径", "0 means unspecified; a non-zero label keeps one flow on one path"),
     "source": "RFC 8200 (flow label); rdma_get_udp_sport() in Linux include/rdma/ib_verbs.h", "link": None},
    {"id": "attr.src_path_bits", "call": "ibv_modify_qp", "field": "ah_attr.src_path_bits", "severity": "note",
     "condition": {"kind": "note_nonzero"},
     "message": ("src_path_bits=%(v)s：InfiniBand 的 LID 路径位，RoCE 上没有 LID，不起作用",
                 "src_path_bits=%(v)s: InfiniBand LID path bits; RoCE has no LIDs, so it has no effect"),
     "reason": ("src_path_bits 选 LMC 给的多个源 LID 之一，只在 InfiniBand 上有意义", "src_path_bits picks one of the source LIDs an "
                "LMC provides; it only means something on InfiniBand"), "source": "ibv_modify_qp(3); IBTA spec vol. 1 (LMC)",
     "link": None},
    {"id": "send.fence", "call": "ibv_post_send", "field": "send_flags", "severity": "note",
     "condition": {"kind": "note_flag", "flag": 1, "unless": "send.flags_unknown"},
     "message": ("send_flags 带了 IBV_SEND_FENCE：这个 WR 等前面的 READ/原子操作完成才开始，合法，只是慢一点",
                 "send_flags has IBV_SEND_FENCE: the WR waits for earlier READs/atomics to finish; legal, only slower"),
     "reason": ("FENCE 是为了读后写的顺序（先读出再覆盖）；不需要这个顺序时它只让发送变慢",
                "FENCE orders a WR after earlier READs/atomics (read before overwrite); without that need it only slows sending"),
     "source": "ibv_post_send(3) (IBV_SEND_FENCE)", "link": None},
    {"id": "send.solicited", "call": "ibv_post_send", "field": "send_flags", "severity": "note",
     "condition": {"kind": "note_flag", "flag": 4, "unless": "send.flags_unknown"},
     "message": ("send_flags 带了 IBV_SEND_SOLICITED：对端用 ibv_req_notify_cq(cq, 1) 只等“请求了事件”的完成时，这一条会叫醒它；合法",
                 "send_flags has IBV_SEND_SOLICITED: a peer arming its CQ with ibv_req_notify_cq(cq, 1) (solicited only) "
                 "is woken by it; legal"),
     "reason": ("SOLICITED 在包头里置 SE 位，只对带接收的操作（SEND、WRITE_WITH_IMM）有意义",
                "SOLICITED sets the SE bit in the header; it matters only for operations that consume a receive (SEND, "
                "WRITE_WITH_IMM)"), "source": "ibv_post_send(3); ibv_req_notify_cq(3)", "link": None},
]
# 属性的值和设备、端口的上限比（记录里有 port、device、peer 时才判断）
RULES += [
    {"id": "rtr.hop0", "call": "ibv_modify_qp", "field": "ah_attr.grh.hop_limit", "condition": {"kind": "equals", "value": 0},
     "message": ("grh.hop_limit=0：包一出网卡就过期", "grh.hop_limit=0: packets expire as soon as they leave"),
     "reason": ("hop_limit 就是 IP 包的 TTL（IPv6 的 hop limit）。直接相连的对端不按 TTL 丢包（主机收包时不检查它），所以同一网段里 0 "
                "碰巧能通；路上只要有一个路由器，它就把 TTL 用完的包丢掉（并回 ICMP 超时），连接建不起来。同一网段用 1 够了，跨路由器要更大（常用 64）",
                "hop_limit is the IP TTL (the IPv6 hop limit). A directly connected peer does not drop packets by TTL (hosts do not "
                "check it on receive), so 0 happens to work on one subnet; as soon as a router is on the path it drops the expired "
                "packets (answering ICMP time exceeded) and the connection never comes up. 1 is enough on one subnet, crossing routers "
                "needs more (64 is usual)"),
     "source": "RFC 8200 section 3 (hop limit, decremented by each node that forwards); RFC 1812 5.3.1", "link": None},
    {"id": "rtr.grh", "call": "ibv_modify_qp", "field": "ah_attr.is_global",
     "condition": {"kind": "not_equal", "value": 1, "when": {"port.link_layer": "Ethernet"}},
     "message": ("ah_attr.is_global=%(got)s：RoCE 必须带 GRH（is_global=1，grh.sgid_index、grh.dgid）",
                 "ah_attr.is_global=%(got)s: RoCE must carry a GRH (is_global=1, grh.sgid_index, grh.dgid)"),
     "reason": ("RoCE 没有 LID，地址就是 GID：RoCE v2 的包是 UDP/IP，IP 地址来自 GRH 里的源 GID（grh.sgid_index 选的那一项）和目的 GID（grh.dgid）。"
                "is_global=0 时内核不知道往哪里发，ibv_modify_qp(RTR) 返回 EINVAL",
                "RoCE has no LID; the address is the GID: a RoCE v2 packet is UDP/IP, and the IP addresses come from the GRH's source "
                "GID (the entry grh.sgid_index picks) and destination GID (grh.dgid). With is_global=0 the kernel does not know where "
                "to send, and ibv_modify_qp(RTR) returns EINVAL"),
     "source": "ibv_modify_qp(3); Linux drivers/infiniband/core/verbs.c ib_resolve_eth_dmac() (RoCE needs IB_AH_GRH)",
     "link": _TS_RTR},
    {"id": "init.pkey", "call": "ibv_modify_qp", "field": "pkey_index",
     "condition": {"kind": "at_least", "limit": "port.pkey_tbl_len"},
     "message": ("pkey_index=%(got)s：端口的 P_Key 表只有 %(max)s 项（RoCE 只有表项 0）",
                 "pkey_index=%(got)s: the port's P_Key table has %(max)s entries (RoCE has only entry 0)"),
     "reason": ("P_Key 表在 RoCE 上只有一项（索引 0，默认分区 0xffff）；别的索引不存在，ibv_modify_qp 返回 EINVAL",
                "On RoCE the P_Key table has one entry (index 0, the default partition 0xffff); other indexes do not exist and "
                "ibv_modify_qp returns EINVAL"),
     "source": "ibv_query_port(3) pkey_tbl_len; Linux rxe (RXE_PORT_PKEY_TBL_LEN = 1)",
     "link": "TROUBLESHOOTING.md#错误-修改qpi到init状态失败--ibv_modify_qpinit-失败"},
    {"id": "rtr.mtu_big", "call": "ibv_modify_qp", "field": "path_mtu", "condition": {"kind": "above_path_mtu"},
     "message": ("path_mtu=%(got)s，但两端 active_mtu 的较小者是 %(want)s（本端 %(local)s、对端 %(peer)s）",
                 "path_mtu=%(got)s but the smaller of the two ends' active_mtu is %(want)s (local %(local)s, peer %(peer)s)"),
     "reason": ("路径MTU不能超过路上任何一端的 active_mtu（IB 规范：PMTU 不超过路径上每一段的 MTU）：比对端 MTU 大的包对端收不下，"
                "比链路 MTU 大的帧链路丢掉。ibv_modify_qp 不一定拒绝它（rxe 接受，实验室里量过；mlx5_ib 里也没有找到这样的检查），"
                "包发出去后被丢掉，只有重传和 RETRY_EXC_ERR——所以要按规则判",
                "The path MTU may not exceed the active_mtu of any hop (IB spec: the PMTU is at most every link's MTU): the peer cannot "
                "take a packet bigger than its MTU, and the link drops a frame bigger than its own. ibv_modify_qp does not necessarily "
                "refuse it (rxe accepts it, measured in the lab; no such check was found in mlx5_ib either): the packets are dropped "
                "after they leave and all you see is retries and RETRY_EXC_ERR - hence the rule"),
     "source": "IBTA spec vol. 1 (path MTU); ibv_query_port(3) active_mtu", "link": "TROUBLESHOOTING.md#两台虚拟机的网卡-mtu-不同"},
    {"id": "rtr.rd_big", "call": "ibv_modify_qp", "field": "max_dest_rd_atomic",
     "condition": {"kind": "above", "limit": "device.max_qp_rd_atom"},
     "message": ("max_dest_rd_atomic=%(got)s 超过本端设备的 max_qp_rd_atom（%(max)s）",
                 "max_dest_rd_atomic=%(got)s exceeds this device's max_qp_rd_atom (%(max)s)"),
     "reason": ("max_dest_rd_atomic 是本端为对端保留的 READ/原子资源，设备只有 max_qp_rd_atom 个（ibv_query_device）；超过它 ibv_modify_qp 返回 EINVAL"
                "（rxe_qp_chk_attr 和硬件驱动都查）",
                "max_dest_rd_atomic is the READ/atomic resources this end reserves for the peer; the device has max_qp_rd_atom of them "
                "(ibv_query_device); above it ibv_modify_qp returns EINVAL (rxe_qp_chk_attr and hardware drivers check it)"),
     "source": "ibv_query_device(3) max_qp_rd_atom; Linux rxe_qp_chk_attr()", "link": None},
    {"id": "rts.timeout0", "call": "ibv_modify_qp", "field": "timeout", "condition": {"kind": "equals", "value": 0},
     "message": ("timeout=0：不启用 ACK 定时器，丢一个包就永远等下去", "timeout=0: no ACK timer, one lost packet and it waits forever"),
     "reason": ("timeout 是等 ACK 的时间 4.096 µs × 2^timeout；0 在规范里是“无限”：请求或 ACK 丢了，不会重发，也不会报错",
                "timeout is the ACK wait, 4.096 us x 2^timeout; 0 means infinite in the spec: a lost request or ACK is never resent "
                "and never reported"),
     "source": "ibv_modify_qp(3) (timeout 0 = infinite); IBTA spec vol. 1 (local ACK timeout)", "link": "docs/LOSS-RECOVERY.md"},
    {"id": "access.remote_without_local", "call": "ibv_reg_mr", "field": "access",
     "condition": {"kind": "flags_imply", "if_any": 2 | 8, "need": 1},
     "message": ("%(got)s 带了 REMOTE_WRITE/REMOTE_ATOMIC 却没有 IBV_ACCESS_LOCAL_WRITE",
                 "%(got)s has REMOTE_WRITE/REMOTE_ATOMIC but no IBV_ACCESS_LOCAL_WRITE"),
     "reason": ("verbs 的规则（ibv_reg_mr(3)）：对端能写（REMOTE_WRITE）或做原子操作（REMOTE_ATOMIC，要写回新值）的内存，本地也必须可写；"
                "缺了 LOCAL_WRITE，ibv_reg_mr 以 EINVAL 失败",
                "The verbs rule (ibv_reg_mr(3)): memory the peer may write (REMOTE_WRITE) or run atomics on (REMOTE_ATOMIC writes "
                "the new value) must be locally writable too; without LOCAL_WRITE ibv_reg_mr fails with EINVAL"),
     "source": "ibv_reg_mr(3); Linux ib_check_mr_access()",
     "link": "TROUBLESHOOTING.md#ibv_reg_mr-失败-invalid-argument-errno22--访问权限组合非法"},
]
# 合法选择的说明里的“意思”：按值算出来的一句话（名字写在条件的 meaning 里）
RNR_TIMER_MS = [655.36, 0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.12, 0.16, 0.24, 0.32, 0.48, 0.64, 0.96, 1.28, 1.92,
                2.56, 3.84, 5.12, 7.68, 10.24, 15.36, 20.48, 30.72, 40.96, 61.44, 81.92, 122.88, 163.84, 245.76,
                327.68, 491.52]


def _meaning_rnr_timer(v, en):
    if not 0 <= v < len(RNR_TIMER_MS):
        return "?"
    return ("%g ms" % RNR_TIMER_MS[v]) + ((" (0 = the longest, 655 ms)" if en else "（0 是最长的 655 ms）") if v == 0 else "")


def _meaning_timeout(v, en):
    us = 4.096 * (1 << v)
    return "%.3g ms" % (us / 1000) if us >= 1000 else "%.3g us" % us


def _meaning_rnr_retry(v, en):
    if v == 7:
        return "retry forever after an RNR NAK" if en else "对端没投递接收时无限重试"
    if v == 0:
        return "the first RNR NAK fails the send (RNR_RETRY_EXC_ERR)" if en else "第一个 RNR NAK 就让发送失败（RNR_RETRY_EXC_ERR）"
    return "at most %d retries after RNR NAKs" % v if en else "RNR NAK 后最多重试 %d 次" % v


def _meaning_hop(v, en):
    if v == 1:
        return "only on the same subnet" if en else "只能在同一网段"
    return "may cross up to %d routers" % (v - 1) if en else "最多跨 %d 个路由器" % (v - 1)


MEANINGS = {"rnr_timer": _meaning_rnr_timer, "timeout": _meaning_timeout, "rnr_retry": _meaning_rnr_retry, "hop": _meaning_hop}

RULES += [
    {"id": "rtr.min_rnr", "call": "ibv_modify_qp", "field": "min_rnr_timer", "severity": "note",
     "condition": {"kind": "note_range", "bits": 5, "meaning": "rnr_timer"},
     "message": ("min_rnr_timer=%(v)s：%(meaning)s（对端收到 RNR NAK 后至少等这么久再重发；规范允许 0..31，自由选择）",
                 "min_rnr_timer=%(v)s: %(meaning)s (how long the peer waits after an RNR NAK before resending; the spec allows "
                 "0..31, your choice)"),
     "reason": ("min_rnr_timer 是本端接收队列空时让对端等的时间（5 位的编码，表在 ibv_modify_qp(3)）",
                "min_rnr_timer is how long the peer is told to wait when this end's receive queue is empty (a 5-bit code, "
                "table in ibv_modify_qp(3))"), "source": "ibv_modify_qp(3)", "link": None},
    {"id": "rtr.hop", "call": "ibv_modify_qp", "field": "ah_attr.grh.hop_limit", "severity": "note",
     "condition": {"kind": "note_nonzero", "meaning": "hop"},
     "message": ("hop_limit=%(v)s：IP 的 TTL，%(meaning)s（自由选择）", "hop_limit=%(v)s: the IP TTL, %(meaning)s (your choice)"),
     "reason": ("每过一个路由器减一，到 0 被丢掉", "each router decrements it and drops the packet at 0"),
     "source": "RFC 8200 section 3", "link": None},
    {"id": "rts.timeout", "call": "ibv_modify_qp", "field": "timeout", "severity": "note",
     "condition": {"kind": "note_range", "bits": 5, "nonzero": True, "meaning": "timeout"},
     "message": ("timeout=%(v)s：等 ACK 4.096 µs × 2^%(v)s ≈ %(meaning)s（只管本端，自由选择）",
                 "timeout=%(v)s: wait 4.096 us x 2^%(v)s = about %(meaning)s for an ACK (local only, your choice)"),
     "reason": ("太短会在慢的网络上白白重发，太长让丢包的恢复变慢", "too short resends needlessly on a slow network, too long "
                "slows loss recovery"), "source": "ibv_modify_qp(3)", "link": None},
    {"id": "rts.retry", "call": "ibv_modify_qp", "field": "retry_cnt", "severity": "note",
     "condition": {"kind": "note_range", "bits": 3, "except": [7]},
     "message": ("retry_cnt=%(v)s：超时或序列错误后最多重发 %(v)s 次，之后 RETRY_EXC_ERR（自由选择，0..6）",
                 "retry_cnt=%(v)s: at most %(v)s resends after a timeout or sequence error, then RETRY_EXC_ERR (your choice, 0..6)"),
     "reason": ("重发的次数用完，QP 进入错误状态，发送的完成是 RETRY_EXC_ERR", "when the resends run out the QP goes to error and "
                "the send completes with RETRY_EXC_ERR"), "source": "ibv_modify_qp(3)", "link": None},
    {"id": "rts.retry7", "call": "ibv_modify_qp", "field": "retry_cnt", "severity": "note",
     "condition": {"kind": "note_range", "bits": 3, "only": [7]},
     "message": ("retry_cnt=7：规范和 mlx5 上是 7 次重发，之后 RETRY_EXC_ERR；只有 rxe（rxe_comp.c）把 7 当成无限重试——对端消失时"
                 "永远等不到 RETRY_EXC_ERR，程序停在轮询里直到自己的超时（合法的选择；用 6 在两种设备上行为一样）",
                 "retry_cnt=7: 7 resends in the spec and on mlx5, then RETRY_EXC_ERR; only rxe (rxe_comp.c) treats 7 as infinite - "
                 "when the peer vanishes RETRY_EXC_ERR never comes and the program sits in its poll until its own timeout (a "
                 "legal choice; 6 behaves the same on both)"),
     "reason": ("retry_cnt 是 3 位，7 是合法的值；rxe 和硬件对它的理解不同", "retry_cnt has 3 bits and 7 is legal; rxe and "
                "hardware read it differently"), "source": "ibv_modify_qp(3); Linux drivers/infiniband/sw/rxe/rxe_comp.c",
     "link": None},
    {"id": "rts.rnr", "call": "ibv_modify_qp", "field": "rnr_retry", "severity": "note",
     "condition": {"kind": "note_range", "bits": 3, "meaning": "rnr_retry"},
     "message": ("rnr_retry=%(v)s：%(meaning)s（自由选择）", "rnr_retry=%(v)s: %(meaning)s (your choice)"),
     "reason": ("对端的接收队列空时回 RNR NAK；rnr_retry 是之后重发的次数，7 = 无限", "a peer with an empty receive queue answers "
                "with an RNR NAK; rnr_retry is how often to resend after it, 7 = forever"), "source": "ibv_modify_qp(3)",
     "link": None},
]
# 销毁的先后：一次销毁调用的时候，用着它的对象还在不在（记录的 alive：这一刻还在的对象，按种类计数）
_TS_TEARDOWN = "TROUBLESHOOTING.md#pd--mr--cq--qp步骤59"
RULES += [
    {"id": "cleanup.cq_before_qp", "call": "ibv_destroy_cq", "field": "cq", "condition": {"kind": "users_alive", "users": "qp"},
     "message": ("CQ 在 QP 之前销毁：QP 还在用它", "the CQ is destroyed before the QPs: they still use it"),
     "reason": ("QP 创建时挂上了 CQ（send_cq、recv_cq），内核给 CQ 记了使用计数：还有 QP 用着它时 ibv_destroy_cq 返回 EBUSY，CQ 就漏掉了。"
                "先销毁 QP，再销毁它们用的 CQ",
                "The QPs were attached to the CQ at creation (send_cq, recv_cq) and the kernel counts those users: while a QP still "
                "uses it, ibv_destroy_cq returns EBUSY and the CQ leaks. Destroy the QPs first, then the CQ they use"),
     "source": "ibv_destroy_cq(3) (EBUSY); Linux ib_destroy_cq_user() (usecnt)", "link": _TS_TEARDOWN},
    {"id": "cleanup.srq_before_qp", "call": "ibv_destroy_srq", "field": "srq", "condition": {"kind": "users_alive", "users": "qp"},
     "message": ("SRQ 在 QP 之前销毁：QP 还从它取接收", "the SRQ is destroyed before the QPs: they still take receives from it"),
     "reason": ("挂着 SRQ 的 QP 还在时，ibv_destroy_srq 返回 EBUSY。先销毁 QP",
                "While QPs attached to it exist, ibv_destroy_srq returns EBUSY. Destroy the QPs first"),
     "source": "ibv_destroy_srq(3) (EBUSY); Linux ib_destroy_srq_user() (usecnt)", "link": "docs/QP-TYPES.md"},
    {"id": "cleanup.channel_before_cq", "call": "ibv_destroy_comp_channel", "field": "channel",
     "condition": {"kind": "users_alive", "users": "cq"},
     "message": ("完成通道在 CQ 之前销毁：CQ 还挂在它上面", "the completion channel is destroyed before the CQ: the CQ is still attached to it"),
     "reason": ("CQ 创建时给了完成通道，通道记着用它的 CQ 数：还有 CQ 时 ibv_destroy_comp_channel 返回 EBUSY",
                "The CQ was created on the completion channel, which counts its CQs: while one exists ibv_destroy_comp_channel "
                "returns EBUSY"),
     "source": "ibv_create_comp_channel(3) (EBUSY while CQs use it)", "link": None},
    {"id": "cleanup.mr_before_qp", "call": "ibv_dereg_mr", "field": "mr", "condition": {"kind": "users_alive", "users": "qp"},
     "message": ("MR 在 QP 之前注销：QP 的接收队列里还有指着它的 WR",
                 "the MR is deregistered before the QPs: WRs in their receive queues still point into it"),
     "reason": ("投递了还没完成的接收 WR 指着 MR 里的缓冲区。注销 MR 时驱动先让它的钥匙失效、再解除内存的锁定，所以不会写进"
                "还给系统的页；但 QP 还活着：这时到达的包找不到钥匙，对端得到访问错误（REM_ACCESS_ERR）、本端的 QP 进入错误状态，"
                "一次干净的拆除变成了两端的错误。ibv_dereg_mr 在 rxe 和 mlx5 上都照样成功，所以只有按规则查得出来。先销毁用它的 QP",
                "Posted receive WRs that never completed point into the MR's buffer. Deregistration invalidates the key before "
                "unpinning the memory, so nothing is written into pages already given back; but the QP is still alive: a packet "
                "arriving now finds no key, the peer gets an access error (REM_ACCESS_ERR) and this QP goes to error, turning a "
                "clean teardown into errors on both ends. ibv_dereg_mr succeeds on rxe and mlx5 alike, so only the rule catches "
                "it. Destroy the QPs that use it first"),
     "source": "ibv_dereg_mr(3); IBTA spec vol. 1 (access to an invalid key: remote access error)", "link": None},
    {"id": "cleanup.ah_before_qp", "call": "ibv_destroy_ah", "field": "ah", "condition": {"kind": "users_alive", "users": "qp"},
     "message": ("UD 的地址句柄在 QP 之前销毁：发送队列里的 WR 还指着它",
                 "the UD address handle is destroyed before the QPs: WRs in the send queue still point to it"),
     "reason": ("UD 的每个发送 WR 带着 AH（wr.ud.ah）。QP 还在、WR 可能还没发完时销毁 AH，网卡拿到的是失效的句柄。先销毁 QP",
                "Every UD send WR carries the AH (wr.ud.ah). Destroying it while the QP exists and WRs may still be pending hands "
                "the NIC a stale handle. Destroy the QPs first"),
     "source": "ibv_post_send(3) (wr.ud.ah); ibv_destroy_ah(3)", "link": "docs/QP-TYPES.md"},
    {"id": "cleanup.ack_after_cq", "call": "ibv_ack_cq_events", "field": "cq", "condition": {"kind": "object_gone", "object": "cq"},
     "message": ("在销毁 CQ 之后才确认完成事件", "completion events acknowledged after the CQ is destroyed"),
     "reason": ("ibv_ack_cq_events 要用 CQ：CQ 销毁了再确认是释放后使用；而没确认的话 ibv_destroy_cq 一直等。先确认，再销毁",
                "ibv_ack_cq_events needs the CQ: acknowledging after destroying it is a use-after-free, and ibv_destroy_cq waits "
                "for the acknowledgements anyway. Acknowledge first, then destroy"),
     "source": "ibv_get_cq_event(3) (ibv_destroy_cq waits for every event to be acknowledged)", "link": None},
]
# 没写 severity 的是错误；没写 link 的按 _LINK
for _r in RULES:
    _r.setdefault("severity", "error")
    _r.setdefault("link", _LINK.get(_r["id"]))
RULES += [
    {"id": "rtr.sl", "call": "ibv_modify_qp", "field": "ah_attr.sl", "severity": "note",
     "condition": {"kind": "note_nonzero", "also": {"tc": "ah_attr.grh.traffic_class"}, "unless": "attr.sl_range"},
     "message": ("sl=%(v)s、traffic_class=%(tc)s：服务等级（4 位，RoCE 上映射到 VLAN 优先级）、IP 头的 DSCP/ECN 字节（自由选择）",
                 "sl=%(v)s, traffic_class=%(tc)s: service level (4 bits, mapped to the VLAN priority on RoCE) and the IP header's "
                 "DSCP/ECN byte (your choice)"),
     "reason": ("两者都只影响交换机怎样排队（优先级、拥塞通知），不影响连接对不对", "both only affect how switches queue the "
                "packets (priority, congestion marking), not whether the connection works"),
     "source": "ibv_modify_qp(3); IBTA RoCE v2 annex (traffic class in the IP header)", "link": None},
    {"id": "init.local_write", "call": "ibv_modify_qp", "field": "qp_access_flags", "severity": "note",
     "condition": {"kind": "note_flag", "flag": 1},
     "message": ("qp_access_flags 带了 IBV_ACCESS_LOCAL_WRITE：QP 上没有意义（本地写是 MR 的事），无害",
                 "qp_access_flags includes IBV_ACCESS_LOCAL_WRITE: meaningless on a QP (local writes are the MR's business), harmless"),
     "reason": ("QP 的 qp_access_flags 只管对端能做什么（REMOTE_WRITE/READ/ATOMIC）；本地写的权限在 MR 上",
                "a QP's qp_access_flags only governs what the peer may do (REMOTE_WRITE/READ/ATOMIC); local write rights live on the MR"),
     "source": "ibv_modify_qp(3) (qp_access_flags: remote access)", "link": None},
]
BY_ID = {r["id"]: r for r in RULES}

# 合法选择的说明（rules.py 按规则 id 用）
NOTES = {r["id"]: r["message"] for r in RULES if r["severity"] == "note"}

# ---- 记录（record）：一次 verbs 调用，看到的样子 → 发现（finding） ----
# ibv_modify_qp 的属性字段 → 让内核读它的掩码位（ah_attr.* 是 IBV_QP_AV；ah_attr.grh.* 还要 is_global=1）
FIELD_BIT = {"qp_state": QP_STATE, "cur_qp_state": QP_CUR_STATE, "pkey_index": QP_PKEY_INDEX, "port_num": QP_PORT,
             "qkey": QP_QKEY, "qp_access_flags": QP_ACCESS_FLAGS, "path_mtu": QP_PATH_MTU, "dest_qp_num": QP_DEST_QPN,
             "rq_psn": QP_RQ_PSN, "max_dest_rd_atomic": QP_MAX_DEST_RD_ATOMIC, "min_rnr_timer": QP_MIN_RNR_TIMER,
             "sq_psn": QP_SQ_PSN, "timeout": QP_TIMEOUT, "retry_cnt": QP_RETRY_CNT, "rnr_retry": QP_RNR_RETRY,
             "max_rd_atomic": QP_MAX_QP_RD_ATOMIC, "alt_ah_attr": QP_ALT_PATH, "alt_pkey_index": QP_ALT_PATH,
             "alt_port_num": QP_ALT_PATH, "alt_timeout": QP_ALT_PATH, "path_mig_state": QP_PATH_MIG_STATE,
             "cap": QP_CAP, "rate_limit": QP_RATE_LIMIT}
IMM_OPCODES = (1, 3)            # IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_SEND_WITH_IMM
RDMA_OPCODES = (0, 1, 4)        # WRITE, WRITE_WITH_IMM, READ
ATOMIC_OPCODES = (5, 6)


def flatten(d, prefix=""):
    """{"ah_attr": {"grh": {"flow_label": 1}}} → {"ah_attr.grh.flow_label": 1}；已经是点分的键原样"""
    out = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(flatten(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


def fields_of(rec):
    """记录里这个调用的字段（点分的名字 → 值）：modify_qp 的 attr、post_send/post_recv 的 wr、create_qp 的 init_attr"""
    key = {"ibv_modify_qp": "attr", "ibv_post_send": "wr", "ibv_post_recv": "wr", "ibv_create_qp": "init_attr",
           "ibv_poll_cq": "wc"}.get(rec.get("call", ""))
    if key:
        return flatten(rec.get(key))
    return flatten({k: v for k, v in rec.items() if k != "call"})


def reads(rec, field):
    """这个调用会不会读这个字段（不读的字段是什么都无所谓）"""
    call = rec.get("call", "")
    if call == "ibv_modify_qp":
        mask = rec.get("mask", 0)
        if field.startswith("ah_attr.grh."):
            return bool(mask & QP_AV) and flatten(rec.get("attr")).get("ah_attr.is_global") == 1
        if field.startswith("ah_attr."):
            return bool(mask & QP_AV)
        return bool(FIELD_BIT.get(field.split(".")[0], 0) & mask)
    if call == "ibv_create_qp":
        if field.split(".")[-1] in ("max_recv_wr", "max_recv_sge"):
            return not flatten(rec.get("init_attr")).get("srq")
        return True
    if call == "ibv_post_send":
        op = flatten(rec.get("wr")).get("opcode")
        if field in ("imm_data", "imm"):
            return op in IMM_OPCODES
        if field.startswith("wr.rdma."):
            return op in RDMA_OPCODES
        if field.startswith("wr.atomic."):
            return op in ATOMIC_OPCODES
        if field.startswith("wr.ud."):
            return rec.get("qp_type") == "UD"
        return True
    return True


def _hex(v):
    if isinstance(v, int) and v < 0:   # int 字段里的毒化字节：按 32 位写出来
        v &= 0xffffffff
    return "0x%x" % v if isinstance(v, int) else str(v)


def _value(rec, rule):
    """规则的字段在这个记录里的值；调用不读的字段、记录说没有赋值的字段（unset）不判断值 → None"""
    f, fields = rule["field"], fields_of(rec)
    if f not in fields or f in (rec.get("unset") or {}) or not reads(rec, f):
        return None
    return fields[f]


def _mask_cond(rec, kind):
    tr = (rec.get("from"), rec.get("to"))
    if rec.get("qp_type") not in QP_TRANSITIONS.get(tr, {}) or "mask" not in rec:
        return None          # 表里没有的转换或 QP 类型：不判断（不猜）
    miss, extra, allowed = mask_check(tr, rec["qp_type"], rec["mask"])
    if not (extra if kind == "mask_allowed" else miss):
        return None
    return mask_names(rec["mask"]), {"extra": mask_names(extra), "missing": mask_names(miss), "qpt": rec["qp_type"],
                                     "tr": "->".join(tr), "allowed": mask_names(allowed),
                                     "required": mask_names(QP_TRANSITIONS[tr][rec["qp_type"]][0] | QP_STATE)}


def _unset_cond(rec):
    un = rec.get("unset") or {}
    bad = [f for f in sorted(un) if reads(rec, f)]
    if not bad:
        return None
    two = {f: "/".join(_hex(x) for x in un[f]) if isinstance(un[f], (list, tuple)) else _hex(un[f]) for f in bad}
    return ", ".join(bad), {"fields": ", ".join(bad), "vals": ", ".join("%s=%s" % (f, two[f]) for f in bad[:4])}


def _wc_cond(rec, cond):
    wc = flatten(rec.get("wc"))
    used = [f for f in rec.get("used", []) if f not in cond["fields"]]
    if wc.get("status", 0) == 0 or not used:
        return None
    return ", ".join(used), {"status": named(WC_STATUS, wc.get("status")), "what": rec.get("evidence") or ", ".join(used)}


def _limit(rec, path):
    """"device.max_qp_rd_atom" → rec["device"]["max_qp_rd_atom"]；记录里没有时 None（不判断）"""
    d = rec
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def _when(rec, cond):
    return all(_limit(rec, k) == v for k, v in cond.get("when", {}).items())


def _note_vals(cond, v, lang_free=True):
    vals = {"v": _hex(v) if cond.get("hex") else v, "rate": RATES.get(v, "?")}
    if cond.get("meaning"):
        vals["meaning"] = {"zh": MEANINGS[cond["meaning"]](v, False), "en": MEANINGS[cond["meaning"]](v, True)}
    return vals


def _value_cond(rec, rule, cond):
    """条件只看一个字段的值（和记录里的端口、设备的上限）"""
    v = _value(rec, rule)
    if v is None or not _when(rec, cond):
        return None
    kind = cond["kind"]
    if kind == "bits":
        return (v, {"got": _hex(v) if cond.get("hex") else v}) if not 0 <= v < (1 << cond["bits"]) else None
    if kind == "enum":
        return (v, {"got": v}) if v not in cond["values"] else None
    if kind == "equals":
        return (v, {"got": v}) if v == cond["value"] else None
    if kind == "not_equal":
        return (v, {"got": v}) if v != cond["value"] else None
    if kind in ("above", "at_least"):
        lim = _limit(rec, cond["limit"])
        if lim is None:
            return None
        return (v, {"got": v, "max": lim}) if v > lim or (kind == "at_least" and v == lim) else None
    if kind == "above_path_mtu":
        ends = [m for m in (_limit(rec, "port.active_mtu"), _limit(rec, "peer.active_mtu")) if m in MTUS]
        if v not in MTUS or not ends or v <= min(ends):
            return None
        loc, peer = _limit(rec, "port.active_mtu"), _limit(rec, "peer.active_mtu")
        return v, {"got": mtu_name(v), "want": mtu_name(min(ends)), "local": mtu_name(loc), "peer": mtu_name(peer)}
    if kind == "flags":
        known = sum(int(k) for k in cond["known"])
        return (_hex(v), {"got": _hex(v), "bits": _hex(v & ~known)}) if v & ~known else None
    if kind == "flag_qp_types":
        return (_hex(v), {"got": _hex(v)}) if v & cond["flag"] and rec.get("qp_type") not in cond["only_qp_types"] else None
    if kind == "flags_imply":
        return (_hex(v), {"got": access_names(v)}) if v & cond["if_any"] and not v & cond["need"] else None
    if cond.get("unless") and _fires(rec, BY_ID[cond["unless"]]):
        return None          # 说明只给合法的值：同一个字段的错误已经说了
    if kind == "note_nonzero":
        also = {k: (_value(rec, {"field": f}) or 0) for k, f in cond.get("also", {}).items()}
        if set(cond.get("also", {}).values()) & set(rec.get("unset") or {}):
            return None      # 一起说的字段没有赋值：attr.unset 说
        return (v, dict(_note_vals(cond, v), **also)) if v or any(also.values()) else None
    if kind == "note_flag":
        return (_hex(v), {"v": _hex(v)}) if v & cond["flag"] else None
    if kind == "note_range":
        ok = 0 <= v < (1 << cond["bits"]) and not (cond.get("nonzero") and v == 0) and v not in cond.get("except", [])
        ok = ok and ("only" not in cond or v in cond["only"])
        return (v, _note_vals(cond, v)) if ok else None
    raise ValueError("unknown condition kind %r in rule %s" % (kind, rule["id"]))


def mtu_name(v):
    """path_mtu 写成名字：IBV_MTU_1024 (3)；不是 enum ibv_mtu 的值时只写数字"""
    return "%s (%d)" % (MTUS[v], v) if v in MTUS else str(v)


def access_names(a):
    """IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE"""
    names = [n for bit, n in ((1, "LOCAL_WRITE"), (2, "REMOTE_WRITE"), (4, "REMOTE_READ"), (8, "REMOTE_ATOMIC")) if a & bit]
    return "|".join("IBV_ACCESS_" + n for n in names) or "0"


def _fires(rec, rule):
    """条件成立时给出 (看到的值, 消息的参数)，否则 None；条件的种类在模块说明里"""
    cond = rule["condition"]
    if cond["kind"] in ("mask_allowed", "mask_required"):
        return _mask_cond(rec, cond["kind"])
    if cond["kind"] == "set":
        return _unset_cond(rec)
    if cond["kind"] == "defined_fields":
        return _wc_cond(rec, cond)
    if cond["kind"] in ("users_alive", "object_gone"):
        alive = rec.get("alive")
        if not isinstance(alive, dict):
            return None      # 不知道这一刻还有什么：不判断
        n = alive.get(cond.get("users") or cond["object"], 0)
        hit = n > 0 if cond["kind"] == "users_alive" else n == 0
        return (n, {"n": n}) if hit else None
    return _value_cond(rec, rule, cond)


def calls(rule):
    return [c.strip() for c in rule["call"].split("/")]


def evaluate(record):
    """[(规则, 看到的值, 消息的参数)]：这个记录触发的每条规则（错误和说明），按 RULES 的顺序"""
    out = []
    for rule in RULES:
        if record.get("call") in calls(rule):
            hit = _fires(record, rule)
            if hit is not None:
                out.append((rule, hit[0], hit[1]))
    return out


def localise(vals, lang):
    """消息参数里按语言不同的值（{"zh": …, "en": …}）取 lang 的那个"""
    return {k: (v[lang if lang == "en" else "zh"] if isinstance(v, dict) and set(v) == {"zh", "en"} else v) for k, v in vals.items()}


def check(record, lang="en"):
    """一次 verbs 调用的记录 → [finding]；finding = {id, field, seen, severity, message, reason, source, link, values}。
    lang: "en" 或 "zh"。稳定的接口：以后只加键和规则，不改名"""
    k = 1 if lang == "en" else 0
    return [{"id": r["id"], "field": r["field"], "seen": seen, "severity": r["severity"],
             "message": r["message"][k] % localise(vals, lang), "reason": r["reason"][k], "source": r["source"],
             "link": r["link"], "values": vals}
            for r, seen, vals in evaluate(record)]


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
