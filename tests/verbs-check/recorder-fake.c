/* tests/verbs-check/recorder-fake.c - 主机上（没有 RDMA）检查记录器收发路上的记录：把 recorder.c 整个包含进来，
 * 给它一个假的驱动函数表（假的 post_send/post_recv/post_srq_recv/poll_cq），经过它的包装投递和 poll，
 * 再在标准输出上写出每条记录应当是什么样（这里自己按给出的 WR 和完成写，不用记录器的代码）。
 * tests/verbs-check/recorder-fake.py 把日志和这些期望逐条对照：一条不少、先后不变、字段一样。
 *   recorder-fake            收发 1500 轮（超过记录器的数组，中间夹着别的记录、失败的 WR、出错的完成）
 *   recorder-fake live       只投两条：第二条在半秒以后；打印这时日志文件里已经有几行（-v 时要看得见） */
#include "../../tools/verbs-check/recorder.c"

static long expect_seq; /* 下一条记录的 seq：和记录器一样从 0 起，每条记录加一 */

/* 记录器只读不改：程序的 WR（和它指向的 SGE）调用之后要和调用之前一样，程序拿到的完成要和驱动给的一样 */
static void must_be_unchanged(const void *before, const void *after, size_t n, const char *what, int it)
{
    if (memcmp(before, after, n) != 0) {
        fprintf(stderr, "recorder-fake: round %d: the %s the program gets back differs from what it gave / the driver "
                        "gave (the recorder must not change what it forwards)\n", it, what);
        exit(1);
    }
}

/* 假的驱动：第 fail_at 条 WR 失败（-1：都成功） */
static int fail_at = -1;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
    int k = 0;

    (void)qp;
    for (struct ibv_send_wr *w = wr; w; w = w->next, k++)
        if (k == fail_at) {
            *bad = w;
            return ENOMEM;
        }
    return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
    int k = 0;

    (void)qp;
    for (struct ibv_recv_wr *w = wr; w; w = w->next, k++)
        if (k == fail_at) {
            *bad = w;
            return EINVAL;
        }
    return 0;
}

static int fake_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
    return fake_post_recv((struct ibv_qp *)srq, wr, bad);
}

/* 假的 poll 最后一次给出的完成：包装交给程序的要和它一样 */
static struct ibv_wc polled[4];

/* poll：第 it 轮给出的完成（0 个、-1、或者 1–3 个；第 700、1400 轮第一个是出错的）。出错的和失败的只在少数几轮：
 * 它们让攒着的马上写出，前 700 轮里记录器的数组（1024 条）要满好几次 */
static int poll_round;

static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
    int it = poll_round, m = 1 + it % 3;

    (void)cq;
    if (it % 5 == 2)
        return 0;
    if (it == 900) {
        errno = EAGAIN;
        return -1;
    }
    for (int i = 0; i < m && i < n; i++) {
        memset(&wc[i], 0, sizeof(wc[i]));
        wc[i].wr_id = (uint64_t)it * 10 + (uint64_t)i;
        wc[i].status = (it == 700 || it == 1400) && i == 0 ? IBV_WC_REM_ACCESS_ERR : IBV_WC_SUCCESS;
        wc[i].vendor_err = wc[i].status ? 0x81 : 0;
        wc[i].qp_num = 17;
        wc[i].opcode = i ? IBV_WC_RECV : IBV_WC_SEND;
        wc[i].byte_len = 64u + (unsigned)it;
        wc[i].src_qp = 3;
        wc[i].wc_flags = (unsigned)i;
        polled[i] = wc[i];
    }
    return m < n ? m : n;
}

static struct ibv_context ctx;
static struct ibv_qp qp_rc, qp_ud;
static struct ibv_srq srq;
static struct ibv_cq cq;
static struct ibv_sge sges[10];

/* ---------- 期望：每条记录一行 JSON，这里自己写 ---------- */
static void expect_sges(const struct ibv_sge *sg, int num)
{
    if (num <= 0 || !sg)
        return;
    printf(",\"sge\":[");
    for (int i = 0; i < num && i < 8; i++)
        printf("%s[%llu,%u,%u]", i ? "," : "", (unsigned long long)sg[i].addr, sg[i].length, sg[i].lkey);
    printf("]");
}

static void expect_send(const struct ibv_qp *qp, const struct ibv_send_wr *w, int ret)
{
    printf("{\"t\":\"post_send\",\"seq\":%ld,\"qph\":\"%p\",\"qp\":%u,\"wr_id\":%llu,\"opcode\":%d,\"flags\":%u,"
           "\"num_sge\":%d",
           expect_seq++, (const void *)qp, qp->qp_num, (unsigned long long)w->wr_id, (int)w->opcode, w->send_flags,
           w->num_sge);
    expect_sges(w->sg_list, w->num_sge);
    if (w->opcode == IBV_WR_RDMA_WRITE || w->opcode == IBV_WR_RDMA_READ)
        printf(",\"raddr\":%llu,\"rkey\":%u", (unsigned long long)w->wr.rdma.remote_addr, w->wr.rdma.rkey);
    if (w->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
        printf(",\"raddr\":%llu,\"rkey\":%u", (unsigned long long)w->wr.atomic.remote_addr, w->wr.atomic.rkey);
    if (qp->qp_type == IBV_QPT_UD)
        printf(",\"ah\":%llu,\"remote_qpn\":%u,\"remote_qkey\":%u", (unsigned long long)(uintptr_t)w->wr.ud.ah,
               w->wr.ud.remote_qpn, w->wr.ud.remote_qkey);
    if (ret)
        printf(",\"ret\":%d,\"errno\":%d", ret, ret);
    printf("}\n");
}

static void expect_recv(const char *t, const char *key, const void *o, const struct ibv_recv_wr *w, int ret)
{
    printf("{\"t\":\"%s\",\"seq\":%ld,\"%s\":\"%p\",\"wr_id\":%llu,\"num_sge\":%d", t, expect_seq++, key, o,
           (unsigned long long)w->wr_id, w->num_sge);
    expect_sges(w->sg_list, w->num_sge);
    if (ret)
        printf(",\"ret\":%d,\"errno\":%d", ret, ret);
    printf("}\n");
}

static void expect_wc(const struct ibv_wc *wc)
{
    printf("{\"t\":\"wc\",\"seq\":%ld,\"cq\":\"%p\",\"wr_id\":%llu,\"status\":%d,\"qp\":%u,\"vendor_err\":%u",
           expect_seq++, (void *)&cq, (unsigned long long)wc->wr_id, (int)wc->status, wc->qp_num, wc->vendor_err);
    if (wc->status == IBV_WC_SUCCESS)
        printf(",\"opcode\":%d,\"byte_len\":%u,\"src_qp\":%u,\"wc_flags\":%u", (int)wc->opcode, wc->byte_len,
               wc->src_qp, wc->wc_flags);
    printf("}\n");
}

/* ---------- 一轮：一串发送、一串接收、有时一串 SRQ 接收、一次 poll、有时一条别的记录 ---------- */
static void one_round(int it)
{
    static const int ops[] = { IBV_WR_SEND, IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_FETCH_AND_ADD };
    struct ibv_send_wr w[3], *bad = NULL;
    struct ibv_recv_wr r[3], *rbad = NULL;
    struct ibv_qp *qp = it % 5 == 4 ? &qp_ud : &qp_rc;
    struct ibv_wc wc[4];
    int chain = 1 + it % 3, ret;

    memset(w, 0, sizeof(w));
    memset(r, 0, sizeof(r));
    for (int k = 0; k < chain; k++) {
        w[k].wr_id = (uint64_t)it * 100 + (uint64_t)k;
        w[k].opcode = ops[(it + k) % 4];
        w[k].send_flags = (unsigned)(it % 16);
        w[k].num_sge = (it + k) % 13 == 12 ? 10 : (it + k) % 4; /* 10 条 SGE：只记前 8 条 */
        w[k].sg_list = it % 29 == 5 ? NULL : sges;
        if (w[k].opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
            w[k].wr.atomic.remote_addr = 0xa0000000u + (unsigned)it;
            w[k].wr.atomic.rkey = 55;
        } else if (qp == &qp_ud) {
            w[k].wr.ud.ah = (struct ibv_ah *)(uintptr_t)0x4242;
            w[k].wr.ud.remote_qpn = 99;
            w[k].wr.ud.remote_qkey = 0x11111111;
        } else {
            w[k].wr.rdma.remote_addr = 0xb0000000u + (unsigned)it;
            w[k].wr.rdma.rkey = 66;
        }
        w[k].next = k + 1 < chain ? &w[k + 1] : NULL;
        r[k].wr_id = (uint64_t)it * 1000 + (uint64_t)k;
        r[k].num_sge = (it + k) % 3;
        r[k].sg_list = sges;
        r[k].next = k + 1 < chain ? &r[k + 1] : NULL;
    }
    struct ibv_send_wr w_before[3];
    struct ibv_recv_wr r_before[3];
    struct ibv_sge sges_before[10];
    memcpy(w_before, w, sizeof(w));
    memcpy(r_before, r, sizeof(r));
    memcpy(sges_before, sges, sizeof(sges));
    fail_at = it >= 1099 && it <= 1101 ? chain - 1 : -1; /* 三轮里一串的最后一条失败（1099 轮也投 SRQ） */
    ret = ctx.ops.post_send(qp, w, &bad);
    must_be_unchanged(w_before, w, sizeof(w), "send WR", it);
    for (int k = 0; k < chain; k++)
        expect_send(qp, &w[k], k == fail_at ? ret : 0);
    ret = ctx.ops.post_recv(&qp_rc, r, &rbad);
    must_be_unchanged(r_before, r, sizeof(r), "receive WR", it);
    for (int k = 0; k < chain; k++)
        expect_recv("post_recv", "qph", &qp_rc, &r[k], k == fail_at ? ret : 0);
    if (it % 7 == 0) {
        ret = ctx.ops.post_srq_recv(&srq, r, &rbad);
        must_be_unchanged(r_before, r, sizeof(r), "SRQ receive WR", it);
        for (int k = 0; k < chain; k++)
            expect_recv("post_srq_recv", "srq", &srq, &r[k], k == fail_at ? ret : 0);
    }
    poll_round = it;
    ret = ctx.ops.poll_cq(&cq, 4, wc);
    if (ret > 0)
        must_be_unchanged(polled, wc, (size_t)ret * sizeof(wc[0]), "completion", it);
    must_be_unchanged(sges_before, sges, sizeof(sges), "SGE list", it);
    if (ret < 0)
        printf("{\"t\":\"poll_cq\",\"seq\":%ld,\"cq\":\"%p\",\"ret\":-1,\"errno\":%d}\n", expect_seq++, (void *)&cq,
               EAGAIN);
    for (int i = 0; i < ret; i++)
        expect_wc(&wc[i]);
    if (it == 1250) { /* 一条别的记录（同 ibv_get_cq_event 的包装写的）：攒着的要先写出，日志里的先后不变 */
        struct jb j;
        jb_begin(&j, "get_cq_event");
        jb_add(&j, ",\"cq\":\"%p\"", (void *)&cq);
        jb_done(&j, 0);
        printf("{\"t\":\"get_cq_event\",\"seq\":%ld,\"cq\":\"%p\",\"ret\":0}\n", expect_seq++, (void *)&cq);
    }
}

/* 日志文件里现在有几行（记录器的 log_fd 是只写的：经 /proc/self/fd 另开一次来读） */
static int lines_on_disk(void)
{
    char path[64], b[4096];
    int n = 0, fd;
    ssize_t k;

    snprintf(path, sizeof(path), "/proc/self/fd/%d", log_fd);
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    while ((k = read(fd, b, sizeof(b))) > 0)
        for (ssize_t i = 0; i < k; i++)
            n += b[i] == '\n';
    close(fd);
    return n;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < 10; i++) {
        sges[i].addr = 0x1000u * (unsigned)i + 7;
        sges[i].length = 64u + (unsigned)i;
        sges[i].lkey = 100u + (unsigned)i;
    }
    ctx.ops.post_send = fake_post_send;
    ctx.ops.post_recv = fake_post_recv;
    ctx.ops.post_srq_recv = fake_post_srq_recv;
    ctx.ops.poll_cq = fake_poll_cq;
    hook_context(&ctx); /* ibv_open_device 做的那一步：换上记录器的包装 */
    qp_rc.context = qp_ud.context = srq.context = cq.context = &ctx;
    qp_rc.qp_num = 17;
    qp_rc.qp_type = IBV_QPT_RC;
    qp_ud.qp_num = 18;
    qp_ud.qp_type = IBV_QPT_UD;
    if (argc > 1 && strcmp(argv[1], "live") == 0) {
        struct ibv_recv_wr r = { .wr_id = 1 }, *bad;
        ctx.ops.post_recv(&qp_rc, &r, &bad);
        usleep(600 * 1000);
        ctx.ops.post_recv(&qp_rc, &r, &bad);
        printf("lines_on_disk=%d\n", lines_on_disk());
        return 0;
    }
    for (int it = 0; it < 1500; it++)
        one_round(it);
    printf("{\"t\":\"exit\",\"seq\":%ld}\n", expect_seq++);
    fflush(stdout);
    return 0;
}
