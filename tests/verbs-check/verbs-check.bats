#!/usr/bin/env bats
# tests/verbs-check/verbs-check.bats - verbs-check（issue 57）在宿主机上：规则在最小的日志上、实验室里记下的真实日志、
# 和练习同一个错误同一个说法、程序的输出和退出码原样传过来。tests/20-host-scripts.t 运行它（不要设备、不要虚拟机）。
VC=tools/verbs-check/verbs-check
bats_require_minimum_version 1.5.0

setup() {
    cd "$BATS_TEST_DIRNAME/../.." || return 1
}

@test "verbs-check rules: each finding from a minimal log, exactly the expected ids; clean logs stay clean (tests/verbs-check/cases.py)" {
    run python3 tests/verbs-check/cases.py
    echo "$output"
    [[ $status == 0 ]]
    [[ $output == *"cases, 0 failed"* ]]
}

@test "bad log input (cut, empty, binary, foreign, wrong types, huge, no logs; seeded mutations of the lab logs): no traceback, exit 0/1/2, the cut or skipped line named (tests/verbs-check/malformed.py)" {
    run python3 tests/verbs-check/malformed.py
    echo "$output"
    [[ $status == 0 ]]
    [[ $output != *"not ok"* ]]
    [[ $output == *"ok the truncated ones"* ]]
}

@test "verbs-check --pair on logs recorded in the lab: ibv_rc/ud/srq_pingpong -g 1 and our default pair have no finding" {
    local c
    for c in rc ud srq ours; do
        run "$VC" --lang en --pair "tests/verbs-check/logs/$c"
        echo "== $c"
        echo "$output"
        [[ $status == 0 ]]
        [[ $output == *"pair: "* ]]
        [[ $output == *"no findings"* || $output == *"no errors or warnings"* ]]
    done
}

@test "verbs-check on ibv_rc_pingpong without -g (recorded in the lab): the missing GRH is named, at RTR, by field" {
    run "$VC" --lang en --judge tests/verbs-check/logs/rc-nogrh/*.log
    echo "$output"
    [[ $status == 1 ]]
    [[ $output == *"error rtr.grh ah_attr.is_global ["*"INIT->RTR)]"* ]]
    [[ $output == *"cannot see: statically linked"* ]]
}

@test "one rule source: RTR mask with RTS bits gets the same id, field, message and reason from make exercise and from verbs-check" {
    export EXERCISE_STATE=$BATS_TEST_TMPDIR/state.json
    make -s exercise-objs >/dev/null 2>&1 || skip "exercise objects do not build here"
    # 第二次失败时练习给出完整的解释（why:）
    python3 exercises/check/exercise.py run 3 --file tests/exercises/fixtures/3-rtr-mask-forbidden.c --no-lab --lang en >/dev/null 2>&1 || true
    run python3 exercises/check/exercise.py run 3 --file tests/exercises/fixtures/3-rtr-mask-forbidden.c --no-lab --lang en
    local ex=$output
    echo "$ex"
    # 同一个掩码（样例里的 IBV_QP_STATE | AV | PATH_MTU | DEST_QPN | RQ_PSN | MAX_DEST_RD_ATOMIC | MIN_RNR_TIMER | SQ_PSN | TIMEOUT | RETRY_CNT | RNR_RETRY | MAX_QP_RD_ATOMIC）在 verbs-check 的日志里
    run python3 tests/verbs-check/same-mistake.py "$ex"
    echo "$output"
    [[ $status == 0 ]]
}

@test "recorder: posts and completions kept raw and formatted at flush are all in the log, in order, field for field; what it forwards is unchanged (fake driver, tests/verbs-check/recorder-fake.c)" {
    local bin=$BATS_TEST_TMPDIR/recorder-fake log
    cc -D_GNU_SOURCE -Isrc -std=c11 -Wall -Wextra -Werror -pthread -O2 -o "$bin" tests/verbs-check/recorder-fake.c \
        src/verbs/route_lookup.c -ldl
    mkdir "$BATS_TEST_TMPDIR/log"
    VERBS_CHECK_LOG=$BATS_TEST_TMPDIR/log "$bin" >"$BATS_TEST_TMPDIR/expected"
    log=$(echo "$BATS_TEST_TMPDIR"/log/*.log)
    # 记录器的数组（1024 条）满过好几次；失败的 WR、出错的完成、poll 的错误、别的记录都有
    (($(wc -l <"$BATS_TEST_TMPDIR/expected") > 5000))
    grep -q '"t":"post_send".*"ret":12' "$BATS_TEST_TMPDIR/expected"
    grep -q '"t":"post_srq_recv".*"ret":22' "$BATS_TEST_TMPDIR/expected"
    grep -q '"t":"wc".*"status":10,' "$BATS_TEST_TMPDIR/expected"
    grep -q '"t":"poll_cq"' "$BATS_TEST_TMPDIR/expected"
    grep -q '"t":"get_cq_event"' "$BATS_TEST_TMPDIR/expected"
    run diff <(tail -n +2 "$log") "$BATS_TEST_TMPDIR/expected"
    echo "${output:0:2000}"
    [[ $status == 0 ]]
    # -v（VERBS_CHECK_LIVE）：攒着的至多半秒就写出，程序还在运行时日志里就有；不带 -v 时等到写出的时候
    rm -f "$BATS_TEST_TMPDIR"/log/*
    run env VERBS_CHECK_LIVE=1 VERBS_CHECK_LOG="$BATS_TEST_TMPDIR/log" "$bin" live
    [[ $output == lines_on_disk=3 ]]
    rm -f "$BATS_TEST_TMPDIR"/log/*
    run env -u VERBS_CHECK_LIVE VERBS_CHECK_LOG="$BATS_TEST_TMPDIR/log" "$bin" live
    [[ $output == lines_on_disk=1 ]]
}

@test "output and exit code pass through unchanged; no log, no finding for a program without verbs; --lang en has no Chinese" {
    make -s verbs-check >/dev/null
    run build/verbs-check --lang en -- sh -c 'echo to-stdout; echo to-stderr >&2; exit 7'
    [[ $status == 7 ]]
    [[ ${lines[0]} == to-stdout && ${lines[1]} == to-stderr ]]
    [[ $output == *"no verbs call was recorded"* ]]
    run grep -cP '[\x{4e00}-\x{9fff}]' <<<"$output"
    [[ $output == 0 ]]
    # 子进程继承预载库，输出和退出码照样
    run build/verbs-check -- sh -c 'sh -c "exit 3"; echo $?'
    [[ $status == 0 && ${lines[0]} == 3 ]]
    # ibv_devinfo（用 libibverbs，宿主机没有设备）：有没有 verbs-check 一样
    if command -v ibv_devinfo >/dev/null; then
        local plain rc1 rc2
        plain=$(ibv_devinfo 2>&1) && rc1=0 || rc1=$?
        run build/verbs-check -- ibv_devinfo
        rc2=$status
        [[ $rc1 == "$rc2" ]]
        [[ $output == "$plain"* ]]
    fi
}

@test "language like the programs: the same LANGUAGE/LC_ALL/LC_MESSAGES/LANG gives verbs-check the language build/rdma_client -h has" {
    make -s all >/dev/null
    local envs=("" "LANG=en_US.UTF-8" "LANG=zh_CN.UTF-8" "LANGUAGE=de:en" "LANGUAGE=de LC_ALL=en_US.UTF-8"
        "LANGUAGE=zh:en LANG=en_US.UTF-8" "LANGUAGE=en:zh LANG=zh_CN.UTF-8" "LC_ALL=C LANG=en_US.UTF-8"
        "LC_MESSAGES=en_GB.UTF-8 LANG=zh_CN.UTF-8" "LC_ALL=fr_FR.UTF-8" "LANGUAGE=fr LANG=en_US.UTF-8" "LANG=C")
    local e want got n_en=0
    for e in "${envs[@]}"; do
        # （宿主机的 python3 若是 pyenv 的 shell 包装，它会对没生成的 locale 警告：不算）
        # shellcheck disable=SC2086
        want=$(env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG $e build/rdma_client -h 2>&1 | grep -v '^bash: warning: setlocale' | head -1)
        # shellcheck disable=SC2086
        got=$(env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG $e build/verbs-check -h 2>&1 | grep -v '^bash: warning: setlocale' | head -1)
        echo "[$e] client: ${want%% *}  verbs-check: ${got%% *}"
        [[ ${want,,} == usage:* && ${got,,} == usage:* || $want == 用法:* && $got == 用法:* ]]
        [[ $want == Usage:* ]] && n_en=$((n_en + 1))
    done
    # 两种语言都出现过（不是总是同一种）
    ((n_en > 0 && n_en < ${#envs[@]}))
    # 发现（判断）和它自己的句子也是这种语言；--lang=en 和 --lang en 一样，认不得的 --lang 是用法错误（和程序一样）
    run env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANGUAGE=de:en LANG=zh_CN.UTF-8 build/verbs-check --judge tests/verbs-check/logs/rc-nogrh/*.log
    [[ $output == *"error rtr.grh ah_attr.is_global"* && $output == *"cannot see: statically linked"* ]]
    run build/verbs-check --lang=en --judge tests/verbs-check/logs/rc-nogrh/*.log
    [[ $output == *"error rtr.grh"* ]]
    run build/verbs-check --lang fr --judge tests/verbs-check/logs/rc-nogrh/*.log
    [[ $status == 2 && $output == *"--lang"* ]]
    run -127 env LANG=en_US.UTF-8 build/verbs-check -- /nonexistent/prog
    [[ $status == 127 && $output == *"cannot run /nonexistent/prog"* ]]
    run -127 env LANG=zh_CN.UTF-8 build/verbs-check -- /nonexistent/prog
    [[ $status == 127 && $output == *"不能运行 /nonexistent/prog"* ]]
}

@test "two machines: at exit each side prints the copy command (peer's address from its GID, own folder so a same-named log is not overwritten); running it and --pair judges both sides" {
    make -s verbs-check >/dev/null
    local t=$BATS_TEST_TMPDIR vm0 vm1 cmd stderr="" srv cli
    # 实验室里记下的一对：服务端（rxe0，不带地址）和客户端（rxe1，连 10.11.0.1）
    srv=$(grep -l '"argv":"ibv_rc_pingpong -d rxe0 ' tests/verbs-check/logs/rc/*.log)
    cli=$(grep -l '"argv":"ibv_rc_pingpong -d rxe1 .*10\.11\.0\.1' tests/verbs-check/logs/rc/*.log)
    [[ -f $srv && -f $cli ]]
    # 两台新开的虚拟机上 pid 常常一样：两边的日志同名（ibv_rc_pingpong.200.log）
    vm0=$t/vm0 vm1=$t/vc
    mkdir -p "$vm0" "$t/bin"
    cp "$srv" "$vm0/ibv_rc_pingpong.200.log"
    # “程序”在 verbs-check 给它的目录里留下客户端那一边的日志（在 10.11.0.2 上，对端 10.11.0.1）
    # shellcheck disable=SC2016  # $VERBS_CHECK_LOG 由“程序”的 sh 展开
    run --separate-stderr env CLI="$cli" build/verbs-check --lang en --log "$vm1" -- \
        sh -c 'cp "$CLI" "$VERBS_CHECK_LOG/ibv_rc_pingpong.200.log"; echo out'
    echo "$stderr"
    [[ $status == 0 && $output == out ]]
    cmd=$(grep -A1 "copy it over" <<<"$stderr" | tail -1)
    echo "command: $cmd"
    [[ $cmd == *"scp '10.11.0.1:$vm1/*.log' $vm1/10.11.0.1/"* && $cmd == *"build/verbs-check --lang en --pair $vm1" ]]
    # 学习者原样运行它；scp 的替身从“VM0”（$vm0）复制，只认对端的地址
    cat >"$t/bin/scp" <<EOS
#!/bin/bash
[[ \$1 == 10.11.0.1:$vm1/'*.log' ]] || { echo "scp stand-in: unexpected \$1" >&2; exit 1; }
cp $vm0/*.log "\$2"
EOS
    chmod +x "$t/bin/scp"
    run env PATH="$t/bin:$PATH" bash -c "$cmd"
    echo "$output"
    [[ $status == 0 ]]
    [[ -f $vm1/ibv_rc_pingpong.200.log && -f $vm1/10.11.0.1/ibv_rc_pingpong.200.log ]]
    [[ $output =~ "pair: 10.11.0.1/ibv_rc_pingpong "[0-9]+" <-> ibv_rc_pingpong "[0-9]+ || $output =~ "pair: ibv_rc_pingpong "[0-9]+" <-> 10.11.0.1/ibv_rc_pingpong "[0-9]+ ]]
    [[ $output == *"no findings"* || $output == *"no errors or warnings"* ]]
    # 对端的日志是这次运行时写下的（刚复制来）：不再提示复制；以前复制来的（修改时间早一小时）不算，这次运行又要新的
    touch "$vm1/10.11.0.1/ibv_rc_pingpong.200.log"
    # shellcheck disable=SC2016  # $VERBS_CHECK_LOG 由“程序”的 sh 展开
    run --separate-stderr env CLI="$cli" build/verbs-check --lang en --log "$vm1" -- \
        sh -c 'cp "$CLI" "$VERBS_CHECK_LOG/ibv_rc_pingpong.201.log"'
    [[ $stderr != *"copy it over"* ]]
    touch -d '1 hour ago' "$vm1/10.11.0.1/ibv_rc_pingpong.200.log"
    # shellcheck disable=SC2016  # $VERBS_CHECK_LOG 由“程序”的 sh 展开
    run --separate-stderr env CLI="$cli" build/verbs-check --lang en --log "$vm1" -- \
        sh -c 'cp "$CLI" "$VERBS_CHECK_LOG/ibv_rc_pingpong.202.log"'
    [[ $stderr == *"copy it over"* ]]
}

@test "one folder, two runs: a log another verbs-check run writes into the same --log folder meanwhile (the other side on the same machine) is not judged in this run's result" {
    make -s verbs-check >/dev/null
    local t=$BATS_TEST_TMPDIR ours=(tests/verbs-check/logs/rc/*.log) other=(tests/verbs-check/logs/rc-nogrh/*.log)
    # “程序”像记录器那样写下日志：它自己的带上 verbs-check 给的记号（VERBS_CHECK_RUN），另一次运行的带别的记号；
    # 另一次运行的那个有错误（没有 GRH），这次的干净
    # shellcheck disable=SC2016  # 变量由“程序”的 sh 展开
    run --separate-stderr env OURS="${ours[0]}" OTHER="${other[0]}" build/verbs-check --lang en --log "$t/vc" -- sh -c '
        sed "1s/\"ppid\"/\"run\":\"$VERBS_CHECK_RUN\",\"ppid\"/" "$OURS" >"$VERBS_CHECK_LOG/ibv_rc_pingpong.1.log"
        sed "1s/\"ppid\"/\"run\":\"1.2\",\"ppid\"/" "$OTHER" >"$VERBS_CHECK_LOG/ibv_rc_pingpong.2.log"'
    echo "$stderr"
    [[ $status == 0 ]]
    grep -q '"run":"[0-9]*\.[0-9]*"' "$t/vc/ibv_rc_pingpong.1.log"
    [[ $stderr != *"rtr.grh"* && $stderr != *"ibv_rc_pingpong 2"* ]]
    [[ $stderr == *"no errors or warnings"* || $stderr == *"no findings"* ]]
    # 另一次运行的日志本身照样能判断（记号只分开各次运行的结果）
    run "$VC" --lang en --judge "$t/vc/ibv_rc_pingpong.2.log"
    [[ $status == 1 && $output == *"rtr.grh"* ]]
}
