/*
 * op_table.c - 操作表（见 op_table.h）
 *
 * MR 权限只开本操作、本角色真正需要的那几位：被动方（服务端）开放 REMOTE_*，
 * 主动方只要 LOCAL_WRITE（接收、READ 的结果、原子操作的原值都要写进本地内存）；
 * 只发送不接收的一方（WRITE 的客户端）连 LOCAL_WRITE 都不要，权限是 0。
 */
#include "cli/op_table.h"

#include <infiniband/verbs.h>

#define LW IBV_ACCESS_LOCAL_WRITE

const struct op_info op_table[OP_COUNT] = {
	[OP_SEND] = {
		.name = "send",
		.server_recv = 1, .bench = 1, .interactive = 1,
		.access = { [ROLE_SERVER] = LW, [ROLE_CLIENT] = LW },
	},
	[OP_WRITE] = {
		.name = "write",
		.one_sided = 1, .bench = 1, .interactive = 1,
		.access = { [ROLE_SERVER] = LW | IBV_ACCESS_REMOTE_WRITE, [ROLE_CLIENT] = 0 },
	},
	[OP_READ] = {
		.name = "read",
		.one_sided = 1, .data_from_server = 1, .bench = 1, .interactive = 1,
		.access = { [ROLE_SERVER] = IBV_ACCESS_REMOTE_READ, [ROLE_CLIENT] = LW },
	},
	[OP_WRITE_IMM] = {
		.name = "write_imm",
		.one_sided = 1, .server_recv = 1, .bench = 1,
		.access = { [ROLE_SERVER] = LW | IBV_ACCESS_REMOTE_WRITE, [ROLE_CLIENT] = 0 },
	},
	[OP_FETCH_ADD] = {
		.name = "fetch_add",
		.one_sided = 1, .atomic = 1,
		.access = { [ROLE_SERVER] = LW | IBV_ACCESS_REMOTE_ATOMIC, [ROLE_CLIENT] = LW },
	},
	[OP_CMP_SWAP] = {
		.name = "cmp_swap",
		.one_sided = 1, .atomic = 1,
		.access = { [ROLE_SERVER] = LW | IBV_ACCESS_REMOTE_ATOMIC, [ROLE_CLIENT] = LW },
	},
};

const struct op_info *op_info(enum rdma_op op)
{
	return (op >= 0 && op < OP_COUNT) ? &op_table[op] : NULL;
}
