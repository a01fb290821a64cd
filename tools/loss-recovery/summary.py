#!/usr/bin/env python3
"""tools/loss-recovery/summary.py OUT - 汇总 lab/loss-recovery.sh 的每个场景（宿主机上运行，make loss-recovery 的最后一步）

读 OUT/NAME.rc（两端退出码）、OUT/NAME.tc（netem 的 tc -s 统计）、OUT/NAME-{server,client}.log（--counters 的块）、
OUT/NAME.pcap（tshark 解码：请求包、重发、ACK、序列 NAK），写：
  OUT/summary.txt   每个场景一行（Markdown 表），docs/LOSS-RECOVERY.md 引用的数字
  OUT/NAME.nak.txt  第一个序列 NAK 前后的几行 tshark（有 NAK 的场景）
  OUT/gbn.dat       go-back-N：消息大小、丢掉的请求包、多发的包、每丢一个多发几个
  OUT/gbn.svg       上一项的图（gnuplot）
  OUT/seq-NAME.svg  loss-64k 和 delay-to14 里一段时间的 PSN-时间图（首发、重发、NAK/ACK）
只用 Python 3 标准库和 Debian 的 tshark、gnuplot。
"""
import os
import re
import subprocess
import sys

CLIENT_IP = "10.11.0.2"      # rxe1，客户端（请求方）
ACK = 17                     # BTH opcode：RC Acknowledge
MTU = 1024                   # 实验室的路径MTU


def counters(path):
    """--counters 块里动了的计数：{名字: 差值}"""
    out, inside = {}, False
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError:
        return out
    for line in lines:
        if "（--counters）" in line or "(--counters)" in line:
            inside = True
            continue
        m = re.match(r"^  ([a-z_]+) +\+(\d+)\s", line)
        if inside and m:
            out[m.group(1)] = int(m.group(2))
        elif inside and not line.startswith("  "):
            inside = False
    return out


def netem_drops(path):
    """{veth1: netem 丢掉的包, veth0: …}：lab/loss-recovery.sh 每块网卡写一段（“vethN (…): 参数”再接 tc -s 的输出）"""
    res = {}
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return res
    for block in re.split(r"^(?=veth\d )", text, flags=re.M):
        m = re.match(r"veth\d", block)
        d = re.search(r"dropped (\d+)", block)
        if m and d and "qdisc netem" in block:
            res[m.group(0)] = int(d.group(1))
    return res


def packets(pcap):
    """[(时间, 是请求吗, opcode, psn, syndrome)]"""
    try:
        r = subprocess.run(["tshark", "-r", pcap, "-Y", "infiniband", "-T", "fields", "-E", "separator=,",
                            "-e", "frame.time_relative", "-e", "ip.src", "-e", "infiniband.bth.opcode",
                            "-e", "infiniband.bth.psn", "-e", "infiniband.aeth.syndrome"],
                           capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    out = []
    for line in r.stdout.splitlines():
        f = line.split(",")
        if len(f) < 5 or not f[2]:
            continue
        syn = int(f[4], 0) if f[4] else None
        op = int(f[2], 0)
        out.append((float(f[0]), f[1] == CLIENT_IP and op != ACK, op, int(f[3], 0), syn))
    return out


def wire(pk):
    """请求包、其中的重发（同一个 PSN 第二次出现）、ACK、序列 NAK、重发之前请求方向最长的空闲（毫秒）"""
    seen, resent, gap, last = set(), 0, 0.0, None
    acks = naks = 0
    for t, req, op, psn, syn in pk:
        if req:
            if psn in seen:
                resent += 1
                if last is not None:
                    gap = max(gap, (t - last) * 1000)
            seen.add(psn)
            last = t
        elif op == ACK and syn is not None:
            if syn & 0xE0 == 0x60:
                naks += 1
            elif syn & 0xE0 == 0:
                acks += 1
    return sum(1 for p in pk if p[1]), resent, acks, naks, gap


def nak_excerpt(pcap, out):
    """第一个序列 NAK 和它前后的几个包：tshark 的字段（帧号、时间、源、目的、BTH opcode、PSN、AETH syndrome）。
    只存了每个包的前 128 字节，tshark 的 Info 列会说 Malformed，所以不用它；opcode 6/7/8 = RDMA Write First/Middle/Last，
    17 = Acknowledge，syndrome 0x1f = ACK，0x60 = NAK（PSN 序列错误）"""
    r = subprocess.run(["tshark", "-r", pcap, "-Y", "infiniband.aeth.syndrome >= 0x60 && infiniband.aeth.syndrome < 0x80",
                        "-T", "fields", "-e", "frame.number"], capture_output=True, text=True)
    nums = r.stdout.split()
    if not nums:
        return
    n = int(nums[0])
    r = subprocess.run(["tshark", "-r", pcap, "-Y", f"frame.number >= {n - 4} && frame.number <= {n + 4}", "-T", "fields",
                        "-E", "separator=\t", "-e", "frame.number", "-e", "frame.time_relative", "-e", "ip.src",
                        "-e", "ip.dst", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn", "-e", "infiniband.aeth.syndrome"],
                       capture_output=True, text=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write(r.stdout)


def seq_plot(out_dir, name, pk, whole):
    """PSN-时间图。whole：整次运行；否则放大到重发最多的那个序列 NAK（NAK 之后 10 ms 里线上再出现的请求包最多）前后"""
    reqs = [p for p in pk if p[1]]
    if not reqs:
        return
    psn0 = min(p[3] for p in reqs)
    is_nak = lambda syn: syn is not None and syn & 0xE0 == 0x60
    seen, first, again, ctl = set(), [], [], []
    for t, req, op, psn, syn in pk:
        if req:
            (again if psn in seen else first).append((t, psn - psn0))
            seen.add(psn)
        else:
            ctl.append((t, psn - psn0, 1 if is_nak(syn) else 0))
    if whole:
        lo, hi = pk[0][0] - 0.005, pk[-1][0] + 0.005
    else:
        naks = [t for t, p, k in ctl if k]
        if not naks:
            return
        best = max(naks, key=lambda tn: sum(1 for t, p in again if tn <= t <= tn + 0.01))
        lo, hi = best - 0.003, best + 0.012
    dat = os.path.join(out_dir, f"seq-{name}.dat")
    with open(dat, "w", encoding="utf-8") as f:
        for title, rows in (("first", first), ("again", again)):
            f.write(f"# {title}\n")
            for t, p in rows:
                if lo <= t <= hi:
                    f.write(f"{(t - lo) * 1000:.3f} {p}\n")
            f.write("\n\n")
        for nak in (0, 1):
            f.write(f"# {'nak' if nak else 'ack'}\n")
            for t, p, k in ctl:
                if lo <= t <= hi and k == nak:
                    f.write(f"{(t - lo) * 1000:.3f} {p}\n")
            f.write("\n\n")
    svg = os.path.join(out_dir, f"seq-{name}.svg")
    gp = f"""set terminal svg size 760,380 font 'sans,11'
set output '{svg}'
set xlabel 'ms'
set ylabel 'PSN (0 = first PSN of the run)'
set key left top
set title '{name}: packets on veth0 (after netem), make loss-recovery'
plot '{dat}' index 0 with points pt 7 ps 0.45 lc rgb '#1f77b4' title 'request, first seen', \\
     '' index 1 with points pt 7 ps 0.6 lc rgb '#d62728' title 'request, seen again (resent)', \\
     '' index 2 with points pt 9 ps 0.9 lc rgb '#2ca02c' title 'ACK (PSN acked)', \\
     '' index 3 with points pt 5 ps 0.9 lc rgb '#ff7f0e' title 'NAK, PSN sequence error (PSN expected)'
"""
    subprocess.run(["gnuplot"], input=gp, text=True, check=False)


def gbn(out_dir, rows):
    """每丢一个请求包多发几个包：loss-* 场景，按消息大小"""
    dat = os.path.join(out_dir, "gbn.dat")
    lines = []
    for r in rows:
        m = re.match(r"loss-(\d+)([km])$", r["name"])
        if not m or not r["drop_up"]:
            continue
        size = int(m.group(1)) * (1024 if m.group(2) == "k" else 1 << 20)
        nominal = -(-size // MTU) * r["iters"]
        extra = r["cli"].get("sent_pkts", 0) - nominal
        lines.append((size // 1024, r["drop_up"], extra, extra / r["drop_up"], -(-size // MTU)))
    with open(dat, "w", encoding="utf-8") as f:
        f.write("# size_KiB dropped_requests extra_packets extra_per_drop packets_per_message\n")
        for l in lines:
            f.write("%d %d %d %.1f %d\n" % l)
    if not lines:
        return lines
    gp = f"""set terminal svg size 640,360 font 'sans,11'
set output '{os.path.join(out_dir, "gbn.svg")}'
set logscale x 2
set xlabel 'message size (KiB), 1 QP, write, path MTU 1024, loss 1% on the request direction'
set ylabel 'packets sent again per lost packet'
set xtics (4, 64, 1024)
set xrange [3:1400]
set yrange [0:*]
set key off
set title 'go-back-N on rxe: what one lost request packet costs (one make loss-recovery run)'
plot '{dat}' using 1:4 with linespoints pt 7 lw 2, '' using 1:4:(sprintf('%.1f', $4)) with labels offset 1.5,1
"""
    subprocess.run(["gnuplot"], input=gp, text=True, check=False)
    return lines


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "logs/loss-recovery"
    names = sorted((f[:-3] for f in os.listdir(out_dir) if f.endswith(".rc")),
                   key=lambda n: os.path.getmtime(os.path.join(out_dir, n + ".rc")))
    rows = []
    for n in names:
        p = lambda ext: os.path.join(out_dir, n + ext)
        src, crc = open(p(".rc"), encoding="utf-8").read().split()
        log = open(p("-client.log"), encoding="utf-8").read()
        m = re.search(r"轮数: (\d+)|Rounds: (\d+)", log)
        iters = int(m.group(1) or m.group(2)) if m else 0
        drops = netem_drops(p(".tc"))
        pk = packets(p(".pcap"))
        rows.append({"name": n, "rc": f"{src}/{crc}", "iters": iters, "drop_up": drops.get("veth1", 0),
                     "drop_down": drops.get("veth0", 0), "cli": counters(p("-client.log")),
                     "srv": counters(p("-server.log")), "wire": wire(pk)})
        nak_excerpt(p(".pcap"), p(".nak.txt"))
        if n in ("loss-64k", "loss-1m", "reorder-4k"):
            seq_plot(out_dir, n, pk, False)
        if n in ("delay-to14", "ackloss"):
            seq_plot(out_dir, n, pk, True)
    head = ("| 场景 | 退出码 服务端/客户端 | netem 丢掉（请求/应答方向） | 客户端 sent_pkts | completer_retry_err | rcvd_seq_err | "
            "retry_exceeded_err | 服务端 out_of_seq_request | duplicate_request | 线上请求包 | 其中重发 | ACK | NAK | 重发前最长的空闲 ms |")
    text = [head, "|" + "---|" * 14]
    for r in rows:
        c, s, w = r["cli"], r["srv"], r["wire"]
        text.append(f"| {r['name']} | {r['rc']} | {r['drop_up']}/{r['drop_down']} | {c.get('sent_pkts', 0)} | "
                    f"{c.get('completer_retry_err', 0)} | {c.get('rcvd_seq_err', 0)} | {c.get('retry_exceeded_err', 0)} | "
                    f"{s.get('out_of_seq_request', 0)} | {s.get('duplicate_request', 0)} | {w[0]} | {w[1]} | {w[2]} | {w[3]} | {w[4]:.0f} |")
    g = gbn(out_dir, rows)
    if g:
        text += ["", "| 消息大小 KiB | 每条消息的包 | 丢掉的请求包 | 多发的包 | 每丢一个多发 |", "|---|---|---|---|---|"]
        text += [f"| {l[0]} | {l[4]} | {l[1]} | {l[2]} | {l[3]:.1f} |" for l in g]
    with open(os.path.join(out_dir, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
