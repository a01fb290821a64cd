#!/usr/bin/env bash
# tests/21-host-exercises.t - 练习的宿主机一层（TAP，不需要虚拟机；练习版的目标文件已编译时约 1 分钟）
#   1. 普通版里没有弱符号的课（LESSON 是空的），练习版里每个练习的课都是弱符号
#   2. 每个练习原样的 exercises/start/ 文件：“还没写”，退出码 1，不崩溃
#   3. 每个练习 REF=1（程序自己的函数）通过宿主机的全部规则
#   4. tests/exercises/fixtures/ 的每个样例得到它自己的诊断（错误名、crash、pass；make exercise-matrix 的同一件事）
#   5. 崩溃报告说出学习者文件里的行号
#   6. 同一个错误第一次只给提示，第二次给完整解释和链接；--lang en 时没有汉字
#   7. make exercise-reset 从 start/ 复原，旧的副本留在 build/exercises/*.bak；make exercises 的表说出状态和下一个
#   8. 诊断里的每个链接（rules.py）指向存在的文件和标题（tests/docs/check-links.pl 的规则）
#   9. 练习 5 在实验室里的先后判断（exercise.py 的 trace_order）：接收在 READY 之前的 --trace 不报；第 2 轮的 READY
#      早于它的接收、只投了一部分时说出那一轮和个数（实验室里的真例子在 tests/32-lab-exercises.t）
#  10. 检查本身（tests/exercises/checker-cases.sh）：规则是能载入的数据（每条一般规则一对成立/不成立的记录）、LABONLY/FILE= 不改进度和提示次数、新规则的英文、
#      崩溃的说明指着学习者自己碰了什么
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export EXERCISE_STATE=$T/state.json
. tests/lib/tap.bash
TAP_DIAG=$T/diag  # 诊断先攒在这里，ok 打印后清空
: >"$T/diag"
EX=exercises/check/exercise.py
echo "1..10"
if ! make -s all >/dev/null 2>"$T/build" || ! make -s exercise-objs >/dev/null 2>>"$T/build"; then cat "$T/build"; echo "Bail out! build failed"; exit 1; fi

# 1
bad=0
weak_default=$(nm build/rdma_client | awk '$2 == "W" || $2 == "w"' | grep -c '_for$')
weak_ex=$(nm build/exercise/obj/rdma_common.o 2>/dev/null | awk '$2 == "W" { print $3 }' | grep '_for$' | sort -u | wc -l)
NEX=$(find exercises/start -name '*.c' | wc -l)   # 每个练习一个原样的文件、一个课
[[ $weak_default == 0 ]] || { echo "普通版有 $weak_default 个弱符号的课" >>"$T/diag"; bad=1; }
[[ $weak_ex == "$NEX" ]] || { echo "练习版的弱符号课: $weak_ex 个（要 $NEX 个）" >>"$T/diag"; bad=1; }
ok $bad "default build has no weak lesson symbols, the exercise build has all $NEX weak"

# 2、3
bad=0
for i in $(seq 1 "$NEX"); do
    f=$(ls exercises/start/"$(printf %02d "$i")"-*.c)
    out=$(python3 $EX run "$i" --file "$f" --no-lab 2>&1); rc=$?
    if [[ $rc != 1 || $out != *"还没写"* ]]; then echo "练习 $i 原样: rc=$rc" >>"$T/diag"; echo "$out" | tail -3 >>"$T/diag"; bad=1; fi
done
ok $bad "every untouched start file says 'not written yet' and exits 1"
bad=0
for i in $(seq 1 "$NEX"); do
    out=$(python3 $EX run "$i" --ref --no-lab 2>&1); rc=$?
    if [[ $rc != 0 || $out != *"宿主机的规则全部通过"* ]]; then echo "练习 $i REF=1: rc=$rc" >>"$T/diag"; echo "$out" | tail -5 >>"$T/diag"; bad=1; fi
done
ok $bad "REF=1 passes every host rule for all $NEX exercises"

# 4
python3 $EX matrix >"$T/matrix" 2>&1; rc=$?
total=$(grep -c '^ok  \|^FAIL' "$T/matrix")
named=$(grep '^ok  ' "$T/matrix" | grep -vc 'expect \(pass\|crash\|todo\) ')
few=0   # 每个练习至少 3 个各有名字的典型错误
for i in $(seq 1 "$NEX"); do
    k=$(grep '^ok  ' "$T/matrix" | grep -v 'expect \(pass\|crash\|todo\) ' | grep -c "^ok   $i-")
    ((k >= 3)) || { echo "练习 $i 只有 $k 个有名字的错误样例" >>"$T/diag"; few=1; }
done
[[ $rc == 0 && $total -ge 50 && $named -ge 24 && $few == 0 ]] || { grep '^FAIL\|fixtures' "$T/matrix" >>"$T/diag"; echo "rc=$rc total=$total named=$named" >>"$T/diag"; }
ok "$([[ $rc == 0 && $total -ge 50 && $named -ge 24 && $few == 0 ]]; echo $?)" "every fixture gets its own diagnosis, at least 3 named per exercise ($total fixtures, $named named mistakes)"

# 5
out=$(python3 $EX run 3 --file tests/exercises/fixtures/3-rtr-crash-qp-index.c --no-lab 2>&1)
line=$(grep -n 'conn->qp\[i + 2\]' tests/exercises/fixtures/3-rtr-crash-qp-index.c | cut -d: -f1)
[[ $out == *"崩溃"*"3-rtr-crash-qp-index.c:$line"* ]] || echo "$out" | head -5 >>"$T/diag"
ok "$([[ $out == *"崩溃"*"3-rtr-crash-qp-index.c:$line"* ]]; echo $?)" "a crash is reported with the learner's file and line ($line)"

# 6
rm -f "$EXERCISE_STATE"
first=$(python3 $EX run 3 --file tests/exercises/fixtures/3-rtr-own-qpn.c --no-lab 2>&1)
second=$(python3 $EX run 3 --file tests/exercises/fixtures/3-rtr-own-qpn.c --no-lab 2>&1)
en=$(python3 $EX run 3 --file tests/exercises/fixtures/3-rtr-own-qpn.c --no-lab --lang en 2>&1)
bad=0
[[ $first == *"rtr.dqpn_own"*"dest_qp_num"* && $first != *"为什么"* ]] || { echo "第一次: $first" >>"$T/diag"; bad=1; }
[[ $second == *"为什么"*"docs/GALLERY.md#qpn"* ]] || { echo "第二次: $second" >>"$T/diag"; bad=1; }
if [[ $en != *"your own QP number"* ]] || grep -qP '[\x{4e00}-\x{9fff}]' <<<"$en"; then echo "英文: $en" >>"$T/diag"; bad=1; fi
ok $bad "hint on the first failure, explanation and link on the second; --lang en is English only"

# 7
bad=0
cp exercises/start/05-recv-wr.c "$T/orig" 2>/dev/null
had=0; [[ -f exercises/05-recv-wr.c ]] && { had=1; cp exercises/05-recv-wr.c "$T/mine"; }
echo "/* learner edit */" >>exercises/05-recv-wr.c
make -s exercise-reset EX=5 >/dev/null 2>&1
cmp -s exercises/05-recv-wr.c exercises/start/05-recv-wr.c || { echo "reset 没有复原" >>"$T/diag"; bad=1; }
grep -q 'learner edit' build/exercises/05-recv-wr.c.bak || { echo "没有 .bak" >>"$T/diag"; bad=1; }
if ((had)); then cp "$T/mine" exercises/05-recv-wr.c; else rm -f exercises/05-recv-wr.c; fi
echo '{"1": {"status": "passed"}, "2": {"status": "failing", "last": "init.access_missing"}}' >"$EXERCISE_STATE"
table=$(make -s exercises 2>&1)
[[ $table == *"通过"*"没通过：init.access_missing"*"没开始"*"下一个: make exercise EX=2"* ]] || { echo "$table" >>"$T/diag"; bad=1; }
# REF=1 和 FILE= 检查的不是学习者的文件：进度表里练习 3 还是“没开始”
python3 $EX run 3 --ref --no-lab >/dev/null 2>&1
python3 $EX run 3 --file tests/exercises/fixtures/3-rtr-own-qpn.c --no-lab >/dev/null 2>&1
row=$(make -s exercises 2>&1 | grep '^3 ')
[[ $row == *"没开始"* ]] || { echo "REF=1/FILE= 改了学习者的进度: $row" >>"$T/diag"; bad=1; }
ok $bad "exercise-reset restores the start file and keeps a .bak; the table shows passed/failing/not started and the next one; REF=1 and FILE= leave the learner's row alone"

# 8
python3 -c "
import sys; sys.path.insert(0, 'exercises/check'); import rules
print('\n'.join('[x](%s)' % v[3] for v in rules.M.values() if v[3]))" >"$T/links.md"
cp "$T/links.md" ./.exercise-links.md
perl tests/docs/check-links.pl .exercise-links.md >>"$T/diag" 2>&1
rc=$?
rm -f .exercise-links.md
ok $rc "every link in a diagnosis points to an existing file and heading ($(wc -l <"$T/links.md") links)"

# 9
ev() { printf '{"v":2,"ev":"%s","role":"server"%s}\n' "$1" "$2"; }
{ ev start ',"num_qp":2'; for r in 1 2; do ev post_recv ',"qp":0'; ev post_recv ',"qp":1'; ev ctrl_send ",\"msg\":\"SYNC\",\"kind\":\"READY\",\"round\":$r"; done; } >"$T/good.trace"
{ ev start ',"num_qp":2'; ev post_recv ',"qp":0'; ev post_recv ',"qp":1'; ev ctrl_send ',"msg":"SYNC","kind":"READY","round":1'
  ev post_recv ',"qp":0'; ev ctrl_send ',"msg":"SYNC","kind":"READY","round":2'; ev post_recv ',"qp":1'; } >"$T/late.trace"
got=$(python3 -c "
import sys; sys.path.insert(0, 'exercises/check'); import exercise as e
print(e.trace_order('$T/good.trace'), e.trace_order('$T/late.trace'), e.trace_order('$T/missing.trace'))")
[[ $got == "[] [(2, 1, 2)] None" ]] || echo "trace_order: $got" >>"$T/diag"
ok "$([[ $got == "[] [(2, 1, 2)] None" ]]; echo $?)" "exercise 5's --trace order: receives before READY pass, READY of round 2 after 1/2 receives is named"

# 10
bash tests/exercises/checker-cases.sh >>"$T/diag" 2>&1
ok $? "the checker's own cases: rules load as data, LABONLY/FILE= leave progress and hint counts alone, English only, crash advice names what was touched"
