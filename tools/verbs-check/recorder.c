/* recorder.c - verbs-check 的记录器：用 LD_PRELOAD 载入任何用 libibverbs 的程序，把要紧的 verbs 调用逐条记进日志。
 *
 * 日志：环境变量 VERBS_CHECK_LOG 给的目录里，每个进程一个文件 <程序名>.<pid>.log，一行一条 JSON
 * （{"t":"调用名",...}）。子进程继承 LD_PRELOAD 和环境变量，第一次记录时按自己的 pid 另开一个文件。
 * 没有 VERBS_CHECK_LOG 时什么也不记，只把调用原样转交。
 *
 * 两类调用：
 *  - libibverbs 导出的函数（ibv_open_device、ibv_modify_qp、ibv_reg_mr …）：这里定义同名函数，动态链接器先找到
 *    预载库里的；真正的函数按 libibverbs.map 里的符号版本用 dlvsym(RTLD_NEXT, …) 找到（IBVERBS_1.1 等）。
 *  - verbs.h 里的内联函数（ibv_post_send/recv、ibv_post_srq_recv、ibv_poll_cq、ibv_query_port）：它们直接调用
 *    上下文里的函数表（ctx->ops.post_send、verbs_context 的 query_port），程序里没有可以截的符号。于是在
 *    ibv_open_device 返回之前把这几项换成这里的包装，原来的指针按上下文存起来，包装记完再调用原来的。
 * 只读程序给的结构，不改它们：转交给驱动的是程序原来的 WR、属性和掩码。空的 poll（返回 0）不记。
 *
 * 看不见的：静态链接的程序（没有动态链接器，LD_PRELOAD 不起作用）；ibv_wr_*（ibv_qp_ex）和 ibv_cq_ex 的
 * start_poll/next_poll（另一张函数表，这里只记下程序创建了它们）。
 *
 * 这是一个预载库：日志文件和上下文表只能是进程级的全局状态（项目规则里“没有全局可变状态”的例外，
 * 见 docs/VERBS-CHECK.md）。 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "verbs/route_lookup.h"

#undef ibv_query_port
#undef ibv_reg_mr
#undef ibv_query_gid_ex
#undef ibv_query_gid_table

#define EXPORT __attribute__((visibility("default")))
#define MAX_CTX 64
#define MAX_SGE_LOGGED 8

/* ---------- 日志 ---------- */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1;
static atomic_ulong seq;
/* libibverbs 的导出函数之间也互相调用（ibv_reg_mr → ibv_reg_mr_iova2）：这些内部调用也经过预载库。
 * 在一个包装里面时不再记录，一次程序的调用只记一条 */
static _Thread_local int nested;

/* 日志的第一行：进程号、父进程、命令行（只在第一次记录时写：没有 verbs 调用的进程没有日志） */
static void log_start(int fd, pid_t pid)
{
    char cmd[512], line[1400];
    size_t n = 0;
    int c = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t k = c >= 0 ? read(c, cmd, sizeof(cmd) - 1) : -1;

    if (c >= 0)
        close(c);
    const char *run = getenv("VERBS_CHECK_RUN");

    n = (size_t)snprintf(line, sizeof(line), "{\"t\":\"start\",\"pid\":%d,\"ppid\":%d,", (int)pid, (int)getppid());
    /* 哪一次 verbs-check 运行（它给子进程的环境变量）：同一个日志目录里别的 verbs-check 下的进程（比如同一台机器上的
     * 另一端）的日志不算进这次的结果。只收字母、数字和 . _ -，其余的不写 */
    if (run && *run && strlen(run) <= 64 && strspn(run, "0123456789abcdefghijklmnopqrstuvwxyz"
                                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ._-") == strlen(run))
        n += (size_t)snprintf(line + n, sizeof(line) - n, "\"run\":\"%s\",", run);
    n += (size_t)snprintf(line + n, sizeof(line) - n, "\"argv\":\"");
    for (ssize_t i = 0; i < k && n < sizeof(line) - 8; i++) {
        unsigned char ch = (unsigned char)cmd[i];
        if (ch == 0)
            ch = ' ';
        if (ch == '"' || ch == '\\')
            line[n++] = '\\';
        if (ch >= 0x20 && ch < 0x7f)
            line[n++] = (char)ch;
    }
    n += (size_t)snprintf(line + n, sizeof(line) - n, "\"}\n");
    if (write(fd, line, n) < 0) {
        /* 同 jb_emit：忽略 */
    }
}

/* 这个进程的日志文件：第一次记录时打开（fork 出来的子进程由 vc_forked 清掉继承来的状态，再开自己的） */
static int log_tried;
static int log_open_locked(void)
{
    const char *dir = getenv("VERBS_CHECK_LOG");
    char path[4096], name[64] = "prog";
    pid_t pid = getpid();

    if (log_tried)
        return log_fd;
    log_tried = 1;
    if (!dir || !*dir)
        return -1;
    int c = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (c >= 0) {
        ssize_t n = read(c, name, sizeof(name) - 1);
        close(c);
        name[n > 0 ? n : 0] = 0;
        name[strcspn(name, "\n/ ")] = 0;
        if (!name[0])
            strcpy(name, "prog");
    }
    snprintf(path, sizeof(path), "%s/%s.%d.log", dir, name, (int)pid);
    log_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log_fd >= 0)
        log_start(log_fd, pid);
    return log_fd;
}

/* 写出去的文字先攒在这里，一次 write 写出（一次 write 对一条 WR 来说太贵，TCG 下尤其） */
static char log_buf[1 << 16];
static size_t log_buf_n;

static void flush_locked(void)
{
    if (log_buf_n && log_fd >= 0 && write(log_fd, log_buf, log_buf_n) < 0) {
        /* 写日志失败不能改变程序的行为：忽略 */
    }
    log_buf_n = 0;
}

/* 一行加进 log_buf（满了先写出） */
static void append_locked(const char *line, size_t n)
{
    if (log_buf_n + n > sizeof(log_buf))
        flush_locked();
    memcpy(log_buf + log_buf_n, line, n);
    log_buf_n += n;
}

/* 收发的 WR 和成功的完成（每秒可能上万条）：收发的路上只把要记的字段原样抄进这个数组（像 perftest 先记时间戳、
 * 循环之后再算），排成 JSON 行（format_raw，和别的记录一样一行一条）留到写出的时候：数组满了、任何别的记录之前
 * （日志里的先后不变）、-v 时至多每半秒、进程正常退出时（析构函数写 exit 之前）。被信号杀死的进程攒着的这些就没了 */
enum raw_kind { RAW_POST_SEND, RAW_POST_RECV, RAW_POST_SRQ_RECV, RAW_WC };

struct raw_rec {
    enum raw_kind kind;
    unsigned long seq;
    const void *obj;       /* post_send/post_recv：QP 的句柄；post_srq_recv：SRQ；wc：CQ */
    uint64_t wr_id;
    uint32_t qp_num;       /* post_send：QP 号；wc：完成所属的 QP 号 */
    int opcode;            /* post_send：WR 的 opcode；wc：完成的 opcode */
    unsigned int flags;    /* post_send：send_flags；wc：wc_flags */
    int num_sge;           /* WR 的 num_sge（程序给的，可能大于记下的 n_sge） */
    int n_sge;             /* 记下的 SGE 个数（最多 MAX_SGE_LOGGED；0：不写 "sge"） */
    int ret, err;          /* 失败的那条 WR：返回值和 errno（它不进数组，马上写出） */
    int qp_type;           /* post_send：UD 的 WR 多记地址向量 */
    int has_raddr;         /* post_send：RDMA 和原子操作的远端地址、rkey */
    uint64_t raddr;
    uint32_t rkey;
    uint64_t ah;           /* post_send（UD）：AH、远端 QP 号、Q_Key */
    uint32_t remote_qpn, remote_qkey;
    int status;            /* wc：状态、vendor_err、byte_len、src_qp */
    uint32_t vendor_err, byte_len, src_qp;
    struct ibv_sge sge[MAX_SGE_LOGGED];
};

#define RAW_MAX 1024
static struct raw_rec raw[RAW_MAX];
static size_t raw_n;

/* fork 之后的子进程：父进程的文件和没写出的记录留给父进程 */
static void vc_forked(void)
{
    if (log_fd >= 0)
        close(log_fd);
    log_fd = -1;
    log_tried = 0;
    log_buf_n = 0;
    raw_n = 0;
    pthread_mutex_init(&log_lock, NULL);
}

__attribute__((constructor)) static void vc_init(void)
{
    pthread_atfork(NULL, NULL, vc_forked);
}

struct jb {
    char b[6144];
    size_t n;
};

static void jb_add(struct jb *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jb_add(struct jb *j, const char *fmt, ...)
{
    va_list ap;

    if (j->n >= sizeof(j->b) - 1)
        return;
    va_start(ap, fmt);
    int k = vsnprintf(j->b + j->n, sizeof(j->b) - j->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        j->n += (size_t)k < sizeof(j->b) - j->n ? (size_t)k : sizeof(j->b) - j->n - 1;
}

/* 一条记录的开头：类型和序号（收发的记录在写出时才排成行，用的是调用时拿到的序号） */
static void jb_head(struct jb *j, const char *t, unsigned long n)
{
    j->n = 0;
    jb_add(j, "{\"t\":\"%s\",\"seq\":%lu", t, n);
}

static void jb_begin(struct jb *j, const char *t)
{
    jb_head(j, t, atomic_fetch_add(&seq, 1));
}

static void raw_drain_locked(void);

/* 一条（不是收发、成功的完成的）记录写完：数组里攒着的收发先排成行，再是这一条，一起写出（一次 write，O_APPEND） */
static void jb_emit(struct jb *j)
{
    int saved = errno;

    jb_add(j, "}\n");
    pthread_mutex_lock(&log_lock);
    if (log_open_locked() >= 0) {
        raw_drain_locked();
        append_locked(j->b, j->n);
        flush_locked();
    }
    pthread_mutex_unlock(&log_lock);
    errno = saved;
}

static void jb_gid(struct jb *j, const char *k, const union ibv_gid *g)
{
    jb_add(j, ",\"%s\":\"", k);
    for (int i = 0; i < 16; i++)
        jb_add(j, "%02x", g->raw[i]);
    jb_add(j, "\"");
}

/* 返回值和 errno（返回值是正的错误码时就是它）：err 是调用刚返回时的 errno */
static void jb_ret_errno(struct jb *j, int ret, int err)
{
    jb_add(j, ",\"ret\":%d", ret);
    if (ret)
        jb_add(j, ",\"errno\":%d", ret > 0 ? ret : err);
}

static void jb_ret(struct jb *j, int ret)
{
    jb_ret_errno(j, ret, errno);
}

/* 一条只带一个句柄的记录开头（释放类的调用：调用之前开，seq 按调用开始的先后） */
static void jb_handle(struct jb *j, const char *t, const char *key, const void *h)
{
    jb_begin(j, t);
    jb_add(j, ",\"%s\":\"%p\"", key, h);
}

/* 调用之后：记返回值（和 errno），写出，原样返回 */
static int jb_done(struct jb *j, int ret)
{
    jb_ret(j, ret);
    jb_emit(j);
    return ret;
}

/* 对象是不是 librdmacm 替程序建的（它自己的设备、PD、QP）：看调用者在哪个库里 */
static void jb_by(struct jb *j, void *caller)
{
    Dl_info di;

    if (caller && dladdr(caller, &di) && di.dli_fname && strstr(di.dli_fname, "librdmacm"))
        jb_add(j, ",\"by\":\"rdmacm\"");
}

/* ---------- 真正的函数：按符号版本 ---------- */
static void *real_fn(const char *name, const char *ver)
{
    void *f = dlvsym(RTLD_NEXT, name, ver);

    return f ? f : dlsym(RTLD_NEXT, name);
}

#define REAL(var, name, ver)                                                                                 \
    static __typeof__(name) *var;                                                                            \
    if (!var)                                                                                                \
        var = (__typeof__(name) *)real_fn(#name, ver);

/* ---------- 上下文的函数表 ---------- */
struct ctx_hooks {
    struct ibv_context *ctx;
    int (*poll_cq)(struct ibv_cq *, int, struct ibv_wc *);
    int (*post_send)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **);
    int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *, struct ibv_recv_wr **);
    int (*post_srq_recv)(struct ibv_srq *, struct ibv_recv_wr *, struct ibv_recv_wr **);
    int (*query_port)(struct ibv_context *, uint8_t, struct ibv_port_attr *, size_t);
    struct ibv_qp *(*create_qp_ex)(struct ibv_context *, struct ibv_qp_init_attr_ex *);
    struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *, struct ibv_cq_init_attr_ex *);
};
static struct ctx_hooks hooks[MAX_CTX];
static atomic_int n_hooks;

static const struct ctx_hooks *hooks_of(const struct ibv_context *ctx)
{
    int n = atomic_load(&n_hooks);

    for (int i = n - 1; i >= 0; i--)
        if (hooks[i].ctx == ctx)
            return &hooks[i];
    return NULL;
}

/* ---------- 收发和完成：抄下原样的字段，写出时排成 JSON 行 ---------- */
static void raw_sges(struct raw_rec *r, const struct ibv_sge *sg, int num)
{
    r->num_sge = num;
    r->n_sge = 0;
    if (num <= 0 || !sg)
        return;
    r->n_sge = num < MAX_SGE_LOGGED ? num : MAX_SGE_LOGGED;
    memcpy(r->sge, sg, (size_t)r->n_sge * sizeof(sg[0]));
}

/* 一条 raw_rec 排成的 JSON 记录（不带结尾的 "}\n"）：字段和先后同以前在收发的路上直接写的一样 */
static void format_raw(struct jb *j, const struct raw_rec *r)
{
    static const char *const names[] = { "post_send", "post_recv", "post_srq_recv", "wc" };

    jb_head(j, names[r->kind], r->seq);
    if (r->kind == RAW_WC) {
        jb_add(j, ",\"cq\":\"%p\",\"wr_id\":%llu,\"status\":%d,\"qp\":%u,\"vendor_err\":%u", r->obj,
               (unsigned long long)r->wr_id, r->status, r->qp_num, r->vendor_err);
        if (r->status == IBV_WC_SUCCESS)
            jb_add(j, ",\"opcode\":%d,\"byte_len\":%u,\"src_qp\":%u,\"wc_flags\":%u", r->opcode, r->byte_len,
                   r->src_qp, r->flags);
        return;
    }
    if (r->kind == RAW_POST_SEND)
        jb_add(j, ",\"qph\":\"%p\",\"qp\":%u,\"wr_id\":%llu,\"opcode\":%d,\"flags\":%u,\"num_sge\":%d", r->obj,
               r->qp_num, (unsigned long long)r->wr_id, r->opcode, r->flags, r->num_sge);
    else
        jb_add(j, ",\"%s\":\"%p\",\"wr_id\":%llu,\"num_sge\":%d", r->kind == RAW_POST_SRQ_RECV ? "srq" : "qph", r->obj,
               (unsigned long long)r->wr_id, r->num_sge);
    if (r->n_sge > 0) {
        jb_add(j, ",\"sge\":[");
        for (int i = 0; i < r->n_sge; i++)
            jb_add(j, "%s[%llu,%u,%u]", i ? "," : "", (unsigned long long)r->sge[i].addr, r->sge[i].length,
                   r->sge[i].lkey);
        jb_add(j, "]");
    }
    if (r->kind == RAW_POST_SEND && r->has_raddr)
        jb_add(j, ",\"raddr\":%llu,\"rkey\":%u", (unsigned long long)r->raddr, r->rkey);
    if (r->kind == RAW_POST_SEND && r->qp_type == IBV_QPT_UD)
        jb_add(j, ",\"ah\":%llu,\"remote_qpn\":%u,\"remote_qkey\":%u", (unsigned long long)r->ah, r->remote_qpn,
               r->remote_qkey);
    if (r->ret)
        jb_ret_errno(j, r->ret, r->err);
}

/* 数组里攒着的全部排成行，进 log_buf（满了就写出）；调用者拿着 log_lock */
static void raw_drain_locked(void)
{
    struct jb j;

    for (size_t i = 0; i < raw_n; i++) {
        format_raw(&j, &raw[i]);
        jb_add(&j, "}\n");
        append_locked(j.b, j.n);
    }
    raw_n = 0;
}

/* -v（verbs-check 设 VERBS_CHECK_LIVE）：发现要在程序运行时看得见，攒着的收发至多半秒就写出一次。
 * 程序停在自己的代码里（不再调用 verbs）时攒着的不写：下一次调用、或进程退出时才写 */
static int live_due_locked(void)
{
    static int live = -1;
    static struct timespec last;
    struct timespec now;

    if (live < 0)
        live = getenv("VERBS_CHECK_LIVE") != NULL;
    if (!live || clock_gettime(CLOCK_MONOTONIC_COARSE, &now) != 0)
        return 0;
    if ((now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec) < 500000000L)
        return 0;
    last = now;
    return 1;
}

/* 收发的路上：一条成功的收发或完成记进数组（数组满了先排成行写出）。不失败的这条路上没有格式化，也没有 write */
static void raw_push(const struct raw_rec *r)
{
    int saved = errno;

    pthread_mutex_lock(&log_lock);
    if (log_open_locked() >= 0) {
        if (raw_n == RAW_MAX)
            raw_drain_locked();
        raw[raw_n++] = *r;
        if (live_due_locked()) {
            raw_drain_locked();
            flush_locked();
        }
    }
    pthread_mutex_unlock(&log_lock);
    errno = saved;
}

/* 失败的那条 WR、出错的完成：马上排成行，连同攒着的一起写出 */
static void raw_emit_now(const struct raw_rec *r)
{
    struct jb j;

    format_raw(&j, r);
    jb_emit(&j);
}

static int wrap_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
    const struct ctx_hooks *h = hooks_of(qp->context);
    int ret = h->post_send(qp, wr, bad);
    int err = errno;
    struct raw_rec r;

    for (struct ibv_send_wr *w = wr; w; w = w->next) {
        int is_bad = ret && bad && *bad == w;
        r.kind = RAW_POST_SEND;
        r.seq = atomic_fetch_add(&seq, 1);
        r.obj = qp;
        r.qp_num = qp->qp_num;
        r.qp_type = (int)qp->qp_type;
        r.wr_id = w->wr_id;
        r.opcode = (int)w->opcode;
        r.flags = w->send_flags;
        raw_sges(&r, w->sg_list, w->num_sge);
        r.has_raddr = 1;
        if (w->opcode == IBV_WR_RDMA_WRITE || w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM || w->opcode == IBV_WR_RDMA_READ) {
            r.raddr = w->wr.rdma.remote_addr;
            r.rkey = w->wr.rdma.rkey;
        } else if (w->opcode == IBV_WR_ATOMIC_CMP_AND_SWP || w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
            r.raddr = w->wr.atomic.remote_addr;
            r.rkey = w->wr.atomic.rkey;
        } else {
            r.has_raddr = 0;
        }
        if (r.qp_type == IBV_QPT_UD) {
            r.ah = (uint64_t)(uintptr_t)w->wr.ud.ah;
            r.remote_qpn = w->wr.ud.remote_qpn;
            r.remote_qkey = w->wr.ud.remote_qkey;
        }
        r.ret = is_bad ? ret : 0;
        r.err = err;
        if (ret)
            raw_emit_now(&r); /* 失败的一串 WR：每条马上写出（同以前） */
        else
            raw_push(&r);
        if (is_bad)
            break;
    }
    return ret;
}

static void log_recv(enum raw_kind kind, const void *o, struct ibv_recv_wr *wr, int ret, int err,
                     struct ibv_recv_wr **bad)
{
    struct raw_rec r;

    for (struct ibv_recv_wr *w = wr; w; w = w->next) {
        int is_bad = ret && bad && *bad == w;
        r.kind = kind;
        r.seq = atomic_fetch_add(&seq, 1);
        r.obj = o;
        r.wr_id = w->wr_id;
        raw_sges(&r, w->sg_list, w->num_sge);
        r.ret = is_bad ? ret : 0;
        r.err = err;
        if (ret)
            raw_emit_now(&r);
        else
            raw_push(&r);
        if (is_bad)
            break;
    }
}

static int wrap_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
    int ret = hooks_of(qp->context)->post_recv(qp, wr, bad);

    log_recv(RAW_POST_RECV, qp, wr, ret, errno, bad);
    return ret;
}

static int wrap_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
    int ret = hooks_of(srq->context)->post_srq_recv(srq, wr, bad);

    log_recv(RAW_POST_SRQ_RECV, srq, wr, ret, errno, bad);
    return ret;
}

static int wrap_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
    int ret = hooks_of(cq->context)->poll_cq(cq, n, wc);
    struct raw_rec r;
    struct jb j;

    if (ret == 0)
        return ret; /* 空的 poll 不记：忙等的程序一秒钟能有上百万次 */
    if (ret < 0) {
        jb_handle(&j, "poll_cq", "cq", cq);
        return jb_done(&j, ret);
    }
    for (int i = 0; i < ret; i++) {
        r.kind = RAW_WC;
        r.seq = atomic_fetch_add(&seq, 1);
        r.obj = cq;
        r.wr_id = wc[i].wr_id;
        r.status = (int)wc[i].status;
        r.qp_num = wc[i].qp_num;
        r.vendor_err = wc[i].vendor_err;
        r.opcode = (int)wc[i].opcode;
        r.byte_len = wc[i].byte_len;
        r.src_qp = wc[i].src_qp;
        r.flags = wc[i].wc_flags;
        if (wc[i].status == IBV_WC_SUCCESS)
            raw_push(&r);
        else
            raw_emit_now(&r); /* 出错的完成马上写出 */
    }
    return ret;
}

static void log_port(struct ibv_context *ctx, uint8_t port, const struct ibv_port_attr *a, int ret)
{
    struct jb j;

    jb_begin(&j, "query_port");
    jb_add(&j, ",\"ctx\":\"%p\",\"dev\":\"%s\",\"port\":%u", (void *)ctx, ctx->device->name, port);
    if (!ret)
        jb_add(&j, ",\"state\":%d,\"active_mtu\":%d,\"max_mtu\":%d,\"link_layer\":%u,\"gid_tbl_len\":%d",
               (int)a->state, (int)a->active_mtu, (int)a->max_mtu, a->link_layer, a->gid_tbl_len);
    jb_ret(&j, ret);
    jb_emit(&j);
}

static int wrap_query_port(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *a, size_t sz)
{
    int ret = hooks_of(ctx)->query_port(ctx, port, a, sz);

    log_port(ctx, port, a, ret);
    return ret;
}

static void jb_caps(struct jb *j, const char *k, const struct ibv_qp_cap *c);
static void log_device_limits(struct ibv_context *ctx);

/* ibv_create_qp_ex（librdmacm 的 rdma_create_qp 也用它）：和 ibv_create_qp 一样记下 QP；要了 ibv_wr_* 的发送接口时
 * 另记一条“看不见”（经过 ibv_qp_ex 的发送不记） */
static struct ibv_qp *wrap_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a)
{
    void *caller = __builtin_return_address(0);
    struct ibv_qp_cap asked = a->cap;
    nested++;
    struct ibv_qp *qp = hooks_of(ctx)->create_qp_ex(ctx, a);
    nested--;
    struct jb j;

    if (nested)
        return qp;
    jb_begin(&j, "create_qp");
    jb_add(&j, ",\"pd\":\"%p\",\"ctx\":\"%p\",\"type\":%d,\"sq_sig_all\":%d,\"send_cq\":\"%p\",\"recv_cq\":\"%p\","
               "\"srq\":\"%p\",\"ex\":1",
           (void *)a->pd, (void *)ctx, (int)a->qp_type, a->sq_sig_all, (void *)a->send_cq, (void *)a->recv_cq,
           (void *)a->srq);
    jb_caps(&j, "cap_asked", &asked);
    if (qp) {
        jb_add(&j, ",\"qph\":\"%p\",\"qp\":%u", (void *)qp, qp->qp_num);
        jb_caps(&j, "cap", &a->cap);
    } else {
        jb_add(&j, ",\"errno\":%d", errno);
    }
    jb_by(&j, caller);
    jb_emit(&j);
    if (qp && (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) && a->send_ops_flags) {
        jb_begin(&j, "unseen");
        jb_add(&j, ",\"what\":\"ibv_qp_ex (ibv_wr_*)\"");
        jb_emit(&j);
    }
    return qp;
}

static struct ibv_cq_ex *wrap_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a)
{
    nested++;
    struct ibv_cq_ex *cq = hooks_of(ctx)->create_cq_ex(ctx, a);
    nested--;
    struct jb j;

    if (cq && !nested) {
        jb_begin(&j, "unseen");
        jb_add(&j, ",\"what\":\"ibv_cq_ex (ibv_start_poll)\"");
        jb_emit(&j);
    }
    return cq;
}

/* 新打开的上下文：记下原来的函数表项，换成包装 */
static void hook_context(struct ibv_context *ctx)
{
    static pthread_mutex_t lk = PTHREAD_MUTEX_INITIALIZER;
    struct verbs_context *v = verbs_get_ctx_op(ctx, query_port);

    pthread_mutex_lock(&lk);
    int n = atomic_load(&n_hooks);
    if (n < MAX_CTX) {
        struct ctx_hooks *h = &hooks[n];
        h->ctx = ctx;
        h->poll_cq = ctx->ops.poll_cq;
        h->post_send = ctx->ops.post_send;
        h->post_recv = ctx->ops.post_recv;
        h->post_srq_recv = ctx->ops.post_srq_recv;
        h->query_port = v ? v->query_port : NULL;
        struct verbs_context *vq = verbs_get_ctx_op(ctx, create_qp_ex);
        struct verbs_context *vc = verbs_get_ctx_op(ctx, create_cq_ex);
        h->create_qp_ex = vq ? vq->create_qp_ex : NULL;
        h->create_cq_ex = vc ? vc->create_cq_ex : NULL;
        atomic_store(&n_hooks, n + 1);
        if (h->poll_cq)
            ctx->ops.poll_cq = wrap_poll_cq;
        if (h->post_send)
            ctx->ops.post_send = wrap_post_send;
        if (h->post_recv)
            ctx->ops.post_recv = wrap_post_recv;
        if (h->post_srq_recv)
            ctx->ops.post_srq_recv = wrap_post_srq_recv;
        if (v)
            v->query_port = wrap_query_port;
        if (vq)
            vq->create_qp_ex = wrap_create_qp_ex;
        if (vc)
            vc->create_cq_ex = wrap_create_cq_ex;
    }
    pthread_mutex_unlock(&lk);
}

/* ---------- 导出函数的包装 ---------- */
EXPORT struct ibv_context *ibv_open_device(struct ibv_device *dev)
{
    REAL(r, ibv_open_device, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_context *ctx = r(dev);
    struct jb j;

    if (ctx && getenv("VERBS_CHECK_LOG"))
        hook_context(ctx);
    jb_begin(&j, "open_device");
    jb_add(&j, ",\"dev\":\"%s\",\"ctx\":\"%p\"", dev->name, (void *)ctx);
    jb_by(&j, caller);
    jb_emit(&j);
    if (ctx && getenv("VERBS_CHECK_LOG"))
        log_device_limits(ctx);
    return ctx;
}

EXPORT int ibv_close_device(struct ibv_context *ctx)
{
    REAL(r, ibv_close_device, "IBVERBS_1.1");
    struct jb j;

    jb_handle(&j, "close_device", "ctx", ctx);
    return jb_done(&j, r(ctx));
}

static void jb_device_attr(struct jb *j, const struct ibv_device_attr *a)
{
    jb_add(j, ",\"max_qp_wr\":%d,\"max_sge\":%d,\"max_cqe\":%d,\"max_srq_wr\":%d,\"max_srq_sge\":%d,"
              "\"max_qp_rd_atom\":%d,\"max_qp_init_rd_atom\":%d,\"atomic_cap\":%d",
           a->max_qp_wr, a->max_sge, a->max_cqe, a->max_srq_wr, a->max_srq_sge, a->max_qp_rd_atom,
           a->max_qp_init_rd_atom, (int)a->atomic_cap);
}

EXPORT int ibv_query_device(struct ibv_context *ctx, struct ibv_device_attr *a)
{
    REAL(r, ibv_query_device, "IBVERBS_1.1");
    int ret = r(ctx, a);
    struct jb j;

    jb_begin(&j, "query_device");
    jb_add(&j, ",\"ctx\":\"%p\"", (void *)ctx);
    if (!ret)
        jb_device_attr(&j, a);
    return jb_done(&j, ret);
}

/* 设备的上限：每个打开的上下文，记录器自己问一次 ibv_query_device（只读的查询，程序看不见它，也不改变程序做的事）：
 * 程序自己不问时，“容量超过设备的上限”也能判断。记录带 "by":"verbs-check" */
static void log_device_limits(struct ibv_context *ctx)
{
    REAL(r, ibv_query_device, "IBVERBS_1.1");
    struct ibv_device_attr a;
    struct jb j;
    int saved = errno;

    if (!r || r(ctx, &a) != 0) {
        errno = saved;
        return;
    }
    jb_begin(&j, "query_device");
    jb_add(&j, ",\"ctx\":\"%p\",\"by\":\"verbs-check\"", (void *)ctx);
    jb_device_attr(&j, &a);
    jb_done(&j, 0);
    errno = saved;
}

/* 老的导出入口（没有 verbs_context 的 query_port 时 verbs.h 用它） */
EXPORT int ibv_query_port(struct ibv_context *ctx, uint8_t port, struct _compat_ibv_port_attr *a)
{
    REAL(r, ibv_query_port, "IBVERBS_1.1");
    int ret = r(ctx, port, a);

    log_port(ctx, port, (const struct ibv_port_attr *)a, ret);
    return ret;
}

/* 一个 GID 条目的类型和网卡：程序只问了 GID 时，记录器自己再问一次（只读的查询，不改变什么） */
static void jb_gid_entry(struct jb *j, struct ibv_context *ctx, uint8_t port, uint32_t index)
{
    REAL(ex, _ibv_query_gid_ex, "IBVERBS_1.11");
    struct ibv_gid_entry e;
    char ifname[IF_NAMESIZE] = "";

    if (!ex || ex(ctx, port, index, &e, 0, sizeof(e)) != 0)
        return;
    if (e.ndev_ifindex)
        if_indextoname(e.ndev_ifindex, ifname);
    jb_add(j, ",\"gid_type\":%u,\"ifindex\":%u,\"ifname\":\"%s\"", e.gid_type, e.ndev_ifindex, ifname);
}

/* 源 GID 和到对端的路由，用项目自己的路径检查（src/verbs/route_lookup.c：程序在 RTR 之前、diagnose.sh --peer 查的同一件事）：
 * sgid_index 指的条目（记录器自己从 GID 表查，不信程序：类型、建在哪块网卡上），和内核从这个源地址到 dgid 的路由走哪块网卡
 * （按源地址查：一台机器的实验室里的策略路由照样算对）。只看 IPv4-mapped 的 GID（路径检查只做 IPv4）；查不到就不记 */
static void jb_path(struct jb *j, struct ibv_context *ctx, const struct ibv_ah_attr *ah)
{
    REAL(ex, _ibv_query_gid_ex, "IBVERBS_1.11");
    static const uint8_t v4[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    struct ibv_gid_entry e;
    struct route_info rt;
    char ifname[IF_NAMESIZE] = "", sip[16], dip[16], err[256];
    int saved = errno;

    if (!ah->is_global || !ex || ex(ctx, ah->port_num ? ah->port_num : 1, ah->grh.sgid_index, &e, 0, sizeof(e)) != 0) {
        errno = saved;
        return;
    }
    if (e.ndev_ifindex)
        if_indextoname(e.ndev_ifindex, ifname);
    jb_add(j, ",\"path\":{\"gid_type\":%u,\"ndev\":\"%s\"", e.gid_type, ifname);
    jb_gid(j, "sgid", &e.gid);
    if (!memcmp(e.gid.raw, v4, 12) && !memcmp(ah->grh.dgid.raw, v4, 12) &&
        inet_ntop(AF_INET, e.gid.raw + 12, sip, sizeof(sip)) && inet_ntop(AF_INET, ah->grh.dgid.raw + 12, dip, sizeof(dip))) {
        if (route_lookup(dip, sip, &rt, err, sizeof(err)) == 0)
            jb_add(j, ",\"route_ndev\":\"%s\",\"route_local\":%d", rt.ndev, rt.local);
        else
            jb_add(j, ",\"route_ndev\":null");
    }
    jb_add(j, "}");
    errno = saved;
}

EXPORT int ibv_query_gid(struct ibv_context *ctx, uint8_t port, int index, union ibv_gid *gid)
{
    REAL(r, ibv_query_gid, "IBVERBS_1.1");
    int ret = r(ctx, port, index, gid);
    struct jb j;

    jb_begin(&j, "gid");
    jb_add(&j, ",\"ctx\":\"%p\",\"port\":%u,\"index\":%d", (void *)ctx, port, index);
    if (!ret) {
        jb_gid(&j, "gid", gid);
        jb_gid_entry(&j, ctx, port, (uint32_t)index);
    }
    return jb_done(&j, ret);
}

EXPORT int _ibv_query_gid_ex(struct ibv_context *ctx, uint32_t port, uint32_t index, struct ibv_gid_entry *e,
                             uint32_t flags, size_t sz)
{
    REAL(r, _ibv_query_gid_ex, "IBVERBS_1.11");
    int ret = r(ctx, port, index, e, flags, sz);
    struct jb j;

    jb_begin(&j, "gid");
    jb_add(&j, ",\"ctx\":\"%p\",\"port\":%u,\"index\":%u", (void *)ctx, port, index);
    if (!ret) {
        char ifname[IF_NAMESIZE] = "";
        if (e->ndev_ifindex)
            if_indextoname(e->ndev_ifindex, ifname);
        jb_gid(&j, "gid", &e->gid);
        jb_add(&j, ",\"gid_type\":%u,\"ifindex\":%u,\"ifname\":\"%s\"", e->gid_type, e->ndev_ifindex, ifname);
    }
    return jb_done(&j, ret);
}

EXPORT ssize_t _ibv_query_gid_table(struct ibv_context *ctx, struct ibv_gid_entry *e, size_t max, uint32_t flags,
                                    size_t sz)
{
    REAL(r, _ibv_query_gid_table, "IBVERBS_1.11");
    ssize_t n = r(ctx, e, max, flags, sz);
    struct jb j;

    for (ssize_t i = 0; i < n; i++) {
        char ifname[IF_NAMESIZE] = "";
        if (e[i].ndev_ifindex)
            if_indextoname(e[i].ndev_ifindex, ifname);
        jb_begin(&j, "gid");
        jb_add(&j, ",\"ctx\":\"%p\",\"port\":%u,\"index\":%u", (void *)ctx, e[i].port_num, e[i].gid_index);
        jb_gid(&j, "gid", &e[i].gid);
        jb_add(&j, ",\"gid_type\":%u,\"ifindex\":%u,\"ifname\":\"%s\",\"ret\":0", e[i].gid_type, e[i].ndev_ifindex,
               ifname);
        jb_emit(&j);
    }
    return n;
}

EXPORT struct ibv_pd *ibv_alloc_pd(struct ibv_context *ctx)
{
    REAL(r, ibv_alloc_pd, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_pd *pd = r(ctx);
    struct jb j;

    jb_begin(&j, "alloc_pd");
    jb_add(&j, ",\"ctx\":\"%p\",\"pd\":\"%p\"", (void *)ctx, (void *)pd);
    jb_by(&j, caller);
    if (!pd)
        jb_add(&j, ",\"errno\":%d", errno);
    jb_emit(&j);
    return pd;
}

EXPORT int ibv_dealloc_pd(struct ibv_pd *pd)
{
    REAL(r, ibv_dealloc_pd, "IBVERBS_1.1");
    struct jb j;

    jb_handle(&j, "dealloc_pd", "pd", pd);
    return jb_done(&j, r(pd));
}

static struct ibv_mr *log_mr(const char *t, struct ibv_pd *pd, void *addr, size_t len, int access, struct ibv_mr *mr,
                             void *caller)
{
    struct jb j;
    int saved = errno;

    jb_begin(&j, t);
    jb_add(&j, ",\"pd\":\"%p\",\"addr\":%llu,\"len\":%zu,\"access\":%d", (void *)pd,
           (unsigned long long)(uintptr_t)addr, len, access);
    if (mr)
        jb_add(&j, ",\"mr\":\"%p\",\"lkey\":%u,\"rkey\":%u", (void *)mr, mr->lkey, mr->rkey);
    else
        jb_add(&j, ",\"errno\":%d", saved);
    jb_by(&j, caller);
    jb_emit(&j);
    errno = saved;
    return mr;
}

EXPORT struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
    REAL(r, ibv_reg_mr, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    nested++;
    struct ibv_mr *mr = r(pd, addr, len, access);
    nested--;
    return nested ? mr : log_mr("reg_mr", pd, addr, len, access, mr, caller);
}

EXPORT struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova, unsigned int access)
{
    REAL(r, ibv_reg_mr_iova2, "IBVERBS_1.8");
    void *caller = __builtin_return_address(0);
    nested++;
    struct ibv_mr *mr = r(pd, addr, len, iova, access);
    nested--;
    if (nested)
        return mr;
    /* 记 iova：对端用它（不是虚拟地址）作远端地址 */
    return log_mr("reg_mr", pd, (void *)(uintptr_t)iova, len, (int)access, mr, caller);
}

EXPORT int ibv_dereg_mr(struct ibv_mr *mr)
{
    REAL(r, ibv_dereg_mr, "IBVERBS_1.1");
    struct jb j;

    jb_handle(&j, "dereg_mr", "mr", mr);
    return jb_done(&j, r(mr));
}

EXPORT struct ibv_cq *ibv_create_cq(struct ibv_context *ctx, int cqe, void *cq_ctx, struct ibv_comp_channel *ch,
                                    int vec)
{
    REAL(r, ibv_create_cq, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_cq *cq = r(ctx, cqe, cq_ctx, ch, vec);
    struct jb j;

    jb_begin(&j, "create_cq");
    jb_add(&j, ",\"ctx\":\"%p\",\"cqe_asked\":%d,\"channel\":%d", (void *)ctx, cqe, ch != NULL);
    if (cq)
        jb_add(&j, ",\"cq\":\"%p\",\"cqe\":%d", (void *)cq, cq->cqe);
    else
        jb_add(&j, ",\"errno\":%d", errno);
    jb_by(&j, caller);
    jb_emit(&j);
    return cq;
}

EXPORT int ibv_destroy_cq(struct ibv_cq *cq)
{
    REAL(r, ibv_destroy_cq, "IBVERBS_1.1");
    struct jb j;

    jb_handle(&j, "destroy_cq_begin", "cq", cq); /* ibv_destroy_cq 在还有没确认的事件时挂住：调用之前先记一条 */
    jb_emit(&j);
    jb_handle(&j, "destroy_cq", "cq", cq);
    return jb_done(&j, r(cq));
}

EXPORT int ibv_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq, void **cq_ctx)
{
    REAL(r, ibv_get_cq_event, "IBVERBS_1.1");
    int ret = r(ch, cq, cq_ctx);
    struct jb j;

    jb_begin(&j, "get_cq_event");
    if (!ret)
        jb_add(&j, ",\"cq\":\"%p\"", (void *)*cq);
    return jb_done(&j, ret);
}

EXPORT void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int n)
{
    REAL(r, ibv_ack_cq_events, "IBVERBS_1.1");
    struct jb j;

    jb_begin(&j, "ack_cq_events");
    jb_add(&j, ",\"cq\":\"%p\",\"n\":%u", (void *)cq, n);
    jb_emit(&j);
    r(cq, n);
}

static void jb_caps(struct jb *j, const char *k, const struct ibv_qp_cap *c)
{
    jb_add(j, ",\"%s\":[%u,%u,%u,%u,%u]", k, c->max_send_wr, c->max_recv_wr, c->max_send_sge, c->max_recv_sge,
           c->max_inline_data);
}

EXPORT struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
    REAL(r, ibv_create_qp, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_qp_cap asked = a->cap;
    nested++;
    struct ibv_qp *qp = r(pd, a);
    nested--;
    struct jb j;

    if (nested)
        return qp;
    jb_begin(&j, "create_qp");
    jb_add(&j, ",\"pd\":\"%p\",\"ctx\":\"%p\",\"type\":%d,\"sq_sig_all\":%d,\"send_cq\":\"%p\",\"recv_cq\":\"%p\",\"srq\":\"%p\"",
           (void *)pd, (void *)pd->context, (int)a->qp_type, a->sq_sig_all, (void *)a->send_cq, (void *)a->recv_cq,
           (void *)a->srq);
    jb_caps(&j, "cap_asked", &asked);
    if (qp) {
        jb_add(&j, ",\"qph\":\"%p\",\"qp\":%u", (void *)qp, qp->qp_num);
        jb_caps(&j, "cap", &a->cap);
    } else {
        jb_add(&j, ",\"errno\":%d", errno);
    }
    jb_by(&j, caller);
    jb_emit(&j);
    return qp;
}

EXPORT int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
    REAL(r, ibv_modify_qp, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    int ret = r(qp, a, mask);
    struct jb j;

    jb_begin(&j, "modify_qp");
    jb_add(&j, ",\"qph\":\"%p\",\"qp\":%u,\"type\":%d,\"mask\":%d,\"qp_state\":%d", (void *)qp, qp->qp_num, (int)qp->qp_type, mask,
           (int)a->qp_state);
    if (mask & IBV_QP_CUR_STATE)
        jb_add(&j, ",\"cur_qp_state\":%d", (int)a->cur_qp_state);
    if (mask & IBV_QP_ACCESS_FLAGS)
        jb_add(&j, ",\"qp_access_flags\":%u", a->qp_access_flags);
    if (mask & IBV_QP_PKEY_INDEX)
        jb_add(&j, ",\"pkey_index\":%u", a->pkey_index);
    if (mask & IBV_QP_PORT)
        jb_add(&j, ",\"port_num\":%u", a->port_num);
    if (mask & IBV_QP_QKEY)
        jb_add(&j, ",\"qkey\":%u", a->qkey);
    if (mask & IBV_QP_AV) {
        const struct ibv_ah_attr *ah = &a->ah_attr;
        jb_add(&j, ",\"ah\":{\"is_global\":%u,\"sgid_index\":%u,\"hop_limit\":%u,\"traffic_class\":%u,"
                   "\"flow_label\":%u,\"sl\":%u,\"static_rate\":%u,\"port_num\":%u,\"dlid\":%u,\"src_path_bits\":%u",
               ah->is_global, ah->grh.sgid_index, ah->grh.hop_limit, ah->grh.traffic_class, ah->grh.flow_label, ah->sl,
               ah->static_rate, ah->port_num, ah->dlid, ah->src_path_bits);
        jb_gid(&j, "dgid", &ah->grh.dgid);
        jb_add(&j, "}");
        jb_path(&j, qp->context, ah);
    }
    if (mask & IBV_QP_PATH_MTU)
        jb_add(&j, ",\"path_mtu\":%d", (int)a->path_mtu);
    if (mask & IBV_QP_TIMEOUT)
        jb_add(&j, ",\"timeout\":%u", a->timeout);
    if (mask & IBV_QP_RETRY_CNT)
        jb_add(&j, ",\"retry_cnt\":%u", a->retry_cnt);
    if (mask & IBV_QP_RNR_RETRY)
        jb_add(&j, ",\"rnr_retry\":%u", a->rnr_retry);
    if (mask & IBV_QP_RQ_PSN)
        jb_add(&j, ",\"rq_psn\":%u", a->rq_psn);
    if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
        jb_add(&j, ",\"max_rd_atomic\":%u", a->max_rd_atomic);
    if (mask & IBV_QP_MIN_RNR_TIMER)
        jb_add(&j, ",\"min_rnr_timer\":%u", a->min_rnr_timer);
    if (mask & IBV_QP_SQ_PSN)
        jb_add(&j, ",\"sq_psn\":%u", a->sq_psn);
    if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
        jb_add(&j, ",\"max_dest_rd_atomic\":%u", a->max_dest_rd_atomic);
    if (mask & IBV_QP_DEST_QPN)
        jb_add(&j, ",\"dest_qp_num\":%u", a->dest_qp_num);
    if (mask & IBV_QP_CAP)
        jb_caps(&j, "cap", &a->cap);
    jb_by(&j, caller);
    return jb_done(&j, ret);
}

EXPORT int ibv_destroy_qp(struct ibv_qp *qp)
{
    REAL(r, ibv_destroy_qp, "IBVERBS_1.1");
    struct jb j;

    jb_begin(&j, "destroy_qp");
    jb_add(&j, ",\"qph\":\"%p\",\"qp\":%u", (void *)qp, qp->qp_num);
    int ret = r(qp);
    return jb_done(&j, ret);
}

EXPORT struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *a)
{
    REAL(r, ibv_create_srq, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_srq_attr asked = a->attr;
    struct ibv_srq *srq = r(pd, a);
    struct jb j;

    jb_begin(&j, "create_srq");
    jb_add(&j, ",\"pd\":\"%p\",\"max_wr_asked\":%u,\"max_sge_asked\":%u", (void *)pd, asked.max_wr, asked.max_sge);
    if (srq)
        jb_add(&j, ",\"srq\":\"%p\",\"max_wr\":%u,\"max_sge\":%u", (void *)srq, a->attr.max_wr, a->attr.max_sge);
    else
        jb_add(&j, ",\"errno\":%d", errno);
    jb_by(&j, caller);
    jb_emit(&j);
    return srq;
}

EXPORT int ibv_destroy_srq(struct ibv_srq *srq)
{
    REAL(r, ibv_destroy_srq, "IBVERBS_1.1");
    struct jb j;

    jb_handle(&j, "destroy_srq", "srq", srq);
    return jb_done(&j, r(srq));
}

EXPORT struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *a)
{
    REAL(r, ibv_create_ah, "IBVERBS_1.1");
    void *caller = __builtin_return_address(0);
    struct ibv_ah *ah = r(pd, a);
    struct jb j;

    jb_begin(&j, "create_ah");
    jb_add(&j, ",\"pd\":\"%p\",\"ctx\":\"%p\",\"ah\":%llu,\"is_global\":%u,\"sgid_index\":%u,\"port_num\":%u",
           (void *)pd, (void *)pd->context, (unsigned long long)(uintptr_t)ah, a->is_global, a->grh.sgid_index,
           a->port_num);
    jb_gid(&j, "dgid", &a->grh.dgid);
    jb_path(&j, pd->context, a);
    if (!ah)
        jb_add(&j, ",\"errno\":%d", errno);
    jb_by(&j, caller);
    jb_emit(&j);
    return ah;
}

EXPORT int ibv_destroy_ah(struct ibv_ah *ah)
{
    REAL(r, ibv_destroy_ah, "IBVERBS_1.1");
    struct jb j;

    jb_begin(&j, "destroy_ah");
    jb_add(&j, ",\"ah\":%llu", (unsigned long long)(uintptr_t)ah);
    int ret = r(ah);
    return jb_done(&j, ret);
}

EXPORT int ibv_get_async_event(struct ibv_context *ctx, struct ibv_async_event *ev)
{
    REAL(r, ibv_get_async_event, "IBVERBS_1.1");
    int ret = r(ctx, ev);
    struct jb j;

    jb_begin(&j, "async_event");
    jb_add(&j, ",\"ctx\":\"%p\"", (void *)ctx);
    if (!ret)
        jb_add(&j, ",\"event\":%d", (int)ev->event_type);
    return jb_done(&j, ret);
}

EXPORT void ibv_ack_async_event(struct ibv_async_event *ev)
{
    REAL(r, ibv_ack_async_event, "IBVERBS_1.1");
    struct jb j;

    jb_begin(&j, "ack_async_event");
    jb_add(&j, ",\"event\":%d", (int)ev->event_type);
    jb_emit(&j);
    r(ev);
}

/* ---------- 进程的结束 ---------- */
__attribute__((destructor)) static void vc_exit(void)
{
    struct jb j;

    /* 只在写过日志的进程里写“exit”（没有做 verbs 调用的进程没有日志） */
    if (log_fd < 0)
        return;
    jb_begin(&j, "exit");
    jb_emit(&j);
}
