/*
 * wire.c - 控制平面数据格式的编码与校验
 */
#include "control/wire.h"
#include "console/i18n.h"
#include "cli/op_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

const char *gid_kind_name(enum gid_kind kind)
{
	switch (kind) {
	case GID_KIND_IB: return "IB";
	case GID_KIND_ROCE_V1: return "RoCE v1";
	case GID_KIND_ROCE_V2: return "RoCE v2";
	}
	return _("未知");
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)(v >> 16)); put16(p + 2, (uint16_t)v); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)(v >> 32)); put32(p + 4, (uint32_t)v); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static uint32_t get32(const uint8_t *p) { return ((uint32_t)get16(p) << 16) | get16(p + 2); }
static uint64_t get64(const uint8_t *p) { return ((uint64_t)get32(p) << 32) | get32(p + 4); }

const char *wire_strerror(enum wire_status st)
{
	switch (st) {
	case WIRE_OK: return _("正常");
	case WIRE_SHORT: return _("数据不完整（比协议规定的短）");
	case WIRE_BAD_MAGIC: return _("魔数不对：对端不是 RoCEv2 learn 程序（或连错了端口）");
	case WIRE_BAD_VERSION: return _("协议版本不一致：两端请用同一版本编译");
	case WIRE_BAD_NUM_QP: return _("QP数量超出 1..16");
	case WIRE_BAD_OP: return _("未知的操作类型");
	case WIRE_BAD_MTU: return _("MTU 值无效（应为 1..5，即 256..4096 字节）");
	case WIRE_BAD_QPN: return _("QP号或PSN超出24位范围（或QP号为0）");
	case WIRE_BAD_SYNC: return _("同步消息的魔数不对：两端的步骤错位了");
	case WIRE_BAD_FIELD: return _("字段超出范围或互相矛盾");
	case WIRE_RC_PINGPONG:
		return _("对端是 ibv_rc_pingpong（发来的是它的文本握手 LID:QPN:PSN:GID），不是 RoCEv2 learn 程序：它也默认用 TCP 18515，两个程序不能互连；先停掉它，或用 -p 换一个端口");
	}
	return _("未知错误");
}

size_t wire_encode_hello(const struct wire_hello *h, uint8_t *buf, size_t cap)
{
	size_t need = WIRE_HEADER_LEN + (size_t)h->num_qp * WIRE_QP_LEN;

	if (h->num_qp > MAX_QP || cap < need)
		return 0;
	put32(buf, WIRE_MAGIC);
	put16(buf + 4, h->version);
	buf[6] = h->op;
	buf[7] = h->flags;
	put32(buf + 8, h->num_qp);
	put32(buf + 12, h->mtu);
	put32(buf + 16, h->size);
	put32(buf + 20, h->iters);
	put64(buf + 24, h->addr);
	put32(buf + 32, h->rkey);
	put32(buf + 36, h->slot);
	put32(buf + 40, h->offset);
	buf[44] = h->rd_atom;
	buf[45] = h->init_rd_atom;
	buf[46] = h->gid_type;
	buf[47] = 0;
	for (uint32_t i = 0; i < h->num_qp; i++) {
		uint8_t *q = buf + WIRE_HEADER_LEN + i * WIRE_QP_LEN;

		put32(q, h->qp[i].qpn);
		put32(q + 4, h->qp[i].psn);
		put16(q + 8, h->qp[i].lid);
		put16(q + 10, 0);
		memcpy(q + 12, h->qp[i].gid, 16);
	}
	return need;
}

enum wire_status wire_decode_header(const uint8_t *buf, size_t len, struct wire_hello *h)
{
	memset(h, 0, sizeof(*h));
	if (len < WIRE_HEADER_LEN)
		return WIRE_SHORT;
	if (get32(buf) != WIRE_MAGIC)
		return wire_is_rc_pingpong(buf, len) ? WIRE_RC_PINGPONG : WIRE_BAD_MAGIC;
	h->version = get16(buf + 4);
	if (h->version != WIRE_VERSION)
		return WIRE_BAD_VERSION;
	h->op = buf[6];
	h->flags = buf[7];
	h->num_qp = get32(buf + 8);
	h->mtu = get32(buf + 12);
	h->size = get32(buf + 16);
	h->iters = get32(buf + 20);
	h->addr = get64(buf + 24);
	h->rkey = get32(buf + 32);
	h->slot = get32(buf + 36);
	h->offset = get32(buf + 40);
	h->rd_atom = buf[44];
	h->init_rd_atom = buf[45];
	h->gid_type = buf[46];
	if (h->num_qp < 1 || h->num_qp > MAX_QP)
		return WIRE_BAD_NUM_QP;
	if (h->op >= OP_COUNT)
		return WIRE_BAD_OP;
	if (h->mtu < 1 || h->mtu > 5)
		return WIRE_BAD_MTU;
	return WIRE_OK;
}

/* QP 条目：QP号 1..2^24-1，PSN 24 位，保留的 2 字节为 0 */
static enum wire_status decode_qps(const uint8_t *buf, struct wire_hello *h, char *msg, size_t msglen)
{
	for (uint32_t i = 0; i < h->num_qp; i++) {
		const uint8_t *q = buf + i * WIRE_QP_LEN;

		h->qp[i].qpn = get32(q);
		h->qp[i].psn = get32(q + 4);
		h->qp[i].lid = get16(q + 8);
		memcpy(h->qp[i].gid, q + 12, 16);
		if (h->qp[i].qpn == 0 || h->qp[i].qpn > 0xffffff || h->qp[i].psn > 0xffffff) {
			snprintf(msg, msglen, _("QP[%u]: qpn=0x%x psn=0x%x：%s"), i, h->qp[i].qpn, h->qp[i].psn,
				 wire_strerror(WIRE_BAD_QPN));
			return WIRE_BAD_QPN;
		}
		if (get16(q + 10) != 0) {
			snprintf(msg, msglen, _("QP[%u]: 保留字段=0x%04x，应为 0"), i, get16(q + 10));
			return WIRE_BAD_FIELD;
		}
	}
	return WIRE_OK;
}

__attribute__((format(printf, 3, 4)))
static enum wire_status bad(char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
	return WIRE_BAD_FIELD;
}

/* flags：只有定义了的位；几个模式之间不矛盾 */
static enum wire_status check_flags(const struct wire_hello *h, char *msg, size_t msglen)
{
	uint8_t f = h->flags;

	if (f & ~WIRE_FLAG_KNOWN)
		return bad(msg, msglen, _("flags=0x%02x 有没定义的位（已定义的只有 0x%02x）"), f, WIRE_FLAG_KNOWN);
	if ((f & WIRE_FLAG_BENCH_LAT) && (f & WIRE_FLAG_BENCH_BW))
		return bad(msg, msglen, _("flags=0x%02x 同时是 --bench lat 和 --bench bw"), f);
	if ((f & WIRE_FLAG_SWEEP) && !(f & (WIRE_FLAG_BENCH_LAT | WIRE_FLAG_BENCH_BW)))
		return bad(msg, msglen, _("flags=0x%02x 有 --sweep 却没有 --bench"), f);
	if ((f & WIRE_FLAG_INTERACTIVE) && (f & WIRE_FLAG_BENCH_MASK))
		return bad(msg, msglen, _("flags=0x%02x：--interactive 不能和 --bench 同用"), f);
	if ((f & WIRE_FLAG_INTERACTIVE) && h->op != OP_WRITE)
		return bad(msg, msglen, _("op=%s 与 --interactive 不符（交互模式的 op 是 write）"), op_name((enum rdma_op)h->op));
	if ((f & WIRE_FLAG_BENCH_MASK) && !op_info((enum rdma_op)h->op)->bench)
		return bad(msg, msglen, _("op=%s 不能做 --bench"), op_name((enum rdma_op)h->op));
	if ((f & WIRE_FLAG_QP_UD) && (f & WIRE_FLAG_SRQ))
		return bad(msg, msglen, _("flags=0x%02x 同时是 --qp ud 和 --srq（--srq 只用于 RC）"), f);
	if ((f & (WIRE_FLAG_QP_UD | WIRE_FLAG_SRQ)) && (h->op != OP_SEND || (f & WIRE_FLAG_INTERACTIVE)))
		return bad(msg, msglen, _("flags=0x%02x op=%s：--qp ud / --srq 只配 --op send（不是交互模式）"),
			   f, op_name((enum rdma_op)h->op));
	/* 两者都可以做基准测试（像 perftest -c UD / --use-srq） */
	if ((f & WIRE_FLAG_QP_UD) && h->size > UD_MAX_MSG)
		return bad(msg, msglen, _("size=%u：--qp ud 的消息最多 4096 字节（UD 不分段）"), h->size);
	return WIRE_OK;
}

/* size、iters、offset：和命令行的界限一样（options.c） */
static enum wire_status check_sizes(const struct wire_hello *h, char *msg, size_t msglen)
{
	int atomic = op_is_atomic((enum rdma_op)h->op);
	uint32_t min_size = (h->flags & WIRE_FLAG_INTERACTIVE) ? 16 : 1;

	if (h->iters < 1 || h->iters > MAX_ITERS)
		return bad(msg, msglen, _("iters=%u 超出范围（1..%d）"), h->iters, MAX_ITERS);
	if (atomic && h->size != 8)
		return bad(msg, msglen, _("size=%u 不对：原子操作固定 8 字节"), h->size);
	if (h->size < min_size || h->size > MAX_SIZE)
		return bad(msg, msglen, _("size=%u 超出范围（%u..%u 字节）"), h->size, min_size, MAX_SIZE);
	if (atomic && (h->offset % 8 != 0 || h->offset > ATOMIC_SLOT - 8))
		return bad(msg, msglen, _("offset=%u 不行：原子操作的目标字必须按 8 字节对齐、在每QP %d 字节的槽内（0..%d，8 的倍数）"),
			   h->offset, ATOMIC_SLOT, ATOMIC_SLOT - 8);
	if (!atomic && h->offset != 0)
		return bad(msg, msglen, _("offset=%u：只有原子操作用 offset，%s 应为 0"), h->offset, op_name((enum rdma_op)h->op));
	return WIRE_OK;
}

/* 单边操作：槽大小与 op/size 一致，addr + num_qp×slot 不越过 64 位；双边操作不交换内存，三项都是 0 */
static enum wire_status check_memory(const struct wire_hello *h, char *msg, size_t msglen)
{
	struct options o = { .op = (enum rdma_op)h->op, .size = h->size, .sweep = !!(h->flags & WIRE_FLAG_SWEEP) };
	uint64_t span;

	if (!op_is_one_sided(o.op)) {
		if (h->addr != 0 || h->rkey != 0 || h->slot != 0)
			return bad(msg, msglen, _("addr=0x%llx rkey=0x%x slot=%u：%s 不用对端的内存，应都为 0"),
				   (unsigned long long)h->addr, h->rkey, h->slot, op_name(o.op));
		return WIRE_OK;
	}
	if (h->slot != slot_size(&o))
		return bad(msg, msglen, _("slot=%u 与 op=%s size=%u 不符（应为 %zu 字节）"), h->slot, op_name(o.op), h->size,
			   slot_size(&o));
	/* 原子操作的目标字在 addr + i×slot + offset（slot、offset 都是 8 的倍数，上面和 check_sizes 查过）：
	 * 规范要求原子操作的虚拟地址按 8 字节自然对齐，不对齐时响应方回 NAK（无效请求）。rxe 更早就拒绝：
	 * rdma-core 的 rxe 驱动在 ibv_post_send 里查 remote_addr & 7，返回 EINVAL（实验室里量过：不查这一项时
	 * 客户端的 fetch_add 在 ibv_post_send 失败，提示却只会猜队列满、不在 RTS）；内核的 rxe 响应方也查。
	 * 所以在这里就拒绝，说出是哪个字段 */
	if (op_is_atomic(o.op) && h->addr % 8 != 0)
		return bad(msg, msglen, _("addr=0x%llx 不行：原子操作的目标字必须按 8 字节对齐（目标字在 addr + QP序号×slot + offset，"
					  "slot 和 offset 都是 8 的倍数，所以 addr 也必须是）"), (unsigned long long)h->addr);
	span = (uint64_t)h->num_qp * h->slot;
	if (h->addr > UINT64_MAX - span)
		return bad(msg, msglen, _("addr=0x%llx 加上 %u 个QP × slot %u 越过了 64 位地址空间"),
			   (unsigned long long)h->addr, h->num_qp, h->slot);
	return WIRE_OK;
}

enum wire_status wire_decode_hello(const uint8_t *buf, size_t len, struct wire_hello *h,
				   char *msg, size_t msglen)
{
	enum wire_status st = wire_decode_header(buf, len, h);
	size_t need;

	if (st == WIRE_BAD_VERSION) {
		snprintf(msg, msglen, _("协议版本不一致：对端是第 %u 版，本端是第 %d 版；两端请用同一版本的 RoCEv2 learn"),
			 h->version, WIRE_VERSION);
		return st;
	}
	if (st != WIRE_OK) {
		snprintf(msg, msglen, "%s", wire_strerror(st));
		return st;
	}
	need = WIRE_HEADER_LEN + (size_t)h->num_qp * WIRE_QP_LEN;
	if (len != need) {
		snprintf(msg, msglen, _("长度 %zu 字节，%u 个QP的 HELLO 应为 %zu 字节"), len, h->num_qp, need);
		return len < need ? WIRE_SHORT : WIRE_BAD_FIELD;
	}
	if (buf[47] != 0)
		return bad(msg, msglen, _("头部保留字段=0x%02x，应为 0"), buf[47]);
	if (h->gid_type > GID_KIND_ROCE_V2)
		return bad(msg, msglen, _("gid_type=%u 没有定义（0 = IB，1 = RoCE v1，2 = RoCE v2）"), h->gid_type);
	st = check_flags(h, msg, msglen);
	if (st == WIRE_OK)
		st = check_sizes(h, msg, msglen);
	if (st == WIRE_OK)
		st = check_memory(h, msg, msglen);
	if (st == WIRE_OK)
		st = decode_qps(buf + WIRE_HEADER_LEN, h, msg, msglen);
	return st;
}

void wire_encode_sync(uint32_t tag, uint8_t buf[WIRE_SYNC_LEN])
{
	put32(buf, WIRE_SYNC_MAGIC);
	put32(buf + 4, tag);
}

enum wire_status wire_decode_sync(const uint8_t *buf, size_t len, uint32_t *tag)
{
	if (len < WIRE_SYNC_LEN)
		return WIRE_SHORT;
	if (get32(buf) != WIRE_SYNC_MAGIC)
		return WIRE_BAD_SYNC;
	*tag = get32(buf + 4);
	return WIRE_OK;
}

uint8_t wire_flags(const struct options *o)
{
	uint8_t f = o->interactive ? WIRE_FLAG_INTERACTIVE : 0;

	if (o->bench == BENCH_LAT)
		f |= WIRE_FLAG_BENCH_LAT;
	if (o->bench == BENCH_BW)
		f |= WIRE_FLAG_BENCH_BW;
	if (o->cq == CQ_EVENT)
		f |= WIRE_FLAG_CQ_EVENT;
	if (o->sweep)
		f |= WIRE_FLAG_SWEEP;
	if (o->qp_type == QPK_UD)
		f |= WIRE_FLAG_QP_UD;
	if (o->srq)
		f |= WIRE_FLAG_SRQ;
	return f;
}

static const char *bench_str(uint8_t flags)
{
	if (flags & WIRE_FLAG_BENCH_LAT)
		return flags & WIRE_FLAG_SWEEP ? "--bench lat --sweep" : "--bench lat";
	if (flags & WIRE_FLAG_BENCH_BW)
		return flags & WIRE_FLAG_SWEEP ? "--bench bw --sweep" : "--bench bw";
	return _("不是基准测试");
}

/* 模式位（--bench/--sweep、--cq）：两端不同时各自说出自己和对端的设置 */
static int compare_modes(uint8_t l, uint8_t r, char *msg, size_t msglen)
{
	if ((l ^ r) & WIRE_FLAG_BENCH_MASK) {
		snprintf(msg, msglen, _("远端是 %s，本端是 %s：两端的 --bench/--sweep 必须相同"),
			 bench_str(r), bench_str(l));
		return -1;
	}
	if ((l ^ r) & WIRE_FLAG_QP_UD) {
		snprintf(msg, msglen, _("远端 --qp %s，本端 --qp %s：两端的 QP 类型必须相同（RC 的 QP 只和 RC 配对，UD 只和 UD 通信）"),
			 (r & WIRE_FLAG_QP_UD) ? "ud" : "rc", (l & WIRE_FLAG_QP_UD) ? "ud" : "rc");
		return -1;
	}
	if ((l ^ r) & WIRE_FLAG_SRQ) {
		snprintf(msg, msglen, _("远端%s --srq，本端%s --srq：两端的 --srq 必须相同（本程序两端对称地投递接收）"),
			 (r & WIRE_FLAG_SRQ) ? _("用") : _("不用"), (l & WIRE_FLAG_SRQ) ? _("用") : _("不用"));
		return -1;
	}
	if ((l ^ r) & WIRE_FLAG_CQ_EVENT) {
		snprintf(msg, msglen, _("远端 --cq %s，本端 --cq %s：两端的 --cq 必须相同"),
			 (r & WIRE_FLAG_CQ_EVENT) ? "event" : "poll", (l & WIRE_FLAG_CQ_EVENT) ? "event" : "poll");
		return -1;
	}
	return 0;
}

int wire_compare(const struct wire_hello *l, const struct wire_hello *r,
		 char *msg, size_t msglen)
{
	if (r->num_qp != l->num_qp) {
		snprintf(msg, msglen, _("远端QP数量(%u)与本端不匹配(%u)：两端的 -q/num_qp 必须相同"),
			 r->num_qp, l->num_qp);
		return -1;
	}
	if (r->op != l->op || (r->flags ^ l->flags) & WIRE_FLAG_INTERACTIVE) {
		snprintf(msg, msglen, _("远端操作(%s%s)与本端不匹配(%s%s)：两端的 --op/--interactive 必须相同"),
			 op_name((enum rdma_op)r->op), (r->flags & WIRE_FLAG_INTERACTIVE) ? " --interactive" : "",
			 op_name((enum rdma_op)l->op), (l->flags & WIRE_FLAG_INTERACTIVE) ? " --interactive" : "");
		return -1;
	}
	if (compare_modes(l->flags, r->flags, msg, msglen) != 0)
		return -1;
	if (r->size != l->size) {
		snprintf(msg, msglen, _("远端消息大小(%u)与本端不匹配(%u)：两端的 --size 必须相同"),
			 r->size, l->size);
		return -1;
	}
	if (r->iters != l->iters) {
		snprintf(msg, msglen, _("远端轮数(%u)与本端不匹配(%u)：两端的 --iters 必须相同"),
			 r->iters, l->iters);
		return -1;
	}
	if (r->offset != l->offset) {
		snprintf(msg, msglen, _("远端原子偏移(%u)与本端不匹配(%u)：两端的 --offset 必须相同"),
			 r->offset, l->offset);
		return -1;
	}
	if (r->gid_type != l->gid_type) {
		snprintf(msg, msglen, _("远端的 GID 类型是 %s，本端是 %s：两端必须用同一种（RoCE v1 是以太网帧 0x8915，RoCE v2 是 UDP 4791，"
					"一端发的另一端收不到：RTR 能过，传输以 RETRY_EXC_ERR 结束）。修复: 两端都去掉 -g 让程序自动选择"
					"（优先 RoCE v2），或用 ./show_gids.sh 在两端各选一个同类型的条目（-g）"),
			 gid_kind_name((enum gid_kind)r->gid_type), gid_kind_name((enum gid_kind)l->gid_type));
		return -1;
	}
	return 0;
}

static uint8_t min8(uint8_t a, uint8_t b) { return a < b ? a : b; }

struct wire_rd_depth wire_rd_depth(uint8_t local_rd, uint8_t local_init, uint8_t remote_rd, uint8_t remote_init)
{
	struct wire_rd_depth d = { .out = min8(local_init, remote_rd), .in = min8(local_rd, remote_init) };

	return d;
}

uint8_t wire_rd_clamp(int device_value)
{
	return device_value < 0 ? 0 : device_value > UINT8_MAX ? UINT8_MAX : (uint8_t)device_value;
}

uint32_t wire_path_mtu(uint32_t local_mtu, uint32_t remote_mtu)
{
	return local_mtu < remote_mtu ? local_mtu : remote_mtu;
}

uint32_t wire_mtu_bytes(uint32_t mtu)
{
	return mtu >= 1 && mtu <= 5 ? 128u << mtu : 0;
}

uint32_t wire_packets(uint64_t size, uint32_t mtu)
{
	uint32_t bytes = wire_mtu_bytes(mtu);

	if (bytes == 0)
		return 0;
	return size == 0 ? 1 : (uint32_t)((size + bytes - 1) / bytes);
}

static int all_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = p[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

int wire_is_rc_pingpong(const uint8_t *buf, size_t len)
{
	/* "%04x:%06x:%06x:" 之后是 GID 的 32 个十六进制数字；看前 19 个字符和后面能看到的 GID 部分 */
	static const size_t field[] = { 4, 6, 6 };
	size_t pos = 0;

	for (size_t i = 0; i < 3; i++) {
		if (len < pos + field[i] + 1 || !all_hex(buf + pos, field[i]) || buf[pos + field[i]] != ':')
			return 0;
		pos += field[i] + 1;
	}
	return all_hex(buf + pos, len - pos < 32 ? len - pos : 32);
}

/* 从 *pos 起数十进制数字（最多 max 个），至少一个才算 */
static int skip_digits(const uint8_t *p, size_t *pos, size_t max)
{
	size_t start = *pos;

	while (*pos - start < max && p[*pos] >= '0' && p[*pos] <= '9')
		(*pos)++;
	return *pos > start;
}

int wire_is_perftest(const uint8_t *buf, size_t len)
{
	/* "主版本.次版本"，例如 "6.06"；之后到第 16 字节都是 0 */
	size_t pos = 0;

	if (len < WIRE_PERFTEST_LEN || !skip_digits(buf, &pos, 3) || buf[pos++] != '.' ||
	    !skip_digits(buf, &pos, 3))
		return 0;
	for (; pos < WIRE_PERFTEST_LEN; pos++)
		if (buf[pos] != 0)
			return 0;
	return 1;
}

/*
 * 起始 PSN 取自内核的随机数（getrandom）。以前用 srand48(getpid() ^ time()) + lrand48()：
 * 一秒后启动的另一端 pid 加 1、时间加 1，异或的结果可能一样，两端就拿到了相同的起始 PSN
 * （对 RC 无害，但读输出时容易混淆）；而且 lrand48 的状态是全进程共享的，多客户端服务端的
 * 几个会话线程同时调用并不安全。getrandom 没有共享状态。
 */
uint32_t wire_random_psn(void)
{
	uint32_t v;

	if (getrandom(&v, sizeof(v), 0) != (ssize_t)sizeof(v))
		v = (uint32_t)getpid() * 2654435761u ^ (uint32_t)time(NULL);
	return v & 0xffffff;
}
