#!/usr/bin/env bats
# tests/console-diff/normalise.bats - console-diff 的规整（tools/console-diff/run.sh 的 normalise）在宿主机上：
# 同一个版本两次运行之间看时机的不同被合并，真的不同照样报告。tests/20-host-scripts.t 运行它（不要虚拟机）。
# fixtures/cm-send.server.run{1,2}.log：同一个提交（1c20ea4）两次 console-diff 运行（run.sh --save）里 cm-send 配方的
# 服务端原样输出；第一次先到的连接请求是数据QP[1]，第二次是控制连接（--cm 的服务端说“到达顺序不定”）。
# fixtures/inject-flush.client.log、peer-closed.server.log：同一次运行的这两个配方；另一种结果（先报告 QP[0]、
# “，连接被重置”）在另一次 console-diff 运行（c2bb5b6 对 64eb691，2026-11-29）里出现过，这里照那次的差别改出来
bats_require_minimum_version 1.5.0

setup() {
    cd "$BATS_TEST_DIRNAME/../.." || return 1
    F=tests/console-diff/fixtures
    N=tools/console-diff/run.sh
}

norm() { bash "$N" --normalise "$1"; }

@test "console-diff: the CM connect requests of two runs of one revision, in another order, normalise to the same text" {
    run ! diff -q "$F/cm-send.server.run1.log" "$F/cm-send.server.run2.log"
    diff -u <(norm "$F/cm-send.server.run1.log") <(norm "$F/cm-send.server.run2.log")
    # 请求没有丢：三个请求各一行，排了序放在末尾
    run norm "$F/cm-send.server.run1.log"
    [[ $output == *"连接请求的到达顺序取决于时机"*"↑ QP[…]"*"↑ QP[…]"*"↑ 控制连接，来自 10.11.0.2:…"* ]]
}

@test "console-diff: a real difference in the CM requests still shows (one request fewer, other kinds, other wording, a line moved elsewhere, other lines reordered)" {
    local d=$BATS_TEST_TMPDIR
    # 少了一个数据QP的请求
    awk '/^    ↑ QP\[0\]$/ && !done { done = 1; next } { print }' "$F/cm-send.server.run1.log" >"$d/fewer.log"
    # 请求一样多，种类不同：两个控制连接、一个数据QP（只有末尾排了序的行看得出）
    sed 's/^    ↑ QP\[0\]$/    ↑ 控制连接，来自 10.11.0.2:49847/' "$F/cm-send.server.run1.log" >"$d/kinds.log"
    # “控制连接”的说法变了
    sed 's/↑ 控制连接，来自/↑ 控制连接（来自/' "$F/cm-send.server.run1.log" >"$d/wording.log"
    # ↑ 行不在连接请求事件后面（挪到了“第一个连接请求”一行之后）：不是到达顺序，照原位置比
    awk 'NR == 18 { held = $0; next } NR == 19 { print; print held; next } { print }' "$F/cm-send.server.run1.log" >"$d/moved.log"
    # 别的两行换了先后
    awk 'NR == 43 { held = $0; next } NR == 44 { print; print held; next } { print }' "$F/cm-send.server.run1.log" >"$d/swapped.log"
    sed -n '18p;43,44p' "$F/cm-send.server.run1.log"
    for v in fewer kinds wording moved swapped; do
        echo "== $v"
        run ! diff -q <(norm "$d/$v.log") <(norm "$F/cm-send.server.run2.log")
    done
}

@test "console-diff: inject-flush reports either QP's RETRY_EXC first; only that recipe's line merges, other statuses and recipes still differ" {
    local d=$BATS_TEST_TMPDIR f=$F/inject-flush.client.log
    grep -q '^错误: 工作完成(WC)失败: QP\[1\] 状态=transport retry counter exceeded (12) ' "$f"
    mkdir -p "$d/other" "$d/status" "$d/same"
    sed 's/失败: QP\[1\] 状态=transport/失败: QP[0] 状态=transport/' "$f" >"$d/same/inject-flush.client.log"
    diff -u <(norm "$f") <(norm "$d/same/inject-flush.client.log")
    # 状态不同：照样不同
    sed 's/QP\[1\] 状态=transport retry counter exceeded (12)/QP[1] 状态=remote access error (10)/' "$f" >"$d/status/inject-flush.client.log"
    run ! diff -q <(norm "$f") <(norm "$d/status/inject-flush.client.log")
    # 别的配方里 QP 号变了：照样不同
    cp "$f" "$d/other/inject-qpn.client.log"
    cp "$d/same/inject-flush.client.log" "$d/other/inject-qpn2.client.log"
    run ! diff -q <(norm "$d/other/inject-qpn.client.log") <(norm "$d/other/inject-qpn2.client.log")
}

@test "console-diff: peer-closed sees FIN or RST (', connection reset' or not) as one; the byte count, other wording and other recipes still differ" {
    local d=$BATS_TEST_TMPDIR f=$F/peer-closed.server.log
    grep -q '^错误: 对端关闭了连接（连接信息头只收到 4/48 字节）$' "$f"
    mkdir -p "$d/rst" "$d/count" "$d/other"
    sed 's|只收到 4/48 字节）|只收到 4/48 字节，连接被重置）|' "$f" >"$d/rst/peer-closed.server.log"
    diff -u <(norm "$f") <(norm "$d/rst/peer-closed.server.log")
    sed 's|只收到 4/48 字节）|只收到 0/48 字节）|' "$f" >"$d/count/peer-closed.server.log"
    run ! diff -q <(norm "$f") <(norm "$d/count/peer-closed.server.log")
    mkdir -p "$d/word"
    sed 's|只收到 4/48 字节）|只收到 4/48 字节，超时）|' "$f" >"$d/word/peer-closed.server.log"
    run ! diff -q <(norm "$f") <(norm "$d/word/peer-closed.server.log")
    cp "$f" "$d/other/bad-hello.server.log"
    cp "$d/rst/peer-closed.server.log" "$d/other/bad-hello2.server.log"
    run ! diff -q <(norm "$d/other/bad-hello.server.log") <(norm "$d/other/bad-hello2.server.log")
}
