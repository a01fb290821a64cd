#!/usr/bin/env python3
"""tests/verbs-check/relay.py - 站在 ibv_*_pingpong 的客户端和服务端之间的 TCP 中继，改掉交换的连接信息里的一项
（tests/verbs-check/lab-provoke.sh 用它在真实的 rxe 上让 verbs-check 的 GID、UD 规则触发：程序本身是 rdma-core 的，
一行没改，错的只是它们交换的值——和学习者把对端的信息抄错、传错一样）。

    relay.py LISTEN_PORT SERVER_PORT|fake [--client-qpn-add N] [--client-gid IPV4] [--server-gid IPV4] [--server-qpn N]

rdma-core 的 pingpong（Debian 12 的 ibverbs-utils 44）的握手：客户端写 52 字节的 "LID:QPN:PSN:GID\\0"
（"%04x:%06x:%06x:%s"，GID 是 32 个十六进制数字，按字节的顺序），服务端回同样格式的 52 字节，客户端再写 "done\\0"。
--client-* 改客户端发给服务端的，--server-* 改服务端发给客户端的；SERVER_PORT 写 fake 时没有服务端：中继自己回一条
（QPN 是 --server-qpn，PSN 0，GID 是 --server-gid）。只接一个连接，做完退出。
"""
import argparse
import ipaddress
import socket
import threading

MSG = 52


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        part = s.recv(n - len(buf))
        if not part:
            break
        buf += part
    return buf


def wire_gid(ip):
    return "00000000000000000000ffff" + ipaddress.IPv4Address(ip).packed.hex()


def rewrite(msg, qpn_add=0, gid=None, qpn=None):
    text = msg.rstrip(b"\0").decode()
    lid, q, psn, g = text.split(":")
    q = int(q, 16) + qpn_add if qpn is None else qpn
    g = wire_gid(gid) if gid else g
    out = "%s:%06x:%s:%s" % (lid, q & 0xffffff, psn, g)
    print("relay: %s -> %s" % (text, out), flush=True)
    return out.encode() + b"\0"


def pipe(a, b):
    try:
        while True:
            data = a.recv(4096)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    finally:
        try:
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("listen", type=int)
    ap.add_argument("server")
    ap.add_argument("--client-qpn-add", type=int, default=0)
    ap.add_argument("--client-gid")
    ap.add_argument("--server-gid")
    ap.add_argument("--server-qpn", type=int)
    o = ap.parse_args()
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("0.0.0.0", o.listen))
    ls.listen(1)
    c, _ = ls.accept()
    mine = recv_exact(c, MSG)
    if o.server == "fake":
        c.sendall(rewrite(mine, gid=o.server_gid, qpn=o.server_qpn or 1))
        recv_exact(c, 5)
        c.close()
        return 0
    s = socket.create_connection(("127.0.0.1", int(o.server)))
    s.sendall(rewrite(mine, o.client_qpn_add, o.client_gid))
    theirs = recv_exact(s, MSG)
    c.sendall(rewrite(theirs, 0, o.server_gid) if o.server_gid else theirs)
    t = threading.Thread(target=pipe, args=(s, c), daemon=True)
    t.start()
    pipe(c, s)
    t.join(5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
