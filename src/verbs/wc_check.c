/*
 * wc_check.c - 检查完成(WC)的 opcode、长度、立即数
 */
#include "verbs/wc_check.h"
#include "console/i18n.h"

#include <arpa/inet.h>
#include <stdio.h>

const char *wc_opcode_str(enum ibv_wc_opcode op)
{
	switch (op) {
	case IBV_WC_SEND: return "SEND";
	case IBV_WC_RDMA_WRITE: return "RDMA_WRITE";
	case IBV_WC_RDMA_READ: return "RDMA_READ";
	case IBV_WC_COMP_SWAP: return "COMP_SWAP";
	case IBV_WC_FETCH_ADD: return "FETCH_ADD";
	case IBV_WC_BIND_MW: return "BIND_MW";
	case IBV_WC_RECV: return "RECV";
	case IBV_WC_RECV_RDMA_WITH_IMM: return "RECV_RDMA_WITH_IMM";
	default: return "UNKNOWN";
	}
}

int wc_error_owner(uint64_t wr_id, int wr_qp, int qp_by_num, char *buf, size_t len)
{
	if (!wrid_is_srq(wr_id)) {
		snprintf(buf, len, "QP[%d]", wr_qp);
		return wr_qp;
	}
	if (qp_by_num >= 0)
		snprintf(buf, len, _("SRQ 的接收（缓冲区 %d，QP[%d]）"), wrid_srq_buf(wr_id), qp_by_num);
	else
		snprintf(buf, len, _("SRQ 的接收（缓冲区 %d，qp_num 不是本端的QP）"), wrid_srq_buf(wr_id));
	return -1;
}

int wc_check(const struct ibv_wc *wc, const struct wc_expect *e, char *err, size_t errlen)
{
	if (wc->opcode != e->opcode) {
		snprintf(err, errlen, _("完成类型是 %s (%d)，期望 %s"), wc_opcode_str(wc->opcode),
			 wc->opcode, wc_opcode_str(e->opcode));
		return -1;
	}
	if (e->check_len && wc->byte_len != e->len) {
		snprintf(err, errlen, _("%s 完成报告 %u 字节，期望 %u 字节"), wc_opcode_str(wc->opcode),
			 wc->byte_len, e->len);
		return -1;
	}
	if (e->check_imm && !(wc->wc_flags & IBV_WC_WITH_IMM)) {
		snprintf(err, errlen, _("%s 完成没有 IBV_WC_WITH_IMM 标志（没有立即数）"), wc_opcode_str(wc->opcode));
		return -1;
	}
	if (e->check_imm && ntohl(wc->imm_data) != e->imm) {
		snprintf(err, errlen, _("立即数 0x%08x，期望 0x%08x"), ntohl(wc->imm_data), e->imm);
		return -1;
	}
	return 0;
}
