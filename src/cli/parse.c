/*
 * parse.c - 命令行解析：两种写法（位置参数、选项）、默认值、非法值、组合检查（纯逻辑，不碰 verbs，可单元测试）。
 *   得到的 struct options 和由它推出的事实在 options.h/.c；--inject 的种类表在 inject_kinds.c
 */
#include "cli/parse.h"
#include "console/i18n.h"
#include "cli/inject_kinds.h"
#include "cli/op_table.h"
#include "cli/ack_timeout.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* 整数：整个字符串必须是十进制数字且在 [lo, hi] 内 */
static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* 大小：数字后可跟 K/M/G（按 1024 进位） */
static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned long long mul = 1;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	default: return -1;
	}
	if (*end != '\0' || v > (ULLONG_MAX >> 30))
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}

static void set_defaults(struct options *o, enum role role)
{
	memset(o, 0, sizeof(*o));
	o->role = role;
	o->tcp_port = DEFAULT_TCP_PORT;
	o->ib_port = DEFAULT_IB_PORT;
	o->gid_idx = GID_AUTO;
	o->num_qp = DEFAULT_NUM_QP;
	o->op = OP_SEND;
	o->size = DEFAULT_SIZE;
	o->iters = 1;
	o->timeout_ms = DEFAULT_TIMEOUT_MS;
	o->accept_timeout_ms = DEFAULT_ACCEPT_MS;
	o->qp_state_detail = 1;
	o->clients = 1;
	o->parallel = 1;
	o->cq = CQ_POLL;
	o->signal_every = 0;            /* 0 = 没给 --signal，check_knobs 按模式定 */
	o->post_list = 1;
	o->ack_timeout = ACK_TIMEOUT_DEFAULT;
}

enum {
	OPT_OP = 1000, OPT_SIZE, OPT_ITERS, OPT_OFFSET, OPT_INTERACTIVE,
	OPT_ACCEPT_TIMEOUT, OPT_QP_STATE, OPT_DRY_RUN, OPT_INJECT, OPT_CLIENTS, OPT_PARALLEL,
	OPT_TRACE, OPT_CM, OPT_SRC, OPT_READY_FILE, OPT_LANG,
	OPT_CQ, OPT_BENCH, OPT_SWEEP, OPT_TX_DEPTH, OPT_SIGNAL, OPT_POST_LIST, OPT_INLINE, OPT_QP, OPT_SRQ, OPT_COUNTERS,
	OPT_ACK_TIMEOUT
};

static const struct option long_opts[] = {
	{ "dev", required_argument, NULL, 'd' },
	{ "port", required_argument, NULL, 'p' },
	{ "gid-idx", required_argument, NULL, 'g' },
	{ "num-qp", required_argument, NULL, 'q' },
	{ "ib-port", required_argument, NULL, 'i' },
	{ "timeout", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ "op", required_argument, NULL, OPT_OP },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "iters", required_argument, NULL, OPT_ITERS },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "interactive", no_argument, NULL, OPT_INTERACTIVE },
	{ "accept-timeout", required_argument, NULL, OPT_ACCEPT_TIMEOUT },
	{ "qp-state", required_argument, NULL, OPT_QP_STATE },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "clients", required_argument, NULL, OPT_CLIENTS },
	{ "parallel", required_argument, NULL, OPT_PARALLEL },
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "ready-file", required_argument, NULL, OPT_READY_FILE },
	{ "lang", required_argument, NULL, OPT_LANG },
	{ "cm", no_argument, NULL, OPT_CM },
	{ "src", required_argument, NULL, OPT_SRC },
	{ "cq", required_argument, NULL, OPT_CQ },
	{ "qp", required_argument, NULL, OPT_QP },
	{ "srq", no_argument, NULL, OPT_SRQ },
	{ "counters", no_argument, NULL, OPT_COUNTERS },
	{ "ack-timeout", required_argument, NULL, OPT_ACK_TIMEOUT },
	{ "bench", required_argument, NULL, OPT_BENCH },
	{ "sweep", no_argument, NULL, OPT_SWEEP },
	{ "tx-depth", required_argument, NULL, OPT_TX_DEPTH },
	{ "signal", required_argument, NULL, OPT_SIGNAL },
	{ "post-list", required_argument, NULL, OPT_POST_LIST },
	{ "inline", required_argument, NULL, OPT_INLINE },
	{ NULL, 0, NULL, 0 }
};

/* 位置参数与选项共用的几个字段：同一值被给两次且不同则报错 */
struct dual {
	const char *dev;
	const char *port;
	const char *gid;
	const char *nqp;
};

static int merge(const char **slot, const char *val, const char *what,
		 char *err, size_t errlen)
{
	if (*slot != NULL && strcmp(*slot, val) != 0) {
		set_err(err, errlen, _("%s 被指定了两次且不一致（'%s' 与 '%s'）"),
			what, *slot, val);
		return -1;
	}
	*slot = val;
	return 0;
}

static int apply_dual(struct options *o, const struct dual *d,
		      char *err, size_t errlen)
{
	long v;

	if (d->dev != NULL) {
		if (d->dev[0] == '\0' || strlen(d->dev) >= 64) {
			set_err(err, errlen, _("设备名无效: '%s'"), d->dev);
			return -1;
		}
		o->dev_name = d->dev;
	}
	if (d->port != NULL) {
		if (parse_long(d->port, 1, 65535, &v) != 0) {
			set_err(err, errlen, _("TCP端口无效: '%s'（应为 1..65535）"), d->port);
			return -1;
		}
		o->tcp_port = (int)v;
	}
	if (d->gid != NULL) {
		if (strcmp(d->gid, "auto") == 0) {
			o->gid_idx = GID_AUTO;
		} else if (parse_long(d->gid, 0, UINT8_MAX, &v) != 0) {
			/* ibv_global_route 的 sgid_index 是 uint8_t：256 会被截成 0，悄悄用错 GID */
			set_err(err, errlen, _("GID索引无效: '%s'（应为 0..255 或 auto：QP 的 sgid_index 只有 8 位）"), d->gid);
			return -1;
		} else {
			o->gid_idx = (int)v;
		}
	}
	if (d->nqp != NULL) {
		if (parse_long(d->nqp, 1, MAX_QP, &v) != 0) {
			set_err(err, errlen, _("QP数量无效: '%s'（应为 1..%d）"), d->nqp, MAX_QP);
			return -1;
		}
		o->num_qp = (int)v;
		o->num_qp_given = 1;
	}
	return 0;
}

/* --clients N（0 = 直到 SIGINT/SIGTERM）/ --parallel M：只用于服务端 */
static int parse_server_count(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	const char *name = c == OPT_CLIENTS ? "--clients" : "--parallel";
	long v;

	if (o->role != ROLE_SERVER) {
		set_err(err, errlen, _("%s 只用于服务端（它决定服务端接待几个客户端）"), name);
		return -1;
	}
	if (c == OPT_CLIENTS) {
		if (parse_long(arg, 0, MAX_CLIENTS, &v) != 0) {
			set_err(err, errlen, _("--clients 无效: '%s'（0..%d，0 = 一直服务到 Ctrl-C）"), arg, MAX_CLIENTS);
			return -1;
		}
		o->clients = v;
		return 0;
	}
	if (parse_long(arg, 1, MAX_PARALLEL, &v) != 0) {
		set_err(err, errlen, _("--parallel 无效: '%s'（1..%d）"), arg, MAX_PARALLEL);
		return -1;
	}
	o->parallel = (int)v;
	return 0;
}

/* --cq / --bench 与基准测试的几个旋钮（knob）；没给的旋钮在 check_bench 里按模式取默认值 */
static int parse_bench_opt(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;

	switch (c) {
	case OPT_CQ:
		if (strcmp(arg, "poll") != 0 && strcmp(arg, "event") != 0) {
			set_err(err, errlen, _("--cq 无效: '%s'（可选 poll、event）"), arg);
			return -1;
		}
		o->cq = strcmp(arg, "event") == 0 ? CQ_EVENT : CQ_POLL;
		return 0;
	case OPT_BENCH:
		if (strcmp(arg, "lat") != 0 && strcmp(arg, "bw") != 0) {
			set_err(err, errlen, _("--bench 无效: '%s'（可选 lat、bw）"), arg);
			return -1;
		}
		o->bench = strcmp(arg, "lat") == 0 ? BENCH_LAT : BENCH_BW;
		return 0;
	case OPT_SWEEP:
		o->sweep = 1;
		return 0;
	case OPT_INLINE:
		if (parse_long(arg, 0, MAX_INLINE, &v) != 0) {
			set_err(err, errlen, _("--inline 无效: '%s'（字节，0..%d）"), arg, MAX_INLINE);
			return -1;
		}
		o->inline_size = (uint32_t)v;
		return 0;
	default:
		break;
	}
	if (c == OPT_POST_LIST && parse_long(arg, 1, MAX_POST_LIST, &v) != 0) {
		set_err(err, errlen, _("--post-list 无效: '%s'（1..%d：一次 ibv_post_send 最多投递 %d 个 WR）"),
			arg, MAX_POST_LIST, MAX_POST_LIST);
		return -1;
	}
	if (parse_long(arg, 1, MAX_QUEUE_DEPTH, &v) != 0) {
		set_err(err, errlen, _("%s 无效: '%s'（1..%d）"), c == OPT_TX_DEPTH ? "--tx-depth" :
			c == OPT_SIGNAL ? "--signal" : "--post-list", arg, MAX_QUEUE_DEPTH);
		return -1;
	}
	if (c == OPT_TX_DEPTH)
		o->tx_depth = (int)v;
	else if (c == OPT_SIGNAL)
		o->signal_every = (int)v;
	else
		o->post_list = (int)v;
	return 0;
}

/*
 * --qp ud、--srq 和别的选项：UD 只有 SEND（没有连接，对端的内存不能被远程读写），一条消息一个包（不分段）；
 * 两者都还没接到 --cm、--clients 上（docs/QP-TYPES.md 说了为什么）；都可以配 --bench lat|bw（对照 perftest -c UD / --use-srq）
 */
static int check_qp_kind(const struct options *o, char *err, size_t errlen)
{
	const char *what = o->qp_type == QPK_UD ? "--qp ud" : "--srq";

	if (o->qp_type != QPK_UD && !o->srq)
		return 0;
	if (o->qp_type == QPK_UD && o->ack_timeout_given) {
		set_err(err, errlen, _("--ack-timeout 只用于 RC：UD 没有应答，也就没有等应答的超时和重传"));
		return -1;
	}
	if (o->qp_type == QPK_UD && o->srq) {
		set_err(err, errlen, _("--srq 现在只用于 RC（--qp rc）：UD 的接收本来就不属于哪条连接，SRQ 对它的意义不同"));
		return -1;
	}
	if (o->interactive) {
		set_err(err, errlen, _("%s 不能与 --interactive 同用（交互模式用 RDMA WRITE + READ，只在 RC 上有）"), what);
		return -1;
	}
	if (o->op != OP_SEND) {
		set_err(err, errlen, o->qp_type == QPK_UD ?
			_("--qp ud 只支持 --op send：UD 没有连接，对端的内存不能被远程读写（单边和原子操作只在 RC 上有）") :
			_("--srq 现在只配 --op send（SRQ 装的是接收请求，只有 SEND 和 WRITE_IMM 消耗它；本程序只做了 send）"));
		return -1;
	}
	if (o->qp_type == QPK_UD && o->size > UD_MAX_MSG) {
		set_err(err, errlen, _("--qp ud 的消息最多 4096 字节（最大的路径MTU）：UD 不分段，一条消息就是一个包；"
			"真正的上限是两端的路径MTU，握手后还会再检查"));
		return -1;
	}
	if (o->cm || multi_client(o)) {
		set_err(err, errlen, _("%s 还不能与 %s 同用（docs/QP-TYPES.md）"), what, o->cm ? "--cm" : "--clients/--parallel");
		return -1;
	}
	if (o->inject != INJECT_NONE && o->inject != INJECT_LATE_RECV && o->inject != INJECT_PAYLOAD) {
		set_err(err, errlen, _("%s 只配 --inject late-recv 或 payload"), what);
		return -1;
	}
	return 0;
}

/* --ack-timeout N：RTS 的 timeout 指数，只管本端（cli/ack_timeout.h） */
static int parse_ack_timeout(const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;

	if (parse_long(arg, 0, ACK_TIMEOUT_MAX, &v) != 0) {
		set_err(err, errlen, _("--ack-timeout 无效: '%s'（0..%d：等应答 4.096us×2^N，0 = 不用定时器）"), arg, ACK_TIMEOUT_MAX);
		return -1;
	}
	o->ack_timeout = (int)v;
	o->ack_timeout_given = 1;
	return 0;
}

/* 数值：-i、-t、--accept-timeout、--iters、--offset、--qp-state */
static int parse_number_opt(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;

	switch (c) {
	case 'i':
		if (parse_long(arg, 1, 255, &v) != 0) {
			set_err(err, errlen, _("IB端口号无效: '%s'（应为 1..255，通常是 1）"), arg);
			return -1;
		}
		o->ib_port = (int)v;
		return 0;
	case 't':
		if (parse_long(arg, 1, 3600, &v) != 0) {
			set_err(err, errlen, _("超时无效: '%s'（秒，1..3600）"), arg);
			return -1;
		}
		o->timeout_ms = (int)v * 1000;
		return 0;
	case OPT_ACCEPT_TIMEOUT:
		if (o->role != ROLE_SERVER) {
			set_err(err, errlen, _("--accept-timeout 只用于服务端（客户端连接服务端的超时用 -t）"));
			return -1;
		}
		if (parse_long(arg, 1, 86400, &v) != 0) {
			set_err(err, errlen, _("等待连接超时无效: '%s'（秒，1..86400）"), arg);
			return -1;
		}
		o->accept_timeout_ms = (int)v * 1000;
		return 0;
	case OPT_ITERS:
		if (parse_long(arg, 1, MAX_ITERS, &v) != 0) {
			set_err(err, errlen, _("轮数无效: '%s'（应为 1..%d）"), arg, MAX_ITERS);
			return -1;
		}
		o->iters = v;
		o->iters_given = 1;
		return 0;
	case OPT_OFFSET:
		if (parse_long(arg, 0, ATOMIC_SLOT - 8, &v) != 0) {
			set_err(err, errlen, _("偏移无效: '%s'（应为 0..%d 且是 8 的倍数）"), arg, ATOMIC_SLOT - 8);
			return -1;
		}
		o->offset = (uint32_t)v;
		o->offset_given = 1;
		return 0;
	case OPT_QP_STATE:
		if (strcmp(arg, "all") == 0) {
			o->qp_state_detail = -1;
		} else if (parse_long(arg, 0, MAX_QP, &v) != 0) {
			set_err(err, errlen, _("--qp-state 无效: '%s'（0..%d 或 all）"), arg, MAX_QP);
			return -1;
		} else {
			o->qp_state_detail = (int)v;
		}
		return 0;
	}
	return -1;
}

/* 做什么：--op、--size、--qp */
static int parse_data_opt(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	switch (c) {
	case OPT_OP:
		if (op_from_name(arg, &o->op) != 0) {
			set_err(err, errlen, _("未知操作: '%s'（可选: send write read write_imm fetch_add cmp_swap）"), arg);
			return -1;
		}
		o->op_given = 1;
		return 0;
	case OPT_SIZE:
		if (parse_size(arg, &o->size) != 0 || o->size == 0) {
			set_err(err, errlen, _("消息大小无效: '%s'（字节数 ≥1，可带 K/M 后缀）"), arg);
			return -1;
		}
		if (o->size > MAX_SIZE) {
			set_err(err, errlen, _("消息大小 %s 太大：每个QP最多 %u MiB"), arg, MAX_SIZE >> 20);
			return -1;
		}
		o->size_given = 1;
		return 0;
	case OPT_QP:
		if (strcmp(arg, "rc") != 0 && strcmp(arg, "ud") != 0) {
			set_err(err, errlen, _("--qp 无效: '%s'（可选 rc、ud）"), arg);
			return -1;
		}
		o->qp_type = strcmp(arg, "ud") == 0 ? QPK_UD : QPK_RC;
		return 0;
	}
	return -1;
}

/* 文件名和语言：--trace、--ready-file、--lang */
static int parse_text_opt(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	switch (c) {
	case OPT_TRACE:
		if (arg[0] == '\0') {
			set_err(err, errlen, _("--trace 需要一个文件名"));
			return -1;
		}
		o->trace_path = arg;
		return 0;
	case OPT_READY_FILE:
		if (o->role != ROLE_SERVER || arg[0] == '\0') {
			set_err(err, errlen, _("--ready-file 只用于服务端，需要一个文件名"));
			return -1;
		}
		o->ready_file = arg;
		return 0;
	case OPT_LANG:
		/* 语言在解析参数之前已由 i18n_init 定好（参数错误的消息也要用它），这里只检查写得对不对 */
		if (i18n_lang_parse(arg) < 0) {
			set_err(err, errlen, _("--lang 无效: '%s'（可选 zh、en）"), arg);
			return -1;
		}
		return 0;
	}
	return -1;
}

static int parse_one(int c, const char *arg, struct options *o, struct dual *d,
		     char *err, size_t errlen)
{
	switch (c) {
	case 'd': return merge(&d->dev, arg, _("设备名"), err, errlen);
	case 'p': return merge(&d->port, arg, _("TCP端口"), err, errlen);
	case 'g': return merge(&d->gid, arg, _("GID索引"), err, errlen);
	case 'q': return merge(&d->nqp, arg, _("QP数量"), err, errlen);
	case 'i': case 't': case OPT_ACCEPT_TIMEOUT: case OPT_ITERS: case OPT_OFFSET: case OPT_QP_STATE:
		return parse_number_opt(c, arg, o, err, errlen);
	case OPT_OP: case OPT_SIZE: case OPT_QP:
		return parse_data_opt(c, arg, o, err, errlen);
	case OPT_TRACE: case OPT_READY_FILE: case OPT_LANG:
		return parse_text_opt(c, arg, o, err, errlen);
	case OPT_INTERACTIVE:
		o->interactive = 1;
		return 0;
	case OPT_DRY_RUN:
		o->dry_run = 1;
		return 0;
	case OPT_CM:
		o->cm = 1;
		return 0;
	case OPT_SRC:
		o->src_addr = arg;
		return 0;
	case OPT_SRQ:
		o->srq = 1;
		return 0;
	case OPT_COUNTERS:
		o->counters = 1;
		return 0;
	case OPT_ACK_TIMEOUT:
		return parse_ack_timeout(arg, o, err, errlen);
	case OPT_INJECT:
		return inject_parse(arg, o, err, errlen);
	case OPT_CLIENTS:
	case OPT_PARALLEL:
		return parse_server_count(c, arg, o, err, errlen);
	case OPT_CQ: case OPT_BENCH: case OPT_SWEEP: case OPT_TX_DEPTH:
	case OPT_SIGNAL: case OPT_POST_LIST: case OPT_INLINE:
		return parse_bench_opt(c, arg, o, err, errlen);
	default:
		set_err(err, errlen, _("未知选项（用 -h 查看用法）"));
		return -1;
	}
}

static int parse_positionals(int n, char **pos, struct options *o,
			     struct dual *d, char *err, size_t errlen)
{
	const char *const names[] = { _("设备名"), _("TCP端口"), _("GID索引"), _("QP数量") };
	const char **slots[] = { &d->dev, &d->port, &d->gid, &d->nqp };
	int first = 0;

	if (o->role == ROLE_CLIENT) {
		if (n < 1) {
			set_err(err, errlen, _("缺少服务端IP地址（用法: rdma_client <server_ip> [dev] [port] [gid_idx] [num_qp]）"));
			return -1;
		}
		o->server_ip = pos[0];
		first = 1;
	}
	if (n - first > 4) {
		set_err(err, errlen, _("位置参数太多: '%s'"), pos[first + 4]);
		return -1;
	}
	for (int i = first; i < n; i++) {
		if (merge(slots[i - first], pos[i], names[i - first], err, errlen) != 0)
			return -1;
	}
	return 0;
}

/*
 * --cm 下 -d/-g/--src 的含义：librdmacm 按“地址”选设备和 GID（见 cm_control.c），
 *   --src IP   客户端的源地址 / 服务端监听的地址，它在哪个 RDMA 设备的 GID 表里，就用哪个设备；
 *   -d DEV     简写：用 DEV 端口上 RoCE v2 IPv4 GID 的地址当 --src；
 *   -g         不能用：GID 由 CM 按地址选（rdma_init_qp_attr 给出 sgid_index）。
 */
static int check_cm(const struct options *o, char *err, size_t errlen)
{
	if (!o->cm) {
		if (o->src_addr != NULL) {
			set_err(err, errlen, _("--src 只和 --cm 一起用（TCP 模式用 -d/-g 选设备和 GID）"));
			return -1;
		}
		return 0;
	}
	if (o->gid_idx != GID_AUTO) {
		set_err(err, errlen, _("--cm 下不能指定 -g：CM 按地址选 GID（用 --src IP 或 -d DEV 指定本端地址）"));
		return -1;
	}
	if (o->dev_name != NULL && o->src_addr != NULL) {
		set_err(err, errlen, _("--cm 下 -d 和 --src 只能给一个（-d DEV 就是“用 DEV 的 IPv4 地址当 --src”）"));
		return -1;
	}
	if (multi_client(o)) {
		set_err(err, errlen, _("--cm 暂时一次只服务一个客户端，不能与 --clients/--parallel 同用"));
		return -1;
	}
	return 0;
}

/* 旋钮只在 --bench 里有意义；没给的按模式取默认值 */
static int check_knobs(struct options *o, char *err, size_t errlen)
{
	if (o->bench == BENCH_NONE) {
		if (o->sweep || o->tx_depth != 0 || o->signal_every != 0 || o->post_list != 1 || o->inline_size != 0) {
			set_err(err, errlen, _("--sweep/--tx-depth/--signal/--post-list/--inline 是基准测试的旋钮，要配合 --bench lat|bw"));
			return -1;
		}
		o->signal_every = 1;
		return 0;
	}
	if (o->tx_depth == 0)
		o->tx_depth = o->bench == BENCH_BW ? BENCH_BW_DEPTH : BENCH_LAT_DEPTH;
	/*
	 * 没给 --signal：带宽每 16 个 WR 要一个完成（队列比 16 浅时每个都要）；延迟每次都要，和 perftest 一样
	 * （ib_*_lat 的 tx_depth 是 1，它把 cq_mod 夹到 tx_depth，所以每个 SEND/WRITE 都要完成）。明确给的值照办
	 */
	if (o->signal_every == 0)
		o->signal_every = o->bench == BENCH_BW && o->tx_depth >= BENCH_SIGNAL_EVERY ? BENCH_SIGNAL_EVERY : 1;
	if (o->signal_every > o->tx_depth || o->post_list > o->tx_depth) {
		set_err(err, errlen, _("--signal %d / --post-list %d 不能大于 --tx-depth %d（发送队列装不下）"),
			o->signal_every, o->post_list, o->tx_depth);
		return -1;
	}
	if (o->bench == BENCH_LAT && o->post_list != 1) {
		set_err(err, errlen, _("--post-list 只用于 --bench bw（延迟乒乓每次只有一个 WR 在途）"));
		return -1;
	}
	return 0;
}

/*
 * 基准测试里唯一的故障注入：服务端 --qp ud --bench bw --inject late-recv（晚 200 毫秒才投递接收），
 * 让 UD 丢包真的发生、被服务端数出来（RC 有 RNR 重发，这样做只会变慢，所以只给 UD）
 */
static int bench_inject_ok(const struct options *o)
{
	return o->inject == INJECT_NONE ||
	       (o->inject == INJECT_LATE_RECV && o->qp_type == QPK_UD && o->bench == BENCH_BW);
}

/* --bench：只支持 send/write/read，一个客户端，不能和交互模式、故障注入（除了上面那一种）同用 */
static int check_bench(struct options *o, char *err, size_t errlen)
{
	if (o->bench == BENCH_NONE)
		return check_knobs(o, err, errlen);
	if (o->interactive || !bench_inject_ok(o) || multi_client(o)) {
		set_err(err, errlen, _("--bench 不能与 --interactive/--inject/--clients/--parallel 同用（基准测试只量数据面）"));
		return -1;
	}
	if (!op_info(o->op)->bench) {
		set_err(err, errlen, _("--bench 支持 --op send/write/read/write_imm，不支持 %s"), op_name(o->op));
		return -1;
	}
	if (o->sweep && o->size_given) {
		set_err(err, errlen, _("--sweep 自己从 2 B 扫到 8 MiB，不能再给 --size"));
		return -1;
	}
	if (!o->iters_given)
		o->iters = BENCH_DEFAULT_ITERS;
	return check_knobs(o, err, errlen);
}

/* 组合检查：只有所有参数都读完后才能判断 */
static int check_combination(struct options *o, char *err, size_t errlen)
{
	if (check_bench(o, err, errlen) != 0)
		return -1;
	if (o->interactive) {
		if (!op_info(o->op)->interactive) {
			set_err(err, errlen, _("--interactive 使用 RDMA WRITE + READ，不能与 --op %s 同用"), op_name(o->op));
			return -1;
		}
		o->op = OP_WRITE;
		if (!o->size_given)
			o->size = INTERACTIVE_SIZE;
		if (o->size < 16) {
			set_err(err, errlen, _("--interactive 需要 --size ≥ 16"));
			return -1;
		}
	}
	if (op_is_atomic(o->op)) {
		if (o->size_given && o->size != 8) {
			set_err(err, errlen, _("原子操作固定作用于 8 字节，不能指定 --size %zu"), o->size);
			return -1;
		}
		if (o->offset % 8 != 0 || o->offset + 8 > ATOMIC_SLOT) {
			set_err(err, errlen, _("原子操作目标未按 8 字节对齐: --offset %u（应为 0,8,...,%d）"),
				o->offset, ATOMIC_SLOT - 8);
			return -1;
		}
		o->size = 8;
	} else if (o->offset != 0) {
		set_err(err, errlen, _("--offset 只用于原子操作（fetch_add / cmp_swap）"));
		return -1;
	}
	if (check_cm(o, err, errlen) != 0)
		return -1;
	if (o->interactive && multi_client(o)) {
		set_err(err, errlen, _("--interactive 一次只服务一个客户端，不能与 --clients/--parallel 同用"));
		return -1;
	}
	if (inject_check(o, err, errlen) != 0 || check_qp_kind(o, err, errlen) != 0)
		return -1;
	return 0;
}

enum parse_result parse_options(int argc, char **argv, enum role role,
				struct options *o, char *err, size_t errlen)
{
	struct dual d = { NULL, NULL, NULL, NULL };
	int c;

	set_defaults(o, role);
	err[0] = '\0';
	optind = 0;     /* GNU getopt：0 表示重新初始化（便于单元测试多次调用） */
	opterr = 0;     /* 错误信息由我们自己用中文给出 */
	while ((c = getopt_long(argc, argv, ":d:p:g:q:i:t:h", long_opts, NULL)) != -1) {
		if (c == 'h')
			return PARSE_HELP;
		if (c == '?') {
			set_err(err, errlen, _("未知选项: '%s'（用 -h 查看用法）"), argv[optind - 1]);
			return PARSE_ERROR;
		}
		if (c == ':') {
			set_err(err, errlen, _("选项 '%s' 缺少参数值"), argv[optind - 1]);
			return PARSE_ERROR;
		}
		if (parse_one(c, optarg, o, &d, err, errlen) != 0)
			return PARSE_ERROR;
	}
	if (parse_positionals(argc - optind, argv + optind, o, &d, err, errlen) != 0)
		return PARSE_ERROR;
	if (apply_dual(o, &d, err, errlen) != 0)
		return PARSE_ERROR;
	if (check_combination(o, err, errlen) != 0)
		return PARSE_ERROR;
	return PARSE_OK;
}
