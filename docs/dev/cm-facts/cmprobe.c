/*
 * cmprobe.c —— librdmacm (RDMA CM) 行为探针：在 Soft-RoCE 实验室里测事实，给将来的 --cm 模式当参考。
 * 不属于 make test；由 docs/dev/cm-facts/run-facts.sh 编译和驱动，结果记在 docs/dev/cm-facts/FACTS.md。
 *
 * 编译: cc -O2 -Wall -Wextra -o build/cm-facts/cmprobe docs/dev/cm-facts/cmprobe.c -lrdmacm -libverbs
 *
 * 用法:
 *   cmprobe bind ADDR                     rdma_bind_addr()，打印返回值/errno、选中的设备和 GID
 *   cmprobe resolve [-s SRC] [-t MS] DST  rdma_resolve_addr() + rdma_resolve_route()，打印事件、耗时、设备
 *   cmprobe listen [-b ADDR] [选项]       服务端: rdma_listen，接受 -n 个连接
 *   cmprobe connect [-s SRC] [选项] DST   客户端: -n 个 rdma_cm_id 连到同一个端口
 * 选项:
 *   -p PORT   端口（默认 20079）           -n N      连接数（默认 1）
 *   -q cm     QP 用 rdma_create_qp 创建，状态转换交给 librdmacm（默认）
 *   -q verbs  QP 用 ibv_create_qp 在 id->verbs 上创建，conn_param.qp_num 传给 rdma_connect/rdma_accept，
 *             INIT/RTR/RTS 由本程序用 rdma_init_qp_attr + ibv_modify_qp 完成（打印 rdma_init_qp_attr 的结果）
 *   -c L1,L2  rdma_connect 的 private_data_len，失败时依次试下一个（默认 0）
 *   -a LEN    rdma_accept 的 private_data_len（默认 0）
 *   -t MS     rdma_resolve_addr/route 的超时（默认 2000）
 *   -w SEC    全部建立后再等 SEC 秒的 CM 事件（默认 0）；-e SEC 等第一个事件最多 SEC 秒（默认 30）
 *   -k SEC    全部建立后 SEC 秒用 SIGKILL 杀死自己（模拟对端进程被 kill -9）
 *   -S        -w 的等待结束后，在每个还没 DISCONNECTED 的 QP 上发一个 SEND，最多等 60 s 的完成（对端已消失时看
 *             多久、以什么状态失败），之后再等 5 s 的 CM 事件
 * 每行输出以 "[+毫秒]"（程序启动起的单调时钟）开头；事件行另带距上一次动作的毫秒数。
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_IDS 16
#define MSG_LEN 64

static struct timespec t0;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) / 1e6;
}

static void out(const char *fmt, ...)
{
    va_list ap;
    printf("[+%8.1f ms] ", now_ms());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* ---------- 选项 ---------- */
static const char *opt_src, *opt_bind;
static int opt_port = 20079, opt_n = 1, opt_verbs_qp, opt_accept_len, opt_timeout = 2000;
static int opt_wait, opt_first_wait = 30, opt_kill = -1, opt_send_after;
static int opt_clen[8] = {0}, opt_nclen = 1;

/* ---------- 每个 rdma_cm_id 一份资源 ---------- */
struct conn {
    struct rdma_cm_id *id;
    int idx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp;
    struct ibv_mr *mr;
    char buf[MSG_LEN];
    int established, clen_try;
    double t_action; /* 上一次动作的时刻，事件行打印距它的毫秒数 */
};
static struct conn conns[MAX_IDS];
static int nconns;

static const char *rej_reason(int s)
{
    /* IB CM 的拒绝原因（include/rdma/ib_cm.h 的 enum ib_cm_rej_reason），RoCE 也用 IB CM */
    switch (s) {
    case 1: return "IB_CM_REJ_NO_QP";
    case 2: return "IB_CM_REJ_NO_EEC";
    case 3: return "IB_CM_REJ_NO_RESOURCES";
    case 4: return "IB_CM_REJ_TIMEOUT";
    case 5: return "IB_CM_REJ_UNSUPPORTED";
    case 6: return "IB_CM_REJ_INVALID_COMM_ID";
    case 8: return "IB_CM_REJ_INVALID_SERVICE_ID";
    case 10: return "IB_CM_REJ_STALE_CONN";
    case 28: return "IB_CM_REJ_CONSUMER_DEFINED";
    default: return "?";
    }
}

static const char *devname_of(struct rdma_cm_id *id)
{
    return id && id->verbs ? ibv_get_device_name(id->verbs->device) : "(无设备: id->verbs == NULL)";
}

static void print_addr(const char *what, struct sockaddr *sa)
{
    char s[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)sa)->sin_addr, s, sizeof s);
        port = ntohs(((struct sockaddr_in *)sa)->sin_port);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)sa)->sin6_addr, s, sizeof s);
        port = ntohs(((struct sockaddr_in6 *)sa)->sin6_port);
    }
    out("  %s = %s port %d (family %d)", what, s, port, sa->sa_family);
}

static void gid_str(const union ibv_gid *g, char *s, size_t n)
{
    inet_ntop(AF_INET6, g->raw, s, n);
}

/* 找出 GID 在设备 GID 表里的索引（-1 = 不在表里） */
static int gid_index_of(struct ibv_context *ctx, int port, const union ibv_gid *g)
{
    union ibv_gid x;
    for (int i = 0; i < 1024; i++) {
        if (ibv_query_gid(ctx, port, i, &x))
            break;
        if (!memcmp(&x, g, sizeof x))
            return i;
    }
    return -1;
}

static void print_id(struct rdma_cm_id *id)
{
    char s[INET6_ADDRSTRLEN];
    out("  device = %s, port_num = %d", devname_of(id), id->port_num);
    print_addr("local ", rdma_get_local_addr(id));
    print_addr("remote", rdma_get_peer_addr(id));
    if (id->verbs) {
        union ibv_gid *sg = &id->route.addr.addr.ibaddr.sgid;
        gid_str(sg, s, sizeof s);
        out("  sgid = %s (GID 表索引 %d)", s, gid_index_of(id->verbs, id->port_num, sg));
    }
}

static void print_route(struct rdma_cm_id *id)
{
    char sg[INET6_ADDRSTRLEN], dg[INET6_ADDRSTRLEN];
    print_id(id);
    if (id->route.num_paths > 0) {
        struct ibv_sa_path_rec *p = id->route.path_rec;
        gid_str(&p->sgid, sg, sizeof sg);
        gid_str(&p->dgid, dg, sizeof dg);
        out("  path_rec: sgid %s dgid %s hop_limit %u mtu(enum) %u rate %u pkey 0x%x sl %u traffic_class %u packet_life_time %u",
            sg, dg, p->hop_limit, p->mtu, p->rate, ntohs(p->pkey), p->sl, p->traffic_class, p->packet_life_time);
    }
}

/* ---------- QP 属性打印 ---------- */
static const char *qps(int s)
{
    static const char *n[] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"};
    return s >= 0 && s < 7 ? n[s] : "?";
}

static void print_mask(int m, char *b, size_t n)
{
    static const struct { int bit; const char *name; } t[] = {
        {IBV_QP_STATE, "STATE"}, {IBV_QP_CUR_STATE, "CUR_STATE"}, {IBV_QP_EN_SQD_ASYNC_NOTIFY, "EN_SQD"},
        {IBV_QP_ACCESS_FLAGS, "ACCESS_FLAGS"}, {IBV_QP_PKEY_INDEX, "PKEY_INDEX"}, {IBV_QP_PORT, "PORT"},
        {IBV_QP_QKEY, "QKEY"}, {IBV_QP_AV, "AV"}, {IBV_QP_PATH_MTU, "PATH_MTU"}, {IBV_QP_TIMEOUT, "TIMEOUT"},
        {IBV_QP_RETRY_CNT, "RETRY_CNT"}, {IBV_QP_RNR_RETRY, "RNR_RETRY"}, {IBV_QP_RQ_PSN, "RQ_PSN"},
        {IBV_QP_MAX_QP_RD_ATOMIC, "MAX_QP_RD_ATOMIC"}, {IBV_QP_ALT_PATH, "ALT_PATH"},
        {IBV_QP_MIN_RNR_TIMER, "MIN_RNR_TIMER"}, {IBV_QP_SQ_PSN, "SQ_PSN"},
        {IBV_QP_MAX_DEST_RD_ATOMIC, "MAX_DEST_RD_ATOMIC"}, {IBV_QP_PATH_MIG_STATE, "PATH_MIG_STATE"},
        {IBV_QP_CAP, "CAP"}, {IBV_QP_DEST_QPN, "DEST_QPN"},
    };
    size_t len = 0;
    b[0] = 0;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (m & t[i].bit)
            len += snprintf(b + len, len < n ? n - len : 0, "%s%s", len ? "|" : "", t[i].name);
}

static void print_qp_attr(const char *tag, struct ibv_qp_attr *a, int mask)
{
    char mb[512], dg[INET6_ADDRSTRLEN];
    print_mask(mask, mb, sizeof mb);
    out("  %s: qp_attr_mask = 0x%x (%s)", tag, mask, mb);
    if (mask & IBV_QP_STATE)
        out("    qp_state %s", qps(a->qp_state));
    if (mask & IBV_QP_ACCESS_FLAGS)
        out("    qp_access_flags 0x%x", a->qp_access_flags);
    if (mask & IBV_QP_PKEY_INDEX)
        out("    pkey_index %u", a->pkey_index);
    if (mask & IBV_QP_PORT)
        out("    port_num %u", a->port_num);
    if (mask & IBV_QP_PATH_MTU)
        out("    path_mtu %d (%d bytes)", a->path_mtu, 128 << a->path_mtu);
    if (mask & IBV_QP_DEST_QPN)
        out("    dest_qp_num 0x%06x", a->dest_qp_num);
    if (mask & IBV_QP_RQ_PSN)
        out("    rq_psn 0x%06x", a->rq_psn);
    if (mask & IBV_QP_SQ_PSN)
        out("    sq_psn 0x%06x", a->sq_psn);
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
        out("    max_dest_rd_atomic %u", a->max_dest_rd_atomic);
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
        out("    max_rd_atomic %u", a->max_rd_atomic);
    if (mask & IBV_QP_MIN_RNR_TIMER)
        out("    min_rnr_timer %u", a->min_rnr_timer);
    if (mask & IBV_QP_TIMEOUT)
        out("    timeout %u (4.096 us * 2^%u = %.1f ms)", a->timeout, a->timeout,
            a->timeout ? 4.096e-3 * (double)(1UL << a->timeout) : 0.0);
    if (mask & IBV_QP_RETRY_CNT)
        out("    retry_cnt %u", a->retry_cnt);
    if (mask & IBV_QP_RNR_RETRY)
        out("    rnr_retry %u", a->rnr_retry);
    if (mask & IBV_QP_AV) {
        gid_str(&a->ah_attr.grh.dgid, dg, sizeof dg);
        out("    ah_attr: is_global %u dlid %u sl %u port_num %u static_rate %u", a->ah_attr.is_global,
            a->ah_attr.dlid, a->ah_attr.sl, a->ah_attr.port_num, a->ah_attr.static_rate);
        out("    ah_attr.grh: sgid_index %u hop_limit %u traffic_class %u flow_label %u dgid %s",
            a->ah_attr.grh.sgid_index, a->ah_attr.grh.hop_limit, a->ah_attr.grh.traffic_class,
            a->ah_attr.grh.flow_label, dg);
    }
}

/* 已建立的 QP 的真实属性（两种路径都看一眼） */
static void query_qp(struct conn *c)
{
    struct ibv_qp_attr a;
    struct ibv_qp_init_attr ia;
    int m = IBV_QP_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PORT | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
            IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER |
            IBV_QP_SQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_DEST_QPN;
    if (ibv_query_qp(c->qp, &a, m, &ia)) {
        out("  id#%d ibv_query_qp 失败: %s", c->idx, strerror(errno));
        return;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "id#%d ibv_query_qp(QP 0x%06x)", c->idx, c->qp->qp_num);
    print_qp_attr(tag, &a, m);
}

/* ---------- 事件 ---------- */
static int get_event(struct rdma_event_channel *ch, int timeout_ms, struct rdma_cm_event **ev)
{
    struct pollfd p = {.fd = ch->fd, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0) {
        perror("poll");
        return -1;
    }
    if (r == 0)
        return 0;
    if (rdma_get_cm_event(ch, ev)) {
        out("rdma_get_cm_event 失败: %s", strerror(errno));
        return -1;
    }
    return 1;
}

static struct conn *conn_of(struct rdma_cm_id *id)
{
    for (int i = 0; i < nconns; i++)
        if (conns[i].id == id)
            return &conns[i];
    return NULL;
}

static void print_event(struct rdma_cm_event *ev, struct conn *c)
{
    char extra[160] = "";
    if (ev->event == RDMA_CM_EVENT_REJECTED)
        snprintf(extra, sizeof extra, " (%s)", rej_reason(ev->status));
    else if (ev->status < 0)
        snprintf(extra, sizeof extra, " (-%s = %s)", strerrorname_np(-ev->status) ?: "?", strerror(-ev->status));
    out("EVENT %s status=%d%s id#%d", rdma_event_str(ev->event), ev->status, extra, c ? c->idx : -1);
    if (c && c->t_action > 0)
        out("  （距上一次动作 %.1f ms）", now_ms() - c->t_action);
    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST || ev->event == RDMA_CM_EVENT_ESTABLISHED ||
        ev->event == RDMA_CM_EVENT_CONNECT_RESPONSE || ev->event == RDMA_CM_EVENT_REJECTED) {
        const unsigned char *p = ev->param.conn.private_data;
        int n = ev->param.conn.private_data_len, nz = 0;
        for (int i = 0; p && i < n; i++)
            if (p[i])
                nz = i + 1;
        out("  param.conn: private_data_len=%d（最后一个非零字节在 %d）responder_resources=%u initiator_depth=%u "
            "retry_count=%u rnr_retry_count=%u qp_num=0x%06x srq=%u",
            n, nz, ev->param.conn.responder_resources, ev->param.conn.initiator_depth, ev->param.conn.retry_count,
            ev->param.conn.rnr_retry_count, ev->param.conn.qp_num, ev->param.conn.srq);
    }
}

/* ---------- QP ---------- */
static int setup_qp(struct conn *c)
{
    struct ibv_qp_init_attr ia = {0};
    c->pd = ibv_alloc_pd(c->id->verbs);
    c->cq = c->pd ? ibv_create_cq(c->id->verbs, 8, NULL, NULL, 0) : NULL;
    if (!c->pd || !c->cq) {
        out("id#%d PD/CQ 失败: %s", c->idx, strerror(errno));
        return -1;
    }
    c->mr = ibv_reg_mr(c->pd, c->buf, sizeof c->buf, IBV_ACCESS_LOCAL_WRITE);
    if (!c->mr) {
        out("id#%d ibv_reg_mr 失败: %s", c->idx, strerror(errno));
        return -1;
    }
    ia.send_cq = ia.recv_cq = c->cq;
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_wr = ia.cap.max_recv_wr = 4;
    ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
    if (!opt_verbs_qp) {
        if (rdma_create_qp(c->id, c->pd, &ia)) {
            out("id#%d rdma_create_qp 失败: %s", c->idx, strerror(errno));
            return -1;
        }
        c->qp = c->id->qp;
        out("id#%d rdma_create_qp 成功: QP 0x%06x on %s（状态 %s）", c->idx, c->qp->qp_num, devname_of(c->id),
            qps(c->qp->state));
        return 0;
    }
    c->qp = ibv_create_qp(c->pd, &ia);
    if (!c->qp) {
        out("id#%d ibv_create_qp 失败: %s", c->idx, strerror(errno));
        return -1;
    }
    out("id#%d ibv_create_qp 成功: QP 0x%06x on %s（id->qp 仍为 %p）", c->idx, c->qp->qp_num, devname_of(c->id),
        (void *)c->id->qp);
    return 0;
}

/* -q verbs: 用 rdma_init_qp_attr 得到属性，ibv_modify_qp 转到 state */
static int to_state(struct conn *c, enum ibv_qp_state st)
{
    struct ibv_qp_attr a;
    int mask = 0;
    char tag[64];
    memset(&a, 0, sizeof a);
    a.qp_state = st;
    if (rdma_init_qp_attr(c->id, &a, &mask)) {
        out("id#%d rdma_init_qp_attr(%s) 失败: %s", c->idx, qps(st), strerror(errno));
        return -1;
    }
    snprintf(tag, sizeof tag, "id#%d rdma_init_qp_attr(%s)", c->idx, qps(st));
    print_qp_attr(tag, &a, mask);
    if (ibv_modify_qp(c->qp, &a, mask)) {
        out("id#%d ibv_modify_qp(%s) 失败: %s", c->idx, qps(st), strerror(errno));
        return -1;
    }
    out("id#%d ibv_modify_qp → %s 成功", c->idx, qps(st));
    return 0;
}

static int post_recv(struct conn *c)
{
    struct ibv_sge sge = {.addr = (uintptr_t)c->buf, .length = sizeof c->buf, .lkey = c->mr->lkey};
    struct ibv_recv_wr wr = {.wr_id = c->idx, .sg_list = &sge, .num_sge = 1}, *bad;
    int r = ibv_post_recv(c->qp, &wr, &bad);
    if (r)
        out("id#%d ibv_post_recv 失败: %s", c->idx, strerror(r));
    return r ? -1 : 0;
}

static int post_send_msg(struct conn *c)
{
    struct ibv_sge sge = {.addr = (uintptr_t)c->buf, .length = sizeof c->buf, .lkey = c->mr->lkey};
    struct ibv_send_wr wr = {.wr_id = c->idx, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                             .send_flags = IBV_SEND_SIGNALED},
                       *bad;
    snprintf(c->buf, sizeof c->buf, "hello from id#%d qp 0x%06x", c->idx, c->qp->qp_num);
    int r = ibv_post_send(c->qp, &wr, &bad);
    if (r)
        out("id#%d ibv_post_send 失败: %s", c->idx, strerror(r));
    return r ? -1 : 0;
}

static int poll_one(struct conn *c, int timeout_ms)
{
    struct ibv_wc wc;
    double end = now_ms() + timeout_ms;
    while (now_ms() < end) {
        int n = ibv_poll_cq(c->cq, 1, &wc);
        if (n < 0)
            return -1;
        if (n == 1) {
            if (wc.status != IBV_WC_SUCCESS) {
                out("id#%d 完成: %s (%d)", c->idx, ibv_wc_status_str(wc.status), wc.status);
                return -1;
            }
            if (wc.opcode == IBV_WC_RECV)
                out("id#%d 收到 %u 字节: \"%s\"", c->idx, wc.byte_len, c->buf);
            else
                out("id#%d SEND 完成", c->idx);
            return 0;
        }
        usleep(1000);
    }
    out("id#%d %d ms 内没有完成", c->idx, timeout_ms);
    return -1;
}

static void fill_pd(unsigned char *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(0xA0 + i % 16) | 1; /* 不为零，接收方能看出真实长度 */
}

static void conn_param_init(struct rdma_conn_param *cp, struct conn *c, unsigned char *pd, int len)
{
    memset(cp, 0, sizeof *cp);
    cp->responder_resources = 1;
    cp->initiator_depth = 1;
    cp->retry_count = 6;
    cp->rnr_retry_count = 6;
    if (len > 0) {
        fill_pd(pd, len);
        cp->private_data = pd;
        cp->private_data_len = (uint8_t)len;
    }
    if (opt_verbs_qp)
        cp->qp_num = c->qp->qp_num;
}

static int wait_after(struct rdma_event_channel *ch, double t_est, int n_est)
{
    int ndisc = 0;
    double end = now_ms() + opt_wait * 1000.0;
    double kill_at = opt_kill >= 0 ? t_est + opt_kill * 1000.0 : -1;
    struct rdma_cm_event *ev;
    if (kill_at >= 0 && end < kill_at + 1)
        end = kill_at + 1;
    if (opt_kill >= 0)
        out("将在全部建立后 %d s 用 SIGKILL 杀死自己（pid %d）", opt_kill, getpid());
    if (opt_wait > 0)
        out("等待 CM 事件 %d s ...", opt_wait);
    for (;;) {
        double now = now_ms(), until = end;
        if (kill_at >= 0 && kill_at < until)
            until = kill_at;
        if (kill_at >= 0 && now >= kill_at) {
            out("SIGKILL 自己");
            raise(SIGKILL);
        }
        if (now >= until)
            break;
        int r = get_event(ch, (int)(until - now) + 1, &ev);
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        struct conn *c = conn_of(ev->id);
        print_event(ev, c);
        if (ev->event == RDMA_CM_EVENT_DISCONNECTED) {
            struct timespec rt;
            clock_gettime(CLOCK_REALTIME, &rt);
            out("  （距全部建立 %.1f ms；CLOCK_REALTIME %ld.%03ld）", now_ms() - t_est, (long)rt.tv_sec,
                rt.tv_nsec / 1000000);
            ndisc++;
        }
        rdma_ack_cm_event(ev);
        if (ndisc >= n_est && kill_at < 0) {
            out("全部 %d 个连接都已 DISCONNECTED，不再等待", n_est);
            return 0;
        }
    }
    if (opt_wait > 0)
        out("等待结束（%d s 内的事件都在上面）", opt_wait);
    if (!opt_send_after)
        return 0;
    for (int i = 0; i < nconns; i++) {
        struct conn *c = &conns[i];
        if (!c->established || !c->qp)
            continue;
        double t = now_ms();
        out("id#%d 在 QP 0x%06x 上发一个 SEND（对端是否还在？）", c->idx, c->qp->qp_num);
        if (post_send_msg(c) == 0) {
            int r = poll_one(c, 60000);
            out("id#%d SEND 的结果%s，距发送 %.1f ms", c->idx, r ? "是错误（见上一行）" : "成功", now_ms() - t);
        }
    }
    double end2 = now_ms() + 5000;
    while (now_ms() < end2) {
        int r = get_event(ch, (int)(end2 - now_ms()) + 1, &ev);
        if (r <= 0)
            break;
        print_event(ev, conn_of(ev->id));
        rdma_ack_cm_event(ev);
    }
    out("SEND 之后 5 s 内的 CM 事件都在上面");
    return 0;
}

static int parse_addr(const char *s, int port, struct sockaddr_in *sin)
{
    memset(sin, 0, sizeof *sin);
    sin->sin_family = AF_INET;
    sin->sin_port = htons(port);
    if (inet_pton(AF_INET, s, &sin->sin_addr) != 1) {
        fprintf(stderr, "不是 IPv4 地址: %s\n", s);
        return -1;
    }
    return 0;
}

/* ---------- bind ---------- */
static int cmd_bind(const char *addr)
{
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_id *id;
    struct sockaddr_in sin;
    if (!ch) {
        out("rdma_create_event_channel 失败: errno=%d (%s) %s", errno, strerrorname_np(errno) ?: "?", strerror(errno));
        return 2;
    }
    if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
        out("rdma_create_id 失败: errno=%d (%s) %s", errno, strerrorname_np(errno) ?: "?", strerror(errno));
        return 2;
    }
    if (parse_addr(addr, 0, &sin))
        return 2;
    int r = rdma_bind_addr(id, (struct sockaddr *)&sin);
    int e = errno;
    if (r) {
        out("rdma_bind_addr(%s) = %d, errno=%d (%s) %s", addr, r, e, strerrorname_np(e) ?: "?", strerror(e));
        rdma_destroy_id(id);
        rdma_destroy_event_channel(ch);
        return 1;
    }
    out("rdma_bind_addr(%s) = 0", addr);
    print_id(id);
    rdma_destroy_id(id);
    rdma_destroy_event_channel(ch);
    return 0;
}

/* ---------- resolve ---------- */
static int cmd_resolve(const char *dst)
{
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_id *id;
    struct rdma_cm_event *ev;
    struct sockaddr_in s, d;
    int rc = 1;
    if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
        out("create 失败: %s", strerror(errno));
        return 2;
    }
    if (parse_addr(dst, opt_port, &d) || (opt_src && parse_addr(opt_src, 0, &s)))
        return 2;
    double t = now_ms();
    if (rdma_resolve_addr(id, opt_src ? (struct sockaddr *)&s : NULL, (struct sockaddr *)&d, opt_timeout)) {
        int e = errno;
        out("rdma_resolve_addr(src=%s, dst=%s, %d ms) = -1, errno=%d (%s) %s", opt_src ? opt_src : "NULL", dst,
            opt_timeout, e, strerrorname_np(e) ?: "?", strerror(e));
        return 1;
    }
    out("rdma_resolve_addr(src=%s, dst=%s, %d ms) = 0; 此时 device = %s", opt_src ? opt_src : "NULL", dst,
        opt_timeout, devname_of(id));
    int r = get_event(ch, opt_first_wait * 1000, &ev);
    if (r <= 0) {
        out("%d s 内没有事件", opt_first_wait);
        return 1;
    }
    print_event(ev, NULL);
    out("  （距 rdma_resolve_addr %.1f ms）", now_ms() - t);
    int ok = ev->event == RDMA_CM_EVENT_ADDR_RESOLVED;
    rdma_ack_cm_event(ev);
    if (!ok)
        goto done;
    print_id(id);
    t = now_ms();
    if (rdma_resolve_route(id, opt_timeout)) {
        out("rdma_resolve_route 失败: %s", strerror(errno));
        goto done;
    }
    if (get_event(ch, opt_first_wait * 1000, &ev) <= 0) {
        out("rdma_resolve_route 之后没有事件");
        goto done;
    }
    print_event(ev, NULL);
    out("  （距 rdma_resolve_route %.1f ms）", now_ms() - t);
    ok = ev->event == RDMA_CM_EVENT_ROUTE_RESOLVED;
    rdma_ack_cm_event(ev);
    if (ok) {
        print_route(id);
        rc = 0;
    }
done:
    rdma_destroy_id(id);
    rdma_destroy_event_channel(ch);
    return rc;
}

/* ---------- listen ---------- */
static int cmd_listen(void)
{
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_id *lid;
    struct rdma_cm_event *ev;
    struct sockaddr_in sin;
    unsigned char pd[256];
    int n_est = 0, n_done = 0, rc = 0;
    double t_est = 0;
    if (!ch || rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP)) {
        out("create 失败: %s", strerror(errno));
        return 2;
    }
    if (parse_addr(opt_bind ? opt_bind : "0.0.0.0", opt_port, &sin))
        return 2;
    if (rdma_bind_addr(lid, (struct sockaddr *)&sin)) {
        int e = errno;
        out("rdma_bind_addr(%s) 失败: errno=%d (%s) %s", opt_bind ? opt_bind : "0.0.0.0", e,
            strerrorname_np(e) ?: "?", strerror(e));
        return 1;
    }
    if (rdma_listen(lid, 8)) {
        out("rdma_listen 失败: %s", strerror(errno));
        return 1;
    }
    out("LISTEN %s:%d（监听 id 的设备: %s）qp=%s", opt_bind ? opt_bind : "0.0.0.0", opt_port, devname_of(lid),
        opt_verbs_qp ? "verbs" : "cm");
    while (n_done < opt_n) {
        int r = get_event(ch, opt_first_wait * 1000, &ev);
        if (r <= 0) {
            out("%d s 内没有事件，退出", opt_first_wait);
            rc = 1;
            break;
        }
        struct conn *c = conn_of(ev->id);
        if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
            if (nconns >= MAX_IDS) {
                rdma_reject(ev->id, NULL, 0);
                rdma_ack_cm_event(ev);
                continue;
            }
            c = &conns[nconns];
            c->id = ev->id;
            c->idx = nconns++;
            print_event(ev, c);
            print_id(c->id);
            struct rdma_conn_param cp;
            if (setup_qp(c) || (opt_verbs_qp && (to_state(c, IBV_QPS_INIT))) || post_recv(c) ||
                (opt_verbs_qp && (to_state(c, IBV_QPS_RTR) || to_state(c, IBV_QPS_RTS)))) {
                rdma_reject(c->id, NULL, 0);
                rdma_ack_cm_event(ev);
                n_done++;
                rc = 1;
                continue;
            }
            conn_param_init(&cp, c, pd, opt_accept_len);
            c->t_action = now_ms();
            if (rdma_accept(c->id, &cp)) {
                int e = errno;
                out("id#%d rdma_accept(private_data_len=%d) = -1, errno=%d (%s) %s", c->idx, opt_accept_len, e,
                    strerrorname_np(e) ?: "?", strerror(e));
                n_done++;
                rc = 1;
            } else {
                out("id#%d rdma_accept(private_data_len=%d) = 0", c->idx, opt_accept_len);
            }
            rdma_ack_cm_event(ev);
            continue;
        }
        print_event(ev, c);
        if (ev->event == RDMA_CM_EVENT_ESTABLISHED && c) {
            c->established = 1;
            n_est++;
            n_done++;
            query_qp(c);
            poll_one(c, 3000);
            if (n_est == opt_n)
                t_est = now_ms();
        } else if (c) {
            n_done++;
            rc = 1;
        }
        rdma_ack_cm_event(ev);
    }
    out("服务端: %d/%d 个连接建立", n_est, opt_n);
    if (n_est > 0)
        wait_after(ch, t_est ? t_est : now_ms(), n_est);
    return rc;
}

/* ---------- connect ---------- */
static int try_connect(struct conn *c)
{
    struct rdma_conn_param cp;
    unsigned char pd[256];
    while (c->clen_try < opt_nclen) {
        int len = opt_clen[c->clen_try++];
        conn_param_init(&cp, c, pd, len);
        c->t_action = now_ms();
        if (rdma_connect(c->id, &cp) == 0) {
            out("id#%d rdma_connect(private_data_len=%d) = 0", c->idx, len);
            return 0;
        }
        int e = errno;
        out("id#%d rdma_connect(private_data_len=%d) = -1, errno=%d (%s) %s", c->idx, len, e,
            strerrorname_np(e) ?: "?", strerror(e));
    }
    return -1;
}

static int cmd_connect(const char *dst)
{
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_event *ev;
    struct sockaddr_in s, d;
    int n_est = 0, n_done = 0, rc = 0;
    double t_est = 0;
    if (!ch) {
        out("rdma_create_event_channel 失败: errno=%d (%s) %s", errno, strerrorname_np(errno) ?: "?",
            strerror(errno));
        return 2;
    }
    if (parse_addr(dst, opt_port, &d) || (opt_src && parse_addr(opt_src, 0, &s)))
        return 2;
    for (int i = 0; i < opt_n; i++) {
        struct conn *c = &conns[nconns];
        if (rdma_create_id(ch, &c->id, c, RDMA_PS_TCP)) {
            out("rdma_create_id 失败: %s", strerror(errno));
            return 2;
        }
        c->idx = nconns++;
        c->t_action = now_ms();
        if (rdma_resolve_addr(c->id, opt_src ? (struct sockaddr *)&s : NULL, (struct sockaddr *)&d, opt_timeout)) {
            int e = errno;
            out("id#%d rdma_resolve_addr = -1, errno=%d (%s) %s", c->idx, e, strerrorname_np(e) ?: "?",
                strerror(e));
            return 1;
        }
    }
    out("CONNECT %s:%d src=%s ids=%d qp=%s", dst, opt_port, opt_src ? opt_src : "NULL", opt_n,
        opt_verbs_qp ? "verbs" : "cm");
    while (n_done < opt_n) {
        int r = get_event(ch, opt_first_wait * 1000, &ev);
        if (r <= 0) {
            out("%d s 内没有事件，退出", opt_first_wait);
            rc = 1;
            break;
        }
        struct conn *c = conn_of(ev->id);
        print_event(ev, c);
        enum rdma_cm_event_type et = ev->event;
        rdma_ack_cm_event(ev);
        if (!c)
            continue;
        switch (et) {
        case RDMA_CM_EVENT_ADDR_RESOLVED:
            out("id#%d 地址解析后 device = %s", c->idx, devname_of(c->id));
            c->t_action = now_ms();
            if (rdma_resolve_route(c->id, opt_timeout)) {
                out("id#%d rdma_resolve_route 失败: %s", c->idx, strerror(errno));
                n_done++;
                rc = 1;
            }
            break;
        case RDMA_CM_EVENT_ROUTE_RESOLVED:
            print_route(c->id);
            if (setup_qp(c) || (opt_verbs_qp && to_state(c, IBV_QPS_INIT)) || post_recv(c) || try_connect(c)) {
                n_done++;
                rc = 1;
            }
            break;
        case RDMA_CM_EVENT_CONNECT_RESPONSE:
            /* -q verbs: 内核不碰 QP，应用自己 RTR/RTS，然后 rdma_establish 发 RTU */
            if (to_state(c, IBV_QPS_RTR) || to_state(c, IBV_QPS_RTS)) {
                n_done++;
                rc = 1;
                break;
            }
            if (rdma_establish(c->id)) {
                out("id#%d rdma_establish 失败: %s", c->idx, strerror(errno));
                n_done++;
                rc = 1;
                break;
            }
            out("id#%d rdma_establish = 0（RTU 已发）", c->idx);
            /* rdma_establish 只让内核发 RTU；被动端收到 RTU 才有 ESTABLISHED。这里直接算建立（见 FACTS.md A.7） */
            c->established = 1;
            n_est++;
            n_done++;
            query_qp(c);
            post_send_msg(c);
            poll_one(c, 3000);
            if (n_est == opt_n)
                t_est = now_ms();
            break;
        case RDMA_CM_EVENT_ESTABLISHED:
            if (c->established)
                break;
            c->established = 1;
            n_est++;
            n_done++;
            query_qp(c);
            post_send_msg(c);
            poll_one(c, 3000);
            if (n_est == opt_n)
                t_est = now_ms();
            break;
        case RDMA_CM_EVENT_REJECTED:
        case RDMA_CM_EVENT_UNREACHABLE:
        case RDMA_CM_EVENT_CONNECT_ERROR:
        case RDMA_CM_EVENT_ADDR_ERROR:
        case RDMA_CM_EVENT_ROUTE_ERROR:
            n_done++;
            rc = 1;
            break;
        default:
            break;
        }
    }
    out("客户端: %d/%d 个连接建立", n_est, opt_n);
    if (n_est > 0)
        wait_after(ch, t_est ? t_est : now_ms(), n_est);
    return rc;
}

static void usage(void)
{
    fprintf(stderr, "用法: cmprobe bind ADDR | resolve [-s SRC] [-t MS] DST | listen [-b ADDR] [选项] | "
                    "connect [-s SRC] [选项] DST\n"
                    "选项: -p PORT -n N -q cm|verbs -c L1,L2 -a LEN -t MS -w SEC -e SEC -k SEC（见源文件开头）\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int o;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2)
        usage();
    const char *cmd = argv[1];
    optind = 2;
    while ((o = getopt(argc, argv, "s:b:p:n:q:c:a:t:w:e:k:S")) != -1) {
        switch (o) {
        case 's': opt_src = optarg; break;
        case 'b': opt_bind = optarg; break;
        case 'p': opt_port = atoi(optarg); break;
        case 'n':
            opt_n = atoi(optarg);
            if (opt_n < 1 || opt_n > MAX_IDS)
                usage();
            break;
        case 'q': opt_verbs_qp = !strcmp(optarg, "verbs"); break;
        case 'c': {
            char *p = optarg;
            opt_nclen = 0;
            while (*p && opt_nclen < 8) {
                opt_clen[opt_nclen++] = (int)strtol(p, &p, 10);
                if (*p == ',')
                    p++;
            }
            break;
        }
        case 'a': opt_accept_len = atoi(optarg); break;
        case 't': opt_timeout = atoi(optarg); break;
        case 'w': opt_wait = atoi(optarg); break;
        case 'e': opt_first_wait = atoi(optarg); break;
        case 'k': opt_kill = atoi(optarg); break;
        case 'S': opt_send_after = 1; break;
        default: usage();
        }
    }
    if (!strcmp(cmd, "bind") && optind == argc - 1)
        return cmd_bind(argv[optind]);
    if (!strcmp(cmd, "resolve") && optind == argc - 1)
        return cmd_resolve(argv[optind]);
    if (!strcmp(cmd, "listen") && optind == argc)
        return cmd_listen();
    if (!strcmp(cmd, "connect") && optind == argc - 1)
        return cmd_connect(argv[optind]);
    usage();
    return 2;
}
