/*
 * hints.c - WC 错误状态 → 原因和检查项
 */
#include "verbs/hints.h"
#include "console/i18n.h"

#include <errno.h>

const char *wc_status_hint(enum ibv_wc_status status)
{
	switch (status) {
	case IBV_WC_SUCCESS:
		return _("成功");
	case IBV_WC_RETRY_EXC_ERR:
		return _("传输重试超限：重传 retry_cnt 次对端一直没有应答。检查两端IP能否互通、对端进程是否还在、\n"
		       "      GID 是否还是网卡的地址（./show_gids.sh）、防火墙是否挡了 UDP 4791（两台都要放行）；./diagnose.sh --peer <对端IP>。\n"
		       "      包到了对端却被丢掉也是它：RTR 的 dest_qp_num 不是对端的 QP 号、RTS 的 sq_psn 和告诉对端的不一样、对端 QP 已进 ERR\n"
		       "      （docs/GALLERY.md 的 qpn、psn、flush）");
	case IBV_WC_RNR_RETRY_EXC_ERR:
		return _("RNR 重试超限：对端没有投递接收请求(Receive WR)。接收方必须先 post_receive，再通知发送方发送（见同步点）；\n"
		       "      rnr_retry 小于 7 时网卡收到那么多个 RNR NAK 就放弃（rnr_retry=0：第一个），7 = 一直重试");
	case IBV_WC_REM_ACCESS_ERR:
		return _("远端访问错误：rkey 或远端地址不对，或对端的 MR 没有开 IBV_ACCESS_REMOTE_WRITE/READ/ATOMIC 权限\n"
		       "      （对端回了 NAK Remote Access Error；早于 6.1 的 rxe 不回 NAK，这时看到的是 RETRY_EXC_ERR）。\n"
		       "      对端 QP 的 qp_access_flags 没开权限不是这个状态，是 REM_INV_REQ_ERR");
	case IBV_WC_LOC_PROT_ERR:
		return _("本地保护错误：SGE 的 lkey/地址/长度不在已注册的 MR 内，或本地 MR 少了要用的权限。\n"
		       "      READ/原子 的结果要写进本地 MR，它需要 IBV_ACCESS_LOCAL_WRITE（rxe 上缺了它就报这个状态）。\n"
		       "      SGE 的 lkey 不对时硬件网卡和 5.10 的 rxe 报它；6.1 的 rxe 报 LOC_QP_OP_ERR，6.12 的 rxe 报 WR_FLUSH_ERR（docs/GALLERY.md 的 lkey）");
	case IBV_WC_LOC_LEN_ERR:
		return _("本地长度错误：收到的消息比接收缓冲区大，或发送长度超过设备限制");
	case IBV_WC_LOC_QP_OP_ERR:
		return _("本地QP操作错误：WR 超出QP的能力（SGE 个数、inline 长度、QP类型不支持的操作码），或无法为目的GID构造报文（GID/路由/邻居）。\n"
		       "      QP 还没到 RTS（RESET/INIT/RTR）时 ibv_post_send 本身就会失败，不会走到这里；QP 已在错误状态时 ibv_post_send 照样接受，WR 以 WR_FLUSH_ERR 完成。\n"
		       "      接收方的完成是它：收到的 SEND 比投递的接收缓冲区大（rxe 实测如此；规范和硬件网卡是 LOC_LEN_ERR）——两端的消息大小/接收缓冲区对一对。\n"
		       "      6.1 的 rxe 上 SGE 的 lkey 不是本端 MR 的 lkey 也是它（硬件网卡和 5.10 的 rxe 是 LOC_PROT_ERR，6.12 的 rxe 是 WR_FLUSH_ERR）：\n"
		       "      用 ibv_reg_mr 返回的 mr->lkey");
	case IBV_WC_REM_INV_REQ_ERR:
		return _("远端无效请求：对端 QP 的 qp_access_flags 没开这个操作要的 IBV_ACCESS_REMOTE_WRITE/READ/ATOMIC\n"
		       "      （ibv_poll_cq(3) 这样列；6.1、6.12 的 rxe 实测回 NAK Invalid Request，docs/GALLERY.md 的 qp-access），\n"
		       "      或对端不支持该操作（如原子操作），或消息超过对端接收缓冲区（规范和硬件网卡；rxe 这时是 REM_OP_ERR）");
	case IBV_WC_REM_OP_ERR:
		return _("远端操作错误：对端处理请求时出错，回了 NAK “Remote Operational Error”。rxe 上常见的原因：SEND 比对端投递的接收缓冲区大\n"
		       "      （对端的完成是 LOC_QP_OP_ERR；规范和硬件网卡这时是 REM_INV_REQ_ERR / LOC_LEN_ERR）；也可能对端QP已进入错误状态。看对端的输出");
	case IBV_WC_WR_FLUSH_ERR:
		return _("WR 被冲刷：QP 已进入错误状态（前一个 WR 出错，或程序用 ibv_modify_qp 把它改到了 ERR），\n"
		       "      队列中没完成的请求全部以此状态返回；请看第一条非 FLUSH 的错误，那才是原因");
	case IBV_WC_MW_BIND_ERR:
		return _("内存窗口绑定错误");
	case IBV_WC_BAD_RESP_ERR:
		return _("对端应答异常：两端协议或参数不一致");
	case IBV_WC_LOC_ACCESS_ERR:
		return _("本地访问错误：访问本端内存时权限不对（少见，各网卡用法不同）。\n"
		       "      READ/原子 写本地 MR 却没有 IBV_ACCESS_LOCAL_WRITE 时，rxe 报的是 LOC_PROT_ERR，见那一条");
	case IBV_WC_REM_ABORT_ERR:
		return _("对端中止了操作");
	case IBV_WC_FATAL_ERR:
		return _("设备致命错误：查看 dmesg");
	case IBV_WC_RESP_TIMEOUT_ERR:
		return _("应答超时：对端没有回应");
	default:
		return _("查看 ibv_wc_status_str 的说明、dmesg 以及对端的输出");
	}
}

const char *device_list_hint(int err)
{
	if (err == ENOSYS)
		return _("libibverbs 打不开 /sys/class/infiniband_verbs（errno 38 就是这个意思），两种原因：\n"
		       "      1) 内核没有 RDMA：Ubuntu 先 sudo apt-get install linux-modules-extra-$(uname -r)，再 sudo modprobe rdma_rxe；\n"
		       "      2) 有 RDMA 设备但 ib_uverbs 没加载：内核 ≥ 5.3 一般会按需自动加载它，加载不了时（容器、模块被禁用）才这样；\n"
		       "         sudo modprobe ib_uverbs，装 rdma-core 让硬件网卡的模块开机就加载。\n"
		       "      运行 ./diagnose.sh 看是哪一种；没有 RDMA 的机器也可以用本项目的实验室 lab/run");
	return _("libibverbs 无法枚举设备：rdma_rxe/ib_uverbs 模块加载了吗？运行 ./diagnose.sh");
}
