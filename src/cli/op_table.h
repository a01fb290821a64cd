/*
 * op_table.h - 每种操作一行：它是什么、需要什么（纯数据，单元测试直接检查）
 *
 * 以前这些事实散在几个文件的 switch 里（MR 权限在 options.c，哪些操作能 --bench / --interactive、
 * 谁发数据在 options.c 的几处判断里，槽大小在 slot_size 里）。加一种操作时要找齐每一处。
 * 现在它们都在 op_table 的一行里；“一轮怎么跑”是代码，在 op_rounds.c 的 op_rounds 表里，下标同样是 enum rdma_op。
 */
#ifndef ROCE_OP_TABLE_H
#define ROCE_OP_TABLE_H

/* 数据面操作类型：决定 MR 权限（rdma_common.c 的 mr_access_for）、握手内容和数据面流程。编号是 op_table 的下标；
 * options.h 包含本文件，本文件不包含 options.h（两个模块之间没有环） */
enum rdma_op {
	OP_SEND = 0,
	OP_WRITE,
	OP_READ,
	OP_WRITE_IMM,
	OP_FETCH_ADD,
	OP_CMP_SWAP,
	OP_COUNT
};

enum role { ROLE_SERVER = 0, ROLE_CLIENT = 1 };

struct op_info {
	const char *name;           /* --op 的名字 */
	unsigned one_sided : 1;     /* 要对端内存：握手里交换 addr/rkey/槽大小 */
	unsigned atomic : 1;        /* 8 字节原子操作：槽固定 ATOMIC_SLOT，设备要有 atomic_cap */
	unsigned server_recv : 1;   /* 服务端要投递接收请求（SEND、WRITE_IMM 的立即数） */
	unsigned data_from_server : 1; /* 校验的数据由服务端写出（READ：客户端读服务端的内存） */
	unsigned bench : 1;         /* --bench lat|bw 支持 */
	unsigned interactive : 1;   /* --interactive 可以同用（交互模式自己用 WRITE + READ） */
};

/* 下标是 enum rdma_op */
extern const struct op_info op_table[OP_COUNT];

/* op 的一行；越界时返回 NULL */
const struct op_info *op_info(enum rdma_op op);

#endif
