/*
 * 练习 2（步骤9）：RESET→INIT —— 绑定端口，声明对端能对我做什么
 * Exercise 2 (step 9): RESET->INIT - bind the port, declare what the peer may do to me
 *
 * 任务：填好 *attr，返回 ibv_modify_qp 的掩码（哪些属性是你给的）。程序对每个 QP 调用 ibv_modify_qp(qp, attr, 掩码)。
 * Task: fill *attr and return the ibv_modify_qp mask (which attributes you set). The program calls
 *       ibv_modify_qp(qp, attr, mask) for every QP.
 *
 *   access   这条连接的 MR 注册时用的权限（IBV_ACCESS_*）。QP 的 qp_access_flags 只管“远端能做什么”
 *            the access the MR was registered with (IBV_ACCESS_*). The QP's qp_access_flags only says what the remote may do
 *   端口     conn->opt->ib_port（-i）；P_Key 的索引：RoCE 只有一项 / port: conn->opt->ib_port (-i); P_Key index: RoCE has one entry
 *
 * 检查：make exercise EX=2（你的是服务端：对端的客户端 RDMA WRITE 进你的内存）
 * Check: make exercise EX=2 (yours is the server: the peer client RDMA-WRITEs into your memory)
 */
#include "exercise.h"

int init_attr_for(const struct rdma_conn *conn, int access, struct ibv_qp_attr *attr)
{
	/* TODO：删掉下面几行，自己写 / delete the lines below and write it yourself */
	(void)conn;
	(void)access;
	(void)attr;
	exercise_todo();
	return 0;
}
