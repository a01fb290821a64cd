/*
 * inject_kinds.c - --inject 的每一种：名字、哪一端、配什么操作、-h 里的一行（声明在 inject_kinds.h）
 * 每一种都能配 --cm：数据QP是本程序自己建、自己 ibv_modify_qp 的，librdmacm 的 rdma_connect/rdma_accept/rdma_establish
 * 只在 cm_id 上有 rdma_create_qp 建的QP（id->qp）时才改QP（rdma-core librdmacm/cma.c 的 ucma_modify_qp_rtr/rts），
 * 所以 QP 属性类的注入（qpn、psn、rnr-retry0）在 --cm 下一样改在 rdma_init_qp_attr 给的属性之上（connect/cm_qps.c 的 cm_modify）
 * 只管命令行这一侧（解析、检查、用法）；注入在运行时怎样改 WR、QP 属性或接收的顺序不在这里
 */
#include "cli/inject_kinds.h"
#include "console/i18n.h"
#include "cli/op_table.h"

#include <stdio.h>
#include <string.h>

/* ---------- --inject：故障画廊（docs/GALLERY.md）的每一种，一个故意的错误 ---------- */

static int one_sided_op(const struct options *o) { return op_is_one_sided(o->op); }
static int server_recv_op(const struct options *o) { return op_info(o->op)->server_recv; }
static int send_op(const struct options *o) { return o->op == OP_SEND; }
static int small_recv_fits(const struct options *o) { return o->op == OP_SEND && o->size >= 2; }
static int any_op(const struct options *o) { (void)o; return 1; }
static int source_op(const struct options *o)   /* 数据来自本端内存的 SEND/WRITE/WRITE_IMM */
{
	return o->op == OP_SEND || o->op == OP_WRITE || o->op == OP_WRITE_IMM;
}

/* 每一种：名字、哪一端（ROLE_ANY = 看 fits）、什么操作能用（fits）和不能用时的说明、-h 里的一行 */
#define ROLE_ANY ((enum role)-1)
static const struct inject_kind {
	const char *name;
	enum inject id;
	enum role role;
	int (*fits)(const struct options *o);
	const char *rule;
	const char *help;
} inject_kinds[] = {
	{ "rkey", INJECT_RKEY, ROLE_CLIENT, one_sided_op,
	  N_("要配合单边/原子操作（--op write/read/write_imm/fetch_add/cmp_swap：rkey 是发起方访问对端内存用的）"),
	  N_("单边/原子操作：故意用错误的 rkey，观察 REM_ACCESS_ERR") },
	{ "payload", INJECT_PAYLOAD, ROLE_ANY, inject_payload_sender,
	  N_("只用于发送数据的一方：客户端的 send/write/write_imm，或服务端的 read（不用于原子操作）"),
	  N_("发送数据的一方（客户端的 send/write/write_imm、服务端的 read）：第1轮发出前改坏 QP[0] 的一个字节，观察对端校验失败") },
	{ "late-recv", INJECT_LATE_RECV, ROLE_SERVER, server_recv_op,
	  N_("要配合 --op send 或 write_imm（只有它们消耗服务端投递的接收请求）"),
	  N_("send/write_imm：第1轮先说“可以发了”、200 毫秒后才投递接收，观察 RNR NAK 和重发") },
	{ "small-recv", INJECT_SMALL_RECV, ROLE_SERVER, small_recv_fits,
	  N_("要配合 --op send（--size 至少 2；接收缓冲区是服务端投递的）"),
	  N_("send：第1轮 QP[0] 的接收缓冲区只有消息的一半，观察两端的完成状态和 NAK") },
	{ "flush", INJECT_FLUSH, ROLE_SERVER, send_op,
	  N_("要配合 --op send（接收请求还没完成时把QP改到 ERR）"),
	  N_("send：第1轮投递接收后把全部QP改到 ERR，观察每个没完成的接收都以 WR_FLUSH_ERR 完成") },
	{ "mr-access", INJECT_MR_ACCESS, ROLE_SERVER, one_sided_op,
	  N_("要配合单边/原子操作（--op write/read/write_imm/fetch_add/cmp_swap：对端要访问本端的 MR）"),
	  N_("单边/原子操作：注册 MR 时不给远端访问权限（rkey 是对的），观察客户端的 REM_ACCESS_ERR") },
	{ "rnr-retry0", INJECT_RNR_RETRY0, ROLE_CLIENT, server_recv_op,
	  N_("要配合 --op send 或 write_imm（对端没投递接收时才有 RNR；配合服务端的 --inject late-recv）"),
	  N_("send/write_imm：RTS 时 rnr_retry=0（默认 7 = 一直重试）；配合服务端 --inject late-recv，观察 RNR_RETRY_EXC_ERR") },
	{ "lkey", INJECT_LKEY, ROLE_CLIENT, source_op,
	  N_("要配合 --op send/write/write_imm（本端内存是数据源）"),
	  N_("send/write/write_imm：第1轮 QP[0] 的 WR 用错误的 lkey，观察本端的完成状态（随内核不同）") },
	{ "inline", INJECT_INLINE, ROLE_CLIENT, source_op,
	  N_("要配合 --op send/write/write_imm（不是基准测试时 QP 要的 max_inline_data 是 0，任何大小都超过它）"),
	  N_("send/write/write_imm：第1轮 QP[0] 的 WR 带 IBV_SEND_INLINE 却比 max_inline_data 大（跳过本程序的检查），观察 ibv_post_send 的返回值") },
	{ "qpn", INJECT_QPN, ROLE_CLIENT, any_op, "",
	  N_("RTR 时 dest_qp_num 用错的（对端QP号 ^ 0x800000），观察重传和 RETRY_EXC_ERR") },
	{ "psn", INJECT_PSN, ROLE_CLIENT, any_op, "",
	  N_("RTS 时 sq_psn 比告诉对端的大 0x1000，观察对端怎样对待 PSN 不对的包") },
	{ "qp-access", INJECT_QP_ACCESS, ROLE_SERVER, one_sided_op,
	  N_("要配合单边/原子操作（--op write/read/write_imm/fetch_add/cmp_swap：对端的请求要经过本端QP的权限检查）"),
	  N_("单边/原子操作：INIT 时 QP 的 qp_access_flags 不给远端权限（MR 的权限和 rkey 都对），观察客户端的 REM_INV_REQ_ERR") },
};
/* 上面 late-recv 的帮助文字写的是 200 毫秒（一句完整的话才能整句翻译） */
_Static_assert(LATE_RECV_MS == 200, "late-recv 的 -h 文字要跟着 LATE_RECV_MS 改");
#define N_INJECT_KINDS ((int)(sizeof(inject_kinds) / sizeof(inject_kinds[0])))

static const struct inject_kind *inject_kind_of(enum inject id)
{
	for (int k = 0; k < N_INJECT_KINDS; k++)
		if (inject_kinds[k].id == id)
			return &inject_kinds[k];
	return NULL;
}

int inject_parse(const char *arg, struct options *o, char *err, size_t errlen)
{
	char names[256] = "";

	for (int k = 0; k < N_INJECT_KINDS; k++) {
		if (strcmp(arg, inject_kinds[k].name) == 0) {
			o->inject = inject_kinds[k].id;
			return 0;
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", k ? _("、") : "", inject_kinds[k].name);
	}
	snprintf(err, errlen, _("未知的故障注入: '%s'（可选 %s）"), arg, names);
	return -1;
}

/* 这一种注入和本端的角色、操作、模式合不合 */
int inject_check(const struct options *o, char *err, size_t errlen)
{
	const struct inject_kind *k = inject_kind_of(o->inject);

	if (k == NULL)
		return 0;
	if (k->role != ROLE_ANY && k->role != o->role) {
		snprintf(err, errlen, _("--inject %s 只用于%s"), k->name, k->role == ROLE_SERVER ? _("服务端") : _("客户端"));
		return -1;
	}
	if (!k->fits(o)) {
		snprintf(err, errlen, "--inject %s %s", k->name, _(k->rule));
		return -1;
	}
	if (o->interactive) {
		snprintf(err, errlen, _("--inject %s 不用于交互模式（注入发生在第1轮）"), k->name);
		return -1;
	}
	return 0;
}

/* -h 里本角色能用的每一种 */
void inject_print_usage(enum role role)
{
	for (int k = 0; k < N_INJECT_KINDS; k++)
		if (inject_kinds[k].role == ROLE_ANY || inject_kinds[k].role == role)
			printf(_("      --inject %-10s 故障注入：%s\n"), inject_kinds[k].name, _(inject_kinds[k].help));
}

