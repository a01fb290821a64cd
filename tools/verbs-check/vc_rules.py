"""vc_rules.py - verbs-check 自己的规则，写成数据（和 exercises/check/verbs_rules.py 同样的格式）。

一边的规则里，练习也知道的那些（掩码、各字段的范围、GRH、path_mtu、send_flags、MR 的权限、销毁的先后）来自
exercises/check/verbs_rules.py 的 check()（同一个 id、字段和解释）；
这里是要看整个日志才能判断的（SGE 不在任何 MR 里、不发信号的 WR 太长、销毁的顺序、没确认的事件、泄漏、
失败的完成），和只有两边的日志放在一起才看得出的（--pair）。id 和练习里同一个错误的 id 相同（rtr.grh、rtr.mtu_big……）。

每条：id、调用、字段、严重程度（error/warning/note）、消息（中, 英，%(名字)s 填看到的值）、原因（中, 英）、出处、链接。
"""
TS = "TROUBLESHOOTING.md#"
GAL = "docs/GALLERY.md#"
DOC = "docs/VERBS-CHECK.md#"

RULES = [
    # ---- 一边：QP 的地址和路径 ----
    {"id": "rtr.sgid_empty", "call": "ibv_modify_qp", "field": "ah_attr.grh.sgid_index", "severity": "error",
     "message": ("grh.sgid_index=%(got)s 是空条目（全 0）", "grh.sgid_index=%(got)s is an empty entry (all zeros)"),
     "reason": ("GID 表的空条目后面没有地址：没有源 IP 可用，RTR 返回 EINVAL。GID 索引要从表里按类型和地址选，不要写死",
                "an empty GID entry has no address behind it, so there is no source IP; RTR returns EINVAL. Pick the "
                "index from the table by type and address, never hard-code it"),
     "source": "ibv_query_gid(3); Linux rdma_query_gid()", "link": DOC + "rtrsgid_empty"},
    {"id": "gid.v1", "call": "ibv_modify_qp", "field": "ah_attr.grh.sgid_index", "severity": "warning",
     "message": ("grh.sgid_index=%(got)s 是 RoCE v1 条目（%(gid)s）", "grh.sgid_index=%(got)s is a RoCE v1 entry (%(gid)s)"),
     "reason": ("RoCE v1 是以太网二层的包（没有 IP/UDP 头），不能路由；两端必须用同一种类型。常见的来历是把 GID 索引写死成 0："
                "mlx5 上每个地址有一个 v1 和一个 v2 条目，索引 0 往往是 v1",
                "RoCE v1 is a layer-2 Ethernet frame (no IP/UDP header) and cannot be routed; both sides must use the "
                "same type. The usual origin is a hard-coded GID index 0: on mlx5 each address has a v1 and a v2 entry "
                "and index 0 is often v1"),
     "source": "IBTA spec vol. 1 annex A17 (RoCEv2); NCCL#426, monarch#4334", "link": TS + "gid步骤4"},
    {"id": "gid.link_local", "call": "ibv_modify_qp", "field": "ah_attr.grh.sgid_index", "severity": "warning",
     "message": ("grh.sgid_index=%(got)s 是链路本地地址 %(ip)s", "grh.sgid_index=%(got)s is the link-local address %(ip)s"),
     "reason": ("fe80:: 地址只在同一个二层网段里有效、路由器不转发；对端用的是 IPv4 地址时两端的地址族不同，RTR 或者之后的包失败。"
                "要用 IPv4-mapped（::ffff:a.b.c.d）的 RoCE v2 条目",
                "an fe80:: address is valid on one layer-2 segment only and is never routed; with a peer on IPv4 the two "
                "families differ and RTR or the packets fail. Use the IPv4-mapped (::ffff:a.b.c.d) RoCE v2 entry"),
     "source": "RFC 4291 2.5.6 (link-local); ucx#10939, mlx#4191", "link": TS + "gid步骤4"},
    {"id": "gid.family", "call": "ibv_modify_qp", "field": "ah_attr.grh.dgid", "severity": "error",
     "message": ("源 GID %(sgid)s 和目的 GID %(dgid)s 的地址族不同", "source GID %(sgid)s and destination GID %(dgid)s are of different families"),
     "reason": ("RoCE v2 的包是 UDP/IP 包：源和目的必须都是 IPv4（IPv4-mapped GID）或者都是 IPv6。rxe 在 RTR 返回 EINVAL",
                "a RoCE v2 packet is UDP/IP: source and destination must both be IPv4 (IPv4-mapped GIDs) or both IPv6. "
                "rxe returns EINVAL at RTR"),
     "source": "IBTA spec vol. 1 annex A17; Linux rxe_av_from_attr()/rdma_gid2ip()", "link": TS + "qp-转到-rtr-失败"},
    {"id": "gid.wrong_ndev", "call": "ibv_modify_qp / ibv_create_ah", "field": "ah_attr.grh.sgid_index", "severity": "error",
     "message": ("grh.sgid_index=%(got)s 的源 GID %(ip)s 建在网卡 %(ndev)s 上，但内核从 %(ip)s 到 %(dip)s 的路由走 %(route)s",
                 "grh.sgid_index=%(got)s: the source GID %(ip)s belongs to %(ndev)s, but the kernel's route from %(ip)s to "
                 "%(dip)s leaves by %(route)s"),
     "reason": ("RDMA 设备只从它自己的端口发包：GID 所在的网卡不通往对端时，RoCE 的包从错的网卡出去，到不了对端（RTR 解析不到邻居、"
                "或者之后 RETRY_EXC_ERR）。常见的来历是两块网卡、rxe 建在了不通往对端的那块上，或者 -d/GID 索引选了另一块网卡的设备。"
                "用建在路由出口网卡上的设备和它的 GID。记录器在 RTR（UD：ibv_create_ah）时用项目的路径检查（src/verbs/route_lookup.c，"
                "和 diagnose.sh --peer 一样）按源地址问内核的路由表；rxe 更宽容（它的包跟着内核的路由走），硬件网卡不会",
                "An RDMA device sends only from its own port: when the GID's netdev does not lead to the peer, RoCE packets leave "
                "by the wrong NIC and never arrive (RTR cannot resolve the neighbour, or RETRY_EXC_ERR later). The usual origin is "
                "two NICs with rxe on the one that does not lead to the peer, or -d/a GID index picking another NIC's device. Use "
                "the device on the route's outgoing NIC and its GID. The recorder asks the kernel's routing table from that "
                "source address at RTR (UD: ibv_create_ah) with the project's path check (src/verbs/route_lookup.c, as "
                "diagnose.sh --peer does); rxe is more forgiving (its packets follow the kernel's route), hardware NICs are not"),
     "source": "ibv_query_gid_ex(3) (ndev_ifindex); ip-route(8) 'ip route get DST from SRC'; IBTA spec vol. 1 annex A17 (RoCEv2)",
     "link": DOC + "gidwrong_ndev"},
    # ---- 一边：UD 的发送 ----
    {"id": "ud.no_ah", "call": "ibv_post_send", "field": "wr.ud.ah", "severity": "error",
     "message": ("UD 的发送 WR 没有地址句柄（wr.ud.ah=NULL）", "a UD send WR has no address handle (wr.ud.ah=NULL)"),
     "reason": ("UD 的每个发送 WR 都要带一个 ibv_create_ah 建的 AH：它就是目的地址。没有 AH，驱动读空指针（程序崩溃）或者拒绝这个 WR",
                "every UD send WR must carry an AH made by ibv_create_ah: it is the destination. Without one the driver "
                "dereferences NULL (the program crashes) or refuses the WR"),
     "source": "ibv_post_send(3) (wr.ud.ah); ibv_create_ah(3)", "link": DOC + "udno_ah"},
    {"id": "ud.ah_pd", "call": "ibv_post_send", "field": "wr.ud.ah", "severity": "error",
     "message": ("QP %(qp)s 的 UD 发送用了另一个 PD（%(ahpd)s）的 AH；QP 在 PD %(qppd)s 里",
                 "QP %(qp)s sends with an AH of another PD (%(ahpd)s); the QP is in PD %(qppd)s"),
     "reason": ("AH 和用它的 QP 必须在同一个保护域里：网卡按 PD 检查，不同时以本地保护错误完成（或者被拒绝）",
                "an AH and the QP using it must belong to the same protection domain: the NIC checks it and otherwise completes "
                "with a local protection error (or refuses the WR)"),
     "source": "IBTA spec vol. 1 (protection domains: an AH serves QPs of its own PD); ibv_create_ah(3), ibv_post_send(3)", "link": DOC + "udah_pd"},
    # ---- 一边：队列的深度 ----
    {"id": "send.sq_full", "call": "ibv_post_send", "field": "cap.max_send_wr", "severity": "error",
     "message": ("QP %(qp)s 的发送队列里有 %(got)s 个还没释放的 WR，超过 max_send_wr=%(max)s（%(why)s）",
                 "QP %(qp)s has %(got)s send WRs not yet freed, more than max_send_wr=%(max)s (%(why)s)"),
     "reason": ("发送队列的一个位置要等到这个 QP 上、它或它后面的一个带信号的 WR 的完成被 ibv_poll_cq 取走才释放（不带信号的 WR "
                "跟着下一个带信号的一起释放）。超过 max_send_wr 时 ibv_post_send 返回 ENOMEM（硬件的规则；rxe 更宽容：它在每个 WR "
                "做完时就释放）。要先取完成再投递，或者建 QP 时要更大的 max_send_wr",
                "a send-queue slot is freed only when a signalled completion on this QP, for that WR or a later one, is taken by "
                "ibv_poll_cq (unsignalled WRs are freed with the next signalled one). Beyond max_send_wr ibv_post_send returns "
                "ENOMEM (the hardware rule; rxe is more forgiving and frees each WR as it finishes). Poll completions before "
                "posting more, or create the QP with a larger max_send_wr"),
     "source": "ibv_post_send(3), ibv_create_qp(3) (cap.max_send_wr); rdma-core providers/mlx5 (SQ tail advanced on poll)",
     "link": DOC + "sendsq_full"},
    {"id": "recv.rq_full", "call": "ibv_post_recv / ibv_post_srq_recv", "field": "%(cap)s", "severity": "error",
     "message": ("%(what)s 里有 %(got)s 个还没完成的接收 WR，超过 %(cap)s=%(max)s",
                 "%(what)s holds %(got)s receive WRs not yet completed, more than %(cap)s=%(max)s"),
     "reason": ("每个接收 WR 占接收队列（或 SRQ）的一个位置，直到它的完成被取走；队列满了 ibv_post_recv 返回 ENOMEM",
                "each receive WR holds a slot of the receive queue (or SRQ) until its completion is polled; a full queue makes "
                "ibv_post_recv return ENOMEM"),
     "source": "ibv_post_recv(3), ibv_create_qp(3) (cap.max_recv_wr), ibv_create_srq(3) (max_wr)", "link": DOC + "recvrq_full"},
    {"id": "cq.overflow", "call": "ibv_post_send / ibv_post_recv / ibv_post_srq_recv", "field": "cqe", "severity": "error",
     "message": ("CQ %(cq)s 可能有 %(got)s 个完成还没取走，超过它的 cqe=%(max)s（%(what)s）",
                 "CQ %(cq)s may hold %(got)s completions not yet polled, more than its cqe=%(max)s (%(what)s)"),
     "reason": ("投递出去、会产生完成（带信号的发送、每个接收）而还没取走的 WR 都可能同时完成；CQ 装不下时溢出：设备报 "
                "IBV_EVENT_CQ_ERR 异步事件、用这个 CQ 的 QP 进入错误状态。CQ 的 cqe 要不小于所有挂在它上面的队列能同时有的完成数",
                "every posted WR that produces a completion (signalled sends, every receive) and is not yet polled may complete "
                "at the same time; a CQ that cannot hold them overflows: the device raises IBV_EVENT_CQ_ERR and the QPs using it "
                "go to error. A CQ's cqe must cover all completions its queues can have at once"),
     "source": "ibv_create_cq(3) (cqe), ibv_get_async_event(3) (IBV_EVENT_CQ_ERR); IBTA spec vol. 1 (CQ overrun is an affiliated asynchronous error)",
     "link": DOC + "cqoverflow"},
    {"id": "caps.beyond_asked", "call": "ibv_post_send / ibv_post_recv", "field": "%(cap)s", "severity": "note",
     "message": ("%(what)s 用到 %(got)s，比建它时要的 %(cap)s=%(asked)s 多，在驱动给的 %(max)s 之内（合法）",
                 "%(what)s uses %(got)s, more than the %(cap)s=%(asked)s asked at creation, within the %(max)s the driver gave (legal)"),
     "reason": ("ibv_create_qp/ibv_create_cq 可以给得比要的多（取整），写回的值可以用；只是换一个取整不同的设备就不够了。要用多少就要多少",
                "ibv_create_qp/ibv_create_cq may give more than asked (rounding up) and the value written back may be used; a "
                "device that rounds differently gives less. Ask for what you use"),
     "source": "ibv_create_qp(3) ('the values will be greater than or equal to the values requested')", "link": DOC + "capsbeyond_asked"},
    # ---- 一边：容量、SGE、对齐 ----
    {"id": "caps.device", "call": "%(call)s", "field": "%(cap)s", "severity": "error",
     "message": ("%(cap)s=%(got)s 超过设备的上限 %(max)s", "%(cap)s=%(got)s exceeds the device's limit %(max)s"),
     "reason": ("ibv_query_device 报告的是设备的上限（程序不问时记录器自己问一次），要多了 ibv_create_qp/ibv_create_cq/"
                "ibv_create_srq 失败（EINVAL/ENOMEM），max_rd_atomic 超过 max_qp_init_rd_atom 时 RTS 返回 EINVAL",
                "ibv_query_device reports the device's limits (the recorder asks once itself when the program does not); "
                "asking for more makes ibv_create_qp/ibv_create_cq/ibv_create_srq fail (EINVAL/ENOMEM), and a max_rd_atomic "
                "above max_qp_init_rd_atom makes RTS return EINVAL"),
     "source": "ibv_query_device(3), ibv_create_qp(3), ibv_create_cq(3), ibv_create_srq(3), ibv_modify_qp(3)",
     "link": DOC + "capsdevice"},
    {"id": "post.sge_count", "call": "ibv_post_send / ibv_post_recv", "field": "num_sge", "severity": "error",
     "message": ("num_sge=%(got)s 超过 QP 的 %(cap)s=%(max)s", "num_sge=%(got)s exceeds the QP's %(cap)s=%(max)s"),
     "reason": ("一个 WR 的 SGE 个数不能超过创建 QP 时要的（ibv_create_qp 返回时写回的）值；驱动返回 EINVAL 或者 ENOMEM",
                "a WR may not have more SGEs than the QP was created with (the value ibv_create_qp wrote back); the "
                "driver returns EINVAL or ENOMEM"), "source": "ibv_post_send(3), ibv_create_qp(3)", "link": DOC + "postsge_count"},
    {"id": "send.inline_big", "call": "ibv_post_send", "field": "send_flags", "severity": "error",
     "message": ("IBV_SEND_INLINE 的 %(got)s 字节超过 QP 的 max_inline_data=%(max)s",
                 "IBV_SEND_INLINE with %(got)s bytes exceeds the QP's max_inline_data=%(max)s"),
     "reason": ("inline 的数据由 CPU 直接复制进 WQE，长度不能超过创建 QP 时要到的 max_inline_data；rxe 返回 EINVAL，有的硬件截断",
                "inline data is copied by the CPU into the WQE and may not exceed the max_inline_data the QP got; rxe "
                "returns EINVAL, some hardware truncates"),
     "source": "ibv_post_send(3) IBV_SEND_INLINE; rdma-core providers/rxe validate_send_wr()", "link": GAL + "inline"},
    {"id": "sge.no_mr", "call": "ibv_post_send / ibv_post_recv", "field": "sg_list[%(i)s]", "severity": "error",
     "message": ("SGE [addr=0x%(addr)x len=%(len)s lkey=0x%(lkey)x] 不在任何 lkey=0x%(lkey)x 的 MR 里（%(why)s）",
                 "SGE [addr=0x%(addr)x len=%(len)s lkey=0x%(lkey)x] is not inside any MR with lkey=0x%(lkey)x (%(why)s)"),
     "reason": ("网卡用 lkey 找到 MR，再检查 [addr, addr+len) 落在 MR 里面；找不到或越界就以 LOC_PROT_ERR（或 rxe 上的其它本地错误）完成",
                "the NIC finds the MR by lkey, then checks that [addr, addr+len) lies inside it; otherwise the WR "
                "completes with LOC_PROT_ERR (or another local error on rxe)"),
     "source": "ibv_post_send(3), ibv_reg_mr(3); IBTA spec vol. 1 10.6.3 (memory region checks)", "link": GAL + "lkey"},
    {"id": "atomic.align", "call": "ibv_post_send", "field": "wr.atomic.remote_addr", "severity": "error",
     "message": ("原子操作的 remote_addr=0x%(addr)x 不是 8 字节对齐", "the atomic's remote_addr=0x%(addr)x is not 8-byte aligned"),
     "reason": ("原子操作作用在对端内存里一个对齐的 64 位字上；不对齐时对端以 REM_INV_REQ_ERR 拒绝（本地 SGE 也必须正好 8 字节）",
                "an atomic acts on one aligned 64-bit word of the peer's memory; unaligned, the responder rejects it "
                "with REM_INV_REQ_ERR (the local SGE must also be exactly 8 bytes)"),
     "source": "IBTA spec vol. 1 9.4.5 (atomic operations, 8-byte alignment); ibv_post_send(3)", "link": DOC + "atomicalign"},
    {"id": "atomic.len", "call": "ibv_post_send", "field": "sg_list[0].length", "severity": "error",
     "message": ("原子操作的本地 SGE 是 %(got)s 字节，要正好 8 字节", "the atomic's local SGE has %(got)s bytes; it must be exactly 8"),
     "reason": ("原子操作把对端那个 64 位字的旧值写进本地的 SGE：一个 8 字节的缓冲区",
                "an atomic writes the old value of the peer's 64-bit word into the local SGE: one 8-byte buffer"),
     "source": "ibv_post_send(3); IBTA spec vol. 1 9.4.5", "link": DOC + "atomiclen"},
    {"id": "send.unsignaled_run", "call": "ibv_post_send", "field": "send_flags", "severity": "error",
     "message": ("QP %(qp)s 上连续 %(got)s 个 WR 不带 IBV_SEND_SIGNALED，发送队列只有 %(max)s 个位置",
                 "QP %(qp)s got %(got)s WRs in a row without IBV_SEND_SIGNALED; its send queue has %(max)s slots"),
     "reason": ("硬件只有在一个带信号的 WR 完成时才释放它和它前面的不带信号的 WR 占的位置：连续不带信号的 WR 填满发送队列后，"
                "再也没有完成来释放它们，下一次 ibv_post_send 返回 ENOMEM。每 max_send_wr 个里至少要有一个带信号。"
                "rxe 更宽容（软件里每个 WR 完成时都释放），硬件上就卡住",
                "hardware frees send-queue slots only when a signalled WR completes (it and the unsignalled ones before "
                "it): once unsignalled WRs fill the queue no completion ever frees them and the next ibv_post_send returns "
                "ENOMEM. Signal at least one WR in every max_send_wr. rxe is more forgiving (software frees each WR as it "
                "completes); hardware gets stuck"),
     "source": "ibv_post_send(3) (IBV_SEND_SIGNALED, sq_sig_all); mlx5 provider: SQ slots freed on CQE", "link": DOC + "sendunsignaled_run"},
    # ---- 一边：生命周期 ----
    {"id": "cleanup.busy", "call": "%(call)s", "field": "%(what)s", "severity": "error",
     "message": ("%(call)s 返回 EBUSY：%(what)s 还被 %(users)s 用着", "%(call)s returned EBUSY: %(what)s is still used by %(users)s"),
     "reason": ("销毁的顺序和创建相反：先 QP，再 SRQ 和 CQ，再 MR、PD，最后关设备。还被别的对象用着的对象不能销毁，"
                "调用返回 EBUSY、对象还在（泄漏）",
                "destroy in the reverse order of creation: QPs, then SRQs and CQs, then MRs and the PD, then close the "
                "device. An object still used by another cannot be destroyed: the call returns EBUSY and the object stays "
                "(a leak)"), "source": "ibv_destroy_cq(3), ibv_dealloc_pd(3) (EBUSY)", "link": DOC + "cleanupbusy"},
    {"id": "cleanup.unacked", "call": "ibv_destroy_cq", "field": "ibv_ack_cq_events", "severity": "error",
     "message": ("CQ %(cq)s 取到 %(got)s 个完成事件，只确认了 %(acked)s 个就销毁它", "CQ %(cq)s got %(got)s completion events, only %(acked)s acknowledged, then destroyed"),
     "reason": ("每个 ibv_get_cq_event 取到的事件都要用 ibv_ack_cq_events 确认；ibv_destroy_cq 会一直等到全部确认，所以会挂住",
                "every event from ibv_get_cq_event must be acknowledged with ibv_ack_cq_events; ibv_destroy_cq waits for "
                "all of them, so it hangs"), "source": "ibv_get_cq_event(3), ibv_destroy_cq(3)", "link": DOC + "cleanupunacked"},
    {"id": "cleanup.async_unacked", "call": "ibv_get_async_event", "field": "ibv_ack_async_event", "severity": "error",
     "message": ("取到 %(got)s 个异步事件，只确认了 %(acked)s 个", "%(got)s async events received, only %(acked)s acknowledged"),
     "reason": ("每个异步事件都要用 ibv_ack_async_event 确认；销毁事件关联的对象时会一直等它",
                "every async event must be acknowledged with ibv_ack_async_event; destroying the object it refers to waits "
                "for it"), "source": "ibv_get_async_event(3)", "link": DOC + "cleanupasync_unacked"},
    {"id": "cleanup.leak", "call": "exit", "field": "ibv_destroy_*", "severity": "warning",
     "message": ("到程序退出都没有销毁：%(what)s", "never destroyed before exit: %(what)s"),
     "reason": ("进程退出时内核会回收，一次性的程序没事；长时间运行、一次次连接的程序每次都漏，直到 QP/MR/锁页内存耗尽。"
                "librdmacm 自己建的对象不算",
                "the kernel reclaims them when the process exits, so a one-shot program gets away with it; a long-running "
                "program that connects again and again leaks each time until QPs, MRs or locked memory run out. Objects "
                "librdmacm made for itself are not counted"), "source": "ibv_destroy_qp(3), ibv_dereg_mr(3)", "link": DOC + "cleanupleak"},
    {"id": "wc.error", "call": "ibv_poll_cq", "field": "wc.status", "severity": "error",
     "message": ("QP %(qp)s 的完成（wr_id=%(wr_id)s）状态是 %(status)s", "a completion on QP %(qp)s (wr_id=%(wr_id)s) has status %(status)s"),
     "reason": ("%(cause)s", "%(cause)s"), "source": "ibv_poll_cq(3); IBTA spec vol. 1 11.6.2 (completion status)",
     "link": TS + "wc-错误状态"},
    {"id": "wc.flush", "call": "ibv_poll_cq", "field": "wc.status", "severity": "note",
     "message": ("%(n)s 个完成是 IBV_WC_WR_FLUSH_ERR（QP %(qp)s）", "%(n)s completions are IBV_WC_WR_FLUSH_ERR (QP %(qp)s)"),
     "reason": ("QP 进了 ERR 状态（前一个错误，或者程序自己改的）之后，队列里没完成的 WR 都以 FLUSH 完成：它们是后果，原因在前面",
                "once the QP is in ERR (after an earlier error, or moved there by the program), every WR still queued "
                "completes as FLUSH: a consequence, the cause comes before"), "source": "ibv_poll_cq(3)", "link": GAL + "flush"},
    {"id": "call.failed", "call": "%(call)s", "field": "ret", "severity": "error",
     "message": ("%(call)s 失败：%(err)s", "%(call)s failed: %(err)s"),
     "reason": ("调用返回了错误；上面的发现（如果有）说的是原因", "the call returned an error; the findings above, if any, say why"),
     "source": "rdma-core man pages", "link": TS + "qp-转到-rtr-失败"},
    # ---- 两边（--pair） ----
    {"id": "rtr.dqpn", "call": "ibv_modify_qp", "field": "dest_qp_num", "severity": "error",
     "message": ("dest_qp_num=%(got)s 不是对端（%(peer)s）的 QP；对端的 QP 是 %(want)s",
                 "dest_qp_num=%(got)s is not a QP of the peer (%(peer)s); the peer's QPs are %(want)s"),
     "reason": ("对端收到发给不存在的 QP 的包就丢掉，不回 ACK：发送方重传到 retry_cnt 用完，RETRY_EXC_ERR。dest_qp_num 要用对端"
                "交换过来的号码（一个常见的错误是填了自己的 QP 号）",
                "the peer drops packets for a QP that does not exist and sends no ACK: the sender resends until retry_cnt "
                "runs out, RETRY_EXC_ERR. dest_qp_num must be the number the peer sent (a common mistake is one's own)"),
     "source": "IBTA spec vol. 1 9.6.1.1 (BTH destination QP check)", "link": GAL + "qpn"},
    {"id": "rtr.rqpsn", "call": "ibv_modify_qp", "field": "rq_psn", "severity": "error",
     "message": ("rq_psn=%(got)s，对端 QP %(pqp)s 的 sq_psn 是 %(want)s", "rq_psn=%(got)s, the peer QP %(pqp)s's sq_psn is %(want)s"),
     "reason": ("接收方只接受 PSN 等于它等的那个（rq_psn）的请求；对端从它的 sq_psn 开始编号，不一样时包被当成重复或乱序丢掉、"
                "重传直到 RETRY_EXC_ERR",
                "the responder accepts only the PSN it expects (rq_psn); the peer numbers from its sq_psn, and when they "
                "differ the packets count as duplicates or out of order, are dropped and resent until RETRY_EXC_ERR"),
     "source": "IBTA spec vol. 1 9.7.1 (PSN), ibv_modify_qp(3)", "link": GAL + "psn"},
    {"id": "rtr.dgid", "call": "ibv_modify_qp", "field": "ah_attr.grh.dgid", "severity": "error",
     "message": ("grh.dgid=%(got)s 不是对端 QP %(pqp)s 的源 GID %(want)s", "grh.dgid=%(got)s is not the peer QP %(pqp)s's source GID %(want)s"),
     "reason": ("RoCE v2 的包按 dgid（目的 IP）投递：对端用哪个 GID 作源，这一端就要用它作目的，否则包到不了对端的那个端口",
                "RoCE v2 packets are delivered by dgid (the destination IP): the GID the peer uses as its source must be "
                "this side's destination, or the packets never reach that port"),
     "source": "IBTA spec vol. 1 annex A17 (RoCEv2 addressing)", "link": TS + "qp-转到-rtr-失败"},
    {"id": "rtr.rd_small", "call": "ibv_modify_qp", "field": "max_dest_rd_atomic", "severity": "error",
     "message": ("max_dest_rd_atomic=%(got)s 小于对端 QP %(pqp)s 的 max_rd_atomic=%(want)s",
                 "max_dest_rd_atomic=%(got)s is below the peer QP %(pqp)s's max_rd_atomic=%(want)s"),
     "reason": ("对端最多同时发 max_rd_atomic 个 READ/原子操作，这一端只为 max_dest_rd_atomic 个留了资源：多出来的被拒绝"
                "（REM_INV_REQ_ERR 或重试）。这一端的 max_dest_rd_atomic 要不小于对端的 max_rd_atomic",
                "the peer may have max_rd_atomic READs/atomics in flight, this side reserved resources for "
                "max_dest_rd_atomic: the extra ones are refused (REM_INV_REQ_ERR or retries). This side's "
                "max_dest_rd_atomic must be at least the peer's max_rd_atomic"),
     "source": "IBTA spec vol. 1 9.5 (responder resources); ibv_modify_qp(3)", "link": DOC + "rtrrd_small"},
    {"id": "ud.remote_qpn", "call": "ibv_post_send", "field": "wr.ud.remote_qpn", "severity": "error",
     "message": ("remote_qpn=%(got)s 不是对端（%(peer)s）的 UD QP；对端的 UD QP 是 %(want)s",
                 "remote_qpn=%(got)s is not a UD QP of the peer (%(peer)s); the peer's UD QPs are %(want)s"),
     "reason": ("UD 没有连接：每个发送 WR 自己写目的 QP 号。对端没有这个号的 UD QP 时包被丢掉，不回任何东西（UD 没有 ACK，"
                "发送方照样成功完成），对端只是什么也收不到。remote_qpn 要用对端交换过来的 QP 号",
                "UD has no connection: each send WR names the destination QP itself. When the peer has no UD QP with that "
                "number the packet is dropped silently (UD has no ACK, the send still completes successfully); the peer simply "
                "receives nothing. remote_qpn must be the number the peer sent"),
     "source": "ibv_post_send(3) (wr.ud.remote_qpn); IBTA spec vol. 1 9.6.1.1 (BTH destination QP check)", "link": DOC + "udremote_qpn"},
    {"id": "ud.qkey", "call": "ibv_post_send", "field": "wr.ud.remote_qkey", "severity": "error",
     "message": ("remote_qkey=%(got)s（实际用的 Q_Key %(eff)s），对端 QP %(pqp)s 在 INIT 时给的 qkey 是 %(want)s",
                 "remote_qkey=%(got)s (Q_Key used: %(eff)s), the peer QP %(pqp)s was given qkey %(want)s at INIT"),
     "reason": ("UD 的接收方比较包里的 Q_Key 和自己 QP 的 qkey，不同就悄悄丢掉。remote_qkey 最高位是 1 时用的是发送 QP 自己的 qkey。"
                "两边要用同一个 qkey（INIT 的 attr.qkey 和每个 WR 的 wr.ud.remote_qkey）",
                "a UD receiver compares the packet's Q_Key with its QP's qkey and silently drops a mismatch. With the high-order "
                "bit of remote_qkey set the sending QP's own qkey is used. Both sides must use one qkey (INIT's attr.qkey and "
                "each WR's wr.ud.remote_qkey)"),
     "source": "ibv_post_send(3) (wr.ud.remote_qkey); IBTA spec vol. 1 (Q_Key, controlled Q_Keys); Linux rxe_recv.c check_keys() (drops a mismatch), rxe_req.c (bit 31 set: the QP's qkey)",
     "link": DOC + "udqkey"},
    {"id": "ud.ah_dgid", "call": "ibv_create_ah", "field": "ah_attr.grh.dgid", "severity": "error",
     "message": ("发给对端 QP %(pqp)s 的 AH 的 dgid=%(got)s 不是对端的 GID（%(want)s）",
                 "the AH used to send to the peer QP %(pqp)s has dgid=%(got)s, not a GID of the peer (%(want)s)"),
     "reason": ("UD 的包按 AH 的 dgid（目的 IP）投递：它要是对端的 GID（对端交换过来的源 GID），否则包到不了对端那个端口",
                "UD packets are delivered by the AH's dgid (the destination IP): it must be a GID of the peer (the source GID "
                "the peer sent), or the packets never reach the peer's port"),
     "source": "ibv_create_ah(3); IBTA spec vol. 1 annex A17 (RoCEv2 addressing)", "link": DOC + "udah_dgid"},
    {"id": "pair.remote_mr", "call": "ibv_post_send", "field": "wr.rdma.rkey", "severity": "error",
     "message": ("%(op)s 的 [raddr=0x%(raddr)x len=%(len)s rkey=0x%(rkey)x] 不在对端任何 rkey=0x%(rkey)x、带 %(need)s 的 MR 里（%(why)s）",
                 "%(op)s [raddr=0x%(raddr)x len=%(len)s rkey=0x%(rkey)x] is not inside any peer MR with rkey=0x%(rkey)x and %(need)s (%(why)s)"),
     "reason": ("对端的网卡按 rkey 找 MR，检查地址范围和远端访问权限；不符合就回 NAK，这一端以 REM_ACCESS_ERR 完成。"
                "rkey 和地址要用对端交换过来的、对端注册 MR 时要给相应的 IBV_ACCESS_REMOTE_*",
                "the peer's NIC finds the MR by rkey and checks the range and the remote access; otherwise it NAKs and "
                "this side completes with REM_ACCESS_ERR. Use the rkey and address the peer sent; the peer must register "
                "the MR with the matching IBV_ACCESS_REMOTE_*"),
     "source": "IBTA spec vol. 1 10.6.3.3 (R_Key checks); ibv_reg_mr(3)", "link": GAL + "rkey"},
    {"id": "pair.qp_access", "call": "ibv_modify_qp", "field": "qp_access_flags", "severity": "error",
     "message": ("对端的 %(op)s 要 %(need)s，本端 QP %(qp)s 的 qp_access_flags=%(got)s 没有给",
                 "the peer's %(op)s needs %(need)s, which this QP %(qp)s's qp_access_flags=%(got)s does not grant"),
     "reason": ("对端的 READ/WRITE/原子请求先过本端 QP 的权限（INIT 时的 qp_access_flags），再过 MR 的：QP 不给时本端回 NAK，"
                "对端以 REM_INV_REQ_ERR 或 REM_ACCESS_ERR 完成",
                "the peer's READ/WRITE/atomic requests are checked against this QP's access flags (set at INIT) before "
                "the MR's: without them this side NAKs and the peer completes with REM_INV_REQ_ERR or REM_ACCESS_ERR"),
     "source": "IBTA spec vol. 1 10.2.4 (QP access controls); ibv_modify_qp(3)", "link": GAL + "qp-access"},
    # ---- 日志本身（tools/verbs-check/vc_log.py 读它）：从别的机器复制来的、被截断的、别的版本的 ----
    {"id": "log.cut", "call": "", "field": "", "severity": "warning",
     "message": ("最后一行（第 %(line)s 行）只写了一半：前面完整的 %(n)s 条记录照样判断", "the last line (line %(line)s) is cut off: the %(n)s complete records before it are judged"),
     "reason": ("记录器每条记录一行、一次写完；最后一行不完整是因为进程在写的时候被杀了，或者复制（scp）中断了。它后面的调用不在日志里："
                "泄漏、没有确认的事件和对端后来的调用都看不到。要完整的判断，重新复制或者重新运行",
                "the recorder writes each record as one line in one write; a cut last line means the process was killed "
                "while writing or the copy (scp) was interrupted. Calls after it are not in the log, so leaks, unacked "
                "events and the peer's later calls cannot be seen. Copy again or run again for a full judgement"),
     "source": "tools/verbs-check/recorder.c (jb_emit: one line, one write)", "link": DOC + "坏的日志"},
    {"id": "log.skipped", "call": "", "field": "", "severity": "warning",
     "message": ("跳过了%(lines)s：%(why)s", "skipped %(lines)s: %(why)s"),
     "reason": ("这一行不是这个 verbs-check 认识的记录（另一个版本的记录器写的，或者文件坏了）。它前后的行照样判断；"
                "要靠这一行才看得出的发现可能少了，也可能因为少了它而多出来",
                "this line is not a record this verbs-check knows (another version of the recorder wrote it, or the file "
                "is damaged). The lines around it are judged; findings that needed this line may be missing, or may "
                "appear only because it is missing"),
     "source": "tools/verbs-check/recorder.c (the record format); tools/verbs-check/vc_log.py (the check)",
     "link": DOC + "坏的日志"},
]
BY_ID = {r["id"]: r for r in RULES}

# 失败的完成：可能的原因（按状态）
WC_CAUSES = {
    1: ("接收缓冲区比收到的消息小（或 UD 少了 40 字节的 GRH 空间）", "the receive buffer is smaller than the message (or, on UD, lacks the 40 bytes for the GRH)"),
    2: ("这个 QP 不能做这个操作（QP 类型、状态或 WR 的字段不对）", "this QP cannot do this operation (QP type, state or a WR field)"),
    4: ("本端 SGE 的 lkey、地址或长度不在 MR 里（见 sge.no_mr）", "a local SGE's lkey, address or length is outside its MR (see sge.no_mr)"),
    5: ("QP 已经在 ERR 状态：这是前一个错误的后果", "the QP is already in ERR: a consequence of an earlier error"),
    8: ("本端 MR 没有需要的本地权限（接收或 READ 要 LOCAL_WRITE）", "the local MR lacks the needed local access (receive or READ needs LOCAL_WRITE)"),
    9: ("对端拒绝了请求：QP 的 qp_access_flags 不给远端权限，或对端的接收缓冲区太小", "the peer rejected the request: its QP's qp_access_flags grant no remote access, or its receive buffer is too small"),
    10: ("对端的 rkey、地址范围或 MR 的远端权限不对（见 --pair 的 pair.remote_mr）", "the peer's rkey, address range or MR remote access is wrong (see --pair's pair.remote_mr)"),
    11: ("对端处理请求时出错", "the peer failed while handling the request"),
    12: ("重传用完也没有 ACK：对端的 QP 号、PSN、GID、MTU 不对，对端不在了，或者路径不通（--pair 能看出前四个）",
         "no ACK after all resends: the peer's QP number, PSN, GID or MTU is wrong, the peer is gone, or the path is broken (--pair sees the first four)"),
    13: ("对端一直没有投递接收（RNR），rnr_retry 用完", "the peer never posted a receive (RNR) and rnr_retry ran out"),
}

# 输出的固定句子
TEXT = {
    "cannot_see": ("verbs-check 看不见：静态链接的程序；ibv_wr_*（ibv_qp_ex）和 ibv_cq_ex 的收发（只记下用了它们）",
                   "verbs-check cannot see: statically linked programs; sends and polls through ibv_wr_* (ibv_qp_ex) and ibv_cq_ex (it only notes that they are used)"),
    "no_log": ("没有记录到任何 verbs 调用：程序是静态链接的，或者没有用 libibverbs", "no verbs call was recorded: the program is statically linked or does not use libibverbs"),
    "summary": ("verbs-check：%(e)s 个错误、%(w)s 个警告、%(n)s 个说明（合法的选择，-v 显示；日志在 %(dir)s）",
                "verbs-check: %(e)s errors, %(w)s warnings, %(n)s notes (legal choices, -v shows them; logs in %(dir)s)"),
    "clean": ("verbs-check：没有发现问题（日志在 %(dir)s）", "verbs-check: no findings (logs in %(dir)s)"),
    "clean_notes": ("verbs-check：没有错误和警告，%(n)s 个说明（合法的选择，-v 显示；日志在 %(dir)s）",
                    "verbs-check: no errors or warnings, %(n)s notes (legal choices, -v shows them; logs in %(dir)s)"),
    "seen": ("看到", "seen"), "why": ("为什么", "why"), "source": ("出处", "source"), "see": ("见", "see"),
    "sev": ({"error": "错误", "warning": "警告", "note": "说明"}, {"error": "error", "warning": "warning", "note": "note"}),
    "pair_hint": ("对端的日志不在这里。两台机器时，把对端的日志复制到这里的一个子目录（对端用了别的 --log 目录时换掉 : 后面的路径），再判断两边：\n    %(cmd)s",
                  "the peer's log is not here. On two machines copy it over into a subfolder here (if the peer used another --log folder, change the path after the colon), then judge both sides:\n    %(cmd)s"),
    "pair_none": ("--pair：在 %(dir)s 里没有找到两个互相连接的进程（要两边的日志）", "--pair: no two connected processes found in %(dir)s (both sides' logs are needed)"),
    "pair_of": ("两边：%(a)s ↔ %(b)s", "pair: %(a)s <-> %(b)s"),
    "proc_exit": ("进程没有正常退出（没有 exit 记录）：不判断泄漏", "the process did not exit normally (no exit record): leaks not judged"),
    "unseen_ex": ("这个程序用了 %(what)s：经过它的收发 verbs-check 看不见", "this program uses %(what)s: verbs-check cannot see sends/polls through it"),
    # 读日志（vc_log.py）：整个文件不能用时的句子（%(path)s、%(detail)s），和跳过一行的原因（log.skipped 的 %(why)s）
    "log_open": ("不能读 %(path)s：%(detail)s", "cannot read %(path)s: %(detail)s"),
    "log_empty": ("%(path)s 是空的：不是 verbs-check 的日志（复制中断了？）", "%(path)s is empty: not a verbs-check log (was the copy interrupted?)"),
    "log_not_log": ("%(path)s 不是 verbs-check 的日志（第一行不是记录器写的 start 记录）", "%(path)s is not a verbs-check log (its first line is not the recorder's start record)"),
    "log_skip_file": ("跳过它，判断别的日志", "skipped; the other logs are judged"),
    "log_json": ("不是完整的 JSON", "not complete JSON"),
    "log_not_record": ("不是一条记录（要一个带字符串 \"t\" 的 JSON 对象）", "not a record (a JSON object with a string \"t\" is needed)"),
    "log_unknown_t": ("不认识的记录类型 t=%(t)s（另一个版本的记录器？）", "unknown record type t=%(t)s (another version of the recorder?)"),
    "log_field": ("字段 %(field)s 没有或者类型不对（要%(type)s）", "field %(field)s is missing or of the wrong type (%(type)s expected)"),
    "log_too_long": ("一行超过 %(max)s 字节（记录器的一行不会这么长）", "a line over %(max)s bytes (the recorder never writes one this long)"),
    "log_types": ({"int": "整数", "str": "字符串", "gid": " 32 个十六进制数字的 GID", "caps": " 5 个整数的列表",
                   "sges": " [地址, 长度, lkey] 的列表", "ah": "地址向量对象", "path": "路径对象"},
                  {"int": "an integer", "str": "a string", "gid": "a GID of 32 hex digits", "caps": "a list of 5 integers",
                   "sges": "a list of [addr, length, lkey]", "ah": "an address vector object", "path": "a path object"}),
    "log_one": ("第 %(first)s 行", "line %(first)s"),
    "log_more": ("第 %(first)s 行等 %(n)s 行", "line %(first)s and %(more)s more"),
}
