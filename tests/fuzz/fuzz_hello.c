/*
 * fuzz_hello.c - libFuzzer 目标：对端发来的任意字节 → 解码 + 校验 → 听客户端的参数 → 比较两端
 *
 *   make fuzz                 跑 FUZZ_SECONDS 秒（默认 60），语料在 build/fuzz/corpus
 *   tests/12-host-fuzz-smoke.t     make test 里只跑几秒
 *
 * 每个输入走一遍服务端收到 HELLO 之后的纯逻辑（wire_decode_hello、adopt_client_options、wire_compare），
 * 再检查几条不变量，违反就 abort()（libFuzzer 把这个输入存成 crash-*）：
 *   - 通过校验的 HELLO 重新编码后和收到的字节一模一样（没有被悄悄改掉或丢掉的字段）；
 *   - 听了客户端之后会话的参数在命令行的界限内（QP 数、轮数、大小）；
 *   - 原子操作的目标字在这个会话自己的槽里：和 op_rounds.c 的 atomic_word 一样的地址算法，
 *     在一块和 register_mr 同样大小的缓冲区里真的写一次，越界由 ASan 抓、不对齐由 UBSan 抓。
 * 没通过校验的输入必须带一句说明（msg 不是空串）。
 *
 * 编译时加 -DFUZZ_SEED_WRITER 得到一个普通程序：把几条正确的 HELLO 写成种子文件（目录是第一个参数），
 * 种子由 wire_encode_hello 生成，格式改了种子跟着变。
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/adopt.h"
#include "cli/parse.h"
#include "control/wire.h"
#include "verbs/gid.h"

/* 几种服务端命令行：什么都不给（全听客户端的）、给了 --op fetch_add --offset 8、给了 -q/--size/--iters */
static int server_options(int k, struct options *o)
{
	char err[256];
	char *plain[] = { "rdma_server", "--clients", "0", NULL };
	char *atomic[] = { "rdma_server", "--clients", "0", "--op", "fetch_add", "--offset", "8", NULL };
	char *fixed[] = { "rdma_server", "--clients", "0", "-q", "4", "--size", "4096", "--iters", "3", NULL };
	char **argv[] = { plain, atomic, fixed };
	int argc[] = { 3, 7, 9 };

	return parse_options(argc[k], argv[k], ROLE_SERVER, o, err, sizeof(err)) == PARSE_OK ? 0 : -1;
}

/* 服务端这个会话自己的 HELLO（rdma_common.c 的 fill_local_hello 里不需要设备的那一部分） */
static void local_hello(const struct options *o, struct wire_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->version = WIRE_VERSION;
	h->op = (uint8_t)o->op;
	h->flags = wire_flags(o);
	h->num_qp = (uint32_t)o->num_qp;
	h->mtu = 3;
	h->size = (uint32_t)o->size;
	h->iters = (uint32_t)o->iters;
	h->offset = o->offset;
	h->gid_type = GID_KIND_ROCE_V2;
}

/* 会话的 MR（2 × num_qp × slot，见 register_mr）里，每个QP的原子目标字写一次（见 op_rounds.c 的 atomic_word） */
static void touch_atomic_words(const struct options *o)
{
	size_t slot = slot_size(o);
	uint8_t *buf;

	if (!op_is_atomic(o->op))
		return;
	buf = calloc(2 * (size_t)o->num_qp, slot);
	if (buf == NULL)
		abort();
	for (int i = 0; i < o->num_qp; i++)
		*(uint64_t *)(void *)(buf + (size_t)i * slot + o->offset) = 1000000u * (uint64_t)(i + 1);
	free(buf);
}

static void check_session(const struct options *o)
{
	if (o->num_qp < 1 || o->num_qp > MAX_QP || o->iters < 1 || o->iters > MAX_ITERS ||
	    o->size < 1 || o->size > MAX_SIZE)
		abort();
	touch_atomic_words(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_hello h, local;
	struct options srv, out;
	uint8_t again[WIRE_MAX_LEN];
	char msg[256] = "", notes[128], why[160];

	if (wire_decode_hello(data, size, &h, msg, sizeof(msg)) != WIRE_OK) {
		if (msg[0] == '\0')
			abort();
		return 0;
	}
	if (wire_encode_hello(&h, again, sizeof(again)) != size || memcmp(again, data, size) != 0)
		abort();
	for (int k = 0; k < 3; k++) {
		if (server_options(k, &srv) != 0)
			abort();
		(void)adopt_client_options(&srv, &h, SESSION_SIZE_CAP, &out, notes, sizeof(notes), why, sizeof(why));
		check_session(&out);
		local_hello(&out, &local);
		(void)wire_compare(&local, &h, msg, sizeof(msg));
	}
	return 0;
}

#ifdef FUZZ_SEED_WRITER
static struct wire_hello seed(enum rdma_op op, uint32_t num_qp, uint32_t size, uint32_t slot, uint32_t offset)
{
	struct wire_hello h;

	memset(&h, 0, sizeof(h));
	h.version = WIRE_VERSION;
	h.op = (uint8_t)op;
	h.num_qp = num_qp;
	h.mtu = 3;
	h.size = size;
	h.iters = 3;
	h.offset = offset;
	h.gid_type = GID_KIND_ROCE_V2;
	if (op_is_one_sided(op)) {
		h.addr = 0x7f0000001000ull;
		h.rkey = 0x1234;
		h.slot = slot;
	}
	for (uint32_t i = 0; i < num_qp; i++) {
		h.qp[i].qpn = 0x11 + i;
		h.qp[i].psn = 0x100 + i;
		h.qp[i].gid[10] = h.qp[i].gid[11] = 0xff;
		h.qp[i].gid[15] = 2;
	}
	return h;
}

int main(int argc, char **argv)
{
	const struct wire_hello seeds[] = {
		seed(OP_SEND, 1, 64, 0, 0),
		seed(OP_WRITE, 4, 4096, 4096, 0),
		seed(OP_FETCH_ADD, 2, 8, ATOMIC_SLOT, 8),
		seed(OP_CMP_SWAP, 16, 8, ATOMIC_SLOT, 56),
	};
	uint8_t buf[WIRE_MAX_LEN];
	char path[4096];

	if (argc != 2) {
		fprintf(stderr, "用法: %s 目录\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		size_t n = wire_encode_hello(&seeds[i], buf, sizeof(buf));
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%zu", argv[1], i);
		f = fopen(path, "wb");
		if (f == NULL || n == 0 || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
			fprintf(stderr, "错误: 写种子 %s 失败\n", path);
			return 1;
		}
	}
	return 0;
}
#endif
