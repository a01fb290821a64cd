#!/usr/bin/env bash
# tests/23-host-trace-render.t - tools/trace/decode 和 tools/trace/render（TAP；不需要虚拟机和 root，几秒钟）
# 样例在 tests/trace/fixtures/：实验室里真实抓到的包（pcap）和控制台输出，以及 v1 格式的 trace
# （tests/trace/capture-fixtures.sh 生成，见 tests/trace/fixtures/README.md）。
# 期望值不写死：由 tests/trace/wrs.py 直接从样例里读出（每个 WR 的 PSN 范围、哪些帧属于它），
# 再到 trace.txt / trace.html 里找。慢机器上每启动一个进程都要几百毫秒：渲染和解码并行跑，
# 样例里的事实一次读完（$T/facts），检查只用 grep。
# 15–21 是页面的语言（issue 28）：trace 的 start 记录里的 "lang" 决定页面的语言；没有它的 trace（以前的、
# 中文的）渲染得和加语言之前一个字节都不差（tests/trace/zh-golden.sha256，加语言之前的 render 画的；
# 有意改了中文的页面或报告时，ZH_GOLDEN_UPDATE=1 bash tests/23-host-trace-render.t 按现在的输出重写它）。英文样例由 tests/trace/i18n.py 从同样的样例做出来
# （注入 "lang":"en"，trace 自己的中文文字换成 ~），画廊和 make bench 的报告也一样检查；
# po/tools/extract --check 查每句中文都交给了 gettext、都有英文，并且故意漏一句时它会失败。
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

F=tests/trace/fixtures
R=${TRACE_RENDER:-tools/trace/render}   # 变异检查时换成一个改坏的副本
W=tests/trace/wrs.py
NAMES=(write read send write_imm fetch_add cmp_swap rkey rnr wrap)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
START=$SECONDS

: >"$T/diag"
. tests/lib/tap.bash
TAP_DIAG=$T/diag  # 诊断先攒在这里，ok 打印后清空
hex6() { printf '0x%06x' $(($1 & 0xffffff)); }
# 行号：文件 $1 里第一行包含固定字符串 $2 的行（没有则 0）
line_of() {
    local l
    l=$(grep -nFm1 -- "$2" "$1") || { echo 0; return; }
    echo "${l%%:*}"
}
# 文件 $1 里有一行包含固定字符串 $2
has_row() { grep -qF -- "$2" "$1"; }
# 样例的事实（wrs.py --all）：facts NAME KIND → 这些行去掉前两个字段
facts() { awk -v n="$1" -v k="$2" '$1 == n && $2 == k { $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$T/facts"; }
# 标签里的 . 和 # 在 grep -E 里转义
re() { local s=${1//./\\.}; echo "${s//#/\\#}"; }

echo "1..21"

# 并行：渲染每个样例、解码每个 pcap、读出样例的事实
have_tshark=0
command -v tshark >/dev/null && have_tshark=1
for name in "${NAMES[@]}"; do
    mkdir -p "$T/$name"
    { "$R" "$F/$name.server.jsonl" "$F/$name.client.jsonl" --packets "$F/$name.packets.jsonl" \
        -o "$T/$name" >"$T/$name.out" 2>&1; echo $? >"$T/$name.rc"; } &
    if ((have_tshark)); then
        { tools/trace/decode "$F/$name.pcap" >"$T/$name.decoded" 2>"$T/$name.decerr"; echo $? >"$T/$name.decrc"; } &
    fi
done
"$W" --all "$F" "${NAMES[@]}" >"$T/facts" 2>"$T/facts.err"
wait

# ---------- 1. 每个样例都能渲染 ----------
bad=0
[[ -s $T/facts ]] || { diag "wrs.py --all 失败: $(cat "$T/facts.err")"; bad=1; }
for name in "${NAMES[@]}"; do
    if [[ $(cat "$T/$name.rc") != 0 ]]; then
        diag "$name: render 失败"; sed 's/^/    /' "$T/$name.out" >>"$T/diag"; bad=1
    elif [[ ! -s $T/$name/trace.txt || ! -s $T/$name/trace.html ]]; then
        diag "$name: trace.txt 或 trace.html 是空的"; bad=1
    fi
done
ok "$bad" "all ${#NAMES[@]} fixtures render to trace.txt and trace.html"

# ---------- 2. decode 从 pcap 得到同样的报文 ----------
if ((have_tshark)); then
    bad=0
    for name in "${NAMES[@]}"; do
        if [[ $(cat "$T/$name.decrc") != 0 ]]; then
            diag "$name: decode 失败: $(head -2 "$T/$name.decerr")"; bad=1
        elif ! diff -q "$T/$name.decoded" "$F/$name.packets.jsonl" >/dev/null; then
            diag "$name: decode 的输出和 $F/$name.packets.jsonl 不同:"
            diff "$T/$name.decoded" "$F/$name.packets.jsonl" | head -6 >>"$T/diag"; bad=1
        fi
    done
    ok "$bad" "tools/trace/decode turns each pcap into its packets.jsonl (tshark fields)"
else
    echo "ok 2 # skip 没有 tshark"
    n=$((n + 1))
fi

# ---------- 3. 每个包都对应到 WR，而且对应得和独立计算的一样 ----------
bad=0
for name in "${NAMES[@]}"; do
    txt=$T/$name/trace.txt
    total=$(facts "$name" packets)
    if ! grep -qF "$total 个 RoCE v2 包，$total 个对应到了 WR" "$txt"; then
        diag "$name: 不是 $total 个包全部对应到 WR: $(grep -F '个 RoCE v2 包' "$txt")"; bad=1
    fi
    ((total > 0)) || { diag "$name: 样例里没有包"; bad=1; }
    # WR 表的一行: "  C.QP0#1    RDMA_WRITE   2048B  PSN 0x..  请求 #1,#2   响应 #3   完成 ✓"
    while read -r label req resp; do
        read -r -a f < <(grep -E "^  $(re "$label") " "$txt")
        got_req=${f[6]:-?} got_resp=${f[8]:-?}
        if [[ $got_req != "$req" || $got_resp != "$resp" ]]; then
            diag "$name $label: 请求/响应帧 $got_req / $got_resp，独立计算是 $req / $resp"; bad=1
        fi
    done < <(facts "$name" frames)
done
ok "$bad" "every packet of every fixture is tied to a WR, the same frames as computed from QPN + PSN range"

# ---------- 4. 2 KiB WRITE，MTU 1024：First + Last + 一个 ACK，PSN 对，WR 对 ----------
bad=0
txt=$T/write/trace.txt
count=0
while read -r label op first npk dest len _; do
    count=$((count + 1))
    [[ $op == RDMA_WRITE && $npk == 2 && $len == 2048 ]] || { diag "$label: 样例不是 2 KiB、2 个包的 WRITE"; bad=1; }
    has_row "$txt" "RDMA WRITE First  PSN $(hex6 "$first")  $label" || { diag "$label: 没有 First PSN $(hex6 "$first") 的行"; bad=1; }
    has_row "$txt" "RDMA WRITE Last  PSN $(hex6 $((first + 1)))  $label" || { diag "$label: 没有 Last PSN $(hex6 $((first + 1))) 的行"; bad=1; }
    has_row "$txt" "ACK  PSN $(hex6 $((first + 1)))  $label" || { diag "$label: 没有 ACK PSN $(hex6 $((first + 1))) 的行"; bad=1; }
    k=$(grep -cE "(RDMA WRITE (First|Middle|Last|Only)|ACK)  PSN 0x[0-9a-f]{6}  $(re "$label")\b" "$txt")
    [[ $k == 3 ]] || { diag "$label: 有 $k 个包行，应该是 2 个 WRITE + 1 个 ACK"; bad=1; }
    grep -qE "QPN $(hex6 "$dest") 包1/2" "$txt" || { diag "$label: 包里的 QPN 不是对端的 $(hex6 "$dest")"; bad=1; }
done < <(facts write wr | grep "^C")
((count == 4)) || { diag "write 样例应有 4 个 WR（2 QP × 2 轮），有 $count 个"; bad=1; }
ok "$bad" "write 2K at MTU 1024: each WR is RDMA WRITE First + Last with its PSNs and one ACK, tied to the right WR"

# ---------- 5. 因果顺序：post_send < 它的包 < ACK < poll_cq；TCP 先发后收 ----------
bad=0
while read -r label _ first _; do
    p=$(line_of "$txt" "post_send $label ")
    a=$(line_of "$txt" "First  PSN $(hex6 "$first")  $label")
    b=$(line_of "$txt" "ACK  PSN $(hex6 $((first + 1)))  $label")
    c=$(line_of "$txt" "poll_cq ✓ $label ")
    if ! ((p > 0 && p < a && a < b && b < c)); then
        diag "$label: 行号 post_send=$p First=$a ACK=$b poll_cq=$c 不是递增的"; bad=1
    fi
done < <(facts write wr | grep "^C")
for r in 1 2; do
    s=$(grep -n "TCP 发送 SYNC DONE 第${r}轮" "$txt" | grep -v '^[0-9]*:[0-9.]* TCP' | head -1 | cut -d: -f1)
    v=$(grep -n "^[0-9.]* TCP 收到 SYNC DONE 第${r}轮" "$txt" | head -1 | cut -d: -f1)
    if ! ((${s:-0} > 0 && ${s:-0} < ${v:-0})); then
        diag "SYNC DONE 第${r}轮: 客户端发送在第 ${s:-?} 行，服务端收到在第 ${v:-?} 行"; bad=1
    fi
done
ok "$bad" "rows follow causality: post_send < its packets < ACK < poll_cq; a SYNC is sent before it is received"

# ---------- 6. 错误的 rkey：NAK REM_ACCESS_ERR ----------
bad=0
txt=$T/rkey/trace.txt
read -r label _ first _ _ _ _ used < <(facts rkey wr)
read -r _ _ announced < <(facts rkey mr | grep '^server ')
nak=$(line_of "$txt" "NAK  PSN $(hex6 "$first")  $label")
((nak > 0)) || { diag "没有 NAK PSN $(hex6 "$first") $label 的行"; bad=1; }
sed -n "$((nak + 1)),$((nak + 3))p" "$txt" | grep -qF "NAK REM_ACCESS_ERR" || { diag "NAK 行下面没有 REM_ACCESS_ERR"; bad=1; }
has_row "$txt" "poll_cq ✗ $label REM_ACCESS_ERR" || { diag "没有 poll_cq ✗ $label REM_ACCESS_ERR"; bad=1; }
[[ $used != "$announced" ]] || { diag "样例里客户端用的 rkey 就是服务端公布的 $announced"; bad=1; }
k=$(grep -cF "rkey=$(printf '0x%x' "$used")（≠" "$txt")
((k == 2)) || { diag "错误的 rkey $used 在 post_send 和 RETH 里应被标出（≠ $announced），标了 $k 处"; bad=1; }
grep -q '<tspan class="hl bad"' "$T/rkey/trace.html" || { diag "页面里没有标出错误的 rkey"; bad=1; }
ok "$bad" "--inject rkey: the NAK row says REM_ACCESS_ERR, tied to the WR; the completion fails; the wrong rkey is marked"

# ---------- 7. RNR NAK 和重传 ----------
bad=0
txt=$T/rnr/trace.txt
read -r label _ first _ < <(facts rnr wr | grep "^C")
k=$(grep -cF "RNR NAK  PSN $(hex6 "$first")  $label" "$txt")
((k >= 1)) || { diag "没有 RNR NAK 行"; bad=1; }
copies=$(grep -cF "SEND Only  PSN $(hex6 "$first")  $label" "$txt")
retx=$(grep -c "重传(第[0-9]*次)" "$txt")
((copies == k + 1 || copies == k + 2)) || { diag "SEND 发了 $copies 次，RNR NAK $k 个"; bad=1; }
((retx == copies - 1)) || { diag "$copies 次发送里标了 $retx 次重传"; bad=1; }
# 被接受的那次发送（第一个 ACK 之前的最后一份）必须在服务端 post_recv 之后
acc=$(facts rnr accepted)
pr=$(line_of "$txt" "post_recv S.QP0 R1")
ar=$(line_of "$txt" "#$acc SEND Only")
((pr > 0 && pr < ar)) || { diag "服务端 post_recv（第 $pr 行）应在被接受的 SEND #$acc（第 $ar 行）之前"; bad=1; }
# 时间戳说 post_recv 晚了 5 秒也一样：这是因果，不是时间
mkdir -p "$T/late"
"$W" --shift 5 "$F/rnr.server.jsonl" post_recv >"$T/late/server.jsonl"
if "$R" "$T/late/server.jsonl" "$F/rnr.client.jsonl" --packets "$F/rnr.packets.jsonl" --no-html --txt "$T/late/trace.txt" 2>>"$T/diag"; then
    pr=$(line_of "$T/late/trace.txt" "post_recv S.QP0 R1")
    ar=$(line_of "$T/late/trace.txt" "#$acc SEND Only")
    ((pr > 0 && pr < ar)) || { diag "post_recv 的时间戳晚 5 秒时，它（第 $pr 行）排到了被接受的 SEND #$acc（第 $ar 行）之后"; bad=1; }
else
    bad=1
fi
ok "$bad" "receive posted late: RNR NAK rows, the SEND retried (marked), accepted only after the server's post_recv (even if its clock says otherwise)"

# ---------- 8. READ：请求 + 响应 First/Middle/Last ----------
bad=0
txt=$T/read/trace.txt
while read -r label op first npk _; do
    [[ $op == RDMA_READ && $npk == 3 ]] || { diag "$label: 样例应是 3 个响应包的 READ"; bad=1; }
    has_row "$txt" "RDMA READ Request  PSN $(hex6 "$first")  $label" || { diag "$label: 没有 READ Request"; bad=1; }
    i=0
    for part in First Middle Last; do
        has_row "$txt" "READ Response $part  PSN $(hex6 $((first + i)))  $label" || { diag "$label: 没有 Response $part PSN $(hex6 $((first + i)))"; bad=1; }
        i=$((i + 1))
    done
done < <(facts read wr)
ok "$bad" "RDMA READ 3K: a Request, then Response First/Middle/Last with consecutive PSNs, tied to the READ WR"

# ---------- 9. 原子操作：AtomicETH + AtomicAckETH ----------
bad=0
for name in fetch_add cmp_swap; do
    txt=$T/$name/trace.txt
    req=FetchAdd
    [[ $name == cmp_swap ]] && req=CmpSwap
    while read -r label _ first _; do
        has_row "$txt" "$req  PSN $(hex6 "$first")  $label" || { diag "$name $label: 没有 $req"; bad=1; }
        has_row "$txt" "ATOMIC ACK  PSN $(hex6 "$first")  $label" || { diag "$name $label: 没有 ATOMIC ACK"; bad=1; }
    done < <(facts "$name" wr)
    k=0
    while read -r orig; do
        k=$((k + 1))
        grep -qF "AtomicAckETH 原值=$orig" "$txt" || { diag "$name: 没有显示原值 $orig"; bad=1; }
    done < <(facts "$name" orig)
    ((k == 2)) || { diag "$name: 样例应有 2 个 AtomicAckETH，有 $k 个"; bad=1; }
done
ok "$bad" "atomics: FetchAdd / CmpSwap and their ATOMIC ACK share the PSN and the WR; the original value is shown"

# ---------- 10. 24 位 PSN 回绕 ----------
bad=0
txt=$T/wrap/trace.txt
mapfile -t w < <(facts wrap wr)
read -r l1 _ f1 n1 _ <<<"${w[0]}"
read -r l2 _ f2 _ <<<"${w[1]}"
[[ $(hex6 "$f1") == 0xfffffe && $n1 == 4 ]] || { diag "wrap 样例的第一个 WR 应从 0xfffffe 起 4 个包: $f1 $n1"; bad=1; }
for psn in 0xfffffe 0xffffff 0x000000 0x000001; do
    grep -qE "RDMA WRITE (First|Middle|Last)  PSN $psn  $(re "$l1")\b" "$txt" || { diag "PSN $psn 没有对应到 $l1"; bad=1; }
done
has_row "$txt" "ACK  PSN 0x000001  $l1" || { diag "ACK 0x000001 没有对应到 $l1"; bad=1; }
has_row "$txt" "RDMA WRITE First  PSN $(hex6 "$f2")  $l2" || { diag "$l2 应从 $(hex6 "$f2") 开始"; bad=1; }
[[ $(hex6 "$f2") == 0x000002 ]] || { diag "第二个 WR 应从 0x000002 开始"; bad=1; }
ok "$bad" "PSN wraps at 2^24: 0xfffffe..0x000001 is one WR (and its ACK), the next starts at 0x000002"

# ---------- 11. WRITE WITH IMM：ImmDt，服务端的接收完成在数据包之后 ----------
bad=0
txt=$T/write_imm/trace.txt
read -r label _ first npk _ < <(facts write_imm wr)
last=$(line_of "$txt" "RDMA WRITE Last+Imm  PSN $(hex6 $((first + npk - 1)))  $label")
imm=$(facts write_imm imm)
sed -n "$last,$((last + 4))p" "$txt" | grep -qF "ImmDt=$imm" || { diag "Last+Imm 行（$last）下面没有 ImmDt=$imm"; bad=1; }
rc=$(line_of "$txt" "⇐ $label 的数据到了")
((last > 0 && rc > last)) || { diag "服务端 RECV_RDMA_WITH_IMM 完成（第 $rc 行）应在 Last+Imm（第 $last 行）之后"; bad=1; }
ok "$bad" "RDMA WRITE with immediate: ImmDt shown on the last packet; the server's completion comes after it"

# ---------- 12. 时钟不可比：平移一端的时钟和抓包的时钟，时间线不变 ----------
bad=0
name=send
mkdir -p "$T/shift"
"$W" --shift 3600.5 "$F/$name.client.jsonl" >"$T/shift/client.jsonl"
"$W" --shift -1234.25 "$F/$name.packets.jsonl" >"$T/shift/packets.jsonl"
"$R" "$F/$name.server.jsonl" "$T/shift/client.jsonl" --packets "$T/shift/packets.jsonl" \
    --no-html --txt "$T/shift/trace.txt" 2>>"$T/diag" || bad=1
# 只有头部的文件名不同
if ! diff <(tail -n +4 "$T/$name/trace.txt" | grep -v '^抓包:') <(tail -n +4 "$T/shift/trace.txt" | grep -v '^抓包:') >"$T/d" 2>&1; then
    diag "$name: 平移时钟后时间线变了:"; head -8 "$T/d" >>"$T/diag"; bad=1
fi
ok "$bad" "moving the client's clock by +3600.5 s and the capture's by -1234.25 s changes nothing (order by causality)"

# ---------- 13. 格式版本；不认识的事件和字段被忽略 ----------
bad=0
sed 's/"v":1,/"v":3,/' "$F/write.server.jsonl" >"$T/v3.jsonl"
if "$R" "$T/v3.jsonl" --no-html --txt "$T/v3.txt" 2>"$T/v3.err"; then
    diag "v=3 的 trace 没有被拒绝"; bad=1
elif ! grep -q 'v2' "$T/v3.err" || ! grep -q '"v":3' "$T/v3.err"; then
    diag "v=3 的报错没说清楚: $(cat "$T/v3.err")"; bad=1
fi
# v2（issue 39）= v1 + counters 事件：程序现在写 v2，两种都要认
{
    sed 's/"v":1,/"v":2,/' "$F/write.client.jsonl" | head -n -1
    echo '{"v":2,"ev":"counters","role":"client","t_real":"2026-11-22T15:00:00.000000Z","t_mono":1.0,"dev":"rxe1","port":1,"scope":"data_plane","present":true,"lifespan_ms":10,"shared":false,"moved":{"rcvd_pkts":16,"sent_pkts":16},"unreadable":[]}'
    sed 's/"v":1,/"v":2,/' "$F/write.client.jsonl" | tail -n 1
} >"$T/v2.jsonl"
if ! "$R" "$F/write.server.jsonl" "$T/v2.jsonl" --packets "$F/write.packets.jsonl" --no-html --txt "$T/v2.txt" 2>>"$T/diag"; then
    diag "v2 的 trace（带 counters 事件）渲染失败"; bad=1
elif ! grep -q '端口计数 rxe1/1: rcvd_pkts +16' "$T/v2.txt"; then
    diag "v2 的 counters 事件没有出现在时间线里"; bad=1
elif grep -q '忽略' "$T/v2.txt"; then
    diag "v2 的 counters 事件被当成不认识的事件"; bad=1
fi
{
    head -1 "$F/write.client.jsonl"
    echo '{"v":1,"ev":"some_future_event","role":"client","t_real":"2026-11-22T15:00:00.000000Z","t_mono":1.0,"x":[1,2]}'
    tail -n +2 "$F/write.client.jsonl" | sed 's/"ev":"post_send",/"ev":"post_send","future_field":{"a":1},/'
} >"$T/future.jsonl"
if ! "$R" "$F/write.server.jsonl" "$T/future.jsonl" --packets "$F/write.packets.jsonl" --no-html --txt "$T/future.txt" 2>>"$T/diag"; then
    diag "带未知事件/字段的 trace 渲染失败"; bad=1
elif ! diff <(grep -v '^客户端:' "$T/write/trace.txt") <(grep -v '^客户端:' "$T/future.txt") >"$T/d"; then
    diag "未知事件/字段改变了时间线:"; head -6 "$T/d" >>"$T/diag"; bad=1
elif ! grep -q '^客户端:.*忽略 1 个不认识的事件' "$T/future.txt"; then
    diag "头部没说忽略了 1 个事件"; bad=1
fi
ok "$bad" "a trace with \"v\":3 is refused with a clear message; v2 with a counters event is drawn; unknown events and fields are ignored"

# ---------- 14. trace.html 自包含，有 SVG，高亮步骤11 的值，和 trace.txt 一致 ----------
bad=0
for name in "${NAMES[@]}"; do
    h=$T/$name/trace.html
    if grep -qiE 'https?://' "$h"; then diag "$name: 页面里有 http(s):// 引用"; bad=1; fi
    if grep -qiE '<(script|img|iframe)[^>]* src=|<link[^>]*href=|url\((["'\'']?)[^#)]' "$h"; then diag "$name: 页面引用了外部文件"; bad=1; fi
    grep -q '<svg class="seq"' "$h" || { diag "$name: 没有 <svg>"; bad=1; }
    pk=$(facts "$name" packets)
    rows=$(grep -o '<g class="row pkt[^"]*"' "$h" | wc -l)
    [[ $rows == "$pk" ]] || { diag "$name: 页面有 $rows 个报文，抓包有 $pk 个"; bad=1; }
    tx=$(grep -cE '^.{0,60}│ (──▶|◀──) #[0-9]+ ' "$T/$name/trace.txt")
    [[ $tx == "$pk" ]] || { diag "$name: trace.txt 有 $tx 个报文行，抓包有 $pk 个"; bad=1; }
    secs=$(grep -c '^━━ ' "$T/$name/trace.txt")
    hs=$(grep -o '<section class="step"' "$h" | wc -l)
    [[ $secs == "$hs" ]] || { diag "$name: trace.txt 有 $secs 段，页面有 $hs 段"; bad=1; }
done
h=$T/write/trace.html
read -r _ _ qpn _ ip < <(facts write hello | grep '^server 0 ')
k="qpn:server:$qpn"
# 发往服务端这个 QPN 的包，每个都把 QPN 高亮（客户端也有同号的 QP：发往客户端的不算）
want=$(facts write dqpn_to | awk -v q="$qpn" -v ip="$ip" '$1 == q && $2 == ip { print $3 }')
inpkt=$(grep -o '<g class="row pkt[^>]*>\(<[^g/][^>]*>\|</[^g][^>]*>\|[^<]\)*' "$h" | grep -c "data-k=\"$k\"")
inleg=$(sed -n '/<section id="legend"/,/<\/section>/p' "$h" | grep -c "data-k=\"$k\"")
((inleg >= 1 && inpkt == want && want >= 4)) || { diag "服务端 QP0 的 QPN $(hex6 "$qpn") 在图例里高亮 $inleg 次，在报文里 $inpkt 次（应 ≥1、$want）"; bad=1; }
grep -q "class=\"hl rkey\" data-k=\"rkey:server:" "$h" || { diag "rkey 没有高亮"; bad=1; }
grep -q "class=\"hl va\" data-k=\"va:server:" "$h" || { diag "VA 没有高亮"; bad=1; }
grep -q "addEventListener('click'" "$h" || { diag "没有点击查看详情的脚本"; bad=1; }
ok "$bad" "trace.html: self-contained (no http(s)://, nothing loaded), inline SVG, same packets and sections as trace.txt, step-11 QPN/rkey/VA highlighted"

# ================================================================ 语言（issue 28）
# 英文的消息目录：只编译这一个（make locale 的规则，msgfmt --check）
MO=build/locale/en/LC_MESSAGES/rocev2-learn-tools.mo
make -s "$MO" >"$T/locale.out" 2>&1 || echo "# make $MO 失败: $(head -3 "$T/locale.out")"
I=$T/i18n
tests/trace/i18n.py prepare "$I" "${NAMES[@]}" 2>"$T/prepare.err" || echo "# i18n.py prepare 失败: $(cat "$T/prepare.err")"
mkdir -p "$T/zh/trace" "$T/zh/gallery" "$T/zh/bench" "$T/bin"
for name in "${NAMES[@]}"; do ln -s "$T/$name" "$T/zh/trace/$name"; done
# gnuplot 换成什么也不画的替身：这里只看报告的文字
printf '#!/bin/sh\ncat >/dev/null\n' >"$T/bin/gnuplot"
chmod +x "$T/bin/gnuplot"
bench() {  # bench 目录 [环境变量...] -- [report.sh 的参数...]：在 $T/目录 里用样例 CSV 生成报告
    local d=$T/$1 envs=()
    shift
    while (($#)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    mkdir -p "$d"
    cp tests/trace/bench/*.csv "$d/"
    env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG PATH="$T/bin:$PATH" BENCH_OUT="$d" "${envs[@]}" \
        tools/bench/report.sh "$@" >"$d.out" 2>&1
    echo $? >"$d.rc"
}
for name in "${NAMES[@]}"; do
    mkdir -p "$T/en/$name"
    { "$R" "$I/en/$name.server.jsonl" "$I/en/$name.client.jsonl" --packets "$F/$name.packets.jsonl" \
        -o "$T/en/$name" >"$T/en/$name.out" 2>&1; echo $? >"$T/en/$name.rc"; } &
done
for name in write rkey; do
    mkdir -p "$T/zhl/$name"
    "$R" "$I/zh/$name.server.jsonl" "$I/zh/$name.client.jsonl" --packets "$F/$name.packets.jsonl" -o "$T/zhl/$name" \
        >"$T/zhl/$name.out" 2>&1 &
done
mkdir -p "$T/envlang" "$T/mixed" "$T/forced"
LANG=en_US.UTF-8 LANGUAGE=en "$R" "$F/write.server.jsonl" "$F/write.client.jsonl" --packets "$F/write.packets.jsonl" \
    -o "$T/envlang" >"$T/envlang.out" 2>&1 &
"$R" "$I/mixed/write.server.jsonl" "$I/mixed/write.client.jsonl" --packets "$F/write.packets.jsonl" \
    -o "$T/mixed" >"$T/mixed.out" 2>&1 &
"$R" "$I/en/write.server.jsonl" "$I/en/write.client.jsonl" --packets "$F/write.packets.jsonl" --lang zh \
    -o "$T/forced" >"$T/forced.out" 2>&1 &
if ((have_tshark)); then
    tools/gallery/render --kinds "$I/gallery-zh/kinds.txt" --html "$T/zh/gallery/index.html" --txt "$T/zh/gallery/gallery.txt" \
        --json "$T/zh/gallery/gallery.json" "$I/gallery-zh" >"$T/gallery-zh.out" 2>&1 &
    tools/gallery/render --kinds "$I/gallery-en/kinds.txt" "$I/gallery-en" >"$T/gallery-en.out" 2>&1 &
fi
bench zh/bench LANG=C.UTF-8 -- &
bench bench-en LANG=en_US.UTF-8 -- &
bench bench-c LC_ALL=C LANG=en_US.UTF-8 -- &
bench bench-forced LANG=zh_CN.UTF-8 -- --lang en &
po/tools/extract --check >"$T/extract.out" 2>&1
echo $? >"$T/extract.rc"
# 故意漏翻：一份改坏的副本（一句没交给 _()，一句新的 _() 没有译文，kinds.txt 改了一句，report.sh 多一句中文）
M=$T/mut
mkdir -p "$M/tools/trace" "$M/tools/gallery" "$M/tools/bench" "$M/po/tools"
cp tools/trace/render "$M/tools/trace/"
cp tools/gallery/render tools/gallery/kinds.txt "$M/tools/gallery/"
cp tools/bench/report.sh tools/bench/compare.sh "$M/tools/bench/"
cp po/tools/extract po/tools/en.po "$M/po/tools/"
sed -i 's|^    return "RoCEv2 trace"$|    return "RoCEv2 trace" or "没有交给翻译的中文"|; s|_("开始")|_("开始了")|' "$M/tools/trace/render"
sed -i 's/|对端的 rkey 不对|/|对端的 rkey 错了|/' "$M/tools/gallery/kinds.txt"
sed -i 's|^    echo "# make bench: RoCEv2 learn --bench vs perftest"$|&\n    echo "漏了的中文"|' "$M/tools/bench/report.sh"
"$M/po/tools/extract" --check >"$T/mut.out" 2>&1
echo $? >"$T/mut.rc"
wait

# 英文的 trace.txt 里 WR 表一行的请求/响应帧（"  C.QP0#1 RDMA_WRITE 2048B PSN 0x.. req #1,#2 resp #3 completed ✓"）
wr_frames() {  # wr_frames 文件 标签 → "请求帧 响应帧"
    local f
    read -r -a f < <(grep -E "^  $(re "$2") " "$1")
    [[ ${f[5]:-} == req && ${f[7]:-} == resp ]] && echo "${f[6]} ${f[8]}"
}

# ---------- 15. 没有 lang 的 trace（中文）和加语言之前一样；"lang":"zh" 一样；环境变量不改页面 ----------
bad=0
[[ -f $MO ]] || { diag "$MO 没有编译出来: $(head -3 "$T/locale.out")"; bad=1; }
if [[ ${ZH_GOLDEN_UPDATE:-} == 1 ]]; then
    golden=$(awk '{ print $2 }' tests/trace/zh-golden.sha256)
    (cd "$T/zh" && echo "$golden" | xargs sha256sum) >"$T/golden.new" && mv "$T/golden.new" tests/trace/zh-golden.sha256
    echo "# tests/trace/zh-golden.sha256 按现在的输出重写了"
fi
if ! (cd "$T/zh" && sha256sum -c --quiet "$OLDPWD/tests/trace/zh-golden.sha256") >"$T/d" 2>&1; then
    diag "中文的输出和加语言之前（tests/trace/zh-golden.sha256）不同:"; grep -v '^sha256sum: WARNING' "$T/d" | head -12 >>"$T/diag"; bad=1
fi
for name in write rkey; do
    cmp -s "$T/$name/trace.txt" "$T/zhl/$name/trace.txt" || { diag "$name: \"lang\":\"zh\" 的 trace.txt 和没有 lang 的不同"; bad=1; }
    # 页面里只有详情用的原始事件（start 记录多了 lang）不同
    cmp -s <(grep -v 'id="trace-data"' "$T/$name/trace.html") <(grep -v 'id="trace-data"' "$T/zhl/$name/trace.html") ||
        { diag "$name: \"lang\":\"zh\" 的 trace.html 和没有 lang 的不同"; bad=1; }
done
if ! cmp -s "$T/write/trace.txt" "$T/envlang/trace.txt" || ! cmp -s "$T/write/trace.html" "$T/envlang/trace.html"; then
    diag "LANG=en_US.UTF-8 LANGUAGE=en 时中文的 trace（没有 lang）画出来不一样：页面应跟着 trace，不跟着环境"; bad=1
fi
grep -q '<html lang="zh-CN">' "$T/write/trace.html" || { diag "中文页面没有 lang=\"zh-CN\""; bad=1; }
ok "$bad" "Chinese unchanged: traces without \"lang\" render byte-identical to before (trace pages, gallery, bench report), \"lang\":\"zh\" the same, LANG=en in the environment changes nothing"

# ---------- 16. "lang":"en" 的 trace：英文页面，没有一个中文字 ----------
bad=0
for name in "${NAMES[@]}"; do
    txt=$T/en/$name/trace.txt h=$T/en/$name/trace.html
    if [[ $(cat "$T/en/$name.rc") != 0 ]]; then
        diag "$name: 英文渲染失败: $(head -3 "$T/en/$name.out")"; bad=1; continue
    fi
    if ! tests/trace/i18n.py cjk "$txt" "$h" >"$T/d"; then diag "$name: 英文页面里有中文:"; head -4 "$T/d" >>"$T/diag"; bad=1; fi
    pk=$(facts "$name" packets)
    for want in "Values exchanged at step 11 (they reappear in the packets):" "━━ Step 11" \
        "capture: $name.packets.jsonl, $pk RoCE v2 packets, $pk tied to a WR" \
        "WRs and packets (matched by QPN + PSN range):" " server rdma_server " " wire RoCE v2 (UDP 4791) "; do
        has_row "$txt" "$want" || { diag "$name: trace.txt 里没有: $want"; bad=1; }
    done
    for want in '<html lang="en">' 'id="detail-close">close<' '<h2>Values exchanged at step 11</h2>' '<th>start PSN</th>'; do
        has_row "$h" "$want" || { diag "$name: trace.html 里没有 $want"; bad=1; }
    done
    # 同样的包、同样的段、每个 WR 同样的帧
    a=$(grep -cE '│ (──▶|◀──) #[0-9]+ ' "$T/$name/trace.txt") b=$(grep -cE '│ (──▶|◀──) #[0-9]+ ' "$txt")
    [[ $a == "$b" ]] || { diag "$name: 中文 $a 个报文行，英文 $b 个"; bad=1; }
    a=$(grep -c '^━━ ' "$T/$name/trace.txt") b=$(grep -c '^━━ ' "$txt")
    [[ $a == "$b" ]] || { diag "$name: 中文 $a 段，英文 $b 段"; bad=1; }
    while read -r label req resp; do
        got=$(wr_frames "$txt" "$label")
        [[ $got == "$req $resp" ]] || { diag "$name $label: 英文 WR 表的帧是 [$got]，应是 [$req $resp]"; bad=1; }
    done < <(facts "$name" frames)
done
has_row "$T/en/rkey/trace.html" "NAK REM_ACCESS_ERR: remote access error: wrong rkey, address or access flags" ||
    { diag "rkey: 没有英文的 NAK 说明"; bad=1; }
has_row "$T/en/rkey/trace.txt" "poll_cq ✗ C.QP0#1 REM_ACCESS_ERR" || { diag "rkey: 没有失败的完成"; bad=1; }
has_row "$T/en/rnr/trace.html" "RNR NAK: the peer has not posted a receive yet; retry in" || { diag "rnr: 没有英文的 RNR NAK 说明"; bad=1; }
has_row "$T/en/rnr/trace.txt" "retransmission (copy 2)" || { diag "rnr: 没有标出重传"; bad=1; }
ok "$bad" "traces with \"lang\":\"en\" render in English: all ${#NAMES[@]} fixtures, no Chinese character, key labels, html lang=en, the same packets, sections and WR frames as the Chinese page"

# ---------- 17. 两个 trace 语言不同：页面说出来，用服务端的；--lang 盖过 trace ----------
bad=0
note="note: the two traces are in different languages (server en, client zh); the page follows the server's"
has_row "$T/mixed/trace.txt" "$note" || { diag "trace.txt 没说两端语言不同"; bad=1; }
has_row "$T/mixed/trace.html" '<p class="meta lang-note">note: the two traces are in different languages (server en, client zh)' ||
    { diag "trace.html 没说两端语言不同"; bad=1; }
has_row "$T/mixed/trace.html" '<html lang="en">' || { diag "服务端是英文，页面不是"; bad=1; }
has_row "$T/mixed.out" "$note" || { diag "stderr 没说两端语言不同: $(cat "$T/mixed.out")"; bad=1; }
tests/trace/i18n.py cjk "$T/mixed/trace.txt" >/dev/null || { diag "服务端是英文，trace.txt 里却有中文"; bad=1; }
if ! has_row "$T/forced/trace.txt" "步骤11 交换的值（在包里再次出现的地方）:" || ! has_row "$T/forced/trace.html" '<html lang="zh-CN">'; then
    diag "--lang zh 没有盖过 trace 的 \"lang\":\"en\""; bad=1
fi
ok "$bad" "a server trace in English and a client trace in Chinese: the page is English and says so (text, page, stderr); --lang zh overrides the traces"

# ---------- 18. 故障画廊：英文的 trace → 英文的页面 ----------
if ((have_tshark)); then
    bad=0
    G=$I/gallery-en
    if [[ ! -s $G/index.html ]]; then
        diag "英文画廊没画出来: $(head -3 "$T/gallery-en.out")"; bad=1
    else
        tests/trace/i18n.py cjk "$G/index.html" "$G/gallery.txt" >"$T/d" || { diag "英文画廊里有中文:"; head -4 "$T/d" >>"$T/diag"; bad=1; }
        for want in '<html lang="en">' "<b>What is wrong: </b>The client&#x27;s RDMA WRITE uses an rkey other than" \
            "<b>How to fix: </b>Use the rkey and the remote address exactly" "on the wire: NAK REM_ACCESS_ERR, AETH syndrome 0x62 (frame" \
            "<th>direction</th>" "client → server" "exit status 1"; do
            has_row "$G/index.html" "$want" || { diag "英文画廊里没有 $want"; bad=1; }
        done
        has_row "$G/gallery.txt" "rkey  server " || { diag "gallery.txt 不是英文: $(head -3 "$G/gallery.txt")"; bad=1; }
        # 英文日志里的注入那一行也找到了（页面上紫色的那行）
        python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kinds"][0]; sys.exit(not any("--inject rkey" in l for l in k["sides"]["client"]["inject"]))' \
            "$G/gallery.json" || { diag "英文日志里的 fault injection 行没被找到"; bad=1; }
    fi
    ok "$bad" "gallery: English traces give an English page (no Chinese character, kinds.txt's text in English, the injection line found in the English log)"
else
    n=$((n + 1))
    echo "ok $n # skip 没有 tshark（画廊要解码 pcap）"
fi

# ---------- 19. make bench 的报告：和程序一样按 --lang / 环境变量选语言 ----------
bad=0
for d in zh/bench bench-en bench-c bench-forced; do
    [[ $(cat "$T/$d.rc") == 0 ]] || { diag "$d: report.sh 失败: $(head -3 "$T/$d.out")"; bad=1; }
done
for d in bench-en bench-forced; do
    tests/trace/i18n.py cjk "$T/$d/results.md" "$T/$d.out" >"$T/d" || { diag "$d: 英文报告里有中文:"; head -3 "$T/d" >>"$T/diag"; bad=1; }
    for want in "## Knobs (this project, one setting changed at a time" "| write_bw | 64 | default (--signal 16) |" \
        "| write_bw | 64 | --signal 100 (perftest's CQ moderation) |" "## --cq poll vs --cq event"; do
        has_row "$T/$d/results.md" "$want" || { diag "$d: results.md 里没有: $want"; bad=1; }
    done
done
cmp -s "$T/zh/bench/results.md" "$T/bench-c/results.md" || { diag "LC_ALL=C LANG=en_US.UTF-8 应是中文（LC_ALL 说了算）"; bad=1; }
ok "$bad" "bench report: LANG=en_US.UTF-8 or --lang en give English results.md (knob settings too), LC_ALL=C over LANG=en stays Chinese"

# ---------- 20. 每句中文都交给了 gettext，都有英文；msgfmt --check ----------
bad=0
if [[ $(cat "$T/extract.rc") != 0 ]]; then diag "po/tools/extract --check 失败:"; head -20 "$T/extract.out" >>"$T/diag"; bad=1; fi
count=$(sed -n 's/^po\/tools\/en.po: \([0-9]*\) messages.*/\1/p' "$T/extract.out")
ok "$bad" "po/tools/extract --check: every Chinese string in the renderers, kinds.txt and report.sh is marked, all ${count:-?} messages translated in po/tools/en.po, msgfmt --check clean"

# ---------- 21. 故意漏翻时这个检查会失败 ----------
bad=0
[[ $(cat "$T/mut.rc") != 0 ]] || { diag "改坏的副本 po/tools/extract --check 却通过了"; bad=1; }
for want in "Chinese string not marked for translation (_, N_ or P_): '没有交给翻译的中文'" "no translation: '开始了'" \
    "no translation: '对端的 rkey 错了'" 'echo "漏了的中文"  <- Chinese not inside t'; do
    has_row "$T/mut.out" "$want" || { diag "没有报出: $want"; bad=1; }
done
((bad)) && sed 's/^/    /' "$T/mut.out" >>"$T/diag"
ok "$bad" "the check fails on an unmarked Chinese string, a new string without a translation (render, kinds.txt) and unmarked Chinese in report.sh"

echo "# 用时 $((SECONDS - START)) 秒"
