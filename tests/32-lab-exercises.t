#!/usr/bin/env bash
# tests/32-lab-exercises.t - 练习在真实 rxe 上（TAP；一次实验室开机，约 60–90 秒）
#   宿主机先编练习版（make exercise-objs）和 11 个程序，然后一次开机里（exercises/check/lab.sh 的 EX_PLAN）：
#   1. 参照：两端都是练习版（课都是弱符号），学习者一侧是服务端，--op write_imm -q 2 通过，ibv_query_qp 读回的
#      dest_qp_num/rq_psn 是对端的，服务端的 --trace 里每一轮的接收都在 READY 之前投递（练习 5 的先后判断不误报）
#   2. 参照的服务端加 --inject late-recv（--op send）：--trace 的先后判断说出“第 1 轮的 READY 在接收之前”（不看 RNR 计数）
#   3–13. 每个练习（练习 11 除外：一台虚拟机里 -d 指定设备，步骤4 不调用它）的一个典型错误（tests/exercises/fixtures/ 的样例）
#        在真实 rxe 上留下它该有的证据：崩溃、WC 状态、dest_qp_num 是自己的号码时抓包（veth0，tools/trace/capture + decode）
#        看到的请求发往不是对端的 QP、没有应答、同一个 PSN 重发（对端先“烧掉”了几个 QP 号，两端的号码才不同）、
#        清理时 ibv_destroy_cq 的 EBUSY 和 ASan 的泄漏报告
#   14–15. 掩码带了这一步不允许的位（RTR 带 RTS 的 SQ_PSN/TIMEOUT/…，RTS 带 RTR 的 AV/DEST_QPN/…）：真实 rxe 上 EINVAL，
#        摘要里是“修改QP[0]到RTR状态失败 … errno=22”和“ibv_modify_qp(RTS) … errno=22”
#   16. 那两次运行里程序的“设置:”行打印的是学习者的函数填的值（min_rnr_timer=3、hop_limit=8、retry_cnt=5、rnr_retry=6），不是参照的常数
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
. tests/lib/tap.bash
plan 16
if ! make -s all >/dev/null || ! make -s exercise-objs >/dev/null; then echo "Bail out! build failed"; exit 1; fi
out=$(python3 exercises/check/exercise.py labcheck 2>&1)
while IFS= read -r line; do
    case $line in
        "ok  "*) pass "${line#ok  }" ;;
        "FAIL "*) notok "${line#FAIL }" ;;
        "# "*) echo "$line" ;;
    esac
done <<<"$out"
if ((n != 16)); then
    notok "labcheck printed $n results" "$(printf '%s\n' "$out" | tail -20)"
fi
