/*
 * op_table.c - 操作表（见 op_table.h）
 *
 * MR 的权限不在表里：它是课程的一课（rdma_common.c 的 mr_access_for），练习 10 要学习者自己写。
 */
#include "cli/op_table.h"

#include <stddef.h>

const struct op_info op_table[OP_COUNT] = {
	[OP_SEND] = {
		.name = "send",
		.server_recv = 1, .bench = 1, .interactive = 1,
	},
	[OP_WRITE] = {
		.name = "write",
		.one_sided = 1, .bench = 1, .interactive = 1,
	},
	[OP_READ] = {
		.name = "read",
		.one_sided = 1, .data_from_server = 1, .bench = 1, .interactive = 1,
	},
	[OP_WRITE_IMM] = {
		.name = "write_imm",
		.one_sided = 1, .server_recv = 1, .bench = 1,
	},
	[OP_FETCH_ADD] = {
		.name = "fetch_add",
		.one_sided = 1, .atomic = 1,
	},
	[OP_CMP_SWAP] = {
		.name = "cmp_swap",
		.one_sided = 1, .atomic = 1,
	},
};

const struct op_info *op_info(enum rdma_op op)
{
	return (op >= 0 && op < OP_COUNT) ? &op_table[op] : NULL;
}
