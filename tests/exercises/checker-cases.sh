#!/usr/bin/env bash
# tests/exercises/checker-cases.sh - 检查本身的几件事（tests/21-host-exercises.t 的第 10 项调用；失败时把原因写到标准输出，退出码 1）
#   1. verbs_rules.py 是数据：--json 载入后每条规则都有 id、call、field、condition、message、reason、source；
#      掩码表按 QP 类型不同（UD 的 INIT->RTR 不允许 IBV_QP_AV，RC 的允许可选的 IBV_QP_PKEY_INDEX）
#   2. LABONLY=1 检查学习者自己的文件（本机的规则不通过）不改进度表、不记提示次数
#   3. FILE= 的提示次数按文件另记：FILE= 犯过两次的错误，学习者自己的文件第一次犯仍然只给提示
#   4. 新规则的诊断 --lang en 时没有汉字（字段名“返回值”也是英文）
#   5. 崩溃的说明指着学习者自己碰了什么：自己声明的数组越界、程序交给的表越界
#   6. 实验室的结论（lab_judge，用写好的日志）：英文的“Failed to move QP[0] to RTR: … (errno=22)”进摘要；retry_cnt=7 通过，
#      并说 rxe 把 7 当成无限重试
#   7. verbs_rules 的每条规则有一个让它成立的记录和一个不能成立的合法记录，发现两种语言都有；rules.py 不重复一般规则
#      （tests/exercises/verbs-rules-cases.py）
# 用法: bash tests/exercises/checker-cases.sh   （EXERCISE_STATE 指向一个临时文件，不碰学习者的进度）
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
EX=exercises/check/exercise.py
FX=tests/exercises/fixtures
bad=0
fail() { echo "$1"; bad=1; }

# 1
out=$(python3 - <<'PY' 2>&1
import json, sys
sys.path.insert(0, "exercises/check")
import subprocess, verbs_rules as VR
d = json.loads(subprocess.run([sys.executable, "exercises/check/verbs_rules.py", "--json"], capture_output=True, text=True).stdout)
keys = {"id", "call", "field", "condition", "severity", "message", "reason", "source", "link"}
bad = [r.get("id") for r in d["rules"] if set(r) != keys or len(r["message"]) != 2 or len(r["reason"]) != 2]
miss, extra, _ = VR.mask_check(("INIT", "RTR"), "UD", VR.QP_STATE | VR.QP_AV)
miss2, extra2, _ = VR.mask_check(("INIT", "RTR"), "RC", VR.QP_STATE | VR.QP_AV | VR.QP_PATH_MTU | VR.QP_DEST_QPN | VR.QP_RQ_PSN
                                 | VR.QP_MAX_DEST_RD_ATOMIC | VR.QP_MIN_RNR_TIMER | VR.QP_PKEY_INDEX)
ud_rts = d["qp_transitions"]["RTR->RTS"]["UD"]["required"]
print("ok" if not bad and extra == VR.QP_AV and not miss and not miss2 and not extra2 and ud_rts == "IBV_QP_SQ_PSN"
      else "bad rules=%s ud-extra=%s rc=%s/%s ud-rts=%s" % (bad, extra, miss2, extra2, ud_rts))
PY
)
[[ $out == ok ]] || fail "verbs_rules: $out"

# 2、3：学习者自己的练习 3 文件先换成一个错误的答案（结束时复原）
mine=exercises/03-init-to-rtr.c
had=0; [[ -f $mine ]] && { had=1; cp "$mine" "$EXERCISE_STATE.mine"; }
rm -f "$EXERCISE_STATE"
cp $FX/3-rtr-own-qpn.c "$mine"
python3 $EX run 3 --lab-only --no-lab >/dev/null 2>&1
st=$(cat "$EXERCISE_STATE" 2>/dev/null)
[[ $st != *'"3"'* ]] || fail "LABONLY 改了进度表: $st"
python3 $EX run 3 --file $FX/3-rtr-own-qpn.c --no-lab >/dev/null 2>&1
python3 $EX run 3 --file $FX/3-rtr-own-qpn.c --no-lab >/dev/null 2>&1
own=$(python3 $EX run 3 --no-lab 2>&1)
[[ $own == *"rtr.dqpn_own"* && $own != *"为什么"* ]] || fail "FILE= 用掉了学习者的第一次提示: $own"
if ((had)); then cp "$EXERCISE_STATE.mine" "$mine"; else rm -f "$mine"; fi

# 4
for f in 3-rtr-mask-forbidden:3 3-rtr-sl-garbage:3 6-send-flags-unknown:6 9-wc-opcode-on-error:9 11-gid-zero-when-none:11 \
         11-gid-first-v2:11 3-rtr-path-mtu-1024:3 2-init-port-1:2; do
    en=$(python3 $EX run "${f#*:}" --file "$FX/${f%:*}.c" --no-lab --lang en 2>&1)
    en2=$(python3 $EX run "${f#*:}" --file "$FX/${f%:*}.c" --no-lab --lang en 2>&1)   # 第二次：解释和出处
    txt=$(grep -v '^  see: ' <<<"$en$en2")   # 链接是文件和标题的路径，不是要翻译的文字
    if grep -qP '[\x{4e00}-\x{9fff}]' <<<"$txt" || [[ $en != *"mistake"* ]]; then fail "--lang en ${f%:*}: $(grep -P '[\x{4e00}-\x{9fff}]' <<<"$txt" | head -2)"; fi
done

# 5
c1=$(python3 $EX run 10 --file $FX/10-access-own-array-crash.c --no-lab 2>&1)
c2=$(python3 $EX run 11 --file $FX/11-gid-crash.c --no-lab 2>&1)
[[ $c1 == *"你自己声明的数组"* && $c1 != *"conn->qp[i]"* ]] || fail "自己的数组越界: $(grep '✗\|数组' <<<"$c1" | head -3)"
[[ $c2 == *"程序交给你的数组"* ]] || fail "交给你的表越界: $(grep '✗\|你读' <<<"$c2" | head -3)"
# 6
L=$(mktemp -d)
mkdir -p "$L/rtr" "$L/r7"
printf 'Set: path_mtu=1024\nerror: Failed to move QP[0] to RTR: Invalid argument (errno=22)\n' >"$L/rtr/learner.out"
echo 1 >"$L/rtr/learner.rc"; echo 1 >"$L/rtr/peer.rc"; : >"$L/rtr/peer.out"
printf '设置: sq_psn=<本端PSN> timeout=14 retry_cnt=7 rnr_retry=7 max_rd_atomic=128\n' >"$L/r7/learner.out"
echo 0 >"$L/r7/learner.rc"; echo 0 >"$L/r7/peer.rc"; : >"$L/r7/peer.out"
got=$(python3 -c "
import sys; sys.path.insert(0, 'exercises/check'); import exercise as e
ok1, f1 = e.lab_judge(3, '$L/rtr'); ok2, f2 = e.lab_judge(4, '$L/r7')
print(not ok1 and any('Failed to move QP[0] to RTR' in f for f in f1), ok2 and any('retry_cnt=7' in f for f in f2))" 2>&1)
rm -rf "$L"
[[ $got == "True True" ]] || fail "lab_judge: $got"
# 7
vr=$(python3 tests/exercises/verbs-rules-cases.py 2>&1)
[[ $vr == "ok "* ]] || fail "verbs_rules cases: $vr"
exit $bad
