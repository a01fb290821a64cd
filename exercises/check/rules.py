"""rules.py - 每个练习的规则：学习者的函数填出来的字段，按规范、对端和硬件的要求判断（不和我们的代码逐字比较）。

每条规则一个错误名（mistake id）：字段、提示（第一次失败时）、完整解释（再次失败时）、链接。中英两种语言并排写。
check_N(scenarios) 返回 (mistakes, notes)：mistakes 是 [(id, 值)]，notes 是自由选择的值的说明 [(id, 值)]。

一般的 verbs 规则（对任何程序都成立）在 verbs_rules.py，写成数据；这里把探针的结果写成 verbs 调用的记录
（modify_record() 等：ibv_create_qp、ibv_modify_qp、ibv_post_recv、ibv_post_send、ibv_poll_cq、ibv_reg_mr、
各个销毁调用），交给
verbs_rules.check()，再加上练习专有的提示（HINTS、NOTE_HINTS，按规则 id：用哪个 conn-> 字段），两者分开。
这里的 M、NOTES 只有练习专有的规则（OWN_M、OWN_NOTES；tests/exercises/verbs-rules-cases.py 查它们不重复一般规则）。
它们留在这里的原因：
  - 和伪造的世界里的值比（“你的函数给了 X，这个世界要 Y”）：caps.*（conn->caps、CQ、SRQ）、*.state（这一步的函数该给的状态；
    日志里的目标状态就是 attr.qp_state 本身）、init.port、rtr.ah_port、rtr.sgid、rtr.dgid*、rtr.dqpn*、rtr.rqpsn*、rts.sqpsn*、
    rtr.mtu_small、rtr.rd_small、rts.rd_big、rts.rd_zero 和说明 rtr.rd_more、rts.rd_less、caps.depth_more（协商出来的深度、
    对端的 QP 号和 PSN：一般的检查要有对端那一半的交换才能判）；recv.*、send.*、rdma.*、atomic.*（和程序交给函数的
    请求 req->…、伪造的 MR 的 lkey/rkey 比）；
  - 课的函数自己的约定：wc.*（WC_MINE/WC_FAILED/WC_NOT_MINE，wc.undefined 除外）、gid.*（返回 GID 索引或 -1，数组位置不是索引；几种错误里挑最具体的一个名字。一般的 GID 规则——条目的地址不是路由的源地址、v1/v2、索引放不进 8 位——要一种“选了哪个条目”的记录，还没有写成 verbs_rules 的规则）、
    init.access_*（QP 的权限跟着这个程序的 MR 权限）、access.*（这个程序的 --op 里谁是被动方；access.remote_without_local 除外）；
  - 销毁的顺序里只属于这个练习的：cleanup.bad_value、twice、missing、unacked（enum teardown 的值、这条连接有哪些对象）和
    cleanup.creation_order（把几条一般规则归成一句“按创建的顺序销毁了”）。“用着它的还在时销毁”的那几条是一般规则：
    teardown_records() 按学习者的顺序给每个调用一条带 alive 的记录。
"""
import verbs_rules as VR

# verbs.h 里的值
QPT_RC, QPT_UD = 2, 4
QPS_INIT, QPS_RTR, QPS_RTS = 1, 2, 3
A_LW, A_RW, A_RR, A_RA = 1, 2, 4, 8
F_SIGNALED, F_INLINE = 2, 8
WR_WRITE, WR_WRITE_IMM, WR_SEND, WR_READ, WR_CSWAP, WR_FADD = 0, 1, 2, 4, 5, 6
RET = ("返回值", "return value")


mtu = VR.mtu_name                # path_mtu 写成名字：IBV_MTU_1024 (3)
access_names = VR.access_names    # IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE


GAL = "docs/GALLERY.md#"
TS = "TROUBLESHOOTING.md#"
TS_RTR = TS + "qp-转到-rtr-失败"
TS_INIT = TS + "错误-修改qpi到init状态失败--ibv_modify_qpinit-失败"

# 错误名 → (字段, (提示 中, 英), (解释 中, 英), 链接)
M = {
    # ---- 练习 10：MR 的权限 ----
    "access.remote_missing": ("access",
        ("--op %(op)s 的%(role_zh)s：MR 没有 %(missing)s，对端要这样访问你的内存（你给了 %(got)s）",
         "--op %(op)s, %(role_en)s: no %(missing)s on the MR the peer accesses this way (you gave %(got)s)"),
        ("被动方（服务端）的内存被对端直接访问：WRITE/WRITE_IMM 要 REMOTE_WRITE，READ 要 REMOTE_READ，原子操作要 REMOTE_ATOMIC。"
         "MR 不开，对端的网卡请求到达时本端网卡查 rkey 的权限不够，回 NAK：对端的完成是 REM_ACCESS_ERR（本程序的 QP 权限跟着 MR 走，"
         "QP 也没开时是 REM_INV_REQ_ERR；5.10 的 rxe 不回 NAK，请求方重传到 RETRY_EXC_ERR）",
         "The passive side's (server's) memory is accessed directly by the peer: WRITE/WRITE_IMM need REMOTE_WRITE, READ needs "
         "REMOTE_READ, atomics need REMOTE_ATOMIC. Without it, the local NIC checks the rkey's rights when the request arrives and "
         "NAKs: the peer completes with REM_ACCESS_ERR (the QP rights here follow the MR's, so with the QP closed too it is "
         "REM_INV_REQ_ERR; rxe on 5.10 sends no NAK and the requester retries until RETRY_EXC_ERR)"), GAL + "mr-access"),
    "access.local_missing": ("access",
        ("--op %(op)s 的%(role_zh)s：网卡要往这块内存里写（%(why_zh)s），却没有 IBV_ACCESS_LOCAL_WRITE",
         "--op %(op)s, %(role_en)s: the NIC writes into this memory (%(why_en)s) but there is no IBV_ACCESS_LOCAL_WRITE"),
        ("LOCAL_WRITE 是“本端网卡可以写这块内存”：接收的数据、READ 取回的数据、原子操作返回的原值都由本端网卡写进来。"
         "没有它，那个 WR 的完成是 LOC_PROT_ERR（本地保护错误），数据没有写进来",
         "LOCAL_WRITE means the local NIC may write this memory: received data, the data a READ brings back and an atomic's "
         "old value are all written by the local NIC. Without it that WR completes with LOC_PROT_ERR and nothing is written"),
        GAL + "lkey"),
    "access.remote_extra": ("access",
        ("--op %(op)s 的%(role_zh)s：多开了 %(extra)s，这个操作里对端不会这样访问你的内存",
         "--op %(op)s, %(role_en)s: %(extra)s is more than needed; in this operation the peer never accesses your memory that way"),
        ("rkey 交给了对端：MR 开了什么，对端（或任何拿到 rkey 的人）就能对这块内存做什么。只开本操作、本角色需要的："
         "主动方从不需要 REMOTE_*，READ 的被动方只要 REMOTE_READ。多开不会让程序出错，所以只有按规则才查得出来",
         "The rkey goes to the peer: whatever the MR grants, the peer (or anyone holding the rkey) may do to this memory. Open "
         "only what this operation and role need: the active side never needs REMOTE_*, a READ's passive side only REMOTE_READ. "
         "Granting more never makes the program fail, which is why only a rule catches it"), GAL + "mr-access"),
    "access.roles_swapped": ("access",
        ("两个角色弄反了：主动方（客户端）开了 REMOTE_*，被动方（服务端）没有", "the roles are swapped: the active side (client) grants REMOTE_*, the passive side (server) does not"),
        ("ROLE_SERVER 是被动方：单边操作（WRITE/READ/原子）落在它的内存上，它开 REMOTE_*；ROLE_CLIENT 发起这些操作，只要本地的权限",
         "ROLE_SERVER is the passive side: one-sided operations (WRITE/READ/atomics) land in its memory, so it grants REMOTE_*; "
         "ROLE_CLIENT issues them and needs only local rights"), GAL + "mr-access"),
    # ---- 练习 11：选 GID ----
    "gid.hardcoded": (RET, ("每张表都返回 %(got)s：GID 索引要从表里按规则找，不能写死", "you return %(got)s for every table: the GID index must be found in the table by the rule, not hard-coded"),
        ("GID 表因机器而异：索引 0 常是 fe80 链路本地；rxe 每个地址只有一项 RoCE v2，mlx5 每个地址一项 RoCE v1、一项 RoCE v2；"
         "删掉过的地址留下空位。照抄别人机器上的 0、1 或 3 只在某些机器上碰巧对（show_gids.sh 列出这台机器的表）",
         "GID tables differ between machines: index 0 is often the fe80 link-local entry; rxe has one RoCE v2 entry per "
         "address, mlx5 one RoCE v1 and one RoCE v2 entry; removed addresses leave holes. 0, 1 or 3 copied from someone else's "
         "machine is right only by luck (show_gids.sh lists this machine's table)"), TS + "gid步骤4"),
    "gid.first_v2": (RET, ("返回了 %(got)s：表里第一个 RoCE v2 条目，那是 fe80 链路本地地址（%(ip)s），不是路由要的源地址 %(src)s",
                           "you returned %(got)s: the first RoCE v2 entry in the table, the fe80 link-local address (%(ip)s), not the "
                           "route's source address %(src)s"),
        ("表头通常是网卡的 fe80 链路本地地址（rxe 上它本身就是 RoCE v2 的，mlx5 上 v1、v2 各一项），所以“第一个 v2”几乎总是它。"
         "对端的 GID 是 IPv4 时两端的地址族对不上，RTR 失败或包发不出去。除了类型，还要比较地址：IPv4 映射、等于 src_ip",
         "The table usually starts with the NIC's fe80 link-local address (on rxe it is itself a RoCE v2 entry; mlx5 has a v1 and "
         "a v2 one), so 'the first v2' is nearly always it. With an IPv4 peer GID the address families differ and RTR fails or "
         "nothing leaves. Besides the kind, compare the address: IPv4-mapped and equal to src_ip"), TS + "gid步骤4"),
    "gid.nothing_fits": (RET, ("返回了 %(got)s，可这张表里没有合适的条目（%(why_zh)s）：没有时返回 -1",
                               "you returned %(got)s, but no entry in this table fits (%(why_en)s): return -1 then"),
        ("没有合适的条目时返回 -1，程序在步骤4 说出为什么（没有这个地址的 RoCE v2 条目、索引放不进 8 位……），不悄悄换成别的条目："
         "换成的条目地址不对，RTR 或者后面的每个包都会失败，而且更难查",
         "When no entry fits return -1, and the program says why in step 4 (no RoCE v2 entry for the address, an index that "
         "does not fit in 8 bits...) instead of silently taking another entry: that entry's address is wrong, and RTR or every "
         "later packet fails, harder to trace"), TS + "gid步骤4"),
    "gid.position": (RET, ("返回了 %(got)s，那是条目在数组里的位置；要它的 GID 索引 tbl[i].index（%(want)s）",
                               "you returned %(got)s, the entry's position in the array; return its GID index tbl[i].index (%(want)s)"),
        ("tbl 只装着非空的条目，所以数组里的第 i 项不一定是 GID 索引 i（删掉过的地址留下空位）。sgid_index 要的是 GID 表里的索引",
         "tbl holds only the non-empty entries, so the i-th element is not necessarily GID index i (removed addresses leave "
         "holes). sgid_index wants the index in the GID table"), TS + "gid步骤4"),
    "gid.v1": ("kind", ("返回了 %(got)s，地址对了但类型是 RoCE v1；要 RoCE v2 的那一项（%(want)s）",
                        "you returned %(got)s: the right address but RoCE v1; take the RoCE v2 entry (%(want)s)"),
        ("同一个地址有两项：RoCE v1 的包是以太网帧（0x8915），不是 IP 包，过不了路由器；RoCE v2 是 UDP 4791 上的 IP 包。"
         "两端必须用同一种：本程序在步骤11 比较两端的类型，不同就退出（硬件上 v1 对 v2 是没有应答）",
         "Each address has two entries: a RoCE v1 packet is an Ethernet frame (0x8915), not an IP packet, and crosses no router; "
         "RoCE v2 is IP over UDP 4791. Both ends must use the same kind: this program compares them in step 11 and exits if "
         "they differ (on hardware v1 against v2 gets no answer)"), TS + "gid步骤4"),
    "gid.link_local": ("raw", ("返回了 %(got)s：fe80 链路本地地址，不是路由要的源地址 %(src)s", "you returned %(got)s: an fe80 link-local address, not the route's source address %(src)s"),
        ("fe80::/10 只在一条链路上有效，对端的 GID 是 IPv4 时两端的类型对不上，RTR 失败或包发不出去；要通往对端的那个 IPv4 地址的条目",
         "fe80::/10 is valid on one link only; with an IPv4 peer GID the two ends do not match and RTR fails or nothing leaves. "
         "Take the entry of the IPv4 address towards the peer"), TS + "gid步骤4"),
    "gid.other_ip": ("raw", ("返回了 %(got)s（地址 %(ip)s），路由要的源地址是 %(src)s", "you returned %(got)s (address %(ip)s), but the route's source address is %(src)s"),
        ("RoCE v2 的包的源 IP 就是源 GID 里的地址。内核到对端的路由（ip route get）说了用哪个源地址；用别的地址（比如另一块网卡的，"
         "或者表里第一个 IPv4），对端的回包要么回不来，要么从别的网卡回来被丢掉——机器有两块网卡时最常见的错误",
         "A RoCE v2 packet's source IP is the address in the source GID. The kernel's route to the peer (ip route get) says "
         "which source address to use; with another one (another NIC's, or the first IPv4 in the table) the replies do not "
         "come back or come back on another NIC and are dropped - the most common mistake on machines with two NICs"), TS + "gid步骤4"),
    "gid.not_ipv4": ("raw", ("返回了 %(got)s：那是一个 IPv6 地址（%(ip)s），只是最后 4 个字节和 %(src)s 一样",
                              "you returned %(got)s: an IPv6 address (%(ip)s) whose last 4 bytes merely equal %(src)s"),
        ("IPv4 地址放进 GID 的格式是 ::ffff:a.b.c.d（前 10 字节 0，再两个 0xff）。只比较最后 4 个字节，会把 IPv6 地址也当成它。"
         "先看 gid_is_ipv4_mapped()，再比较地址（gid_to_ip() 给出点分十进制）",
         "An IPv4 address sits in a GID as ::ffff:a.b.c.d (10 zero bytes, then two 0xff). Comparing only the last 4 bytes takes an "
         "IPv6 address for it too. Check gid_is_ipv4_mapped() first, then compare the address (gid_to_ip() gives dotted decimal)"), TS + "gid步骤4"),
    "gid.beyond_8bit": ("index", ("返回了 %(got)s：大于 255，RTR 的 ah_attr.grh.sgid_index 只有 8 位", "you returned %(got)s: above 255, but RTR's ah_attr.grh.sgid_index has 8 bits"),
        ("sgid_index 是 uint8_t：索引 300 写进去变成 44，用的是别的条目。这样的条目不能选，返回 -1（程序会说出为什么，不悄悄换成别的地址）",
         "sgid_index is a uint8_t: index 300 becomes 44 there, a different entry. Such an entry cannot be chosen; return -1 (the "
         "program then says why instead of silently switching to another address)"), TS + "gid步骤4"),
    "gid.none": (RET, ("返回了 -1，可表里有 %(src)s 的 RoCE v2 条目（索引 %(want)s）", "you returned -1, but the table has a RoCE v2 entry for %(src)s (index %(want)s)"),
        ("每个非空条目都看一遍：类型 RoCE v2、IPv4 映射、地址等于 src_ip、索引不超过 255 的那一项", "Look at every non-empty entry: the one that is RoCE v2, IPv4-mapped, has address src_ip and index <= 255"), TS + "gid步骤4"),
    "gid.wrong": (RET, ("返回了 %(got)s，路由要的源地址 %(src)s 的 RoCE v2 条目是 %(want)s", "you returned %(got)s; the RoCE v2 entry for the route's source address %(src)s is %(want)s"),
        ("返回 GID 索引（tbl[i].index），没有合适的条目时返回 -1", "Return the GID index (tbl[i].index), or -1 when no entry fits"), TS + "gid步骤4"),
    # ---- 练习 12：清理的顺序 ----
    "cleanup.missing": ("order", ("少了 %(obj)s：这条连接有它，却没有销毁（%(call)s）", "%(obj)s is missing: this connection has one but you never destroy it (%(call)s)"),
        ("每个建了的对象都要销毁一次。少了一个：它还挂在 PD 上，之后 ibv_dealloc_pd 以 EBUSY 失败（QP、SRQ、MR、AH 都属于 PD）；"
         "CQ 和完成通道留到进程退出才由内核收回，ASan 报告泄漏。长期运行的服务端每个连接漏一份，直到资源耗尽",
         "Every object created must be destroyed once. One missing stays attached to the PD, and ibv_dealloc_pd later fails with "
         "EBUSY (QPs, SRQs, MRs and AHs belong to the PD); a CQ or completion channel stays until the process exits and ASan "
         "reports a leak. A long-running server leaks one per connection until the resources run out"), TS + "pd--mr--cq--qp步骤59"),
    "cleanup.twice": ("order", ("%(obj)s 在顺序里出现了 %(k)s 次", "%(obj)s appears %(k)s times in the order"),
        ("每个对象只销毁一次：销毁之后句柄就失效了，再用它是释放后使用（本程序销毁后把指针置空，才没有出事）",
         "Destroy each object once: after destruction the handle is gone and using it again is a use-after-free (this program "
         "sets the pointer to NULL afterwards, which is the only reason nothing happens)"), None),
    "cleanup.bad_value": ("order", ("顺序里有 %(got)s，不是 enum teardown 的值（0..%(max)s），或者返回的个数 %(n)s 不对", "the order holds %(got)s, not an enum teardown value (0..%(max)s), or the count %(n)s is wrong"),
        ("order 有 TD_COUNT 项，返回值是写进去的个数", "order has TD_COUNT entries; return how many you wrote"), None),
    "cleanup.unacked": ("order", ("有 %(n)s 个完成事件没确认，却没有在销毁 CQ 之前确认（TD_CQ_EVENTS）", "%(n)s completion events are unacknowledged and you do not acknowledge them before destroying the CQ (TD_CQ_EVENTS)"),
        ("ibv_get_cq_event 取到的每个事件都要 ibv_ack_cq_events 确认；ibv_destroy_cq 会一直等到全部确认——没确认就永远卡在清理里",
         "Every event taken with ibv_get_cq_event must be acknowledged with ibv_ack_cq_events; ibv_destroy_cq waits until all "
         "are - without it the cleanup hangs forever"), None),
    "cleanup.creation_order": ("order", ("按创建的顺序销毁（MR 最先、QP 最后）：要反过来", "you destroy in creation order (MR first, QPs last): reverse it"),
        ("后建的用着先建的：QP 用 CQ、SRQ、MR，CQ 用完成通道。销毁按相反的顺序，先销毁用别人的，每一步才没有人还在用它"
         "（否则 ibv_destroy_cq、ibv_destroy_srq、ibv_destroy_comp_channel 返回 EBUSY，对象漏掉）",
         "What is created later uses what was created earlier: QPs use the CQ, SRQ and MR; the CQ uses the channel. Destroy in "
         "the reverse order, users first, so nothing is still in use when its turn comes (otherwise ibv_destroy_cq, "
         "ibv_destroy_srq, ibv_destroy_comp_channel return EBUSY and the objects leak)"), TS + "pd--mr--cq--qp步骤59"),
    # ---- 练习 1：QP 的形状 ----
    "caps.qp_type": ("qp_type",
        ("qp_type=%(got)s，这条连接要的是 %(want)s（看 conn->opt->qp_type：QPK_RC 还是 QPK_UD）",
         "qp_type=%(got)s, but this connection wants %(want)s (look at conn->opt->qp_type: QPK_RC or QPK_UD)"),
        ("RC（IBV_QPT_RC=2）是可靠连接：一对一、确认、重传；UD（IBV_QPT_UD=4）是不可靠数据报。两端必须是同一种：RC 的对端收到 UD 的包会丢掉，"
         "连接建不起来。类型跟着 --qp 走，程序已经把它放在 conn->opt->qp_type 里",
         "RC (IBV_QPT_RC=2) is the reliable connection: one to one, acknowledged, retransmitted; UD (IBV_QPT_UD=4) is the "
         "unreliable datagram. Both ends must use the same type: an RC peer drops UD packets and the connection never comes up. "
         "The type follows --qp; the program keeps it in conn->opt->qp_type"), "docs/QP-TYPES.md"),
    "caps.cq": ("send_cq/recv_cq",
        ("send_cq 或 recv_cq 不是 conn->cq（%(got)s）", "send_cq or recv_cq is not conn->cq (%(got)s)"),
        ("每个完成都放进 QP 创建时给的 CQ。本程序所有 QP 共用一个 CQ（步骤7 建的 conn->cq），poll_completions 只看它：给了别的 CQ，完成就永远等不到；"
         "给 NULL，规范上 ibv_create_qp 应以 EINVAL 失败，实验室里（Debian 12 的 libibverbs + rxe）它却在 libibverbs 里面崩溃（SEGV）",
         "Every completion goes to the CQ given at creation. All QPs here share one CQ (conn->cq, step 7) and "
         "poll_completions only looks at it: another CQ means the completions never arrive; NULL should make ibv_create_qp "
         "fail with EINVAL, but in the lab (Debian 12's libibverbs + rxe) it crashes inside libibverbs (SEGV)"),
        "docs/FLOW.md#阶段1资源初始化步骤18"),
    "caps.srq": ("srq",
        ("--srq 时 srq 必须是 conn->srq（你给了 %(got)s）", "with --srq, srq must be conn->srq (you gave %(got)s)"),
        ("有 SRQ 时接收请求投递到 SRQ（ibv_post_srq_recv），QP 必须在创建时就挂上它；不挂的话 QP 有自己的空接收队列，"
         "对端的每条 SEND 都换来 RNR NAK。没有 --srq 时 conn->srq 是 NULL，直接写 .srq = conn->srq 两种情况都对",
         "With an SRQ the receives are posted to the SRQ (ibv_post_srq_recv), so the QP must be attached to it at creation; "
         "otherwise it has its own empty receive queue and every SEND from the peer gets an RNR NAK. Without --srq conn->srq is "
         "NULL, so .srq = conn->srq is right in both cases"), GAL + "rnr-retry0"),
    "caps.depth": ("cap.max_send_wr/max_recv_wr",
        ("队列深度 max_send_wr=%(send)s max_recv_wr=%(recv)s，程序按 conn->caps（发送 %(csend)s、接收 %(crecv)s）准备了 CQ 和记账",
         "queue depths max_send_wr=%(send)s max_recv_wr=%(recv)s; the program sized the CQ and its bookkeeping for "
         "conn->caps (send %(csend)s, receive %(crecv)s)"),
        ("比 conn->caps 浅的队列放不下程序要同时投递的 WR：发送队列的记账（sq_account）在投递之前就拒绝，硬件网卡上 "
         "ibv_post_send/recv 返回 ENOMEM；深度 0 一个也投不进。深度由 queue_caps() 从选项算好放在 conn->caps 里，照用它"
         "（更深是可以的：程序的记账照样最多投 conn->caps 个，按它算容量的 CQ 不会溢出）",
         "A queue shallower than conn->caps cannot hold the WRs the program keeps posted at once: the send-queue account "
         "(sq_account) refuses before posting, and on a hardware NIC ibv_post_send/recv return ENOMEM; depth 0 takes none. "
         "queue_caps() computed the depths from the options into conn->caps: use them (deeper is fine: the program's account "
         "still posts at most conn->caps, so the CQ sized for them cannot overflow)"), "docs/OPTIONS.md"),
    "caps.sge": ("cap.max_send_sge/max_recv_sge",
        ("max_send_sge=%(send)s max_recv_sge=%(recv)s：每个 WR 至少要 1 个 SGE", "max_send_sge=%(send)s max_recv_sge=%(recv)s: each WR needs at least 1 SGE"),
        ("SGE（scatter/gather 元素）是 WR 里的一段本地内存（地址、长度、lkey）。本程序每个 WR 用 1 个；QP 建成 0 个 SGE，"
         "带数据的 WR 投递时就以 EINVAL 失败",
         "An SGE (scatter/gather element) is one piece of local memory in a WR (address, length, lkey). Every WR here "
         "uses one; a QP created with 0 SGEs rejects every WR that carries data with EINVAL"), None),
    "caps.inline": ("cap.max_inline_data",
        ("max_inline_data=%(got)s，但 --inline 要 %(want)s", "max_inline_data=%(got)s but --inline asks for %(want)s"),
        ("inline 的上限在创建 QP 时定下，之后带 IBV_SEND_INLINE 的 WR 不能超过它。要的值在 conn->opt->inline_size。"
         "驱动把要的值向上取整（rxe 和 mlx5 都是，取整多少各不相同），写回 cap.max_inline_data；能移植的规则是只用不超过自己要的："
         "要少了，在这块网卡上取整碰巧够、换一块就在 ibv_post_send 时被拒绝（EINVAL）",
         "The inline limit is fixed when the QP is created; later WRs with IBV_SEND_INLINE may not exceed it. The wanted value "
         "is conn->opt->inline_size. Drivers round the request up (rxe and mlx5 both do, by different amounts) and write it back "
         "into cap.max_inline_data; the portable rule is to use no more than you asked for: ask for less and the rounding may "
         "cover it on this NIC and not on the next, where ibv_post_send refuses the WR (EINVAL)"), GAL + "inline"),
    "caps.sig_all": ("sq_sig_all",
        ("sq_sig_all=%(got)s：本程序每个 WR 自己决定要不要完成（IBV_SEND_SIGNALED），这里要 0",
         "sq_sig_all=%(got)s: each WR here decides itself whether it wants a completion (IBV_SEND_SIGNALED); use 0"),
        ("sq_sig_all=1 让每个发送 WR 都产生完成，不管 WR 要不要。基准测试每 --signal 个 WR 才要一个完成，多出来的完成"
         "打乱发送队列的槽位记账，CQ 也按“要了才有”算的容量，会溢出",
         "sq_sig_all=1 makes every send WR complete, whatever the WR asks. The benchmark asks for one completion every --signal "
         "WRs; the extra completions break the send-queue slot accounting, and the CQ sized for the requested ones can overflow"),
        None),
    # ---- 练习 2：RESET→INIT ----
    "init.state": ("qp_state",
        ("qp_state=%(got)s，这一步要 IBV_QPS_INIT（1）", "qp_state=%(got)s; this step wants IBV_QPS_INIT (1)"),
        ("状态机一步一格：RESET 只能到 INIT。qp_state 是目标状态", "The state machine moves one step at a time: RESET only goes to INIT. qp_state is the target state"),
        "QP_STATE_USAGE.md"),
    "init.port": ("port_num",
        ("port_num=%(got)s，端口在 conn->opt->ib_port（%(want)s）", "port_num=%(got)s; the port is conn->opt->ib_port (%(want)s)"),
        ("INIT 把 QP 绑到设备的一个端口上。端口从 1 开始编号，0 不存在；-i 选的端口在 conn->opt->ib_port",
         "INIT binds the QP to one port of the device. Ports are numbered from 1, there is no port 0; -i chooses it, it is in conn->opt->ib_port"),
        TS_INIT),
    "init.access_missing": ("qp_access_flags",
        ("qp_access_flags=%(got)s 少了 %(missing)s：MR 给了对端这个权限（access=%(access)s），QP 也得给",
         "qp_access_flags=%(got)s lacks %(missing)s: the MR grants it to the peer (access=%(access)s), so must the QP"),
        ("对端的 RDMA WRITE/READ/原子操作要过两道门：QP 的 qp_access_flags 和 MR 的权限。QP 不开，MR 开了也没用："
         "请求方收到 NAK，完成是 REM_INV_REQ_ERR（5.10 的 rxe 不回 NAK，请求方重传到 RETRY_EXC_ERR）。"
         "规则：qp_access_flags = MR 的 REMOTE_* 位（access 去掉 IBV_ACCESS_LOCAL_WRITE）",
         "The peer's RDMA WRITE/READ/atomic must pass two gates: the QP's qp_access_flags and the MR's access. If the QP does "
         "not open it, the MR opening it does not help: the requester gets a NAK and REM_INV_REQ_ERR (rxe on 5.10 sends no NAK, "
         "the requester retries until RETRY_EXC_ERR). Rule: qp_access_flags = the MR's REMOTE_* bits (access without "
         "IBV_ACCESS_LOCAL_WRITE)"), GAL + "qp-access"),
    "init.access_extra": ("qp_access_flags",
        ("qp_access_flags=%(got)s 多给了 %(extra)s：MR 没有给（access=%(access)s）", "qp_access_flags=%(got)s also grants %(extra)s, which the MR does not (access=%(access)s)"),
        ("只开本操作需要的权限：QP 多开的远端权限 MR 不认，没有用处，却让读代码的人以为对端可以这样访问；"
         "以后有人给 MR 加了权限，这个 QP 就悄悄放行了。规则：qp_access_flags = access 的 REMOTE_* 位",
         "Open only what the operation needs: a remote right the QP grants but the MR does not is useless, misleads the reader, "
         "and silently lets the peer in once someone widens the MR. Rule: qp_access_flags = the REMOTE_* bits of access"), GAL + "mr-access"),
    # ---- 练习 3：INIT→RTR ----
    "rtr.state": ("qp_state", ("qp_state=%(got)s，这一步要 IBV_QPS_RTR（2）", "qp_state=%(got)s; this step wants IBV_QPS_RTR (2)"),
        ("INIT 的下一格是 RTR（Ready To Receive）", "After INIT comes RTR (Ready To Receive)"), "QP_STATE_USAGE.md"),
    "rtr.dqpn_own": ("dest_qp_num",
        ("dest_qp_num=%(got)s 是你自己的 QP 号；对端的在步骤11 交换来的 conn->remote.qp[i].qpn（%(want)s）",
         "dest_qp_num=%(got)s is your own QP number; the peer's came in step 11: conn->remote.qp[i].qpn (%(want)s)"),
        ("RTR 告诉 QP“我的对端是谁”：dest_qp_num 是对端 QP 的号码，写进每个发出去的包的 BTH。用了自己的号码，包送到对端设备上"
         "一个不存在（或别人的）QP，没有应答：请求方重传到 RETRY_EXC_ERR。rxe 给每个设备的 QP 都从 0x11 编号，单机实验室里两端的号码"
         "常常一样，所以这个错误在那里会侥幸通过——练习的对端故意先建了几个 QP",
         "RTR tells the QP who its peer is: dest_qp_num is the peer QP's number, written into the BTH of every packet. With your "
         "own number the packets go to a QP on the peer's device that does not exist (or is someone else's): no answer, the "
         "requester retries until RETRY_EXC_ERR. rxe numbers every device's QPs from 0x11, so in a one-machine lab both ends "
         "often have the same numbers and this mistake passes by luck - the exercise's peer creates a few QPs first"), GAL + "qpn"),
    "rtr.dqpn_index": ("dest_qp_num",
        ("QP[%(i)s] 的 dest_qp_num=%(got)s 是对端 QP[0] 的；QP[i] 配对端的 QP[i]（%(want)s）",
         "QP[%(i)s]'s dest_qp_num=%(got)s belongs to the peer's QP[0]; QP[i] pairs with the peer's QP[i] (%(want)s)"),
        ("N 个 QP 两两配对：本端 QP[i] 和对端 QP[i]。都配到对端 QP[0]，对端 QP[0] 收到不认识的 PSN、别的 QP 一个包也收不到",
         "N QPs pair up one to one: local QP[i] with the peer's QP[i]. Pointing them all at the peer's QP[0] gives it packets "
         "with foreign PSNs and leaves the other peer QPs without any"), GAL + "qpn"),
    "rtr.dqpn": ("dest_qp_num", ("dest_qp_num=%(got)s，对端 QP 的号码是 %(want)s", "dest_qp_num=%(got)s; the peer QP's number is %(want)s"),
        ("dest_qp_num 来自对端：步骤11 交换的连接信息 conn->remote.qp[i].qpn", "dest_qp_num comes from the peer: conn->remote.qp[i].qpn, exchanged in step 11"), GAL + "qpn"),
    "rtr.rqpsn_own": ("rq_psn",
        ("rq_psn=%(got)s 是你自己的起始 PSN；要的是对端的 conn->remote.qp[i].psn（%(want)s）",
         "rq_psn=%(got)s is your own starting PSN; it must be the peer's, conn->remote.qp[i].psn (%(want)s)"),
        ("rq_psn 是“我期待对端的第一个包带哪个 PSN”：对端的 sq_psn，由对端随机选、在步骤11 告诉你。用了自己的，对端的第一个包 PSN 就不对："
         "响应方回序列错误 NAK（PSN sequence error），请求方从它自己的 PSN 重发，永远对不上，直到 RETRY_EXC_ERR",
         "rq_psn is the PSN I expect on the peer's first packet: the peer's sq_psn, chosen at random by the peer and sent to you "
         "in step 11. With your own, the peer's first packet has the wrong PSN: the responder answers with a PSN sequence error "
         "NAK, the requester resends from its own PSN, which never matches, until RETRY_EXC_ERR"), GAL + "psn"),
    "rtr.rqpsn": ("rq_psn", ("rq_psn=%(got)s，对端的起始 PSN 是 %(want)s", "rq_psn=%(got)s; the peer's starting PSN is %(want)s"),
        ("rq_psn 来自对端：conn->remote.qp[i].psn", "rq_psn comes from the peer: conn->remote.qp[i].psn"), GAL + "psn"),
    "rtr.mtu_small": ("path_mtu",
        ("path_mtu=%(got)s 比两端商定的 %(want)s 小", "path_mtu=%(got)s is smaller than the %(want)s both ends agreed on"),
        ("两端的 path_mtu 要一样：对端按 conn->path_mtu（两端 active_mtu 的较小者）切包，响应方收到比自己 path_mtu 长的包按规范是"
         "无效请求（NAK）。用 conn->path_mtu",
         "Both ends must use the same path_mtu: the peer cuts packets by conn->path_mtu (the smaller active_mtu), and a "
         "responder receiving a packet longer than its own path_mtu treats it as an invalid request (NAK) per the spec. Use conn->path_mtu"), None),
    "rtr.sgid": ("ah_attr.grh.sgid_index",
        ("grh.sgid_index=%(got)s，本端选中的 GID 是索引 %(want)s（conn->dev->gid.index，步骤4）",
         "grh.sgid_index=%(got)s; the local GID chosen in step 4 has index %(want)s (conn->dev->gid.index)"),
        ("sgid_index 选本端 GID 表里的一项作为包的源地址（RoCE v2 的源 IP）。步骤4 按规则选好了（RoCE v2、IPv4、通往对端的网卡），"
         "在 conn->dev->gid.index；照抄 0 或 1 只在某些机器上碰巧对：0 常是 fe80 链路本地，对端的 GID 是 IPv4 时 RTR 失败或包发不出去",
         "sgid_index picks the local GID table entry used as the packet's source address (the RoCE v2 source IP). Step 4 chose it "
         "by the rules (RoCE v2, IPv4, on the NIC towards the peer) into conn->dev->gid.index; a hard-coded 0 or 1 is right only "
         "on some machines: 0 is often the fe80 link-local entry, and with an IPv4 peer GID RTR fails or nothing leaves"),
        TS + "gid步骤4"),
    "rtr.dgid_own": ("ah_attr.grh.dgid",
        ("grh.dgid 是你自己的 GID；目的 GID 是对端的 conn->remote.qp[i].gid", "grh.dgid is your own GID; the destination is the peer's conn->remote.qp[i].gid"),
        ("dgid 是包的目的地址（RoCE v2 的目的 IP）。写成自己的，包发给自己：对端什么也收不到，请求方重传到 RETRY_EXC_ERR",
         "dgid is the packet's destination (the RoCE v2 destination IP). With your own, the packets go to yourself: the peer "
         "gets nothing, the requester retries until RETRY_EXC_ERR"), TS_RTR),
    "rtr.dgid": ("ah_attr.grh.dgid", ("grh.dgid=%(got)s 不是对端的 GID %(want)s", "grh.dgid=%(got)s is not the peer's GID %(want)s"),
        ("dgid 来自对端：conn->remote.qp[i].gid（16 字节，memcpy 进 grh.dgid.raw）", "dgid comes from the peer: conn->remote.qp[i].gid (16 bytes, memcpy into grh.dgid.raw)"), TS_RTR),
    "rtr.rd_small": ("max_dest_rd_atomic",
        ("max_dest_rd_atomic=%(got)s，对端的 max_rd_atomic 会是 %(want)s", "max_dest_rd_atomic=%(got)s; the peer's max_rd_atomic will be %(want)s"),
        ("max_dest_rd_atomic 是本端同时为对端处理的 READ/原子请求数。对端 RTS 的 max_rd_atomic 按连接信息算成 %(want)s（conn->rd.in），"
         "它会同时发这么多；你收得少，多出来的请求在硬件上被当作无效请求（NAK），0 时一个 READ 也做不了。用 conn->rd.in",
         "max_dest_rd_atomic is how many READ/atomic requests this end serves for the peer at once. The peer's RTS sets "
         "max_rd_atomic to %(want)s (conn->rd.in) from the exchanged info and will send that many; accepting fewer makes hardware "
         "NAK the excess as invalid requests, and 0 serves no READ at all. Use conn->rd.in"), "docs/OPERATIONS.md"),
    "rtr.ah_port": ("ah_attr.port_num", ("ah_attr.port_num=%(got)s，要 conn->opt->ib_port（%(want)s）", "ah_attr.port_num=%(got)s; use conn->opt->ib_port (%(want)s)"),
        ("地址向量的端口是发包的端口，和 INIT 时绑定的端口一样；端口 0 不存在", "The address vector's port is the sending port, the same as bound in INIT; there is no port 0"), TS_RTR),
    # ---- 练习 4：RTR→RTS ----
    "rts.state": ("qp_state", ("qp_state=%(got)s，这一步要 IBV_QPS_RTS（3）", "qp_state=%(got)s; this step wants IBV_QPS_RTS (3)"),
        ("RTR 的下一格是 RTS（Ready To Send）", "After RTR comes RTS (Ready To Send)"), "QP_STATE_USAGE.md"),
    "rts.sqpsn_peer": ("sq_psn",
        ("sq_psn=%(got)s 是对端的起始 PSN；发送从本端自己的 conn->psn[i]（%(want)s）开始",
         "sq_psn=%(got)s is the peer's starting PSN; sending starts at your own conn->psn[i] (%(want)s)"),
        ("sq_psn 是本端发出的第一个包的 PSN。你在步骤11 把 conn->psn[i] 告诉了对端，对端 RTR 的 rq_psn 就是它；从别的值开始，"
         "对端回 PSN 序列错误 NAK，重发永远对不上，直到 RETRY_EXC_ERR",
         "sq_psn is the PSN of the first packet this end sends. In step 11 you told the peer conn->psn[i], and the peer's RTR "
         "rq_psn is that; starting elsewhere, the peer answers with PSN sequence error NAKs and the resends never match, until RETRY_EXC_ERR"), GAL + "psn"),
    "rts.sqpsn": ("sq_psn", ("sq_psn=%(got)s，本端告诉对端的起始 PSN 是 %(want)s", "sq_psn=%(got)s; the starting PSN you told the peer is %(want)s"),
        ("sq_psn = conn->psn[i]：步骤8 随机选的、步骤11 交给对端的那个", "sq_psn = conn->psn[i]: the one chosen at random in step 8 and given to the peer in step 11"), GAL + "psn"),
    "rts.rd_big": ("max_rd_atomic",
        ("max_rd_atomic=%(got)s 超过对端的 max_dest_rd_atomic（%(want)s）", "max_rd_atomic=%(got)s exceeds the peer's max_dest_rd_atomic (%(want)s)"),
        ("max_rd_atomic 是本端同时在途的 READ/原子请求数，不能超过对端 RTR 的 max_dest_rd_atomic（两端从连接信息算出同一个数，"
         "本端是 conn->rd.out）：硬件上多出来的请求被对端当作无效请求 NAK，超过本端设备上限时 ibv_modify_qp 返回 EINVAL",
         "max_rd_atomic is how many READ/atomic requests this end keeps in flight; it may not exceed the peer's RTR "
         "max_dest_rd_atomic (both ends compute the same number from the exchanged info; here it is conn->rd.out): on hardware "
         "the excess is NAKed as invalid, and above this device's limit ibv_modify_qp returns EINVAL"), "docs/OPERATIONS.md"),
    "rts.rd_zero": ("max_rd_atomic",
        ("max_rd_atomic=0，但这条连接做 READ/原子操作", "max_rd_atomic=0 but this connection does READ/atomics"),
        ("0 表示本端一个 READ/原子请求也不能发：READ 永远发不出去。用 conn->rd.out", "0 means this end may not have a single READ/atomic in flight: READs never go out. Use conn->rd.out"), "docs/OPERATIONS.md"),
    # ---- 练习 5：接收 WR ----
    "recv.sg_list": ("sg_list", ("wr.sg_list 不指向给你的 sge", "wr.sg_list does not point to the sge you were given"),
        ("WR 只带指针：sg_list 指向调用者提供的 sge（它的生命期覆盖 ibv_post_recv），num_sge 说有几个",
         "A WR carries only a pointer: sg_list points to the caller's sge (it lives across ibv_post_recv), num_sge says how many"), None),
    "recv.num_sge0": ("num_sge", ("num_sge=%(got)s：没有缓冲区，收不下任何数据", "num_sge=%(got)s: no buffer, nothing can be received"),
        ("0 个 SGE 的接收只能收 0 字节的消息；对端的 SEND 到达时接收方的完成是 LOC_LEN_ERR，发送方是 REM_INV_REQ_ERR",
         "A receive with 0 SGEs takes only 0-byte messages; when the peer's SEND arrives the receiver completes with "
         "LOC_LEN_ERR and the sender with REM_INV_REQ_ERR"), GAL + "small-recv"),
    "recv.addr": ("sge.addr", ("sge.addr=%(got)s，数据要放进 addr（%(want)s）", "sge.addr=%(got)s; the data goes to addr (%(want)s)"),
        ("sge.addr 是本端 MR 里的虚拟地址：网卡把收到的数据写到那里。程序按 QP 分好了区（area_a），调用者把地址传给你",
         "sge.addr is a virtual address inside the local MR: the NIC writes the received data there. The program divided the "
         "buffer per QP (area_a) and passes you the address"), None),
    "recv.len": ("sge.length", ("sge.length=%(got)s，调用者给的是 %(want)s", "sge.length=%(got)s; the caller gave %(want)s"),
        ("接收缓冲区比到达的消息短：规范和硬件上接收方 LOC_LEN_ERR、发送方 REM_INV_REQ_ERR（rxe 报的是 LOC_QP_OP_ERR / REM_OP_ERR）；比给你的长：网卡可能写出这个 QP 的区，踩到别的 QP 的数据",
         "A receive buffer shorter than the arriving message: LOC_LEN_ERR at the receiver, REM_INV_REQ_ERR at the sender; longer "
         "than given: the NIC may write past this QP's area into another QP's data"), GAL + "small-recv"),
    "recv.lkey_rkey": ("sge.lkey", ("sge.lkey=%(got)s 是 MR 的 rkey；本地访问用 lkey（%(want)s）", "sge.lkey=%(got)s is the MR's rkey; local access uses the lkey (%(want)s)"),
        ("lkey 给本端的 WR 用，rkey 是交给对端的钥匙。rxe 的 lkey 和 rkey 常常相同，在实验室里会侥幸通过；硬件上它们不同，"
         "接收完成是 LOC_PROT_ERR",
         "The lkey is for this end's WRs, the rkey is the key given to the peer. On rxe the two are often equal, so the lab may "
         "pass by luck; on hardware they differ and the receive completes with LOC_PROT_ERR"), GAL + "lkey"),
    "recv.lkey": ("sge.lkey", ("sge.lkey=%(got)s 不是 MR 的 lkey（%(want)s）", "sge.lkey=%(got)s is not the MR's lkey (%(want)s)"),
        ("缓冲区在 conn->mr 里，钥匙是 conn->mr->lkey；错的 lkey 让完成报 LOC_PROT_ERR", "The buffer is in conn->mr, its key is conn->mr->lkey; a wrong lkey completes with LOC_PROT_ERR"), GAL + "lkey"),
    "recv.wr_id": ("wr_id", ("wr_id=%(got)s，程序认的是 WRID(i, 0)（%(want)s）", "wr_id=%(got)s; the program expects WRID(i, 0) (%(want)s)"),
        ("wr_id 原样回到完成里：共享 CQ 里的完成靠它的低 8 位认出是哪个 QP 的（rdma_common.h 的 WRID）。错了，poll 时报“对不上本端的QP”",
         "wr_id comes back unchanged in the completion: the shared CQ tells the QPs apart by its low 8 bits (WRID in "
         "rdma_common.h). Wrong, and the poll reports a completion that matches no local QP"), None),
    "recv.next": ("next", ("wr.next 不是 NULL（没有初始化的 WR？）", "wr.next is not NULL (an uninitialised WR?)"),
        ("ibv_post_recv 沿着 next 一个个投递；没清零的 next 指向随机内存，程序崩溃或投出垃圾。用复合字面量 (struct ibv_recv_wr){ ... } 一次写全",
         "ibv_post_recv follows next through the list; an uncleared next points to random memory: a crash or garbage posted. "
         "Use a compound literal (struct ibv_recv_wr){ ... } to write it all at once"), None),
    # ---- 练习 6：发送 WR ----
    "send.opcode": ("opcode", ("opcode=%(got)s，要的是 req->opcode：%(want)s", "opcode=%(got)s; the request says req->opcode: %(want)s"),
        ("操作码决定网卡做什么：SEND 消耗对端一个接收，RDMA WRITE 直接写对端内存。照抄 IBV_WR_SEND 在 --op write 时就发错了操作",
         "The opcode decides what the NIC does: a SEND consumes one of the peer's receives, an RDMA WRITE writes its memory. "
         "A hard-coded IBV_WR_SEND does the wrong operation with --op write"), None),
    "send.num_sge0": ("num_sge", ("num_sge=%(got)s：一个字节也不发", "num_sge=%(got)s: not a byte is sent"),
        ("0 个 SGE 的 SEND 发出的是 0 字节的消息：对端收到的长度不对，校验失败", "A SEND with 0 SGEs is a 0-byte message: the peer gets the wrong length and its check fails"), None),
    "send.sg_list": ("sg_list", ("wr.sg_list 不指向给你的 sge", "wr.sg_list does not point to the sge you were given"),
        ("sg_list 指向调用者提供的 sge", "sg_list points to the caller's sge"), None),
    "send.addr": ("sge.addr/length", ("sge 是 addr=%(got)s length=%(glen)s，数据在 req->local（%(want)s）、req->len（%(wlen)s）",
                                        "the sge is addr=%(got)s length=%(glen)s; the data is at req->local (%(want)s), req->len (%(wlen)s)"),
        ("要发的数据在本端 MR 里的 req->local 开始的 req->len 字节", "The data to send is req->len bytes at req->local, inside the local MR"), None),
    "send.lkey_rkey": ("sge.lkey", ("sge.lkey=%(got)s 是 rkey；本端的数据用 lkey（%(want)s）", "sge.lkey=%(got)s is an rkey; local data uses the lkey (%(want)s)"),
        ("sge 描述本端的内存，网卡用 lkey 检查；rkey（自己的 conn->mr->rkey 或对端的 conn->peer_rkey）只用在对端那一侧。"
         "rxe 的 lkey 和 rkey 常常相同会侥幸通过；不同时 rxe 报 local QP operation error（实验室量过），硬件上是 LOC_PROT_ERR",
         "The sge describes local memory, checked with the lkey; an rkey (your conn->mr->rkey or the peer's conn->peer_rkey) is "
         "only for the peer's side. On rxe lkey and rkey are often equal and it passes by luck; when they differ rxe reports local QP "
         "operation error (measured in the lab), hardware LOC_PROT_ERR"), GAL + "lkey"),
    "send.lkey": ("sge.lkey", ("sge.lkey=%(got)s 不是 MR 的 lkey（%(want)s）", "sge.lkey=%(got)s is not the MR's lkey (%(want)s)"),
        ("钥匙是 conn->mr->lkey", "The key is conn->mr->lkey"), GAL + "lkey"),
    "send.unsignaled": ("send_flags", ("没有 IBV_SEND_SIGNALED，但这个 WR 要完成（req->unsignaled=0）", "no IBV_SEND_SIGNALED, but this WR wants a completion (req->unsignaled=0)"),
        ("QP 建成 sq_sig_all=0（练习 1），只有带 IBV_SEND_SIGNALED 的 WR 才产生完成。程序等这个完成，等不到：-t 秒后“轮询CQ超时”",
         "The QP was created with sq_sig_all=0 (exercise 1), so only WRs with IBV_SEND_SIGNALED complete. The program waits for "
         "this completion and never gets it: after -t seconds, a CQ poll timeout"), None),
    "send.signaled_extra": ("send_flags", ("req->unsignaled=1 却带了 IBV_SEND_SIGNALED", "req->unsignaled=1 but IBV_SEND_SIGNALED is set"),
        ("基准测试每 --signal 个 WR 只要一个完成：多出来的完成打乱发送队列的槽位记账，CQ 也会溢出", "The benchmark asks for one completion every --signal WRs: extra completions break the slot accounting and can overflow the CQ"), None),
    "send.inline": ("send_flags", ("IBV_SEND_INLINE 和 req->inline_data=%(want)s 不一致", "IBV_SEND_INLINE does not match req->inline_data=%(want)s"),
        ("inline 由调用者决定（消息不超过 --inline 时）：不该 inline 时加了，超过 QP 的 max_inline_data 的 WR 被拒绝", "The caller decides inline (messages up to --inline): adding it where not wanted gets WRs above max_inline_data rejected"), GAL + "inline"),
    "send.wr_id": ("wr_id", ("wr_id=%(got)s，要 WRID(i, req->seq)（%(want)s）", "wr_id=%(got)s; it must be WRID(i, req->seq) (%(want)s)"),
        ("完成靠 wr_id 的低 8 位认 QP，高位是调用者的序号（基准测试用它找回投递时刻）", "Completions are matched to QPs by the low 8 bits of wr_id; the high bits are the caller's sequence (the benchmark finds the post time by it)"), None),
    "send.next": ("next", ("wr.next 不是 NULL（没有初始化的 WR？）", "wr.next is not NULL (an uninitialised WR?)"),
        ("ibv_post_send 沿着 next 投递：没清零就是随机内存。post_send 自己再把链表接上", "ibv_post_send follows next: uncleared it is random memory. post_send links the list itself afterwards"), None),
    # ---- 练习 7：RDMA WRITE/READ ----
    "rdma.rkey_own": ("wr.rdma.rkey", ("wr.rdma.rkey=%(got)s 是你自己 MR 的 rkey；要对端的 conn->peer_rkey（%(want)s）", "wr.rdma.rkey=%(got)s is your own MR's rkey; it must be the peer's conn->peer_rkey (%(want)s)"),
        ("RDMA WRITE/READ 访问的是对端的内存，钥匙是对端在步骤11 交给你的 rkey。用了自己的：对端网卡查不到（或查到别的 MR），"
         "回 NAK（remote access error），完成是 REM_ACCESS_ERR。rxe 的 rkey 是“MR 序号<<8 | 随机字节”，两端序号常常一样——"
         "练习的对端故意先注册了别的 MR",
         "RDMA WRITE/READ touch the peer's memory; the key is the rkey the peer gave you in step 11. With your own, the peer's "
         "NIC finds no (or another) MR and NAKs with remote access error: REM_ACCESS_ERR. rxe's rkey is 'MR index << 8 | random "
         "byte' and both ends often have the same index - the exercise's peer registers another MR first"), GAL + "rkey"),
    "rdma.rkey_lkey": ("wr.rdma.rkey", ("wr.rdma.rkey=%(got)s 是本端的 lkey", "wr.rdma.rkey=%(got)s is the local lkey"),
        ("lkey 只在本端有意义；对端的内存要对端的 rkey（conn->peer_rkey）", "An lkey means something only locally; the peer's memory needs the peer's rkey (conn->peer_rkey)"), GAL + "rkey"),
    "rdma.rkey": ("wr.rdma.rkey", ("wr.rdma.rkey=%(got)s 不是对端的 rkey（%(want)s）", "wr.rdma.rkey=%(got)s is not the peer's rkey (%(want)s)"),
        ("钥匙是 conn->peer_rkey（步骤11 交换来的 conn->remote.rkey）", "The key is conn->peer_rkey (conn->remote.rkey, exchanged in step 11)"), GAL + "rkey"),
    "rdma.raddr_local": ("wr.rdma.remote_addr", ("wr.rdma.remote_addr=%(got)s 是本端的缓冲区地址；要对端的 req->remote_addr（%(want)s）", "wr.rdma.remote_addr=%(got)s is a local buffer address; it must be the peer's req->remote_addr (%(want)s)"),
        ("remote_addr 是对端进程里的虚拟地址（对端在步骤11 告诉你它的缓冲区从哪里开始，调用者算好了这一轮的地址放在 req->remote_addr）。"
         "本端的地址在对端的 MR 范围之外：REM_ACCESS_ERR",
         "remote_addr is a virtual address in the peer's process (the peer told you in step 11 where its buffer starts; the "
         "caller computed this round's address into req->remote_addr). A local address is outside the peer's MR: REM_ACCESS_ERR"), GAL + "rkey"),
    "rdma.raddr": ("wr.rdma.remote_addr", ("wr.rdma.remote_addr=%(got)s，要 req->remote_addr（%(want)s）", "wr.rdma.remote_addr=%(got)s; it must be req->remote_addr (%(want)s)"),
        ("调用者已经算好了对端的地址（包括这一轮、这个 QP 的偏移）", "The caller already computed the peer address (including this round's and this QP's offset)"), None),
    "rdma.union": ("wr.wr", ("写进了 wr.wr.atomic；RDMA WRITE/READ 用 wr.wr.rdma", "you wrote wr.wr.atomic; RDMA WRITE/READ use wr.wr.rdma"),
        ("wr.wr 是联合体：rdma、atomic、ud 共用同一块内存，字段位置不同（atomic.rkey 在 rdma.rkey 之后 16 字节）。写错成员，网卡读到的 rkey 是别的东西",
         "wr.wr is a union: rdma, atomic and ud share the memory at different offsets (atomic.rkey sits 16 bytes after rdma.rkey). Write the wrong member and the NIC reads something else as the rkey"), None),
    "rdma.touched": ("wr", ("改了不该改的字段：%(fields)s", "changed fields that are not yours: %(fields)s"),
        ("这个函数只填对端的地址和钥匙；sge、opcode、send_flags 由 send_wr_for 填好了", "This function only fills the peer's address and key; the sge, opcode and send_flags were filled by send_wr_for"), None),
    # ---- 练习 8：原子操作 ----
    "atomic.rkey_own": ("wr.atomic.rkey", ("wr.atomic.rkey=%(got)s 是你自己 MR 的 rkey；要对端的 conn->peer_rkey（%(want)s）", "wr.atomic.rkey=%(got)s is your own MR's rkey; it must be the peer's conn->peer_rkey (%(want)s)"),
        ("原子操作在对端的内存上做，钥匙是对端的 rkey。用了自己的：REM_ACCESS_ERR", "The atomic runs on the peer's memory; the key is the peer's rkey. With your own: REM_ACCESS_ERR"), GAL + "rkey"),
    "atomic.rkey": ("wr.atomic.rkey", ("wr.atomic.rkey=%(got)s 不是对端的 rkey（%(want)s）", "wr.atomic.rkey=%(got)s is not the peer's rkey (%(want)s)"),
        ("钥匙是 conn->peer_rkey", "The key is conn->peer_rkey"), GAL + "rkey"),
    "atomic.raddr": ("wr.atomic.remote_addr", ("wr.atomic.remote_addr=%(got)s，要 req->remote_addr（%(want)s）", "wr.atomic.remote_addr=%(got)s; it must be req->remote_addr (%(want)s)"),
        ("原子操作的目标是对端 MR 里一个 8 字节对齐的字，地址由调用者算好", "The target is one 8-byte aligned word in the peer's MR; the caller computed its address"), None),
    "atomic.union": ("wr.wr", ("写进了 wr.wr.rdma；原子操作用 wr.wr.atomic", "you wrote wr.wr.rdma; atomics use wr.wr.atomic"),
        ("wr.wr 是联合体：rdma.rkey 和 atomic.compare_add 在同一个位置。写成 wr.rdma，网卡读到的 atomic.rkey 是 0、加数是你的 rkey",
         "wr.wr is a union: rdma.rkey lies where atomic.compare_add is. Written as wr.rdma, the NIC reads 0 as atomic.rkey and your rkey as the add value"), None),
    "atomic.swapped": ("compare_add/swap", ("compare_add 和 swap 反了", "compare_add and swap are swapped"),
        ("cmp_swap：对端的字等于 compare_add 时换成 swap。反过来，比较几乎总是失败，对端的字不变", "cmp_swap: if the peer's word equals compare_add it becomes swap. Swapped, the compare nearly always fails and the word stays"), None),
    "atomic.operand": ("compare_add/swap", ("compare_add=%(got)s swap=%(gswap)s，要 req->compare_add（%(want)s）、req->swap（%(wswap)s）",
                                             "compare_add=%(got)s swap=%(gswap)s; they must be req->compare_add (%(want)s) and req->swap (%(wswap)s)"),
        ("fetch_add 把 compare_add 加到对端的字上（swap 不用）；cmp_swap 比较 compare_add、换成 swap。值在 req 里",
         "fetch_add adds compare_add to the peer's word (swap unused); cmp_swap compares with compare_add and writes swap. The values are in req"), None),
    # ---- 练习 9：检查一个完成 ----
    "wc.status": ("status",
        ("状态是 %(got)s 的完成被你当成了成功", "you took a completion with status %(got)s for a success"),
        ("先看 wc->status：不是 IBV_WC_SUCCESS，这个 WR 就失败了（对端拒绝、重传用完、QP 被改到 ERR 时冲刷出来的……），"
         "而且失败的完成里除了 wr_id、qp_num、status、vendor_err，别的字段（opcode、byte_len）都没有定义。当成功继续走，"
         "程序会去读一块没有写进数据的缓冲区",
         "Look at wc->status first: anything but IBV_WC_SUCCESS means the WR failed (refused by the peer, retries "
         "exhausted, flushed when the QP went to ERR...), and in a failed completion only wr_id, qp_num, status and "
         "vendor_err are defined. Carrying on as if it succeeded, the program reads a buffer nothing was written to"), GAL + "flush"),
    "wc.success_failed": ("status", ("成功的完成（IBV_WC_SUCCESS = 0）被你判成了失败", "a successful completion (IBV_WC_SUCCESS = 0) judged as failed"),
        ("IBV_WC_SUCCESS 是 0；只有它是成功", "IBV_WC_SUCCESS is 0; only it means success"), None),
    "wc.qpn": ("qp_num", ("完成的 qp_num=%(got)s 不是 wr_id 说的那个 QP（%(want)s），你却收下了", "the completion's qp_num=%(got)s is not the QP its wr_id names (%(want)s), yet you accepted it"),
        ("共享的 CQ 里放着所有 QP 的完成。wr_id 是你自己投递时写的（低 8 位是 QP 序号），qp_num 是网卡填的：两者对不上，说明这个完成不是你以为的那个"
         "（wr_id 写错了，或者别的 QP、别的对端的完成）。qp_num 要和 conn->qp[i]->qp_num 比，不是和对端的 QP 号比",
         "A shared CQ holds every QP's completions. wr_id is what you wrote when posting (its low 8 bits are the QP index), "
         "qp_num is filled in by the NIC: if they disagree the completion is not the one you think (a wrong wr_id, or another "
         "QP's or peer's completion). Compare qp_num with conn->qp[i]->qp_num, not with the peer's QP number"), None),
    "wc.mine_rejected": ("qp_num", ("QP[%(i)s] 自己的完成被你判成“不是本端的”", "QP[%(i)s]'s own completion judged as not ours"),
        ("wr_id 的低 8 位是 QP 序号 i（wrid_qp(wc->wr_id)），wc->qp_num 要等于 conn->qp[i]->qp_num（本端的号码，不是对端的）",
         "The low 8 bits of wr_id are the QP index i (wrid_qp(wc->wr_id)); wc->qp_num must equal conn->qp[i]->qp_num (the local number, not the peer's)"), None),
    "wc.seq": ("wr_id", ("wr_id=%(got)s（序号 %(seq)s）的完成没认出来：QP 序号只在 wr_id 的低 8 位", "the completion with wr_id=%(got)s (sequence %(seq)s) was not recognised: the QP index is only the low 8 bits of wr_id"),
        ("wr_id = (序号 << 8) | QP序号（rdma_common.h 的 WRID）：基准测试把投递的序号放在高位。用 wrid_qp(wc->wr_id) 取 QP 序号，不能直接拿整个 wr_id 当下标",
         "wr_id = (sequence << 8) | QP index (WRID in rdma_common.h): the benchmark keeps its post sequence in the high bits. Take the index with wrid_qp(wc->wr_id), never the whole wr_id"), None),
    "wc.range": ("wr_id", ("wr_id 的低 8 位是 %(got)s，超过了 QP 数 %(n)s，你却收下了", "wr_id's low 8 bits are %(got)s, beyond the %(n)s QPs, yet you accepted it"),
        ("下标先和 conn->num_qp 比，再去读 conn->qp[i]：越界的 wr_id 说明这不是本端投递的 WR", "Compare the index with conn->num_qp before reading conn->qp[i]: an out-of-range wr_id is not a WR this end posted"), None),
}

# 练习专有的提示：一般规则（verbs_rules.py）的消息后面加一句“在这个练习里用什么”，规则本身不知道 conn。
# 可以用消息的参数和练习自己加的参数（%(op)s 这样的）
HINTS = {
    "rtr.mtu_invalid": ("用 conn->path_mtu（步骤11 算好的两端 active_mtu 的较小者）", "use conn->path_mtu (the smaller active_mtu, computed in step 11)"),
    "rtr.mtu_big": ("程序在步骤11 已算好 conn->path_mtu = min(本端, 对端)", "the program computed conn->path_mtu = min(local, peer) in step 11"),
    "qp.mask_forbidden": ("每一步只给这一步的属性，别的步骤有自己的函数", "give each step only its own attributes; the other steps have their own functions"),
    "qp.mask_missing": ("你返回的掩码要有这一步必需的每一位", "the mask you return needs every bit this step requires"),
    "attr.unset": ("先整个赋值：*attr = (struct ibv_qp_attr){ ... }（WR、sge 也一样），再写别的", "assign the whole struct first: *attr = (struct ibv_qp_attr){ ... } (the WR and sge likewise)"),
    "send.flags_unknown": ("send_flags 要完整地写出来：(req->unsignaled ? 0 : IBV_SEND_SIGNALED) | …，不要 |= 在没清零的 WR 上", "write send_flags whole: (req->unsignaled ? 0 : IBV_SEND_SIGNALED) | ..., never |= on a WR that was not cleared"),
    "wc.undefined": ("status 不是 IBV_WC_SUCCESS 时只看 wr_id 和 qp_num", "when status is not IBV_WC_SUCCESS look only at wr_id and qp_num"),
    "rts.timeout0": ("选项 --ack-timeout 在 conn->opt->ack_timeout（默认 14 ≈ 67 ms）", "the --ack-timeout option is in conn->opt->ack_timeout (default 14 = about 67 ms)"),
    "rtr.rd_big": ("在协商的深度 conn->rd.in 和这个上限之间都是合法的", "anything between the negotiated depth conn->rd.in and that limit is legal"),
    "access.remote_without_local": ("--op %(op)s 的%(role_zh)s；程序在步骤6 注册 MR", "--op %(op)s, %(role_en)s; the program registers the MR in step 6"),
    "cleanup.srq_before_qp": ("--srq 时本程序还先把 QP 改到 ERR、等 LAST_WQE_REACHED", "with --srq this program also moves them to ERR and waits for LAST_WQE_REACHED"),
    "cleanup.channel_before_cq": ("--cq event 时 CQ 挂在完成通道上", "with --cq event the CQ hangs on the completion channel"),
    "cleanup.mr_before_qp": ("本程序每轮都有投递了还没完成的接收", "this program has posted, unfinished receives every round"),
}
# 合法选择的说明后面加的练习专有的一句
NOTE_HINTS = {
    "rts.timeout": ("--ack-timeout 是 %(opt)s", "--ack-timeout is %(opt)s"),
    "rts.retry7": ("本程序用 6", "this program uses 6"),
}
# 出处：解释的后面说出来（规则来自规范、内核还是驱动）；一般规则的出处在 verbs_rules.py
SOURCES = {r["id"]: r["source"] for r in VR.RULES}
SOURCES.update({
    "gid.first_v2": "rxe: one RoCE v2 GID per address (Linux rxe); mlx5: a v1 and a v2 entry per address",
})

# 练习专有的链接，盖过一般规则自己的链接（现在没有）
LINKS = {}
# 学习者在这个练习里填的字段和一般规则说的字段不同时：销毁的规则说对象（cq、mr……），练习 12 里学习者填的是 order
FIELDS = {r["id"]: "order" for r in VR.RULES if r["id"].startswith("cleanup.")}


def _general(rule):
    hint = HINTS.get(rule["id"])
    msg = rule["message"]
    if hint:
        msg = (msg[0] + "（" + hint[0] + "）", msg[1] + " (" + hint[1] + ")")
    return (FIELDS.get(rule["id"], rule["field"]), msg, rule["reason"], LINKS.get(rule["id"], rule["link"]))


OWN_M = set(M)   # 练习自己的规则（tests/exercises/verbs-rules-cases.py 查它们不重复一般规则）
M.update({r["id"]: _general(r) for r in VR.RULES if r["severity"] == "error"})

# 自由选择的值：通过，附一句它的意思（练习专有的；一般的在 verbs_rules.py，severity "note"）
NOTES = {
    "rts.rd_less": ("max_rd_atomic=%(v)s：比允许的 %(max)s 少，READ/原子操作同时在途的少一些，照样正确（自由选择）",
                    "max_rd_atomic=%(v)s: below the allowed %(max)s, fewer READs/atomics in flight, still correct (your choice)"),
    "access.local_extra": ("--op %(op)s 的%(role_zh)s多开了 IBV_ACCESS_LOCAL_WRITE：网卡不往这里写，无害（只开需要的更好）",
                           "--op %(op)s, %(role_en)s: an extra IBV_ACCESS_LOCAL_WRITE; the NIC never writes here, harmless (opening only what is needed is better)"),
    "caps.depth_more": ("max_send_wr=%(send)s max_recv_wr=%(recv)s 比 conn->caps（%(csend)s、%(crecv)s）深：可以。程序的记账照样最多投 conn->caps 个，"
                        "按它算容量的 CQ 不会溢出；多出来的只是不用的队列内存（硬件上限是设备的 max_qp_wr）",
                        "max_send_wr=%(send)s max_recv_wr=%(recv)s deeper than conn->caps (%(csend)s, %(crecv)s): allowed. The program's "
                        "account still posts at most conn->caps, so the CQ sized for them cannot overflow; the rest is unused queue "
                        "memory (the hardware limit is the device's max_qp_wr)"),
    "rtr.rd_more": ("max_dest_rd_atomic=%(v)s：比协商的 %(want)s 多，设备上限是 %(max)s；对端最多同时发 %(want)s 个，多保留的资源用不上（合法）",
                    "max_dest_rd_atomic=%(v)s: above the negotiated %(want)s, within the device's %(max)s; the peer never has more "
                    "than %(want)s in flight, so the extra resources go unused (legal)"),
}
OWN_NOTES = set(NOTES)
NOTES.update(VR.NOTES)


def h(v):
    if isinstance(v, int) and v < 0:   # int 字段（sq_sig_all）里的毒化字节：按 32 位写出来
        v &= 0xffffffff
    return "0x%x" % v if isinstance(v, int) else str(v)


# ---- 探针的结果 → verbs_rules 的记录（一次 verbs 调用看到的样子），再把发现分成错误和说明 ----
# 伪造的世界的端口是 RoCE（像 rxe）：以太网、P_Key 表一项
FAKE_PORT = {"link_layer": "Ethernet", "pkey_tbl_len": 1}
# 探针的字段名 → verbs.h 里的名字（ah.sl → ah_attr.sl，sge.lkey → sg_list[0].lkey）
PROBE_NAMES = {"next_null": "next", "sg_is_given": "sg_list", "imm": "imm_data"}
NOT_FIELDS = ("name", "ctx", "poisoned", "mask", "access", "entries")


def verbs_name(k, call):
    if k.startswith("ah."):
        return "ah_attr." + k[3:]
    if k.startswith("grh."):
        return "ah_attr.grh." + k[4:]
    if k.startswith("sge."):
        return "sg_list[0]." + k[4:]
    if k.startswith("rdma.") or k.startswith("atomic."):
        return "wr." + k
    if call == "ibv_create_qp" and k.startswith("max_"):
        return "cap." + k
    return PROBE_NAMES.get(k, k)


def fields(s, call, keep=lambda k: True):
    """(字段, 没赋值的字段)：探针的一个场景 → 记录里的 attr/wr/init_attr 和 unset（只留 keep 的：这一课的函数管的字段）"""
    f = {verbs_name(k, call): v for k, v in s.items() if k not in NOT_FIELDS and keep(k)}
    un = {verbs_name(k, call): v for k, v in s.get("poisoned", {}).items() if k not in NOT_FIELDS and keep(k)}
    return f, un


def qp_type(c):
    return "UD" if c.get("ud") else "RC"


def modify_record(s, transition):
    c = s["ctx"]
    attr, un = fields(s, "ibv_modify_qp")
    return {"call": "ibv_modify_qp", "qp_type": qp_type(c), "from": transition[0], "to": transition[1], "mask": s["mask"],
            "attr": attr, "unset": un, "port": dict(FAKE_PORT, active_mtu=c.get("local_mtu")),
            "peer": {"active_mtu": c.get("peer_mtu")}, "device": {"max_qp_rd_atom": c.get("max_rd_atom")}}


# 练习 2 的掩码错误指向 TROUBLESHOOTING 里 INIT 失败的那一节（一般规则的链接是 RTR 的那一节）
INIT_LINKS = {"qp.mask_missing": TS_INIT, "qp.mask_forbidden": TS_INIT}


def general(rec, out, notes, extra=None, links=None):
    """verbs_rules.check() 的发现：错误进 out，合法选择的说明进 notes；extra 是练习的提示要的参数，
    links 按规则 id 换一个这个练习里更近的链接（exercise.py 看参数里的 "see"）"""
    for f in VR.check(rec, "en"):
        vals = dict(f["values"], **(extra or {}))
        if links and f["id"] in links:
            vals["see"] = links[f["id"]]
        (notes if f["severity"] == "note" else out).append((f["id"], vals))


def check_1(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        init, un = fields(s, "ibv_create_qp")
        init["srq"] = c["srq"]   # 这个世界有没有 SRQ（学习者给错了 srq 是 caps.srq）：有 SRQ 时接收队列的深度不读
        general({"call": "ibv_create_qp", "qp_type": qp_type(c), "init_attr": init, "unset": un}, out, notes)
        want_t = QPT_UD if c["ud"] else QPT_RC
        if s["qp_type"] != want_t:
            out.append(("caps.qp_type", {"got": VR.named(VR.QP_TYPES, s["qp_type"]), "want": "IBV_QPT_UD (4)" if c["ud"] else "IBV_QPT_RC (2)"}))
        if s["send_cq"] != c["cq"] or s["recv_cq"] != c["cq"]:
            out.append(("caps.cq", {"got": "send_cq=%s recv_cq=%s" % (h(s["send_cq"]), h(s["recv_cq"]))}))
        if s["srq"] != c["srq"]:
            out.append(("caps.srq", {"got": h(s["srq"])}))
        dep = {"send": s["max_send_wr"], "recv": s["max_recv_wr"], "csend": c["send_wr"], "crecv": c["recv_wr"]}
        need_recv = 0 if c["srq"] else 1   # SRQ 时接收队列深度不用
        if s["max_send_wr"] < c["send_wr"] or (need_recv and s["max_recv_wr"] < c["recv_wr"]):
            out.append(("caps.depth", dep))
        elif s["max_send_wr"] > c["send_wr"] or s["max_recv_wr"] > c["recv_wr"]:
            notes.append(("caps.depth_more", dep))
        if s["max_send_sge"] < 1 or (need_recv and s["max_recv_sge"] < 1):
            out.append(("caps.sge", {"send": s["max_send_sge"], "recv": s["max_recv_sge"]}))
        if s["max_inline_data"] < c["inline"]:
            out.append(("caps.inline", {"got": s["max_inline_data"], "want": c["inline"]}))
        if s["sq_sig_all"] != 0:
            out.append(("caps.sig_all", {"got": s["sq_sig_all"]}))
    return out, notes


def check_2(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        general(modify_record(s, ("RESET", "INIT")), out, notes, links=INIT_LINKS)
        if s["qp_state"] != QPS_INIT:
            out.append(("init.state", {"got": VR.named(VR.QP_STATES, s["qp_state"])}))
        if s["port_num"] != c["port"]:
            out.append(("init.port", {"got": s["port_num"], "want": c["port"]}))
        want = s["access"] & ~A_LW
        got = s["qp_access_flags"]
        vals = {"got": access_names(got), "access": access_names(s["access"])}
        if want & ~got:
            out.append(("init.access_missing", dict(vals, missing=access_names(want & ~got))))
        elif got & ~want & ~A_LW:
            out.append(("init.access_extra", dict(vals, extra=access_names(got & ~want & ~A_LW))))
    return out, notes


def check_3(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        general(modify_record(s, ("INIT", "RTR")), out, notes)
        if s["qp_state"] != QPS_RTR:
            out.append(("rtr.state", {"got": VR.named(VR.QP_STATES, s["qp_state"])}))
        d = s["dest_qp_num"]
        if d != c["peer_qpn"]:
            kind = "rtr.dqpn_own" if d == c["local_qpn"] else "rtr.dqpn_index" if d == c["peer_qpn0"] else "rtr.dqpn"
            out.append((kind, {"got": h(d), "want": h(c["peer_qpn"]), "i": c["i"]}))
        p = s["rq_psn"]
        if p != c["peer_psn"]:
            kind = "rtr.rqpsn_own" if p == c["local_psn"] else "rtr.rqpsn"
            out.append((kind, {"got": h(p), "want": h(c["peer_psn"])}))
        pm = min(c["local_mtu"], c["peer_mtu"])
        if s["path_mtu"] in VR.MTUS and s["path_mtu"] < pm:   # 太大、不是 enum 的值：verbs_rules 的 rtr.mtu_big、rtr.mtu_invalid
            out.append(("rtr.mtu_small", {"got": mtu(s["path_mtu"]), "want": mtu(pm), "local": mtu(c["local_mtu"]), "peer": mtu(c["peer_mtu"])}))
        if s["ah.is_global"] == 1:   # 不是 1：verbs_rules 的 rtr.grh
            if s["grh.sgid_index"] != c["sgid_index"]:
                out.append(("rtr.sgid", {"got": s["grh.sgid_index"], "want": c["sgid_index"]}))
            if s["grh.dgid"] != c["peer_gid"]:
                kind = "rtr.dgid_own" if s["grh.dgid"] == c["local_gid"] else "rtr.dgid"
                out.append((kind, {"got": s["grh.dgid"], "want": c["peer_gid"]}))
        if s["ah.port_num"] != c["port"]:
            out.append(("rtr.ah_port", {"got": s["ah.port_num"], "want": c["port"]}))
        rd = {"got": s["max_dest_rd_atomic"], "v": s["max_dest_rd_atomic"], "want": c["rd_in"], "max": c["max_rd_atom"]}
        if s["max_dest_rd_atomic"] < c["rd_in"]:
            out.append(("rtr.rd_small", rd))
        elif c["rd_in"] < s["max_dest_rd_atomic"] <= c["max_rd_atom"]:   # 超过设备上限：verbs_rules 的 rtr.rd_big
            notes.append(("rtr.rd_more", rd))
    return out, notes


def check_4(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        general(modify_record(s, ("RTR", "RTS")), out, notes, {"opt": c["ack_timeout"]})
        if s["qp_state"] != QPS_RTS:
            out.append(("rts.state", {"got": VR.named(VR.QP_STATES, s["qp_state"])}))
        p = s["sq_psn"]
        if p != c["local_psn"]:
            kind = "rts.sqpsn_peer" if p == c["peer_psn"] else "rts.sqpsn"
            out.append((kind, {"got": h(p), "want": h(c["local_psn"])}))
        a = s["max_rd_atomic"]
        if a > c["rd_out"]:
            out.append(("rts.rd_big", {"got": a, "want": c["rd_out"]}))
        elif a == 0 and c["op"] in (2, 4, 5):   # enum rdma_op: OP_READ=2, OP_FETCH_ADD=4, OP_CMP_SWAP=5
            out.append(("rts.rd_zero", {}))
        elif a < c["rd_out"]:
            notes.append(("rts.rd_less", {"v": a, "max": c["rd_out"]}))
    return out, notes


def wrid(i, seq):
    return (seq << 8) | i


def check_sge(s, c, prefix, addr, length):
    out = []
    if not s["sg_is_given"]:
        out.append((prefix + ".sg_list", {}))
        return out
    if s["num_sge"] < 1:
        out.append((prefix + ".num_sge0", {"got": s["num_sge"]}))
        return out
    if prefix == "recv":
        if s["sge.addr"] != addr:
            out.append(("recv.addr", {"got": h(s["sge.addr"]), "want": h(addr)}))
        if s["sge.length"] != length:
            out.append(("recv.len", {"got": s["sge.length"], "want": length}))
    elif s["sge.addr"] != addr or s["sge.length"] != length:
        out.append(("send.addr", {"got": h(s["sge.addr"]), "glen": s["sge.length"], "want": h(addr), "wlen": length}))
    k = s["sge.lkey"]
    if k != c["lkey"]:
        kind = prefix + (".lkey_rkey" if k in (c["rkey"], c["peer_rkey"]) else ".lkey")
        out.append((kind, {"got": h(k), "want": h(c["lkey"])}))
    return out


def check_5(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        wr, un = fields(s, "ibv_post_recv")
        general({"call": "ibv_post_recv", "qp_type": qp_type(c), "wr": wr, "unset": un}, out, notes)
        if not s["next_null"]:
            out.append(("recv.next", {}))
        out += check_sge(s, c, "recv", c["addr"], c["len"])
        if s["wr_id"] != wrid(c["i"], 0):
            out.append(("recv.wr_id", {"got": h(s["wr_id"]), "want": h(wrid(c["i"], 0))}))
    return out, notes


# 练习 6 的函数管的 WR 字段（wr.rdma、wr.atomic 是练习 7、8 的函数写的）
SEND_WR_FIELDS = ("wr_id", "next_null", "opcode", "send_flags", "sg_is_given", "num_sge", "imm")


def check_6(sc):
    out, notes = [], []
    for s in sc:
        c = s["ctx"]
        wr, un = fields(s, "ibv_post_send", lambda k: k in SEND_WR_FIELDS or k.startswith("sge."))
        general({"call": "ibv_post_send", "qp_type": qp_type(c), "wr": wr, "unset": un}, out, notes)
        if not s["next_null"]:
            out.append(("send.next", {}))
        if s["opcode"] != c["opcode"]:
            out.append(("send.opcode", {"got": VR.named(VR.WR_OPCODES, s["opcode"]), "want": VR.named(VR.WR_OPCODES, c["opcode"])}))
        out += check_sge(s, c, "send", c["local"], c["len"])
        f = s["send_flags"]
        if not c["unsignaled"] and not f & F_SIGNALED:
            out.append(("send.unsignaled", {}))
        if c["unsignaled"] and f & F_SIGNALED:
            out.append(("send.signaled_extra", {}))
        if bool(f & F_INLINE) != bool(c["inline_data"]):
            out.append(("send.inline", {"want": c["inline_data"]}))
        if s["wr_id"] != wrid(c["i"], c["seq"]):
            out.append(("send.wr_id", {"got": h(s["wr_id"]), "want": h(wrid(c["i"], c["seq"]))}))
    return out, notes


def check_common_untouched(s, c):
    bad = []
    if s["opcode"] != c["opcode"]:
        bad.append("opcode")
    if s["send_flags"] != F_SIGNALED:
        bad.append("send_flags")
    if not s["sg_is_given"] or s["num_sge"] != 1 or s.get("sge.addr") != c["local"] or s.get("sge.lkey") != c["lkey"]:
        bad.append("sg_list/sge")
    if not s["next_null"]:
        bad.append("next")
    return bad


def check_7(sc):
    out = []
    for s in sc:
        c = s["ctx"]
        k, a = s["rdma.rkey"], s["rdma.remote_addr"]
        if k == 0 and s["atomic.rkey"] == c["peer_rkey"]:   # atomic.rkey 在 rdma.rkey 之后 16 字节
            out.append(("rdma.union", {}))
            continue
        if a != c["remote_addr"]:
            kind = "rdma.raddr_local" if c["local"] - 0x100000 <= a <= c["local"] + 0x100000 else "rdma.raddr"
            out.append((kind, {"got": h(a), "want": h(c["remote_addr"])}))
        if k != c["peer_rkey"]:
            kind = "rdma.rkey_own" if k == c["rkey"] else "rdma.rkey_lkey" if k == c["lkey"] else "rdma.rkey"
            out.append((kind, {"got": h(k), "want": h(c["peer_rkey"])}))
        bad = check_common_untouched(s, c)
        if bad:
            out.append(("rdma.touched", {"fields": ", ".join(bad)}))
    return out, []


def check_8(sc):
    out = []
    for s in sc:
        c = s["ctx"]
        k = s["atomic.rkey"]
        if k == 0 and c["peer_rkey"] != 0:   # rkey 是 0：几乎总是写成了 wr.rdma（rdma.rkey 落在 atomic.compare_add 上）
            out.append(("atomic.union", {}))
            continue
        if s["atomic.remote_addr"] != c["remote_addr"]:
            out.append(("atomic.raddr", {"got": h(s["atomic.remote_addr"]), "want": h(c["remote_addr"])}))
        if k != c["peer_rkey"]:
            out.append(("atomic.rkey_own" if k == c["rkey"] else "atomic.rkey", {"got": h(k), "want": h(c["peer_rkey"])}))
        ca, sw = s["atomic.compare_add"], s["atomic.swap"]
        if c["opcode"] == WR_CSWAP and ca == c["swap"] and sw == c["compare_add"]:
            out.append(("atomic.swapped", {}))
        elif ca != c["compare_add"] or (c["opcode"] == WR_CSWAP and sw != c["swap"]):
            out.append(("atomic.operand", {"got": h(ca), "gswap": h(sw), "want": h(c["compare_add"]), "wswap": h(c["swap"])}))
        bad = check_common_untouched(s, c)
        if bad:
            out.append(("rdma.touched", {"fields": ", ".join(bad)}))
    return out, []


VERDICTS = {0: "WC_MINE", 1: "WC_FAILED", 2: "WC_NOT_MINE"}


def check_9(sc):
    out = []
    for s in sc:
        c = s["ctx"]
        v = s["verdict"]
        if c["status"] != 0:
            pv = s.get("poisoned", {}).get("verdict")
            if pv:   # 两次探测的未定义字段不同（probe.c 的 run_wc），判断跟着变了：它读了其中的字段
                rec = {"call": "ibv_poll_cq", "wc": {"status": c["status"]}, "used": ["opcode", "byte_len"],
                       "evidence": "%s (opcode=IBV_WC_RECV, byte_len=0xa5a5a5a5), %s (opcode=IBV_WC_SEND, byte_len=0x5a5a5a5a)"
                                   % (VERDICTS.get(pv[0], pv[0]), VERDICTS.get(pv[1], pv[1]))}
                general(rec, out, [])
            elif v != 1:
                out.append(("wc.status", {"got": VR.named(VR.WC_STATUS, c["status"])}))
            continue
        if v == 1:
            out.append(("wc.success_failed", {}))
        elif c["mine"] and v != 0:
            out.append(("wc.seq" if c["seq"] else "wc.mine_rejected", {"got": h((c["seq"] << 8) | c["i"]), "seq": c["seq"], "i": c["i"]}))
        elif not c["mine"] and v == 0:
            if c["wr_low"] >= c["num_qp"]:
                out.append(("wc.range", {"got": c["wr_low"], "n": c["num_qp"]}))
            else:
                out.append(("wc.qpn", {"got": h(c["peer_qpn"] if c["wr_low"] < 0 else c["local_qpn"]), "want": "conn->qp[i]->qp_num"}))
    return out, []


OP_NAMES = ["send", "write", "read", "write_imm", "fetch_add", "cmp_swap"]
OP_SEND, OP_WRITE, OP_READ, OP_WRITE_IMM, OP_FADD, OP_CSWAP = range(6)
ROLE_SERVER, ROLE_CLIENT = 0, 1


def access_need(op, role):
    """(要的 REMOTE_* 位, 网卡往本地写的原因 (中, 英) 或 None)：按谁碰这块内存推出来，不查我们的表"""
    remote = 0
    if role == ROLE_SERVER:
        remote = {OP_WRITE: A_RW, OP_WRITE_IMM: A_RW, OP_READ: A_RR, OP_FADD: A_RA, OP_CSWAP: A_RA}.get(op, 0)
    why = None
    if op == OP_SEND:
        why = ("接收的消息", "the received message") if role == ROLE_SERVER else ("接收服务端的回复", "receiving the server's reply")
    elif role == ROLE_CLIENT and op == OP_READ:
        why = ("READ 取回的数据", "the data a READ brings back")
    elif role == ROLE_CLIENT and op in (OP_FADD, OP_CSWAP):
        why = ("原子操作返回的原值", "the atomic's old value")
    return remote, why


def check_10(sc):
    out, notes = [], []
    got = {(s["ctx"]["op"], s["ctx"]["role"]): s["access"] for s in sc}
    want = {k: access_need(*k)[0] for k in got}
    flip = {(op, 1 - role): v for (op, role), v in want.items()}
    if any(want[k] != flip[k] for k in got) and all(got[k] & ~A_LW == flip[k] for k in got):
        return [("access.roles_swapped", {})], []
    for s in sc:
        op, role, a = s["ctx"]["op"], s["ctx"]["role"], s["access"]
        remote, why = access_need(op, role)
        v = {"op": OP_NAMES[op], "role_zh": "服务端（被动方）" if role == ROLE_SERVER else "客户端（主动方）",
             "role_en": "server (passive side)" if role == ROLE_SERVER else "client (active side)", "got": access_names(a)}
        if remote & ~a:
            out.append(("access.remote_missing", dict(v, missing=access_names(remote & ~a))))
        general({"call": "ibv_reg_mr", "access": a}, out, notes, v)
        if why and not a & A_LW:
            out.append(("access.local_missing", dict(v, why_zh=why[0], why_en=why[1])))
        if a & (A_RW | A_RR | A_RA) & ~remote:
            out.append(("access.remote_extra", dict(v, extra=access_names(a & (A_RW | A_RR | A_RA) & ~remote))))
        elif a & A_LW and not why and not a & (A_RW | A_RA):
            notes.append(("access.local_extra", v))
    return out, notes


def gid_ip(raw):
    """(是不是 IPv4 映射, 地址文本)；raw 是 32 个十六进制字符"""
    b = bytes.fromhex(raw)
    if b[:10] == bytes(10) and b[10:12] == b"\xff\xff":
        return True, "%d.%d.%d.%d" % tuple(b[12:])
    import ipaddress
    return False, str(ipaddress.IPv6Address(b))


def check_11(sc):
    out = []
    wants, gots = [], []
    for s in sc:
        src, ents, got = s["ctx"]["src"], s["entries"], s["got"]
        want = -1
        for e in ents:
            v4, ip = gid_ip(e["raw"])
            if e["kind"] == 2 and v4 and ip == src and e["index"] <= 255:
                want = e["index"]
                break
        wants.append(want)
        gots.append(got)
        if got == want:
            continue
        v = {"got": got, "want": want, "src": src}
        by_index = {e["index"]: e for e in ents}
        right = [e for e in ents if e["index"] == want]
        first_v2 = next((e for e in ents if e["kind"] == 2), None)
        same_addr = got in by_index and gid_ip(by_index[got]["raw"]) == (True, src)   # 地址对，错在类型或索引：那个名字更具体
        if want == -1 and not same_addr:
            v["why_zh"], v["why_en"] = nothing_fits_why(ents, src)
            out.append(("gid.nothing_fits", v))
        elif first_v2 and got == first_v2["index"] and gid_ip(first_v2["raw"])[1].startswith("fe80"):
            v["ip"] = gid_ip(first_v2["raw"])[1]
            out.append(("gid.first_v2", v))
        elif got == -1:
            out.append(("gid.none", v))
        elif right and got == right[0]["pos"]:
            out.append(("gid.position", v))
        elif got in by_index:
            e = by_index[got]
            v4, ip = gid_ip(e["raw"])
            v["ip"] = ip
            same_last = bytes.fromhex(e["raw"])[12:] == bytes(int(x) for x in src.split("."))
            if v4 and ip == src and e["kind"] != 2:
                out.append(("gid.v1", v))
            elif v4 and ip == src and got > 255:
                out.append(("gid.beyond_8bit", v))
            elif not v4 and same_last:
                out.append(("gid.not_ipv4", v))
            elif not v4 and ip.startswith("fe80"):
                out.append(("gid.link_local", v))
            elif v4:
                out.append(("gid.other_ip", v))
            else:
                out.append(("gid.wrong", v))
        else:
            out.append(("gid.wrong", v))
    if len(set(gots)) == 1 and len(set(wants)) > 1 and gots[0] != -1 and not any(m == "gid.first_v2" for m, _ in out):
        return [("gid.hardcoded", {"got": gots[0]})], []
    return out, []


def nothing_fits_why(ents, src):
    """为什么这张表里没有合适的条目：(中, 英)"""
    same = [e for e in ents if gid_ip(e["raw"]) == (True, src)]
    if not same:
        return "没有 %s 的条目" % src, "no entry for %s" % src
    if not any(e["kind"] == 2 for e in same):
        return "%s 只有 RoCE v1 的条目" % src, "only RoCE v1 entries for %s" % src
    return "%s 的 RoCE v2 条目索引大于 255" % src, "the RoCE v2 entry for %s has an index above 255" % src


TD = ["TD_QPS", "TD_SRQ", "TD_AH", "TD_CQ_EVENTS", "TD_CQ", "TD_CHANNEL", "TD_MR"]
TD_QPS, TD_SRQ, TD_AH, TD_CQ_EVENTS, TD_CQ, TD_CHANNEL, TD_MR = range(7)
TD_CALL = ["ibv_destroy_qp", "ibv_destroy_srq", "ibv_destroy_ah", "ibv_ack_cq_events", "ibv_destroy_cq",
           "ibv_destroy_comp_channel", "ibv_dereg_mr"]
# enum teardown 的每一项 → verbs_rules 的记录里的对象种类（TD_CQ_EVENTS 不是对象，是确认事件）
TD_KIND = {TD_QPS: "qp", TD_SRQ: "srq", TD_AH: "ah", TD_CQ: "cq", TD_CHANNEL: "channel", TD_MR: "mr"}


def teardown_records(order, present):
    """按学习者的顺序逐个调用：每个调用一条记录，alive 是那一刻还在的对象（按种类计数）"""
    alive = {TD_KIND[v]: 1 for v in present if v in TD_KIND}
    done, recs = set(), []
    for v in order:
        if v in done or v not in present:
            continue
        done.add(v)
        recs.append({"call": TD_CALL[v], "alive": dict(alive)})
        if v in TD_KIND:
            alive[TD_KIND[v]] = 0
    return recs


def check_12(sc):
    out = []
    for s in sc:
        c = s["ctx"]
        order = s.get("order") or []
        if isinstance(order, int):
            order = [order]
        bad = [v for v in order if not 0 <= v < len(TD)]
        if bad or not 0 <= s["n"] <= c["count"]:
            out.append(("cleanup.bad_value", {"got": bad[0] if bad else order, "max": len(TD) - 1, "n": s["n"]}))
            continue
        present = {TD_QPS, TD_CQ, TD_MR}
        present |= {TD_SRQ} if c["srq"] else set()
        present |= {TD_CHANNEL} if c["channel"] else set()
        present |= {TD_AH} if c["ah"] else set()
        present |= {TD_CQ_EVENTS} if c["unacked"] else set()
        pos = {}
        for k, v in enumerate(order):
            pos.setdefault(v, k)
        for v in sorted(set(order)):
            if order.count(v) > 1:
                out.append(("cleanup.twice", {"obj": TD[v], "k": order.count(v)}))
        if pos.get(TD_QPS, -1) > max(pos.get(TD_MR, 99), pos.get(TD_CQ, 99)) and pos.get(TD_MR, 99) < pos.get(TD_CQ, 99):
            out.append(("cleanup.creation_order", {}))
            continue
        for v in sorted(present):
            if v not in pos:
                if v == TD_CQ_EVENTS:
                    out.append(("cleanup.unacked", {"n": c["unacked"]}))
                else:
                    out.append(("cleanup.missing", {"obj": TD[v], "call": TD_CALL[v]}))
        for rec in teardown_records(order, present):
            general(rec, out, [])
    return out, []


CHECKS = {1: check_1, 2: check_2, 3: check_3, 4: check_4, 5: check_5, 6: check_6, 7: check_7, 8: check_8, 9: check_9, 10: check_10, 11: check_11, 12: check_12}


def note_text(nid, vals, en):
    """合法选择的说明（中或英）；一般规则的参数里按语言不同的值（meaning）取这种语言的"""
    v = VR.localise(vals, "en" if en else "zh")
    text = NOTES[nid][1 if en else 0] % v
    hint = NOTE_HINTS.get(nid)
    if hint:
        text += (" (%s)" if en else "（%s）") % (hint[1 if en else 0] % v)
    return text
