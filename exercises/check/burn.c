/*
 * burn.c - 实验室里在对端的设备上先建几个 QP、注册一个 MR 再全部释放：rxe 给每个设备的 QP 都从 0x11 编号、
 * MR 从 1 编号（rkey = 序号<<8 | 随机字节），单机实验室里两端的值常常一样，拿错了一侧的值也会侥幸通过。
 * 先“烧掉”几个号码，参照的对端的 QP 号和 rkey 就和学习者这一端的不同了。
 *   burn DEVICE N
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = argc > 2 ? atoi(argv[2]) : 3, num = 0;
	static char buf[4096];

	if (argc < 2 || (list = ibv_get_device_list(&num)) == NULL)
		return 2;
	for (int i = 0; i < num && ctx == NULL; i++)
		if (strcmp(ibv_get_device_name(list[i]), argv[1]) == 0)
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (ctx == NULL)
		return 2;
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = pd ? ibv_create_cq(ctx, 4, NULL, NULL, 0) : NULL;
	struct ibv_mr *mr[3] = { 0 };
	struct ibv_qp *qp[16] = { 0 };
	struct ibv_qp_init_attr init = { .qp_type = IBV_QPT_RC, .send_cq = cq, .recv_cq = cq,
					 .cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1 } };

	if (cq == NULL)
		return 1;
	for (int i = 0; i < 3; i++)
		mr[i] = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	for (int i = 0; i < n && i < 16; i++)
		qp[i] = ibv_create_qp(pd, &init);
	for (int i = 0; i < 16; i++)
		if (qp[i])
			ibv_destroy_qp(qp[i]);
	for (int i = 0; i < 3; i++)
		if (mr[i])
			ibv_dereg_mr(mr[i]);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
