/*
 * wire.h - 控制平面（TCP）上交换的数据格式（纯逻辑，可单元测试）
 *
 * 所有字段都按网络字节序（大端）逐字节编码，不依赖结构体的内存布局，
 * 所以不同编译器、不同CPU之间也能互通。
 *
 * HELLO = 48 字节头 + num_qp × 28 字节 QP 条目：
 *   偏移  大小  字段
 *    0    4    magic   0x52435632 ("RCV2")
 *    4    2    version 3（第 1 版没有 44..47 这 4 个字节，第 2 版的 46 是保留的 0；版本不同时两端都报错，说出两个版本号）
 *    6    1    op      0=send 1=write 2=read 3=write_imm 4=fetch_add 5=cmp_swap
 *    7    1    flags   bit0 = --interactive  bit1 = --bench lat  bit2 = --bench bw
 *                      bit3 = --cq event     bit4 = --sweep
 *                      bit5 = --qp ud        bit6 = --srq
 *    8    4    num_qp  1..16
 *   12    4    mtu     本端端口的 active_mtu（enum ibv_mtu 值 1..5）
 *   16    4    size    每个QP每轮的消息大小
 *   20    4    iters   轮数
 *   24    8    addr    本端 MR 中“对端可访问区”的起始虚拟地址（单边操作用）
 *   32    4    rkey    本端 MR 的 rkey（单边操作用；send 时为 0）
 *   36    4    slot    每个QP在该区中占的字节数（QP i 的地址 = addr + i*slot）
 *   40    4    offset  原子操作目标字在槽内的偏移（--offset）
 *   44    1    rd_atom       本端设备的 max_qp_rd_atom（能同时为对端处理几个 READ/原子请求；大于 255 记作 255）
 *   45    1    init_rd_atom  本端设备的 max_qp_init_rd_atom（能同时发出几个 READ/原子请求；同上）
 *   46    1    gid_type      本端 GID 的类型，值与 enum ibv_gid_type 相同：0 = IB，1 = RoCE v1，2 = RoCE v2。
 *                              两端必须相同（v1 是以太网帧 0x8915，v2 是 UDP 4791：一端发的另一端收不到）；
 *                              --cm 时是 CM 选的那个条目的类型（两端由 CM 决定，程序不选）
 *   47    1    保留，0
 *  每个QP：qpn(4) psn(4) lid(2) 保留(2) gid(16)
 *
 * 收到的 HELLO 只经过一个入口 wire_decode_hello：解码之后逐个字段检查（范围、对齐、
 * 没定义的位、和 op/size 对不上的槽大小……），任何一项不对就整条拒绝，说出字段名、值和界限。
 * 之后的代码（多客户端服务端听客户端的参数、原子操作的目标字地址）只用检查过的值。
 *
 * SYNC = 8 字节：magic 0x53594e43 ("SYNC") + tag(4)。
 *
 * 魔数不对时再看一眼是不是 ibv_rc_pingpong 的文本握手（它也默认用 TCP 18515），是的话直接点名。
 */
#ifndef ROCE_WIRE_H
#define ROCE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "cli/options.h"

/* GID 的类型：HELLO 的 gid_type 字段就是这个值；数值与 libibverbs 的 enum ibv_gid_type 相同（verbs/gid.h 按它给 GID 分类） */
enum gid_kind { GID_KIND_IB = 0, GID_KIND_ROCE_V1 = 1, GID_KIND_ROCE_V2 = 2 };
/* "IB"、"RoCE v1"、"RoCE v2" */
const char *gid_kind_name(enum gid_kind kind);

#define WIRE_MAGIC        0x52435632u
#define WIRE_SYNC_MAGIC   0x53594e43u
#define WIRE_VERSION      3
#define WIRE_HEADER_LEN   48
#define WIRE_QP_LEN       28
#define WIRE_SYNC_LEN     8
#define WIRE_MAX_LEN      (WIRE_HEADER_LEN + MAX_QP * WIRE_QP_LEN)
#define WIRE_FLAG_INTERACTIVE 0x01
#define WIRE_FLAG_BENCH_LAT   0x02
#define WIRE_FLAG_BENCH_BW    0x04
#define WIRE_FLAG_CQ_EVENT    0x08
#define WIRE_FLAG_SWEEP       0x10
#define WIRE_FLAG_QP_UD       0x20
#define WIRE_FLAG_SRQ         0x40
#define WIRE_FLAG_BENCH_MASK  (WIRE_FLAG_BENCH_LAT | WIRE_FLAG_BENCH_BW | WIRE_FLAG_SWEEP)
#define WIRE_FLAG_KNOWN       (WIRE_FLAG_INTERACTIVE | WIRE_FLAG_BENCH_MASK | WIRE_FLAG_CQ_EVENT | WIRE_FLAG_QP_UD | \
			       WIRE_FLAG_SRQ)

/* 本端选项 → HELLO 的 flags 字节 */
uint8_t wire_flags(const struct options *o);

struct wire_qp {
	uint32_t qpn;
	uint32_t psn;
	uint16_t lid;
	uint8_t gid[16];
};

struct wire_hello {
	uint16_t version;
	uint8_t op;
	uint8_t flags;
	uint32_t num_qp;
	uint32_t mtu;
	uint32_t size;
	uint32_t iters;
	uint64_t addr;
	uint32_t rkey;
	uint32_t slot;
	uint32_t offset;
	uint8_t rd_atom;        /* 发送方设备的 max_qp_rd_atom（≤255） */
	uint8_t init_rd_atom;   /* 发送方设备的 max_qp_init_rd_atom（≤255） */
	uint8_t gid_type;       /* 发送方 GID 的类型（enum gid_kind 的值：0 IB，1 RoCE v1，2 RoCE v2） */
	struct wire_qp qp[MAX_QP];
};

enum wire_status {
	WIRE_OK = 0,
	WIRE_SHORT,
	WIRE_BAD_MAGIC,
	WIRE_BAD_VERSION,
	WIRE_BAD_NUM_QP,
	WIRE_BAD_OP,
	WIRE_BAD_MTU,
	WIRE_BAD_QPN,
	WIRE_BAD_SYNC,
	WIRE_RC_PINGPONG,   /* 对端发来的是 ibv_rc_pingpong 的文本握手 */
	WIRE_BAD_FIELD,     /* 某个字段超出范围或与别的字段矛盾（wire_decode_hello 的 msg 说明是哪个） */
};

const char *wire_strerror(enum wire_status st);

/* 编码：返回写入字节数（= WIRE_HEADER_LEN + num_qp*WIRE_QP_LEN） */
size_t wire_encode_hello(const struct wire_hello *h, uint8_t *buf, size_t cap);
/*
 * 只解码头部：TCP 先读头，才知道后面还有几个QP条目要读（h->num_qp）。
 * 它不检查头以外的字段：读完整条消息后必须再交给 wire_decode_hello。
 */
enum wire_status wire_decode_header(const uint8_t *buf, size_t len, struct wire_hello *h);
/*
 * 收到的 HELLO 的唯一入口（TCP、--cm、多客户端服务端都走这里）：buf/len 是整条消息，
 * 解码后检查对端给的每一个字段。返回 WIRE_OK；否则 msg 写明原因（哪个字段、它的值、允许的范围）。
 */
enum wire_status wire_decode_hello(const uint8_t *buf, size_t len, struct wire_hello *h,
				   char *msg, size_t msglen);

void wire_encode_sync(uint32_t tag, uint8_t buf[WIRE_SYNC_LEN]);
enum wire_status wire_decode_sync(const uint8_t *buf, size_t len, uint32_t *tag);

/*
 * 比较两端的参数（QP数量、操作、大小、轮数、交互模式、--bench/--sweep、--cq、原子偏移、GID 类型）。
 * 一致返回 0；不一致返回 -1，并在 msg 中写明哪一项不同、各是多少。
 */
int wire_compare(const struct wire_hello *local, const struct wire_hello *remote,
		 char *msg, size_t msglen);

/*
 * 路径MTU：两端 active_mtu（enum ibv_mtu 值）的较小者。
 * 取较大者的话，大的一端发出的包对端的网卡收不下（被丢弃），RC 会一直重传直到 RETRY_EXC_ERR。
 */
uint32_t wire_path_mtu(uint32_t local_mtu, uint32_t remote_mtu);

/*
 * READ/原子操作的深度（ibv_modify_qp(3)）：
 *   out = RTS 的 max_rd_atomic：本端同时在途的 READ/原子请求数。不能超过本端设备的 max_qp_init_rd_atom，
 *         也不该超过对端的 max_dest_rd_atomic（对端的 max_qp_rd_atom）；
 *   in  = RTR 的 max_dest_rd_atomic：本端同时为对端处理的个数。不能超过本端设备的 max_qp_rd_atom，
 *         对端发得再多也只有 max_qp_init_rd_atom 个。
 * 两端各算各的，结果正好对上：本端的 out = min(本端 init, 对端 rd) = 对端的 in。
 * perftest 的 ib_read_bw 也用设备的上限（以前这里固定取 min(设备能力, 4)，rxe 上少了 32 倍）。
 */
struct wire_rd_depth {
	uint8_t out;
	uint8_t in;
};
struct wire_rd_depth wire_rd_depth(uint8_t local_rd, uint8_t local_init, uint8_t remote_rd, uint8_t remote_init);
/* 设备属性（int）→ HELLO / QP 属性里的 8 位：负数记 0，大于 255 记 255 */
uint8_t wire_rd_clamp(int device_value);

/* enum ibv_mtu 值（1..5）对应的字节数：256 << (mtu - 1)，即 128 << mtu；无效值返回 0 */
uint32_t wire_mtu_bytes(uint32_t mtu);
/*
 * 一条 size 字节的消息在路径MTU下要几个包（RC 的 SEND/WRITE/READ 响应按 MTU 切包；0 字节也是 1 个包）。
 * 每个包带着自己在消息里的位置（PSN 顺序 + WRITE/READ 的地址），接收端直接放到对应偏移，不需要重组缓冲区。
 */
uint32_t wire_packets(uint64_t size, uint32_t mtu);

/*
 * ibv_rc_pingpong（rdma-core 的示例，默认也用 TCP 18515）在同一个端口上发的是一行文本
 * "LLLL:QQQQQQ:PPPPPP:GGGG...(32个十六进制)"（LID:QPN:PSN:GID）。看前 len 字节像不像它。
 */
int wire_is_rc_pingpong(const uint8_t *buf, size_t len);

/*
 * perftest（ib_send_bw、ib_write_lat 等，默认也用 TCP 18515）连上后先交换版本号：
 * 固定 16 字节，是一个 "6.06" 这样的字符串（数字.数字），后面全是 0 字节。
 * 看前 len 字节（至少 16）像不像它。像的话 buf 的前 16 字节是一个以 0 结尾、可以直接打印的字符串。
 */
#define WIRE_PERFTEST_LEN 16
int wire_is_perftest(const uint8_t *buf, size_t len);

/* 一个 QP 的起始 PSN（24 位，步骤8 选、HELLO 里交给对端），取自内核的随机数 */
uint32_t wire_random_psn(void);

#endif
