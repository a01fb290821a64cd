/*
 * tcp_socket.h - 控制平面 TCP 实现（ctrl_tcp.c）用的 socket 操作：监听、接受、连接、完整收发
 *
 * 所有等待都有超时，不会永远卡住。出错时函数自己打印中文原因和提示，返回 -1。
 */
#ifndef ROCE_TCP_SOCKET_H
#define ROCE_TCP_SOCKET_H

#include <stddef.h>
#include <stdint.h>

/* 监听 TCP 端口；backlog = 还没 accept 的连接最多排几个（一次性服务端 1，多客户端 SOMAXCONN） */
int tcp_listen(int port, int backlog);
/* 等待一个客户端；peer 写入对端地址文本 */
int tcp_accept(int listen_fd, int timeout_ms, char *peer, size_t peerlen);
/* 连接服务端；连接被拒绝（服务端还没启动）时在超时内重试 */
int tcp_connect(const char *host, int port, int timeout_ms);

/* 完整读/写 len 字节（TCP 上短读短写很正常） */
int tcp_read_full(int fd, void *buf, size_t len, int timeout_ms, const char *what);
int tcp_write_full(int fd, const void *buf, size_t len, int timeout_ms, const char *what);

/*
 * 同 tcp_read_full，只是对端在读满之前关闭连接时不打印，返回 TCP_PEER_CLOSED（FIN）或
 * TCP_PEER_RESET（RST：对端关闭时还有没读的数据），*got = 关闭前收到的字节数。
 * 调用者可以先看看收到的是什么（例如另一个程序的握手），再决定怎么说；一般情况用 tcp_print_closed。
 * 超时和其他错误照常打印并返回 -1。
 */
#define TCP_PEER_CLOSED (-2)
#define TCP_PEER_RESET  (-3)
int tcp_read_or_close(int fd, void *buf, size_t len, int timeout_ms, const char *what, size_t *got);
/* “对端关闭了连接（…只收到 got/len 字节）”+ 提示；closed = tcp_read_or_close 的返回值 */
void tcp_print_closed(const char *what, size_t got, size_t len, int closed);

/* 等待 fd 可读，最多 timeout_ms；返回 1 可读，0 超时，-1 出错 */
int tcp_wait_readable(int fd, int timeout_ms);

#endif
