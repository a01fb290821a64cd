/*
 * 练习 10（步骤6）：MR 的权限 —— 网卡可以替谁、怎样碰这块内存
 * Exercise 10 (step 6): the MR's access - for whom, and how, the NIC may touch this memory
 *
 * 任务：返回这一端注册 MR 时要的权限（IBV_ACCESS_* 的组合），只开这个操作、这个角色真正需要的。
 * Task: return the access this end registers its MR with (a combination of IBV_ACCESS_*), only what this
 *       operation and this role really need.
 *
 *   op     OP_SEND、OP_WRITE、OP_READ、OP_WRITE_IMM、OP_FETCH_ADD、OP_CMP_SWAP（--op）
 *   role   ROLE_SERVER 是被动方：对端（客户端）的 WRITE/READ/原子操作落在它的内存上；ROLE_CLIENT 是主动方
 *          ROLE_SERVER is the passive side: the peer's (client's) WRITE/READ/atomics land in its memory; ROLE_CLIENT is the active side
 *   IBV_ACCESS_REMOTE_WRITE / REMOTE_READ / REMOTE_ATOMIC   对端可以写 / 读 / 做原子操作 / the peer may write / read / run atomics
 *   IBV_ACCESS_LOCAL_WRITE  网卡往本地内存里写（接收的数据、READ 的结果、原子操作的原值）
 *                           the NIC writes into local memory (received data, READ results, an atomic's old value)
 *   规则：REMOTE_WRITE 和 REMOTE_ATOMIC 都要同时有 LOCAL_WRITE，否则 ibv_reg_mr 返回 EINVAL
 *   rule: REMOTE_WRITE and REMOTE_ATOMIC both need LOCAL_WRITE too, or ibv_reg_mr returns EINVAL
 *   （客户端和服务端在 SEND 时都投递接收：服务端收消息，客户端收回复 / with SEND both ends post receives: the
 *    server for the message, the client for the reply）
 *
 * 检查：make exercise EX=10（你的是服务端：对端的客户端 RDMA WRITE 进你的内存）
 * Check: make exercise EX=10 (yours is the server: the peer client RDMA-WRITEs into your memory)
 */
#include "exercise.h"

int mr_access_for(enum rdma_op op, enum role role)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)op;
	(void)role;
	exercise_todo();
	return 0;
}
