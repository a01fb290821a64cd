#!/usr/bin/env -S python3 -S
"""tests/trace/log2trace.py - make v1 trace fixtures from time-stamped console output.

The programs do not write --trace yet (another change adds it). Until then the fixtures' traces are
converted from what the programs really printed in the lab, one time stamp per console line
(tests/trace/capture-fixtures.sh writes 'EPOCH<TAB>line': the time a reader waiting on a FIFO got it):

  python3 tests/trace/log2trace.py --meta RAW/NAME.meta.json --server NAME.server.log \
          --client NAME.client.log --out tests/trace/fixtures/NAME

writes NAME.server.jsonl and NAME.client.jsonl in the v1 schema (docs/TRACE.md).

What comes from the console output: step numbers and titles, device, port, GID, MR addr/len/lkey/rkey,
QPNs and start PSNs, QP states and the attributes read back (--qp-state all), both HELLOs, path MTU,
the injected rkey, every error/hint, completions that failed, the exit status. What is derived from
the program's logic in src/runs/op_rounds.c (the console does not print every verb): the order of post_send /
post_recv / poll / SYNC per operation and round, PSN of each WR (start PSN + packets of the earlier
WRs on that QP, modulo 2^24), remote addresses (addr + i*slot), immediates ((round<<16)|qp) and
atomic operands. The packet capture is NOT used: tying packets to WRs is what the renderer must do.
Events the console line gives no time for sit 1 us apart after the last line that precedes them.
"""
import argparse
import datetime
import json
import re
import shlex
import sys

STEP_RE = re.compile(r"^========== 步骤(\d+): (.*) ==========$")
MASK24 = 0xFFFFFF


def iso(epoch):
    return datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def read_stamped(path):
    """Lines 'EPOCH<TAB>text' → [(epoch, text)]."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            raw = raw.rstrip("\n")
            t, _, text = raw.partition("\t")
            out.append((float(t), text))
    return out


def parse_size(s):
    m = re.match(r"^(\d+)([KkMm]?)$", s)
    n = int(m.group(1))
    return n * {"": 1, "K": 1024, "k": 1024, "M": 1 << 20, "m": 1 << 20}[m.group(2)]


def parse_args(argv, role):
    """The options the fixture runs use → the "opt" object of the start event."""
    opt = {"op": "send", "num_qp": 4, "size": 64, "iters": 1, "interactive": False, "port": 18515,
           "dev": None, "gid_idx": "auto"}
    a = list(argv)
    i = 0
    while i < len(a):
        w = a[i]
        nxt = a[i + 1] if i + 1 < len(a) else None
        if w in ("-q", "--num-qp"):
            opt["num_qp"] = int(nxt); i += 1
        elif w == "--op":
            opt["op"] = nxt; i += 1
        elif w == "--size":
            opt["size"] = parse_size(nxt); i += 1
        elif w == "--iters":
            opt["iters"] = int(nxt); i += 1
        elif w in ("-d", "--dev"):
            opt["dev"] = nxt; i += 1
        elif w in ("-p", "--port"):
            opt["port"] = int(nxt); i += 1
        elif w in ("-g", "--gid-idx"):
            opt["gid_idx"] = nxt; i += 1
        elif w == "--interactive":
            opt["interactive"] = True
        elif w in ("-t", "--timeout", "--qp-state", "--inject", "--offset", "--accept-timeout", "-i"):
            i += 1
        i += 1
    if opt["op"] in ("fetch_add", "cmp_swap"):
        opt["size"] = 8
    return opt


def gid_text(full):
    """'0000:...:ffff:0a0b:0001' → '::ffff:10.11.0.1' (inet_ntop style)."""
    h = full.replace(":", "")
    b = bytes.fromhex(h)
    if b[:10] == b"\0" * 10 and b[10:12] == b"\xff\xff":
        return "::ffff:%d.%d.%d.%d" % tuple(b[12:16])
    import ipaddress
    return str(ipaddress.IPv6Address(b))


WC_STATUS = {"success": 0, "local length error": 1, "local QP operation error": 2,
             "local protection error": 4, "Work Request Flushed Error": 5, "bad response error": 7,
             "local access error": 8, "remote invalid request error": 9, "remote access error": 10,
             "remote operation error": 11, "transport retry counter exceeded": 12,
             "RNR retry counter exceeded": 13}


class Side:
    def __init__(self, role, lines, meta):
        self.role = role
        self.lines = lines
        self.meta = meta
        self.events = []
        self.last_t = lines[0][0] if lines else 0.0
        self.off = meta["realtime_at"] - meta["uptime_at"]     # realtime - CLOCK_MONOTONIC in the VM
        self.qpn = {}
        self.psn = {}
        self.mr = {}
        self.local = None
        self.remote = None
        self.mtu = 1024
        self.peer_rkey = None
        self.next_psn = {}

    # every event goes through here: strictly increasing time, at or after its console line
    def emit(self, ev, t=None, **fields):
        if t is None or t <= self.last_t:
            t = self.last_t + 1e-6
        self.last_t = t
        e = {"v": 1, "ev": ev, "role": self.role, "t_real": iso(t), "t_mono": round(t - self.off, 6)}
        e.update(fields)
        self.events.append(e)
        return e

    # ---------- steps 1-14 and 16: straight from the console ----------
    def convert(self):
        argv = ["build/rdma_" + self.role] + shlex.split(self.meta[self.role + "_args"])
        self.opt = parse_args(argv[1:], self.role)
        self.emit("start", t=self.lines[0][0], argv=argv, opt=self.opt)
        n = len(self.lines)
        i = 0
        step = 0
        while i < n:
            t, s = self.lines[i]
            m = STEP_RE.match(s)
            if m:
                step = int(m.group(1))
                title = m.group(2)
                self.emit("step", t=t, n=step, title=title)
                if title.startswith("数据传输") or title.startswith("同步点"):
                    j = i + 1
                    while j < n and not STEP_RE.match(self.lines[j][1]):
                        j += 1
                    if title.startswith("同步点"):
                        self.rts_sync(self.lines[i + 1:j])
                    else:
                        self.data_plane(self.lines[i + 1:j])
                    i = j
                    continue
                i += 1
                continue
            i = self.line(i, step)
        code = self.meta.get(self.role + "_exit", 0)
        self.emit("end", t=self.lines[-1][0], exit=code)
        return self.events

    def line(self, i, step):
        t, s = self.lines[i]
        m = re.match(r"^找到 (\d+) 个RDMA设备: (.*)$", s)
        if m:
            self.emit("verbs", t=t, call="ibv_get_device_list", ok=True,
                      res={"num": int(m.group(1)), "devs": m.group(2).split()})
        m = re.match(r"^选择设备: (\S+)", s)
        if m:
            self.emit("verbs", t=t, call="ibv_open_device", ok=True, res={"dev": m.group(1)})
        m = re.match(r"^端口 (\d+): 状态 (\w+)，链路层 (.*?)，active_mtu (\d+)，max_mtu (\d+)，LID (0x[0-9a-f]+)", s)
        if m:
            self.emit("verbs", t=t, call="ibv_query_port", ok=True,
                      res={"port": int(m.group(1)), "state": m.group(2), "link_layer": m.group(3),
                           "active_mtu": int(m.group(4)), "max_mtu": int(m.group(5)), "lid": int(m.group(6), 16)})
        m = re.match(r"^\s+→ 索引 (\d+)\s+(\S+)\s+(RoCE v2|IB/RoCE v1).*网卡 (\S+)", s)
        if m:
            self.gid = gid_text(m.group(2))
            self.emit("verbs", t=t, call="ibv_query_gid_table", ok=True,
                      res={"gid_index": int(m.group(1)), "gid": self.gid, "type": m.group(3), "netdev": m.group(4)})
        m = re.match(r"^PD 已分配: handle=(\d+)", s)
        if m:
            self.emit("verbs", t=t, call="ibv_alloc_pd", ok=True, res={"handle": int(m.group(1))})
        m = re.match(r"^MR 已注册: addr=(0x[0-9a-f]+) 长度=(\d+)", s)
        if m:
            self.mr = {"addr": int(m.group(1), 16), "len": int(m.group(2))}
        m = re.match(r"^\s+lkey=(0x[0-9a-f]+)\s+rkey=(0x[0-9a-f]+)\s+权限=(\S+)", s)
        if m:
            self.mr.update(lkey=int(m.group(1), 16), rkey=int(m.group(2), 16))
            self.emit("verbs", t=t, call="ibv_reg_mr", ok=True,
                      res={"lkey": "0x%08x" % self.mr["lkey"], "rkey": "0x%08x" % self.mr["rkey"],
                           "addr": "0x%x" % self.mr["addr"], "len": self.mr["len"], "access": m.group(3)})
        m = re.match(r"^CQ 已创建: 容量 (\d+)", s)
        if m:
            self.emit("verbs", t=t, call="ibv_create_cq", ok=True, res={"cqe": int(m.group(1))})
        m = re.match(r"^QP\[(\d+)\]: qp_num=(0x[0-9a-f]+)\s+起始PSN=(0x[0-9a-f]+)", s)
        if m:
            q = int(m.group(1))
            self.qpn[q] = int(m.group(2), 16)
            self.psn[q] = int(m.group(3), 16)
            self.emit("verbs", t=t, call="ibv_create_qp", ok=True,
                      res={"qp": q, "qpn": self.qpn[q], "psn": self.psn[q]})
        m = re.match(r"^状态摘要（ibv_query_qp 读回）: (.*)$", s)
        if m:
            for part in m.group(1).split():
                mm = re.match(r"QP\[(\d+)\]=(\w+)", part)
                if mm:
                    q = int(mm.group(1))
                    self.emit("verbs", t=t, call="ibv_modify_qp", ok=True,
                              res={"qp": q, "qpn": self.qpn.get(q), "state": mm.group(2)})
        m = re.match(r"^\s+\[QP状态查询\] QP\[(\d+)\] \((0x[0-9a-f]+)\) (\w+):", s)
        if m:
            return self.qp_block(i, int(m.group(1)), int(m.group(2), 16))
        if s.startswith("本地连接信息:"):
            hello, i2 = self.hello_block(i)
            self.local = hello
            self.emit("ctrl_send", t=t, msg="HELLO", hello=hello)
            return i2
        if s.startswith("远端连接信息:"):
            hello, i2 = self.hello_block(i)
            self.remote = hello
            self.emit("ctrl_recv", t=t, msg="HELLO", hello=hello)
            return i2
        m = re.match(r"^路径MTU取两端 active_mtu 的较小者: (\d+) 字节", s)
        if m:
            self.mtu = int(m.group(1))
        m = re.match(r"^故障注入\(--inject rkey\): 故意把对端的 rkey (0x[0-9a-f]+) 改成 (0x[0-9a-f]+)", s)
        if m:
            self.peer_rkey = int(m.group(2), 16)
            # not in schema v1: the renderer must ignore unknown events
            self.emit("inject", t=t, what="rkey", orig="0x%08x" % int(m.group(1), 16),
                      used="0x%08x" % self.peer_rkey)
        if s.startswith("错误:"):
            hint = ""
            j = i + 1
            if j < len(self.lines) and self.lines[j][1].startswith("提示:"):
                hint = self.lines[j][1][len("提示:"):].strip()
            self.emit("error", t=t, msg=s[len("错误:"):].strip(), hint=hint)
        m = re.match(r"^已销毁 (\d+) 个QP（ibv_destroy_qp）", s)
        if m:
            for q in range(int(m.group(1))):
                self.emit("verbs", t=t, call="ibv_destroy_qp", ok=True, res={"qp": q, "qpn": self.qpn.get(q)})
        for text, call in (("已销毁CQ", "ibv_destroy_cq"), ("已注销MR", "ibv_dereg_mr"),
                           ("已释放PD", "ibv_dealloc_pd"), ("已关闭设备", "ibv_close_device"),
                           ("已释放设备列表", "ibv_free_device_list")):
            if s.startswith(text):
                self.emit("verbs", t=t, call=call, ok=True, res={})
        return i + 1

    def qp_block(self, i, q, qpn):
        attr = {}
        state = None
        j = i + 1
        while j < len(self.lines) and self.lines[j][1].startswith("    "):
            s = self.lines[j][1].strip()
            if s.startswith("ah:"):
                s = s[3:]
            if s.startswith("cap:"):
                j += 1
                continue
            for k, v in re.findall(r"(\w+)=(\S+)", s):
                if k == "qp_state":
                    state = v
                    continue
                if k == "access":
                    attr["access"] = v.split("（")[0]
                elif k == "dgid":
                    attr["dgid"] = gid_text(v)
                elif k in ("dest_qp_num", "rq_psn", "sq_psn", "dlid"):
                    attr[k] = int(v, 16)
                elif re.match(r"^\d+$", v):
                    attr[k] = int(v)
                else:
                    attr[k] = v
            j += 1
        self.emit("qp_state", t=self.lines[j - 1][0], qp=q, qpn=qpn, state=state, attr=attr)
        return j

    def hello_block(self, i):
        s = self.lines[i][1]
        m = re.search(r"num_qp=(\d+) op=(\w+) active_mtu=(\d+) size=(\d+) iters=(\d+)", s)
        h = {"op": m.group(2), "num_qp": int(m.group(1)), "mtu": int(m.group(3)), "size": int(m.group(4)),
             "iters": int(m.group(5)), "addr": "0x0", "rkey": "0x00000000", "slot": 0, "offset": 0, "qps": []}
        j = i + 1
        while j < len(self.lines) and self.lines[j][1].startswith("  "):
            s = self.lines[j][1]
            m = re.match(r"^\s+MR: addr=(0x[0-9a-f]+) rkey=(0x[0-9a-f]+) 每QP槽 (\d+) 字节", s)
            if m:
                h["addr"] = "0x%x" % int(m.group(1), 16)
                h["rkey"] = "0x%08x" % int(m.group(2), 16)
                h["slot"] = int(m.group(3))
            m = re.match(r"^\s+QP\[(\d+)\]: QP号 (0x[0-9a-f]+)\s+PSN (0x[0-9a-f]+)\s+LID (0x[0-9a-f]+)\s+GID (\S+)", s)
            if m:
                h["qps"].append({"qpn": int(m.group(2), 16), "psn": int(m.group(3), 16),
                                 "lid": int(m.group(4), 16), "gid": gid_text(m.group(5))})
            j += 1
        return h, j

    # ---------- step 14 ----------
    def rts_sync(self, lines):
        t0 = self.last_t
        self.emit("ctrl_send", t=t0, msg="SYNC", tag=0x01000000, kind="RTS", round=0)
        t1 = lines[0][0] if lines else None
        self.emit("ctrl_recv", t=t1, msg="SYNC", tag=0x01000000, kind="RTS", round=0)
        for k, (t, s) in enumerate(lines):
            self.line_in(lines, k)

    def line_in(self, lines, k):
        """Console lines inside a synthesized region: only errors become events."""
        t, s = lines[k]
        if s.startswith("错误:"):
            m = re.match(r"^错误: 工作完成\(WC\)失败: QP\[(\d+)\] 状态=(.*) \((\d+)\) vendor_err=(0x[0-9a-f]+)", s)
            if m:
                q = int(m.group(1))
                self.emit("wc", t=t, wr_id=q, qp_num=self.qpn[q], status=m.group(2),
                          status_code=int(m.group(3)), vendor_err=int(m.group(4), 16))
            hint = ""
            if k + 1 < len(lines) and lines[k + 1][1].startswith("提示:"):
                hint = lines[k + 1][1][len("提示:"):].strip()
            self.emit("error", t=t, msg=s[len("错误:"):].strip(), hint=hint)
            return True
        return False

    # ---------- step 15: the order of src/runs/op_rounds.c ----------
    def slot(self):
        return self.mr["len"] // (2 * self.opt["num_qp"])

    def area(self, zone, q):
        n = self.opt["num_qp"]
        return self.mr["addr"] + ((q if zone == "a" else n + q) * self.slot())

    def npkts(self, opcode, length):
        if opcode.startswith("ATOMIC"):
            return 1
        return max(1, -(-length // self.mtu))

    def post_send(self, q, opcode, length, t=None, local=None, remote_addr=None, imm=None, **extra):
        if not self.next_psn:
            self.next_psn = {k: self.psn[k] for k in self.psn}
        first = self.next_psn[q]
        n = self.npkts(opcode, length)
        self.next_psn[q] = (first + n) & MASK24
        f = {"qp": q, "qpn": self.qpn[q], "wr_id": q, "opcode": opcode, "len": length,
             "local_addr": "0x%x" % (local if local is not None else self.area("b", q)),
             "lkey": "0x%08x" % self.mr["lkey"]}
        if opcode != "SEND":
            rk = self.peer_rkey if self.peer_rkey is not None else int(self.remote["rkey"], 16)
            f["remote_addr"] = "0x%x" % remote_addr
            f["rkey"] = "0x%08x" % rk
        if imm is not None:
            f["imm"] = "0x%08x" % imm
        f.update(extra)
        f.update(psn_first=first, npkts=n, mtu=self.mtu, dest_qpn=self.remote["qps"][q]["qpn"])
        self.emit("post_send", t=t, **f)

    def post_recv(self, q, addr, t=None):
        self.emit("post_recv", t=t, qp=q, qpn=self.qpn[q], wr_id=q, len=self.slot(), addr="0x%x" % addr)

    def wc(self, q, opcode, byte_len, t=None, imm=None):
        f = {"wr_id": q, "qp_num": self.qpn[q], "opcode": opcode, "status": "success", "status_code": 0,
             "byte_len": byte_len}
        if imm is not None:
            f["imm"] = "0x%08x" % imm
        self.emit("wc", t=t, **f)

    def sync(self, direction, kind, r, t=None):
        code = {"RTS": 1, "READY": 2, "DONE": 3, "ACK": 4, "BYE": 5}[kind]
        self.emit("ctrl_" + direction, t=t, msg="SYNC", tag=(code << 24) | (r & MASK24), kind=kind, round=r)

    def data_plane(self, lines):
        """Walk step 15's console lines; emit the events of src/runs/op_rounds.c in their order."""
        self.dp_lines = lines
        self.dp_k = 0
        self.failed = False
        op = self.opt["op"]
        getattr(self, "dp_" + op)()
        # whatever is left (errors, summary)
        while self.dp_k < len(lines):
            self.line_in(lines, self.dp_k)
            self.dp_k += 1

    def until(self, pattern):
        """Advance to the next line matching pattern; its time, or None (and failed) if an error comes first."""
        lines = self.dp_lines
        while self.dp_k < len(lines):
            t, s = lines[self.dp_k]
            if re.search(pattern, s):
                self.dp_k += 1
                return t
            if s.startswith("错误:"):
                self.failed = True
                return None
            self.dp_k += 1
        self.failed = True
        return None

    def until_last(self, pattern, t_first):
        """Like until() for the last QP's line; with one QP that is the line just found."""
        if self.opt["num_qp"] == 1:
            return t_first
        return self.until(pattern)

    def rounds(self):
        return range(1, self.opt["iters"] + 1)

    def qps(self):
        return range(self.opt["num_qp"])

    def remote_slot(self, q):
        return int(self.remote["addr"], 16) + q * self.remote["slot"]

    def dp_write(self):
        size = self.opt["size"]
        for r in self.rounds():
            if self.role == "client":
                for q in self.qps():
                    self.post_send(q, "RDMA_WRITE", size, remote_addr=self.remote_slot(q))
                t = self.until(r"^  第%d轮: " % r)
                if t is None:
                    return
                for q in self.qps():
                    self.wc(q, "RDMA_WRITE", size, t=t - 1e-4)
                self.sync("send", "DONE", r, t=t)
                self.sync("recv", "ACK", r)
            else:
                t = self.until(r"^  QP\[0\] 第%d轮内存中的数据" % r)
                if t is None:
                    return
                self.sync("recv", "DONE", r, t=t - 1e-4)
                t = self.until_last(r"^  QP\[%d\] 第%d轮内存中的数据" % (self.opt["num_qp"] - 1, r), t)
                self.sync("send", "ACK", r, t=t)

    def dp_read(self):
        size = self.opt["size"]
        for r in self.rounds():
            if self.role == "client":
                self.sync("recv", "READY", r)
                for q in self.qps():
                    self.post_send(q, "RDMA_READ", size, local=self.area("b", q), remote_addr=self.remote_slot(q))
                t = self.until(r"^  QP\[0\] 第%d轮读到" % r)
                if t is None:
                    return
                for q in self.qps():
                    self.wc(q, "RDMA_READ", size, t=t - 1e-4)
                t = self.until_last(r"^  QP\[%d\] 第%d轮读到" % (self.opt["num_qp"] - 1, r), t)
                self.sync("send", "DONE", r, t=t)
            else:
                self.sync("send", "READY", r)
                t = self.until(r"^  第%d轮: 客户端报告已读完" % r)
                if t is None:
                    return
                self.sync("recv", "DONE", r, t=t)

    def dp_send(self):
        size = self.opt["size"]
        n = self.opt["num_qp"]
        ready_first = self.meta.get("server_ready_before_recv", False)
        for r in self.rounds():
            if self.role == "server":
                if ready_first:
                    self.sync("send", "READY", r)
                    t = self.until(r"^已为 \d+ 个QP各投递") if r == 1 else None
                    for q in self.qps():
                        self.post_recv(q, self.area("a", q), t=t)
                else:
                    for q in self.qps():
                        self.post_recv(q, self.area("a", q))
                    self.sync("send", "READY", r)
                for q in self.qps():
                    t = self.until(r"^  QP\[%d\] 第%d轮收到" % (q, r))
                    if t is None:
                        return
                    self.wc(q, "RECV", size, t=t - 1e-4)
                for q in self.qps():
                    self.post_send(q, "SEND", size)
                t = self.until(r"^  第%d轮: 已在" % r)
                if t is None:
                    return
                for q in self.qps():
                    self.wc(q, "SEND", size, t=t - 1e-4)
            else:
                for q in self.qps():
                    self.post_recv(q, self.area("a", q))
                t = self.until(r"^已先为回复投递接收请求") if r == 1 else None
                self.sync("recv", "READY", r, t=t)
                for q in self.qps():
                    self.post_send(q, "SEND", size)
                t = self.until(r"^  QP\[0\] 第%d轮回复" % r)
                if t is None:
                    return
                for q in self.qps():
                    self.wc(q, "SEND", size, t=t - 2e-4)
                for q in self.qps():
                    self.wc(q, "RECV", size, t=t - 1e-4)
                self.until(r"^  第%d轮: %d 个发送完成" % (r, n))

    def dp_write_imm(self):
        size = self.opt["size"]
        for r in self.rounds():
            if self.role == "server":
                for q in self.qps():
                    self.post_recv(q, self.area("b", q))
                self.sync("send", "READY", r)
                for q in self.qps():
                    t = self.until(r"^  QP\[%d\] 完成: RECV_RDMA_WITH_IMM" % q)
                    if t is None:
                        return
                    self.wc(q, "RECV_RDMA_WITH_IMM", size, t=t - 1e-4, imm=(r << 16) | q)
            else:
                self.sync("recv", "READY", r)
                for q in self.qps():
                    self.post_send(q, "RDMA_WRITE_WITH_IMM", size, remote_addr=self.remote_slot(q),
                                   imm=(r << 16) | q)
                t = self.until(r"^  第%d轮: " % r)
                if t is None:
                    return
                for q in self.qps():
                    self.wc(q, "RDMA_WRITE", size, t=t - 1e-4)

    def atomic_target(self, q):
        return self.remote_slot(q) + self.remote.get("offset", 0)

    def dp_fetch_add(self):
        self.dp_atomic("fetch_add")

    def dp_cmp_swap(self):
        self.dp_atomic("cmp_swap")

    def dp_atomic(self, kind):
        iters = self.opt["iters"]
        if self.role == "server":
            t = self.until(r"^原子操作由服务端网卡执行")
            if t is None:
                return
            t = self.until(r"^  QP\[0\] 目标字")
            if t is None:
                return
            self.sync("recv", "DONE", iters, t=t - 1e-4)
            t = self.until_last(r"^  QP\[%d\] 目标字" % (self.opt["num_qp"] - 1), t)
            self.sync("send", "ACK", iters, t=t)
            return
        for r in self.rounds():
            for q in self.qps():
                init = 1000000 * (q + 1)
                if kind == "fetch_add":
                    add = q + 1
                    self.post_send(q, "ATOMIC_FETCH_AND_ADD", 8, local=self.area("b", q),
                                   remote_addr=self.atomic_target(q), compare_add="0x%016x" % add)
                    t = self.until(r"^  QP\[%d\] 第%d轮 FETCH_ADD" % (q, r))
                    if t is None:
                        return
                    self.wc(q, "FETCH_ADD", 8, t=t - 1e-4)
                else:
                    cur = init + (r - 1)
                    self.post_send(q, "ATOMIC_CMP_AND_SWP", 8, local=self.area("b", q),
                                   remote_addr=self.atomic_target(q), compare_add="0x%016x" % cur,
                                   swap="0x%016x" % (cur + 1))
                    self.wc(q, "COMP_SWAP", 8)
                    self.post_send(q, "ATOMIC_CMP_AND_SWP", 8, local=self.area("b", q) + 8,
                                   remote_addr=self.atomic_target(q), compare_add="0x%016x" % (cur + 1000),
                                   swap="0x%016x" % 0)
                    t = self.until(r"^  QP\[%d\] 第%d轮 CAS" % (q, r))
                    if t is None:
                        return
                    self.wc(q, "COMP_SWAP", 8, t=t - 1e-4)
        self.sync("send", "DONE", iters)
        t = self.until(r"^服务端确认")
        self.sync("recv", "ACK", iters, t=t)


def convert(meta, server_log, client_log, out):
    for role, path in (("server", server_log), ("client", client_log)):
        side = Side(role, read_stamped(path), meta)
        events = side.convert()
        with open("%s.%s.jsonl" % (out, role), "w", encoding="utf-8") as fh:
            for e in events:
                fh.write(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--meta", required=True)
    ap.add_argument("--server", required=True)
    ap.add_argument("--client", required=True)
    ap.add_argument("--out", required=True, help="prefix: writes PREFIX.server.jsonl and PREFIX.client.jsonl")
    a = ap.parse_args()
    with open(a.meta, encoding="utf-8") as fh:
        meta = json.load(fh)
    convert(meta, a.server, a.client, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
